/* Tabs for a page's secondary panels (the match page's moves, chat, fair dice
 * and settings: templates/games/match.html).
 *
 * DOM contract: a container [data-tabs] holding a [role=tablist] of
 * button[role=tab][aria-controls=<panel id>], and the panels [role=tabpanel].
 * Either the tab list is hidden and every panel shows, one after another,
 * under its own heading, until this script shows the tab list and one panel
 * at a time (the first) and gives the container .is-tabbed (match.css hides
 * the panels' headings then: the tab names them); or the page arrives in that
 * state already (the match page, so that nothing moves on a phone when the
 * script runs; match.css undoes it when scripting is off). Keys (WAI-ARIA tabs pattern,
 * automatic activation): Left/Right move between tabs, Home/End to the ends.
 * A panel with data-tab-news="<selector>" marks its tab (.has-news, and " (new)"
 * for screen readers) when the element it names gets a child while the panel
 * is hidden: a chat line arriving behind the Moves tab.
 */
(function () {
  "use strict";

  // The script catalogue (base.html loads /jsi18n/ first; static/js/i18n.js): English without it.
  var gettext = window.gettext || function (text) { return text; };

  function setUp(box) {
    var list = box.querySelector("[role=tablist]");
    if (!list) return;
    var tabs = Array.prototype.slice.call(list.querySelectorAll("[role=tab]"));
    if (!tabs.length) return;

    function select(tab, focus) {
      tabs.forEach(function (t) {
        var on = t === tab;
        t.setAttribute("aria-selected", on ? "true" : "false");
        t.tabIndex = on ? 0 : -1;
        var panel = document.getElementById(t.getAttribute("aria-controls"));
        if (panel) panel.hidden = !on;
      });
      if (focus) tab.focus();
      tab.classList.remove("has-news");
      var mark = tab.querySelector(".news-mark");
      if (mark) mark.remove();
      // A panel shown again keeps its list scrolled to the newest line.
      var shown = document.getElementById(tab.getAttribute("aria-controls"));
      var scroller = shown && shown.querySelector(".move-list, .chat-log");
      if (scroller) scroller.scrollTop = scroller.scrollHeight;
    }

    tabs.forEach(function (tab) {
      var panel = document.getElementById(tab.getAttribute("aria-controls"));
      if (panel) panel.setAttribute("aria-labelledby", tab.id);
      var watched = panel && panel.getAttribute("data-tab-news") && panel.querySelector(panel.getAttribute("data-tab-news"));
      if (watched && window.MutationObserver) {
        new MutationObserver(function () {
          if (!panel.hidden || tab.classList.contains("has-news")) return;
          tab.classList.add("has-news");
          var mark = document.createElement("span");
          mark.className = "news-mark visually-hidden";
          mark.textContent = " " + gettext("(new)");
          tab.appendChild(mark);
        }).observe(watched, { childList: true });
      }
      tab.addEventListener("click", function () {
        select(tab, false);
      });
      tab.addEventListener("keydown", function (evt) {
        var i = tabs.indexOf(tab);
        var next = null;
        // The arrow towards the next tab: on a right-to-left page the tabs run leftwards.
        var forward = getComputedStyle(list).direction === "rtl" ? "ArrowLeft" : "ArrowRight";
        var back = forward === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
        if (evt.key === forward) next = tabs[(i + 1) % tabs.length];
        else if (evt.key === back) next = tabs[(i - 1 + tabs.length) % tabs.length];
        else if (evt.key === "Home") next = tabs[0];
        else if (evt.key === "End") next = tabs[tabs.length - 1];
        if (next) {
          evt.preventDefault();
          select(next, true);
        }
      });
    });
    list.hidden = false;
    box.classList.add("is-tabbed");
    select(tabs[0], false);
  }

  function init() {
    var boxes = document.querySelectorAll("[data-tabs]");
    for (var i = 0; i < boxes.length; i++) setUp(boxes[i]);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
