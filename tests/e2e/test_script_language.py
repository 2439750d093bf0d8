"""The scripts speak the page's language in a real Chromium (docs/i18n.md "Scripts"): the
catalogue (/jsi18n/) loads under the Content-Security-Policy before the scripts, and both
the modules (static/js/i18n.js) and the classic scripts (window.gettext) use it."""

from playwright.sync_api import expect

from tests.e2e.test_live_play import in_thread, live, log_in
from tests.factories import ludo_state, make_match


def test_a_german_match_page_says_its_scripts_words_in_german(browser, live_server_url):
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state(turn=1))
    user = match.seats.get(index=1).user
    context = browser.new_context(locale="de-DE")  # Accept-Language: de-DE
    log_in(context, user, live_server_url)
    page = context.new_page()
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    catalogue = []
    page.on("response", lambda r: catalogue.append(r) if "/jsi18n/" in r.url else None)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)  # "Live" is "Live" in German too
    assert [r.status for r in catalogue] == [200] and "l=de" in catalogue[0].url
    # A classic script (attention.js): the page opened on this seat's turn.
    assert page.title().startswith("Du bist am Zug · ")
    # A module (match.js through i18n.js): offline, the page says so at once.
    context.set_offline(True)
    offline = "Offline: Du kannst wieder ziehen, sobald das Netz zurück ist."
    expect(page.locator("#move-wait")).to_have_text(offline)
    context.set_offline(False)
    expect(page.locator("#connection-status")).to_have_text("Live", timeout=20_000)
    assert refused == []
