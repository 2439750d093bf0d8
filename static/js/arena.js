/* Parlour arena page (templates/arenas/arena.html).
 *
 * Live through the htmx WebSocket extension (/ws/arena/<id>/): frames are
 * out-of-band swaps. A pushed standings row replaces its old copy in place;
 * this script then moves each row to its place by data-token (a string whose
 * order is the standings order, arenas/standings.py) and renumbers the ranks
 * (a disqualified player's row shows "–"). When the frame holds
 *   <div id="arena-redirect" data-href="/m/<id>/">
 * the page goes to that match at once.
 */
(function () {
  "use strict";

  function place() {
    var body = document.getElementById("arena-rows");
    if (!body) return;
    var rows = Array.prototype.slice.call(body.querySelectorAll("tr[data-token]"));
    rows.sort(function (a, b) {
      var x = a.getAttribute("data-token"), y = b.getAttribute("data-token");
      return x < y ? -1 : x > y ? 1 : 0;
    });
    var rank = 0;
    rows.forEach(function (row) {
      body.appendChild(row);
      var cell = row.querySelector("td.rank");
      if (!cell) return;
      if (row.classList.contains("is-disqualified")) {
        cell.textContent = "\u2013";
      } else {
        rank += 1;
        cell.textContent = String(rank);
      }
    });
    var empty = body.querySelector("tr.arena-empty");
    if (empty && rows.length) empty.remove();
  }

  function afterMessage() {
    place();
    var ready = document.querySelector("#arena-redirect[data-href]");
    if (ready) window.location.assign(ready.getAttribute("data-href"));
  }

  // A row for a player who just joined has no copy to replace: append it,
  // and place() puts it in its place.
  document.addEventListener("htmx:oobErrorNoTarget", function (evt) {
    var row = evt.detail && evt.detail.content;
    var body = document.getElementById("arena-rows");
    if (body && row && row.tagName === "TR" && /^arena-row-\d+$/.test(row.id || "")) {
      row.removeAttribute("hx-swap-oob");
      body.appendChild(row);
    }
  });
  document.addEventListener("htmx:wsAfterMessage", afterMessage);
})();
