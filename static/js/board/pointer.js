/* Pointer on the board: a click or tap picks the nearest target within reach
 * (board/geometry.js), or asks "Which one?" (board/chooser.js) when it may mean
 * several; a click on the dice rolls when this seat may roll (the Roll button stays
 * the labelled control for keyboards and screen readers). */

import { selectedTarget, targets } from "./choices.js";
import { ask } from "./chooser.js";
import { cue, rollButton } from "./draw.js";
import { pick } from "./geometry.js";

/** The chooser's items for ``hits`` (pick()'s several), acting through ``ctl`` while
 *  the state they were read from is the board's. */
function askWhich(evt, hits, ctl) {
  const mine = ctl.state();
  const sel = selectedTarget(mine);
  const ts = targets(mine);
  const items = hits.map((h) => {
    if (h.dest !== undefined) {
      const c = sel.choices[h.dest];
      return {
        label: c.l,
        cue: cue(c, true),
        mark: '#board .bd-dest[data-dest="' + h.dest + '"]',
        act: () => {
          if (ctl.state() === mine) ctl.chooseDest(h.dest);
        },
      };
    }
    const t = ts.filter((x) => x.k === h.k)[0];
    return {
      label: t.label,
      cue: cue(t.choices[0], false),
      mark: '#board .bd-target[data-target="' + CSS.escape(t.k) + '"]',
      act: () => {
        if (ctl.state() === mine) ctl.select(h.k);
      },
    };
  });
  ask(evt, items, () => {
    const st = ctl.state();
    return st !== mine || !st || st.busy;
  });
}

/** Listen for clicks on the board and the dice. ``ctl``: {state(), composing() (a game's
 *  own composer is active), select(k), chooseDest(i), deselect()}. */
export function onPointer(ctl) {
  document.addEventListener("click", (evt) => {
    const st = ctl.state();
    if (!st || ctl.composing()) return;
    const svg = evt.target && evt.target.closest ? evt.target.closest("#board svg") : null;
    if (!svg) return;
    const m = svg.getScreenCTM();
    const hits = m ? pick(m, evt.clientX, evt.clientY, targets(st), selectedTarget(st)) : [];
    if (!hits.length) {
      ctl.deselect();
      return;
    }
    evt.preventDefault();
    if (hits.length > 1) askWhich(evt, hits, ctl);
    else if (hits[0].dest !== undefined) ctl.chooseDest(hits[0].dest);
    else ctl.select(hits[0].k);
  });
  document.addEventListener("click", (evt) => {
    const dice = evt.target && evt.target.closest ? evt.target.closest("#dice") : null;
    const btn = dice && rollButton();
    if (btn) btn.click();
  });
}
