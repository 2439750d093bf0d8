// match/movelist.js: which lines are read out, and how many are kept.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MOVE_LINES_KEPT, newLines, trimCount } from "../match/movelist.js";

test("an update reads out the lines after the last ply shown", () => {
  const lines = [{ ply: 3, text: " Red rolled 4 " }, { ply: 4, text: "Red moved" }, { ply: 5, text: "Blue rolled 6" }];
  assert.deepEqual(newLines(lines, 3), ["Red moved", "Blue rolled 6"]);
  assert.deepEqual(newLines(lines, -1), ["Red rolled 4", "Red moved", "Blue rolled 6"]);
  assert.deepEqual(newLines(lines, 5), []);
});

test("the list keeps its newest MOVE_LINES_KEPT turns", () => {
  assert.equal(MOVE_LINES_KEPT, 200);
  assert.equal(trimCount(150), 0);
  assert.equal(trimCount(200), 0);
  assert.equal(trimCount(203), 3);
  assert.equal(trimCount(5, 2), 3);
});
