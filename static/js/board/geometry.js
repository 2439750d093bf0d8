/* Hit testing on the board: which target (or destination) a tap means. Pure (no DOM):
 * unit-tested under `node --test` (static/js/tests/board_geometry.test.mjs).
 *
 * Clicks and taps pick the nearest target (or, once one is selected, the nearest
 * destination) within reach: its hit radius, at least MIN_HIT_PX. Where targets sit
 * closer together than CLOSE_PX on screen a tap that is not clearly nearer one of them
 * (by MIN_HIT_PX), nor on a piece's own body (hs), is not guessed: the board asks
 * "Which one?" (board/chooser.js).
 */

export const MIN_HIT_PX = 22;
export const CLOSE_PX = 44; // targets nearer each other than this on screen: a finger cannot tell them apart

/** Board units (x, y) in client px, by the board's matrix ``m`` (getScreenCTM: a..f). */
export function onScreen(m, x, y) {
  return { x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f };
}

/** What a tap at client (x, y) may mean among ``spots`` ([{x, y, r, sure?, inside?, ...}],
 *  client px; r the spot's own hit radius, sure its body's, inside: the tap is inside its
 *  hit rectangle): the nearest alone if the tap is on its body (within sure), else those
 *  within reach (r, at least MIN_HIT_PX), cut to the nearest and each other one nearer
 *  to it than CLOSE_PX that the tap is not clearly nearer (by MIN_HIT_PX) than to it.
 *  Nearest first, each with d (px from the tap) added: [] nothing, one item: act on it,
 *  several: ask. */
export function crowd(x, y, spots) {
  const found = [];
  spots.forEach((s) => {
    const d = s.inside ? Math.min(s.r, Math.hypot(x - s.x, y - s.y)) : Math.hypot(x - s.x, y - s.y);
    if (d <= Math.max(s.r, MIN_HIT_PX)) {
      s.d = d;
      found.push(s);
    }
  });
  found.sort((a, b) => a.d - b.d);
  const best = found[0];
  if (best && best.sure && best.d <= best.sure) return [best]; // on its body: it, whatever is near
  return found.filter((s) => s === best ||
    (s.d - best.d < MIN_HIT_PX && Math.hypot(s.x - best.x, s.y - best.y) < CLOSE_PX));
}

/** Whether crowd()'s answer ``hits`` is one spot, tapped on its body. */
export function onBody(hits) {
  return hits.length === 1 && !!hits[0].sure && hits[0].d <= hits[0].sure;
}

/** The spots of targets ``ts`` (board/choices.js targets()) on screen for a tap at (x, y). */
function targetSpots(m, scale, ts, x, y) {
  return ts.map((t) => {
    const p = onScreen(m, t.h[0], t.h[1]);
    const spot = { x: p.x, y: p.y, r: t.h[2] * scale, sure: (t.hs || 0) * scale, k: t.k };
    if (t.hr) {
      // A hit rectangle (Ludo's base): a tap inside it reaches the target.
      const a = onScreen(m, t.hr[0], t.hr[1]);
      const b = onScreen(m, t.hr[0] + t.hr[2], t.hr[1] + t.hr[3]);
      spot.inside = x >= Math.min(a.x, b.x) && x <= Math.max(a.x, b.x) && y >= Math.min(a.y, b.y) &&
        y <= Math.max(a.y, b.y);
    }
    return spot;
  });
}

/** What a tap at client (x, y) means on a board drawn by matrix ``m``, among targets
 *  ``ts`` and, when ``sel`` (the selected target) is given, its destinations: crowd()'s
 *  list, items {dest: i} or {k}. */
export function pick(m, x, y, ts, sel) {
  const scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)); // px per board unit
  const spots = targetSpots(m, scale, ts, x, y);
  if (sel) {
    const dests = sel.choices.map((c, i) => {
      const p = onScreen(m, c.t[0], c.t[1]);
      return { x: p.x, y: p.y, r: sel.h[2] * scale, sure: (sel.hs || 0) * scale, dest: i };
    });
    const hit = crowd(x, y, dests);
    if (onBody(hit)) return hit;
    const other = crowd(x, y, spots); // on another piece's body: that piece, not a spot near it
    if (onBody(other)) return other;
    if (hit.length) return hit;
  }
  return crowd(x, y, spots);
}
