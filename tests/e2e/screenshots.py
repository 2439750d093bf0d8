"""The README's screenshots (docs/screenshots/): each game's decisions, and the play
page, a leaderboard, a history and a replay of a young site (tests/e2e/lobby_site.py),
at 1280x800 and 390x844, light and dark. Not collected by the suite (the file name does
not start with test_); run it by name:

    .venv/bin/python -m pytest -p no:cacheprovider tests/e2e/screenshots.py

PARLOUR_SHOTS names the folder (default docs/screenshots); PARLOUR_SHOT_NAMES picks
some (comma-separated: the match decisions' names, and play, leaderboard, history,
replay, notify-home, notify-play, notify-toast); PARLOUR_PAGE_SHOT_NAMES the pages of
"Playing again" (below), none by default."""

import os
from pathlib import Path

import pytest

from tests.e2e.lobby_site import populate
from tests.e2e.positions import ON_PAGE, make_decision
from tests.e2e.test_live_play import in_thread, live, log_in

SHOTS = Path(os.environ.get("PARLOUR_SHOTS", Path(__file__).resolve().parents[2] / "docs" / "screenshots"))
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
#: The lobby's pages: name -> the path on the site of lobby_site.populate().
PAGES = {
    "play": lambda site: "/play/",
    "leaderboard": lambda site: "/leaderboard/ludo/",
    "history": lambda site: f"/u/{site.me.username}/matches/",
    "replay": lambda site: f"/m/{site.finished.public_id}/replay/?ply=24",
}
#: "Your matches" and a toast (README "Notifications"): name -> the page's path.
NOTIFY_PATHS = {"notify-home": "/", "notify-play": "/play/", "notify-toast": "/rules/"}
_CHOSEN = os.environ.get("PARLOUR_SHOT_NAMES", "ludo-choose,roundabout-darts,rondo-place," + ",".join(PAGES))
NAMES = [n for n in _CHOSEN.split(",") if n and n not in PAGES and n not in NOTIFY_PATHS]
PAGE_NAMES = [n for n in _CHOSEN.split(",") if n in PAGES]


@pytest.mark.parametrize("name", NAMES)
def test_screenshots(browser, live_server_url, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    match = in_thread(make_decision, name)
    user = match.seats.get(index=0).user
    for size, (w, h) in SIZES.items():
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)
            log_in(context, user, live_server_url)
            page = context.new_page()
            page.goto(f"{live_server_url}/m/{match.public_id}/")
            live(page)
            if name in ON_PAGE:
                ON_PAGE[name](page)
            page.wait_for_timeout(300)
            page.screenshot(path=SHOTS / f"{name}-{size}-{scheme}.png")
            context.close()



@pytest.mark.parametrize("name", PAGE_NAMES)
def test_page_screenshots(browser, live_server_url, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    site = in_thread(populate)
    for size, (w, h) in SIZES.items():
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)
            log_in(context, site.me, live_server_url)
            page = context.new_page()
            page.goto(f"{live_server_url}{PAGES[name](site)}")
            page.wait_for_timeout(300)
            page.screenshot(path=SHOTS / f"{name}-{size}-{scheme}.png")
            context.close()


NOTIFY_SHOTS = [n for n in _CHOSEN.split(",") if n in NOTIFY_PATHS]


@pytest.mark.parametrize("name", NOTIFY_SHOTS)
def test_notification_screenshots(browser, live_server_url, name):
    """"Your matches" on the home and play pages (notify-home, notify-play)
    and a "your turn" toast on the rules page (notify-toast), README "Notifications"."""
    from tests.e2e.test_notifications import your_turn_setup

    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (w, h) in SIZES.items():
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)
            page = your_turn_setup(context, live_server_url, NOTIFY_PATHS[name])
            page.wait_for_timeout(300)
            page.screenshot(path=SHOTS / f"{name}-{size}-{scheme}.png")
            context.close()


# -- Pages of "Playing again" (README), by name: PARLOUR_PAGE_SHOT_NAMES=rematch-offer,... --------


def _rematch_offer():
    """A finished ranked match whose winner offered a rematch, as the other seat sees it."""
    from games import actions
    from matchmaking.rematch import actions as rematch
    from tests.factories import make_match, make_user

    ada, bob = make_user("ada"), make_user("bob")
    match = make_match(seats=("human", "human"), users=[ada, bob], rated=True)
    actions.leave_match(match.public_id, ada)
    rematch.do_offer(match.public_id, bob)
    return ada, f"/m/{match.public_id}/"


def _rematch_computers():
    """A finished match against computers, as its player sees it (one-click Rematch)."""
    from games import actions
    from tests.factories import make_match, make_user

    ada = make_user("ada")
    match = make_match(seats=("human", "easy", "strong"), users=[ada])
    actions.leave_match(match.public_id, ada)
    return ada, f"/m/{match.public_id}/"


def _room_lobby_again():
    """A room back in its lobby after its match, seen by its host, with a new invite link."""
    from games import actions
    from matchmaking.models import Room
    from tests.factories import make_user, start_room_match

    host, ada = make_user("hostess"), make_user("ada")
    match = start_room_match(host, [ada])
    actions.leave_match(match.public_id, ada)
    return host, f"/rooms/{Room.objects.get(match=match).code}/"


def _profile_challenge():
    """Another player's profile, with its challenge form."""
    from tests.factories import make_user

    make_user("bob")
    return make_user("ada"), "/u/bob/"


def _play_challenged():
    """The play page of a player who was challenged."""
    from matchmaking.challenges import actions as challenges
    from tests.factories import make_user

    ada, bob = make_user("ada"), make_user("bob")
    challenges.do_challenge(ada, "bob", "rondo", 30)
    return bob, "/play/"


def _challenge_waiting():
    """A challenge's page as its challenger waits for the answer."""
    from matchmaking.challenges import actions as challenges
    from tests.factories import make_user

    ada, _ = make_user("ada"), make_user("bob")
    return ada, f"/challenges/{challenges.do_challenge(ada, 'bob', 'ludo', 60).pk}/"


AGAIN_PAGES = {"rematch-offer": _rematch_offer, "rematch-computers": _rematch_computers,
         "room-lobby-again": _room_lobby_again, "profile-challenge": _profile_challenge,
         "play-challenged": _play_challenged, "challenge-waiting": _challenge_waiting}
AGAIN_NAMES = [n for n in os.environ.get("PARLOUR_PAGE_SHOT_NAMES", "").split(",") if n]


@pytest.mark.parametrize("name", AGAIN_NAMES)
def test_again_screenshots(browser, live_server_url, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    user, path = in_thread(AGAIN_PAGES[name])
    for size, (w, h) in SIZES.items():
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)
            log_in(context, user, live_server_url)
            page = context.new_page()
            page.goto(f"{live_server_url}{path}")
            if name == "room-lobby-again":
                page.get_by_role("button", name="Make an invite link").click()
            page.wait_for_timeout(400)
            page.screenshot(path=SHOTS / f"{name}-{size}-{scheme}.png", full_page=True)
            context.close()


# -- Turn-based clocks (docs/features.md "Turn-based play"): PARLOUR_CLOCK_SHOT_NAMES=holidays,... ----


def _holidays():
    """The holidays page with one holiday booked and one under way."""
    import datetime as dt

    from accounts import holidays
    from tests.factories import make_user

    ada = make_user("ada")
    today = holidays.today_for(ada)
    holidays.book_holiday(ada, today, today + dt.timedelta(days=1))
    holidays.book_holiday(ada, today + dt.timedelta(days=30), today + dt.timedelta(days=36))
    return ada, "/account/holidays/"


def _match_on_holiday():
    """A turn-based Rondo match whose player to move is on holiday, seen by the other."""
    import datetime as dt

    from accounts import holidays
    from games.time_controls import DAY
    from tests.factories import make_match, make_user

    ada, bob = make_user("ada"), make_user("bob")
    match = make_match("rondo", seats=("human", "human"), users=[bob, ada], turn_seconds=3 * DAY)
    to_move = match.seats.get(index=match.seat_to_move).user
    today = holidays.today_for(to_move)
    holidays.book_holiday(to_move, today, today + dt.timedelta(days=4))
    other = ada if to_move == bob else bob
    return other, f"/m/{match.public_id}/"


CLOCK_PAGES = {"holidays": _holidays, "match-on-holiday": _match_on_holiday}
CLOCK_NAMES = [n for n in os.environ.get("PARLOUR_CLOCK_SHOT_NAMES", "").split(",") if n]


@pytest.mark.parametrize("name", CLOCK_NAMES)
def test_clock_screenshots(browser, live_server_url, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    user, path = in_thread(CLOCK_PAGES[name])
    for size, (w, h) in SIZES.items():
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)
            log_in(context, user, live_server_url)
            page = context.new_page()
            page.goto(f"{live_server_url}{path}")
            page.wait_for_timeout(400)
            page.screenshot(path=SHOTS / f"{name}-{size}-{scheme}.png", full_page=True)


# -- The pages a turn-based player comes back to (docs/features.md "Turn-based play"), by name:
#    PARLOUR_TURN_SHOT_NAMES=turn-home,turn-play,turn-match (none by default) -------------------


def _turn_based_site():
    """ada in six turn-based matches (three waiting for her, three for others) and one
    live one; returns ada and the Rondo match waiting for her."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Match
    from games.time_controls import DAY
    from tests.factories import ludo_state, make_match, make_user

    ada, bob, cai, dee = (make_user(n) for n in ("ada", "bob", "cai", "dee"))
    ada.time_zone = "Europe/Paris"
    ada.save(update_fields=["time_zone"])
    now = timezone.now()

    ids = iter(f"turnshot{n:02}" for n in range(99))

    def tb(kind, users, days, left, mine, state=None):
        """A match whose first decision is ada's (``mine``) or another's: the first
        seat to move is drawn from the seed and the id (tests/factories.make_match)."""
        while True:
            match = make_match(kind, seats=("human",) * len(users), users=users, turn_seconds=days * DAY,
                               state=state, public_id=next(ids))
            match.refresh_from_db()
            if (match.seats.get(index=match.seat_to_move).user == ada) == mine:
                break
            match.seats.all().delete()
            match.delete()
        Match.objects.filter(pk=match.pk).update(deadline=now + left)
        return match

    rondo = tb("rondo", [ada, bob], 3, timedelta(days=2, hours=4, minutes=12), True)
    tb("roundabout", [ada, cai], 1, timedelta(hours=3, minutes=20), True)
    tb("ludo", [ada, bob, cai, dee], 5, timedelta(days=4, hours=22), True, state=ludo_state(4, turn=0))
    tb("rondo", [cai, ada], 2, timedelta(days=1, hours=7), False)
    tb("ludo", [ada, dee], 7, timedelta(days=6, hours=1), False, state=ludo_state(turn=1))
    tb("roundabout", [bob, ada], 14, timedelta(days=11, hours=5), False)
    make_match(seats=("human", "normal"), users=[ada], state=ludo_state(turn=0))
    return ada, rondo


TURN_PAGES = {"turn-home": lambda m: "/", "turn-play": lambda m: "/play/",
              "turn-match": lambda m: f"/m/{m.public_id}/"}
TURN_NAMES = [n for n in os.environ.get("PARLOUR_TURN_SHOT_NAMES", "").split(",") if n]


@pytest.mark.parametrize("name", TURN_NAMES)
def test_turn_based_screenshots(browser, live_server_url, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    ada, rondo = in_thread(_turn_based_site)
    for size, (w, h) in SIZES.items():
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme,
                                          timezone_id="Europe/Paris")
            log_in(context, ada, live_server_url)
            page = context.new_page()
            page.goto(f"{live_server_url}{TURN_PAGES[name](rondo)}")
            if name == "turn-match":
                live(page)
            page.wait_for_timeout(1200)
            whole = name != "turn-match" and size == "desktop"
            page.screenshot(path=SHOTS / f"{name}-{size}-{scheme}.png", full_page=whole)
            context.close()


# -- Blocking a player (docs/features.md "Blocking a player"), by name:
#    PARLOUR_BLOCK_SHOT_NAMES=block-profile,block-list (none by default) ------------------------


def _block_profile():
    """Bob's profile as ada sees it, with the Block button."""
    from tests.factories import make_user

    ada, bob = make_user("ada"), make_user("bob")
    return ada, f"/u/{bob.username}/"


def _block_list():
    """Ada's block list with two players on it."""
    from accounts import blocks
    from tests.factories import make_user

    ada = make_user("ada")
    for name in ("bob", "carol_the_long_named"):
        blocks.do_block(ada, make_user(name).username)
    return ada, "/account/blocked/"


def _blocked_profile():
    """Bob's profile as ada sees it once she blocked him: no challenge form, Unblock."""
    from accounts import blocks
    from tests.factories import make_user

    ada, bob = make_user("ada"), make_user("bob")
    blocks.do_block(ada, bob.username)
    return ada, f"/u/{bob.username}/"


BLOCK_PAGES = {"block-profile": _block_profile, "block-list": _block_list,
               "blocked-profile": _blocked_profile}
BLOCK_NAMES = [n for n in os.environ.get("PARLOUR_BLOCK_SHOT_NAMES", "").split(",") if n]


@pytest.mark.parametrize("name", BLOCK_NAMES)
def test_block_screenshots(browser, live_server_url, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    user, path = in_thread(BLOCK_PAGES[name])
    for size, (w, h) in SIZES.items():
        context = browser.new_context(viewport={"width": w, "height": h})
        log_in(context, user, live_server_url)
        page = context.new_page()
        page.goto(f"{live_server_url}{path}")
        page.wait_for_timeout(300)
        page.screenshot(path=SHOTS / f"{name}-{size}.png", full_page=True)
        context.close()


#: Verified e-mail (docs/features.md "Confirming your e-mail"): after sign-up, the
#: confirmation link's page, and that page once confirmed. None by default:
#: PARLOUR_EMAIL_SHOT_NAMES=email-sent,email-confirm,email-confirmed,email-banner.
EMAIL_NAMES = [n for n in os.environ.get("PARLOUR_EMAIL_SHOT_NAMES", "").split(",") if n]


def _confirm_path(username):
    from accounts import confirmation
    from accounts.models import User

    user = User.objects.get(username=username)
    return f"/account/email/confirm/{confirmation.token(user.pk, user.email)}/"


@pytest.mark.parametrize("name", EMAIL_NAMES)
def test_email_screenshots(browser, live_server_url, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (w, h) in SIZES.items():
        username = f"{size}_{name.replace('-', '_')}"
        context = browser.new_context(viewport={"width": w, "height": h})
        page = context.new_page()
        page.goto(f"{live_server_url}/signup/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Email").fill(f"{username}@example.com")
        page.get_by_label("Password", exact=True).fill("a sturdy pass 42")
        page.get_by_label("Password confirmation").fill("a sturdy pass 42")
        page.get_by_role("button", name="Create account").click()
        page.get_by_role("heading", name="Check your mail").wait_for()
        if name == "email-banner":  # any page but the e-mail ones: the line with the link
            page.goto(f"{live_server_url}/play/")
        elif name != "email-sent":
            page.goto(live_server_url + in_thread(_confirm_path, username))
            if name == "email-confirmed":
                page.get_by_role("button", name="Confirm").click()
                page.get_by_text("is confirmed for the account").wait_for()
        page.screenshot(path=SHOTS / f"{name}-{size}.png", full_page=True)
        context.close()


# -- Closing an account (docs/features.md "Closing your account and your data"), by name:
#    PARLOUR_CLOSE_SHOT_NAMES=close-account,closed-history,closed-replay (none by default) ------


def _close_account():
    from tests.factories import make_user

    return make_user("ada"), "/account/close/"


def _closed_player(path):
    """Ada and Bob's rated Ludo match played out, then Ada's account closed; Bob's view of ``path``."""
    from accounts import closing
    from tests.factories import ludo_state, make_match, make_user, play_to_the_end

    ada, bob = make_user("ada"), make_user("bob")
    state = ludo_state(pieces=[[56, 56, 56, 50], [56, 56, 56, 50]])
    match = play_to_the_end(make_match(seats=("human", "human"), users=[ada, bob], state=state, rated=True))
    closing.close_account(ada, "a sturdy pass 42")
    return bob, path(match)


CLOSE_PAGES = {
    "close-account": _close_account,
    "closed-history": lambda: _closed_player(lambda m: "/u/bob/matches/"),
    "closed-replay": lambda: _closed_player(lambda m: f"/m/{m.public_id}/replay/"),
}
CLOSE_NAMES = [n for n in os.environ.get("PARLOUR_CLOSE_SHOT_NAMES", "").split(",") if n]


@pytest.mark.parametrize("name", CLOSE_NAMES)
def test_close_screenshots(browser, live_server_url, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    user, path = in_thread(CLOSE_PAGES[name])
    for size, (w, h) in SIZES.items():
        context = browser.new_context(viewport={"width": w, "height": h}, color_scheme="light")
        log_in(context, user, live_server_url)
        page = context.new_page()
        page.goto(f"{live_server_url}{path}")
        page.wait_for_timeout(400)
        page.screenshot(path=SHOTS / f"{name}-{size}-light.png", full_page=True)
        context.close()
