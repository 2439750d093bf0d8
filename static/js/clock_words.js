/* The time left on a turn-based clock, in words: "2 days 5 h", "3 h 20 min", "12 min",
 * "40 s" (docs/features.md "Turn-based play"). The same words as games/clock_words.py,
 * so a count-down in the page never changes the server's wording. Pure
 * (static/js/tests/clock_words.test.mjs); imported by match/clock.js and notify.js. */

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
    const text = days === 1 ? "1 day" : days + " days";
    return hours ? text + " " + hours + " h" : text;
  }
  if (total >= HOUR) {
    const hours = Math.floor(total / HOUR);
    const minutes = Math.floor((total % HOUR) / MINUTE);
    return minutes ? hours + " h " + minutes + " min" : hours + " h";
  }
  if (total >= MINUTE) return Math.floor(total / MINUTE) + " min";
  return total + " s";
}
