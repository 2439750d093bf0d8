/* The action bar beside the labelled buttons (which stay for keyboard, screen
 * readers and no-JS posts): what is composed, in words, and Confirm / Undo / Cancel.
 *
 *   <div id="board-bar" role="group"> <p id="board-say" aria-live="polite">
 *     <p class="board-actions"> #board-confirm #board-undo #board-cancel
 */

import { byId } from "./dom.js";
import { showHelp } from "./keys.js";
import { gettext } from "../i18n.js";

/** The bar for state ``st`` (board/choices.js), made once after its #board-choices;
 *  ``on``: {confirm, undo, cancel} (click handlers). Null without a state. */
export function bar(st, on) {
  let b = byId("board-bar");
  if (b || !st) return b;
  b = document.createElement("div");
  b.id = "board-bar";
  b.className = "board-bar";
  b.setAttribute("role", "group");
  b.setAttribute("aria-label", gettext("Move on the board"));
  showHelp(st.el.getAttribute("data-help"));
  const say = document.createElement("p");
  say.id = "board-say";
  say.className = "board-say";
  say.setAttribute("aria-live", "polite");
  b.appendChild(say);
  const row = document.createElement("p");
  row.className = "board-actions";
  [["board-confirm", gettext("Confirm"), on.confirm, ""], ["board-undo", gettext("Undo"), on.undo, "secondary"],
    ["board-cancel", gettext("Cancel"), on.cancel, "secondary"]].forEach((spec) => {
    const btn = document.createElement("button");
    btn.type = "button";
    btn.id = spec[0];
    btn.textContent = spec[1];
    if (spec[3]) btn.className = spec[3];
    btn.addEventListener("click", spec[2]);
    row.appendChild(btn);
  });
  b.appendChild(row);
  st.el.parentNode.insertBefore(b, st.el.nextSibling);
  return b;
}

/** Show ``text`` and which buttons act: ``canConfirm``, and Undo/Cancel while something is
 *  composed or selected and not sent. */
export function showBar(st, text, canConfirm) {
  const say = byId("board-say");
  if (say && say.textContent !== text) say.textContent = text;
  const idle = !st || st.busy || (!st.steps.length && st.selected === null);
  byId("board-confirm").disabled = !canConfirm;
  byId("board-undo").disabled = idle;
  byId("board-cancel").disabled = idle;
}
