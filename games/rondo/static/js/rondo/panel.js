/* The Rondo composer panel: the chain in words with its running score, the picker of
 * the chosen space's tiles, the rack's used tiles dimmed, and which buttons act. */

import { affordable, capital, colourName, points, total, usedChips, words } from "./chain.js";
import { gettext, interpolate, ngettext } from "./i18n.js";
import { mark, spaceEl } from "./marks.js";

function byId(id) {
  return document.getElementById(id);
}

export function button(text, onClick, cls) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

/** A space as the board shows it: "Purple 1" (its code goes in a title). */
function spaceWords(id) {
  const el = spaceEl(id);
  return interpolate(gettext("%(colour)s %(value)s"), { colour: capital(colourName(el.getAttribute("data-colour"))),
    value: el.getAttribute("data-value") });
}

/** One row of the picker: its words, then a 48 px button per placement. */
function pickRow(title, opts, face, pick) {
  const row = document.createElement("div");
  row.className = "rondo-pick-row";
  const name = document.createElement("span");
  name.className = "rondo-pick-kind";
  name.textContent = title;
  row.appendChild(name);
  opts.forEach((o) => {
    const b = button("", pick.bind(null, o), o.d ? "rondo-down c-" + o.c : "rondo-up");
    b.setAttribute("aria-label", words(o));
    b.title = words(o);
    face(o).forEach((part, i) => {
      const span = document.createElement("span");
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
function renderPicker(st, on) {
  const picker = byId("rondo-picker");
  if (!picker) return;
  picker.textContent = "";
  const controls = byId("rondo-controls");
  if (controls) controls.classList.toggle("is-picking", !!st.selected);
  picker.hidden = !st.selected;
  if (!st.selected) return;
  const head = document.createElement("p");
  head.className = "rondo-pick-head";
  const what = document.createElement("span");
  const space = spaceEl(st.selected);
  what.textContent = interpolate(gettext("On %(colour)s %(value)s, place:"),
    { colour: colourName(space.getAttribute("data-colour")), value: space.getAttribute("data-value") });
  what.title = interpolate(gettext("Space %(code)s"), { code: st.selected });
  head.appendChild(what);
  picker.appendChild(head);
  const opts = affordable(st, st.selected);
  const up = opts.filter((o) => !o.d);
  const down = opts.filter((o) => o.d);
  if (up.length) {
    picker.appendChild(pickRow(gettext("Face up"), up, (o) => [String(o.n), points(o.p, true)], on.pick));
  }
  if (down.length) {
    picker.appendChild(pickRow(gettext("Face down, 0 pts"), down, (o) => [o.c.charAt(0).toUpperCase()], on.pick));
  }
  // Last in the tab order (after the tiles), shown beside the space's name (rondo.css).
  picker.appendChild(button(gettext("Cancel"), on.cancel, "secondary rondo-cancel"));
  const first = picker.querySelector(".rondo-up, .rondo-down");
  if (first) first.focus();
}

/** Show state ``st`` (rondo/chain.js): the panel, then the board's marks. ``on``:
 *  {pick(o), cancel()} for the picker's buttons. */
export function renderPanel(st, on) {
  const list = byId("rondo-chain-list");
  if (!list) return;
  list.textContent = "";
  st.chain.forEach((p) => {
    const li = document.createElement("li");
    li.setAttribute("data-chain-space", p.space);
    li.title = interpolate(gettext("Space %(code)s"), { code: p.space });
    li.textContent = interpolate(gettext("%(space)s: %(placement)s"), { space: spaceWords(p.space), placement: words({ d: p.faceDown, c: p.colour, n: p.count, p: p.points }) });
    list.appendChild(li);
  });
  const sum = total(st.chain);
  byId("rondo-running").textContent = String(sum);
  const unit = byId("rondo-points");
  if (unit) unit.textContent = ngettext("point", "points", sum);
  byId("rondo-undo").disabled = !st.chain.length || st.sending;
  // Clear: shown once the chain holds a placement (one row with Undo and Send on a phone).
  const clear = byId("rondo-clear");
  if (clear) {
    clear.hidden = !st.chain.length;
    clear.disabled = !st.chain.length || st.sending;
  }
  byId("rondo-send").disabled = !st.chain.length || st.sending;
  // While a chain is on its way, drawing instead would be refused as out of date.
  const draw = byId("rondo-draw-button");
  if (draw) draw.disabled = st.sending;
  // Dim the rack's tiles the chain uses (the last ones of each colour).
  const chips = document.querySelectorAll("#rondo-rack [data-tile-colour]");
  const used = usedChips(Array.prototype.map.call(chips, (el) => el.getAttribute("data-tile-colour")), st.rack);
  for (let k = 0; k < chips.length; k++) chips[k].classList.toggle("rb-used", used[k]);
  renderPicker(st, on);
  mark(st);
}
