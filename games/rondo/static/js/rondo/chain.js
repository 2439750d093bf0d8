/* The Rondo chain being composed: pure (no DOM), unit-tested under `node --test`
 * (static/js/tests/rondo_chain.test.mjs).
 *
 * A state is {form, version, text, rack, tree, options, chain, selected, lastChosen,
 * sending, sends}: the chain form it was read from, its data-version and #rondo-tree's
 * text; rack: colour -> tiles left on the seat's rack (after the chain's); tree: the
 * engine's tree of the space paths the chain rule allows (space id -> subtree); options:
 * space id -> the placements it takes [{m, c, n, d, p}] (move, colour, count, face down,
 * points); chain: the placements so far [{space, count, colour, faceDown, points, move}];
 * selected: the space whose tiles are being picked (or null); sending: sent, unanswered.
 */

import { gettext, interpolate, ngettext, pgettext } from "./i18n.js";

export const COLOURS = ["yellow", "red", "purple", "blue", "green"];

/** colour -> count of the tile colours listed (a rack's chips; other colours are ignored). */
export function rackOf(colours) {
  const rack = {};
  COLOURS.forEach((c) => {
    rack[c] = 0;
  });
  colours.forEach((c) => {
    if (c in rack) rack[c] += 1;
  });
  return rack;
}

/** The placements on ``id`` the tiles left on the rack still cover (server-listed). */
export function affordable(st, id) {
  return (st.options[id] || []).filter((o) => st.rack[o.c] >= o.n);
}

/** Spaces the next placement may go on: the engine's tree, after the chain so far. */
export function candidates(st) {
  let node = st.tree;
  for (let i = 0; i < st.chain.length && node; i++) node = node[st.chain[i].space];
  return Object.keys(node || {}).filter((id) => affordable(st, id).length > 0);
}

/** A tile colour's name in the page's language ("red"); an unknown one as it is. */
export function colourName(colour) {
  const names = {
    yellow: pgettext("rondo colour", "yellow"),
    red: pgettext("rondo colour", "red"),
    purple: pgettext("rondo colour", "purple"),
    blue: pgettext("rondo colour", "blue"),
    green: pgettext("rondo colour", "green"),
  };
  return names[colour] || colour;
}

/** "2 points", "1 point"; ``short``: "2 pts", "1 pt". */
export function points(n, short) {
  return interpolate(short ? ngettext("%(points)s pt", "%(points)s pts", n)
    : ngettext("%(points)s point", "%(points)s points", n), { points: n });
}

export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A placement in words: "2 purple face up (2 points)", "1 red face down (a bridge, 0 points)". */
export function words(o) {
  if (o.d) return interpolate(gettext("1 %(colour)s face down (a bridge, 0 points)"), { colour: colourName(o.c) });
  return interpolate(ngettext("%(count)s %(colour)s face up (%(points)s point)",
    "%(count)s %(colour)s face up (%(points)s points)", o.p), { count: o.n, colour: colourName(o.c), points: o.p });
}

/** Place ``o`` (one of affordable()'s) on the selected space. */
export function place(st, o) {
  st.chain.push({ space: st.selected, count: o.d ? 0 : o.n, colour: o.c, faceDown: o.d, points: o.p, move: o.m });
  st.rack[o.c] -= o.n;
  st.selected = null;
}

/** Take back the selection, else the last placement (its tiles back on the rack). */
export function takeBack(st) {
  if (st.selected) {
    st.selected = null;
    return;
  }
  const p = st.chain.pop();
  if (p) st.rack[p.colour] += p.count || 1;
  st.selected = null;
}

/** The chain's points so far. */
export function total(chain) {
  return chain.reduce((sum, p) => sum + p.points, 0);
}

/** The moves that send the chain: each placement's, then "end". */
export function chainMoves(chain) {
  return chain.map((p) => p.move).concat(["end"]);
}

/** Which of the rack's chips ([colour, ...], in order) the chain uses: the last ones of each
 *  colour beyond what is left (``rack``). [bool, ...] */
export function usedChips(colours, rack) {
  const seen = {};
  COLOURS.forEach((c) => {
    seen[c] = 0;
  });
  return colours.map((c) => {
    seen[c] += 1;
    return seen[c] > rack[c];
  });
}

/** What a swap does to state ``st`` given the chain form now there ({form, version, text}):
 *  "keep" (the same decision again: keep the chain composed so far and the open picker),
 *  "read" (a new decision), "error" (the answer was an error: the same controls stay)
 *  or "wait" (a public frame alone: the seat's own controls, the answer, are on the way). */
export function swapVerdict(st, now, kind) {
  if (st && st.form !== now.form && !st.sending && now.version === st.version && now.text === st.text) return "keep";
  if (!st || st.form !== now.form) return "read";
  if (st.sending && kind === "error") return "error";
  return "wait";
}
