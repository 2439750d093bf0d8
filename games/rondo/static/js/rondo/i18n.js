/* Rondo's words in the page's language: the script catalogue's functions (base.html loads
 * /jsi18n/ first; its strings of this folder come from games/rondo/locale's djangojs
 * catalogues), English without it. The same as static/js/i18n.js, kept here so the game
 * folder stands alone (node's tests import it from this folder, where ../i18n.js is not). */

const g = globalThis;

function has(name) {
  return typeof g[name] === "function";
}

export function gettext(msgid) {
  return has("gettext") ? g.gettext(msgid) : msgid;
}

export function ngettext(singular, plural, n) {
  return has("ngettext") ? g.ngettext(singular, plural, n) : n === 1 ? singular : plural;
}

export function pgettext(context, msgid) {
  return has("pgettext") ? g.pgettext(context, msgid) : msgid;
}

/** ``fmt`` with each %(name)s replaced by ``values[name]`` (Django's interpolate, named). */
export function interpolate(fmt, values) {
  if (has("interpolate")) return g.interpolate(fmt, values, true);
  return fmt.replace(/%\(\w+\)s/g, (m) => String(values[m.slice(2, -2)]));
}
