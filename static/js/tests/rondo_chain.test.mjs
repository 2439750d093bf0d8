// Rondo's chain composer (games/rondo/static/js/rondo/chain.js), without a DOM.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as R from "../../../games/rondo/static/js/rondo/chain.js";

function state() {
  return {
    rack: R.rackOf(["red", "red", "blue", "gold"]),
    tree: { I01: { I02: {}, I03: {} }, I05: {} },
    options: {
      I01: [{ m: "place I01 2", c: "red", n: 2, d: false, p: 2 }, { m: "place I01 down blue", c: "blue", n: 1, d: true, p: 0 }],
      I02: [{ m: "place I02 1", c: "red", n: 1, d: false, p: 1 }],
      I03: [{ m: "place I03 1", c: "blue", n: 1, d: false, p: 1 }],
      I05: [{ m: "place I05 3", c: "red", n: 3, d: false, p: 3 }],
    },
    chain: [],
    selected: null,
    sending: false,
  };
}

test("the rack counts its chips by colour, ignoring unknown colours", () => {
  assert.deepEqual(R.rackOf(["red", "red", "blue", "gold"]), { yellow: 0, red: 2, purple: 0, blue: 1, green: 0 });
});

test("the next spaces are the tree's, after the chain, that the rack can still cover", () => {
  const st = state();
  assert.deepEqual(R.candidates(st), ["I01"]); // I05 needs 3 red
  st.selected = "I01";
  R.place(st, st.options.I01[0]);
  assert.deepEqual(st.rack.red, 0);
  assert.deepEqual(R.candidates(st), ["I03"]); // I02 needs a red, none left
  assert.equal(R.total(st.chain), 2);
  assert.deepEqual(R.chainMoves(st.chain), ["place I01 2", "end"]);
});

test("taking back: the selection first, then the last placement's tiles", () => {
  const st = state();
  st.selected = "I01";
  R.place(st, st.options.I01[1]); // face down: one blue, counted 0 tiles on the space
  assert.equal(st.chain[0].count, 0);
  assert.equal(st.rack.blue, 0);
  st.selected = "I03";
  R.takeBack(st);
  assert.equal(st.selected, null);
  assert.equal(st.chain.length, 1);
  R.takeBack(st);
  assert.equal(st.chain.length, 0);
  assert.equal(st.rack.blue, 1);
});

test("placements in words", () => {
  assert.equal(R.words({ d: false, c: "purple", n: 2, p: 2 }), "2 purple face up (2 points)");
  assert.equal(R.words({ d: false, c: "red", n: 1, p: 1 }), "1 red face up (1 point)");
  assert.equal(R.words({ d: true, c: "red", n: 1, p: 0 }), "1 red face down (a bridge, 0 points)");
  assert.equal(R.capital("purple"), "Purple");
});

test("the rack's chips the chain uses are the last of each colour", () => {
  assert.deepEqual(R.usedChips(["red", "red", "blue"], { red: 1, blue: 1 }), [false, true, false]);
});

test("a swap's verdict on the chain", () => {
  const form = {};
  const st = Object.assign(state(), { form, version: "5", text: "t" });
  assert.equal(R.swapVerdict(st, { form: {}, version: "5", text: "t" }, "snapshot"), "keep");
  assert.equal(R.swapVerdict(st, { form: {}, version: "6", text: "t" }, "seat"), "read");
  assert.equal(R.swapVerdict(null, { form, version: "5", text: "t" }, "seat"), "read");
  assert.equal(R.swapVerdict(st, { form, version: "5", text: "t" }, "update"), "wait");
  st.sending = true;
  assert.equal(R.swapVerdict(st, { form, version: "5", text: "t" }, "error"), "error");
});
