/* Parlour: acting on the board (every game). An ES module, run after match.js; its
 * parts are in static/js/board/ (below).
 *
 * The seat's legal choices travel ONLY in its own frame (the controls partial,
 * {% board_choices %}, games/templatetags/board_parts.py), never in the public board:
 *
 *   <div id="board-choices" hidden data-version="N" data-compose="1"? data-help="..."?>[...]</div>
 *
 * Its text is JSON: a list of choices, or {"choices": [...], "table": [...]} where
 * "n" may hold indices into "table" (choices shared by several). Each choice
 * (units: the board's viewBox):
 *   m   the move notation sent          k   the board target it belongs to
 *   l   its words (aria-label, status)  t   [x, y] where it lands
 *   h   [cx, cy, r] hit circle          hr  [x, y, w, h] hit rectangle (optional)
 *   f   [x, y] the piece's centre (else h's)   g   symbol id of the preview's shape
 *   p   [[x, y], ...] the way it goes (optional; else a straight line from f to t)
 *   gt  the preview's transform (optional; else translate to t)   gc  its colour class
 *   d   the die it uses (optional)      w   the way it goes (optional; "turn": it turns
 *                                           where it stands, drawn ↺: a Roundabout reversal)
 *   e   1: the decision may end here    x   a move sent after it to end there ("pass")
 *   n   the choices that follow it (a composed turn: Roundabout's second die)
 *   hs  the piece's body radius (optional): a tap that far from its centre, or from
 *       one of its destinations, means it, however close its neighbours
 *   fr  the piece's angle in degrees where it stands (optional): its highlight is then
 *       a band along its own outline (g drawn at h's centre, turned by fr, under the
 *       pieces: the board's [data-space] elements), not a ring round it (rings round
 *       close pieces merge)
 * Each game's controls template documents its own fields.
 *
 * Here the matching board spots become clickable: hit areas (role=button,
 * tabindex, aria-label: all added client-side), highlights, a preview of
 * the chosen piece's destination (board/draw.js), and a bar with Confirm / Undo /
 * Cancel beside the labelled buttons (board/bar.js; they stay for keyboard, screen
 * readers and no-JS posts). The choices and what is composed of them are one small
 * state machine (board/choices.js, pure); this module wires it to the page. A
 * choice is sent over the match socket (window.Parlour.send, as the ws-send forms
 * are); a composed turn is sent once, {"moves": [...]}; without a socket the labelled
 * form of its first move is posted. Every frame clears it.
 *
 * Clicks and taps pick the nearest target (or, once one is selected, the nearest
 * destination) within reach: its hit radius, at least 22 px. Where targets sit
 * closer together than 44 px on screen (a 390 px phone: darts 20 px apart,
 * Ludo cells 24 to 26 px) a tap that is not clearly nearer one of them (by 22 px),
 * nor on a piece's own body (hs), is not guessed (board/geometry.js, board/pointer.js):
 * it asks "Which one?" (board/chooser.js), one 44 px button per candidate, with
 * their spots marked on the board (.is-asked);
 * choosing one acts as tapping it would, and Escape, a tap outside or a new frame
 * change nothing.
 * Pieces sharing a square are one choice (merged server-side).
 *
 * Keyboard shortcuts can be turned off (WCAG 2.1.4: the Settings tab's switch,
 * Parlour.setting("shortcuts"); the list is shown under the board): board/keys.js, in
 * the game's own words (its GameSite's board_keys, #board-key-words).
 * They act while the board has focus; the letter keys also from anywhere else on the
 * match page but a field (they take the focus to the board).
 * window.parlourBoard: focusPrimary() (focus the board when it holds choices or
 * the seat's controls mark a composer on it with data-board-primary, else the
 * primary control; true if it focused something), register(adapter) for a game
 * script with its own composer (rondo.js), help(text) (how to play on the board,
 * in the keys box), refresh(), and for such a script's own taps crowd(x, y, spots)
 * (which of [{x, y, r}], client px, a tap at x, y may mean: [] none, one: act,
 * several: ask) and ask(evt, items, stale) (the chooser: items [{label, cue?, mark,
 * act}], mark a selector of the spot to highlight; stale() true closes it when a
 * frame comes).
 */

import * as C from "./board/choices.js";
import { bar, showBar } from "./board/bar.js";
import { ask, checkChooser, isAsking, watchViewport } from "./board/chooser.js";
import { byId, keysOn, net, stage, visibleFirst } from "./board/dom.js";
import { clearLayer, draw, markDice } from "./board/draw.js";
import { crowd } from "./board/geometry.js";
import { keyList, onKeys, pieceWord, showHelp } from "./board/keys.js";
import { onPointer } from "./board/pointer.js";

let st = null; // the state machine's state (board/choices.js), null: no choices
let adapter = null; // a game's own composer (rondo.js), when it is active
let hadFocus = null; // before a frame: null, or {key} (board focus)

function render() {
  markDice(st);
  draw(st, adapter);
  if (!bar(st, { confirm, undo, cancel })) return;
  showBar(st, C.words(st, net(), pieceWord()), C.canConfirm(st));
}

// --- Acting ---------------------------------------------------------------------------

function select(k) {
  const r = C.select(st, k);
  if (r === "confirm") confirm();
  else if (r) render();
}

function chooseDest(i) {
  const r = C.chooseDest(st, i);
  if (r === "confirm") confirm();
  else if (r) render();
}

function confirm() {
  if (!C.readyToSend(st)) return;
  if (net().offline) {
    render(); // says so (words)
    return;
  }
  const msg = C.send(st);
  render();
  const P = window.Parlour;
  if (P && P.send && P.send(msg)) {
    const mine = st;
    setTimeout(function expire() {
      // No answer: free the board, unless the connection is down (the move is on its way).
      if (st === mine && st.busy && P.connected && !P.connected()) {
        setTimeout(expire, 10000);
        return;
      }
      if (st === mine && st.busy) {
        st.busy = false;
        st.steps = [];
        render();
      }
    }, 10000);
    return;
  }
  postForm(msg.moves ? msg.moves[0] : msg.move);
}

/** No socket: post the labelled form of the first move (the page reloads). */
function postForm(move) {
  const inputs = document.querySelectorAll('#controls form input[name="move"]');
  for (let i = 0; i < inputs.length; i++) {
    if (inputs[i].value === move) {
      const form = inputs[i].form;
      if (form.requestSubmit) form.requestSubmit();
      else form.submit();
      return;
    }
  }
  st.busy = false;
  render();
}

function undo() {
  if (C.undo(st)) render();
}

function cancel() {
  if (C.cancel(st)) render();
}

// --- Pointer and keys -----------------------------------------------------------------

onPointer({
  state: () => st,
  composing: () => !!adapter,
  select,
  chooseDest,
  deselect: () => {
    if (st.selected !== null) {
      st.selected = null;
      render();
    }
  },
});
watchViewport();

function clickMove(move) {
  const input = document.querySelector('#controls form input[name="move"][value="' + move + '"]');
  const btn = input && input.form.querySelector("button:not([disabled])");
  if (btn) {
    btn.click();
    return true;
  }
  return false;
}

/** The board's own composer for the keys (a game's adapter has the same shape). */
const generic = {
  next: (dir) => {
    if (st && !st.busy && C.cycleTarget(st, dir)) render();
  },
  cycle: (dir) => {
    if (st && !st.busy && C.cycleDest(st, dir)) render();
  },
  enter: (target) => {
    if (!st || st.busy) return;
    const g = target && target.closest ? target.closest("[data-target]") : null;
    if (g && g.getAttribute("data-target") !== st.selected) {
      select(g.getAttribute("data-target"));
      return;
    }
    if (C.selectedTarget(st)) chooseDest(st.dest);
    else if (C.canConfirm(st)) confirm();
    else generic.next(1);
  },
  undo,
  cancel,
};

onKeys({
  active: () => !!(st || adapter),
  focusPrimary,
  composer: () => adapter || generic,
  clickMove,
});
// match.js: the page went offline or came back (words and the busy wait follow it).
document.addEventListener("parlour:connection", () => {
  if (st) render();
});

function prepareStage() {
  const here = stage();
  if (!here) return;
  if (!here.hasAttribute("tabindex")) {
    here.setAttribute("tabindex", "0");
    here.classList.add("board-stage");
    here.setAttribute("aria-describedby", "board-keys");
  }
  keyList();
}

// --- Frames ---------------------------------------------------------------------------

/** The kind of the last frame swapped in (#frame-version's data-kind: "snapshot",
 *  "seat" or "error", none for an "update"; static/js/match.js). */
function frameKind() {
  const fv = byId("frame-version");
  return fv ? fv.getAttribute("data-kind") || "update" : null;
}

function refresh() {
  const el = byId("board-choices");
  const now = el ? { el, text: el.textContent, version: el.getAttribute("data-version") } : null;
  const verdict = C.frameVerdict(st, now, frameKind());
  if (verdict === "keep") {
    st.el = el; // the same choices again (a snapshot after the first frame): keep what is composed
  } else if (verdict === "read") {
    st = el ? C.newState(el, now.text, now.version, el.getAttribute("data-compose") === "1",
      C.parseChoices(now.text)) : null;
  } else if (verdict === "error") {
    st.busy = false; // the answer was an error: the same choices stand
    st.steps = [];
  } // else a public frame alone: the seat's own controls (the answer) are still on the way
  prepareStage();
  if (!st) {
    clearLayer();
    markDice(st);
    return;
  }
  render();
}

let shownMarks = null; // the last move's marks on the board before a frame

/** A frame whose change made no board move says so (g.lm-keep): keep the marks shown. */
function keepMarks() {
  const keep = document.querySelector("#board .lm-keep");
  if (keep && shownMarks) keep.parentNode.replaceChild(shownMarks, keep);
  shownMarks = null;
}

document.addEventListener("htmx:wsBeforeMessage", () => {
  shownMarks = document.querySelector("#board .lm:not(.lm-keep)");
  const here = stage();
  const active = document.activeElement;
  hadFocus = here && active && here.contains(active) ? {
    key: active.getAttribute && active.getAttribute("data-target"),
  } : null;
});

document.addEventListener("htmx:wsAfterMessage", () => {
  keepMarks();
  refresh();
  checkChooser();
  // Focus stays on the board: its targets were redrawn, the stage was not.
  const active = document.activeElement;
  if (hadFocus && (!active || active === document.body || !document.body.contains(active))) {
    const again = hadFocus.key && document.querySelector('#board [data-target="' + hadFocus.key + '"]');
    const here = stage();
    if (again) again.focus({ preventScroll: true });
    else if (here) here.focus({ preventScroll: true });
  }
  hadFocus = null;
});

function focusPrimary() {
  const here = stage();
  if (here && keysOn() && here.contains(document.activeElement)) {
    return true; // someone playing with the board's keys keeps the board (R rolls from there)
  }
  // A game's own composer marks itself (rondo.js's chain form): its script may
  // set up after this frame's other listeners, so its adapter is not active yet.
  const composer = document.querySelector("#controls [data-board-primary]");
  if ((st || composer || (adapter && adapter.active())) && here) {
    here.focus({ preventScroll: true });
    return true;
  }
  const btn = document.querySelector("#controls [data-primary]:not([disabled])") ||
    visibleFirst(document.querySelectorAll("#controls form[ws-send] button:not([disabled])"));
  if (btn) {
    btn.focus({ preventScroll: true });
    return true;
  }
  return false;
}

window.parlourBoard = {
  focusPrimary,
  refresh,
  /** A game script's own composer: {active(), next(dir), cycle(dir), enter(target), undo(), cancel()}. */
  register: (a) => {
    adapter = a;
  },
  /** How to play on the board, at length: in the board's keys box. */
  help: showHelp,
  /** For tests and game scripts: the current choices' targets, or []. */
  targets: () => (st ? C.targets(st) : []),
  crowd,
  ask,
  /** The kind of the last frame swapped in: "seat", "error", "snapshot", "update". */
  frameKind,
  /** Whether the chooser ("Which one?") is open. */
  asking: isAsking,
};

document.addEventListener("htmx:afterSettle", checkChooser);

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", refresh);
} else {
  refresh();
}
