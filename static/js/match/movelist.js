/* The move list (#move-list, one .move-line[data-ply] per turn): kept scrolled to its
 * newest line and at most MOVE_LINES_KEPT turns long, its newest line copied above a
 * phone's board (#last-move), and an update's new lines read out (#announce, polite).
 * newLines() and trimCount() are pure (static/js/tests/match_movelist.test.mjs). */

/** Turns kept in the list (a long match would grow the page without end; the replay has every line). */
export const MOVE_LINES_KEPT = 200;

function byId(id) {
  return document.getElementById(id);
}

/** How many of ``count`` lines to drop from the list's start to keep ``kept``. */
export function trimCount(count, kept = MOVE_LINES_KEPT) {
  return Math.max(0, count - kept);
}

/** The words of the lines ([{ply, text}]) after ply ``shown``, in order. */
export function newLines(lines, shown) {
  return lines.filter((l) => l.ply > shown).map((l) => l.text.trim());
}

/** The ply of the move list's last line (-1: none). */
export function lastPly() {
  const lines = document.querySelectorAll("#move-list .move-line");
  const last = lines[lines.length - 1];
  const ply = last ? parseInt(last.getAttribute("data-ply"), 10) : NaN;
  return isNaN(ply) ? -1 : ply;
}

/** Screen readers hear an update's new lines, those after ply ``shown`` (#announce,
 *  polite); a snapshot (``update`` false) says nothing. */
export function announceNewLines(update, shown) {
  const box = byId("announce");
  if (!box) return;
  let words = [];
  if (update) {
    const lines = Array.prototype.map.call(document.querySelectorAll("#move-list .move-line"), (el) => ({
      ply: parseInt(el.getAttribute("data-ply"), 10), text: el.textContent,
    }));
    words = newLines(lines, shown);
  }
  box.textContent = words.join(" ");
}

// The move list stays scrolled to its newest line when its box shrinks (on a
// desktop the seat's controls above it grow when a decision comes), unless the
// player scrolled up to read.
let pinned = true;
let pinnedTop = 0; // the scrollTop this script last set: a scroll above it is the player's

function pinList(list) {
  list.scrollTop = list.scrollHeight;
  pinnedTop = list.scrollTop;
  pinned = true;
}

/** Keep the list pinned to its newest line as its panel's box changes. */
export function pinMoveList() {
  // A snapshot replaces #move-list itself: listen on the document, observe its panel.
  const panel = byId("panel-moves");
  if (!panel || !window.ResizeObserver) return;
  document.addEventListener("scroll", (evt) => {
    const list = evt.target;
    if (list && list.id === "move-list") {
      // A shrinking box does not move scrollTop, so it leaves the list pinned.
      pinned = list.scrollTop >= pinnedTop - 4 || list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    }
  }, { capture: true, passive: true });
  new ResizeObserver(() => {
    const list = byId("move-list");
    if (list && pinned) pinList(list);
  }).observe(panel);
}

/** Copies the move list's newest line into #last-move (above a phone's board). */
function showLastMove(list) {
  const box = byId("last-move");
  if (!box) return;
  const lines = list.querySelectorAll(".move-line");
  const line = lines[lines.length - 1];
  const copies = [];
  if (line) {
    for (let n = line.firstChild; n; n = n.nextSibling) copies.push(n.cloneNode(true));
    box.title = line.textContent.trim();
  }
  box.replaceChildren.apply(box, copies);
}

/** Keep the move list scrolled to its newest line, and no longer than MOVE_LINES_KEPT turns. */
export function showNewestMove() {
  const list = byId("move-list");
  if (!list) return;
  // One item per turn, numbered from the list's start: dropping the oldest
  // moves the start on, so the turns left keep their numbers.
  for (let n = trimCount(list.children.length); n > 0; n--) {
    list.removeChild(list.firstElementChild);
    list.start = list.start + 1;
  }
  pinList(list);
  showLastMove(list);
}
