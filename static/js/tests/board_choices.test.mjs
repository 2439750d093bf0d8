// board/choices.js: the board's state machine, without a DOM.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as C from "../board/choices.js";

const el = {}; // stands for the #board-choices element

/** A Roundabout-like composed turn: two darts, each with a first step whose "n" follows. */
function composed() {
  const second = [{ m: "b2", k: "B", l: "B to 2", h: [5, 5, 2], t: [6, 6], d: 2, e: 1 }];
  return [
    { m: "a1", k: "A", l: "A to 1", h: [0, 0, 2], t: [1, 1], d: 1, n: second },
    { m: "a3", k: "A", l: "A to 3", h: [0, 0, 2], t: [3, 3], d: 3, n: second },
    { m: "b1", k: "B", l: "B to 1", h: [5, 5, 2], t: [1, 1], d: 1, n: [] , x: "pass" },
  ];
}

test("parseChoices reads a list, or choices with a shared table", () => {
  assert.deepEqual(C.parseChoices('[{"m": "x"}]'), [{ m: "x" }]);
  const shared = C.parseChoices('{"choices": [{"m": "a", "n": [0, {"m": "c"}]}], "table": [{"m": "b"}]}');
  assert.deepEqual(shared, [{ m: "a", n: [{ m: "b" }, { m: "c" }] }]);
  assert.deepEqual(C.parseChoices("not json"), []);
  assert.deepEqual(C.parseChoices(""), []);
});

test("no choices, no state", () => {
  assert.equal(C.newState(el, "[]", "3", false, []), null);
  assert.deepEqual(C.targets(null), []);
  assert.equal(C.canConfirm(null), false);
  assert.equal(C.words(null, { offline: false, connected: true }), "");
});

test("targets group the level's choices by key, in first-seen order", () => {
  const st = C.newState(el, "", "3", true, composed());
  const ts = C.targets(st);
  assert.deepEqual(ts.map((t) => t.k), ["A", "B"]);
  assert.equal(ts[0].label, "A: 2 moves");
  assert.equal(ts[1].label, "B to 1");
});

test("a plain choice: select, pick again to confirm, and the message sent", () => {
  const st = C.newState(el, "", "7", false, [{ m: "p1", k: "P", l: "P forward", h: [0, 0, 1], t: [1, 1] }]);
  assert.equal(C.canConfirm(st), false);
  assert.equal(C.select(st, "P"), "changed");
  assert.equal(st.cursor, 0);
  assert.equal(C.canConfirm(st), true);
  assert.equal(C.select(st, "P"), "confirm");
  assert.ok(C.readyToSend(st));
  assert.deepEqual(C.send(st), { move: "p1", version: "7" });
  assert.equal(st.busy, true);
  assert.equal(C.select(st, "P"), null); // busy: nothing more
  assert.equal(C.words(st, { offline: false, connected: true }), "Sent…");
  assert.equal(C.words(st, { offline: false, connected: false }), "Sent: waiting for the connection…");
});

test("a composed turn: steps follow, undo, cancel, and the pass after the last step", () => {
  const st = C.newState(el, "", "9", true, composed());
  C.select(st, "A");
  assert.equal(C.canConfirm(st), false); // choose a destination first
  assert.equal(C.cycleDest(st, 1), true);
  assert.equal(st.dest, 1);
  assert.equal(C.chooseDest(st, 0), "changed");
  assert.deepEqual(C.level(st).map((c) => c.m), ["b2"]);
  assert.equal(st.cursor, 0);
  assert.match(C.words(st, { offline: false, connected: true }, "dart"), /^Step 1: A to 1\. Next: choose a dart/);
  C.select(st, "B");
  C.chooseDest(st, 0);
  assert.equal(C.canConfirm(st), true);
  assert.deepEqual(C.moves(st), ["a1", "b2"]);
  assert.ok(C.undo(st));
  assert.deepEqual(st.steps.map((c) => c.m), ["a1"]);
  assert.ok(C.cancel(st));
  assert.deepEqual(st.steps, []);
  C.select(st, "B");
  C.chooseDest(st, 0); // b1: no follow-up, "x" ends the turn with a pass
  assert.deepEqual(C.moves(st), ["b1", "pass"]);
  assert.ok(C.readyToSend(st));
  assert.deepEqual(C.send(st), { moves: ["b1", "pass"], version: "9" });
});

test("the keyboard's cursor cycles through the targets both ways", () => {
  const st = C.newState(el, "", "1", true, composed());
  assert.ok(C.cycleTarget(st, 1));
  assert.equal(st.selected, "A");
  C.cycleTarget(st, 1);
  assert.equal(st.selected, "B");
  C.cycleTarget(st, 1);
  assert.equal(st.selected, "A");
  const back = C.newState(el, "", "1", true, composed());
  C.cycleTarget(back, -1);
  assert.equal(back.selected, "B");
});

test("offline words, and a frame's verdict on the state", () => {
  const st = C.newState(el, "[x]", "4", false, [{ m: "p", k: "P", l: "P", h: [0, 0, 1], t: [0, 0] }]);
  assert.equal(C.words(st, { offline: true, connected: false }),
    "Offline: you can move again when the network is back.");
  const other = {};
  assert.equal(C.frameVerdict(st, { el: other, text: "[x]", version: "4" }, "snapshot"), "keep");
  assert.equal(C.frameVerdict(st, { el: other, text: "[y]", version: "4" }, "snapshot"), "read");
  assert.equal(C.frameVerdict(st, null, "update"), "read");
  assert.equal(C.frameVerdict(null, { el, text: "[x]", version: "4" }, "seat"), "read");
  assert.equal(C.frameVerdict(st, { el, text: "[x]", version: "4" }, "update"), "wait");
  st.busy = true;
  assert.equal(C.frameVerdict(st, { el, text: "[x]", version: "4" }, "error"), "error");
  assert.equal(C.frameVerdict(st, { el: other, text: "[x]", version: "4" }, "snapshot"), "read");
});
