/* Parlour room lobby: live seats over the htmx WebSocket extension.
 *
 * An ES module, run after htmx and its ws extension (classic `defer` scripts
 * before it); socket.js says what a close means. Without it the lobby
 * still works by reloading: every lobby change is a plain form post. DOM
 * contract (templates/matchmaking/room.html, room_parts.html):
 *   <div id="room" hx-ext="ws" ws-connect="/ws/room/<code>/">
 *   <p id="room-connection">                 we write Live / Reconnecting… / why it closed
 *   <div id="room-status" data-match-url>    set once the match starts: we go there (also to the
 *                                            next one, once the room is back in its lobby)
 *   <button id="copy-invite" data-copy="<input id>" hidden>  we show it and copy the invite link
 *   pushed forms lack a CSRF input (rendered without a request): parlour.js adds the page's token
 *   chat: <form ws-send> with hidden type=chat and id=<preset id>
 */
import { addCsrfTokens, refusals } from "./parlour.js";
import { retryLater } from "./socket.js";
import { gettext, pgettext } from "./i18n.js";

(function () {
  "use strict";

  // What each refusal close code means (accounts/close_codes.py, README "Decisions").
  var REFUSED = refusals();
  var stopped = false;

  function byId(id) {
    return document.getElementById(id);
  }

  function setStatus(text) {
    var el = byId("room-connection") || byId("connection-status");
    if (el && el.textContent !== text) el.textContent = text;
  }

  // Forms pushed over the socket were rendered without a request, so they have
  // no csrfmiddlewaretoken (parlour.js adds it).
  addCsrfTokens();

  // Go to the match when it starts while we wait here (not when we come back to
  // the lobby of a room whose match is under way).
  var startedAtLoad = !!(byId("room-status") && byId("room-status").getAttribute("data-match-url"));

  function followMatch() {
    var status = byId("room-status");
    var url = status && status.getAttribute("data-match-url");
    if (!url) startedAtLoad = false; // back in the lobby: the next match is one to follow
    if (url && !startedAtLoad && byId("room")) window.location.assign(url);
  }

  // The invite link's copy button (without JavaScript the link is selected and copied by hand).
  var copy = byId("copy-invite");
  if (copy && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      var field = byId(copy.getAttribute("data-copy"));
      var state = byId("copy-invite-state");
      if (!field) return;
      navigator.clipboard.writeText(field.value).then(
        function () {
          if (state) state.textContent = gettext("Copied.");
        },
        function () {
          field.select();
          if (state) state.textContent = gettext("Press Ctrl+C (or ⌘C) to copy the selected link.");
        }
      );
    });
  }

  document.addEventListener("htmx:wsConnecting", function () {
    if (!stopped) setStatus(gettext("Connecting…"));
  });
  document.addEventListener("htmx:wsOpen", function () {
    if (!stopped) setStatus(pgettext("connection status", "Live"));
  });
  document.addEventListener("htmx:wsAfterMessage", followMatch);
  document.addEventListener("htmx:wsClose", function (evt) {
    var closeEvent = evt.detail && evt.detail.event;
    var code = closeEvent ? closeEvent.code : 1006;
    if (!stopped && retryLater(evt)) {
      setStatus(gettext("Reconnecting…")); // 4013 "try again later": not a refusal
    } else if (code >= 4000 && code <= 4999) {
      stopped = true;
      evt.target.removeAttribute("ws-connect");
      setStatus(REFUSED[code] || gettext("Disconnected by the server."));
    } else if (!stopped) {
      setStatus(gettext("Reconnecting…"));
    }
  });
})();
