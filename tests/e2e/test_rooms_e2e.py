"""A private Ludo room in three real browsers: the host creates it, invites
two friends, adds a computer seat and starts; the host pauses and resumes;
everyone sends a preset message; a friend leaves and their pieces vanish for
everyone. Against daphne, Redis and a Celery worker."""

import pytest
from playwright.sync_api import expect

from games.models import Match
from matchmaking.models import Room
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.factories import make_user


@pytest.fixture
def screenshots(tmp_path_factory):
    return tmp_path_factory.mktemp("room-screens")


def lobby_live(page):
    expect(page.locator("#room-connection")).to_have_text("Live", timeout=20_000)


def invite_link(host_page) -> str:
    host_page.get_by_role("button", name="Make an invite link").click()
    link = host_page.locator("#new-invite-link")
    expect(link).to_be_visible()
    return link.input_value()


def test_friends_play_a_private_room_match(browser, live_server_url, celery_worker, screenshots):
    host, ada, bob = (in_thread(make_user, name) for name in ("hostess", "ada", "bob"))
    pages = {}
    for user in (host, ada, bob):
        context = browser.new_context()
        log_in(context, user, live_server_url)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())  # "Leave this match?"
        pages[user.username] = page
    h, a, b = pages["hostess"], pages["ada"], pages["bob"]

    # The host creates a 4-seat Ludo room over a map of South Asia.
    h.goto(f"{live_server_url}/play/")
    h.get_by_role("link", name="Private room for Ludo").click()
    h.get_by_label("Game", exact=True).select_option("ludo")
    h.get_by_label("Seats", exact=True).select_option("4")
    h.get_by_label("Board", exact=True).select_option("south_asia")
    h.get_by_role("button", name="Create the room").click()
    room = Room.objects.get(host=host)
    expect(h.locator(".room-code")).to_have_text(room.code)
    lobby_live(h)

    # The code alone lets nobody in.
    b.goto(f"{live_server_url}/rooms/{room.code}/")
    expect(b.locator(".room-refusal")).to_contain_text("invite link")

    # Two single-use invite links; each friend's seat fills live on the host's page.
    for friend, name in ((a, "ada"), (b, "bob")):
        link = invite_link(h)
        lobby_live(h)
        friend.goto(link)
        friend.get_by_role("button", name="Join the room").click()
        lobby_live(friend)
        expect(h.locator("#room-seats")).to_contain_text(name, timeout=20_000)
    expect(a.locator("#room-seats")).to_contain_text("bob", timeout=20_000)
    expect(h.locator(".invites")).to_contain_text("Used by ada")
    h.screenshot(path=screenshots / "lobby-host.png", full_page=True)

    # A computer in seat 4, then start: the friends' lobbies follow to the match.
    h.get_by_role("button", name="Add a computer to seat 4").click()
    expect(a.locator("#room-seats")).to_contain_text("Computer (Normal)", timeout=20_000)
    lobby_live(h)
    h.get_by_role("button", name="Start the match").click()
    expect(h.locator("#match")).to_be_visible(timeout=20_000)
    match = Room.objects.get(pk=room.pk).match
    assert match is not None and not match.is_public and not match.rated
    for page in (h, a, b):
        expect(page).to_have_url(f"{live_server_url}/m/{match.public_id}/", timeout=20_000)
        live(page)
    expect(h.locator("#board image.lb-backdrop")).to_have_count(1)
    expect(h.locator("#board .board-credit")).to_contain_text("Natural Earth")

    # The host pauses: every page shows it; then resumes.
    h.locator("#controls").get_by_role("button", name="Pause").click()
    live(h)
    for page in (h, a, b):
        expect(page.locator("#status")).to_contain_text("Paused", timeout=20_000)
    assert Match.objects.get(pk=match.pk).status == "paused"
    h.screenshot(path=screenshots / "paused.png", full_page=True)
    h.locator("#controls").get_by_role("button", name="Resume").click()
    live(h)
    for page in (h, a, b):
        expect(page.locator("#status")).not_to_contain_text("Paused", timeout=20_000)
    assert Match.objects.get(pk=match.pk).status == "active"

    # Everyone sends a preset message from the Chat tab; everyone sees all three.
    for page, preset in ((h, "Good luck"), (a, "Thanks"), (b, "thumbs up")):
        page.get_by_role("tab", name="Chat").click()
        page.locator(".chat").get_by_role("button", name=preset, exact=True).first.click()
    for page in (h, a, b):
        log = page.locator("#chat-log")
        expect(log).to_contain_text("hostess: Good luck", timeout=20_000)
        expect(log).to_contain_text("ada: Thanks", timeout=20_000)
        expect(log).to_contain_text("bob: 👍", timeout=20_000)

    # Bob (seat 3, yellow) leaves mid-match: his pieces vanish for everyone.
    colour = match.seats.get(user=bob).colour
    expect(h.locator(f"#board .lb-pc.{colour}")).to_have_count(4)
    b.locator("#controls").get_by_role("button", name="Leave the match").click()
    for page in (h, a):
        expect(page.locator(f"#board .lb-pc.{colour}")).to_have_count(0, timeout=20_000)
        expect(page.locator("#seats")).to_contain_text("Left")
    h.screenshot(path=screenshots / "after-leave.png", full_page=True)
    m = Match.objects.get(pk=match.pk)
    assert m.seats.get(user=bob).status == "left" and m.status == "active"
    for page in pages.values():
        page.context.close()
