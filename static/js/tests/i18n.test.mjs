// i18n.js: the scripts' words through the page's catalogue (/jsi18n/), English without one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { leftWords } from "../clock_words.js";
import { words } from "../board/choices.js";
import * as R from "../../../games/rondo/static/js/rondo/chain.js";

/** A stub of Django's catalogue script: ``strings`` as /jsi18n/ would define them. */
function withCatalogue(strings, body) {
  const pick = (s, p, n) => (n === 1 ? s : p);
  globalThis.gettext = (id) => (typeof strings[id] === "string" ? strings[id] : id);
  globalThis.ngettext = (s, p, n) => (strings[s] ? strings[s][n === 1 ? 0 : 1] : pick(s, p, n));
  globalThis.pgettext = (ctx, id) => strings[ctx + "\x04" + id] || id;
  globalThis.interpolate = (fmt, obj) => fmt.replace(/%\(\w+\)s/g, (m) => String(obj[m.slice(2, -2)]));
  try {
    body();
  } finally {
    for (const name of ["gettext", "ngettext", "pgettext", "interpolate"]) delete globalThis[name];
  }
}

test("without a catalogue (it did not load): English, plurals by n, named placeholders", () => {
  assert.equal(gettext("Reconnecting…"), "Reconnecting…");
  assert.equal(ngettext("%(days)s day", "%(days)s days", 1), "%(days)s day");
  assert.equal(ngettext("%(days)s day", "%(days)s days", 0), "%(days)s days");
  assert.equal(pgettext("connection status", "Live"), "Live");
  assert.equal(interpolate("%(a)s and %(b)s, %(a)s", { a: 1, b: "x" }), "1 and x, 1");
});

test("with the catalogue: the scripts' words come from it", () => {
  withCatalogue({
    "Reconnecting…": "Verbinde neu…",
    "%(days)s day": ["%(days)s Tag", "%(days)s Tage"],
    "%(days)s %(hours)s h": "%(days)s %(hours)s Std.",
    "Sent…": "Gesendet…",
    "Choose a highlighted dart.": "Wähle einen hervorgehobenen Pfeil.",
    "rondo colour\x04purple": "Lila",
    "%(count)s %(colour)s face up (%(points)s point)": ["%(count)s × %(colour)s offen (%(points)s Punkt)",
      "%(count)s × %(colour)s offen (%(points)s Punkte)"],
  }, () => {
    assert.equal(gettext("Reconnecting…"), "Verbinde neu…");
    assert.equal(leftWords((2 * 24 + 5) * 3600 * 1000), "2 Tage 5 Std.");
    assert.equal(leftWords(30 * 1000), "30 s"); // not in this catalogue: English
    const st = { busy: true, steps: [] };
    assert.equal(words(st, { offline: false, connected: true }), "Gesendet…");
    const open = { busy: false, steps: [], selected: null, all: [{ k: "a", l: "A", m: "a" }] };
    assert.equal(words(open, { offline: false, connected: true }, "dart"), "Wähle einen hervorgehobenen Pfeil.");
    assert.equal(R.words({ d: false, c: "purple", n: 2, p: 2 }), "2 × Lila offen (2 Punkte)");
  });
});
