"""The site in each of its five languages, tried as a new person would in a real
Chromium (docs/i18n.md "Keeping them complete"): a browser that asks for the language signs up
through the sign-up form, finds nothing else to do before a casual match, starts a
match against the computer of each game from the play page's own buttons, plays it
to its end on the board (test_full_matches.py's loop), then reads each game's rules
and the history. On every page, and every few acts during a match, the visible text
(``document.body.innerText``, the text of each shown element, the SVG titles and
texts, aria-labels, titles, alts, placeholders, the page's title) is scanned for
English left over:

- a text equal to an English message of the project's catalogues (``locale/`` and
  each game folder's) whose translation into the language differs (a message with
  placeholders, ``%(name)s``, matches with anything in their place);
- a text (an element's own, or an attribute) holding a common English word of the
  site ("the", "Your", "move", "Roll", "Waiting", a seat's colour, ...).

Text in ``<code>``, ``<kbd>``, ``<pre>`` and ``<samp>`` is notation (docs/i18n.md), not read.

A text that is itself one of the language's translations is never English left over
(a German translation may be a word English also has). Elements are found by name,
id, role and attributes, never by their English words.

The five whole tours are ``long`` (minutes each: ``make test-long``); CI runs the
Arabic one short (sign up, two turns of Rondo, Rondo's rules and the history).
PARLOUR_LANG_SHOTS=<dir> saves screenshots at 1280x800 and 390x844 as
``<lang>-<page>-<width>.png``.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import polib
import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import sites
from games.models import Match, Move
from tests.e2e.test_full_matches import LIMIT_SECONDS, play_to_the_result

ROOT = Path(__file__).resolve().parents[2]
SHOTS = os.environ.get("PARLOUR_LANG_SHOTS")
SIZES = {"1280": {"width": 1280, "height": 800}, "390": {"width": 390, "height": 844}}
#: What a browser set up for the language sends: its locale and its Accept-Language.
BROWSERS = {
    "en": ("en-US", "en-US,en;q=0.9"),
    "hi": ("hi-IN", "hi-IN,hi;q=0.9,en-US;q=0.8,en;q=0.7"),
    "es": ("es-MX", "es-MX,es;q=0.9,en;q=0.8"),
    "de": ("de-DE", "de-DE,de;q=0.9,en;q=0.8"),
    "ar": ("ar-EG", "ar-EG,ar;q=0.9,en;q=0.8"),
}
PASSWORD = "a sturdy pass 42"
#: Words that are no translation's: names (games, the site) and the languages'
#: names in the language menu, each in its own language.
NAMES = {"Parlour", "Ludo", "Roundabout", "Rondo", "English", "हिन्दी", "Español", "Deutsch", "العربيّة"}
#: Common English words of the site's texts: a line with one is English left over.
ENGLISH_WORDS = re.compile(
    r"\b(?:the|The|your|Your|you|You|move|moves|Move|Moves|moved|roll|Roll|rolled|Rolled|waiting|Waiting"
    r"|turn|Turn|piece|pieces|Piece|Pieces|player|players|Player|Players|wins|won|against|Against"
    r"|with|and|of|is|are|to|for|Log|Sign|Match|match|matches|over|Play|Rules|Leaderboards|Menu"
    r"|red|green|yellow|blue|purple|Red|Green|Yellow|Blue|Purple)\b")
#: Words of that list that are the language's own too ("la red": the network).
OWN_WORDS = {"es": {"red"}}
_PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w+\}")

#: What is on the page for a person to read, in one evaluation.
TEXTS = """() => {
  const out = [];
  const shown = (el) => !!el && el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== 'hidden';
  for (const line of document.body.innerText.split('\\n')) out.push(['line', line]);
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const p = n.parentElement;
    if (!p || p.closest('script, style, template, noscript, code, kbd, pre, samp')) continue;  // notation
    if (p.closest('svg')) out.push(['svg', n.textContent]);  // titles: the board's accessible names
    else if (shown(p)) out.push(['text', n.textContent]);
  }
  const attributes = ['aria-label', 'title', 'alt', 'placeholder', 'aria-roledescription'];
  for (const el of document.querySelectorAll(attributes.map((a) => `[${a}]`).join(', '))) {
    for (const a of attributes) {
      const v = el.getAttribute(a);
      if (v) out.push([a, v]);
    }
  }
  for (const el of document.querySelectorAll('input[type=submit][value], input[type=button][value]')) {
    out.push(['value', el.value]);
  }
  out.push(['<title>', document.title]);
  return out;
}"""


#: Buttons and tabs whose words do not fit in them (a line of their text runs past
#: their border, on either side: centred text overflows both): [their text] for each.
OVERFLOWING = """() => [...document.querySelectorAll('button, .button, [role=tab], summary')]
  .filter((el) => el.getClientRects().length && !el.closest('#board, svg'))
  .filter((el) => {
    const box = el.getBoundingClientRect();
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.textContent.trim() || n.parentElement.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5)) return true;
      }
    }
    return false;
  })
  .map((el) => el.innerText.replace(/\\s+/g, ' ').trim())"""


def _plain(text: str) -> str:
    """``text`` as a page shows it: no tags, whitespace as single spaces."""
    return " ".join(re.sub(r"<[^>]+>", "", text).replace("%%", "%").split())


def _catalogue_files(lang: str) -> list[Path]:
    places = [ROOT / "locale", *ROOT.glob("*/locale"), *ROOT.glob("*/*/locale")]
    return sorted(
        po for place in places
        if not any(part.startswith(".") or part == "node_modules" for part in place.relative_to(ROOT).parts)
        for po in (place / lang / "LC_MESSAGES").glob("*.po")
    )


@functools.cache
def catalogue(lang: str):
    """The project's English messages translated otherwise into ``lang``:
    (exact texts, one pattern for those with placeholders or None, {text: msgid}
    of the patterns' sources, the language's own translations)."""
    english, own = set(), set()
    entries = (e for po in _catalogue_files(lang) for e in polib.pofile(str(po))
               if not e.obsolete and "fuzzy" not in e.flags)
    for entry in entries:
        if entry.msgid_plural:
            pairs = [(entry.msgid, entry.msgstr_plural.get(0, "")),
                     (entry.msgid_plural, entry.msgstr_plural.get(max(entry.msgstr_plural), ""))]
            translations = list(entry.msgstr_plural.values())
        else:
            pairs = [(entry.msgid, entry.msgstr)]
            translations = [entry.msgstr]
        own.update(_plain(t) for t in translations if t)
        english.update(_plain(msgid) for msgid, msgstr in pairs if msgstr and _plain(msgstr) != _plain(msgid))
    exact = {m for m in english if not _PLACEHOLDER.search(m) and re.search(r"[A-Za-z]{2}", m)}
    sources = {}
    for m in english - exact:
        literal = _PLACEHOLDER.sub("", m)
        if len(re.findall(r"[A-Za-z]", literal)) >= 6:  # "%(name)s" alone matches anything
            parts = _PLACEHOLDER.split(m)
            sources[m] = "(?:" + ".+?".join(re.escape(p) for p in parts) + ")"
    pattern = re.compile("|".join(sources.values())) if sources else None
    return exact, pattern, sources, own


def _english_word(lang: str, text: str) -> str | None:
    """The first common English word in ``text`` that is not also ``lang``'s."""
    return next((m.group() for m in ENGLISH_WORDS.finditer(text) if m.group() not in OWN_WORDS.get(lang, ())),
                None)


def english_left(lang: str, texts, allowed=()) -> list[str]:
    """The texts of ``texts`` ([where, text] pairs, as TEXTS reads them) that are
    English left over in ``lang``'s page, each once, with why."""
    exact, pattern, sources, own = catalogue(lang)
    found = []
    for where, raw in texts:
        text = _plain(raw)
        if not re.search(r"[A-Za-z]{2}", text) or text in own or text in NAMES or text in allowed:
            continue
        if text in exact:
            why = "an English message"
        elif pattern is not None and pattern.fullmatch(text):
            msgid = next(m for m, p in sources.items() if re.fullmatch(p, text))
            why = f"the English message {msgid!r}"
        elif where != "line" and (word := _english_word(lang, text)):  # a line's nodes are read one by one
            why = f"English word {word!r}"
        else:
            continue
        if not any(f"{text[:160]!r}" in line for line in found):  # a line and its node: once
            found.append(f"{where}: {text[:160]!r} ({why})")
    return found


class Tour:
    """One person's visit in ``lang``: reads each page for English left over
    (kept by page name) and takes its screenshots."""

    def __init__(self, page, lang, username):
        self.page, self.lang, self.username = page, lang, username
        self.found: dict[str, list[str]] = {}

    def read(self, name):
        """Scan the page as it is now; say where it is English (not for English)."""
        html = self.page.locator("html")
        expect(html).to_have_attribute("lang", self.lang)
        expect(html).to_have_attribute("dir", "rtl" if self.lang == "ar" else "ltr")
        if self.lang == "en":
            return
        for line in english_left(self.lang, self.page.evaluate(TEXTS), allowed={self.username}):
            lines = self.found.setdefault(name, [])
            if line not in lines:
                lines.append(line)

    def look(self, name, whole=True):
        """Read the page at both sizes, with a screenshot of each (PARLOUR_LANG_SHOTS);
        at each, no button's words run past its border."""
        for width, size in SIZES.items():
            self.page.set_viewport_size(size)
            self.read(name)
            for text in self.page.evaluate(OVERFLOWING):
                line = f"{width} px: {text[:80]!r} does not fit in its button"
                lines = self.found.setdefault(name, [])
                if line not in lines:
                    lines.append(line)
            if SHOTS:
                Path(SHOTS).mkdir(parents=True, exist_ok=True)
                self.page.screenshot(path=Path(SHOTS) / f"{self.lang}-{name}-{width}.png", full_page=whole)
        self.page.set_viewport_size(SIZES["1280"])

    def report(self) -> str:
        return "\n".join(f"{name}:\n  " + "\n  ".join(lines) for name, lines in self.found.items())


def new_person(browser, lang):
    """A page of a new browser that asks for ``lang`` first (a person who never came)."""
    locale, accept = BROWSERS[lang]
    context = browser.new_context(locale=locale, extra_http_headers={"Accept-Language": accept},
                                  viewport=SIZES["1280"])
    return context.new_page()


def sign_up(tour, base_url):
    """From the home page, through the header's sign-up link and the form's fields
    by id; the account is made and signed in."""
    page = tour.page
    page.goto(base_url + "/")
    tour.look("home")
    page.locator(".nav-wide a[href^='/signup/']").click()
    tour.look("signup")
    page.locator("#id_username").fill(tour.username)
    page.locator("#id_email").fill(f"{tour.username}@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator(f".nav-wide a[href='/u/{tour.username}/']")).to_be_visible()
    user = User.objects.get(username=tour.username)
    # The account keeps the language it signed up in (its mail is written in it).
    if user.language not in (tour.lang, "" if tour.lang == "en" else tour.lang):
        tour.found.setdefault("signed-up", []).append(f"the account's language is {user.language!r}")
    tour.look("signed-up")
    return user


def quick_choice(kind):
    """The play page's one-click button for ``kind`` against one computer."""
    return f"#game-{kind} form.quick-choices button[name=players][value='2']"


def open_play(tour, base_url):
    """The play page, from the header's link; nothing is left to do before a casual match:
    every game's quick choices against the computer are there, nothing refused."""
    page = tour.page
    page.locator(".nav-wide a[href='/play/']").click()
    page.wait_for_url(base_url + "/play/")
    for kind in sites.kinds():
        expect(page.locator(quick_choice(kind))).to_be_visible()
    expect(page.locator("#play-refused")).to_have_count(0)


def start_against_the_computer(tour, base_url, kind) -> Match:
    """The play page's quick choice of ``kind`` for two players (one computer)."""
    page = tour.page
    page.locator(quick_choice(kind)).click()
    page.wait_for_url(re.compile(r"/m/[^/]+/$"))
    page.wait_for_selector("#match[data-synced]", state="attached", timeout=20_000)
    public_id = page.url.rstrip("/").rsplit("/", 1)[1]
    match = Match.objects.get(public_id=public_id)
    assert match.kind == kind and match.seats.get(index=0).user.username == tour.username
    assert not match.rated
    return match


def read_rules_and_history(tour, base_url, kinds, played):
    """Each game's rules from its card on the play page, then the profile from the
    header and the history from the profile, which lists the ``played`` matches."""
    page = tour.page
    for kind in kinds:
        page.goto(base_url + "/play/")
        page.locator(f"#game-{kind} .game-card-links a[href='/rules/{kind}/']").click()
        page.wait_for_url(f"{base_url}/rules/{kind}/")
        tour.look(f"rules-{kind}")
    page.locator(f".nav-wide a[href='/u/{tour.username}/']").click()
    page.wait_for_url(f"{base_url}/u/{tour.username}/")
    tour.look("profile")
    page.locator(f"main a[href='/u/{tour.username}/matches/']").first.click()
    page.wait_for_url(f"{base_url}/u/{tour.username}/matches/")
    for match in played:
        expect(page.locator(f"main a[href^='/m/{match.public_id}/']").first).to_be_visible()
    tour.look("history")


@pytest.mark.long
@pytest.mark.timeout(3 * LIMIT_SECONDS + 300)
@pytest.mark.parametrize("lang", list(BROWSERS))
def test_a_new_person_plays_every_game_in_their_language(browser, live_server_url, celery_worker, lang):
    tour = Tour(new_person(browser, lang), lang, f"new_{lang}_player")
    sign_up(tour, live_server_url)
    played = {}
    for kind in sites.kinds():
        open_play(tour, live_server_url)
        tour.look("play")
        match = start_against_the_computer(tour, live_server_url, kind)
        tour.look(f"match-{kind}", whole=False)

        def now_and_then(acts, kind=kind):
            if sum(acts.values()) % 8 == 0:
                tour.read(f"match-{kind}")
            return False

        play_to_the_result(tour.page, match, each=now_and_then)
        played[kind] = match
        expect(tour.page.locator("#status .result")).to_be_visible()
        assert Match.objects.get(pk=match.pk).status == "finished"
        tour.look(f"match-{kind}-over", whole=False)
    read_rules_and_history(tour, live_server_url, sites.kinds(), played=played.values())
    assert not tour.found, f"English left over in {lang}:\n{tour.report()}"


def test_arabic_sign_up_two_turns_of_rondo_its_rules_and_the_history(browser, live_server_url, celery_worker):
    """The short tour, in CI: an Arabic browser signs up, plays two turns of Rondo
    against the computer from the play page, reads Rondo's rules and the history;
    every page right to left, no English on any."""
    tour = Tour(new_person(browser, "ar"), "ar", "new_ar_short")
    sign_up(tour, live_server_url)
    open_play(tour, live_server_url)
    tour.look("play")
    match = start_against_the_computer(tour, live_server_url, "rondo")
    tour.read("match-rondo")

    def two_turns(acts):
        tour.read("match-rondo")
        turns = (Move.objects.filter(match=match, actor="seat", seat=0)
                 .values("version_after").distinct().count())
        return turns >= 2

    play_to_the_result(tour.page, match, each=two_turns)
    tour.look("match-rondo", whole=False)
    read_rules_and_history(tour, live_server_url, ["rondo"], played=[match])
    assert not tour.found, f"English left over in ar:\n{tour.report()}"


def test_bad_language_input_through_the_server(browser, live_server_url):
    """The menu's POST forged and a huge or malformed Accept-Language, sent over HTTP
    to daphne (whose header limits the test client lacks): a clear refusal or the best
    language the site has, never a 500."""
    context = browser.new_context()
    http = context.request
    http.get(live_server_url + "/signup/")  # the CSRF cookie, as the page sets it
    token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")

    def choose(language, next_="/play/"):
        return http.post(live_server_url + "/language/", max_redirects=0,
                         form={"csrfmiddlewaretoken": token, "language": language, "next": next_})

    forged = choose("xx")
    assert forged.status == 400 and "language" in forged.text().lower()
    assert choose("de" * 5000).status == 400
    assert choose("de", "https://evil.example/").headers["location"] == "/"
    assert choose("ar", "//evil.example/").headers["location"] == "/"
    # The cookie now says Arabic: the browser's header no longer decides.
    home = http.get(live_server_url + "/", headers={"Accept-Language": "de"})
    assert home.headers["content-language"] == "ar"
    context.clear_cookies()
    headers = [("xx;q=1, de;q=0.8, ar;q=0.5", "de"), ("de;q=abc", "en"), ("de-;q=.5, -ar, *", "en"),
               (",".join(f"x{n:04}" for n in range(1500)) + ",es", "en")]  # 9 kB, Spanish past Django's cap
    for header, language in headers:
        answer = http.get(live_server_url + "/rules/rondo/", headers={"Accept-Language": header})
        assert answer.status == 200 and answer.headers["content-language"] == language, header
    assert _raw_get(live_server_url, "/play/", "ह, ع, de".encode()) == 200  # not ASCII: bytes as sent
    # Past the server's header limit (twisted's 16 kB): a 400 and the connection
    # closed, often before the client has read the 400; never a server error. The
    # server answers the next request as ever.
    try:
        assert _raw_get(live_server_url, "/", b"de," + b"x" * 100_000) == 400
    except ConnectionError:
        pass
    assert _raw_get(live_server_url, "/", b"de") == 200
    context.close()


def _raw_get(base_url, path, accept_language: bytes) -> int:
    """The status of a GET whose Accept-Language is ``accept_language``'s bytes as they
    are (a browser's API refuses to send what is not ASCII; a client may)."""
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(base_url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    try:
        connection.putrequest("GET", path)
        connection.putheader("Accept-Language", accept_language)
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()
