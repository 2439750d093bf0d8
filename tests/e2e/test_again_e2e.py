"""Playing again in real Chromium contexts against daphne and Redis (README
"Playing again"): a ranked rematch accepted by both, and the third match in a
row starting unrated; a private room playing two matches in a row with the
same members (its invite link copied with the button); a challenge sent from
a profile and accepted from the play page. The new page parts pass axe's
contrast check in light, dark and forced colours."""

import re

from playwright.sync_api import expect

from games.models import Match
from matchmaking.models import Challenge, Room
from tests.e2e.test_contrast import violations_by_mode
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.factories import make_match, make_user, play_until_every_seat_moved, start_room_match

CSP = []  # the Content-Security-Policy violations Chromium reported on the pages of pages_for


def pages_for(browser, base_url, *users, permissions=()):
    """A page of its own context for each of ``users``, logged in."""
    pages = []
    CSP.clear()
    for user in users:
        context = browser.new_context(permissions=list(permissions))
        log_in(context, user, base_url)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())  # "Leave this match?"
        page.on("console", lambda m: CSP.append(m.text) if "Content Security Policy" in m.text else None)
        pages.append(page)
    return pages


def leave(page):
    # "Abort (not rated)" or "Leave (counts as a loss)" in a rated match (docs/rules.md "Leaving").
    page.locator("#controls .leave-form button").click()
    expect(page.locator("#status")).to_contain_text("Match over.", timeout=20_000)


def match_url(base_url, match) -> re.Pattern:
    return re.compile(re.escape(f"{base_url}/m/{match.public_id}/") + "$")


def test_a_ranked_rematch_accepted_by_both_and_the_third_in_a_row_unrated(browser, live_server_url,
                                                                         axe_source):
    ada, bob = in_thread(make_user, "ada"), in_thread(make_user, "bob")
    first = in_thread(make_match, seats=("human", "human"), users=[ada, bob], rated=True)
    a, b = pages_for(browser, live_server_url, ada, bob)
    played = [first]
    for round_ in (1, 2):
        match = played[-1]
        in_thread(play_until_every_seat_moved, match)  # a leave then leaves it rated (games/rating.py)
        for page in (a, b):
            page.goto(f"{live_server_url}/m/{match.public_id}/")
            live(page)
        leave(a if round_ == 1 else b)  # the other wins
        offerer, answerer = (b, a) if round_ == 1 else (a, b)
        expect(offerer.locator("#rematch-button")).to_have_text("Offer a rematch")
        note = "Rated, like this match." if round_ == 1 else "at most two rated matches in a row"
        expect(offerer.locator("#rematch")).to_contain_text(note)
        offerer.locator("#rematch-button").click()
        expect(offerer.locator("#rematch")).to_contain_text("you accepted. Waiting for")
        # The other seat is asked live, on the page it has open.
        expect(answerer.locator("#rematch")).to_contain_text("offers a rematch", timeout=20_000)
        if round_ == 1:
            assert violations_by_mode(answerer, axe_source) == {}
        answerer.get_by_role("button", name="Accept the rematch").click()
        new = Match.objects.exclude(pk__in=[m.pk for m in played]).get()
        # Both land on the new match: the accepting page by its post, the other by the push.
        for page in (a, b):
            expect(page).to_have_url(match_url(live_server_url, new), timeout=20_000)
            live(page)
        players = list(new.seats.order_by("index").values_list("user_id", flat=True))
        assert players == list(match.seats.order_by("index").values_list("user_id", flat=True))[::-1]
        assert new.rated is (round_ == 1)
        played.append(new)
    assert CSP == []


def test_a_room_plays_two_matches_in_a_row_with_the_same_members(browser, live_server_url, axe_source):
    host, ada = in_thread(make_user, "hostess"), in_thread(make_user, "ada")
    first = in_thread(start_room_match, host, [ada])
    room = Room.objects.get(match=first)
    h, a = pages_for(browser, live_server_url, host, ada, permissions=("clipboard-read", "clipboard-write"))
    for page in (h, a):
        page.goto(f"{live_server_url}/m/{first.public_id}/")
        live(page)
    leave(a)
    # The match is over: both are offered the room's lobby, the same seats in it.
    for page in (h, a):
        expect(page.locator("#rematch")).to_contain_text("back in its lobby", timeout=20_000)
    h.locator("#back-to-room").click()
    expect(h.locator("#room-status")).to_contain_text("The last match is over: hostess won")
    expect(h.locator("#room-seats")).to_contain_text("ada")
    # The invite link's copy button (no new invite is needed, but one can still be copied).
    h.get_by_role("button", name="Make an invite link").click()
    link = h.locator("#new-invite-link").input_value()
    h.get_by_role("button", name="Copy the link").click()
    expect(h.locator("#copy-invite-state")).to_have_text("Copied.")
    assert h.evaluate("navigator.clipboard.readText()") == link
    assert violations_by_mode(h, axe_source) == {}
    expect(h.locator("#room-connection")).to_have_text("Live", timeout=20_000)
    h.get_by_role("button", name="Start the match").click()
    second = Match.objects.exclude(pk=first.pk).get()
    # The host goes to it by the post; ada, still on the old match's page, by the push.
    for page in (h, a):
        expect(page).to_have_url(match_url(live_server_url, second), timeout=20_000)
        live(page)
    assert list(second.seats.order_by("index").values_list("user_id", flat=True)) == [host.pk, ada.pk]
    room.refresh_from_db()
    assert room.status == "playing" and room.match_id == second.pk
    assert CSP == []


def test_a_challenge_sent_from_a_profile_and_accepted_from_the_play_page(browser, live_server_url,
                                                                       axe_source):
    ada, bob = in_thread(make_user, "ada"), in_thread(make_user, "bob")
    a, b = pages_for(browser, live_server_url, ada, bob)
    b.goto(f"{live_server_url}/play/")  # open before the challenge is sent
    a.goto(f"{live_server_url}/u/bob/")
    expect(a.locator(".challenges")).to_contain_text(
        "Rated: the result moves both players' ratings in this game")
    assert violations_by_mode(a, axe_source) == {}
    a.get_by_label("Game").select_option("rondo")
    a.get_by_label("Time per decision").select_option("30")
    a.get_by_role("button", name="Send the challenge").click()
    expect(a.locator("#challenge-state")).to_contain_text("Waiting for bob")
    assert violations_by_mode(a, axe_source) == {}
    challenge = Challenge.objects.get()
    # Bob's play page lists it by itself (htmx asks every 5 s).
    expect(b.locator("#incoming-challenges")).to_contain_text("ada challenges you to Rondo, live, 30 s turns",
                                                             timeout=20_000)
    assert violations_by_mode(b, axe_source) == {}
    b.locator("#incoming-challenges").get_by_role("button", name="Accept").click()
    challenge.refresh_from_db()
    for page in (a, b):
        expect(page).to_have_url(match_url(live_server_url, challenge.match), timeout=20_000)
        live(page)
    assert not challenge.match.rated
    assert CSP == []

