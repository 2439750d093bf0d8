/* The board's keyboard: its shortcuts, their list under the board, and its help.
 *
 * Keyboard shortcuts can be turned off (WCAG 2.1.4: the Settings tab's switch,
 * Parlour.setting("shortcuts")). They act while the board has focus; the letter keys
 * also from anywhere else on the match page but a field (they take the focus to the
 * board). Their words are the game's own: its GameSite's board_keys (games/sites.py),
 * rendered once with the page as an inert <template id="board-key-words"><dl> of <dt>keys
 * and <dd>words (not a script: the page's only data script is its close codes).
 * keyCommand() and wordsOf() are pure
 * (static/js/tests/board_keys.test.mjs).
 */

import { byId, keysOn, stage } from "./dom.js";
import { inChooser } from "./chooser.js";
import { gettext } from "../i18n.js";

/** [[keys, words], ...] of a list's <dt> elements (each followed by its <dd>). */
export function wordsOf(dts) {
  return Array.prototype.map.call(dts, (dt) => [
    dt.textContent,
    dt.nextElementSibling ? dt.nextElementSibling.textContent : "",
  ]);
}

/** The shortcuts as this game's page lists them: [[keys, words], ...] from
 *  #board-key-words, the same keys everywhere named in the game's own words, and
 *  only those that act; [] without it. */
export function keyWords() {
  const el = byId("board-key-words");
  return el && el.content ? wordsOf(el.content.querySelectorAll("dt")) : [];
}

/** What the game's pieces are called in the board's hints ("piece", "dart"): its
 *  GameSite's piece_word, #board-key-words' data-piece. */
export function pieceWord() {
  const el = byId("board-key-words");
  return (el && el.getAttribute("data-piece")) || "piece";
}

/** The letters that act from anywhere on the match page (not only on the board). */
export const LETTERS = { r: 1, n: 1, p: 1, t: 1, u: 1 };

/** What key ``key`` (KeyboardEvent.key) does: ["roll"], ["next", dir], ["cycle", dir],
 *  ["enter"], ["undo"], ["cancel"], or null (not a shortcut). */
export function keyCommand(key) {
  const lower = key.length === 1 ? key.toLowerCase() : key;
  if (lower === "r") return ["roll"];
  if (lower === "n" || key === "ArrowRight") return ["next", 1];
  if (lower === "p" || key === "ArrowLeft") return ["next", -1];
  if (lower === "t" || key === "ArrowDown") return ["cycle", 1];
  if (key === "ArrowUp") return ["cycle", -1];
  if (key === "Enter" || key === " ") return ["enter"];
  if (lower === "u" || key === "Backspace") return ["undo"];
  if (key === "Escape") return ["cancel"];
  return null;
}

/** Whether a key pressed on ``el`` belongs to it (a field, a list, the chooser). */
export function typing(el) {
  return !!(el && el.closest && el.closest("input, select, textarea, [contenteditable], .bd-chooser"));
}

/** A keydown from outside the board's stage: whether the board takes it (a letter
 *  key on the match page, not in a field; Enter, Space, arrows and Esc keep their
 *  usual meaning there). ``ctl``: see onKeys(). */
function fromElsewhere(evt, here, ctl) {
  const lower = evt.key.length === 1 ? evt.key.toLowerCase() : evt.key;
  const m = byId("match");
  if (!LETTERS[lower] || typing(evt.target) || !m || !(m.contains(evt.target) || evt.target === document.body)) {
    return false;
  }
  if (lower !== "r") {
    if (!ctl.active()) return false;
    ctl.focusPrimary();
    if (!here.contains(document.activeElement)) return false;
  }
  return true;
}

/** Listen for the board's keys. ``ctl``: {active() (choices or a composer are on the
 *  board), focusPrimary(), composer() (the game's adapter or the board's own:
 *  {next(dir), cycle(dir), enter(target), undo(), cancel()}), clickMove(move)}. */
export function onKeys(ctl) {
  document.addEventListener("keydown", (evt) => {
    if (!keysOn() || evt.ctrlKey || evt.metaKey || evt.altKey) return;
    const here = stage();
    if (!here || inChooser(evt.target)) return;
    if (!here.contains(evt.target) && !fromElsewhere(evt, here, ctl)) return;
    const cmd = keyCommand(evt.key);
    if (!cmd) return;
    let done = true;
    const a = ctl.composer();
    if (cmd[0] === "roll") done = ctl.clickMove("roll");
    else if (cmd[0] === "enter") a.enter(evt.target);
    else a[cmd[0]](cmd[1]);
    if (done) evt.preventDefault();
  });
}

/** How to move on the board (the seat's choices' data-help): in the board's
 *  keys box, so the decision itself stays one row under the board (a phone
 *  fits the board and the decision on one screen: match.css "Layout"). */
export function showHelp(text) {
  const box = byId("board-keys");
  if (!box || !text) return;
  let p = byId("board-help");
  if (!p) {
    p = document.createElement("p");
    p.id = "board-help";
    p.className = "board-help";
    box.insertBefore(p, box.children[1] || null);
  }
  p.textContent = text;
}

/** The list of the shortcuts (#board-keys) in the Settings tab, for players only
 *  (the tab holds their switch for the shortcuts); once. */
export function keyList() {
  const here = byId("panel-device");
  if (!here || !stage() || byId("board-keys") || !document.querySelector("#device-settings [name=shortcuts]")) return;
  const box = document.createElement("details");
  box.id = "board-keys";
  box.className = "board-keys";
  const sum = document.createElement("summary");
  sum.textContent = gettext("Playing on the board, and its keyboard shortcuts (the letters anywhere on the page)");
  box.appendChild(sum);
  const dl = document.createElement("dl");
  keyWords().forEach((k) => {
    const dt = document.createElement("dt");
    dt.textContent = k[0];
    const dd = document.createElement("dd");
    dd.textContent = k[1];
    dl.appendChild(dt);
    dl.appendChild(dd);
  });
  box.appendChild(dl);
  const note = document.createElement("p");
  note.className = "help";
  note.textContent = gettext("Turn the shortcuts off above.");
  box.appendChild(note);
  here.appendChild(box);
}
