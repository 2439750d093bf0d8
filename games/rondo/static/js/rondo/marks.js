/* The Rondo board's marks: where the chain may go (.rb-can, their rings in g.rb-halos)
 * and the chain's placements previewed on their spaces (.rb-pending). Only from the
 * seat's own frame (#rondo-tree): where a seat may place face up tells its colours, so
 * the public board never carries these highlights. */

import { candidates, colourName } from "./chain.js";
import { gettext, interpolate } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const LETTERS = { yellow: "Y", red: "R", purple: "P", blue: "B", green: "G" };

export function spaceEl(id) {
  return document.getElementById("rs-" + id);
}

/** The space id of the board space at or around ``target``, or null. */
export function spaceFrom(target) {
  const g = target && target.closest ? target.closest("#board .rb-space") : null;
  return g ? g.getAttribute("data-space") : null;
}

/** A highlighted space's words, as the board shows it: "Place on red 3 (I03)". */
export function placeWords(el) {
  return interpolate(gettext("Place on %(colour)s %(value)s (%(code)s)"), { colour: colourName(el.getAttribute("data-colour")),
    value: el.getAttribute("data-value"), code: el.getAttribute("data-space") });
}

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  Object.keys(attrs).forEach((k) => {
    el.setAttribute(k, attrs[k]);
  });
  return el;
}

/** A placement's tiles drawn on its space as the board will show them once sent
 *  (the same shapes as games/rondo/templates/games/rondo/board.html's tiles): a
 *  square in the tile's colour with its letter, the stack's other tiles under it;
 *  face down, the dark back with a diamond. */
function previewTile(p) {
  const g = svgEl("g", { "class": "rb-tile rb-preview" + (p.faceDown ? " rb-down" : " c-" + p.colour) });
  const step = 0.07;
  for (let k = Math.min(p.count, 4) - 1; k > 0; k--) {
    const at = String(k * step - 0.34);
    g.appendChild(svgEl("rect", { "class": "rb-under", x: at, y: at, width: ".68", height: ".68", rx: ".1" }));
  }
  g.appendChild(svgEl("rect", { "class": "rb-face", x: "-.34", y: "-.34", width: ".68", height: ".68", rx: ".1" }));
  if (p.faceDown) {
    g.appendChild(svgEl("rect", { "class": "rb-back", x: "-.22", y: "-.22", width: ".44", height: ".44", rx: ".05" }));
    g.appendChild(svgEl("path", { "class": "rb-back", d: "M0 -.13L.13 0L0 .13L-.13 0Z" }));
  } else {
    const t = svgEl("text", { "class": "rb-tl" });
    t.textContent = LETTERS[p.colour] || "";
    g.appendChild(t);
  }
  return g;
}

export function clearMarks() {
  const added = document.querySelectorAll("#board .rb-halos, #board .rb-preview");
  for (let h = 0; h < added.length; h++) added[h].parentNode.removeChild(added[h]);
  const marked = document.querySelectorAll("#board .rb-can, #board .rb-pending, #board .rb-selected");
  for (let i = 0; i < marked.length; i++) {
    const el = marked[i];
    el.classList.remove("rb-can", "rb-pending", "rb-selected");
    el.removeAttribute("tabindex");
    el.removeAttribute("role");
    el.removeAttribute("aria-label");
  }
}

/** The ring of a highlighted space, by the space's id (in the rings' layer). */
function haloOf(id) {
  return document.querySelector('#board .rb-halo[data-halo-space="' + id + '"]');
}

/** Mark state ``st`` (rondo/chain.js) on the board. */
export function mark(st) {
  clearMarks();
  if (!st) return;
  st.chain.forEach((p) => {
    const el = spaceEl(p.space);
    if (!el) return;
    el.classList.add("rb-pending");
    el.appendChild(previewTile(p));
  });
  // The rings of the spaces the chain may take, in a layer of their own under every
  // space (rondo.css): a neighbouring space is drawn over a ring, never under it.
  const spacesLayer = document.querySelector("#board .rb-spaces");
  const halos = svgEl("g", { "class": "rb-halos" });
  candidates(st).forEach((id) => {
    const el = spaceEl(id);
    if (!el) return;
    el.classList.add("rb-can");
    const m = el.transform.baseVal.consolidate();
    halos.appendChild(svgEl("circle", { "class": "rb-halo", "data-halo-space": id, r: "0.6",
      cx: String(m ? m.matrix.e : 0), cy: String(m ? m.matrix.f : 0) }));
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", placeWords(el));
  });
  if (spacesLayer) spacesLayer.parentNode.insertBefore(halos, spacesLayer);
  if (st.selected) {
    const sel = spaceEl(st.selected);
    if (sel) sel.classList.add("rb-selected");
    const ring = haloOf(st.selected);
    if (ring) ring.classList.add("is-selected");
  }
  const active = document.activeElement;
  const focused = active && active.classList && active.classList.contains("rb-can") ? haloOf(spaceFrom(active)) : null;
  if (focused) focused.classList.add("is-focus");
}

/** The focused space's ring is drawn thicker (its space sits in another layer). */
export function watchFocus() {
  document.addEventListener("focusin", (evt) => {
    const id = spaceFrom(evt.target);
    const ring = id ? haloOf(id) : null;
    if (ring) ring.classList.add("is-focus");
  });
  document.addEventListener("focusout", (evt) => {
    const id = spaceFrom(evt.target);
    const ring = id ? haloOf(id) : null;
    if (ring) ring.classList.remove("is-focus");
  });
}
