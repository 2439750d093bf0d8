/* Parlour room lobby: live seats over the htmx WebSocket extension.
 *
 * Loaded with `defer` after htmx and its ws extension. Without it the lobby
 * still works by reloading: every lobby change is a plain form post. DOM
 * contract (templates/matchmaking/room.html, room_parts.html):
 *   <div id="room" hx-ext="ws" ws-connect="/ws/room/<code>/">
 *   <p id="room-connection">                 we write Live / Reconnecting… / why it closed
 *   <div id="room-status" data-match-url>    set once the match starts: we go there
 *   pushed forms lack a CSRF input (rendered without a request): we add the page's token
 *   chat: <form ws-send> with hidden type=chat and id=<preset id>
 */
(function () {
  "use strict";

  // The server's refusal codes (accounts/sockets.py, README "Decisions").
  var REFUSED = {
    4001: "You are no longer in this room.",
    4003: "You are banned from playing.",
    4004: "There is no such room, or you are not in it.",
    4008: "Disconnected: too many messages. Reload the page to continue.",
    4009: "Disconnected: a message was too large. Reload the page to continue.",
    4029: "Disconnected: too many Parlour pages are open at once, so the oldest closed. " +
      "Close some, then reload this page.",
  };
  var stopped = false;

  function byId(id) {
    return document.getElementById(id);
  }

  function setStatus(text) {
    var el = byId("room-connection") || byId("connection-status");
    if (el && el.textContent !== text) el.textContent = text;
  }

  /** The CSRF token the page was rendered with (base.html puts it in hx-headers). */
  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  // Forms pushed over the socket were rendered without a request, so they have
  // no csrfmiddlewaretoken: add the page's token before the browser posts them.
  document.addEventListener(
    "submit",
    function (evt) {
      var form = evt.target;
      if (!form || form.tagName !== "FORM" || (form.method || "").toLowerCase() !== "post") return;
      if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = csrfToken();
      form.appendChild(input);
    },
    true
  );

  // Go to the match when it starts while we wait here (not when we come back to
  // the lobby of a room whose match is under way).
  var startedAtLoad = !!(byId("room-status") && byId("room-status").getAttribute("data-match-url"));

  function followMatch() {
    var status = byId("room-status");
    var url = status && status.getAttribute("data-match-url");
    if (url && !startedAtLoad && byId("room")) window.location.assign(url);
  }

  document.addEventListener("htmx:wsConnecting", function () {
    if (!stopped) setStatus("Connecting…");
  });
  document.addEventListener("htmx:wsOpen", function () {
    if (!stopped) setStatus("Live");
  });
  document.addEventListener("htmx:wsAfterMessage", followMatch);
  document.addEventListener("htmx:wsClose", function (evt) {
    var closeEvent = evt.detail && evt.detail.event;
    var code = closeEvent ? closeEvent.code : 1006;
    if (code >= 4000 && code <= 4999) {
      stopped = true;
      evt.target.removeAttribute("ws-connect");
      setStatus(REFUSED[code] || "Disconnected by the server.");
    } else if (!stopped) {
      setStatus("Reconnecting…");
    }
  });
})();
