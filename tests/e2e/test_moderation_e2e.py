"""Moderation in a real Chromium (README "Moderation"): a ban closes the player's open
match page with 4003 and the page says why; the admin's ban page and a
player's report page render (screenshots kept in the test's tmp folder)."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from moderation import actions as moderation
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.factories import ludo_state, make_match
from tests.moderation.conftest import moderators_group


@pytest.fixture
def shots(tmp_path_factory):
    return tmp_path_factory.mktemp("moderation")


def test_a_ban_disconnects_the_players_page_and_it_says_why(page, browser, live_server_url, shots,
                                                            csp_violations):
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state(), rated=True)
    banned, other = (s.user for s in match.seats.select_related("user").order_by("index"))
    moderator = User.objects.create_user("mod", "mod@example.com", "a sturdy pass 42", is_staff=True)
    moderator.groups.add(moderators_group())

    log_in(page.context, banned, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    in_thread(moderation.ban_user, moderator, banned, None, "cheating")
    expect(page.locator("#connection-status")).to_contain_text("You are banned from playing.", timeout=20_000)
    page.screenshot(path=shots / "banned.png", full_page=True)
    page.reload()
    expect(page.locator(".messages")).to_contain_text("This account is banned. Reason: cheating.")

    reporter = browser.new_context()
    log_in(reporter, other, live_server_url)
    rpage = reporter.new_page()
    rpage.goto(f"{live_server_url}/m/{match.public_id}/")
    rpage.get_by_role("link", name=f"Report {banned.username}").click()
    rpage.get_by_label("Reason").select_option("cheating")
    rpage.screenshot(path=shots / "report.png", full_page=True)
    rpage.get_by_role("button", name="Send the report").click()
    expect(rpage.locator(".messages")).to_contain_text("Thank you")

    desk = browser.new_context()
    log_in(desk, moderator, live_server_url)
    apage = desk.new_page()
    apage.goto(f"{live_server_url}/admin/accounts/user/{banned.pk}/change/")
    expect(apage.locator("body")).to_contain_text("Moderation history")
    apage.screenshot(path=shots / "admin_user.png", full_page=True)
    apage.goto(f"{live_server_url}/admin/accounts/user/")
    apage.locator(f'input[name="_selected_action"][value="{other.pk}"]').check()
    apage.locator('select[name="action"]').select_option("ban_users")
    apage.locator('button[name="index"], input[name="index"]').first.click()
    expect(apage.locator("h1, h2").first).to_be_visible()
    apage.screenshot(path=shots / "admin_ban_form.png", full_page=True)
    apage.get_by_label("Ban permanently").check()
    apage.get_by_label("Reason").fill("abuse in chat")
    apage.locator('input[name="apply"]').click()
    expect(apage.locator(".messagelist")).to_contain_text("1 user banned.")
    apage.screenshot(path=shots / "admin_banned.png", full_page=True)
    assert User.objects.get(pk=other.pk).is_banned
    print("screenshots in", shots)
    assert csp_violations == []
