/* The #rematch panel of a finished match (templates/matchmaking/rematch.html).
 *
 * Loaded with `defer` on the match page after match.js. Without it the panel
 * works by posting and reloading. It does two things:
 *   - counts an open offer's seconds down (<time class="rematch-clock" data-deadline="ms">);
 *   - when a pushed panel says the next match has started (its link has
 *     data-follow), goes there: a panel rendered with the page never has it,
 *     so opening an old match from the history does not move on by itself.
 */
(function () {
  "use strict";

  // The script catalogue (base.html loads /jsi18n/ first; static/js/i18n.js): English without it.
  var gettext = window.gettext || function (text) { return text; };

  function tick() {
    var clocks = document.querySelectorAll("#rematch .rematch-clock[data-deadline]");
    for (var i = 0; i < clocks.length; i++) {
      var deadline = parseInt(clocks[i].getAttribute("data-deadline"), 10);
      if (isNaN(deadline)) continue;
      var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      var text = gettext("%(seconds)s s").replace("%(seconds)s", String(left));
      if (clocks[i].textContent !== text) clocks[i].textContent = text;
    }
  }

  function follow() {
    var go = document.querySelector("#rematch a[data-follow]");
    if (go) window.location.assign(go.getAttribute("href"));
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    tick();
    follow();
  });
  setInterval(tick, 1000);
})();
