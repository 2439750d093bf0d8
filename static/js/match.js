/* Parlour match page: live updates over the htmx WebSocket extension.
 *
 * An ES module, run after htmx 2.0.11 and htmx-ext-ws 2.0.4 (classic `defer` scripts). Without this
 * file (or without JavaScript) the page still works: move forms post and the
 * page reloads. DOM contract (templates/games/match.html):
 *
 *   <div id="match" data-match-id data-version hx-ext="ws" ws-connect="/ws/match/<id>/">
 *   every frame: elements with hx-swap-oob="true", including
 *     <div id="frame-version" data-version="N" hx-swap-oob="true"></div>
 *   error frames: <div id="match-error" hx-swap-oob="true" role="alert">
 *   <p id="connection-status" role="status">          we write Live (Up to date: turn-based) / Reconnecting… / Offline / why it closed
 *   <p id="move-wait" role="status" hidden>   (seat pages) a sent move waiting for the connection, and
 *                                             when it went
 *   <time id="clock" data-deadline="ms" data-server-now="ms">   counted down: match/clock.js
 *   <form id="device-settings">   this device's settings (match/settings.js), read by other
 *                                 scripts with Parlour.setting(name)
 *   <div id="match" data-heartbeat-ms>   the server's heartbeat period (games/consumers.py)
 *   move forms: <form method="post" action="/m/<id>/move/" ws-send> (hidden move, version)
 * Its parts: match/ (clock, settings, sound, the move list, the move forms and focus,
 * auto-roll, the status lines); the socket's policy and version gate: socket.js.
 *
 * Facts about ws.js 2.0.4 this relies on: socket.js's header.
 */
import { addCsrfTokens, refusals, tryAgainCode } from "./parlour.js";
import {
  HEARTBEAT_FRAME, MATCH, backoff, closeVerdict, extensionSocket, frameTags, gateFrame, isRenderedSnapshot,
  mayAskSnapshot, silence,
} from "./socket.js";
import { autoRoll, watchPlayer } from "./match/autoroll.js";
import { readClock, tick } from "./match/clock.js";
import {
  focusWasOnBoard, isMoveForm, lock, lockMoves, releaseForms, rememberFocus, restoreFocus, sentFrom, useConnection,
  watchConfirms,
} from "./match/forms.js";
import { announceNewLines, lastPly, pinMoveList, showNewestMove } from "./match/movelist.js";
import { initSettings, settings } from "./match/settings.js";
import { playNotes, playTone, watchGestures } from "./match/sound.js";
import { setStatus, showMoveWait, watchLastMove } from "./match/status.js";
import { gettext, interpolate, pgettext } from "./i18n.js";

(function () {
  "use strict";

  // What each refusal close code means (accounts/close_codes.py, README "Decisions").
  var REFUSED = refusals();
  var TRY_AGAIN = tryAgainCode(); // 4013: reconnect, as after any drop
  var EXTENSION_RETRIES = [1006, 1011, 1012, 1013]; // ws.js reconnects after these itself
  var SLOW_ANSWER_MS = 1500; // a move unanswered this long: say it is waiting for the connection

  var live = false; // the socket is open
  var offline = navigator.onLine === false; // the browser says the device has no network
  // "Live" means the page shows the current position: it is written once the
  // socket's snapshot (the public frame, and a seat's own controls) has landed,
  // never at the socket's open alone. #match gets data-synced then (tests wait on it).
  var synced = false;
  var snapshotSeen = { pub: false, seat: false };
  // The version the server rendered this page at: the first snapshot at that same
  // version is the page itself, so it is not swapped in (it would redraw the board
  // under a finger already on it, and cost the phone a re-render for nothing).
  var renderedVersion = null;
  var stopped = false; // refused by the server (4xxx): never reconnect
  var failures = 0; // closes since the last frame arrived
  var ourTimer = null;
  var lastFrameAt = 0; // performance.now() when the socket last brought a frame
  var silent = false; // open, but no frame for longer than the heartbeat allows

  function byId(id) {
    return document.getElementById(id);
  }

  function matchEl() {
    return byId("match");
  }

  // What the status says while the page shows the current position: "Live", but
  // on a turn-based match (days a decision) "Up to date", so it is not read as
  // the match's time control.
  function liveWord() {
    var m = matchEl();
    return m && m.hasAttribute("data-turn-based") ? pgettext("connection status", "Up to date") : pgettext("connection status", "Live");
  }

  function currentVersion() {
    var m = matchEl();
    var v = m ? parseInt(m.getAttribute("data-version"), 10) : NaN;
    return isNaN(v) ? -1 : v;
  }

  // Full-jitter exponential backoff for the n-th retry, capped near 10 s (socket.js MATCH).
  if (window.htmx) {
    window.htmx.config.wsReconnectDelay = function (retryCount) {
      return backoff(Math.max(retryCount, failures), MATCH);
    };
  }

  // --- Connection status -----------------------------------------------------

  function stop(elt, code, reason) {
    stopped = true;
    live = false;
    clearTimeout(ourTimer);
    ourTimer = null;
    // ws.js opens a new socket whenever the element is processed with ws-connect.
    elt.removeAttribute("ws-connect");
    elt.removeAttribute("data-ws-connect");
    moveWait.sentAt = null;
    showMoveWait("");
    releaseForms(true);
    setStatus("closed", REFUSED[code] || reason || gettext("Disconnected by the server. Reload the page to try again."));
  }

  document.addEventListener("htmx:wsConnecting", function () {
    if (stopped || offline) return;
    setStatus(failures > 0 ? "reconnecting" : "connecting", failures > 0 ? gettext("Reconnecting…") : gettext("Connecting…"));
  });

  document.addEventListener("htmx:wsOpen", function () {
    if (stopped) return;
    live = true;
    silent = false;
    synced = false;
    snapshotSeen = { pub: false, seat: false };
    lastFrameAt = performance.now();
    clearTimeout(ourTimer);
    ourTimer = null;
  });

  /** Whether this page plays a seat (its snapshot then ends with the seat's controls). */
  function isSeatPage() {
    var m = matchEl();
    return !!(m && m.getAttribute("data-my-seat"));
  }

  /** Note the snapshot frames a message carried; once the whole snapshot has
   *  landed, the page is live. */
  function noteSnapshot(tags) {
    for (var i = 0; i < tags.length; i++) {
      if (tags[i].kind === "snapshot") snapshotSeen.pub = true;
      if (tags[i].kind === "seat") snapshotSeen.seat = true;
    }
    if (synced || !snapshotSeen.pub || (isSeatPage() && !snapshotSeen.seat)) return;
    synced = true;
    var m = matchEl();
    if (m) m.setAttribute("data-synced", String(Math.max(publicVersion, seatVersion)));
    if (live && !stopped) setStatus("live", liveWord());
    autoRoll(); // a page opened (or reconnected) on a roll
  }

  // --- Offline, and a move waiting for the connection ----------------------------
  // The browser's offline event: say so at once and lock the move forms (a move
  // can't go); back online, reconnect at once rather than wait for the heartbeat to
  // notice a socket the network change may have killed. A sent move with no answer
  // after SLOW_ANSWER_MS says it is waiting; it stays locked (no BUSY_TIMEOUT_MS
  // release) while the connection is down, through a reconnect, and #move-wait says
  // when it went (its answer came) or that the board, re-sent whole after a
  // reconnect, shows whether it did.
  var moveWait = { sentAt: null, socket: null, timer: null, shown: false };

  function connected() {
    return live && !silent && !offline && !stopped;
  }

  function moveSent() {
    moveWait.sentAt = performance.now();
    moveWait.socket = openSocket && openSocket.socket;
    moveWait.shown = false;
    showMoveWait("");
    clearTimeout(moveWait.timer);
    moveWait.timer = setTimeout(function () {
      if (moveWait.sentAt === null) return;
      moveWait.shown = true;
      showMoveWait(offline ? gettext("Offline: your move waits for the network.") : gettext("Your move is waiting for the connection…"));
    }, connected() ? SLOW_ANSWER_MS : 0);
  }

  /** The sent move's answer came: over the socket it went by (its seat frame), or over a
   *  new one (the reconnect's snapshot, which shows whether it went). */
  function moveAnswered(refused) {
    if (moveWait.sentAt === null) return;
    var bySnapshot = !openSocket || openSocket.socket !== moveWait.socket;
    clearTimeout(moveWait.timer);
    var waited = Math.round((performance.now() - moveWait.sentAt) / 1000);
    var shown = moveWait.shown;
    moveWait.sentAt = null;
    if (!shown || refused) {
      showMoveWait("");
      return;
    }
    if (bySnapshot) showMoveWait(gettext("Reconnected: the board shows the match as it stands now."), true);
    else showMoveWait(interpolate(gettext("Your move went through, %(seconds)s s after you played it."), { seconds: waited }), true);
  }

  window.Parlour = window.Parlour || {};
  /** Whether the page can send a move now (open, hearing the heartbeat, online); board.js asks. */
  window.Parlour.connected = connected;
  /** Whether the browser says the device has no network (board.js sends nothing then). */
  window.Parlour.offline = function () { return offline; };

  window.addEventListener("offline", function () {
    offline = true;
    if (stopped) return;
    setStatus("reconnecting", gettext("Offline"));
    lockMoves();
    if (moveWait.sentAt !== null) {
      moveWait.shown = true;
      showMoveWait(gettext("Offline: your move waits for the network."));
    } else {
      showMoveWait(gettext("Offline: you can move again when the network is back."));
    }
    document.dispatchEvent(new CustomEvent("parlour:connection"));
  });

  window.addEventListener("online", function () {
    offline = false;
    if (stopped) return;
    if (moveWait.sentAt === null) {
      showMoveWait("");
      releaseForms(true);
    } else {
      showMoveWait(gettext("Your move is waiting for the connection…"));
    }
    setStatus("reconnecting", gettext("Reconnecting…"));
    // A new socket at once (ws.js closes the old one; its late close is ignored below):
    // closing the old one first waits for a close handshake the lost network may never finish.
    if (openSocket && live) {
      live = false;
      openSocket.reconnect();
    }
    document.dispatchEvent(new CustomEvent("parlour:connection"));
  });

  document.addEventListener("htmx:wsClose", function (evt) {
    var elt = evt.target;
    var closeEvent = evt.detail && evt.detail.event;
    var sock = extensionSocket(elt);
    // A socket ws.js already replaced (it closes the old one on reconnect): not news.
    if (closeEvent && sock && closeEvent.target && closeEvent.target !== sock) return;
    live = false;
    synced = false;
    if (matchEl()) matchEl().removeAttribute("data-synced");
    // A move on its way stays locked until the reconnect's snapshot shows where it is.
    if (moveWait.sentAt === null) releaseForms(true);
    if (stopped) return;
    var code = closeEvent ? closeEvent.code : 1006;
    if (closeVerdict(code, { tryAgain: TRY_AGAIN }) === "refused") {
      stop(elt, code, closeEvent.reason);
      return;
    }
    if (!document.body.contains(elt)) return; // the page dropped the socket element
    failures += 1;
    setStatus("reconnecting", offline ? gettext("Offline") : gettext("Reconnecting…"));
    if (EXTENSION_RETRIES.indexOf(code) < 0 && !ourTimer) {
      var wrapper = evt.detail.socketWrapper;
      ourTimer = setTimeout(function () {
        ourTimer = null;
        if (!stopped && !live && document.body.contains(elt) && elt.hasAttribute("ws-connect")) {
          wrapper.reconnect();
        }
      }, backoff(failures, MATCH));
    }
  });

  // --- Frames: drop stale ones, then note the version ------------------------
  // The frame kinds and the gate: socket.js (frameTags, gateFrame).
  // Public and seat frames travel separately, so each keeps its own version.
  var publicVersion = currentVersion();
  var seatVersion = currentVersion();
  var pending = null;
  var openSocket = null;

  document.addEventListener("htmx:wsOpen", function (evt) {
    openSocket = evt.detail && evt.detail.socketWrapper;
  });

  // A hook for game scripts (rondo.js sends a whole chain as one message):
  // window.Parlour.send(obj) sends obj as JSON if the socket is open; false if not.
  window.Parlour = window.Parlour || {};
  window.Parlour.send = function (obj) {
    if (!live || !openSocket) return false;
    openSocket.send(JSON.stringify(obj));
    if (obj && (obj.move !== undefined || obj.moves !== undefined)) {
      lockMoves();
      moveSent();
    }
    return true;
  };

  // --- Heartbeat: "Live" only while frames arrive ---------------------------

  function heartbeatMs() {
    var m = matchEl();
    var v = m ? parseInt(m.getAttribute("data-heartbeat-ms"), 10) : NaN;
    return isNaN(v) || v <= 0 ? 0 : v;
  }

  function frameArrived() {
    lastFrameAt = performance.now();
    if (silent && live && !stopped) {
      silent = false;
      if (synced) setStatus("live", liveWord());
    }
  }

  /** Every second: an open socket that brought nothing for a while is not live, or is
   *  dropped and reconnected (socket.js silence()). */
  function watchSilence() {
    var period = heartbeatMs();
    if (!period || !live || stopped) return;
    var verdict = silence(performance.now() - lastFrameAt, period);
    if (verdict !== "ok" && !silent) {
      silent = true;
      setStatus("reconnecting", offline ? gettext("Offline") : gettext("Reconnecting…"));
      if (moveWait.sentAt !== null) {
        moveWait.shown = true;
        clearTimeout(moveWait.timer);
        showMoveWait(gettext("Your move is waiting for the connection…"));
      }
    }
    if (verdict === "drop" && openSocket && openSocket.socket) {
      lastFrameAt = performance.now();
      try {
        openSocket.socket.close(); // ws.js's close handler (above) reconnects
      } catch (e) {
        /* already closing */
      }
    }
  }

  // Whether the message being swapped answers this page's sent move: only the
  // seat's own controls, a snapshot or an error frame do. The public frame of a
  // change, another seat's move or a chat line do not, so the sent form stays
  // locked until its answer (a second Roll before it would be refused as stale).
  var answered = false;
  var answeredByError = false; // the answer was an error frame (it says why itself)

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var text = evt.detail && evt.detail.message;
    pending = null;
    answered = false;
    answeredByError = false;
    frameArrived();
    if (text === HEARTBEAT_FRAME) {
      evt.preventDefault(); // nothing to swap
      return;
    }
    if (typeof text !== "string") return;
    var tags = frameTags(text);
    if (!tags.length) return;
    if (renderedVersion !== null && !synced) {
      // The first snapshot after the page loaded, at the version the page was
      // rendered at: nothing to swap.
      if (isRenderedSnapshot(tags, renderedVersion)) {
        evt.preventDefault();
        noteSnapshot(tags);
        if (synced) renderedVersion = null;
        return;
      }
      renderedVersion = null;
    }
    var gate = gateFrame(tags, { pub: publicVersion, seat: seatVersion });
    if (gate.verdict === "error") {
      // An error frame is for this socket only; show it whatever version it names.
      answered = true;
      answeredByError = true;
      rememberFocus();
      return;
    }
    if (gate.verdict !== "apply") {
      evt.preventDefault();
      if (gate.verdict === "stale") noteSnapshot(tags);
      else if (gate.verdict === "gap") askSnapshot();
      return;
    }
    answered = gate.next.answer;
    pending = { pub: gate.next.pub, seat: gate.next.seat, update: gate.next.update, tags: tags };
    lastPlyShown = lastPly();
    rememberFocus();
  });

  // One request for a snapshot at a time (a burst of later updates would each ask):
  // another only once one arrived or SYNC_RETRY_MS passed.
  var syncAskedAt = -Infinity;
  function askSnapshot() {
    if (!openSocket || !mayAskSnapshot(performance.now(), syncAskedAt)) return;
    syncAskedAt = performance.now();
    openSocket.send(JSON.stringify({ type: "sync" }));
  }

  var lastPlyShown = -1; // the move list's last ply before the message (its new lines are read out)

  document.addEventListener("htmx:wsAfterMessage", function () {
    failures = 0;
    var previous = currentVersion();
    if (pending) {
      if (pending.pub !== null) publicVersion = Math.max(publicVersion, pending.pub);
      if (pending.seat !== null) seatVersion = Math.max(seatVersion, pending.seat);
      var now = Math.max(publicVersion, seatVersion);
      if (now > previous) {
        matchEl().setAttribute("data-version", String(now));
        if (previous >= 0) playTone();
      }
      if (pending.pub !== null) {
        if (!pending.update) syncAskedAt = -Infinity; // a snapshot came: the next gap may ask again
        announceNewLines(pending.update, lastPlyShown);
      }
      noteSnapshot(pending.tags);
    }
    var wasAnswer = answered;
    if (answered) moveAnswered(answeredByError);
    pending = null;
    releaseForms(answered);
    answered = false;
    readClock(false);
    // A sent move's focus waits for its answer (the seat's new controls): the public
    // frame that may come first must not spend it while the sent form is locked.
    if (wasAnswer || focusWasOnBoard() || moveWait.sentAt === null) restoreFocus();
    showNewestMove();
    autoRoll();
  });

  watchConfirms(); // forms that ask first (leaving a match): data-confirm

  // --- Move forms --------------------------------------------------------------

  // The forms' locks and the focus across swaps: match/forms.js.
  useConnection(connected);

  // Not connected: keep htmx away from the submit so the browser posts the form
  // (the page reloads with the current state) instead of queueing it unseen.
  document.addEventListener(
    "submit",
    function (evt) {
      if (isMoveForm(evt.target) && !live) evt.stopPropagation();
    },
    true
  );

  document.addEventListener("htmx:wsAfterSend", function (evt) {
    var form = evt.target;
    if (!isMoveForm(form)) return;
    sentFrom(form); // from the form itself (a shortcut on the board keeps the board's focus)
    if (form.closest("#controls")) {
      lockMoves();
      moveSent();
    } else {
      lock(form);
    }
  });

  // --- Countdown (match/clock.js), device settings (match/settings.js) ---------------------

  /** Parlour.setting(name): this device's "sound" (bool), "dice" ("pips" or
   *  "numbers") or "shortcuts" (bool: board keyboard shortcuts on, WCAG 2.1.4).
   *  A change fires "parlour:settings" on document. */
  window.Parlour.setting = function (name) {
    return settings[name];
  };

  // --- Auto-roll (match/autoroll.js): the device's setting rolls when a roll is the seat's only choice

  watchPlayer({ connected: connected, version: currentVersion });

  // --- Sound (match/sound.js): a short tone, no audio files ------------------------------

  /** Parlour.playNotes(notes, step, type): the page's tones, for attention.js. */
  window.Parlour.playNotes = playNotes;
  watchGestures(); // browsers start audio only from a user gesture: wake it on the first one

  // --- Pushed forms ------------------------------------------------------------------------

  // Controls pushed over the socket were rendered without a request, so their
  // plain forms (leave, pause, resume) have no csrfmiddlewaretoken (parlour.js adds it).
  addCsrfTokens();

  // --- Start -----------------------------------------------------------------------------

  function init() {
    initSettings(function (wasSoundOn) {
      autoRoll();
      if (settings.sound && !wasSoundOn) playTone(); // also unlocks audio: this is a user gesture
    });
    showNewestMove();
    pinMoveList();
    watchLastMove();
    var m = matchEl();
    if (m && window.htmx && m.hasAttribute("ws-connect")) setStatus("connecting", gettext("Connecting…"));
    renderedVersion = currentVersion();
    readClock(true);
    setInterval(tick, 250);
    setInterval(watchSilence, 1000);
    // htmx swaps outside the socket (a plain hx-get) also replace #clock.
    document.addEventListener("htmx:afterSettle", function () {
      readClock(false);
    });
  }

  // A match page restored from the back/forward cache shows an old position.
  window.addEventListener("pageshow", function (evt) {
    if (evt.persisted && matchEl()) window.location.reload();
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
