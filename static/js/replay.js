/* Parlour replay page (templates/games/replay.html, README "Replays").
 *
 * Without JavaScript every step is a plain link (?ply=N) and a page load. With htmx
 * each link asks for the step's partial (out-of-band swaps of #replay-nav, #replay-move,
 * #board, #dice, #seats) and pushes its URL, so the board changes in place and Back
 * goes to the ply before. This script adds:
 *   - keys: ← / → previous and next ply, Home / End first and last, Space play/pause
 *     (keys typed into a form field are left alone);
 *   - autoplay (#replay-play) at the chosen speed (#replay-speed: milliseconds a ply),
 *     one ply at a time, each asked for once the last has been drawn; it replaces the
 *     URL rather than pushing one per ply, and stops at the end or at any other step;
 *   - the record (#replay-record) marked (aria-current) and scrolled to the ply;
 *   - the device's dice style (the match page's setting, localStorage
 *     "parlour.dice_style": body.dice-pips or body.dice-numbers), changeable here too.
 */
(function () {
  "use strict";

  // The script catalogue (base.html loads /jsi18n/ first; static/js/i18n.js): English without it.
  var gettext = window.gettext || function (text) { return text; };

  var KEYS = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
  var DICE_KEY = "parlour.dice_style";
  var DICE_STYLES = ["pips", "numbers"];
  var playing = false;
  var timer = null;

  function byId(id) {
    return document.getElementById(id);
  }

  function currentPly() {
    var nav = byId("replay-nav");
    return nav ? nav.getAttribute("data-ply") : null;
  }

  function usable(link) {
    return link && link.getAttribute("aria-disabled") !== "true";
  }

  /** Follow a step link. With htmx: ask for the step's partial (in place), the URL
   *  pushed (hx-push-url on the step bar and the record, read from the link as the
   *  request's source), or
   *  for autoplay (``replace``) replaced (hx-replace-url on the play button, the
   *  request's source), so one Back undoes a whole autoplay. Without
   *  htmx: a page load. Links are handled here, not by hx-get on each, so a link
   *  swapped in a moment ago works before htmx has processed it. */
  function step(link, replace) {
    if (!usable(link)) return false;
    var href = link.getAttribute("href");
    if (!window.htmx) {
      window.location.assign(link.href);
    } else if (replace) {
      // The play button's hx-replace-url: htmx replaces the URL and keeps its history in step.
      window.htmx.ajax("GET", href, { source: button, swap: "none" });
    } else {
      window.htmx.ajax("GET", href, { source: link, swap: "none" });
    }
    return true;
  }

  function markRecord() {
    var ply = parseInt(currentPly(), 10) || 0;
    var record = byId("replay-record");
    // The line for this position: the last at or before the ply (a line may stand for
    // several plies: a roll and the move it forced), as the server marks it.
    var links = document.querySelectorAll("#replay-record a[data-ply], .replay-start a[data-ply]");
    var current = null;
    for (var i = 0; i < links.length; i++) {
      var at = parseInt(links[i].getAttribute("data-ply"), 10);
      if (at <= ply && (!current || at >= parseInt(current.getAttribute("data-ply"), 10))) current = links[i];
    }
    for (var j = 0; j < links.length; j++) {
      if (links[j] === current) links[j].setAttribute("aria-current", "step");
      else links[j].removeAttribute("aria-current");
    }
    // Scroll the record box only (never the page): the ply's line in its middle.
    if (record && current && record.contains(current) && record.scrollHeight > record.clientHeight) {
      var line = current.getBoundingClientRect();
      var box = record.getBoundingClientRect();
      record.scrollTop += line.top - box.top - (record.clientHeight - line.height) / 2;
    } else if (record && ply === 0) {
      record.scrollTop = 0;
    }
  }

  // --- autoplay -----------------------------------------------------------
  var button = byId("replay-play");
  var speed = byId("replay-speed");

  function setPlaying(on) {
    playing = on;
    window.clearTimeout(timer);
    if (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.textContent = on ? gettext("❚❚ Pause") : gettext("▶ Play");
    }
    if (on) schedule();
  }

  function schedule() {
    window.clearTimeout(timer);
    var ms = speed ? parseInt(speed.value, 10) || 1000 : 1000;
    timer = window.setTimeout(function () {
      if (!playing) return;
      if (!step(byId("replay-next"), true)) setPlaying(false);
    }, ms);
  }

  function togglePlay() {
    if (playing) {
      setPlaying(false);
      return;
    }
    if (!usable(byId("replay-next"))) step(byId("replay-first"), false); // at the end: from the start
    setPlaying(true);
  }

  if (button) {
    button.addEventListener("click", togglePlay);
  }
  if (speed) {
    speed.addEventListener("change", function () { if (playing) schedule(); });
  }

  // A step autoplay asked for that answers after Pause is not drawn (nor put in the
  // address): the position stays the one the player paused on, and Back goes where
  // they expect.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!playing && button && (event.target === button || event.detail.elt === button)) event.preventDefault();
  });
  // A step drawn: mark the record, and let autoplay go on from there.
  document.addEventListener("htmx:afterSettle", function () {
    markRecord();
    if (playing) {
      if (usable(byId("replay-next"))) schedule();
      else setPlaying(false);
    }
  });
  // The page's parts carry hx-swap-oob (they are the live match page's); a snapshot that
  // kept it would lose them when htmx swaps it back in (Back to the ply first opened).
  // Only swapped-in content needs it, never the parts it lands on.
  document.addEventListener("htmx:beforeHistorySave", function (event) {
    var parts = event.detail.historyElt.querySelectorAll("[hx-swap-oob]");
    for (var i = 0; i < parts.length; i++) parts[i].removeAttribute("hx-swap-oob");
  });
  document.addEventListener("htmx:historyRestore", function () {
    setPlaying(false);
    markRecord();
  });

  // A click on a step link: in place (a modified click opens a tab as usual); it
  // stops autoplay.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#replay a[href^='?ply=']");
    if (!link || !window.htmx || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey
        || event.altKey) return;
    event.preventDefault();
    if (playing) setPlaying(false);
    step(link, false);
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName)) return;
    if (event.key === " " && button) {
      event.preventDefault();
      togglePlay();
      return;
    }
    var id = KEYS[event.key];
    if (!id) return;
    var link = byId(id);
    if (!usable(link)) return;
    event.preventDefault();
    if (playing) setPlaying(false);
    step(link, false);
  });

  // --- dice style ---------------------------------------------------------
  function stored() {
    try {
      return window.localStorage.getItem(DICE_KEY);
    } catch (e) {
      return null;
    }
  }

  function applyDice(style) {
    DICE_STYLES.forEach(function (s) { document.body.classList.toggle("dice-" + s, s === style); });
  }

  var dice = byId("replay-dice");
  var style = DICE_STYLES.indexOf(stored()) >= 0 ? stored() : "pips";
  applyDice(style);
  if (dice) {
    dice.value = style;
    dice.addEventListener("change", function () {
      if (DICE_STYLES.indexOf(dice.value) < 0) return;
      applyDice(dice.value);
      try {
        window.localStorage.setItem(DICE_KEY, dice.value);
      } catch (e) { /* private mode: this page only */ }
    });
  }

  var auto = byId("replay-auto");
  if (auto) auto.hidden = false;
  markRecord();
})();
