/* Parlour ranked queue panel (templates/matchmaking/queue_panel.html).
 *
 * The panel is live through the htmx WebSocket extension (/ws/queue/): its
 * frames are out-of-band swaps. When pairing sends
 *   <div id="queue-redirect" data-href="/m/<id>/">
 * this script goes there at once. Without JavaScript the panel refreshes
 * itself (a <noscript> meta refresh to /queue/, which redirects to the match).
 * ws.js fires htmx:wsAfterMessage after the frame's swaps have settled.
 */
import { refusals } from "./parlour.js";
import { retryLater } from "./socket.js";

(function () {
  "use strict";

  // Once on the way to the match, a later frame must not start the navigation
  // again (that aborts the one under way).
  var following = null;

  function follow() {
    var ready = document.querySelector("#queue-redirect[data-href]");
    var href = ready && ready.getAttribute("data-href");
    if (href && href !== following) {
      following = href;
      window.location.assign(href);
    }
  }

  document.addEventListener("htmx:wsAfterMessage", follow);
  document.addEventListener("htmx:afterSettle", follow); // a panel swapped in may say the match is ready


  // Refusals (accounts/close_codes.py, README "Decisions"): say why and stop reconnecting.
  var REFUSED = refusals();
  var BANNED = 4003; // accounts/close_codes.py CLOSE_BANNED
  document.addEventListener("htmx:wsClose", function (evt) {
    var closeEvent = evt.detail && evt.detail.event;
    if (retryLater(evt)) return; // 4013 "try again later": not a refusal
    if (!closeEvent || !REFUSED[closeEvent.code]) return;
    evt.target.removeAttribute("ws-connect");
    var panel = document.getElementById("queue");
    if (closeEvent.code === BANNED && panel && window.htmx) {
      // Banned or suspended: the panel alone, asked for again, says so and why (the
      // server has logged the player out and kept the reason for this answer),
      // instead of a time waited.
      window.htmx.ajax("GET", panel.getAttribute("data-panel-url"), { target: "#queue", swap: "outerHTML" });
      return;
    }
    var box = document.getElementById("queue-redirect");
    if (box) box.textContent = REFUSED[closeEvent.code];
  });
})();
