/* Drawing the seat's choices on the board: hit areas (role=button, tabindex,
 * aria-label: all added here, client-side), highlights, the composed steps and a
 * preview of the chosen piece's destination; the dice the steps used. */

import { byId, node, svgEl } from "./dom.js";
import { selectedTarget, targets } from "./choices.js";
import { paintAsked } from "./chooser.js";

export function clearLayer() {
  const old = document.querySelectorAll("#board .bd-layer");
  for (let i = 0; i < old.length; i++) old[i].parentNode.removeChild(old[i]);
  const dim = document.querySelectorAll("#board .bd-moved");
  for (let j = 0; j < dim.length; j++) dim[j].classList.remove("bd-moved");
}

function from(c) {
  return c.f || c.h;
}

/** The way a choice goes: through its points (p, the server's) or straight from its piece to t. */
function way(c, cls, parent) {
  if (c.p) {
    const points = c.p.map((xy) => xy.join(",")).join(" ");
    return node("polyline", { class: cls, points: points }, parent);
  }
  return node("line", { class: cls, x1: from(c)[0], y1: from(c)[1], x2: c.t[0], y2: c.t[1] }, parent);
}

function ghost(c, parent, cls) {
  if (!c.g) return;
  const tr = c.gt || "translate(" + c.t[0] + " " + c.t[1] + ")";
  node("use", { href: "#" + c.g, class: "bd-ghost " + (c.gc || "") + " " + (cls || ""), transform: tr }, parent);
}

/** One target: its hit areas and ring (or, with fr, its outline's band under the pieces). */
function drawTarget(t, i, st, sel, layer, under) {
  const g = node("g", {
    class: "bd-target" + (sel && sel.k === t.k ? " is-selected" : "") + (i === st.cursor ? " is-cursor" : ""),
    role: "button",
    tabindex: "0",
    "aria-label": t.label,
    "aria-pressed": sel && sel.k === t.k ? "true" : "false",
    "data-target": t.k,
  }, layer);
  if (t.hr) {
    node("rect", { class: "bd-hit", x: t.hr[0], y: t.hr[1], width: t.hr[2], height: t.hr[3] }, g);
  }
  node("circle", { class: "bd-hit", cx: t.h[0], cy: t.h[1], r: t.h[2] }, g);
  if (t.fr !== undefined && t.g) {
    const at = "translate(" + t.h[0] + " " + t.h[1] + ") rotate(" + t.fr + ")";
    // Its outline: a wide band along its edge, drawn under the pieces (so the band
    // shows round the piece, whatever its colour, and its number stays on top), and
    // its edge again in the target (hover, focus and "Which one?" mark it).
    under = under || node("g", { class: "bd-layer bd-under" + (st.busy ? " is-busy" : ""),
      "aria-hidden": "true" });
    node("use", {
      class: "bd-band" + (sel && sel.k === t.k ? " is-selected" : "") + (i === st.cursor ? " is-cursor" : ""),
      href: "#" + t.g,
      transform: at,
    }, under);
    node("use", { class: "bd-edge", href: "#" + t.g, transform: at }, g);
  } else {
    node("circle", { class: "bd-ring", cx: t.h[0], cy: t.h[1], r: t.h[2] * 0.62 }, g);
  }
  return under;
}

function drawDestinations(st, sel, layer) {
  sel.choices.forEach((c, i) => {
    const chosen = i === st.dest;
    way(c, "bd-path is-preview", layer);
    const d = node("g", { class: "bd-dest" + (chosen ? " is-chosen" : ""), "data-dest": String(i) }, layer);
    // Drawn at the spot's size; a click picks the nearest within reach (board/geometry.js pick()).
    node("circle", { class: "bd-spot", cx: c.t[0], cy: c.t[1], r: sel.h[2] * 0.55 }, d);
    if (chosen) ghost(c, layer, "is-preview");
    if (c.d || c.w === "turn") {
      const label = node("text", { class: "bd-die", x: c.t[0], y: c.t[1] }, d);
      label.textContent = c.d ? String(c.d) : "↺"; // a reversal: the dart turns where it stands
    }
  });
}

/** Draw state ``st`` (board/choices.js) on the board; nothing while a game's own
 *  composer (``adapter``) is active. */
export function draw(st, adapter) {
  clearLayer();
  const svg = svgEl();
  if (!svg || !st || adapter) return;
  const layer = node("g", { class: "bd-layer" + (st.busy ? " is-busy" : "") });
  // Under what the board keeps above its highlights (.over-layer: Ludo's count badges).
  svg.insertBefore(layer, svg.querySelector(":scope > .over-layer"));
  // Steps already composed: a path, the preview where each lands, the dart dimmed.
  st.steps.forEach((c) => {
    way(c, "bd-path", layer);
    ghost(c, layer, "is-composed");
    if (c.fs !== undefined) {
      const moved = document.querySelector('#board [data-space="' + c.fs + '"]');
      if (moved) moved.classList.add("bd-moved");
    }
  });
  const sel = selectedTarget(st);
  let under = null; // the outlines' bands, under the pieces (fr)
  targets(st).forEach((t, i) => {
    under = drawTarget(t, i, st, sel, layer, under);
  });
  if (under) {
    // Before the first piece, or the part (games/frames/wire.py) that holds it.
    let first = svg.querySelector("[data-space]");
    while (first && first.parentNode !== svg) first = first.parentNode;
    svg.insertBefore(under, first);
  }
  if (sel) drawDestinations(st, sel, layer);
  paintAsked();
}

/** The Roll button when this seat may roll, else null. */
export function rollButton() {
  const input = document.querySelector('#controls form input[name="move"][value="roll"]');
  return input ? input.form.querySelector("button:not([disabled])") : null;
}

/** Dims the dice the composed steps have used (#dice's data-die, one per die, and
 *  the board's own dice, [data-die] in #board: Roundabout's hub), and marks the
 *  dice as the Roll control when this seat may roll. */
export function markDice(st) {
  const used = st ? st.steps.map((c) => String(c.d)) : [];
  const centre = document.querySelectorAll("#board [data-die]");
  const counted = {};
  for (let j = 0; j < centre.length; j++) {
    const v = centre[j].getAttribute("data-die");
    const nth = (counted[v] = (counted[v] || 0) + 1);
    centre[j].classList.toggle("is-used", nth <= used.filter((u) => u === v).length);
  }
  const dice = byId("dice");
  if (!dice) return;
  const faces = dice.querySelectorAll(".die[data-die]");
  const seen = {};
  for (let i = 0; i < faces.length; i++) {
    const d = faces[i].getAttribute("data-die");
    const n = (seen[d] = (seen[d] || 0) + 1);
    const count = used.filter((u) => u === d).length;
    faces[i].classList.toggle("is-used", n <= count);
  }
  dice.classList.toggle("can-roll", !!rollButton());
}

/** A small picture for a chooser's button: the piece's own shape in its colour
 *  (a choice's g, gc), or a destination's spot with the die it uses. */
export function cue(c, dest) {
  const pic = node("svg", { class: "bd-cue", "aria-hidden": "true", focusable: "false" });
  if (dest) {
    pic.setAttribute("viewBox", "-1 -1 2 2");
    node("circle", { class: "bd-cue-spot", r: ".9" }, pic);
    if (c.d) node("text", { class: "bd-cue-die" }, pic).textContent = String(c.d);
    return pic;
  }
  const shape = c.g && byId(c.g);
  const box = shape && shape.getBBox ? shape.getBBox() : null;
  if (!box || !box.width) return null;
  const pad = Math.max(box.width, box.height) * 0.15;
  pic.setAttribute("viewBox", [box.x - pad, box.y - pad, box.width + 2 * pad, box.height + 2 * pad].join(" "));
  pic.setAttribute("class", "bd-cue " + (c.gc || ""));
  node("use", { href: "#" + c.g }, pic);
  return pic;
}
