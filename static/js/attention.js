/* Attention on the match page: telling a player that a decision is theirs, and
 * that their time is nearly up (README "How live play works"; docs/rules.md
 * "Turn timer" for the deadlines).
 *
 * Loaded with `defer` after match.js (Parlour.playNotes, Parlour.setting). DOM
 * contract (templates/games/match.html, match_parts.html):
 *
 *   <div id="match" data-my-seat data-game-name data-turn-icon>   spectators: data-my-seat=""
 *   <div id="controls" data-my-turn>    the seat's own frame: present while the decision is its own
 *   <time id="clock" class="urgent">    match.js sets .urgent under 10 s left
 *   <div id="attention" aria-live="assertive">   what we announce
 *   <p id="time-warning" hidden>         the visible 10-second warning
 *   <button id="notify-button">, <span id="notify-state">   the opt-in for notifications
 *
 * When a frame makes the decision this seat's (data-my-turn appears): a rising
 * "your turn" sound (when sound is on), "Your turn" in the tab title and a
 * marked favicon (both restored when the turn passes), a browser notification
 * if the player opted in and the tab is hidden, "Your turn" announced, and
 * focus on the primary control: window.parlourBoard.focusPrimary() when the
 * board script defines it, else the first button of #controls. At 10 s left
 * on this seat's own clock: the warning shows, sounds and is announced, once
 * per deadline. Without JavaScript none of this happens; the page still plays.
 */
(function () {
  "use strict";

  // The script catalogue (base.html loads /jsi18n/ first; static/js/i18n.js): English without it.
  var gettext = window.gettext || function (text) { return text; };

  var NOTIFY_KEY = "parlour.notify";
  var TURN_TONES = [[660, 700], [880, 940], [1175, 1250]]; // rising: distinct from the move tone
  var WARN_TONES = [[440, 430], [440, 430], [440, 430]];

  var match = document.getElementById("match");
  if (!match || match.getAttribute("data-my-seat") === "") return; // spectators: nothing to decide

  var mine = false;
  var warnedFor = null; // the deadline already warned about
  var baseTitle = document.title;
  var icon = document.querySelector("link[rel~='icon']");
  var baseIcon = icon ? icon.getAttribute("href") : null;

  function byId(id) {
    return document.getElementById(id);
  }

  function isMine() {
    var controls = byId("controls");
    return !!(controls && controls.hasAttribute("data-my-turn"));
  }

  function announce(text) {
    var region = byId("attention");
    if (!region) return;
    region.textContent = "";
    // A fresh text node after a tick, so the same words are announced again.
    setTimeout(function () {
      region.textContent = text;
    }, 50);
  }

  function sound(notes) {
    if (window.Parlour && window.Parlour.playNotes) window.Parlour.playNotes(notes, 0.12, "triangle");
  }

  function notifyWanted() {
    try {
      return window.localStorage.getItem(NOTIFY_KEY) === "1";
    } catch (e) {
      return false;
    }
  }

  function notify(text) {
    if (!("Notification" in window) || Notification.permission !== "granted" || !notifyWanted()) return;
    if (!document.hidden) return; // the page itself says so
    try {
      var n = new Notification(text, {
        body: (match.getAttribute("data-game-name") || "Parlour") + " · " + baseTitle,
        tag: "parlour-turn-" + match.getAttribute("data-match-id"),
      });
      n.onclick = function () {
        window.focus();
        n.close();
      };
    } catch (e) {
      /* notifications refused by the browser: the title and sound remain */
    }
  }

  function primaryControl() {
    var controls = byId("controls");
    if (!controls) return null;
    var all = controls.querySelectorAll("button:not([disabled]), summary, select:not([disabled])");
    for (var i = 0; i < all.length; i++) {
      var el = all[i];
      if (el.closest(".leave-form, .pause-form") || el.offsetParent === null) continue;
      return el;
    }
    return null;
  }

  function focusPrimary() {
    var active = document.activeElement;
    // Someone typing stays where they are.
    if (active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA") && active.type !== "checkbox") return;
    var board = window.parlourBoard;
    if (board && typeof board.focusPrimary === "function") {
      board.focusPrimary();
      return;
    }
    var target = primaryControl();
    if (target) target.focus({ preventScroll: true });
  }

  function setTitle(on, urgent) {
    document.title = on ? (urgent ? gettext("10 s left! Your turn · %(title)s") : gettext("Your turn · %(title)s"))
      .replace("%(title)s", function () { return baseTitle; }) : baseTitle;
    if (icon && baseIcon) icon.setAttribute("href", on ? match.getAttribute("data-turn-icon") : baseIcon);
  }

  function turnBegins(quiet) {
    match.classList.add("is-my-turn");
    setTitle(true);
    if (quiet) {
      // The page opened on this seat's turn: no alarm, but the keyboard starts at the
      // decision (after the other scripts' start: board.js reads the choices in its own).
      setTimeout(function () {
        var active = document.activeElement;
        if (!active || active === document.body) focusPrimary();
      }, 0);
      return;
    }
    sound(TURN_TONES);
    notify(gettext("Your turn"));
    announce(gettext("Your turn."));
    focusPrimary();
  }

  function turnEnds() {
    match.classList.remove("is-my-turn");
    setTitle(false);
    var warning = byId("time-warning");
    if (warning) warning.hidden = true;
  }

  function check(quiet) {
    var now = isMine();
    if (now && !mine) turnBegins(quiet);
    else if (!now && mine) turnEnds();
    mine = now;
  }

  // --- The 10-second warning, on this seat's own clock --------------------------

  function watchClock() {
    var clock = byId("clock");
    var warning = byId("time-warning");
    if (!mine || !clock) return;
    var deadline = clock.getAttribute("data-deadline") || "";
    if (!deadline) return;
    if (clock.classList.contains("urgent") && warnedFor !== deadline) {
      warnedFor = deadline;
      if (warning) warning.hidden = false;
      setTitle(true, true); // a player in another tab sees it too
      sound(WARN_TONES);
      announce(gettext("10 seconds left."));
    } else if (!clock.classList.contains("urgent") && warning && !warning.hidden && warnedFor !== deadline) {
      warning.hidden = true;
    }
  }

  // --- Opting in to notifications (asked only from the button: a user gesture) --

  function showNotifyState() {
    var button = byId("notify-button");
    var state = byId("notify-state");
    if (!button || !state) return;
    if (!("Notification" in window)) {
      state.hidden = false;
      state.textContent = gettext("This browser has no notifications.");
      return;
    }
    var granted = Notification.permission === "granted" && notifyWanted();
    button.hidden = false;
    button.textContent = granted ? gettext("Stop notifying me") : gettext("Notify me when it is my turn");
    button.setAttribute("aria-pressed", granted ? "true" : "false");
    state.hidden = Notification.permission !== "denied";
    state.textContent = Notification.permission === "denied" ? gettext("Notifications are blocked for this site in the browser's settings.") : "";
  }

  function setUpNotifyButton() {
    var button = byId("notify-button");
    if (!button) return;
    button.addEventListener("click", function () {
      var on = Notification.permission === "granted" && notifyWanted();
      if (on) {
        try {
          window.localStorage.setItem(NOTIFY_KEY, "0");
        } catch (e) {
          /* kept for this page only */
        }
        showNotifyState();
        return;
      }
      Notification.requestPermission().then(function (answer) {
        try {
          window.localStorage.setItem(NOTIFY_KEY, answer === "granted" ? "1" : "0");
        } catch (e) {
          /* kept for this page only */
        }
        showNotifyState();
      });
    });
    showNotifyState();
  }

  function init() {
    check(true);
    setUpNotifyButton();
    document.addEventListener("htmx:wsAfterMessage", function () {
      check(false);
    });
    setInterval(watchClock, 250);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
