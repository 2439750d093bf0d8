/* The board's DOM edges, shared by its modules (static/js/board.js and board/). */

export const SVG = "http://www.w3.org/2000/svg";

export function byId(id) {
  return document.getElementById(id);
}

export function boardEl() {
  return byId("board");
}

export function svgEl() {
  const b = boardEl();
  return b ? b.querySelector("svg") : null;
}

/** The board's frame: the element around #board that keeps focus across swaps. */
export function stage() {
  const b = boardEl();
  return b ? b.parentElement : null;
}

/** Whether the board's shortcuts are on: the Settings tab's switch
 *  (Parlour.setting("shortcuts"), static/js/match.js), on by default. */
export function keysOn() {
  const P = window.Parlour;
  return !(P && P.setting && P.setting("shortcuts") === false);
}

/** The connection as match.js sees it: {offline, connected} (both as if live without match.js). */
export function net() {
  const P = window.Parlour;
  return {
    offline: !!(P && P.offline && P.offline()),
    connected: !P || !P.connected || P.connected(),
  };
}

/** A new SVG element ``tag`` with ``attrs``, appended to ``parent`` if given. */
export function node(tag, attrs, parent) {
  const el = document.createElementNS(SVG, tag);
  for (const k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) el.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(el);
  return el;
}

/** The first of ``list`` the page shows (not inside a closed disclosure), or null. */
export function visibleFirst(list) {
  for (let i = 0; i < list.length; i++) {
    if (list[i].getClientRects().length) return list[i];
  }
  return null;
}
