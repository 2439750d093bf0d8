/* What the match page says of its connection: #connection-status (Live / Connecting… /
 * Reconnecting… / Offline / why it closed; #match's data-connection), and #move-wait
 * (seat pages: a sent move waiting for the connection, and when it went). */

/** Write ``text`` in #connection-status, state ``state`` ("connecting", "live",
 *  "reconnecting", "closed": its is-<state> class and #match's data-connection). */
export function setStatus(state, text) {
  const m = document.getElementById("match");
  if (m) m.setAttribute("data-connection", state);
  const el = document.getElementById("connection-status");
  if (!el) return;
  el.classList.remove("is-connecting", "is-live", "is-reconnecting", "is-closed");
  el.classList.add("is-" + state);
  if (el.textContent !== text) el.textContent = text;
}

/** Write ``text`` in #move-wait (hidden when empty); ``done``: the wait is over. */
export function showMoveWait(text, done) {
  const el = document.getElementById("move-wait");
  if (!el) return;
  el.classList.toggle("is-done", !!done);
  if (el.textContent !== text) el.textContent = text;
  el.hidden = !text;
}

/** A tap on the newest-move line above a phone's board (#last-move) opens the whole move list. */
export function watchLastMove() {
  const last = document.getElementById("last-move");
  if (!last) return;
  last.addEventListener("click", () => {
    const tab = document.getElementById("tab-moves");
    if (tab && tab.getAttribute("aria-selected") !== "true") tab.click();
    const panel = document.getElementById("panel-moves");
    if (panel) panel.scrollIntoView({ block: "start" });
  });
}
