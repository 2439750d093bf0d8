// clock_words.js: a turn-based clock's time left in words, as games/clock_words.py says it
// (tests/games/test_turn_based_pages.py checks the same values there).
import { test } from "node:test";
import assert from "node:assert/strict";
import { leftWords } from "../clock_words.js";
import { clockText } from "../match/clock.js";

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const DAY = 24 * H;

test("days and hours, then hours and minutes, then minutes, then seconds; each cut down", () => {
  assert.equal(leftWords(2 * DAY + 5 * H + 59 * MIN), "2 days 5 h");
  assert.equal(leftWords(DAY), "1 day");
  assert.equal(leftWords(DAY + 30 * MIN), "1 day");
  assert.equal(leftWords(14 * DAY), "14 days");
  assert.equal(leftWords(DAY - 1), "1 day"); // whole seconds rounded up first
  assert.equal(leftWords(DAY - S), "23 h 59 min");
  assert.equal(leftWords(3 * H + 20 * MIN + 40 * S), "3 h 20 min");
  assert.equal(leftWords(3 * H), "3 h");
  assert.equal(leftWords(12 * MIN + 59 * S), "12 min");
  assert.equal(leftWords(40 * S), "40 s");
  assert.equal(leftWords(1), "1 s");
  assert.equal(leftWords(0), "0 s");
  assert.equal(leftWords(-5 * S), "0 s");
});

test("the match page's clock: mm:ss for a live match, words for a turn-based one", () => {
  assert.equal(clockText(90 * S), "01:30");
  assert.equal(clockText(90 * S, false), "01:30");
  assert.equal(clockText(2 * DAY + 4 * H, true), "2 days 4 h");
  assert.equal(clockText(90 * S, true), "1 min");
});
