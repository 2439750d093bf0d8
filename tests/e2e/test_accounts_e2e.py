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
    expect(page.locator(".messages")).to_contain_text("Welcome to Parlour, grace!")  # on the play page
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


def _header_links_off_screen(page, width):
    """The header's visible links and buttons not wholly inside the viewport's width."""
    return page.evaluate(
        """(w) => [...document.querySelectorAll('.site-header a, .site-header button, .site-header summary')]
             .filter(e => e.getClientRects().length)
             .map(e => [e.textContent.trim(), e.getBoundingClientRect().left,
                        e.getBoundingClientRect().right])
             .filter(([, l, r]) => l < 0 || r > w)""", width)


def test_on_a_phone_every_account_link_is_one_tap_away(browser, live_server_url):
    """At 390 px the header shows Play, the account and a Menu with every link;
    nothing hides in a row that scrolls sideways (before, Log in, Sign up and
    Log out were past the phone's edge)."""
    import os

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server_url + "/")
    assert _header_links_off_screen(page, 390) == []
    expect(page.get_by_role("link", name="Log in", exact=True)).to_be_visible()
    page.get_by_text("Menu").click()
    menu = page.locator(".nav-menu ul")
    for name in ("Play", "Rules", "Leaderboards", "About", "Log in", "Sign up"):
        expect(menu.get_by_role("link", name=name, exact=True)).to_be_visible()
    assert _header_links_off_screen(page, 390) == []
    if os.environ.get("PARLOUR_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["PARLOUR_SHOTS"], "header-phone-menu.png"))
    menu.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("ada_" + "x" * 60)
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Password", exact=True).fill("a sturdy pass 42")
    page.get_by_label("Password confirmation").fill("a sturdy pass 42")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".messages")).to_contain_text("Welcome to Parlour, ada_")
    assert _header_links_off_screen(page, 390) == []
    page.get_by_text("Menu").click()
    if os.environ.get("PARLOUR_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["PARLOUR_SHOTS"], "header-phone-menu-signed-in.png"))
    page.locator(".nav-menu").get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in", exact=True)).to_be_visible()
    context.close()
