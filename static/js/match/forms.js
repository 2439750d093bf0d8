/* The match page's move forms (<form ws-send>, or data-ws-send): a sent form's buttons
 * are locked until its answer, and keyboard users keep their place across swaps.
 *
 * A swap that replaces the focused move form leaves focus on <body>: focus goes to the
 * first control of what replaced it (the seat's controls: their new decision's primary
 * control, through window.parlourBoard.focusPrimary, static/js/board.js). */

/** Re-enable a sent form's buttons if no frame ever answers after this long (ms). */
export const BUSY_TIMEOUT_MS = 10000;
const BOARD_FOCUS = "board"; // focusHome when focus was on the board (static/js/board.js)

let connected = () => true;
let focusHome = null; // id of the element around the move form that had focus

/** Where lock() asks whether the page is connected (match.js's connected()). */
export function useConnection(fn) {
  connected = fn;
}

function byId(id) {
  return document.getElementById(id);
}

export function isMoveForm(el) {
  return !!el && el.tagName === "FORM" && (el.hasAttribute("ws-send") || el.hasAttribute("data-ws-send"));
}

/** Disables a sent form's buttons until its answer (releaseForms) or BUSY_TIMEOUT_MS. */
export function lock(form) {
  const controls = form.querySelectorAll("button, input[type=submit]");
  for (let i = 0; i < controls.length; i++) {
    if (!controls[i].disabled) {
      controls[i].disabled = true;
      controls[i].setAttribute("data-busy", "");
    }
  }
  form.setAttribute("aria-busy", "true");
  clearTimeout(form._parlourBusy);
  form._parlourBusy = setTimeout(function expire() {
    // A lost answer on a working connection: free the form. While the connection is
    // down, the move is still on its way: wait on.
    if (connected()) release(form);
    else form._parlourBusy = setTimeout(expire, BUSY_TIMEOUT_MS);
  }, BUSY_TIMEOUT_MS);
}

/** A move was sent: every move form of the seat's controls waits for the answer
 *  (one move per version: any other would be refused as out of date). */
export function lockMoves() {
  const forms = document.querySelectorAll("#controls form");
  for (let i = 0; i < forms.length; i++) {
    if (isMoveForm(forms[i])) lock(forms[i]);
  }
}

function release(form) {
  clearTimeout(form._parlourBusy);
  form.removeAttribute("aria-busy");
  const controls = form.querySelectorAll("[data-busy]");
  for (let i = 0; i < controls.length; i++) {
    controls[i].disabled = false;
    controls[i].removeAttribute("data-busy");
  }
}

/** Unlocks the sent forms: all of them when the message answered this page's
 *  move, else only those outside the seat's controls (chat). */
export function releaseForms(all) {
  const forms = document.querySelectorAll("form[aria-busy]");
  for (let i = 0; i < forms.length; i++) {
    if (all || !forms[i].closest("#controls")) release(forms[i]);
  }
}

/** Whether el is the board's stage (the board's parent, which holds focus
 *  for the board's shortcuts) or inside it. */
function onBoard(el) {
  const board = byId("board");
  const here = board && board.parentElement;
  return !!(here && el && here.contains(el));
}

/** Where focus goes back to after a swap replaces ``form``: the seat's controls as a
 *  whole (their new decision's primary control; the form's own id may be gone from
 *  them), else the form's nearest element with an id. */
function homeOf(form) {
  if (form.closest("#controls")) return "controls";
  const home = form.closest("[id]");
  return home ? home.id : null;
}

/** Form ``form`` was sent from itself (not by a shortcut on the board, which keeps the
 *  board's focus): its place is where focus goes back to. */
export function sentFrom(form) {
  if (!onBoard(document.activeElement)) focusHome = homeOf(form);
}

/** Before a swap: note where the focus is (the board, or a move form's place). */
export function rememberFocus() {
  const active = document.activeElement;
  if (onBoard(active)) {
    focusHome = BOARD_FOCUS;
    return;
  }
  const form = active && active.closest ? active.closest("form") : null;
  if (isMoveForm(form)) focusHome = homeOf(form);
}

/** Whether the focus was on the board before the swap. */
export function focusWasOnBoard() {
  return focusHome === BOARD_FOCUS;
}

/** After a swap: focus back to where it was noted, if nothing holds it now. */
export function restoreFocus() {
  const id = focusHome;
  focusHome = null;
  const active = document.activeElement;
  if (!id || (active && active !== document.body)) return;
  if (id === BOARD_FOCUS) {
    // The board was swapped under the focus: back to the board (or, with
    // nothing to choose there, its primary control).
    if (window.parlourBoard) window.parlourBoard.focusPrimary();
    return;
  }
  const home = byId(id);
  if (home && home.closest("#controls") && window.parlourBoard) {
    // The seat's controls were replaced: to the new decision's primary control (the
    // board or Roll), not the first button left (often "Leave the match"); with no
    // decision, to the board. After this frame's other listeners (board.js reads the
    // new choices in its own), and only if nothing took the focus meanwhile.
    setTimeout(() => {
      const now = document.activeElement;
      if (now && now !== document.body) return;
      if (!window.parlourBoard.focusPrimary() || document.activeElement === document.body) {
        const board = byId("board");
        const here = board && board.parentElement;
        if (here && here.hasAttribute("tabindex")) here.focus({ preventScroll: true });
      }
    }, 0);
    return;
  }
  const target = home && home.querySelector("button:not([disabled]), input[type=submit]:not([disabled])");
  if (target) target.focus({ preventScroll: true });
}

/** Forms that ask first (leaving a match) carry the question in data-confirm: a "no"
 *  cancels the submit before anything else sees it. */
export function watchConfirms() {
  document.addEventListener(
    "submit",
    (evt) => {
      const q = evt.target && evt.target.getAttribute && evt.target.getAttribute("data-confirm");
      if (q && !window.confirm(q)) {
        evt.preventDefault();
        evt.stopPropagation();
      }
    },
    true
  );
}
