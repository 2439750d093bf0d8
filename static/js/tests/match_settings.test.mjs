// match/settings.js: the settings kept in the browser's storage.
import { test } from "node:test";
import assert from "node:assert/strict";
import { KEYS, fromStored } from "../match/settings.js";

const defaults = () => ({ sound: false, dice: "pips", shortcuts: true, autoroll: false });

test("nothing stored: the defaults, auto-roll off", () => {
  assert.deepEqual(fromStored(() => null, defaults(), true), defaults());
});

test("stored values, sound and dice only without the settings form", () => {
  const kept = { [KEYS.sound]: "1", [KEYS.dice]: "numbers", [KEYS.shortcuts]: "0", [KEYS.autoroll]: "1" };
  const get = (k) => (k in kept ? kept[k] : null);
  assert.deepEqual(fromStored(get, defaults(), true),
    { sound: true, dice: "numbers", shortcuts: false, autoroll: true });
  assert.deepEqual(fromStored(get, defaults(), false),
    { sound: false, dice: "pips", shortcuts: false, autoroll: true });
});

test("an unknown dice style is ignored", () => {
  const get = (k) => (k === KEYS.dice ? "roman" : null);
  assert.equal(fromStored(get, defaults(), true).dice, "pips");
});
