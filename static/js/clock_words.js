/* The time left on a turn-based clock, in words: "2 days 5 h", "3 h 20 min", "12 min",
 * "40 s" (docs/features.md "Turn-based play"). The same words as games/clock_words.py,
 * so a count-down in the page never changes the server's wording; in the page's
 * language through the script catalogue (i18n.js): the same msgids as the server's,
 * translated the same (tests/i18n/test_script_catalogue.py checks). Pure
 * (static/js/tests/clock_words.test.mjs); imported by match/clock.js and notify.js. */

import { gettext, interpolate, ngettext } from "./i18n.js";

const DAY = 86400;
const HOUR = 3600;
const MINUTE = 60;

/** The two largest units that matter of ``leftMs`` ms, each cut down (whole seconds
 *  rounded up first; never below "0 s"). */
export function leftWords(leftMs) {
  const total = Math.max(0, Math.ceil(leftMs / 1000));
  if (total >= DAY) {
    const days = Math.floor(total / DAY);
    const hours = Math.floor((total % DAY) / HOUR);
    const text = interpolate(ngettext("%(days)s day", "%(days)s days", days), { days });
    // Translators: a clock's time left: days (already written: "2 days"), then hours.
    return hours ? interpolate(gettext("%(days)s %(hours)s h"), { days: text, hours }) : text;
  }
  if (total >= HOUR) {
    const hours = Math.floor(total / HOUR);
    const minutes = Math.floor((total % HOUR) / MINUTE);
    return minutes
      ? interpolate(gettext("%(hours)s h %(minutes)s min"), { hours, minutes })
      : interpolate(gettext("%(hours)s h"), { hours });
  }
  if (total >= MINUTE) return interpolate(gettext("%(minutes)s min"), { minutes: Math.floor(total / MINUTE) });
  return interpolate(gettext("%(seconds)s s"), { seconds: total });
}
