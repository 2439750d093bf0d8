/* Rondo chain composer (an ES module on Rondo match pages, run after match.js and board.js).
 *
 * Without this file the seat's controls hold a plain form that posts the chain as
 * several "move" fields. With it, the player composes the chain on the board:
 * tap or click (or tab to and press Enter on) a highlighted space, pick its tiles
 * (a number face up, or one tile face down), see the running score and each
 * placement's tiles drawn on its space, undo the last placement or clear the whole
 * chain, then send the whole chain as ONE message over the match socket:
 *   {"moves": ["place I03 2", "place I04 down red", "end"], "version": "N"}
 * (window.Parlour.send, from match.js). The server checks the chain and applies it
 * all or nothing; when the socket is closed the plain form is filled and posted.
 *
 * A tap picks the nearest highlighted space within reach (at least 22 px); where
 * highlighted spaces sit closer together than 44 px on screen (23 to 25 px apart
 * on a 390 px phone) a tap between them asks "Which one?" instead of guessing
 * (window.parlourBoard.crowd and ask, static/js/board.js): one button per space,
 * in its words ("Place on I03, red 3"), and choosing one opens its tiles.
 *
 * Which spaces the chain may take next and which tiles each space takes are the
 * engine's, sent in the seat's own frame (#rondo-tree: a tree of the space paths
 * the chain rule allows, and each space's placements with the tiles they use;
 * games/rondo/templatetags/rondo_tags.py): this page re-implements no rule, it
 * only counts the tiles the chain has used.
 *
 * DOM contract: #board with g.rb-space[data-space data-colour data-value];
 * #rondo-chain-form[data-version] holding #rondo-tree; #rondo-rack li[data-tile-colour];
 * #rondo-composer with #rondo-help[data-more] (the long help, for the board's keys box),
 * #rondo-picker, #rondo-chain-list, #rondo-running (and #rondo-points, its word), #rondo-undo,
 * #rondo-clear (hidden while the chain is empty), #rondo-send;
 * #rondo-controls.is-picking while the picker is open (rondo.css hides the rest).
 * On the board (this page only, never the public markup): .rb-can on the spaces the chain
 * may take and their rings in g.rb-halos (circle.rb-halo[data-halo-space], .is-focus,
 * .is-selected) under g.rb-spaces; .rb-pending on the chain's spaces, each holding its
 * tiles' preview (g.rb-tile.rb-preview).
 * Only the seat's own controls carry its rack: nothing here reads another's.
 * Keyboard: window.parlourBoard's shortcuts (static/js/board.js) act here too.
 * Its parts (rondo/): chain.js (the chain being composed: pure), marks.js (the board's
 * marks), panel.js (the composer panel); this module wires them to the page.
 */

import * as R from "./rondo/chain.js";
import { clearMarks, placeWords, spaceEl, spaceFrom, watchFocus } from "./rondo/marks.js";
import { renderPanel } from "./rondo/panel.js";

let st = null;

function byId(id) {
  return document.getElementById(id);
}

watchFocus();

function render() {
  renderPanel(st, { pick, cancel: cancelPick });
}

function pick(o) {
  R.place(st, o);
  render();
  const next = document.querySelector("#board .rb-can") || byId("rondo-send");
  if (next) next.focus();
}

function cancelPick() {
  st.selected = null;
  render();
  const back = spaceEl(st.lastChosen);
  if (back && back.classList.contains("rb-can")) back.focus();
}

function choose(id) {
  if (!st || st.sending || R.candidates(st).indexOf(id) < 0) return;
  st.selected = id;
  st.lastChosen = id;
  render();
}

function undo() {
  R.takeBack(st);
  render();
}

/** Take back the whole chain (the Clear chain button and the board's Esc). */
function clearChain() {
  if (!st || st.sending) return;
  while (st.chain.length) undo();
  st.selected = null;
  render();
}

function send() {
  if (!st.chain.length) return;
  const moves = R.chainMoves(st.chain);
  st.sending = true;
  render();
  if (window.Parlour && window.Parlour.send && window.Parlour.send({ moves: moves, version: st.version })) {
    // No answer in 10 s: this send's composer opens again. Only this send's: the
    // timer of an earlier send (another chain's, or this chain's refused one) must
    // not open the composer while a later send's answer is on the way (CI: a
    // chain sent twice, the second refused as out of date).
    const sent = st;
    const token = (st.sends = (st.sends || 0) + 1);
    setTimeout(() => {
      if (st === sent && sent.sends === token && sent.sending) {
        sent.sending = false;
        render();
      }
    }, 10000);
    return;
  }
  postChain(st.form, moves);
}

/** No socket: post the plain form with the same chain. */
function postChain(form, moves) {
  const fields = form.querySelectorAll("[name=move]");
  const rows = [];
  for (let i = 0; i < fields.length; i++) if (fields[i].type !== "hidden") rows.push(fields[i]);
  rows.forEach((f, n) => {
    const value = n < moves.length - 1 ? moves[n] : "";
    if (f.tagName === "SELECT" && value && !f.querySelector('option[value="' + value + '"]')) {
      const opt = document.createElement("option");
      opt.value = value;
      f.appendChild(opt);
    }
    f.value = value;
  });
  if (form.requestSubmit) form.requestSubmit();
  else form.submit();
}

// --- Set up after every swap ---------------------------------------------------

function readTree() {
  const el = byId("rondo-tree");
  try {
    return JSON.parse((el && el.textContent) || "{}");
  } catch (e) {
    return {};
  }
}

function setup() {
  const form = byId("rondo-chain-form");
  const board = byId("board");
  if (!form || !board || !board.classList.contains("rondo-board")) {
    st = null;
    clearMarks();
    return;
  }
  const tree = byId("rondo-tree");
  const text = tree ? tree.textContent : "";
  const now = { form, version: form.getAttribute("data-version"), text };
  const B = window.parlourBoard;
  const verdict = R.swapVerdict(st, now, B ? B.frameKind() : null);
  if (verdict === "keep") {
    // The same decision again (the socket's first snapshot, just after the page
    // loaded): keep the chain composed so far and the open picker.
    st.form = form;
    prepare(form);
  } else if (verdict === "read") {
    const chips = document.querySelectorAll("#rondo-rack [data-tile-colour]");
    const data = readTree();
    st = {
      form: form,
      version: now.version,
      text: text,
      rack: R.rackOf(Array.prototype.map.call(chips, (el) => el.getAttribute("data-tile-colour"))),
      chain: [],
      selected: null,
      sending: false,
      tree: data.tree || {},
      options: data.options || {},
    };
    prepare(form);
  } else if (verdict === "error") {
    st.sending = false; // the answer was an error: the same controls stay in place
  } // else a public frame alone: the seat's own controls (the answer) are still on the way
  render();
}

/** A new chain form: the composer in place of the plain form, its buttons wired. */
function prepare(form) {
  const nojs = form.querySelector(".rondo-nojs");
  const composer = byId("rondo-composer");
  if (nojs) nojs.hidden = true;
  if (composer) composer.hidden = false;
  const help = byId("rondo-help");
  if (help && window.parlourBoard && window.parlourBoard.help) {
    window.parlourBoard.help(help.getAttribute("data-more"));
  }
  byId("rondo-undo").addEventListener("click", undo);
  const clear = byId("rondo-clear");
  if (clear) {
    clear.addEventListener("click", () => {
      clearChain();
      // The button is hidden now: focus goes to the board's first space, not the page.
      keepFocus();
    });
  }
  byId("rondo-send").addEventListener("click", send);
}

// --- Taps and keys -------------------------------------------------------------

/** The highlighted spaces as spots for parlourBoard.crowd: client px, each disc's radius. */
function spots() {
  return spaces().map((el) => {
    const disc = el.querySelector(".rb-disc") || el;
    const r = disc.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2, r: r.width / 2, el: el };
  });
}

/** A space's picture for the chooser: its colour around its value, as on the board. */
function spaceCue(el) {
  const cue = document.createElement("span");
  cue.className = "bd-cue-space c-" + el.getAttribute("data-colour");
  cue.setAttribute("aria-hidden", "true");
  cue.textContent = el.getAttribute("data-value");
  return cue;
}

document.addEventListener("click", (evt) => {
  const B = window.parlourBoard;
  const onBoard = evt.target && evt.target.closest ? evt.target.closest("#board svg") : null;
  if (!st || st.sending || !onBoard || !B || !B.crowd) {
    const id = spaceFrom(evt.target);
    if (id) choose(id);
    return;
  }
  const hits = B.crowd(evt.clientX, evt.clientY, spots());
  if (!hits.length) return;
  if (hits.length === 1) {
    choose(hits[0].el.getAttribute("data-space"));
    return;
  }
  const mine = st;
  B.ask(evt, hits.map((h) => {
    const id = h.el.getAttribute("data-space");
    return {
      label: placeWords(h.el),
      cue: spaceCue(h.el),
      mark: "#rs-" + CSS.escape(id),
      act: () => {
        if (st === mine) choose(id);
      },
    };
  }), () => st !== mine || !mine.form.isConnected || mine.sending);
});

document.addEventListener("keydown", (evt) => {
  if (evt.key !== "Enter" && evt.key !== " ") return;
  const id = spaceFrom(evt.target);
  if (id) {
    evt.preventDefault();
    choose(id);
  }
});

// The board's keyboard shortcuts (static/js/board.js) drive this composer.
function spaces() {
  return Array.prototype.slice.call(document.querySelectorAll("#board .rb-can"));
}

function step(dir) {
  const list = spaces();
  if (!list.length) return;
  const at = list.indexOf(document.activeElement);
  list[(at < 0 ? (dir > 0 ? 0 : list.length - 1) : at + dir + list.length) % list.length].focus();
}

/** After a key took a placement back, focus stays on the board: the space that
 *  held it lost its highlight (and its tabindex), which dropped focus to the page. */
function keepFocus() {
  const active = document.activeElement;
  if (active && active !== document.body && document.body.contains(active) && active.closest("#board, .board-stage")) {
    return;
  }
  const next = document.querySelector("#board .rb-can");
  const board = byId("board");
  if (next) next.focus({ preventScroll: true });
  else if (board && board.parentElement) board.parentElement.focus({ preventScroll: true });
}

if (window.parlourBoard) {
  window.parlourBoard.register({
    active: () => !!st,
    next: step,
    cycle: step,
    enter: (target) => {
      if (!st || st.sending || spaceFrom(target)) return; // a space: its own handler (below)
      if (st.chain.length) send();
      else step(1);
    },
    undo: () => {
      if (st && !st.sending) undo();
      keepFocus();
    },
    cancel: () => {
      if (!st || st.sending) return;
      clearChain();
      keepFocus();
    },
  });
}

document.addEventListener("htmx:wsAfterMessage", setup);
document.addEventListener("htmx:afterSettle", setup);
window.RondoComposer = { setup: setup };
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", setup);
} else {
  setup();
}
