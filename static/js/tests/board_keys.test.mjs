// board/keys.js: what each key does, without a DOM.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LETTERS, keyCommand, typing, wordsOf } from "../board/keys.js";

test("the letters and their arrows", () => {
  assert.deepEqual(keyCommand("r"), ["roll"]);
  assert.deepEqual(keyCommand("R"), ["roll"]);
  assert.deepEqual(keyCommand("n"), ["next", 1]);
  assert.deepEqual(keyCommand("ArrowRight"), ["next", 1]);
  assert.deepEqual(keyCommand("P"), ["next", -1]);
  assert.deepEqual(keyCommand("ArrowLeft"), ["next", -1]);
  assert.deepEqual(keyCommand("t"), ["cycle", 1]);
  assert.deepEqual(keyCommand("ArrowDown"), ["cycle", 1]);
  assert.deepEqual(keyCommand("ArrowUp"), ["cycle", -1]);
  assert.deepEqual(keyCommand("Enter"), ["enter"]);
  assert.deepEqual(keyCommand(" "), ["enter"]);
  assert.deepEqual(keyCommand("u"), ["undo"]);
  assert.deepEqual(keyCommand("Backspace"), ["undo"]);
  assert.deepEqual(keyCommand("Escape"), ["cancel"]);
});

test("other keys are not the board's", () => {
  for (const key of ["x", "Tab", "Shift", "F5", "1", "Home"]) assert.equal(keyCommand(key), null, key);
});

test("only the letters act from elsewhere on the page", () => {
  assert.deepEqual(Object.keys(LETTERS).sort(), ["n", "p", "r", "t", "u"]);
});

test("a key pressed in a field belongs to the field", () => {
  const inField = { closest: (sel) => (sel.includes("input") ? {} : null) };
  const onButton = { closest: () => null };
  assert.equal(typing(inField), true);
  assert.equal(typing(onButton), false);
  assert.equal(typing(null), false);
});

test("the game's words are read from its list, each <dt> with the <dd> after it", () => {
  const dd = (text) => ({ textContent: text });
  const dts = [{ textContent: "R", nextElementSibling: dd("roll the die") },
    { textContent: "Esc", nextElementSibling: null }];
  assert.deepEqual(wordsOf(dts), [["R", "roll the die"], ["Esc", ""]]);
});
