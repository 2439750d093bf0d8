/* Parlour's sockets: one reconnect policy for every page that opens one.
 *
 * An ES module; DOM access only in its edges (below). The match, room, queue and arena
 * pages keep htmx's ws extension (htmx-ext-ws 2.0.4, a vendored classic script:
 * it swaps their frames) and ask this module what to do with its events; the
 * notifications socket (notify.js, its own JSON protocol) is opened here, by
 * openSocket(). Pure parts, unit-tested under `node --test` (static/js/tests/):
 *
 *   backoff(n, policy, random)  ms before the n-th retry in a row (n >= 1): full jitter,
 *                               floor + random() * min(cap, unit * 2^min(n - shift, doublings)),
 *                               rounded. The policies (MATCH, LOBBY, NOTIFY, NOTIFY_TRY_AGAIN)
 *                               are the pages' own numbers.
 *   closeVerdict(code, codes)   what a close means: "refused" (a 4xxx refusal, never
 *                               reconnect), "try-again" (4013), "going" (1000/1001, the page
 *                               leaves: notify only, when codes.stopCodes is given) or "retry".
 *   frameTags(text)             the #frame-version tags of a match frame: [{v: int, kind: str}].
 *   gateFrame(tags, versions)   the version gate of a match frame (see there).
 *   mayAskSnapshot(now, askedAt)  one snapshot request per SYNC_RETRY_MS.
 *   silence(quietMs, periodMs)  what a silence means under the server's heartbeat.
 *
 * Facts about ws.js 2.0.4 the pages rely on (read in its source):
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
 *
 * DOM edges: extensionSocket(elt), retryLater(evt) (htmx:wsClose with 4013),
 * openSocket(path, handlers); the page's close-code table (refusals(), tryAgainCode())
 * is read by parlour.js.
 */
import { tryAgainCode } from "./parlour.js";

/** Reconnect policies: ms = floor + random * min(cap, unit * 2^min(n - shift, doublings)). */
export const MATCH = { floor: 250, unit: 500, shift: 0, doublings: 10, cap: 10000 };
export const LOBBY = { floor: 500, unit: 1000, shift: 1, doublings: 3, cap: Infinity };
export const NOTIFY = { floor: 500, unit: 1000, shift: 1, doublings: 4, cap: Infinity };
export const NOTIFY_TRY_AGAIN = { floor: 2000, unit: 1000, shift: 1, doublings: 4, cap: Infinity };

/** Milliseconds before the n-th retry in a row (n >= 1) under ``policy``;
 *  ``random`` returns a number in [0, 1) (Math.random by default). */
export function backoff(n, policy, random = Math.random) {
  const p = policy || MATCH;
  const ceiling = Math.min(p.cap, p.unit * Math.pow(2, Math.min(n - p.shift, p.doublings)));
  return Math.round(p.floor + random() * ceiling);
}

/** What close ``code`` means for a page. ``codes``: {tryAgain: 4013, stopCodes?: [int]}.
 *  With stopCodes (the notifications socket's list) only those refuse and 1000/1001
 *  mean the page is going; without, every 4000-4999 code but tryAgain refuses.
 *  Returns "refused", "try-again", "going" or "retry". */
export function closeVerdict(code, codes) {
  const tryAgain = codes.tryAgain || 4013;
  if (codes.stopCodes) {
    if (codes.stopCodes.indexOf(code) !== -1) return "refused";
    if (code === 1000 || code === 1001) return "going";
    return code === tryAgain ? "try-again" : "retry";
  }
  if (code === tryAgain) return "try-again";
  if (code >= 4000 && code <= 4999) return "refused";
  return "retry";
}

// --- The match page's version gate -------------------------------------------
// Frame kinds (data-kind on #frame-version; an update has none, to save its
// bytes in every update): "snapshot" (the whole public position, replaces the
// move list), "update" (one change: the parts it changed and its moves, appended
// to the list; games/frames/wire.py), "seat" (this seat's controls), "error" (this
// socket only). Public and seat frames travel separately: each keeps its own version.

/** Every #frame-version tag of a frame's text: [{v: int, kind: str}]. */
export function frameTags(text) {
  const re = /<[^>]*\bid="frame-version"[^>]*>/g;
  const tags = [];
  let m;
  while ((m = re.exec(text))) {
    const v = /\bdata-version="(\d+)"/.exec(m[0]);
    const k = /\bdata-kind="(\w+)"/.exec(m[0]);
    if (v) tags.push({ v: parseInt(v[1], 10), kind: k ? k[1] : "update" });
  }
  return tags;
}

/** Whether every tag is the snapshot (public or seat) at ``version``: the page as rendered. */
export function isRenderedSnapshot(tags, version) {
  return tags.every((t) => (t.kind === "snapshot" || t.kind === "seat") && t.v === version);
}

/** The version gate of one frame's tags, given the page's {pub, seat} versions.
 *  Returns {verdict, next}: verdict "error" (an error frame: always shown), "stale"
 *  (an old snapshot or seat frame: not swapped, but it counts for the snapshot),
 *  "old" (an update already applied: dropped), "gap" (an update past the next
 *  version: dropped, ask for a snapshot) or "apply"; next = {pub, seat, update,
 *  answer} (versions or null; update: an update frame; answer: a snapshot or seat
 *  frame, which answers a sent move). */
export function gateFrame(tags, versions) {
  const next = { pub: null, seat: null, update: false, answer: false };
  for (const t of tags) {
    if (t.kind === "error") return { verdict: "error", next };
    if (t.kind === "snapshot") {
      if (t.v < versions.pub) return { verdict: "stale", next };
      next.pub = t.v;
      next.answer = true;
    } else if (t.kind === "seat") {
      if (t.v < versions.seat) return { verdict: "stale", next };
      next.seat = t.v;
      next.answer = true;
    } else {
      // An update carries only what its change changed (games/frames/wire.py): apply
      // each version once, in order. One that does not follow the page's own
      // (a frame went missing) is not applied: the page asks for a snapshot.
      if (t.v <= versions.pub) return { verdict: "old", next };
      if (t.v > versions.pub + 1) return { verdict: "gap", next };
      next.pub = t.v;
      next.update = true;
    }
  }
  return { verdict: "apply", next };
}

// --- The match socket's heartbeat -------------------------------------------------

/** A frame that only says the connection is alive (games.frames.wire.HEARTBEAT_FRAME). */
export const HEARTBEAT_FRAME = '<div id="heartbeat" hidden></div>';
/** No frame for the heartbeat period and this much more: the connection is not live. */
export const SILENCE_GRACE_MS = 3000;

/** What ``quietMs`` without a frame means under the server's heartbeat period ``periodMs``
 *  (0: none, never silent): "drop" (past twice the period and SILENCE_GRACE_MS: close the
 *  socket and reconnect, a connection can die without the socket closing), "silent"
 *  (past the period and SILENCE_GRACE_MS: not live) or "ok". */
export function silence(quietMs, periodMs) {
  if (!periodMs) return "ok";
  const limit = periodMs + SILENCE_GRACE_MS;
  if (quietMs > 2 * limit) return "drop";
  return quietMs > limit ? "silent" : "ok";
}

/** One request for a snapshot at a time (a burst of later updates would each ask). */
export const SYNC_RETRY_MS = 3000;

/** Whether a snapshot may be asked for at ``now`` (ms) when the last ask was at ``askedAt``. */
export function mayAskSnapshot(now, askedAt) {
  return now - askedAt >= SYNC_RETRY_MS;
}

// --- DOM edges ---------------------------------------------------------------

/** The socket htmx's ws extension currently holds for ``elt`` (its internal data), if any. */
export function extensionSocket(elt) {
  const data = elt && elt["htmx-internal-data"];
  return data && data.webSocket ? data.webSocket.socket : null;
}

// 4013s in a row per socket element (htmx's ws extension), reset when a socket opens.
const tryAgains = new WeakMap();
if (typeof document !== "undefined") {
  document.addEventListener("htmx:wsOpen", (evt) => tryAgains.delete(evt.target));
}

/** For an htmx:wsClose with the try-again code: reconnect after a jittered delay growing
 *  with each 4013 in a row (LOBBY, or htmx.config.wsReconnectDelay when a page sets one),
 *  which the ws extension does by itself only after 1006, 1011, 1012 and 1013.
 *  True when it took the close in hand. */
export function retryLater(evt) {
  const closeEvent = evt.detail && evt.detail.event;
  const wrapper = evt.detail && evt.detail.socketWrapper;
  if (!closeEvent || closeEvent.code !== tryAgainCode() || !wrapper) return false;
  const elt = evt.target;
  const n = (tryAgains.get(elt) || 0) + 1;
  tryAgains.set(elt, n);
  const delay = window.htmx.config.wsReconnectDelay;
  const ms = typeof delay === "function" ? delay(n) : backoff(n, LOBBY);
  setTimeout(() => {
    if (document.body.contains(elt) && elt.hasAttribute("ws-connect")) wrapper.reconnect();
  }, ms);
  return true;
}

/** A plain WebSocket to ``path`` on this host that reconnects: after a drop with
 *  NOTIFY's backoff (NOTIFY_TRY_AGAIN after the try-again code), never after a
 *  refusal (a code in handlers.stopCodes) or 1000/1001. handlers: {stopCodes: [int],
 *  tryAgain: int, open(ws), message(evt), close(evt), refused(code)}; close runs on
 *  every close, refused after it for a refusal. Returns {current(): WebSocket}. */
export function openSocket(path, handlers) {
  const codes = { stopCodes: handlers.stopCodes, tryAgain: handlers.tryAgain };
  let socket = null;
  let tries = 0;
  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(scheme + "//" + window.location.host + path);
    socket = ws;
    ws.onopen = () => {
      tries = 0;
      handlers.open(ws);
    };
    ws.onmessage = handlers.message;
    ws.onclose = (evt) => {
      handlers.close(evt);
      const verdict = closeVerdict(evt.code, codes);
      if (verdict === "refused") {
        handlers.refused(evt.code);
        return; // refused: reconnecting would be refused again
      }
      if (verdict === "going") return; // the page is going
      tries += 1;
      setTimeout(connect, backoff(tries, verdict === "try-again" ? NOTIFY_TRY_AGAIN : NOTIFY));
    };
  }
  connect();
  return { current: () => socket };
}
