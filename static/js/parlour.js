/* What Parlour's live pages share (match.js, room.js, queue.js).
 *
 * Loaded with `defer` by templates/base.html on every page, before the page's
 * own script, so `window.Parlour` is there when that script runs. It only
 * defines; each page calls what it needs:
 *
 *   Parlour.refusals()       what this page says when the server refuses its socket:
 *                            an object close code -> text, read from the data block
 *                            the page renders ({% close_codes "match" %} and so on),
 *                            <script type="application/json" id="close-codes">
 *                            (accounts/close_codes.py, the one table); {} without it.
 *   Parlour.tryAgainCode()   the one 4xxx close code that is not a refusal (4013,
 *                            "try again later"), from the same block.
 *   Parlour.retryLater(evt)  for an htmx:wsClose with that code: reconnect after a
 *                            jittered delay growing with each 4013 in a row (or
 *                            htmx.config.wsReconnectDelay when a page sets one), which
 *                            the ws extension does by itself only after 1006, 1011,
 *                            1012 and 1013. True when it took the close in hand.
 *   Parlour.addCsrfTokens()  forms pushed over a socket were rendered without a
 *                            request, so their plain post forms have no
 *                            csrfmiddlewaretoken: from now on, add the page's token
 *                            (base.html puts it in the body's hx-headers) to any
 *                            post form that lacks one, before the browser posts it.
 */
window.Parlour = (function () {
  "use strict";

  function closeCodes() {
    var el = document.getElementById("close-codes");
    try {
      return (el && JSON.parse(el.textContent)) || {};
    } catch (e) {
      return {}; // no table on the page: every refusal gets the page's fallback text
    }
  }

  function refusals() {
    return closeCodes().refusals || {};
  }

  function tryAgainCode() {
    return closeCodes().try_again || 4013;
  }

  // 4013s in a row per socket element, reset when a socket opens: each retry waits
  // longer (full jitter, 0.5 s plus up to 1, 2, 4, then 8 s).
  var tries = new WeakMap();
  document.addEventListener("htmx:wsOpen", function (evt) {
    tries.delete(evt.target);
  });

  function retryLater(evt) {
    var closeEvent = evt.detail && evt.detail.event;
    var wrapper = evt.detail && evt.detail.socketWrapper;
    if (!closeEvent || closeEvent.code !== tryAgainCode() || !wrapper) return false;
    var elt = evt.target;
    var n = (tries.get(elt) || 0) + 1;
    tries.set(elt, n);
    var delay = window.htmx.config.wsReconnectDelay;
    var ms = typeof delay === "function" ? delay(n) : 500 + 1000 * Math.pow(2, Math.min(n - 1, 3)) * Math.random();
    setTimeout(function () {
      if (document.body.contains(elt) && elt.hasAttribute("ws-connect")) wrapper.reconnect();
    }, ms);
    return true;
  }

  /** The CSRF token the page was rendered with (base.html puts it in hx-headers). */
  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return ""; // no token on the page: the server refuses the post with a page saying why
    }
  }

  var adding = false;

  function addCsrfTokens() {
    if (adding) return;
    adding = true;
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
  }

  return { refusals: refusals, tryAgainCode: tryAgainCode, retryLater: retryLater, addCsrfTokens: addCsrfTokens };
})();
