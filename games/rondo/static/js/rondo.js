/* Rondo chain composer (loaded with `defer` on Rondo match pages, after match.js).
 *
 * Without this file the seat's controls hold a plain form that posts the chain as
 * several "move" fields. With it, the player composes the chain on the board:
 * click (or tab to and press Enter on) a highlighted space, pick its tiles (a number
 * face up, or one tile face down), see the running score, undo the last placement,
 * then send the whole chain as ONE message over the match socket:
 *   {"moves": ["place I03 2", "place I04 down red", "end"], "version": "N"}
 * (window.Parlour.send, from match.js). The server checks the chain and applies it
 * all or nothing; when the socket is closed the plain form is filled and posted.
 *
 * DOM contract: #board[data-edges data-one-change data-occupied] with
 * g.rb-space[data-space data-colour data-value]; #rondo-chain-form[data-first
 * data-version]; #rondo-rack li[data-tile-colour]; #rondo-composer with
 * #rondo-picker, #rondo-chain-list, #rondo-running, #rondo-undo, #rondo-send.
 * Only the seat's own controls carry its rack: nothing here reads another's.
 */
(function () {
  "use strict";
  if (window.RondoComposer) return;

  var COLOURS = ["yellow", "red", "purple", "blue", "green"];
  var st = null;

  function byId(id) {
    return document.getElementById(id);
  }

  function words(s) {
    return (s || "").split(/\s+/).filter(Boolean);
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

  function parseEdges(board) {
    var nb = {};
    (board.getAttribute("data-edges") || "").split(";").forEach(function (e) {
      var p = words(e);
      if (p.length !== 3) return;
      var kind = p[2] === "ri" ? "ring" : "radial";
      (nb[p[0]] = nb[p[0]] || []).push([p[1], kind]);
      (nb[p[1]] = nb[p[1]] || []).push([p[0], kind]);
    });
    return nb;
  }

  function rackTotal() {
    var n = 0;
    COLOURS.forEach(function (c) {
      n += st.rack[c];
    });
    return n;
  }

  function inChain(id) {
    return st.chain.some(function (p) {
      return p.space === id;
    });
  }

  /** Spaces the next placement may go on (the server checks again). */
  function candidates() {
    if (!rackTotal() || st.chain.length >= 5) return [];
    if (!st.chain.length) return st.first.slice();
    var last = st.chain[st.chain.length - 1].space;
    var kinds = [];
    for (var i = 1; i < st.chain.length; i++) kinds.push(st.chain[i].edge);
    var lastKind = kinds.length ? kinds[kinds.length - 1] : null;
    var changed = false;
    for (var j = 1; j < kinds.length; j++) if (kinds[j] !== kinds[j - 1]) changed = true;
    return (st.edges[last] || [])
      .filter(function (e) {
        if (st.occupied[e[0]] || inChain(e[0])) return false;
        return !(st.oneChange && changed && lastKind && e[1] !== lastKind);
      })
      .map(function (e) {
        return e[0];
      });
  }

  function edgeKind(a, b) {
    var list = st.edges[a] || [];
    for (var i = 0; i < list.length; i++) if (list[i][0] === b) return list[i][1];
    return null;
  }

  // --- The board: highlight where the chain may go -------------------------------

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
      el.setAttribute(
        "aria-label",
        "Place on " + id + ", " + el.getAttribute("data-colour") + " " + el.getAttribute("data-value")
      );
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
    var value = parseInt(el.getAttribute("data-value"), 10);
    var label = document.createElement("p");
    label.textContent = "Space " + st.selected + " (" + colour + " " + value + "):";
    picker.appendChild(label);
    for (var n = 1; n <= st.rack[colour]; n++) {
      picker.appendChild(
        button(n + " " + colour + " face up (" + n * value + " points)", pick.bind(null, n, colour), "rondo-up")
      );
    }
    COLOURS.forEach(function (c) {
      if (st.rack[c]) picker.appendChild(button("1 " + c + " face down (bridge)", pick.bind(null, 0, c), "rondo-down"));
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

  function pick(count, colour) {
    var id = st.selected;
    var el = spaceEl(id);
    var value = parseInt(el.getAttribute("data-value"), 10);
    var prev = st.chain.length ? st.chain[st.chain.length - 1].space : null;
    st.chain.push({
      space: id,
      count: count,
      colour: colour,
      faceDown: count === 0,
      points: count * value,
      edge: prev ? edgeKind(prev, id) : null,
      move: count ? "place " + id + " " + count : "place " + id + " down " + colour,
    });
    st.rack[colour] -= count || 1;
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
        first: words(form.getAttribute("data-first")),
      };
      var nojs = form.querySelector(".rondo-nojs");
      var composer = byId("rondo-composer");
      if (nojs) nojs.hidden = true;
      if (composer) composer.hidden = false;
      byId("rondo-undo").addEventListener("click", undo);
      byId("rondo-send").addEventListener("click", send);
    } else if (st.sending) {
      st.sending = false; // an answer came (an error leaves the same controls in place)
    }
    st.edges = parseEdges(board);
    st.oneChange = board.getAttribute("data-one-change") === "1";
    st.occupied = {};
    words(board.getAttribute("data-occupied")).forEach(function (id) {
      st.occupied[id] = true;
    });
    render();
  }

  function spaceFrom(target) {
    var g = target && target.closest ? target.closest("#board .rb-space") : null;
    return g ? g.getAttribute("data-space") : null;
  }

  document.addEventListener("click", function (evt) {
    var id = spaceFrom(evt.target);
    if (id) choose(id);
  });

  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Enter" && evt.key !== " ") return;
    var id = spaceFrom(evt.target);
    if (id) {
      evt.preventDefault();
      choose(id);
    }
  });

  document.addEventListener("htmx:wsAfterMessage", setup);
  document.addEventListener("htmx:afterSettle", setup);
  window.RondoComposer = { setup: setup };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
