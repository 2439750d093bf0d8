// board/geometry.js: hit testing, and board/chooser.js's placement, without a DOM.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CLOSE_PX, MIN_HIT_PX, crowd, onBody, onScreen, pick } from "../board/geometry.js";
import { chooserStep, placeAt } from "../board/chooser.js";

const identity = { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 };

test("onScreen applies the board's matrix", () => {
  assert.deepEqual(onScreen({ a: 2, b: 0, c: 0, d: 2, e: 10, f: 20 }, 3, 4), { x: 16, y: 28 });
});

test("a tap far from everything means nothing; one near a lone spot means it", () => {
  assert.deepEqual(crowd(500, 500, [{ x: 0, y: 0, r: 10 }]), []);
  const hits = crowd(5, 0, [{ x: 0, y: 0, r: 4, k: "A" }]); // within MIN_HIT_PX, beyond r
  assert.equal(hits.length, 1);
  assert.equal(hits[0].k, "A");
  assert.equal(hits[0].d, 5);
});

test("close spots a tap cannot tell apart are asked about, nearest first", () => {
  const spots = [{ x: 0, y: 0, r: 10, k: "A" }, { x: 20, y: 0, r: 10, k: "B" }];
  const hits = crowd(11, 0, spots);
  assert.deepEqual(hits.map((h) => h.k), ["B", "A"]);
  assert.ok(20 < CLOSE_PX && 20 > MIN_HIT_PX - 5);
});

test("a tap on a piece's body picks it whatever is near", () => {
  const spots = [{ x: 0, y: 0, r: 10, sure: 6, k: "A" }, { x: 20, y: 0, r: 10, k: "B" }];
  const hits = crowd(3, 0, spots);
  assert.deepEqual(hits.map((h) => h.k), ["A"]);
  assert.ok(onBody(hits));
  assert.ok(!onBody(crowd(11, 0, spots)));
});

test("spots farther apart than CLOSE_PX are never asked about together", () => {
  const spots = [{ x: 0, y: 0, r: 30, k: "A" }, { x: 50, y: 0, r: 30, k: "B" }];
  assert.deepEqual(crowd(24, 0, spots).map((h) => h.k), ["A"]);
});

test("a hit rectangle reaches its target from anywhere inside it", () => {
  const ts = [{ k: "base", h: [100, 100, 5], hr: [0, 0, 200, 200] }];
  assert.deepEqual(pick(identity, 10, 10, ts, null).map((h) => h.k), ["base"]);
  assert.deepEqual(pick(identity, 300, 300, ts, null), []);
});

test("once a target is selected, a tap reaches its destinations, scaled by the matrix", () => {
  const sel = { k: "A", h: [0, 0, 4], choices: [{ t: [50, 0] }, { t: [100, 0] }] };
  const twice = { a: 2, b: 0, c: 0, d: 2, e: 0, f: 0 };
  const hits = pick(twice, 201, 0, [sel], sel);
  assert.deepEqual(hits.map((h) => h.dest), [1]);
  assert.deepEqual(pick(twice, 1, 0, [sel], sel).map((h) => h.k), ["A"]);
});

test("the chooser goes below the tap, or above it when it does not fit", () => {
  const view = { left: 0, top: 0, width: 390, height: 844 };
  const r = { left: 0, top: 0, width: 200, height: 150 };
  assert.deepEqual(placeAt(view, r, 195, 100), { width: 95, height: 136 });
  assert.deepEqual(placeAt(view, r, 195, 800), { width: 95, height: 614 });
  assert.deepEqual(placeAt(view, r, 5, 100), { width: 8, height: 136 }); // 8 px in from the edge
});

test("the chooser's keys", () => {
  assert.equal(chooserStep("Escape", false), "close");
  assert.equal(chooserStep("ArrowDown", false), 1);
  assert.equal(chooserStep("Tab", false), 1);
  assert.equal(chooserStep("Tab", true), -1);
  assert.equal(chooserStep("ArrowLeft", false), -1);
  assert.equal(chooserStep("Enter", false), null);
});
