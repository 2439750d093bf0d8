/* Parlour times (README "Times"): every <time datetime data-local="date|datetime|time">
 * ({% local_time %}, accounts/templatetags/local_time.py) shows its moment in the
 * browser's time zone, on the page and in every fragment htmx swaps in later (the
 * frames pushed to many people are rendered once, in UTC). When the browser's zone is
 * not the one the page was rendered in (<body data-time-zone>), it is sent to
 * /account/time-zone/, which keeps it on the profile (a cookie for a visitor), so the
 * next pages come rendered in it, without JavaScript too. The words and order are the
 * page's language (<html lang>, Intl): English as "4 Dec 2026, 18:30" (en-GB), the
 * others in their own way, always with Western digits (docs/glossary.md).
 */
(function () {
  "use strict";

  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (!zone) return;

  var DAY = { day: "numeric", month: "short", year: "numeric" };
  var CLOCK = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  var lang = (document.documentElement.getAttribute("lang") || "en").toLowerCase();
  var locale = lang === "en" || lang.indexOf("en-") === 0 ? "en-GB" : lang + "-u-nu-latn";
  var FORMATS;
  try {
    FORMATS = formats(locale);
  } catch (e) {
    FORMATS = formats("en-GB"); // a language tag Intl does not take
  }

  function formats(tag) {
    return {
      date: new Intl.DateTimeFormat(tag, Object.assign({ timeZone: zone }, DAY)),
      datetime: new Intl.DateTimeFormat(tag, Object.assign({ timeZone: zone }, DAY, CLOCK)),
      time: new Intl.DateTimeFormat(tag, Object.assign({ timeZone: zone }, CLOCK)),
    };
  }

  function convert(root) {
    var scope = root && root.querySelectorAll ? root : document;
    var times = scope.querySelectorAll("time[datetime][data-local]");
    if (scope.matches && scope.matches("time[datetime][data-local]")) times = [scope].concat([].slice.call(times));
    for (var i = 0; i < times.length; i++) {
      var el = times[i];
      var moment = new Date(el.getAttribute("datetime"));
      if (isNaN(moment.getTime())) continue;
      var format = FORMATS[el.getAttribute("data-local")] || FORMATS.datetime;
      var text = format.format(moment);
      if (el.textContent !== text) el.textContent = text;
      el.title = zone;
    }
  }

  convert(document);
  // Swapped-in content (history pages, replay steps) and out-of-band frames (sockets).
  document.addEventListener("htmx:afterSettle", function (evt) { convert(evt.target); });
  document.addEventListener("htmx:oobAfterSwap", function (evt) { convert(evt.detail && evt.detail.target); });
  document.addEventListener("htmx:wsAfterMessage", function () { convert(document); });

  var rendered = document.body.getAttribute("data-time-zone");
  if (rendered === zone) return;
  var token = "";
  try {
    token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch (e) { /* no token: the server refuses, and the page stays in its zone */ }
  var request = new XMLHttpRequest();
  request.open("POST", document.body.getAttribute("data-time-zone-url") || "/account/time-zone/");
  request.setRequestHeader("Content-Type", "application/x-www-form-urlencoded");
  request.setRequestHeader("X-CSRFToken", token);
  request.send("time_zone=" + encodeURIComponent(zone));
})();
