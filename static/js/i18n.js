/* The scripts' words in the page's language (docs/i18n.md "Scripts").
 *
 * base.html loads Django's JavaScript catalogue (/jsi18n/, config/urls.py) as a classic
 * script before every module: it defines globalThis.gettext, ngettext, pgettext,
 * npgettext and interpolate with this language's strings (the djangojs catalogues of
 * locale/ and of each game folder). The modules call them through here, so a page whose
 * catalogue did not load (a failed request, node's test runner) still plays, in English.
 * Classic scripts (attention.js, tabs.js, replay.js, rematch.js) read the same globals
 * with the same fallback. `make messages` extracts the calls: write them as
 * gettext("…"), ngettext("…", "…", n), pgettext("context", "…") with literal strings,
 * and named placeholders, interpolate(gettext("%(name)s …"), {name: x}).
 */

const g = globalThis;

function has(name) {
  return typeof g[name] === "function";
}

/** ``msgid`` in the page's language (itself without a catalogue). */
export function gettext(msgid) {
  return has("gettext") ? g.gettext(msgid) : msgid;
}

/** The singular or plural form for ``n`` in the page's language. */
export function ngettext(singular, plural, n) {
  return has("ngettext") ? g.ngettext(singular, plural, n) : n === 1 ? singular : plural;
}

/** ``msgid`` in ``context`` (a short word that means more than one thing). */
export function pgettext(context, msgid) {
  return has("pgettext") ? g.pgettext(context, msgid) : msgid;
}

/** ngettext in ``context``. */
export function npgettext(context, singular, plural, n) {
  return has("npgettext") ? g.npgettext(context, singular, plural, n) : n === 1 ? singular : plural;
}

/** ``fmt`` with each %(name)s replaced by ``values[name]`` (Django's interpolate, named). */
export function interpolate(fmt, values) {
  if (has("interpolate")) return g.interpolate(fmt, values, true);
  return fmt.replace(/%\(\w+\)s/g, (m) => String(values[m.slice(2, -2)]));
}
