/* Rondo chain composer (loaded with `defer` on Rondo match pages, after match.js).
 *
 * Without this file the seat's controls hold a plain form that posts the chain as
 * several "move" fields. With it, the player composes the chain on the board:
 * tap or click (or tab to and press Enter on) a highlighted space, pick its tiles
 * (a number face up, or one tile face down), see the running score, undo the last
 * placement, then send the whole chain as ONE message over the match socket:
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
 * #rondo-composer with #rondo-picker, #rondo-chain-list, #rondo-running, #rondo-undo,
 * #rondo-send. Only the seat's own controls carry its rack: nothing here reads another's.
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

  /** A highlighted space's words: "Place on I03, red 3". */
  function spaceWords(el) {
    return "Place on " + el.getAttribute("data-space") + ", " + el.getAttribute("data-colour") + " " +
      el.getAttribute("data-value");
  }

  function clearMarks() {
    var marked = document.querySelectorAll("#board .rb-can, #board .rb-pending, #board .rb-selected");
    for (var i = 0; i < marked.length; i++) {
      var el = marked[i];
      el.classList.remove("rb-can", "rb-pending", "rb-selected");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.removeAttribute("aria-label");
    }
  }

  function mark() {
    clearMarks();
    if (!st) return;
    st.chain.forEach(function (p) {
      var el = spaceEl(p.space);
      if (el) el.classList.add("rb-pending");
    });
    candidates().forEach(function (id) {
      var el = spaceEl(id);
      if (!el) return;
      el.classList.add("rb-can");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", spaceWords(el));
    });
    if (st.selected) {
      var sel = spaceEl(st.selected);
      if (sel) sel.classList.add("rb-selected");
    }
  }

  // --- The composer panel ---------------------------------------------------------

  function button(text, onClick, cls) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) b.className = cls;
    b.addEventListener("click", onClick);
    return b;
  }

  function renderPicker() {
    var picker = byId("rondo-picker");
    if (!picker) return;
    picker.textContent = "";
    if (!st.selected) return;
    var el = spaceEl(st.selected);
    var colour = el.getAttribute("data-colour");
    var value = el.getAttribute("data-value");
    var label = document.createElement("p");
    label.textContent = "Space " + st.selected + " (" + colour + " " + value + "):";
    picker.appendChild(label);
    affordable(st.selected).forEach(function (o) {
      picker.appendChild(button(o.l, pick.bind(null, o), o.d ? "rondo-down" : "rondo-up"));
    });
    picker.appendChild(button("Cancel", function () {
      st.selected = null;
      render();
    }, "secondary"));
    var first = picker.querySelector("button");
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
      li.textContent = p.faceDown
        ? p.space + ": 1 " + p.colour + " face down (0 points)"
        : p.space + ": " + p.count + " " + p.colour + " face up (" + p.points + " points)";
      list.appendChild(li);
      total += p.points;
    });
    byId("rondo-running").textContent = String(total);
    byId("rondo-undo").disabled = !st.chain.length || st.sending;
    byId("rondo-send").disabled = !st.chain.length || st.sending;
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

  function send() {
    if (!st.chain.length) return;
    var moves = st.chain.map(function (p) {
      return p.move;
    });
    moves.push("end");
    st.sending = true;
    render();
    if (window.Parlour && window.Parlour.send && window.Parlour.send({ moves: moves, version: st.version })) {
      setTimeout(function () {
        if (st && st.sending) {
          st.sending = false;
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

  /** The kind of the last frame swapped in (#frame-version's data-kind; match.js). */
  function frameKind() {
    var fv = byId("frame-version");
    return fv ? fv.getAttribute("data-kind") : null;
  }

  function setup() {
    var form = byId("rondo-chain-form");
    var board = byId("board");
    if (!form || !board || !board.classList.contains("rondo-board")) {
      st = null;
      clearMarks();
      return;
    }
    if (!st || st.form !== form) {
      st = {
        form: form,
        version: form.getAttribute("data-version"),
        rack: readRack(),
        chain: [],
        selected: null,
        sending: false,
      };
      var data = readTree();
      st.tree = data.tree || {};
      st.options = data.options || {};
      var nojs = form.querySelector(".rondo-nojs");
      var composer = byId("rondo-composer");
      if (nojs) nojs.hidden = true;
      if (composer) composer.hidden = false;
      byId("rondo-undo").addEventListener("click", undo);
      byId("rondo-send").addEventListener("click", send);
    } else if (st.sending && frameKind() === "error") {
      st.sending = false; // the answer was an error: the same controls stay in place
    } // else a public frame alone: the seat's own controls (the answer) are still on the way
    render();
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
        label: spaceWords(h.el),
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
      },
      cancel: function () {
        if (!st || st.sending) return;
        while (st.chain.length) undo();
        st.selected = null;
        render();
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
