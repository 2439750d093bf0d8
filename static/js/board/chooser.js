/* "Which one?": a tap that may mean several targets asks instead of guessing.
 *
 * ask(evt, items, stale) opens a small dialog near the tap at ``evt`` (clientX,
 * clientY), inside the viewport, one button (at least 44 px each way) per item
 * ({label, cue: an element or null, mark: a selector, act: function}); the marked
 * spots get .is-asked meanwhile. Choosing closes it, then acts; Escape, a tap
 * outside, scrolling, or a frame after which ``stale()`` is true (or the board
 * was swapped) close it and change nothing. Focus goes into it, and back to the
 * board's stage when it closes. Positioned without inline styles (the
 * Content-Security-Policy allows none): see place(). The overlay, fixed and the
 * size of the viewport, takes the taps outside it, so a tap that closes it
 * reaches nothing else.
 */

import { boardEl, node, stage } from "./dom.js";
import { gettext } from "../i18n.js";

let asking = null; // the open chooser: {overlay, box, marks, stale, board, width}

/** Whether the chooser is open. */
export function isAsking() {
  return !!asking;
}

/** Whether ``el`` is inside the open chooser. */
export function inChooser(el) {
  return !!(asking && asking.box.contains(el));
}

function choiceButton(it) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "bd-choice";
  if (it.cue) b.appendChild(it.cue);
  const words = document.createElement("span");
  words.textContent = it.label;
  b.appendChild(words);
  b.addEventListener("click", (e) => {
    e.stopPropagation();
    closeChooser(true);
    it.act();
  });
  return b;
}

export function ask(evt, items, stale) {
  closeChooser(false);
  const here = stage();
  if (!here || !items.length) return false;
  const overlay = document.createElement("div");
  overlay.className = "bd-overlay";
  const spacer = node("svg", { class: "bd-spacer", width: "0", height: "0", "aria-hidden": "true", focusable: "false" });
  overlay.appendChild(spacer);
  const box = document.createElement("div");
  box.className = "bd-chooser";
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-labelledby", "bd-chooser-title");
  const title = document.createElement("p");
  title.id = "bd-chooser-title";
  title.className = "bd-chooser-title";
  title.textContent = gettext("Which one?");
  box.appendChild(title);
  items.forEach((it) => box.appendChild(choiceButton(it)));
  overlay.appendChild(box);
  here.appendChild(overlay);
  const vv = window.visualViewport;
  const view = vv ? { left: vv.offsetLeft, top: vv.offsetTop, width: vv.width, height: vv.height }
    : { left: 0, top: 0, width: document.documentElement.clientWidth, height: window.innerHeight };
  const offset = placeAt(view, box.getBoundingClientRect(), evt.clientX, evt.clientY);
  spacer.setAttribute("width", String(offset.width));
  spacer.setAttribute("height", String(offset.height));
  overlay.addEventListener("click", (e) => {
    e.stopPropagation();
    if (!box.contains(e.target)) closeChooser(true);
  });
  box.addEventListener("keydown", chooserKey);
  asking = {
    overlay: overlay,
    box: box,
    marks: items.map((it) => it.mark),
    stale: stale || (() => false),
    board: boardEl(),
    width: document.documentElement.clientWidth,
  };
  paintAsked();
  box.querySelector("button").focus({ preventScroll: true });
  return true;
}

/** Where the chooser goes: 36 px below the tap at (x, y) (above it if it does not fit),
 *  clear of the spots it asks about, within the visible viewport ``view`` ({left, top,
 *  width, height}, px; 8 px in from its edges), the chooser now at ``r`` ({left, top,
 *  width, height}). Returns the spacer's size, {width, height} (px, whole): the overlay
 *  is a grid whose first cell, the spacer, is as wide and as tall as the chooser's
 *  offset (SVG width and height attributes), the chooser in the next. Pure. */
export function placeAt(view, r, x, y) {
  const right = view.left + view.width;
  const bottom = view.top + view.height;
  const gap = 36;
  const bx = Math.max(view.left + 8, Math.min(x - r.width / 2, right - 8 - r.width));
  let by = y + gap;
  if (by + r.height > bottom - 8) by = y - gap - r.height;
  if (by < view.top + 8) by = Math.max(view.top + 8, Math.min(y + gap, bottom - 8 - r.height));
  return { width: Math.max(0, Math.round(bx - r.left)), height: Math.max(0, Math.round(by - r.top)) };
}

/** The chooser's keys: "close", a focus step (1 or -1), or null (Enter and Space press the button). */
export function chooserStep(key, shift) {
  if (key === "Escape") return "close";
  if (key === "ArrowDown" || key === "ArrowRight" || (key === "Tab" && !shift)) return 1;
  if (key === "ArrowUp" || key === "ArrowLeft" || key === "Tab") return -1;
  return null;
}

function chooserKey(evt) {
  if (!asking) return;
  const buttons = Array.prototype.slice.call(asking.box.querySelectorAll("button"));
  const at = buttons.indexOf(document.activeElement);
  const step = chooserStep(evt.key, evt.shiftKey);
  if (step === null) return;
  if (step === "close") closeChooser(true);
  else buttons[(at + step + buttons.length) % buttons.length].focus({ preventScroll: true });
  evt.preventDefault();
  evt.stopPropagation();
}

/** Mark the spots the open chooser asks about (again, after the board was redrawn). */
export function paintAsked() {
  if (!asking) return;
  asking.marks.forEach((sel) => {
    const els = document.querySelectorAll(sel);
    for (let i = 0; i < els.length; i++) els[i].classList.add("is-asked");
  });
}

/** Close the chooser (if open). Focus inside it, or ``refocus``: to the board's stage. */
export function closeChooser(refocus) {
  if (!asking) return;
  const was = asking;
  asking = null;
  const marked = document.querySelectorAll(".is-asked");
  for (let i = 0; i < marked.length; i++) marked[i].classList.remove("is-asked");
  const inside = was.box.contains(document.activeElement);
  if (was.overlay.parentNode) was.overlay.parentNode.removeChild(was.overlay);
  const here = stage();
  if ((refocus || inside) && here) here.focus({ preventScroll: true });
}

/** After a frame: a chooser whose board or choices were replaced closes. */
export function checkChooser() {
  if (asking && (asking.board !== boardEl() || asking.stale())) closeChooser(true);
}

/** Close it when the page scrolls, or a phone turns (not its toolbar sliding, nor a pinch). */
export function watchViewport() {
  window.addEventListener("scroll", () => {
    if (asking) closeChooser(true);
  }, { passive: true });
  window.addEventListener("resize", () => {
    if (asking && asking.width !== document.documentElement.clientWidth) closeChooser(true);
  });
}
