/* Auto-roll: the device's setting rolls when a roll is the seat's only choice.
 *
 * Never two rolls in a row for a player who did nothing in between (no key, no tap):
 * an absent player's turns still run out and count as missed (docs/rules.md "Device
 * settings"), so auto-roll cannot keep them in a match they have left. Never twice
 * for one decision (version). */

import { isMoveForm } from "./forms.js";
import { settings } from "./settings.js";

export const AUTO_ROLL_MS = 600; // the turn is seen arriving before the page rolls for the player

let timer = null;
let rolledAt = null; // the version rolled for
let actedSince = true;
let page = { connected: () => true, version: () => -1 };

function playerActed(evt) {
  if (evt.isTrusted) actedSince = true;
}

/** Start: ``hooks`` {connected(), version()} from match.js; note the player's own keys and taps. */
export function watchPlayer(hooks) {
  page = hooks;
  document.addEventListener("pointerdown", playerActed, true);
  document.addEventListener("keydown", playerActed, true);
}

/** The seat's roll form when rolling is its only move (no other move form), else null. */
function onlyRoll() {
  const controls = document.getElementById("controls");
  if (!controls || !controls.hasAttribute("data-my-turn")) return null;
  const forms = controls.querySelectorAll("form");
  let roll = null;
  for (let i = 0; i < forms.length; i++) {
    if (!isMoveForm(forms[i])) continue;
    const move = forms[i].querySelector('input[name="move"]');
    if (!move || move.value !== "roll" || roll) return null;
    roll = forms[i];
  }
  return roll;
}

/** With auto-roll on, roll AUTO_ROLL_MS after a decision that is only a roll arrives, if
 *  the player has pressed a key or tapped since the last roll it made. */
export function autoRoll() {
  clearTimeout(timer);
  if (!settings.autoroll || !actedSince || !onlyRoll()) return;
  const version = page.version();
  if (rolledAt === version) return;
  timer = setTimeout(() => {
    const form = onlyRoll();
    const button = form && form.querySelector("button:not([disabled])");
    if (!button || !page.connected() || page.version() !== version || rolledAt === version
        || !actedSince) return;
    rolledAt = version;
    actedSince = false;
    button.click(); // as the player's own click: ws-send, the busy lock, the focus
  }, AUTO_ROLL_MS);
}
