// socket.js's pure parts: the backoff policies, close verdicts, the version gate.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  HEARTBEAT_FRAME, LOBBY, MATCH, NOTIFY, NOTIFY_TRY_AGAIN, SILENCE_GRACE_MS, SYNC_RETRY_MS,
  backoff, closeVerdict, frameTags, gateFrame, isRenderedSnapshot, mayAskSnapshot, silence,
} from "../socket.js";

const zero = () => 0;
const almostOne = () => 0.999999;

test("the match policy: 250 ms plus up to 500 * 2^n, capped at 10 s of jitter", () => {
  assert.equal(backoff(1, MATCH, zero), 250);
  assert.equal(backoff(1, MATCH, almostOne), 1250);
  assert.equal(backoff(3, MATCH, almostOne), 4250);
  assert.equal(backoff(5, MATCH, almostOne), 10250); // 16 s ceiling capped at 10 s
  assert.equal(backoff(50, MATCH, almostOne), 10250);
});

test("the lobby policy: 0.5 s plus up to 1, 2, 4, then 8 s", () => {
  const maxima = [1, 2, 3, 4, 5, 9].map((n) => backoff(n, LOBBY, almostOne));
  assert.deepEqual(maxima, [1500, 2500, 4500, 8500, 8500, 8500]);
  assert.equal(backoff(7, LOBBY, zero), 500);
});

test("the notifications policy: 0.5 s (2 s after try-again) plus up to 16 s", () => {
  assert.equal(backoff(1, NOTIFY, zero), 500);
  assert.equal(backoff(1, NOTIFY_TRY_AGAIN, zero), 2000);
  assert.equal(backoff(5, NOTIFY, almostOne), 16500);
  assert.equal(backoff(9, NOTIFY, almostOne), 16500);
});

test("backoff is full jitter: every delay lies between the floor and the ceiling", () => {
  for (let n = 1; n < 12; n++) {
    const ms = backoff(n, MATCH);
    assert.ok(ms >= 250 && ms <= 10250, String(ms));
  }
});

test("close verdicts on the htmx pages: every 4xxx but 4013 refuses", () => {
  const codes = { tryAgain: 4013 };
  assert.equal(closeVerdict(4013, codes), "try-again");
  assert.equal(closeVerdict(4003, codes), "refused");
  assert.equal(closeVerdict(4999, codes), "refused");
  assert.equal(closeVerdict(1006, codes), "retry");
  assert.equal(closeVerdict(1000, codes), "retry");
  assert.equal(closeVerdict(5000, codes), "retry");
});

test("close verdicts on the notifications socket: its stop list, and 1000/1001 end it", () => {
  const codes = { tryAgain: 4013, stopCodes: [4001, 4002, 4003] };
  assert.equal(closeVerdict(4002, codes), "refused");
  assert.equal(closeVerdict(4004, codes), "retry");
  assert.equal(closeVerdict(4013, codes), "try-again");
  assert.equal(closeVerdict(1000, codes), "going");
  assert.equal(closeVerdict(1001, codes), "going");
  assert.equal(closeVerdict(1006, codes), "retry");
});

test("frameTags reads every #frame-version tag, an update having no kind", () => {
  const text = '<div id="frame-version" data-version="7" data-kind="snapshot" hx-swap-oob="true"></div>'
    + '<p>x</p><div data-version="8" id="frame-version"></div><div id="other" data-version="9"></div>';
  assert.deepEqual(frameTags(text), [{ v: 7, kind: "snapshot" }, { v: 8, kind: "update" }]);
  assert.deepEqual(frameTags("<div id=\"heartbeat\" hidden></div>"), []);
});

test("the rendered snapshot is recognised only when every tag is it", () => {
  assert.ok(isRenderedSnapshot([{ v: 4, kind: "snapshot" }, { v: 4, kind: "seat" }], 4));
  assert.ok(!isRenderedSnapshot([{ v: 4, kind: "snapshot" }, { v: 5, kind: "seat" }], 4));
  assert.ok(!isRenderedSnapshot([{ v: 4, kind: "update" }], 4));
});

test("the version gate applies the next update once, asks after a gap", () => {
  const at = { pub: 5, seat: 5 };
  assert.deepEqual(gateFrame([{ v: 6, kind: "update" }], at),
    { verdict: "apply", next: { pub: 6, seat: null, update: true, answer: false } });
  assert.equal(gateFrame([{ v: 5, kind: "update" }], at).verdict, "old");
  assert.equal(gateFrame([{ v: 8, kind: "update" }], at).verdict, "gap");
});

test("the version gate: snapshots and seat frames answer, stale ones are not swapped", () => {
  const at = { pub: 5, seat: 4 };
  assert.deepEqual(gateFrame([{ v: 5, kind: "snapshot" }, { v: 5, kind: "seat" }], at),
    { verdict: "apply", next: { pub: 5, seat: 5, update: false, answer: true } });
  assert.equal(gateFrame([{ v: 4, kind: "snapshot" }], at).verdict, "stale");
  assert.equal(gateFrame([{ v: 3, kind: "seat" }], at).verdict, "stale");
  assert.equal(gateFrame([{ v: 1, kind: "error" }], at).verdict, "error");
  assert.equal(gateFrame([{ v: 4, kind: "snapshot" }, { v: 9, kind: "error" }], at).verdict, "stale");
});

test("one snapshot request per SYNC_RETRY_MS", () => {
  assert.ok(mayAskSnapshot(0, -Infinity));
  assert.ok(!mayAskSnapshot(1000 + SYNC_RETRY_MS - 1, 1000));
  assert.ok(mayAskSnapshot(1000 + SYNC_RETRY_MS, 1000));
});

test("the heartbeat: silent past the period and the grace, dropped past twice that", () => {
  assert.equal(SILENCE_GRACE_MS, 3000);
  assert.equal(silence(12_999, 10_000), "ok");
  assert.equal(silence(13_001, 10_000), "silent");
  assert.equal(silence(26_000, 10_000), "silent");
  assert.equal(silence(26_001, 10_000), "drop");
  assert.equal(silence(1e9, 0), "ok"); // no heartbeat: never silent
});

test("the heartbeat frame is the server's", () => {
  assert.equal(HEARTBEAT_FRAME, '<div id="heartbeat" hidden></div>');
});
