/* The user socket (/ws/notify/) and its toasts, on every page of a signed-in
 * user (README "Notifications"; the server side is notifications/consumers.py).
 *
 * DOM contract (notifications/templatetags/notify_tags.py, templates/games/your_matches.html):
 *
 *   <aside id="notify" data-ws data-stop-codes data-try-again data-banned      data-socket: "open" / "closed"
 *          data-signed-out-code data-signed-out>
 *     <p id="notify-said" aria-live="polite">   what is announced
 *     <ul id="toasts">                           the toasts
 *   <div data-panel="your-matches">              a live panel (home, play): rows <li id="ym-<match>">
 *     <ul data-group="live|turn|wait">           its lists: a row goes to the list of its data-group
 *                                                (none: "live", newest first; else by data-sort)
 *     <div class="ym-group" hidden>              a group's list and heading, hidden while it is empty
 *     <span data-group-count="turn">             how many rows a list holds ("Your turn in N matches")
 *   <p class="ym-none" hidden>                   shown while every list of the panel is empty
 *   <time class="ym-clock" data-deadline-ms>     counted down each second (data-words: "2 days 5 h",
 *                                                clock_words.js; else in seconds)
 *   <span data-count="your-turn" hidden>         a count ({"type": "count", "name", "n"}): its
 *     <span class="nav-count-n">                 number, hidden at 0 (the badge beside Play)
 *   <button id="notify-optin" hidden>            the opt-in for browser notifications
 *   <div id="match" data-match-id>               a match page: no toast for its own match
 *
 * A "turn-over" ({"type": "turn-over", "match"}), or a Your matches row that
 * is not "Your turn", takes that match's "your turn" toast and notification away.
 * A note ({"type": "note", "id", "kind", "text", "href", "match", "sticky",
 * "deadline_ms", "words"}) shows once per tab (its id is kept in sessionStorage) as a
 * toast with a link, announced to screen readers; while the tab is hidden and
 * the person opted in (the same choice as the match page's, localStorage
 * "parlour.notify"), also as a browser notification, tagged with the id so
 * several tabs show it once. The socket (socket.js's openSocket) reconnects with
 * backoff after a drop and stops after a refusal; after 4003 (banned) or 4002 (the session ended:
 * logged out, or the password changed elsewhere) a sticky toast says why. Without JavaScript none of this happens: the
 * pages show the same facts on load.
 */
import { leftWords } from "./clock_words.js";
import { openSocket } from "./socket.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

(function () {
  "use strict";

  var NOTIFY_KEY = "parlour.notify";
  var SEEN_KEY = "parlour.notes.seen";
  var TOAST_SECONDS = 12;
  var MAX_TOASTS = 4;

  var region = document.getElementById("notify");
  if (!region || !("WebSocket" in window)) return;

  var stopCodes = (region.getAttribute("data-stop-codes") || "").split(",").map(Number);
  var tryAgain = Number(region.getAttribute("data-try-again") || 4013);
  // The session ended (logged out, or the password changed elsewhere): accounts/close_codes.py.
  var signedOut = Number(region.getAttribute("data-signed-out-code") || 4002);
  var toasts = document.getElementById("toasts");
  var said = document.getElementById("notify-said");
  var banShown = false;

  function seenIds() {
    try {
      return JSON.parse(window.sessionStorage.getItem(SEEN_KEY) || "[]");
    } catch (e) {
      return [];
    }
  }

  function markSeen(id) {
    var ids = seenIds();
    if (ids.indexOf(id) !== -1) return false;
    ids.push(id);
    try {
      window.sessionStorage.setItem(SEEN_KEY, JSON.stringify(ids.slice(-200)));
    } catch (e) {
      /* storage full or refused: the note is still shown once in this page */
    }
    return true;
  }

  // Read when a note comes, not once: boosted navigation (htmx) changes the page under the socket.
  function pageMatch() {
    var el = document.getElementById("match");
    return el ? el.getAttribute("data-match-id") : null;
  }

  function secondsLeft(deadlineMs) {
    return Math.max(0, Math.ceil((deadlineMs - Date.now()) / 1000));
  }

  /** "42 s left", or with ``words`` (a turn-based decision's) "2 days 5 h left". */
  function leftText(deadlineMs, words) {
    // The server's words for the same row (games/your_matches.py), so a tick never changes them.
    if (!words) return interpolate(gettext("%(seconds)s s left"), { seconds: secondsLeft(deadlineMs) });
    return interpolate(gettext("%(time)s left"), { time: leftWords(deadlineMs - Date.now()) });
  }

  function announce(text) {
    said.textContent = "";
    setTimeout(function () {
      said.textContent = text;
    }, 50);
  }

  function wantsBrowserNotes() {
    try {
      return window.localStorage.getItem(NOTIFY_KEY) === "1";
    } catch (e) {
      return false;
    }
  }

  function browserNote(note, text) {
    if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
    if (!wantsBrowserNotes()) return;
    try {
      var n = new Notification("Parlour", { body: text, tag: "parlour-" + note.id });
      n.onclick = function () {
        window.focus();
        window.location.assign(note.href);
      };
      if (note.kind === "your_turn" && note.match) turnNotes[note.match] = n;
    } catch (e) {
      /* a browser that allows notifications only from a service worker */
    }
  }

  function dismiss(li) {
    if (li.parentNode) li.parentNode.removeChild(li);
  }

  var turnNotes = {}; // match id -> the browser notification of its "your turn"

  /** The person's turn in ``match`` is over (played here or elsewhere, timed out,
   *  the match ended): its "your turn" toast and notification go. */
  function turnOver(match) {
    toasts.querySelectorAll(".toast-your_turn").forEach(function (li) {
      if (li.getAttribute("data-match") === match) dismiss(li);
    });
    if (turnNotes[match]) {
      turnNotes[match].close();
      delete turnNotes[match];
    }
  }

  function showNote(note) {
    if (typeof note.id !== "string" || !markSeen(note.id)) return;
    if (note.match && note.match === pageMatch()) return; // the page itself says so
    // An arena match's page follows the player's next pairing, as the arena
    // page does (README "Arenas"): nobody is paired while still in a match, so
    // the match on this page has ended, whether or not its end is drawn yet.
    if (note.kind === "match_found" && note.href && document.querySelector("#match[data-event-url]")) {
      window.location.assign(note.href);
      return;
    }
    if (note.ends_session) banShown = true;
    var li = document.createElement("li");
    li.className = "toast toast-" + note.kind;
    if (note.match) li.setAttribute("data-match", note.match);
    if (note.sticky) li.setAttribute("role", "alert");
    var p = document.createElement("p");
    var a = document.createElement("a");
    a.href = note.href;
    a.textContent = note.text;
    p.appendChild(a);
    var text = note.text;
    if (note.deadline_ms) {
      var left = document.createElement("time");
      left.className = "toast-clock ym-clock";
      left.setAttribute("data-deadline-ms", String(note.deadline_ms));
      if (note.words) left.setAttribute("data-words", "");
      left.textContent = leftText(note.deadline_ms, note.words);
      p.appendChild(document.createTextNode(" · "));
      p.appendChild(left);
      var n = secondsLeft(note.deadline_ms);
      // Translators: a toast read out: "Your turn in Ludo with ada, 42 seconds left".
      text = interpolate(gettext("%(note)s, %(left)s"), { note: text, left: note.words ? leftText(note.deadline_ms, true)
        : interpolate(ngettext("%(seconds)s second left", "%(seconds)s seconds left", n), { seconds: n }) });
    }
    li.appendChild(p);
    var close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.setAttribute("aria-label", interpolate(gettext("Dismiss: %(note)s"), { note: note.text }));
    close.textContent = "×";
    close.addEventListener("click", function () {
      dismiss(li);
    });
    li.appendChild(close);
    toasts.appendChild(li);
    while (toasts.children.length > MAX_TOASTS) dismiss(toasts.firstElementChild);
    if (!note.sticky) {
      setTimeout(function () {
        dismiss(li);
      }, TOAST_SECONDS * 1000);
    }
    if (!note.sticky) announce(text); // a sticky one is an alert: read out as it appears
    browserNote(note, text);
  }

  function panelList(name) {
    return document.querySelector('[data-panel="' + name + '"]');
  }

  function watchedPanels() {
    var names = [];
    document.querySelectorAll("[data-panel]").forEach(function (el) {
      names.push(el.getAttribute("data-panel"));
    });
    return names;
  }

  function fragment(html) {
    var t = document.createElement("template");
    t.innerHTML = html;
    return t.content;
  }

  /** The list of ``panel`` that ``row`` belongs in: the one of its data-group, else the
   *  panel's "live" list, else the panel itself (a panel of one list). */
  function listFor(panel, row) {
    var group = row.getAttribute("data-group") || "live";
    return panel.querySelector('ul[data-group="' + group + '"]') || panel.querySelector('ul[data-group="live"]') || panel;
  }

  /** Put ``row`` in its list: a live one first (the newest match), any other before the
   *  first row with a later data-sort (the soonest deadline first), as the page orders them. */
  function place(panel, row) {
    var list = listFor(panel, row);
    var sort = row.getAttribute("data-sort");
    var before = list.firstElementChild;
    if (sort !== null) {
      before = null;
      for (var el = list.firstElementChild; el; el = el.nextElementSibling) {
        if (Number(el.getAttribute("data-sort")) > Number(sort)) {
          before = el;
          break;
        }
      }
    }
    list.insertBefore(row, before);
  }

  /** After a change: each group hidden while its list is empty, its count written, the
   *  "none" line shown while every list is empty. */
  function regroup(panel) {
    var any = false;
    panel.querySelectorAll("ul[data-group]").forEach(function (list) {
      var n = list.children.length;
      if (n) any = true;
      var group = list.getAttribute("data-group");
      var box = list.closest(".ym-group");
      if (box) box.hidden = n === 0;
      panel.querySelectorAll('[data-group-count="' + group + '"]').forEach(function (el) {
        el.textContent = String(n);
        var noun = el.parentNode.querySelector("[data-one]");
        // Every plural form of the language (Arabic has six), not just one and many.
        if (noun) noun.textContent = ngettext("match", "matches", n);
      });
    });
    var none = panel.parentNode && panel.parentNode.querySelector(".ym-none");
    if (none && panel.querySelector("ul[data-group]")) none.hidden = any;
  }

  function showRow(msg) {
    // A row that is not "Your turn" (or no row) ends the turn the toast told of.
    if (msg.panel === "your-matches" && !/\bym-mine\b/.test(msg.html || "")) turnOver(msg.key);
    var panel = panelList(msg.panel);
    if (!panel) return;
    var old = document.getElementById("ym-" + msg.key);
    if (old) dismiss(old);
    var row = msg.html ? fragment(msg.html).firstElementChild : null;
    if (row) place(panel, row);
    regroup(panel);
  }

  function showPanel(name, html) {
    var panel = panelList(name);
    if (!panel) return;
    var lists = panel.querySelectorAll("ul[data-group]");
    if (!lists.length) {
      panel.innerHTML = "";
      panel.appendChild(fragment(html));
      return;
    }
    lists.forEach(function (list) {
      list.innerHTML = "";
    });
    // The server sends the rows in the page's order: each is appended to its own list.
    var rows = fragment(html);
    while (rows.firstElementChild) {
      var row = rows.firstElementChild;
      listFor(panel, row).appendChild(row);
    }
    regroup(panel);
  }

  function showCount(name, n) {
    document.querySelectorAll('[data-count="' + name + '"]').forEach(function (el) {
      var number = el.querySelector(".nav-count-n") || el;
      number.textContent = String(n);
      el.hidden = !(n > 0);
    });
  }

  function tick() {
    document.querySelectorAll("time.ym-clock[data-deadline-ms]").forEach(function (el) {
      var deadline = Number(el.getAttribute("data-deadline-ms"));
      var text = leftText(deadline, el.hasAttribute("data-words"));
      if (el.textContent !== text) el.textContent = text;
      el.setAttribute("datetime", "PT" + secondsLeft(deadline) + "S");
    });
  }
  setInterval(tick, 1000);

  function onMessage(evt) {
    var msg;
    try {
      msg = JSON.parse(evt.data);
    } catch (e) {
      return;
    }
    if (msg.type === "note") showNote(msg);
    else if (msg.type === "row") showRow(msg);
    else if (msg.type === "turn-over" && typeof msg.match === "string") turnOver(msg.match);
    else if (msg.type === "panel") showPanel(msg.name, msg.html);
    else if (msg.type === "count" && typeof msg.name === "string") showCount(msg.name, Number(msg.n) || 0);
  }

  var sock = null; // openSocket's handle: sock.current() is the socket now

  function watch() {
    var ws = sock && sock.current();
    if (ws && ws.readyState === WebSocket.OPEN) {
      // The page's own match, if any: the server leaves out the notes about it.
      ws.send(JSON.stringify({ type: "watch", panels: watchedPanels(), match: pageMatch() }));
    }
  }
  // A page swapped in by htmx (boosted navigation) may show other panels: watch those.
  document.addEventListener("htmx:afterSettle", function (evt) {
    if (evt.target === document.body) watch();
  });

  function connect() {
    sock = openSocket(region.getAttribute("data-ws"), {
      stopCodes: stopCodes,
      tryAgain: tryAgain,
      open: function () {
        region.setAttribute("data-socket", "open");
        if (watchedPanels().length || pageMatch()) watch();
      },
      message: onMessage,
      close: function () {
        region.setAttribute("data-socket", "closed");
      },
      refused: function (code) {
        if (code === 4003 && !banShown) {
          showNote({ id: "banned", kind: "moderation", text: region.getAttribute("data-banned"),
                     href: "/login/", sticky: true });
        } else if (code === signedOut) {
          showNote({ id: "signed-out-" + Date.now(), kind: "session",
                     text: region.getAttribute("data-signed-out"), href: "/login/", sticky: true });
        }
      },
    });
  }

  // The opt-in for browser notifications (the match page has its own button for the same choice).
  var optin = document.getElementById("notify-optin");
  function showOptin() {
    if (!optin) return;
    var on = wantsBrowserNotes() && Notification.permission === "granted";
    optin.textContent = on ? gettext("Stop notifying me when this tab is hidden") : gettext("Notify me when this tab is hidden");
    optin.setAttribute("aria-pressed", on ? "true" : "false");
  }
  if (optin && "Notification" in window) {
    optin.hidden = false;
    showOptin();
    optin.addEventListener("click", function () {
      if (wantsBrowserNotes() && Notification.permission === "granted") {
        window.localStorage.setItem(NOTIFY_KEY, "0");
        showOptin();
        return;
      }
      Notification.requestPermission().then(function (answer) {
        window.localStorage.setItem(NOTIFY_KEY, answer === "granted" ? "1" : "0");
        showOptin();
      });
    });
  }

  connect();
})();
