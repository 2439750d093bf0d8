/* The board's state machine: the seat's choices and what is composed of them.
 * Pure (no DOM): unit-tested under `node --test` (static/js/tests/board_choices.test.mjs).
 *
 * A state (null: no choices) is {el, text, version, all, steps, selected, cursor, dest,
 * busy, compose}: the #board-choices element it was read from, its text and data-version,
 * all its choices (fields: static/js/board.js's header), the steps composed so far (choices),
 * the selected target's key (or null), the keyboard's cursor among the level's targets,
 * the selected target's destination index, busy once sent (until the answer), and compose:
 * a composed turn (its steps are sent at once, {"moves": [...]}).
 *
 * Transitions (select, chooseDest, undo, cancel, cycleTarget, cycleDest) change the state
 * in place; the board redraws after each (static/js/board.js).
 */

import { gettext, interpolate, ngettext } from "../i18n.js";

/** The choices of #board-choices' text: a list of choices, or {"choices", "table"} where
 *  a choice's "n" may hold indices into "table" (choices shared by several). */
export function parseChoices(text) {
  let all;
  try {
    all = JSON.parse(text || "[]");
  } catch (e) {
    all = [];
  }
  if (!Array.isArray(all)) {
    // {"choices": [...], "table": [...]}: a choice's "n" may name shared choices by index.
    const table = all.table || [];
    all = (all.choices || []).map((c) => {
      if (c.n) c.n = c.n.map((i) => (typeof i === "number" ? table[i] : i));
      return c;
    });
  }
  return all;
}

/** A fresh state for choices ``all`` read from ``el`` (null when there are none). */
export function newState(el, text, version, compose, all) {
  if (!all.length) return null;
  return { el, text, version, all, steps: [], selected: null, cursor: -1, dest: 0, busy: false, compose };
}

/** The choices open now: the first ones, or those that follow the last step. */
export function level(st) {
  if (!st) return [];
  if (!st.steps.length) return st.all;
  return st.steps[st.steps.length - 1].n || [];
}

/** Targets of the current level: [{k, label, h, hr, hs, fr, g, choices: [...]}], first-seen order. */
export function targets(st) {
  const out = [];
  const byKey = {};
  level(st).forEach((c) => {
    let t = byKey[c.k];
    if (!t) {
      t = byKey[c.k] = { k: c.k, h: c.h, hr: c.hr, hs: c.hs, fr: c.fr, g: c.g, choices: [] };
      out.push(t);
    }
    t.choices.push(c);
  });
  out.forEach((t) => {
    t.label = t.choices.length === 1 ? t.choices[0].l : interpolate(ngettext("%(target)s: %(count)s move",
      "%(target)s: %(count)s moves", t.choices.length), { target: t.choices[0].k, count: t.choices.length });
    if (t.choices[0].kl) t.label = t.choices[0].kl;
  });
  return out;
}

export function selectedTarget(st) {
  if (!st || st.selected === null) return null;
  return targets(st).find((t) => t.k === st.selected) || null;
}

export function lastStep(st) {
  return st && st.steps.length ? st.steps[st.steps.length - 1] : null;
}

export function canConfirm(st) {
  if (!st || st.busy) return false;
  const t = selectedTarget(st);
  if (t && !st.compose) return true;
  if (t && st.compose) return false; // choose a destination first
  const last = lastStep(st);
  return !!(last && (last.e || last.x));
}

/** The notations a confirm sends: the steps' moves, and the last step's "x" (a pass) after it. */
export function moves(st) {
  const out = st.steps.map((c) => c.m);
  const last = lastStep(st);
  if (last && !last.e && last.x) out.push(last.x);
  return out;
}

/** Pick target ``k``: "confirm" (picked again, not composing: send it), "changed" or null. */
export function select(st, k) {
  if (!st || st.busy) return null;
  const ts = targets(st);
  for (let i = 0; i < ts.length; i++) {
    if (ts[i].k === k) {
      if (st.selected === k && !st.compose) return "confirm";
      st.selected = k;
      st.cursor = i;
      st.dest = 0;
      return "changed";
    }
  }
  return null;
}

/** Pick the selected target's destination ``i``: "confirm" (not composing), "changed"
 *  (a step composed) or null. */
export function chooseDest(st, i) {
  const sel = selectedTarget(st);
  if (!sel || st.busy) return null;
  if (!st.compose) {
    st.dest = i;
    return "confirm";
  }
  const c = sel.choices[i];
  st.steps.push(c);
  st.selected = null;
  st.cursor = c.n && c.n.length ? 0 : -1;
  st.dest = 0;
  return "changed";
}

/** Before a confirm: the selected choice becomes the one step. False when nothing can be sent. */
export function readyToSend(st) {
  if (!canConfirm(st)) return false;
  const sel = selectedTarget(st);
  if (sel && !st.compose) st.steps = [sel.choices[st.dest]];
  return true;
}

/** Mark the state sent; the message for the socket: {move, version} or {moves, version}. */
export function send(st) {
  const list = moves(st);
  st.selected = null;
  st.busy = true;
  return list.length === 1 ? { move: list[0], version: st.version } : { moves: list, version: st.version };
}

/** Undo the selection, else the last step. True if it changed anything. */
export function undo(st) {
  if (!st || st.busy) return false;
  if (st.selected !== null) st.selected = null;
  else st.steps.pop();
  st.dest = 0;
  return true;
}

export function cancel(st) {
  if (!st || st.busy) return false;
  st.steps = [];
  st.selected = null;
  st.dest = 0;
  return true;
}

/** Move the keyboard's cursor to the next (dir 1) or previous (-1) target and select it. */
export function cycleTarget(st, dir) {
  const ts = targets(st);
  if (!ts.length) return false;
  st.cursor = ((st.cursor < 0 ? (dir > 0 ? -1 : 0) : st.cursor) + dir + ts.length) % ts.length;
  st.selected = ts[st.cursor].k;
  st.dest = 0;
  return true;
}

export function cycleDest(st, dir) {
  const sel = selectedTarget(st);
  if (!sel) return false;
  st.dest = (st.dest + dir + sel.choices.length) % sel.choices.length;
  return true;
}

/** The hints that name the game's pieces, in each game's words: its GameSite's piece_word
 *  ("piece", "dart") picks the set (whole sentences, so each language words them itself). */
const PIECE_HINTS = {
  piece: () => ({
    // Translators: Roundabout reverses a piece: tap it, then the ↺ mark; "Confirm" is the button.
    turn: gettext("Next: turn another piece (it, then ↺), or Confirm to end the turn."),
    next: gettext("Next: choose a piece for the other die, or Undo."),
    first: gettext("Choose a highlighted piece."),
  }),
  dart: () => ({
    turn: gettext("Next: turn another dart (it, then ↺), or Confirm to end the turn."),
    next: gettext("Next: choose a dart for the other die, or Undo."),
    first: gettext("Choose a highlighted dart."),
  }),
};

/** The bar's words for the state, given the connection ``net`` ({offline, connected}),
 *  the game's pieces called ``piece`` (its GameSite's piece_word: "piece", "dart"). */
export function words(st, net, piece = "piece") {
  if (!st) return "";
  if (!st.busy && net.offline) return gettext("Offline: you can move again when the network is back.");
  if (st.busy) return net.connected ? gettext("Sent…") : gettext("Sent: waiting for the connection…");
  const parts = [];
  st.steps.forEach((c, i) => {
    parts.push(st.steps.length > 1 || st.compose
      ? interpolate(gettext("Step %(number)s: %(move)s."), { number: i + 1, move: c.l })
      // Translators: one step of the turn being composed, a sentence ("A to 1.").
      : interpolate(gettext("%(move)s."), { move: c.l }));
  });
  const sel = selectedTarget(st);
  const hints = (PIECE_HINTS[piece] || PIECE_HINTS.piece)();
  if (sel) {
    const c = sel.choices[st.dest];
    if (st.compose) {
      parts.push(sel.choices.length > 1
        ? interpolate(ngettext("Choose where it goes (%(count)s place): %(move)s?",
          "Choose where it goes (%(count)s places): %(move)s?", sel.choices.length),
        { count: sel.choices.length, move: c.l })
        : interpolate(gettext("Choose where it goes: %(move)s?"), { move: c.l }));
    } else {
      parts.push(interpolate(gettext("%(move)s? Pick it again or Confirm to move."), { move: c.l }));
    }
  } else if (level(st).length) {
    const last = lastStep(st);
    if (last && last.w === "turn") {
      parts.push(hints.turn);
    } else {
      parts.push(st.steps.length ? hints.next : hints.first);
      if (last && (last.e || last.x)) parts.push(gettext("Or Confirm to end the turn here."));
    }
  } else if (st.steps.length) {
    parts.push(gettext("Confirm to send the turn, or Undo."));
  }
  return parts.join(" ");
}

/** What a frame does to the state ``st`` given the #board-choices now there ({el, text,
 *  version}, or null) and the frame's kind: "keep" (the same choices again: keep what is
 *  composed, on the new element), "read" (read them afresh), "error" (the answer was an
 *  error: the same choices stand, unsent) or "wait" (a public frame alone: the seat's
 *  own controls, the answer, are still on the way). */
export function frameVerdict(st, now, kind) {
  if (st && now && st.el !== now.el && !st.busy && now.version === st.version && now.text === st.text) {
    return "keep";
  }
  if (!st || !now || st.el !== now.el || now.version !== st.version) return "read";
  if (st.busy && kind === "error") return "error";
  return "wait";
}
