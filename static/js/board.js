/* Parlour: acting on the board (every game). Loaded with `defer` after match.js.
 *
 * The seat's legal choices travel ONLY in its own frame (the controls partial,
 * {% board_choices %}, games/templatetags/board_parts.py), never in the public board:
 *
 *   <div id="board-choices" hidden data-version="N" data-compose="1"? data-help="..."?>[...]</div>
 *
 * Its text is JSON: a list of choices, or {"choices": [...], "table": [...]} where
 * "n" may hold indices into "table" (choices shared by several). Each choice
 * (units: the board's viewBox):
 *   m   the move notation sent          k   the board target it belongs to
 *   l   its words (aria-label, status)  t   [x, y] where it lands
 *   h   [cx, cy, r] hit circle          hr  [x, y, w, h] hit rectangle (optional)
 *   f   [x, y] the piece's centre (else h's)   g   symbol id of the preview's shape
 *   p   [[x, y], ...] the way it goes (optional; else a straight line from f to t)
 *   gt  the preview's transform (optional; else translate to t)   gc  its colour class
 *   d   the die it uses (optional)      w   the way it goes (optional; "turn": it turns
 *                                           where it stands, drawn ↺: a Roundabout reversal)
 *   e   1: the decision may end here    x   a move sent after it to end there ("pass")
 *   n   the choices that follow it (a composed turn: Roundabout's second die)
 *   hs  the piece's body radius (optional): a tap that far from its centre, or from
 *       one of its destinations, means it, however close its neighbours
 *   fr  the piece's angle in degrees where it stands (optional): its highlight is then
 *       a band along its own outline (g drawn at h's centre, turned by fr, under the
 *       pieces: the board's [data-space] elements), not a ring round it (rings round
 *       close pieces merge)
 * Each game's controls template documents its own fields.
 *
 * Here the matching board spots become clickable: hit areas (role=button,
 * tabindex, aria-label: all added here, client-side), highlights, a preview of
 * the chosen piece's destination, and a bar with Confirm / Undo / Cancel beside
 * the labelled buttons (which stay for keyboard, screen readers and no-JS
 * posts). A choice is sent over the match socket (window.Parlour.send, as the
 * ws-send forms are); a composed turn is sent once, {"moves": [...]}; without a
 * socket the labelled form of its first move is posted. Every frame clears it.
 *
 * Clicks and taps pick the nearest target (or, once one is selected, the nearest
 * destination) within reach: its hit radius, at least 22 px. Where targets sit
 * closer together than 44 px on screen (a 390 px phone: darts 20 px apart,
 * Ludo cells 24 to 26 px) a tap that is not clearly nearer one of them (by 22 px),
 * nor on a piece's own body (hs), is not guessed: it asks "Which one?" (ask() below),
 * one 44 px button per candidate, with their spots marked on the board (.is-asked);
 * choosing one acts as tapping it would, and Escape, a tap outside or a new frame
 * change nothing.
 * Pieces sharing a square are one choice (merged server-side).
 *
 * Keyboard shortcuts can be turned off (WCAG 2.1.4: the Settings tab's switch,
 * Parlour.setting("shortcuts"); the list is shown under the board): see keys() below.
 * They act while the board has focus; the letter keys also from anywhere else on the
 * match page but a field (they take the focus to the board).
 * window.parlourBoard: focusPrimary() (focus the board when it holds choices or
 * the seat's controls mark a composer on it with data-board-primary, else the
 * primary control; true if it focused something), register(adapter) for a game
 * script with its own composer (rondo.js), help(text) (how to play on the board,
 * in the keys box), refresh(), and for such a script's own taps crowd(x, y, spots)
 * (which of [{x, y, r}], client px, a tap at x, y may mean: [] none, one: act,
 * several: ask) and ask(evt, items, stale) (the chooser: items [{label, cue?, mark,
 * act}], mark a selector of the spot to highlight; stale() true closes it when a
 * frame comes).
 */
(function () {
  "use strict";
  if (window.parlourBoard) return;

  var SVG = "http://www.w3.org/2000/svg";
  var MIN_HIT_PX = 22;
  var CLOSE_PX = 44; // targets nearer each other than this on screen: a finger cannot tell them apart
  /** The shortcuts as this game's page lists them: its GameSite's board_keys
   *  (games/sites.py), [[keys, words], ...], rendered once with the page as JSON
   *  (#board-key-words): the same keys everywhere, named in the game's own words,
   *  and only those that act. [] without the block. */
  function keys() {
    var el = byId("board-key-words");
    try {
      var list = el ? JSON.parse(el.textContent) : [];
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];
    }
  }

  var st = null; // {el, version, all, steps, selected, cursor, dest, busy, compose}
  var adapter = null; // a game's own composer (rondo.js), when it is active
  var hadFocus = null; // before a frame: null, or {key} (board focus)
  var asking = null; // the open chooser: {overlay, box, marks, stale, board, width} (ask())

  function byId(id) {
    return document.getElementById(id);
  }

  function boardEl() {
    return byId("board");
  }

  function svgEl() {
    var b = boardEl();
    return b ? b.querySelector("svg") : null;
  }

  /** The board's frame: the element around #board that keeps focus across swaps. */
  function stage() {
    var b = boardEl();
    return b ? b.parentElement : null;
  }

  /** Whether the board's shortcuts are on: the Settings tab's switch
   *  (Parlour.setting("shortcuts"), static/js/match.js), on by default. */
  function keysOn() {
    var P = window.Parlour;
    return !(P && P.setting && P.setting("shortcuts") === false);
  }

  // --- The seat's choices ---------------------------------------------------------

  function readChoices() {
    var el = byId("board-choices");
    if (!el) return null;
    var all;
    try {
      all = JSON.parse(el.textContent || "[]");
    } catch (e) {
      all = [];
    }
    if (!Array.isArray(all)) {
      // {"choices": [...], "table": [...]}: a choice's "n" may name shared choices by index.
      var table = all.table || [];
      all = (all.choices || []).map(function (c) {
        if (c.n) c.n = c.n.map(function (i) { return typeof i === "number" ? table[i] : i; });
        return c;
      });
    }
    if (!all.length) return null;
    return {
      el: el,
      text: el.textContent,
      version: el.getAttribute("data-version"),
      all: all,
      steps: [],
      selected: null,
      cursor: -1,
      dest: 0,
      busy: false,
      compose: el.getAttribute("data-compose") === "1",
    };
  }

  function level() {
    if (!st) return [];
    if (!st.steps.length) return st.all;
    return st.steps[st.steps.length - 1].n || [];
  }

  /** Targets of the current level: [{k, label, h, hr, choices: [...]}], first-seen order. */
  function targets() {
    var out = [];
    var byKey = {};
    level().forEach(function (c) {
      var t = byKey[c.k];
      if (!t) {
        t = byKey[c.k] = { k: c.k, h: c.h, hr: c.hr, hs: c.hs, fr: c.fr, g: c.g, choices: [] };
        out.push(t);
      }
      t.choices.push(c);
    });
    out.forEach(function (t) {
      t.label = t.choices.length === 1 ? t.choices[0].l : t.choices[0].k + ": " + t.choices.length + " moves";
      if (t.choices[0].kl) t.label = t.choices[0].kl;
    });
    return out;
  }

  function selectedTarget() {
    if (!st || st.selected === null) return null;
    var ts = targets();
    for (var i = 0; i < ts.length; i++) if (ts[i].k === st.selected) return ts[i];
    return null;
  }

  function lastStep() {
    return st && st.steps.length ? st.steps[st.steps.length - 1] : null;
  }

  function canConfirm() {
    if (!st || st.busy) return false;
    var t = selectedTarget();
    if (t && !st.compose) return true;
    if (t && st.compose) return false; // choose a destination first
    var last = lastStep();
    return !!(last && (last.e || last.x));
  }

  // --- Drawing on the board --------------------------------------------------------

  function node(tag, attrs, parent) {
    var el = document.createElementNS(SVG, tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) el.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(el);
    return el;
  }

  function clearLayer() {
    var old = document.querySelectorAll("#board .bd-layer");
    for (var i = 0; i < old.length; i++) old[i].parentNode.removeChild(old[i]);
    var dim = document.querySelectorAll("#board .bd-moved");
    for (var j = 0; j < dim.length; j++) dim[j].classList.remove("bd-moved");
  }

  function from(c) {
    return c.f || c.h;
  }

  /** The way a choice goes: through its points (p, the server's) or straight from its piece to t. */
  function way(c, cls, parent) {
    if (c.p) {
      var points = c.p.map(function (xy) { return xy.join(","); }).join(" ");
      return node("polyline", { class: cls, points: points }, parent);
    }
    return node("line", { class: cls, x1: from(c)[0], y1: from(c)[1], x2: c.t[0], y2: c.t[1] }, parent);
  }

  function ghost(c, parent, cls) {
    if (!c.g) return;
    var tr = c.gt || "translate(" + c.t[0] + " " + c.t[1] + ")";
    node("use", { href: "#" + c.g, class: "bd-ghost " + (c.gc || "") + " " + (cls || ""), transform: tr }, parent);
  }

  function draw() {
    clearLayer();
    var svg = svgEl();
    if (!svg || !st || adapter) return;
    var layer = node("g", { class: "bd-layer" + (st.busy ? " is-busy" : "") });
    // Under what the board keeps above its highlights (.over-layer: Ludo's count badges).
    svg.insertBefore(layer, svg.querySelector(":scope > .over-layer"));
    // Steps already composed: a path, the preview where each lands, the dart dimmed.
    st.steps.forEach(function (c) {
      way(c, "bd-path", layer);
      ghost(c, layer, "is-composed");
      if (c.fs !== undefined) {
        var moved = document.querySelector('#board [data-space="' + c.fs + '"]');
        if (moved) moved.classList.add("bd-moved");
      }
    });
    var sel = selectedTarget();
    var under = null; // the outlines' bands, under the pieces (fr)
    targets().forEach(function (t, i) {
      var g = node("g", {
        class: "bd-target" + (sel && sel.k === t.k ? " is-selected" : "") + (i === st.cursor ? " is-cursor" : ""),
        role: "button",
        tabindex: "0",
        "aria-label": t.label,
        "aria-pressed": sel && sel.k === t.k ? "true" : "false",
        "data-target": t.k,
      }, layer);
      if (t.hr) {
        node("rect", { class: "bd-hit", x: t.hr[0], y: t.hr[1], width: t.hr[2], height: t.hr[3] }, g);
      }
      node("circle", { class: "bd-hit", cx: t.h[0], cy: t.h[1], r: t.h[2] }, g);
      if (t.fr !== undefined && t.g) {
        var at = "translate(" + t.h[0] + " " + t.h[1] + ") rotate(" + t.fr + ")";
        // Its outline: a wide band along its edge, drawn under the pieces (so the band
        // shows round the piece, whatever its colour, and its number stays on top), and
        // its edge again in the target (hover, focus and "Which one?" mark it).
        under = under || node("g", { class: "bd-layer bd-under" + (st.busy ? " is-busy" : ""),
          "aria-hidden": "true" });
        node("use", {
          class: "bd-band" + (sel && sel.k === t.k ? " is-selected" : "") + (i === st.cursor ? " is-cursor" : ""),
          href: "#" + t.g,
          transform: at,
        }, under);
        node("use", { class: "bd-edge", href: "#" + t.g, transform: at }, g);
      } else {
        node("circle", { class: "bd-ring", cx: t.h[0], cy: t.h[1], r: t.h[2] * 0.62 }, g);
      }
    });
    if (under) {
      // Before the first piece, or the part (games/deltas.py) that holds it.
      var first = svg.querySelector("[data-space]");
      while (first && first.parentNode !== svg) first = first.parentNode;
      svg.insertBefore(under, first);
    }
    if (sel) {
      sel.choices.forEach(function (c, i) {
        var chosen = i === st.dest;
        way(c, "bd-path is-preview", layer);
        var d = node("g", { class: "bd-dest" + (chosen ? " is-chosen" : ""), "data-dest": String(i) }, layer);
        // Drawn at the spot's size; a click picks the nearest within reach (pick()).
        node("circle", { class: "bd-spot", cx: c.t[0], cy: c.t[1], r: sel.h[2] * 0.55 }, d);
        if (chosen) ghost(c, layer, "is-preview");
        if (c.d || c.w === "turn") {
          var label = node("text", { class: "bd-die", x: c.t[0], y: c.t[1] }, d);
          label.textContent = c.d ? String(c.d) : "↺"; // a reversal: the dart turns where it stands
        }
      });
    }
    paintAsked();
  }

  // --- The bar beside the labelled buttons --------------------------------------------

  function bar() {
    var b = byId("board-bar");
    if (b || !st) return b;
    b = document.createElement("div");
    b.id = "board-bar";
    b.className = "board-bar";
    b.setAttribute("role", "group");
    b.setAttribute("aria-label", "Move on the board");
    showHelp(st.el.getAttribute("data-help"));
    var say = document.createElement("p");
    say.id = "board-say";
    say.className = "board-say";
    say.setAttribute("aria-live", "polite");
    b.appendChild(say);
    var row = document.createElement("p");
    row.className = "board-actions";
    [["board-confirm", "Confirm", confirm, ""], ["board-undo", "Undo", undo, "secondary"],
      ["board-cancel", "Cancel", cancel, "secondary"]].forEach(function (spec) {
      var btn = document.createElement("button");
      btn.type = "button";
      btn.id = spec[0];
      btn.textContent = spec[1];
      if (spec[3]) btn.className = spec[3];
      btn.addEventListener("click", spec[2]);
      row.appendChild(btn);
    });
    b.appendChild(row);
    st.el.parentNode.insertBefore(b, st.el.nextSibling);
    return b;
  }

  function words() {
    if (!st) return "";
    if (!st.busy && window.Parlour && window.Parlour.offline && window.Parlour.offline()) {
      return "Offline: you can move again when the network is back.";
    }
    if (st.busy) return !window.Parlour || !window.Parlour.connected || window.Parlour.connected()
      ? "Sent…" : "Sent: waiting for the connection…";
    var parts = [];
    st.steps.forEach(function (c, i) {
      parts.push((st.steps.length > 1 || st.compose ? "Step " + (i + 1) + ": " : "") + c.l + ".");
    });
    var sel = selectedTarget();
    if (sel) {
      var c = sel.choices[st.dest];
      if (st.compose) {
        parts.push(sel.choices.length > 1
          ? "Choose where it goes (" + sel.choices.length + " places): " + c.l + "?"
          : "Choose where it goes: " + c.l + "?");
      } else {
        parts.push(c.l + "? Pick it again or Confirm to move.");
      }
    } else if (level().length) {
      var last = lastStep();
      if (last && last.w === "turn") {
        parts.push("Next: turn another dart (it, then ↺), or Confirm to end the turn.");
      } else {
        parts.push(st.steps.length ? "Next: choose a dart for the other die, or Undo."
          : st.compose ? "Choose a highlighted dart." : "Choose a highlighted piece.");
        if (last && (last.e || last.x)) parts.push("Or Confirm to end the turn here.");
      }
    } else if (st.steps.length) {
      parts.push("Confirm to send the turn, or Undo.");
    }
    return parts.join(" ");
  }

  /** Dims the dice the composed steps have used (#dice's data-die, one per die, and
   *  the board's own dice, [data-die] in #board: Roundabout's hub), and marks the
   *  dice as the Roll control when this seat may roll. */
  function markDice() {
    var used = st ? st.steps.map(function (c) { return String(c.d); }) : [];
    var centre = document.querySelectorAll("#board [data-die]");
    var counted = {};
    for (var j = 0; j < centre.length; j++) {
      var v = centre[j].getAttribute("data-die");
      var nth = (counted[v] = (counted[v] || 0) + 1);
      centre[j].classList.toggle("is-used", nth <= used.filter(function (u) { return u === v; }).length);
    }
    var dice = byId("dice");
    if (!dice) return;
    var faces = dice.querySelectorAll(".die[data-die]");
    var seen = {};
    for (var i = 0; i < faces.length; i++) {
      var d = faces[i].getAttribute("data-die");
      var n = (seen[d] = (seen[d] || 0) + 1);
      var count = used.filter(function (u) { return u === d; }).length;
      faces[i].classList.toggle("is-used", n <= count);
    }
    dice.classList.toggle("can-roll", !!rollButton());
  }

  function rollButton() {
    var input = document.querySelector('#controls form input[name="move"][value="roll"]');
    return input ? input.form.querySelector("button:not([disabled])") : null;
  }

  function render() {
    markDice();
    draw();
    var b = bar();
    if (!b) return;
    var say = byId("board-say");
    var text = words();
    if (say && say.textContent !== text) say.textContent = text;
    byId("board-confirm").disabled = !canConfirm();
    byId("board-undo").disabled = !st || st.busy || (!st.steps.length && st.selected === null);
    byId("board-cancel").disabled = !st || st.busy || (!st.steps.length && st.selected === null);
  }

  // --- Acting -------------------------------------------------------------------------

  function select(k) {
    if (!st || st.busy) return;
    var ts = targets();
    for (var i = 0; i < ts.length; i++) {
      if (ts[i].k === k) {
        if (st.selected === k && !st.compose) {
          confirm();
          return;
        }
        st.selected = k;
        st.cursor = i;
        st.dest = 0;
        render();
        return;
      }
    }
  }

  function chooseDest(i) {
    var sel = selectedTarget();
    if (!sel || st.busy) return;
    if (!st.compose) {
      st.dest = i;
      confirm();
      return;
    }
    var c = sel.choices[i];
    st.steps.push(c);
    st.selected = null;
    st.cursor = (c.n && c.n.length) ? 0 : -1;
    st.dest = 0;
    render();
  }

  function moves() {
    var out = st.steps.map(function (c) {
      return c.m;
    });
    var last = lastStep();
    if (last && !last.e && last.x) out.push(last.x);
    return out;
  }

  function confirm() {
    if (!canConfirm()) return;
    var sel = selectedTarget();
    if (sel && !st.compose) st.steps = [sel.choices[st.dest]];
    if (window.Parlour && window.Parlour.offline && window.Parlour.offline()) {
      render(); // says so (words)
      return;
    }
    var list = moves();
    st.selected = null;
    st.busy = true;
    render();
    var msg = list.length === 1 ? { move: list[0], version: st.version } : { moves: list, version: st.version };
    if (window.Parlour && window.Parlour.send && window.Parlour.send(msg)) {
      var mine = st;
      setTimeout(function expire() {
        // No answer: free the board, unless the connection is down (the move is on its way).
        if (st === mine && st.busy && window.Parlour.connected && !window.Parlour.connected()) {
          setTimeout(expire, 10000);
          return;
        }
        if (st === mine && st.busy) {
          st.busy = false;
          st.steps = [];
          render();
        }
      }, 10000);
      return;
    }
    postForm(list[0]);
  }

  /** No socket: post the labelled form of the first move (the page reloads). */
  function postForm(move) {
    var inputs = document.querySelectorAll('#controls form input[name="move"]');
    for (var i = 0; i < inputs.length; i++) {
      if (inputs[i].value === move) {
        var form = inputs[i].form;
        if (form.requestSubmit) form.requestSubmit();
        else form.submit();
        return;
      }
    }
    st.busy = false;
    render();
  }

  function undo() {
    if (!st || st.busy) return;
    if (st.selected !== null) st.selected = null;
    else st.steps.pop();
    st.dest = 0;
    render();
  }

  function cancel() {
    if (!st || st.busy) return;
    st.steps = [];
    st.selected = null;
    st.dest = 0;
    render();
  }

  function cycleTarget(dir) {
    var ts = targets();
    if (!ts.length) return;
    st.cursor = ((st.cursor < 0 ? (dir > 0 ? -1 : 0) : st.cursor) + dir + ts.length) % ts.length;
    st.selected = ts[st.cursor].k;
    st.dest = 0;
    render();
  }

  function cycleDest(dir) {
    var sel = selectedTarget();
    if (!sel) return;
    st.dest = (st.dest + dir + sel.choices.length) % sel.choices.length;
    render();
  }

  // --- Pointer: the nearest target within reach --------------------------------------

  /** Board units (x, y) in client px, by the board's matrix ``m`` (getScreenCTM). */
  function onScreen(m, x, y) {
    return { x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f };
  }

  /** What a tap at client (x, y) may mean among ``spots`` ([{x, y, r, sure?, ...}], client
   *  px; r the spot's own hit radius, sure its body's): the nearest alone if the tap is
   *  on its body (within sure), else those within reach (r, at least MIN_HIT_PX),
   *  cut to the nearest and each other one nearer to it than CLOSE_PX that the tap
   *  is not clearly nearer (by MIN_HIT_PX) than to it. Nearest first, each with
   *  d (px from the tap) added: [] nothing, one item: act on it, several: ask. */
  function crowd(x, y, spots) {
    var found = [];
    spots.forEach(function (s) {
      var d = s.inside ? Math.min(s.r, Math.hypot(x - s.x, y - s.y)) : Math.hypot(x - s.x, y - s.y);
      if (d <= Math.max(s.r, MIN_HIT_PX)) {
        s.d = d;
        found.push(s);
      }
    });
    found.sort(function (a, b) {
      return a.d - b.d;
    });
    var best = found[0];
    if (best && best.sure && best.d <= best.sure) return [best]; // on its body: it, whatever is near
    return found.filter(function (s) {
      return s === best || (s.d - best.d < MIN_HIT_PX && Math.hypot(s.x - best.x, s.y - best.y) < CLOSE_PX);
    });
  }

  /** The board's targets (or, once one is selected, its destinations, when the tap
   *  reaches one) a tap at ``evt`` may mean: crowd()'s list, items {dest: i} or {k}. */
  function pick(svg, evt) {
    var m = svg.getScreenCTM();
    if (!m) return [];
    var x = evt.clientX;
    var y = evt.clientY;
    var scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)); // px per board unit
    var sel = selectedTarget();
    var spots = targets().map(function (t) {
      var p = onScreen(m, t.h[0], t.h[1]);
      var spot = { x: p.x, y: p.y, r: t.h[2] * scale, sure: (t.hs || 0) * scale, k: t.k };
      if (t.hr) {
        // A hit rectangle (Ludo's base): a tap inside it reaches the target.
        var a = onScreen(m, t.hr[0], t.hr[1]);
        var b = onScreen(m, t.hr[0] + t.hr[2], t.hr[1] + t.hr[3]);
        spot.inside = x >= Math.min(a.x, b.x) && x <= Math.max(a.x, b.x) && y >= Math.min(a.y, b.y) &&
          y <= Math.max(a.y, b.y);
      }
      return spot;
    });
    if (sel) {
      var dests = sel.choices.map(function (c, i) {
        var p = onScreen(m, c.t[0], c.t[1]);
        return { x: p.x, y: p.y, r: sel.h[2] * scale, sure: (sel.hs || 0) * scale, dest: i };
      });
      var hit = crowd(x, y, dests);
      if (onBody(hit)) return hit;
      var other = crowd(x, y, spots); // on another piece's body: that piece, not a spot near it
      if (onBody(other)) return other;
      if (hit.length) return hit;
    }
    return crowd(x, y, spots);
  }

  /** Whether crowd()'s answer ``hits`` is one spot, tapped on its body. */
  function onBody(hits) {
    return hits.length === 1 && !!hits[0].sure && hits[0].d <= hits[0].sure;
  }

  /** A small picture for a chooser's button: the piece's own shape in its colour
   *  (a choice's g, gc), or a destination's spot with the die it uses. */
  function cue(c, dest) {
    var pic = node("svg", { class: "bd-cue", "aria-hidden": "true", focusable: "false" });
    if (dest) {
      pic.setAttribute("viewBox", "-1 -1 2 2");
      node("circle", { class: "bd-cue-spot", r: ".9" }, pic);
      if (c.d) node("text", { class: "bd-cue-die" }, pic).textContent = String(c.d);
      return pic;
    }
    var shape = c.g && byId(c.g);
    var box = shape && shape.getBBox ? shape.getBBox() : null;
    if (!box || !box.width) return null;
    var pad = Math.max(box.width, box.height) * 0.15;
    pic.setAttribute("viewBox", [box.x - pad, box.y - pad, box.width + 2 * pad, box.height + 2 * pad].join(" "));
    pic.setAttribute("class", "bd-cue " + (c.gc || ""));
    node("use", { href: "#" + c.g }, pic);
    return pic;
  }

  function askWhich(evt, hits) {
    var mine = st;
    var sel = selectedTarget();
    var ts = targets();
    var items = hits.map(function (h) {
      if (h.dest !== undefined) {
        var c = sel.choices[h.dest];
        return {
          label: c.l,
          cue: cue(c, true),
          mark: '#board .bd-dest[data-dest="' + h.dest + '"]',
          act: function () {
            if (st === mine) chooseDest(h.dest);
          },
        };
      }
      var t = ts.filter(function (x) {
        return x.k === h.k;
      })[0];
      return {
        label: t.label,
        cue: cue(t.choices[0], false),
        mark: '#board .bd-target[data-target="' + CSS.escape(t.k) + '"]',
        act: function () {
          if (st === mine) select(h.k);
        },
      };
    });
    ask(evt, items, function () {
      return st !== mine || !st || st.busy;
    });
  }

  document.addEventListener("click", function (evt) {
    if (!st || adapter) return;
    var svg = evt.target && evt.target.closest ? evt.target.closest("#board svg") : null;
    if (!svg) return;
    var hits = pick(svg, evt);
    if (!hits.length) {
      if (st.selected !== null) {
        st.selected = null;
        render();
      }
      return;
    }
    evt.preventDefault();
    if (hits.length > 1) askWhich(evt, hits);
    else if (hits[0].dest !== undefined) chooseDest(hits[0].dest);
    else select(hits[0].k);
  });

  // --- Which one? A tap that may mean several asks instead of guessing ------------------

  /** Ask which one a tap at ``evt`` (clientX, clientY) meant: a small dialog near it,
   *  inside the viewport, one button (at least 44 px each way) per item
   *  ({label, cue: an element or null, mark: a selector, act: function}); the marked
   *  spots get .is-asked meanwhile. Choosing closes it, then acts; Escape, a tap
   *  outside, scrolling, or a frame after which ``stale()`` is true (or the board
   *  was swapped) close it and change nothing. Focus goes into it, and back to the
   *  board's stage when it closes. Positioned without inline styles (the
   *  Content-Security-Policy allows none): see place(). The overlay, fixed and the
   *  size of the viewport, takes the taps outside it, so a tap that closes it
   *  reaches nothing else. */
  function ask(evt, items, stale) {
    closeChooser(false);
    var here = stage();
    if (!here || !items.length) return false;
    var overlay = document.createElement("div");
    overlay.className = "bd-overlay";
    var spacer = node("svg", { class: "bd-spacer", width: "0", height: "0", "aria-hidden": "true", focusable: "false" });
    overlay.appendChild(spacer);
    var box = document.createElement("div");
    box.className = "bd-chooser";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-labelledby", "bd-chooser-title");
    var title = document.createElement("p");
    title.id = "bd-chooser-title";
    title.className = "bd-chooser-title";
    title.textContent = "Which one?";
    box.appendChild(title);
    items.forEach(function (it) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "bd-choice";
      if (it.cue) b.appendChild(it.cue);
      var words = document.createElement("span");
      words.textContent = it.label;
      b.appendChild(words);
      b.addEventListener("click", function (e) {
        e.stopPropagation();
        closeChooser(true);
        it.act();
      });
      box.appendChild(b);
    });
    overlay.appendChild(box);
    here.appendChild(overlay);
    place(spacer, box, evt.clientX, evt.clientY);
    overlay.addEventListener("click", function (e) {
      e.stopPropagation();
      if (!box.contains(e.target)) closeChooser(true);
    });
    box.addEventListener("keydown", chooserKey);
    asking = {
      overlay: overlay,
      box: box,
      marks: items.map(function (it) {
        return it.mark;
      }),
      stale: stale || function () {
        return false;
      },
      board: boardEl(),
      width: document.documentElement.clientWidth,
    };
    paintAsked();
    box.querySelector("button").focus({ preventScroll: true });
    return true;
  }

  /** Put the chooser 36 px below the tap (above it if it does not fit), clear of
   *  the spots it asks about, within the visible viewport (8 px in from its edges):
   *  the overlay is a grid whose first cell, the spacer, is as wide and as tall as
   *  the chooser's offset (SVG width and height attributes), the chooser in the next. */
  function place(spacer, box, x, y) {
    var vv = window.visualViewport;
    var left = vv ? vv.offsetLeft : 0;
    var top = vv ? vv.offsetTop : 0;
    var right = left + (vv ? vv.width : document.documentElement.clientWidth);
    var bottom = top + (vv ? vv.height : window.innerHeight);
    var r = box.getBoundingClientRect();
    var gap = 36;
    var bx = Math.max(left + 8, Math.min(x - r.width / 2, right - 8 - r.width));
    var by = y + gap;
    if (by + r.height > bottom - 8) by = y - gap - r.height;
    if (by < top + 8) by = Math.max(top + 8, Math.min(y + gap, bottom - 8 - r.height));
    spacer.setAttribute("width", String(Math.max(0, Math.round(bx - r.left))));
    spacer.setAttribute("height", String(Math.max(0, Math.round(by - r.top))));
  }

  function chooserKey(evt) {
    if (!asking) return;
    var buttons = Array.prototype.slice.call(asking.box.querySelectorAll("button"));
    var at = buttons.indexOf(document.activeElement);
    var step = 0;
    if (evt.key === "Escape") {
      closeChooser(true);
    } else if (evt.key === "ArrowDown" || evt.key === "ArrowRight" || (evt.key === "Tab" && !evt.shiftKey)) {
      step = 1;
    } else if (evt.key === "ArrowUp" || evt.key === "ArrowLeft" || evt.key === "Tab") {
      step = -1;
    } else {
      return; // Enter and Space press the button
    }
    if (step) buttons[(at + step + buttons.length) % buttons.length].focus({ preventScroll: true });
    evt.preventDefault();
    evt.stopPropagation();
  }

  function paintAsked() {
    if (!asking) return;
    asking.marks.forEach(function (sel) {
      var els = document.querySelectorAll(sel);
      for (var i = 0; i < els.length; i++) els[i].classList.add("is-asked");
    });
  }

  /** Close the chooser (if open). Focus inside it, or ``refocus``: to the board's stage. */
  function closeChooser(refocus) {
    if (!asking) return;
    var was = asking;
    asking = null;
    var marked = document.querySelectorAll(".is-asked");
    for (var i = 0; i < marked.length; i++) marked[i].classList.remove("is-asked");
    var inside = was.box.contains(document.activeElement);
    if (was.overlay.parentNode) was.overlay.parentNode.removeChild(was.overlay);
    var here = stage();
    if ((refocus || inside) && here) here.focus({ preventScroll: true });
  }

  /** After a frame: a chooser whose board or choices were replaced closes. */
  function checkChooser() {
    if (asking && (asking.board !== boardEl() || asking.stale())) closeChooser(true);
  }

  window.addEventListener("scroll", function () {
    if (asking) closeChooser(true);
  }, { passive: true });
  // A phone turned (not its toolbar sliding, nor a pinch): the chooser would be out of place.
  window.addEventListener("resize", function () {
    if (asking && asking.width !== document.documentElement.clientWidth) closeChooser(true);
  });

  // A click on the dice rolls when this seat may roll (the Roll button stays the
  // labelled control for keyboards and screen readers).
  document.addEventListener("click", function (evt) {
    var dice = evt.target && evt.target.closest ? evt.target.closest("#dice") : null;
    var btn = dice && rollButton();
    if (btn) btn.click();
  });

  // --- Keyboard ------------------------------------------------------------------------

  function clickMove(move) {
    var input = document.querySelector('#controls form input[name="move"][value="' + move + '"]');
    var btn = input && input.form.querySelector("button:not([disabled])");
    if (btn) {
      btn.click();
      return true;
    }
    return false;
  }

  /** Whether a key pressed on ``el`` belongs to it (a field, a list, the chooser). */
  function typing(el) {
    return !!(el && el.closest && el.closest("input, select, textarea, [contenteditable], .bd-chooser"));
  }

  var LETTERS = { r: 1, n: 1, p: 1, t: 1, u: 1 };

  function onKey(evt) {
    if (!keysOn() || evt.ctrlKey || evt.metaKey || evt.altKey) return;
    var here = stage();
    if (!here || (asking && asking.box.contains(evt.target))) return;
    var key = evt.key;
    var lower = key.length === 1 ? key.toLowerCase() : key;
    if (!here.contains(evt.target)) {
      // Elsewhere on the match page (a button, the page itself) the letter keys act
      // too, and take the focus to the board; Enter, Space, arrows and Esc keep their
      // usual meaning there.
      var m = byId("match");
      if (!LETTERS[lower] || typing(evt.target) || !m || !(m.contains(evt.target) || evt.target === document.body)) {
        return;
      }
      if (lower !== "r") {
        if (!st && !adapter) return;
        focusPrimary();
        if (!here.contains(document.activeElement)) return;
      }
    }
    var a = adapter || generic;
    var done = true;
    if (lower === "r") done = clickMove("roll");
    else if (lower === "n" || key === "ArrowRight") a.next(1);
    else if (lower === "p" || key === "ArrowLeft") a.next(-1);
    else if (lower === "t" || key === "ArrowDown") a.cycle(1);
    else if (key === "ArrowUp") a.cycle(-1);
    else if (key === "Enter" || key === " ") a.enter(evt.target);
    else if (lower === "u" || key === "Backspace") a.undo();
    else if (key === "Escape") a.cancel();
    else done = false;
    if (done) evt.preventDefault();
  }

  var generic = {
    next: function (dir) {
      if (st && !st.busy) cycleTarget(dir);
    },
    cycle: function (dir) {
      if (st && !st.busy) cycleDest(dir);
    },
    enter: function (target) {
      if (!st || st.busy) return;
      var g = target && target.closest ? target.closest("[data-target]") : null;
      if (g && g.getAttribute("data-target") !== st.selected) {
        select(g.getAttribute("data-target"));
        return;
      }
      var sel = selectedTarget();
      if (sel) {
        chooseDest(st.dest);
      } else if (canConfirm()) {
        confirm();
      } else {
        cycleTarget(1);
      }
    },
    undo: undo,
    cancel: cancel,
  };

  document.addEventListener("keydown", onKey);
  // match.js: the page went offline or came back (words and the busy wait follow it).
  document.addEventListener("parlour:connection", function () {
    if (st) render();
  });

  /** How to move on the board (the seat's choices' data-help): in the board's
   *  keys box, so the decision itself stays one row under the board (a phone
   *  fits the board and the decision on one screen: match.css "Layout"). */
  function showHelp(text) {
    var box = byId("board-keys");
    if (!box || !text) return;
    var p = byId("board-help");
    if (!p) {
      p = document.createElement("p");
      p.id = "board-help";
      p.className = "board-help";
      box.insertBefore(p, box.children[1] || null);
    }
    p.textContent = text;
  }

  function keyList() {
    var here = byId("panel-device");
    // Players only: the Settings tab holds their switch for the shortcuts.
    if (!here || !stage() || byId("board-keys") || !document.querySelector("#device-settings [name=shortcuts]")) return;
    var box = document.createElement("details");
    box.id = "board-keys";
    box.className = "board-keys";
    var sum = document.createElement("summary");
    sum.textContent = "Playing on the board, and its keyboard shortcuts (the letters anywhere on the page)";
    box.appendChild(sum);
    var dl = document.createElement("dl");
    keys().forEach(function (k) {
      var dt = document.createElement("dt");
      dt.textContent = k[0];
      var dd = document.createElement("dd");
      dd.textContent = k[1];
      dl.appendChild(dt);
      dl.appendChild(dd);
    });
    box.appendChild(dl);
    var note = document.createElement("p");
    note.className = "help";
    note.textContent = "Turn the shortcuts off above.";
    box.appendChild(note);
    here.appendChild(box);
  }

  function prepareStage() {
    var here = stage();
    if (!here) return;
    if (!here.hasAttribute("tabindex")) {
      here.setAttribute("tabindex", "0");
      here.classList.add("board-stage");
      here.setAttribute("aria-describedby", "board-keys");
    }
    keyList();
  }

  // --- Frames ----------------------------------------------------------------------------

  /** The kind of the last frame swapped in (#frame-version's data-kind: "snapshot",
   *  "seat" or "error", none for an "update"; static/js/match.js). */
  function frameKind() {
    var fv = byId("frame-version");
    return fv ? fv.getAttribute("data-kind") || "update" : null;
  }

  function refresh() {
    var el = byId("board-choices");
    if (st && el && st.el !== el && !st.busy && el.getAttribute("data-version") === st.version
        && el.textContent === st.text) {
      st.el = el; // the same choices again (a snapshot after the first frame): keep what is composed
    } else if (!st || !el || st.el !== el || el.getAttribute("data-version") !== st.version) {
      st = readChoices();
    } else if (st.busy && frameKind() === "error") {
      st.busy = false; // the answer was an error: the same choices stand
      st.steps = [];
    } // else a public frame alone: the seat's own controls (the answer) are still on the way
    prepareStage();
    if (!st) {
      clearLayer();
      markDice();
      return;
    }
    render();
  }

  var shownMarks = null; // the last move's marks on the board before a frame

  /** A frame whose change made no board move says so (g.lm-keep): keep the marks shown. */
  function keepMarks() {
    var keep = document.querySelector("#board .lm-keep");
    if (keep && shownMarks) keep.parentNode.replaceChild(shownMarks, keep);
    shownMarks = null;
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    shownMarks = document.querySelector("#board .lm:not(.lm-keep)");
    var here = stage();
    var active = document.activeElement;
    hadFocus = here && active && here.contains(active) ? {
      key: active.getAttribute && active.getAttribute("data-target"),
    } : null;
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    keepMarks();
    refresh();
    checkChooser();
    // Focus stays on the board: its targets were redrawn, the stage was not.
    var active = document.activeElement;
    if (hadFocus && (!active || active === document.body || !document.body.contains(active))) {
      var again = hadFocus.key && document.querySelector('#board [data-target="' + hadFocus.key + '"]');
      var here = stage();
      if (again) again.focus({ preventScroll: true });
      else if (here) here.focus({ preventScroll: true });
    }
    hadFocus = null;
  });

  /** The first of ``list`` the page shows (not inside a closed disclosure), or null. */
  function visibleFirst(list) {
    for (var i = 0; i < list.length; i++) {
      if (list[i].getClientRects().length) return list[i];
    }
    return null;
  }

  function focusPrimary() {
    var here = stage();
    if (here && keysOn() && here.contains(document.activeElement)) {
      return true; // someone playing with the board's keys keeps the board (R rolls from there)
    }
    // A game's own composer marks itself (rondo.js's chain form): its script may
    // set up after this frame's other listeners, so its adapter is not active yet.
    var composer = document.querySelector("#controls [data-board-primary]");
    if ((st || composer || (adapter && adapter.active())) && here) {
      here.focus({ preventScroll: true });
      return true;
    }
    var btn = document.querySelector("#controls [data-primary]:not([disabled])") ||
      visibleFirst(document.querySelectorAll("#controls form[ws-send] button:not([disabled])"));
    if (btn) {
      btn.focus({ preventScroll: true });
      return true;
    }
    return false;
  }

  window.parlourBoard = {
    focusPrimary: focusPrimary,
    refresh: refresh,
    /** A game script's own composer: {active(), next(dir), cycle(dir), enter(target), undo(), cancel()}. */
    register: function (a) {
      adapter = a;
    },
    /** How to play on the board, at length: in the board's keys box. */
    help: showHelp,
    /** For tests and game scripts: the current choices' targets, or []. */
    targets: function () {
      return st ? targets() : [];
    },
    crowd: crowd,
    ask: ask,
    /** The kind of the last frame swapped in: "seat", "error", "snapshot", "update". */
    frameKind: frameKind,
    /** Whether the chooser ("Which one?") is open. */
    asking: function () {
      return !!asking;
    },
  };

  document.addEventListener("htmx:afterSettle", checkChooser);

  function init() {
    refresh();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
