/* Parlour arena page (templates/arenas/arena.html).
 *
 * Live through the htmx WebSocket extension (/ws/arena/<id>/): frames are
 * out-of-band swaps. A pushed standings row replaces its old copy in place
 * (or is added); this script then keeps the first page's table right:
 *
 *   <tbody id="arena-rows" data-live data-shown="100" data-me="arena-row-<id>">
 *
 * holds the first `data-shown` places of the standings, in order, and below
 * them, after a "…" row when places lie between, the viewer's own row
 * (`data-me`). Rows are ordered by data-token (a string whose order, code
 * point by code point, is the standings order: arenas/standings.py). Each
 * pushed row carries its true place, data-pos. The rows kept from before
 * are the first places of the players that did not move, so every row that
 * sorts before the last of them is in its place; after it, a pushed row is
 * kept only while its place follows on (data-pos is the next place), so a
 * row that falls below the shown places is dropped and one that rises into
 * them is put in. The ranks shown are the places (a disqualified player,
 * listed last, shows "–"); the own row below the table shows the rank it
 * came with (the socket sends it again when others pass it). A table
 * without data-live (a later page) is left as it was loaded.
 *
 * When the frame holds
 *   <div id="arena-redirect" data-href="/m/<id>/">
 * the page goes to that match at once. Forms pushed in the viewer's own
 * block get the page's CSRF token (parlour.js).
 */
import { addCsrfTokens } from "./parlour.js";

(function () {
  "use strict";

  // Compare by code point, as Python compares strings (not by UTF-16 unit).
  function compare(x, y) {
    if (x === y) return 0;
    var i = 0, j = 0;
    while (i < x.length && j < y.length) {
      var a = x.codePointAt(i), b = y.codePointAt(j);
      if (a !== b) return a < b ? -1 : 1;
      i += a > 0xffff ? 2 : 1;
      j += b > 0xffff ? 2 : 1;
    }
    return i < x.length ? 1 : j < y.length ? -1 : 0;
  }

  function gapRow() {
    var tr = document.createElement("tr");
    tr.className = "arena-gap";
    var td = document.createElement("td");
    td.colSpan = 6;
    td.textContent = "\u2026";
    tr.appendChild(td);
    return tr;
  }

  function place() {
    var body = document.getElementById("arena-rows");
    if (!body || !body.hasAttribute("data-live")) return;
    var shown = parseInt(body.getAttribute("data-shown"), 10) || Infinity;
    var meId = body.getAttribute("data-me") || "";
    var rows = Array.prototype.slice.call(body.querySelectorAll("tr[data-token]"));
    rows.sort(function (a, b) {
      return compare(a.getAttribute("data-token"), b.getAttribute("data-token"));
    });
    // The last row kept from before (seen) that was in the shown places.
    var lastKept = -1;
    rows.forEach(function (row, i) {
      if (row.hasAttribute("data-seen") && !row.hasAttribute("data-below")) lastKept = i;
    });
    Array.prototype.slice.call(body.querySelectorAll("tr.arena-gap")).forEach(function (gap) {
      gap.remove();
    });
    // n: the places known so far, from the first on (they may run past the
    // shown ones, to rank the own row just below them).
    var n = 0, chain = true, me = null;
    rows.forEach(function (row, i) {
      var isMe = meId !== "" && row.id === meId;
      var fresh = !row.hasAttribute("data-seen");
      if (chain && i > lastKept && (!fresh || Number(row.getAttribute("data-pos")) !== n + 1)) chain = false;
      row.setAttribute("data-seen", "");
      if (isMe) row.classList.add("is-me");
      if (chain) {
        n += 1;
        row.setAttribute("data-pos", String(n));
        var cell = row.querySelector("td.rank");
        if (cell) cell.textContent = row.classList.contains("is-disqualified") ? "\u2013" : String(n);
      }
      if (chain && n <= shown) {
        row.removeAttribute("data-below");
        body.appendChild(row);
      } else if (isMe) {
        row.setAttribute("data-below", "");
        me = row;
      } else {
        row.remove();
      }
    });
    if (n > shown) n = shown;
    if (me) {
      if (Number(me.getAttribute("data-pos")) > n + 1) body.appendChild(gapRow());
      body.appendChild(me);
    }
    var empty = body.querySelector("tr.arena-empty");
    if (empty && rows.length) empty.remove();
  }

  // The match this page is on its way to: every later message (the rows that
  // follow the redirect, in a busy arena many a second) must not start the
  // navigation again, which would abort the one under way.
  var following = null;

  function afterMessage() {
    place();
    var ready = document.querySelector("#arena-redirect[data-href]");
    var href = ready && ready.getAttribute("data-href");
    if (href && href !== following) {
      following = href;
      window.location.assign(href);
    }
  }

  // A row with no copy to replace (a player who just joined, or one below
  // the shown places): add it, and place() keeps it or drops it.
  document.addEventListener("htmx:oobErrorNoTarget", function (evt) {
    var row = evt.detail && evt.detail.content;
    var body = document.getElementById("arena-rows");
    if (body && body.hasAttribute("data-live") && row && row.tagName === "TR" &&
        /^arena-row-\d+$/.test(row.id || "")) {
      row.removeAttribute("hx-swap-oob");
      body.appendChild(row);
    }
  });
  document.addEventListener("htmx:wsAfterMessage", afterMessage);
  addCsrfTokens();
  place(); // mark the rows the page came with
})();
