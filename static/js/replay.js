/* Parlour replay page: arrow keys on top of plain links (templates/games/replay.html).
 * ← / → previous and next ply, Home / End first and last. Without JavaScript the
 * links (?ply=N) work the same. Keys typed into a form field are left alone.
 */
(function () {
  "use strict";

  var KEYS = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };

  document.addEventListener("keydown", function (event) {
    var id = KEYS[event.key];
    if (!id || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    var target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) {
      return;
    }
    var link = document.getElementById(id);
    if (!link || link.getAttribute("aria-disabled") === "true") {
      return;
    }
    event.preventDefault();
    window.location.assign(link.href);
  });
})();
