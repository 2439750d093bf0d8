"""Ranked play in a real Chromium: two people queue for ranked 2-player Ludo,
are paired and taken to the match, play it to the end, see their new ratings,
find the match in their history and step through its replay."""

import re

from playwright.sync_api import expect

from games.engine import fair
from games.models import Match, RatingChange
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.factories import ludo_state, make_user, restart_match_from


def test_two_people_are_paired_play_to_the_end_and_replay_it(browser, live_server_url):
    users = [in_thread(make_user, name) for name in ("ranked_ann", "ranked_bob")]
    pages = []
    for user in users:
        context = browser.new_context()
        log_in(context, user, live_server_url)
        pages.append(context.new_page())
    ann, bob = pages

    # Ann joins the ranked 2-player Ludo queue and waits, live.
    ann.goto(f"{live_server_url}/play/")
    ann.get_by_role("button", name="Ludo, 2 players").click()
    expect(ann.locator("#queue-status")).to_contain_text("±100")
    expect(ann.locator("#queue-count")).to_contain_text("1 player waiting", timeout=20_000)

    # Bob joins the same queue: the pairing runs at once, Bob's page goes to
    # the match, and Ann's page follows over the queue socket.
    bob.goto(f"{live_server_url}/play/")
    bob.get_by_role("button", name="Ludo, 2 players").click()
    bob.wait_for_url(re.compile(r"/m/[a-z0-9]+/$"))
    match = Match.objects.get()
    assert match.rated and match.is_public and match.status == "active"
    ann.wait_for_url(f"**/m/{match.public_id}/", timeout=20_000)
    for page in pages:
        live(page)

    # Bring the match near its end: the seat to move has three pieces home and
    # its last one exactly as far from home as its next roll (known from the seed).
    seat = match.seats.get(index=0)
    k = 1
    die = fair.draw(bytes.fromhex(match.seed), match.public_id, k, [1] * 6) + 1
    state = ludo_state(2, turn=0, chance_count=k, pieces=[[56, 56, 56, 56 - die], [-1] * 4])
    match = in_thread(restart_match_from, match, state)
    mover = pages[[u.pk for u in users].index(seat.user_id)]
    expect(mover.locator("#match")).to_have_attribute("data-version", str(match.version), timeout=20_000)
    mover.get_by_role("button", name="Roll the die").click()
    for page in pages:
        expect(page.locator("#status")).to_contain_text("Match over.", timeout=20_000)

    match.refresh_from_db()
    assert match.status == "finished"
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert changes[seat.user_id].after == 1520

    for user, page in zip(users, pages, strict=True):
        # The new rating on the profile (provisional: "?").
        page.goto(f"{live_server_url}/u/{user.username}/")
        expected = "1520?" if user.pk == seat.user_id else "1480?"
        expect(page.locator('tr[data-kind="ludo"] td.rating')).to_contain_text(expected)
        expect(page.locator(".rating-chart circle")).to_have_count(1)
        # The match in the history, and its replay.
        page.get_by_role("link", name=f"All matches of {user.username}").click()
        row = page.locator(f'tr[data-match="{match.public_id}"]')
        expect(row).to_contain_text("rated")
        row.get_by_role("link", name="Replay").click()
        expect(page.locator("#replay-position")).to_have_text("Ply 0 of 3")
        page.wait_for_load_state()  # replay.js (deferred) takes the next key
        expect(page.locator("#fairness-result")).to_contain_text(
            "Every chance outcome matches the revealed seed (1 checked)")
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-position")).to_have_text("Ply 1 of 3")
        page.wait_for_load_state()  # replay.js (deferred) takes the next key
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-position")).to_have_text("Ply 2 of 3")
        page.wait_for_load_state()  # replay.js (deferred) takes the next key
        expect(page.locator("#replay-move")).to_contain_text(f"rolled {die}")
        expect(page.locator("#dice")).to_contain_text(f"Last roll: {die}")
        page.keyboard.press("End")
        expect(page.locator("#replay-position")).to_have_text("Ply 3 of 3")
        page.wait_for_load_state()  # replay.js (deferred) takes the next key
        expect(page.locator("#seats")).to_contain_text("Place 1")
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#replay-position")).to_have_text("Ply 2 of 3")
        page.wait_for_load_state()  # replay.js (deferred) takes the next key
        page.get_by_role("link", name="First").click()
        expect(page.locator("#replay-position")).to_have_text("Ply 0 of 3")
        page.wait_for_load_state()  # replay.js (deferred) takes the next key
    for page in pages:
        page.context.close()


def test_a_player_held_by_an_unfinished_match_leaves_it_from_the_panel_and_is_paired_at_once(
        browser, live_server_url):
    """The queue panel names the match that keeps a player from being paired; its
    "Leave it" leaves that match in place (leaving the page would leave the queue)
    and pairs them at once."""
    from matchmaking.queue import actions as queue_actions
    from tests.factories import make_match

    ann, bob = (in_thread(make_user, name) for name in ("held_ann", "held_bob"))
    solo = in_thread(make_match, seats=("human", "normal"), users=[ann])
    context = browser.new_context()
    log_in(context, ann, live_server_url)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{live_server_url}/play/")
    page.get_by_role("button", name="Ludo, 2 players").click()
    in_thread(queue_actions.join_queue, bob, "ludo", 2)
    held = page.locator(".queue-held")
    expect(held).to_contain_text("You can't be paired yet")
    expect(held.get_by_role("link", name="Ludo match")).to_have_attribute("href", f"/m/{solo.public_id}/")
    held.get_by_role("button", name="Leave it").click()
    expect(page).to_have_url(re.compile(r"/m/[a-z0-9]+/$"), timeout=20_000)
    ranked = Match.objects.get(rated=True)
    expect(page).to_have_url(re.compile(rf"/m/{ranked.public_id}/$"))
    assert {s.user_id for s in ranked.seats.all()} == {ann.pk, bob.pk}
    assert Match.objects.get(pk=solo.pk).is_over
