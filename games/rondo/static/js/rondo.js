/* Rondo chain composer (loaded with `defer` on Rondo match pages, after match.js).
 *
 * Without this file the seat's controls hold a plain form that posts the chain as
 * several "move" fields. With it, the player composes the chain on the board:
 * tap or click (or tab to and press Enter on) a highlighted space, pick its tiles
 * (a number face up, or one tile face down), see the running score and each
 * placement's tiles drawn on its space, undo the last placement or clear the whole
 * chain, then send the whole chain as ONE message over the match socket:
 *   {"moves": ["place I03 2", "place I04 down red", "end"], "version": "N"}
 * (window.Parlour.send, from match.js). The server checks the chain and applies it
 * all or nothing; when the socket is closed the plain form is filled and posted.
 *
 * A tap picks the nearest highlighted space within reach (at least 22 px); where
 * highlighted spaces sit closer together than 44 px on screen (23 to 25 px apart
 * on a 390 px phone) a tap between them asks "Which one?" instead of guessing
 * (window.parlourBoard.crowd and ask, static/js/board.js): one button per space,
 * in its words ("Place on I03, red 3"), and choosing one opens its tiles.
 *
 * Which spaces the chain may take next and which tiles each space takes are the
 * engine's, sent in the seat's own frame (#rondo-tree: a tree of the space paths
 * the chain rule allows, and each space's placements with the tiles they use;
 * games/rondo/templatetags/rondo_tags.py): this page re-implements no rule, it
 * only counts the tiles the chain has used.
 *
 * DOM contract: #board with g.rb-space[data-space data-colour data-value];
 * #rondo-chain-form[data-version] holding #rondo-tree; #rondo-rack li[data-tile-colour];
 * #rondo-composer with #rondo-help[data-more] (the long help, for the board's keys box),
 * #rondo-picker, #rondo-chain-list, #rondo-running (and #rondo-points, its word), #rondo-undo,
 * #rondo-clear (hidden while the chain is empty), #rondo-send;
 * #rondo-controls.is-picking while the picker is open (rondo.css hides the rest).
 * On the board (this page only, never the public markup): .rb-can on the spaces the chain
 * may take and their rings in g.rb-halos (circle.rb-halo[data-halo-space], .is-focus,
 * .is-selected) under g.rb-spaces; .rb-pending on the chain's spaces, each holding its
 * tiles' preview (g.rb-tile.rb-preview).
 * Only the seat's own controls carry its rack: nothing here reads another's.
 * Keyboard: window.parlourBoard's shortcuts (static/js/board.js) act here too.
 */
(function () {
  "use strict";
  if (window.RondoComposer) return;

  var COLOURS = ["yellow", "red", "purple", "blue", "green"];
  var st = null;

  function byId(id) {
    return document.getElementById(id);
  }

  function spaceEl(id) {
    return byId("rs-" + id);
  }

  function readRack() {
    var rack = {};
    COLOURS.forEach(function (c) {
      rack[c] = 0;
    });
    var chips = document.querySelectorAll("#rondo-rack [data-tile-colour]");
    for (var i = 0; i < chips.length; i++) {
      var c = chips[i].getAttribute("data-tile-colour");
      if (c in rack) rack[c] += 1;
    }
    return rack;
  }

  function readTree() {
    var el = byId("rondo-tree");
    try {
      return JSON.parse((el && el.textContent) || "{}");
    } catch (e) {
      return {};
    }
  }

  /** The placements on ``id`` the tiles left on the rack still cover (server-listed). */
  function affordable(id) {
    return (st.options[id] || []).filter(function (o) {
      return st.rack[o.c] >= o.n;
    });
  }

  /** Spaces the next placement may go on: the engine's tree, after the chain so far. */
  function candidates() {
    var node = st.tree;
    for (var i = 0; i < st.chain.length && node; i++) node = node[st.chain[i].space];
    return Object.keys(node || {}).filter(function (id) {
      return affordable(id).length > 0;
    });
  }

  // --- The board: highlight where the chain may go -------------------------------
  // Only from this seat's own frame (#rondo-tree): where a seat may place face up
  // tells its colours, so the public board never carries these highlights.

  /** A highlighted space's words, as the board shows it: "Place on red 3 (I03)". */
  function placeWords(el) {
    return "Place on " + el.getAttribute("data-colour") + " " + el.getAttribute("data-value") + " (" +
      el.getAttribute("data-space") + ")";
  }

  var SVG = "http://www.w3.org/2000/svg";
  var LETTERS = { yellow: "Y", red: "R", purple: "P", blue: "B", green: "G" };

  function svgEl(tag, attrs) {
    var el = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) {
      el.setAttribute(k, attrs[k]);
    });
    return el;
  }

  /** A placement's tiles drawn on its space as the board will show them once sent
   *  (the same shapes as games/rondo/templates/games/rondo/board.html's tiles): a
   *  square in the tile's colour with its letter, the stack's other tiles under it;
   *  face down, the dark back with a diamond. */
  function previewTile(p) {
    var g = svgEl("g", { "class": "rb-tile rb-preview" + (p.faceDown ? " rb-down" : " c-" + p.colour) });
    var step = 0.07;
    for (var k = Math.min(p.count, 4) - 1; k > 0; k--) {
      var at = String(k * step - 0.34);
      g.appendChild(svgEl("rect", { "class": "rb-under", x: at, y: at, width: ".68", height: ".68", rx: ".1" }));
    }
    g.appendChild(svgEl("rect", { "class": "rb-face", x: "-.34", y: "-.34", width: ".68", height: ".68", rx: ".1" }));
    if (p.faceDown) {
      g.appendChild(svgEl("rect", { "class": "rb-back", x: "-.22", y: "-.22", width: ".44", height: ".44", rx: ".05" }));
      g.appendChild(svgEl("path", { "class": "rb-back", d: "M0 -.13L.13 0L0 .13L-.13 0Z" }));
    } else {
      var t = svgEl("text", { "class": "rb-tl" });
      t.textContent = LETTERS[p.colour] || "";
      g.appendChild(t);
    }
    return g;
  }

  function clearMarks() {
    var added = document.querySelectorAll("#board .rb-halos, #board .rb-preview");
    for (var h = 0; h < added.length; h++) added[h].parentNode.removeChild(added[h]);
    var marked = document.querySelectorAll("#board .rb-can, #board .rb-pending, #board .rb-selected");
    for (var i = 0; i < marked.length; i++) {
      var el = marked[i];
      el.classList.remove("rb-can", "rb-pending", "rb-selected");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.removeAttribute("aria-label");
    }
  }

  /** The ring of a highlighted space, by the space's id (in the rings' layer). */
  function haloOf(id) {
    return document.querySelector('#board .rb-halo[data-halo-space="' + id + '"]');
  }

  function mark() {
    clearMarks();
    if (!st) return;
    st.chain.forEach(function (p) {
      var el = spaceEl(p.space);
      if (!el) return;
      el.classList.add("rb-pending");
      el.appendChild(previewTile(p));
    });
    // The rings of the spaces the chain may take, in a layer of their own under every
    // space (rondo.css): a neighbouring space is drawn over a ring, never under it.
    var spacesLayer = document.querySelector("#board .rb-spaces");
    var halos = svgEl("g", { "class": "rb-halos" });
    candidates().forEach(function (id) {
      var el = spaceEl(id);
      if (!el) return;
      el.classList.add("rb-can");
      var m = el.transform.baseVal.consolidate();
      halos.appendChild(svgEl("circle", { "class": "rb-halo", "data-halo-space": id, r: "0.6",
        cx: String(m ? m.matrix.e : 0), cy: String(m ? m.matrix.f : 0) }));
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", placeWords(el));
    });
    if (spacesLayer) spacesLayer.parentNode.insertBefore(halos, spacesLayer);
    if (st.selected) {
      var sel = spaceEl(st.selected);
      if (sel) sel.classList.add("rb-selected");
      var ring = haloOf(st.selected);
      if (ring) ring.classList.add("is-selected");
    }
    var active = document.activeElement;
    var focused = active && active.classList && active.classList.contains("rb-can") ? haloOf(spaceFrom(active)) : null;
    if (focused) focused.classList.add("is-focus");
  }

  // The focused space's ring is drawn thicker (its space sits in another layer).
  document.addEventListener("focusin", function (evt) {
    var id = spaceFrom(evt.target);
    var ring = id ? haloOf(id) : null;
    if (ring) ring.classList.add("is-focus");
  });
  document.addEventListener("focusout", function (evt) {
    var id = spaceFrom(evt.target);
    var ring = id ? haloOf(id) : null;
    if (ring) ring.classList.remove("is-focus");
  });

  // --- The composer panel ---------------------------------------------------------

  function button(text, onClick, cls) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) b.className = cls;
    b.addEventListener("click", onClick);
    return b;
  }

  function plural(n, word) {
    return n + " " + word + (n === 1 ? "" : "s");
  }

  function capital(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  /** A space as the board shows it: "Purple 1" (its code goes in a title). */
  function spaceWords(id) {
    var el = spaceEl(id);
    return capital(el.getAttribute("data-colour")) + " " + el.getAttribute("data-value");
  }

  /** A placement in words: "2 purple face up (2 points)", "1 red face down (a bridge, 0 points)". */
  function words(o) {
    return o.d ? "1 " + o.c + " face down (a bridge, 0 points)" : o.n + " " + o.c + " face up (" + plural(o.p, "point") + ")";
  }

  /** One row of the picker: its words, then a 48 px button per placement. */
  function pickRow(title, opts, face) {
    var row = document.createElement("div");
    row.className = "rondo-pick-row";
    var name = document.createElement("span");
    name.className = "rondo-pick-kind";
    name.textContent = title;
    row.appendChild(name);
    opts.forEach(function (o) {
      var b = button("", pick.bind(null, o), o.d ? "rondo-down c-" + o.c : "rondo-up");
      b.setAttribute("aria-label", words(o));
      b.title = words(o);
      face(o).forEach(function (part, i) {
        var span = document.createElement("span");
        span.className = i ? "rondo-pick-small" : "rondo-pick-big";
        span.textContent = part;
        b.appendChild(span);
      });
      row.appendChild(b);
    });
    return row;
  }

  /** The tiles for the chosen space, shown in place of the help: face-up counts
   *  in one row, face-down colours in the next, Cancel (last) beside the space's name. */
  function renderPicker() {
    var picker = byId("rondo-picker");
    if (!picker) return;
    picker.textContent = "";
    var controls = byId("rondo-controls");
    if (controls) controls.classList.toggle("is-picking", !!st.selected);
    picker.hidden = !st.selected;
    if (!st.selected) return;
    var head = document.createElement("p");
    head.className = "rondo-pick-head";
    var what = document.createElement("span");
    what.textContent = "On " + spaceWords(st.selected).toLowerCase() + ", place:";
    what.title = "Space " + st.selected;
    head.appendChild(what);
    picker.appendChild(head);
    var opts = affordable(st.selected);
    var up = opts.filter(function (o) { return !o.d; });
    var down = opts.filter(function (o) { return o.d; });
    if (up.length) {
      picker.appendChild(pickRow("Face up", up, function (o) {
        return [String(o.n), plural(o.p, "pt")];
      }));
    }
    if (down.length) {
      picker.appendChild(pickRow("Face down, 0 pts", down, function (o) {
        return [o.c.charAt(0).toUpperCase()];
      }));
    }
    // Last in the tab order (after the tiles), shown beside the space's name (rondo.css).
    picker.appendChild(button("Cancel", function () {
      st.selected = null;
      render();
      var back = spaceEl(st.lastChosen);
      if (back && back.classList.contains("rb-can")) back.focus();
    }, "secondary rondo-cancel"));
    var first = picker.querySelector(".rondo-up, .rondo-down");
    if (first) first.focus();
  }

  function render() {
    var list = byId("rondo-chain-list");
    if (!list) return;
    list.textContent = "";
    var total = 0;
    st.chain.forEach(function (p) {
      var li = document.createElement("li");
      li.setAttribute("data-chain-space", p.space);
      li.title = "Space " + p.space;
      li.textContent = spaceWords(p.space) + ": " + words({ d: p.faceDown, c: p.colour, n: p.count, p: p.points });
      list.appendChild(li);
      total += p.points;
    });
    byId("rondo-running").textContent = String(total);
    var unit = byId("rondo-points");
    if (unit) unit.textContent = total === 1 ? "point" : "points";
    byId("rondo-undo").disabled = !st.chain.length || st.sending;
    // Clear: shown once the chain holds a placement (one row with Undo and Send on a phone).
    var clear = byId("rondo-clear");
    if (clear) {
      clear.hidden = !st.chain.length;
      clear.disabled = !st.chain.length || st.sending;
    }
    byId("rondo-send").disabled = !st.chain.length || st.sending;
    // While a chain is on its way, drawing instead would be refused as out of date.
    var draw = byId("rondo-draw-button");
    if (draw) draw.disabled = st.sending;
    // Dim the rack's tiles the chain uses (the last ones of each colour).
    var used = {};
    var chips = document.querySelectorAll("#rondo-rack [data-tile-colour]");
    COLOURS.forEach(function (c) {
      used[c] = 0;
    });
    for (var k = 0; k < chips.length; k++) {
      var c = chips[k].getAttribute("data-tile-colour");
      used[c] += 1;
      chips[k].classList.toggle("rb-used", used[c] > st.rack[c]);
    }
    renderPicker();
    mark();
  }

  function pick(o) {
    st.chain.push({
      space: st.selected,
      count: o.d ? 0 : o.n,
      colour: o.c,
      faceDown: o.d,
      points: o.p,
      move: o.m,
    });
    st.rack[o.c] -= o.n;
    st.selected = null;
    render();
    var next = document.querySelector("#board .rb-can") || byId("rondo-send");
    if (next) next.focus();
  }

  function choose(id) {
    if (!st || st.sending || candidates().indexOf(id) < 0) return;
    st.selected = id;
    st.lastChosen = id;
    render();
  }

  function undo() {
    if (st.selected) {
      st.selected = null;
      render();
      return;
    }
    var p = st.chain.pop();
    if (p) st.rack[p.colour] += p.count || 1;
    st.selected = null;
    render();
  }

  /** Take back the whole chain (the Clear chain button and the board's Esc). */
  function clearChain() {
    if (!st || st.sending) return;
    while (st.chain.length) undo();
    st.selected = null;
    render();
  }

  function send() {
    if (!st.chain.length) return;
    var moves = st.chain.map(function (p) {
      return p.move;
    });
    moves.push("end");
    st.sending = true;
    render();
    if (window.Parlour && window.Parlour.send && window.Parlour.send({ moves: moves, version: st.version })) {
      // No answer in 10 s: this send's composer opens again. Only this send's: the
      // timer of an earlier send (another chain's, or this chain's refused one) must
      // not open the composer while a later send's answer is on the way (CI: a
      // chain sent twice, the second refused as out of date).
      var sent = st;
      var token = (st.sends = (st.sends || 0) + 1);
      setTimeout(function () {
        if (st === sent && sent.sends === token && sent.sending) {
          sent.sending = false;
          render();
        }
      }, 10000);
      return;
    }
    // No socket: post the plain form with the same chain.
    var form = st.form;
    var fields = form.querySelectorAll("[name=move]");
    var rows = [];
    for (var i = 0; i < fields.length; i++) if (fields[i].type !== "hidden") rows.push(fields[i]);
    rows.forEach(function (f, n) {
      var value = n < moves.length - 1 ? moves[n] : "";
      if (f.tagName === "SELECT" && value && !f.querySelector('option[value="' + value + '"]')) {
        var opt = document.createElement("option");
        opt.value = value;
        f.appendChild(opt);
      }
      f.value = value;
    });
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  }

  // --- Set up after every swap ---------------------------------------------------

  function setup() {
    var form = byId("rondo-chain-form");
    var board = byId("board");
    if (!form || !board || !board.classList.contains("rondo-board")) {
      st = null;
      clearMarks();
      return;
    }
    var tree = byId("rondo-tree");
    var text = tree ? tree.textContent : "";
    if (st && st.form !== form && !st.sending && form.getAttribute("data-version") === st.version &&
        text === st.text) {
      // The same decision again (the socket's first snapshot, just after the page
      // loaded): keep the chain composed so far and the open picker.
      st.form = form;
      prepare(form);
    } else if (!st || st.form !== form) {
      st = {
        form: form,
        version: form.getAttribute("data-version"),
        text: text,
        rack: readRack(),
        chain: [],
        selected: null,
        sending: false,
      };
      var data = readTree();
      st.tree = data.tree || {};
      st.options = data.options || {};
      prepare(form);
    } else if (st.sending && window.parlourBoard && window.parlourBoard.frameKind() === "error") {
      st.sending = false; // the answer was an error: the same controls stay in place
    } // else a public frame alone: the seat's own controls (the answer) are still on the way
    render();
  }

  /** A new chain form: the composer in place of the plain form, its buttons wired. */
  function prepare(form) {
    var nojs = form.querySelector(".rondo-nojs");
    var composer = byId("rondo-composer");
    if (nojs) nojs.hidden = true;
    if (composer) composer.hidden = false;
    var help = byId("rondo-help");
    if (help && window.parlourBoard && window.parlourBoard.help) {
      window.parlourBoard.help(help.getAttribute("data-more"));
    }
    byId("rondo-undo").addEventListener("click", undo);
    var clear = byId("rondo-clear");
    if (clear) {
      clear.addEventListener("click", function () {
        clearChain();
        // The button is hidden now: focus goes to the board's first space, not the page.
        keepFocus();
      });
    }
    byId("rondo-send").addEventListener("click", send);
  }

  function spaceFrom(target) {
    var g = target && target.closest ? target.closest("#board .rb-space") : null;
    return g ? g.getAttribute("data-space") : null;
  }

  /** The highlighted spaces as spots for parlourBoard.crowd: client px, each disc's radius. */
  function spots() {
    return spaces().map(function (el) {
      var disc = el.querySelector(".rb-disc") || el;
      var r = disc.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2, r: r.width / 2, el: el };
    });
  }

  /** A space's picture for the chooser: its colour around its value, as on the board. */
  function spaceCue(el) {
    var cue = document.createElement("span");
    cue.className = "bd-cue-space c-" + el.getAttribute("data-colour");
    cue.setAttribute("aria-hidden", "true");
    cue.textContent = el.getAttribute("data-value");
    return cue;
  }

  document.addEventListener("click", function (evt) {
    var B = window.parlourBoard;
    var onBoard = evt.target && evt.target.closest ? evt.target.closest("#board svg") : null;
    if (!st || st.sending || !onBoard || !B || !B.crowd) {
      var id = spaceFrom(evt.target);
      if (id) choose(id);
      return;
    }
    var hits = B.crowd(evt.clientX, evt.clientY, spots());
    if (!hits.length) return;
    if (hits.length === 1) {
      choose(hits[0].el.getAttribute("data-space"));
      return;
    }
    var mine = st;
    B.ask(evt, hits.map(function (h) {
      var id = h.el.getAttribute("data-space");
      return {
        label: placeWords(h.el),
        cue: spaceCue(h.el),
        mark: "#rs-" + CSS.escape(id),
        act: function () {
          if (st === mine) choose(id);
        },
      };
    }), function () {
      return st !== mine || !mine.form.isConnected || mine.sending;
    });
  });

  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Enter" && evt.key !== " ") return;
    var id = spaceFrom(evt.target);
    if (id) {
      evt.preventDefault();
      choose(id);
    }
  });

  // The board's keyboard shortcuts (static/js/board.js) drive this composer.
  function spaces() {
    return Array.prototype.slice.call(document.querySelectorAll("#board .rb-can"));
  }

  function step(dir) {
    var list = spaces();
    if (!list.length) return;
    var at = list.indexOf(document.activeElement);
    list[(at < 0 ? (dir > 0 ? 0 : list.length - 1) : at + dir + list.length) % list.length].focus();
  }

  /** After a key took a placement back, focus stays on the board: the space that
   *  held it lost its highlight (and its tabindex), which dropped focus to the page. */
  function keepFocus() {
    var active = document.activeElement;
    if (active && active !== document.body && document.body.contains(active) && active.closest("#board, .board-stage")) {
      return;
    }
    var next = document.querySelector("#board .rb-can");
    var board = byId("board");
    if (next) next.focus({ preventScroll: true });
    else if (board && board.parentElement) board.parentElement.focus({ preventScroll: true });
  }

  if (window.parlourBoard) {
    window.parlourBoard.register({
      active: function () {
        return !!st;
      },
      next: step,
      cycle: step,
      enter: function (target) {
        if (!st || st.sending || spaceFrom(target)) return; // a space: its own handler (below)
        if (st.chain.length) send();
        else step(1);
      },
      undo: function () {
        if (st && !st.sending) undo();
        keepFocus();
      },
      cancel: function () {
        if (!st || st.sending) return;
        clearChain();
        keepFocus();
      },
    });
  }

  document.addEventListener("htmx:wsAfterMessage", setup);
  document.addEventListener("htmx:afterSettle", setup);
  window.RondoComposer = { setup: setup };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
