// match/clock.js: the countdown's words and arithmetic.
import { test } from "node:test";
import assert from "node:assert/strict";
import { URGENT_MS, clockText, remainingMs } from "../match/clock.js";

test("mm:ss, whole seconds rounded up", () => {
  assert.equal(clockText(0), "00:00");
  assert.equal(clockText(1), "00:01");
  assert.equal(clockText(59_000), "00:59");
  assert.equal(clockText(59_001), "01:00");
  assert.equal(clockText(90_000), "01:30");
  assert.equal(clockText(3_600_000), "60:00");
  assert.equal(clockText(-5), "00:00");
});

test("the time left counts on the server's clock from the clock's arrival", () => {
  // deadline 60 s after the server's now; arrived at 1000 ms; 2.5 s later: 57.5 s left.
  assert.equal(remainingMs(160_000, 100_000, 1000, 3500), 57_500);
  assert.equal(remainingMs(160_000, 100_000, 1000, 100_000), 0);
  assert.ok(Number.isNaN(remainingMs(NaN, 100_000, 0, 0)));
  assert.equal(URGENT_MS, 10_000);
});
