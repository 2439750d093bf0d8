/* The match page's countdown: <time id="clock" data-deadline="ms" data-server-now="ms">,
 * counted down on the server's clock (deadline - (server now + time since it arrived)).
 * A turn-based match's clock (data-words) reads in days and hours ("2 days 4 h",
 * clock_words.js), not mm:ss. clockText() and remainingMs() are pure
 * (static/js/tests/match_clock.test.mjs). */
import { leftWords } from "../clock_words.js";

/** Under this many ms left the clock is .urgent. */
export const URGENT_MS = 10000;

function pad(n) {
  return n < 10 ? "0" + n : String(n);
}

/** "mm:ss" for ``leftMs`` ms left (whole seconds rounded up; never below 00:00); with
 *  ``words`` (a turn-based clock) "2 days 4 h", "3 h 20 min" (clock_words.js). */
export function clockText(leftMs, words) {
  if (words) return leftWords(leftMs);
  const secs = Math.ceil(Math.max(0, leftMs) / 1000);
  return pad(Math.floor(secs / 60)) + ":" + pad(secs % 60);
}

/** Ms left on the server's clock: ``deadline`` and ``serverNow`` (server ms) read when the
 *  clock arrived at ``arrived`` (performance.now() ms), now ``now``; never below 0; NaN
 *  when the clock holds no deadline. */
export function remainingMs(deadline, serverNow, arrived, now) {
  return Math.max(0, deadline - serverNow - (now - arrived));
}

const clock = { el: null, key: "", deadline: 0, serverNow: 0, arrived: 0, text: null, words: false };

function arrivalTime(initial) {
  // The first page's clock was written when the server rendered it, which is
  // about when the response started arriving; later ones arrive as we read them.
  if (initial && window.performance && performance.getEntriesByType) {
    const nav = performance.getEntriesByType("navigation")[0];
    if (nav && nav.responseStart > 0) return nav.responseStart;
  }
  return performance.now();
}

/** Re-read #clock when it was replaced or its attributes changed (``initial``: the page's own). */
export function readClock(initial) {
  const el = document.getElementById("clock");
  if (!el) {
    clock.el = null;
    return;
  }
  const deadline = el.getAttribute("data-deadline") || "";
  const serverNow = el.getAttribute("data-server-now") || "";
  const key = deadline + "|" + serverNow;
  if (el === clock.el && key === clock.key) return; // unchanged: keep its arrival time
  clock.el = el;
  clock.key = key;
  clock.deadline = parseInt(deadline, 10);
  clock.serverNow = parseInt(serverNow, 10);
  clock.words = el.hasAttribute("data-words");
  clock.arrived = arrivalTime(initial);
  clock.text = null;
  tick();
}

/** Write the time left (4 times a second: static/js/match.js). */
export function tick() {
  readClock(false);
  const el = clock.el;
  if (!el) return;
  if (isNaN(clock.deadline) || isNaN(clock.serverNow)) {
    el.classList.remove("urgent");
    return;
  }
  const left = remainingMs(clock.deadline, clock.serverNow, clock.arrived, performance.now());
  const text = clockText(left, clock.words);
  if (text !== clock.text) {
    clock.text = text;
    el.textContent = text;
  }
  el.classList.toggle("urgent", left < URGENT_MS);
}
