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
 *   <p id="connection-status" role="status">          we write Live / Reconnecting… / Offline / why it closed
 *   <p id="move-wait" role="status" hidden>   (seat pages) a sent move waiting for the connection, and
 *                                             when it went
 *   <time id="clock" data-deadline="ms" data-server-now="ms">   we count it down
 *   <form id="device-settings"> with input[name=sound], select[name=dice_style] (games with
 *     dice only), input[name=autoroll] (players of games with dice) and input[name=shortcuts]
 *     (players only); each kept in localStorage
 *     under parlour.<name>, read by other scripts with Parlour.setting(name)
 *   <div id="match" data-heartbeat-ms>   the server's heartbeat period (games/consumers.py)
 *   move forms: <form method="post" action="/m/<id>/move/" ws-send> (hidden move, version)
 *
 * Facts about ws.js 2.0.4 this relies on (read in its source):
 *   - it reconnects by itself only after close codes 1006, 1011, 1012, 1013, waiting
 *     htmx.config.wsReconnectDelay(retryCount) ms; every other close is final, so we
 *     reconnect after those ourselves (socketWrapper.reconnect), except the refusals
 *     (4000-4999 but 4013, "try again later", accounts/close_codes.py);
 *   - it opens a socket whenever #match is processed and still has ws-connect, so on a
 *     refusal we remove that attribute;
 *   - htmx:wsBeforeMessage is cancelable (preventDefault: nothing is swapped);
 *     settle tasks have run when htmx:wsAfterMessage fires;
 *   - a ws-send form's submit is handled by a listener on the form itself, which
 *     cancels the browser's post; htmx:wsAfterSend fires on the form once sent.
 */
import { addCsrfTokens, refusals, tryAgainCode } from "./parlour.js";
import { MATCH, backoff, closeVerdict, frameTags, gateFrame, isRenderedSnapshot, mayAskSnapshot } from "./socket.js";

(function () {
  "use strict";

  // What each refusal close code means (accounts/close_codes.py, README "Decisions").
  var REFUSED = refusals();
  var TRY_AGAIN = tryAgainCode(); // 4013: reconnect, as after any drop
  var EXTENSION_RETRIES = [1006, 1011, 1012, 1013]; // ws.js reconnects after these itself
  var BUSY_TIMEOUT_MS = 10000; // re-enable a sent form's buttons if no frame ever answers
  var SLOW_ANSWER_MS = 1500; // a move unanswered this long: say it is waiting for the connection
  var URGENT_MS = 10000;
  var KEYS = { sound: "parlour.sound", dice: "parlour.dice_style", shortcuts: "parlour.shortcuts",
    autoroll: "parlour.autoroll" };
  var AUTO_ROLL_MS = 600; // the turn is seen arriving before the page rolls for the player
  // A frame that only says the connection is alive (games/fragments.HEARTBEAT_FRAME).
  var HEARTBEAT = '<div id="heartbeat" hidden></div>';
  // No frame for the heartbeat period and this much more: the connection is not live.
  var SILENCE_GRACE_MS = 3000;
  var DICE_STYLES = ["pips", "numbers"];

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
  var focusHome = null; // id of the element around the move form that had focus
  var settings = { sound: false, dice: "pips", shortcuts: true, autoroll: false };
  var lastFrameAt = 0; // performance.now() when the socket last brought a frame
  var silent = false; // open, but no frame for longer than the heartbeat allows
  var audioCtx = null;
  var clock = { el: null, key: "", deadline: 0, serverNow: 0, arrived: 0, text: null };

  function byId(id) {
    return document.getElementById(id);
  }

  function matchEl() {
    return byId("match");
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

  function setStatus(state, text) {
    var m = matchEl();
    if (m) m.setAttribute("data-connection", state);
    var el = byId("connection-status");
    if (!el) return;
    el.classList.remove("is-connecting", "is-live", "is-reconnecting", "is-closed");
    el.classList.add("is-" + state);
    if (el.textContent !== text) el.textContent = text;
  }

  /** The socket ws.js currently holds for ``elt`` (its internal data), if any. */
  function currentSocket(elt) {
    var data = elt && elt["htmx-internal-data"];
    return data && data.webSocket ? data.webSocket.socket : null;
  }

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
    setStatus("closed", REFUSED[code] || reason || "Disconnected by the server. Reload the page to try again.");
  }

  document.addEventListener("htmx:wsConnecting", function () {
    if (stopped || offline) return;
    setStatus(failures > 0 ? "reconnecting" : "connecting", failures > 0 ? "Reconnecting…" : "Connecting…");
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
    if (live && !stopped) setStatus("live", "Live");
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

  function showMoveWait(text, done) {
    var el = byId("move-wait");
    if (!el) return;
    el.classList.toggle("is-done", !!done);
    if (el.textContent !== text) el.textContent = text;
    el.hidden = !text;
  }

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
      showMoveWait(offline ? "Offline: your move waits for the network." : "Your move is waiting for the connection…");
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
    if (bySnapshot) showMoveWait("Reconnected: the board shows the match as it stands now.", true);
    else showMoveWait("Your move went through, " + waited + " s after you played it.", true);
  }

  window.Parlour = window.Parlour || {};
  /** Whether the page can send a move now (open, hearing the heartbeat, online); board.js asks. */
  window.Parlour.connected = connected;
  /** Whether the browser says the device has no network (board.js sends nothing then). */
  window.Parlour.offline = function () { return offline; };

  window.addEventListener("offline", function () {
    offline = true;
    if (stopped) return;
    setStatus("reconnecting", "Offline");
    lockMoves();
    if (moveWait.sentAt !== null) {
      moveWait.shown = true;
      showMoveWait("Offline: your move waits for the network.");
    } else {
      showMoveWait("Offline: you can move again when the network is back.");
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
      showMoveWait("Your move is waiting for the connection…");
    }
    setStatus("reconnecting", "Reconnecting…");
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
    var sock = currentSocket(elt);
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
    setStatus("reconnecting", offline ? "Offline" : "Reconnecting…");
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
      if (synced) setStatus("live", "Live");
    }
  }

  /** Every second: an open socket that brought nothing for the heartbeat period
   *  and SILENCE_GRACE_MS is not live; after twice that, drop it and reconnect
   *  (a connection can die without the socket closing). */
  function watchSilence() {
    var period = heartbeatMs();
    if (!period || !live || stopped) return;
    var quiet = performance.now() - lastFrameAt;
    if (quiet > period + SILENCE_GRACE_MS && !silent) {
      silent = true;
      setStatus("reconnecting", offline ? "Offline" : "Reconnecting…");
      if (moveWait.sentAt !== null) {
        moveWait.shown = true;
        clearTimeout(moveWait.timer);
        showMoveWait("Your move is waiting for the connection…");
      }
    }
    if (quiet > 2 * (period + SILENCE_GRACE_MS) && openSocket && openSocket.socket) {
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
    if (text === HEARTBEAT) {
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

  /** The ply of the move list's last line (-1: none). */
  function lastPly() {
    var lines = document.querySelectorAll("#move-list .move-line");
    var last = lines[lines.length - 1];
    var ply = last ? parseInt(last.getAttribute("data-ply"), 10) : NaN;
    return isNaN(ply) ? -1 : ply;
  }

  /** Screen readers hear an update's new lines (#announce, polite); a snapshot says nothing. */
  var lastPlyShown = -1;
  function announceNewLines(update) {
    var box = byId("announce");
    if (!box) return;
    var words = [];
    if (update) {
      var lines = document.querySelectorAll("#move-list .move-line");
      for (var i = 0; i < lines.length; i++) {
        var ply = parseInt(lines[i].getAttribute("data-ply"), 10);
        if (ply > lastPlyShown) words.push(lines[i].textContent.trim());
      }
    }
    box.textContent = words.join(" ");
  }

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
        announceNewLines(pending.update);
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
    if (wasAnswer || focusHome === BOARD_FOCUS || moveWait.sentAt === null) restoreFocus();
    showNewestMove();
    autoRoll();
  });

  // Forms that ask first (leaving a match) carry the question in data-confirm.
  document.addEventListener(
    "submit",
    function (evt) {
      var q = evt.target && evt.target.getAttribute && evt.target.getAttribute("data-confirm");
      if (q && !window.confirm(q)) {
        evt.preventDefault();
        evt.stopPropagation();
      }
    },
    true
  );

  /** Keep the move list scrolled to its newest line, and no longer than
   *  MOVE_LINES_KEPT turns (a long match would grow the page without end;
   *  the replay has every line). */
  var MOVE_LINES_KEPT = 200;
  function showNewestMove() {
    var list = byId("move-list");
    if (!list) return;
    // One item per turn, numbered from the list's start: dropping the oldest
    // moves the start on, so the turns left keep their numbers.
    while (list.children.length > MOVE_LINES_KEPT) {
      list.removeChild(list.firstElementChild);
      list.start = list.start + 1;
    }
    pinList(list);
    showLastMove(list);
  }

  // The move list stays scrolled to its newest line when its box shrinks (on a
  // desktop the seat's controls above it grow when a decision comes), unless the
  // player scrolled up to read.
  var pinned = true;
  var pinnedTop = 0; // the scrollTop this script last set: a scroll above it is the player's

  function pinList(list) {
    list.scrollTop = list.scrollHeight;
    pinnedTop = list.scrollTop;
    pinned = true;
  }

  function pinMoveList() {
    // A snapshot replaces #move-list itself: listen on the document, observe its panel.
    var panel = byId("panel-moves");
    if (!panel || !window.ResizeObserver) return;
    document.addEventListener("scroll", function (evt) {
      var list = evt.target;
      if (list && list.id === "move-list") {
        // A shrinking box does not move scrollTop, so it leaves the list pinned.
        pinned = list.scrollTop >= pinnedTop - 4 || list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
      }
    }, { capture: true, passive: true });
    new ResizeObserver(function () {
      var list = byId("move-list");
      if (list && pinned) pinList(list);
    }).observe(panel);
  }

  /** Copies the move list's newest line into #last-move (above a phone's board). */
  function showLastMove(list) {
    var box = byId("last-move");
    if (!box) return;
    var lines = list.querySelectorAll(".move-line");
    var line = lines[lines.length - 1];
    var copies = [];
    if (line) {
      for (var n = line.firstChild; n; n = n.nextSibling) copies.push(n.cloneNode(true));
      box.title = line.textContent.trim();
    }
    box.replaceChildren.apply(box, copies);
  }

  // --- Move forms --------------------------------------------------------------

  function isMoveForm(el) {
    return el && el.tagName === "FORM" && (el.hasAttribute("ws-send") || el.hasAttribute("data-ws-send"));
  }

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
    if (!onBoard(document.activeElement)) {
      // Sent from the form itself (a shortcut on the board keeps the board's focus).
      focusHome = homeOf(form);
    }
    if (form.closest("#controls")) {
      lockMoves();
      moveSent();
    } else {
      lock(form);
    }
  });

  /** Disables a sent form's buttons until its answer (releaseForms) or BUSY_TIMEOUT_MS. */
  function lock(form) {
    var controls = form.querySelectorAll("button, input[type=submit]");
    for (var i = 0; i < controls.length; i++) {
      if (!controls[i].disabled) {
        controls[i].disabled = true;
        controls[i].setAttribute("data-busy", "");
      }
    }
    form.setAttribute("aria-busy", "true");
    clearTimeout(form._parlourBusy);
    form._parlourBusy = setTimeout(function expire() {
      // A lost answer on a working connection: free the form. While the connection is
      // down, the move is still on its way: wait on.
      if (connected()) release(form);
      else form._parlourBusy = setTimeout(expire, BUSY_TIMEOUT_MS);
    }, BUSY_TIMEOUT_MS);
  }

  /** A move was sent: every move form of the seat's controls waits for the answer
   *  (one move per version: any other would be refused as out of date). */
  function lockMoves() {
    var forms = document.querySelectorAll("#controls form");
    for (var i = 0; i < forms.length; i++) {
      if (isMoveForm(forms[i])) lock(forms[i]);
    }
  }

  function release(form) {
    clearTimeout(form._parlourBusy);
    form.removeAttribute("aria-busy");
    var controls = form.querySelectorAll("[data-busy]");
    for (var i = 0; i < controls.length; i++) {
      controls[i].disabled = false;
      controls[i].removeAttribute("data-busy");
    }
  }

  /** Unlocks the sent forms: all of them when the message answered this page's
   *  move (see `answered`), else only those outside the seat's controls (chat). */
  function releaseForms(all) {
    var forms = document.querySelectorAll("form[aria-busy]");
    for (var i = 0; i < forms.length; i++) {
      if (all || !forms[i].closest("#controls")) release(forms[i]);
    }
  }

  // Keyboard users keep their place: a swap that replaces the focused move form
  // leaves focus on <body>; put it on the first control of what replaced it.
  var BOARD_FOCUS = "board"; // focusHome when focus was on the board (static/js/board.js)

  /** Whether el is the board's stage (the board's parent, which holds focus
   *  for the board's shortcuts) or inside it. */
  function onBoard(el) {
    var board = byId("board");
    var here = board && board.parentElement;
    return !!(here && el && here.contains(el));
  }

  function rememberFocus() {
    var active = document.activeElement;
    if (onBoard(active)) {
      focusHome = BOARD_FOCUS;
      return;
    }
    var form = active && active.closest ? active.closest("form") : null;
    if (isMoveForm(form)) focusHome = homeOf(form);
  }

  /** Where focus goes back to after a swap replaces ``form``: the seat's controls as a
   *  whole (their new decision's primary control; the form's own id may be gone from
   *  them), else the form's nearest element with an id. */
  function homeOf(form) {
    if (form.closest("#controls")) return "controls";
    var home = form.closest("[id]");
    return home ? home.id : null;
  }

  function restoreFocus() {
    var id = focusHome;
    focusHome = null;
    var active = document.activeElement;
    if (!id || (active && active !== document.body)) return;
    if (id === BOARD_FOCUS) {
      // The board was swapped under the focus: back to the board (or, with
      // nothing to choose there, its primary control).
      if (window.parlourBoard) window.parlourBoard.focusPrimary();
      return;
    }
    var home = byId(id);
    if (home && home.closest("#controls") && window.parlourBoard) {
      // The seat's controls were replaced: to the new decision's primary control (the
      // board or Roll), not the first button left (often "Leave the match"); with no
      // decision, to the board. After this frame's other listeners (board.js reads the
      // new choices in its own), and only if nothing took the focus meanwhile.
      setTimeout(function () {
        var now = document.activeElement;
        if (now && now !== document.body) return;
        if (!window.parlourBoard.focusPrimary() || document.activeElement === document.body) {
          var board = byId("board");
          var here = board && board.parentElement;
          if (here && here.hasAttribute("tabindex")) here.focus({ preventScroll: true });
        }
      }, 0);
      return;
    }
    var target = home && home.querySelector("button:not([disabled]), input[type=submit]:not([disabled])");
    if (target) target.focus({ preventScroll: true });
  }

  // --- Countdown -----------------------------------------------------------------

  function arrivalTime(initial) {
    // The first page's clock was written when the server rendered it, which is
    // about when the response started arriving; later ones arrive as we read them.
    if (initial && window.performance && performance.getEntriesByType) {
      var nav = performance.getEntriesByType("navigation")[0];
      if (nav && nav.responseStart > 0) return nav.responseStart;
    }
    return performance.now();
  }

  /** Re-read #clock when it was replaced or its attributes changed. */
  function readClock(initial) {
    var el = byId("clock");
    if (!el) {
      clock.el = null;
      return;
    }
    var deadline = el.getAttribute("data-deadline") || "";
    var serverNow = el.getAttribute("data-server-now") || "";
    var key = deadline + "|" + serverNow;
    if (el === clock.el && key === clock.key) return; // unchanged: keep its arrival time
    clock.el = el;
    clock.key = key;
    clock.deadline = parseInt(deadline, 10);
    clock.serverNow = parseInt(serverNow, 10);
    clock.arrived = arrivalTime(initial);
    clock.text = null;
    tick();
  }

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function tick() {
    readClock(false);
    var el = clock.el;
    if (!el) return;
    if (isNaN(clock.deadline) || isNaN(clock.serverNow)) {
      el.classList.remove("urgent");
      return;
    }
    // Remaining on the server's clock: deadline - (server now + time since it arrived).
    var left = clock.deadline - clock.serverNow - (performance.now() - clock.arrived);
    if (left < 0) left = 0;
    var secs = Math.ceil(left / 1000);
    var text = pad(Math.floor(secs / 60)) + ":" + pad(secs % 60);
    if (text !== clock.text) {
      clock.text = text;
      el.textContent = text;
    }
    el.classList.toggle("urgent", left < URGENT_MS);
  }

  // --- Device settings (this browser only) -----------------------------------------

  function stored(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }

  function store(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch (e) {
      /* private mode or storage full: the setting lasts for this page only */
    }
  }

  function applyDiceStyle() {
    var body = document.body;
    DICE_STYLES.forEach(function (style) {
      body.classList.toggle("dice-" + style, style === settings.dice);
    });
  }

  function readForm(form) {
    var sound = form.elements.namedItem("sound");
    var dice = form.elements.namedItem("dice_style");
    var shortcuts = form.elements.namedItem("shortcuts");
    var autoroll = form.elements.namedItem("autoroll");
    if (autoroll) settings.autoroll = !!autoroll.checked;
    if (sound) settings.sound = !!sound.checked;
    if (dice && DICE_STYLES.indexOf(dice.value) >= 0) settings.dice = dice.value;
    if (shortcuts) settings.shortcuts = !!shortcuts.checked;
  }

  /** Parlour.setting(name): this device's "sound" (bool), "dice" ("pips" or
   *  "numbers") or "shortcuts" (bool: board keyboard shortcuts on, WCAG 2.1.4).
   *  A change fires "parlour:settings" on document. */
  window.Parlour.setting = function (name) {
    return settings[name];
  };

  function initSettings() {
    var sound = stored(KEYS.sound);
    var dice = stored(KEYS.dice);
    var shortcuts = stored(KEYS.shortcuts);
    if (shortcuts !== null) settings.shortcuts = shortcuts === "1";
    settings.autoroll = stored(KEYS.autoroll) === "1";
    var form = byId("device-settings");
    if (form) {
      var box = form.elements.namedItem("sound");
      var select = form.elements.namedItem("dice_style");
      var keys = form.elements.namedItem("shortcuts");
      if (box && sound !== null) box.checked = sound === "1";
      if (select && DICE_STYLES.indexOf(dice) >= 0) select.value = dice;
      if (keys) keys.checked = settings.shortcuts;
      var auto = form.elements.namedItem("autoroll");
      if (auto) auto.checked = settings.autoroll;
      readForm(form);
      form.addEventListener("change", function () {
        var wasOn = settings.sound;
        readForm(form);
        store(KEYS.sound, settings.sound ? "1" : "0");
        store(KEYS.dice, settings.dice);
        store(KEYS.shortcuts, settings.shortcuts ? "1" : "0");
        store(KEYS.autoroll, settings.autoroll ? "1" : "0");
        applyDiceStyle();
        autoRoll();
        if (settings.sound && !wasOn) playTone(); // also unlocks audio: this is a user gesture
        document.dispatchEvent(new CustomEvent("parlour:settings", { detail: { settings: settings } }));
      });
      form.addEventListener("submit", function (evt) {
        evt.preventDefault(); // nothing goes to the server
      });
    } else {
      if (sound !== null) settings.sound = sound === "1";
      if (DICE_STYLES.indexOf(dice) >= 0) settings.dice = dice;
    }
    applyDiceStyle();
  }

  // --- Auto-roll: the device's setting rolls when a roll is the seat's only choice ------

  var autoRollTimer = null;
  var autoRolledAt = null; // the version rolled for: never twice for one decision
  // Never two rolls in a row for a player who did nothing in between (no key, no tap):
  // an absent player's turns still run out and count as missed (docs/rules.md "Device
  // settings"), so auto-roll cannot keep them in a match they have left.
  var actedSinceAutoRoll = true;
  function playerActed(evt) {
    if (evt.isTrusted) actedSinceAutoRoll = true;
  }
  document.addEventListener("pointerdown", playerActed, true);
  document.addEventListener("keydown", playerActed, true);

  /** The seat's roll form when rolling is its only move (no other move form), else null. */
  function onlyRoll() {
    var controls = byId("controls");
    if (!controls || !controls.hasAttribute("data-my-turn")) return null;
    var forms = controls.querySelectorAll("form");
    var roll = null;
    for (var i = 0; i < forms.length; i++) {
      if (!isMoveForm(forms[i])) continue;
      var move = forms[i].querySelector('input[name="move"]');
      if (!move || move.value !== "roll" || roll) return null;
      roll = forms[i];
    }
    return roll;
  }

  /** With auto-roll on, roll AUTO_ROLL_MS after a decision that is only a roll arrives, if
   *  the player has pressed a key or tapped since the last roll it made. */
  function autoRoll() {
    clearTimeout(autoRollTimer);
    if (!settings.autoroll || !actedSinceAutoRoll || !onlyRoll()) return;
    var version = currentVersion();
    if (autoRolledAt === version) return;
    autoRollTimer = setTimeout(function () {
      var form = onlyRoll();
      var button = form && form.querySelector("button:not([disabled])");
      if (!button || !connected() || currentVersion() !== version || autoRolledAt === version
          || !actedSinceAutoRoll) return;
      autoRolledAt = version;
      actedSinceAutoRoll = false;
      button.click(); // as the player's own click: ws-send, the busy lock, the focus
    }, AUTO_ROLL_MS);
  }

  // --- Sound: a short tone, no audio files ---------------------------------------------

  function audio() {
    if (!audioCtx) {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return null;
      try {
        audioCtx = new Ctx();
      } catch (e) {
        return null;
      }
    }
    if (audioCtx.state === "suspended" && audioCtx.resume) {
      audioCtx.resume().catch(function () {});
    }
    return audioCtx;
  }

  /** Play notes [[start Hz, end Hz], ...], each ``step`` s apart, if sound is on. */
  function playNotes(notes, step, type) {
    if (!settings.sound) return;
    var ctx = audio();
    if (!ctx) return;
    for (var i = 0; i < notes.length; i++) {
      var t = ctx.currentTime + i * step;
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.type = type || "sine";
      osc.frequency.setValueAtTime(notes[i][0], t);
      osc.frequency.exponentialRampToValueAtTime(notes[i][1], t + 0.12);
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.18);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(t);
      osc.stop(t + 0.2);
    }
  }

  // Every change: one falling tone. Attention (static/js/attention.js) plays its own.
  function playTone() {
    playNotes([[880, 660]], 0.2);
  }

  /** Parlour.playNotes(notes, step, type): the page's tones, for attention.js. */
  window.Parlour.playNotes = playNotes;

  // Browsers start audio only from a user gesture: wake it on the first one.
  function unlockAudio() {
    if (settings.sound) audio();
    if (audioCtx && audioCtx.state === "running") {
      document.removeEventListener("pointerdown", unlockAudio, true);
      document.removeEventListener("keydown", unlockAudio, true);
    }
  }
  document.addEventListener("pointerdown", unlockAudio, true);
  document.addEventListener("keydown", unlockAudio, true);

  // --- Pushed forms ------------------------------------------------------------------------

  // Controls pushed over the socket were rendered without a request, so their
  // plain forms (leave, pause, resume) have no csrfmiddlewaretoken (parlour.js adds it).
  addCsrfTokens();

  // --- Start -----------------------------------------------------------------------------

  function init() {
    initSettings();
    showNewestMove();
    pinMoveList();
    // A tap on the newest-move line above a phone's board opens the whole move list.
    var last = byId("last-move");
    if (last) {
      last.addEventListener("click", function () {
        var tab = byId("tab-moves");
        if (tab && tab.getAttribute("aria-selected") !== "true") tab.click();
        var panel = byId("panel-moves");
        if (panel) panel.scrollIntoView({ block: "start" });
      });
    }
    var m = matchEl();
    if (m && window.htmx && m.hasAttribute("ws-connect")) setStatus("connecting", "Connecting…");
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
