"""Sign up, log out and log back in through a real Chromium against daphne."""

from playwright.sync_api import expect

from accounts.models import User


def test_sign_up_log_out_log_in(page, live_server_url):
    page.goto(live_server_url + "/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("grace")
    page.get_by_label("Email").fill("grace@example.com")
    page.get_by_label("Password", exact=True).fill("a sturdy pass 42")
    page.get_by_label("Password confirmation").fill("a sturdy pass 42")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="grace")).to_be_visible()
    assert User.objects.filter(username="grace").exists()

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in", exact=True)).to_be_visible()

    page.get_by_role("link", name="Log in", exact=True).click()
    page.get_by_label("Username").fill("grace")
    page.get_by_label("Password").fill("a sturdy pass 42")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    expect(page.get_by_role("link", name="grace")).to_be_visible()


def test_bad_sign_up_shows_errors_in_the_browser(page, live_server_url):
    page.goto(live_server_url + "/signup/")
    page.get_by_label("Username").fill("grace")
    page.get_by_label("Email").fill("nope")
    page.get_by_label("Password", exact=True).fill("123")
    page.get_by_label("Password confirmation").fill("123")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("alert").first).to_be_visible()
    assert not User.objects.filter(username="grace").exists()
