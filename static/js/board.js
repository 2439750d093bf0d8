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
 *   gt  the preview's transform (optional; else translate to t)   gc  its colour class
 *   d   the die it uses (optional)      w   words for the destination (optional)
 *   e   1: the decision may end here    x   a move sent after it to end there ("pass")
 *   n   the choices that follow it (a composed turn: Roundabout's second die)
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
 * Clicks and taps pick the nearest target within its hit radius (at least
 * 22 px), so every target is at least 44 px wide on a 390 px phone even where
 * cells are 26 px; pieces sharing a square are one choice (merged server-side).
 *
 * Keyboard shortcuts act only while the board has focus and can be turned off
 * (WCAG 2.1.4: the Settings tab's switch, Parlour.setting("shortcuts"); the list is
 * shown under the board): see KEYS below.
 * window.parlourBoard: focusPrimary() (focus the board when it holds choices or
 * the seat's controls mark a composer on it with data-board-primary, else the
 * primary control; true if it focused something), register(adapter) for a game
 * script with its own composer (rondo.js), help(text) (how to play on the board,
 * in the keys box), refresh().
 */
(function () {
  "use strict";
  if (window.parlourBoard) return;

  var SVG = "http://www.w3.org/2000/svg";
  var MIN_HIT_PX = 22;
  var KEYS = [
    ["R", "roll the dice (or die)"],
    ["N or →", "next piece or dart"],
    ["P or ←", "previous piece or dart"],
    ["T or ↓ ↑", "cycle the selected one's destinations"],
    ["Enter or Space", "select, then confirm"],
    ["U or Backspace", "undo the last step"],
    ["Esc", "cancel"],
  ];

  var st = null; // {el, version, all, steps, selected, cursor, dest, busy, compose}
  var adapter = null; // a game's own composer (rondo.js), when it is active
  var hadFocus = null; // before a frame: null, or {key} (board focus)

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
        t = byKey[c.k] = { k: c.k, h: c.h, hr: c.hr, choices: [] };
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

  function ghost(c, parent, cls) {
    if (!c.g) return;
    var tr = c.gt || "translate(" + c.t[0] + " " + c.t[1] + ")";
    node("use", { href: "#" + c.g, class: "bd-ghost " + (c.gc || "") + " " + (cls || ""), transform: tr }, parent);
  }

  function draw() {
    clearLayer();
    var svg = svgEl();
    if (!svg || !st || adapter) return;
    var layer = node("g", { class: "bd-layer" + (st.busy ? " is-busy" : "") }, svg);
    // Steps already composed: a path, the preview where each lands, the dart dimmed.
    st.steps.forEach(function (c) {
      node("line", { class: "bd-path", x1: from(c)[0], y1: from(c)[1], x2: c.t[0], y2: c.t[1] }, layer);
      ghost(c, layer, "is-composed");
      if (c.fs !== undefined) {
        var moved = document.querySelector('#board [data-space="' + c.fs + '"]');
        if (moved) moved.classList.add("bd-moved");
      }
    });
    var sel = selectedTarget();
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
      node("circle", { class: "bd-ring", cx: t.h[0], cy: t.h[1], r: t.h[2] * 0.62 }, g);
    });
    if (sel) {
      sel.choices.forEach(function (c, i) {
        var chosen = i === st.dest;
        node("line", { class: "bd-path is-preview", x1: from(c)[0], y1: from(c)[1], x2: c.t[0], y2: c.t[1] }, layer);
        var d = node("g", { class: "bd-dest" + (chosen ? " is-chosen" : ""), "data-dest": String(i) }, layer);
        // Drawn at the spot's size; a click picks the nearest within reach (pick()).
        node("circle", { class: "bd-spot", cx: c.t[0], cy: c.t[1], r: sel.h[2] * 0.55 }, d);
        if (chosen) ghost(c, layer, "is-preview");
        if (c.d) {
          var label = node("text", { class: "bd-die", x: c.t[0], y: c.t[1] }, d);
          label.textContent = String(c.d);
        }
      });
    }
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
    if (st.busy) return "Sent…";
    var parts = [];
    st.steps.forEach(function (c, i) {
      parts.push((st.steps.length > 1 || st.compose ? "Step " + (i + 1) + ": " : "") + c.l + ".");
    });
    var sel = selectedTarget();
    if (sel) {
      var c = sel.choices[st.dest];
      if (st.compose) {
        parts.push(sel.choices.length > 1
          ? "Choose where it goes (" + sel.choices.length + " places; T cycles): " + c.l + "?"
          : "Choose where it goes: " + c.l + "?");
      } else {
        parts.push(c.l + "? Click it again or Confirm to move.");
      }
    } else if (level().length) {
      parts.push(st.steps.length ? "Next: choose a dart for the other die, or Undo."
        : st.compose ? "Choose a highlighted dart." : "Choose a highlighted piece.");
      var last = lastStep();
      if (last && (last.e || last.x)) parts.push("Or Confirm to end the turn here.");
    } else if (st.steps.length) {
      parts.push("Confirm to send the turn, or Undo.");
    }
    return parts.join(" ");
  }

  function render() {
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
    var list = moves();
    st.selected = null;
    st.busy = true;
    render();
    var msg = list.length === 1 ? { move: list[0], version: st.version } : { moves: list, version: st.version };
    if (window.Parlour && window.Parlour.send && window.Parlour.send(msg)) {
      var mine = st;
      setTimeout(function () {
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

  function toBoard(svg, evt) {
    var m = svg.getScreenCTM();
    if (!m) return null;
    var p = svg.createSVGPoint();
    p.x = evt.clientX;
    p.y = evt.clientY;
    var q = p.matrixTransform(m.inverse());
    return { x: q.x, y: q.y, unit: 1 / Math.max(m.a, 1e-6) };
  }

  function near(pt, x, y, r) {
    var reach = Math.max(r, MIN_HIT_PX * pt.unit);
    var d = Math.sqrt((pt.x - x) * (pt.x - x) + (pt.y - y) * (pt.y - y));
    return d <= reach ? d : -1;
  }

  function pick(pt) {
    var best = null;
    var sel = selectedTarget();
    if (sel) {
      sel.choices.forEach(function (c, i) {
        var d = near(pt, c.t[0], c.t[1], sel.h[2]);
        if (d >= 0 && (!best || d < best.d)) best = { d: d, dest: i };
      });
      if (best) return best;
    }
    targets().forEach(function (t) {
      var d = near(pt, t.h[0], t.h[1], t.h[2]);
      if (d < 0 && t.hr && pt.x >= t.hr[0] && pt.x <= t.hr[0] + t.hr[2] && pt.y >= t.hr[1] &&
          pt.y <= t.hr[1] + t.hr[3]) {
        d = t.h[2];
      }
      if (d >= 0 && (!best || d < best.d)) best = { d: d, k: t.k };
    });
    return best;
  }

  document.addEventListener("click", function (evt) {
    if (!st || adapter) return;
    var svg = evt.target && evt.target.closest ? evt.target.closest("#board svg") : null;
    if (!svg) return;
    var pt = toBoard(svg, evt);
    if (!pt) return;
    var hit = pick(pt);
    if (!hit) {
      if (st.selected !== null) {
        st.selected = null;
        render();
      }
      return;
    }
    evt.preventDefault();
    if (hit.dest !== undefined) chooseDest(hit.dest);
    else select(hit.k);
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

  function onKey(evt) {
    if (!keysOn() || evt.ctrlKey || evt.metaKey || evt.altKey) return;
    var here = stage();
    if (!here || !here.contains(evt.target)) return;
    var key = evt.key;
    var lower = key.length === 1 ? key.toLowerCase() : key;
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
    sum.textContent = "Playing on the board, and its keyboard shortcuts (while the board has focus)";
    box.appendChild(sum);
    var dl = document.createElement("dl");
    KEYS.forEach(function (k) {
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

  function refresh() {
    var el = byId("board-choices");
    if (st && el && st.el !== el && !st.busy && el.getAttribute("data-version") === st.version
        && el.textContent === st.text) {
      st.el = el; // the same choices again (a snapshot after the first frame): keep what is composed
    } else if (!st || !el || st.el !== el || el.getAttribute("data-version") !== st.version) {
      st = readChoices();
    } else if (st.busy) {
      st.busy = false; // an answer came, and the same choices stand (an error)
      st.steps = [];
    }
    prepareStage();
    if (!st) {
      clearLayer();
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
      document.querySelector("#controls form[ws-send] button:not([disabled])");
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
  };

  function init() {
    refresh();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
