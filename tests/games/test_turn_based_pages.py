"""The pages a turn-based player comes back to (docs/features.md "Turn-based
play", "Coming back: your turn"): "Your turn in N matches" then "Waiting for
others" on the home and play pages, with the time left in days and hours;
the count beside Play on every page; a turn-based match page's clock in days
and hours with its deadline in the viewer's time zone. A live match's row
and clock are as they were."""

import re
from datetime import UTC, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from games import clock_words, push, your_matches
from games.engine import get_rules
from games.frames import contexts, render
from games.models import Match, Seat
from games.time_controls import DAY
from tests.factories import ludo_state, make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("seconds", "words"), [
    (2 * DAY + 5 * 3600 + 59 * 60, "2 days 5 h"),
    (DAY, "1 day"),
    (DAY + 1800, "1 day"),
    (14 * DAY, "14 days"),
    (DAY - 0.001, "1 day"),  # whole seconds rounded up first
    (DAY - 1, "23 h 59 min"),
    (3 * 3600 + 20 * 60 + 40, "3 h 20 min"),
    (3 * 3600, "3 h"),
    (12 * 60 + 59, "12 min"),
    (40, "40 s"),
    (0, "0 s"),
    (-5, "0 s"),
])
def test_time_left_in_days_and_hours_as_the_browser_says_it(seconds, words):
    """The same values as static/js/tests/clock_words.test.mjs."""
    assert clock_words.left(seconds) == words


def _turn_based(ann, bob, *, mine: bool, kind: str = "ludo", days: int = 2, left: timedelta | None = None):
    """A two-seat turn-based Ludo match of ann (seat 0) and bob, waiting for ann's
    decision when ``mine``, else bob's; its deadline ``left`` from now."""
    match = make_match(kind, seats=("human", "human"), users=[ann, bob], turn_seconds=days * DAY,
                       state=ludo_state(turn=0 if mine else 1) if kind == "ludo" else None)
    match.refresh_from_db()
    assert match.turn_based and match.seat_to_move == (0 if mine else 1)
    if left is not None:
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + left)
        match.refresh_from_db()
    return match


def _section(html: str) -> str:
    start = html.index('id="your-matches"')
    return html[start:html.index('class="ym-none"', start)]


def _group(html: str, group: str) -> str:
    """The rows of one list of the section."""
    m = re.search(rf'<ul class="ym-list" data-group="{group}"[^>]*>(.*?)</ul>', _section(html), re.S)
    assert m, group
    return m.group(1)


def test_the_home_and_play_pages_list_your_turn_first_then_waiting_with_days_and_hours(client):
    ann, bob = make_user(), make_user()
    soon = _turn_based(ann, bob, mine=True, left=timedelta(hours=3, minutes=20, seconds=30))
    later = _turn_based(ann, bob, mine=True, kind="ludo", days=3, left=timedelta(days=2, hours=5, minutes=30))
    waiting = _turn_based(ann, bob, mine=False, left=timedelta(days=1, hours=2, minutes=10))
    live = make_match(seats=("human", "human"), users=[ann, bob], state=ludo_state(turn=0))
    client.force_login(ann)
    for url in ("/", "/play/"):
        html = client.get(url).content.decode()
        assert "Your turn in <span" in html
        assert re.search(r'data-group-count="turn">2</span> <span[^>]*>matches<', html)
        turn, wait, live_rows = _group(html, "turn"), _group(html, "wait"), _group(html, "live")
        # Your turn: the soonest deadline first, each with its time left in days and hours.
        assert turn.index(f"ym-{soon.public_id}") < turn.index(f"ym-{later.public_id}")
        assert "3 h 20 min left" in turn and "2 days 5 h left" in turn and turn.count("Your turn") == 2
        assert "3 days a move" in turn and "2 days a move" in turn
        assert f"ym-{waiting.public_id}" in wait and f"Waiting for {bob.username}" in wait
        assert "1 day 2 h left" in wait and "ym-mine" not in wait
        # "Your turn" comes before "Waiting for others" on the page.
        turn_at, wait_at = html.index('data-group="turn"'), html.index('data-group="wait"')
        assert turn_at < html.index("Waiting for others") < wait_at
        # The live match's row is as before: its seconds, in the live list, no group of its own.
        assert f"ym-{live.public_id}" in live_rows and re.search(r"\d+ s left", live_rows)
        assert "data-group" not in live_rows and "data-words" not in live_rows
        assert 'class="ym-none" hidden' in html

    # Bob sees the other side: one match waits for him, two for ann.
    client.force_login(bob)
    html = client.get("/").content.decode()
    assert re.search(r'data-group-count="turn">1</span> <span[^>]*>match<', html)
    assert f"ym-{waiting.public_id}" in _group(html, "turn")
    assert _group(html, "wait").count(f"Waiting for {ann.username}") == 2


def test_groups_with_no_matches_are_hidden_and_a_player_in_none_is_told_so(client):
    ann, bob = make_user(), make_user()
    _turn_based(ann, bob, mine=False)
    client.force_login(ann)
    html = client.get("/").content.decode()
    assert '<div class="ym-group ym-group-turn" hidden>' in html
    assert '<div class="ym-group ym-group-wait">' in html
    client.force_login(make_user())
    html = client.get("/play/").content.decode()
    assert '<p class="ym-none">You are in no match now.' in html and "ym-row" not in html


def test_every_page_counts_the_turn_based_matches_waiting_for_you_beside_play(client):
    ann, bob = make_user(), make_user()
    for mine in (True, True, False):
        _turn_based(ann, bob, mine=mine)
    make_match(seats=("human", "human"), users=[ann, bob], state=ludo_state(turn=0))  # live: not counted
    assert your_matches.your_turn_count(ann.pk) == 2 and your_matches.your_turn_count(bob.pk) == 1
    client.force_login(ann)
    html = client.get("/about/").content.decode()
    badges = re.findall(r'<span class="nav-count" data-count="your-turn"[^>]*>.*?</span></span>', html)
    assert len(badges) == 3  # the wide header, the phone's, the phone's menu
    assert all('<span class="nav-count-n">2</span>' in b and "\" hidden>" not in b for b in badges)
    assert "turn-based matches where it is your turn: </span>" in badges[0]  # number last
    client.force_login(make_user())
    assert '<span class="nav-count-n">0</span>' in client.get("/about/").content.decode()
    assert re.search(r'data-count="your-turn"[^>]* hidden>', client.get("/about/").content.decode())
    client.logout()
    assert "nav-count" not in client.get("/about/").content.decode()


def test_the_list_of_fifty_turn_based_matches_is_two_queries_and_the_count_one(django_assert_num_queries):
    """No match state is loaded for a turn-based row: the seat to move and the
    deadline are on the match row (Match.seat_to_move)."""
    ann = make_user()
    others = [make_user() for _ in range(5)]
    for n in range(50):
        _turn_based(ann, others[n % 5], mine=n % 3 == 0)
    with django_assert_num_queries(2):
        rows = your_matches.panel_rows(ann)
    assert len(rows[your_matches.TURN]) == 17 and len(rows[your_matches.WAIT]) == 33
    with django_assert_num_queries(1):
        assert your_matches.your_turn_count(ann.pk) == 17


def test_a_turn_based_move_moves_the_rows_between_groups_and_pushes_both_counts(
        django_capture_on_commit_callbacks):
    from games import actions

    ann, bob = make_user(), make_user()
    with django_capture_on_commit_callbacks(execute=True):
        match = _turn_based(ann, bob, mine=True)
    rules = get_rules("ludo")
    users = {0: ann, 1: bob}
    for _ in range(8):  # until the decision passes from one player to the other
        m = Match.objects.get(pk=match.pk)
        state = rules.load(m.state)
        mover = rules.to_move(state)
        with push.collect() as sent, django_capture_on_commit_callbacks(execute=True):
            actions.play_move(m.public_id, users[mover], str(rules.legal_moves(state)[0]), m.version)
        now = Match.objects.get(pk=match.pk).seat_to_move
        if now != mover:
            break
    else:
        pytest.fail("the decision never passed")
    events = {(group, e["type"]): e for group, e in sent if group.startswith("notify.")}
    new, old = users[now], users[mover]
    counts = {u: events[(f"notify.{u.pk}", "notify.count")] for u in (new, old)}
    assert counts[new]["n"] == 1 and counts[old]["n"] == 0 and counts[new]["name"] == "your-turn"
    rows = {u: events[(f"notify.{u.pk}", "notify.row")]["html"] for u in (new, old)}
    assert 'data-group="turn"' in rows[new] and "Your turn" in rows[new] and "data-words" in rows[new]
    assert 'data-group="wait"' in rows[old] and f"Waiting for {new.username}" in rows[old]
    assert re.search(r"\d+ (days?|h) .*left", rows[old])
    note = events[(f"notify.{new.pk}", "notify.note")]["note"]
    assert note["kind"] == "your_turn" and note["words"] is True and note["deadline_ms"]


def test_a_live_move_pushes_no_count():
    ann, bob = make_user(), make_user()
    match = make_match(seats=("human", "human"), users=[ann, bob], state=ludo_state(turn=0))
    seats = list(match.seats.select_related("user"))
    rules = get_rules("ludo")
    state = rules.load(match.state)
    events = your_matches.change_events(match, seats, state, None)
    assert events and not [e for _, e in events if e["type"] == "notify.count"]


def test_the_match_page_of_a_turn_based_match_reads_days_and_hours_and_its_deadline_in_your_zone(client):
    ann, bob = make_user(), make_user()
    for user, zone in ((ann, "Asia/Tokyo"), (bob, "America/New_York")):
        user.time_zone = zone
        user.save(update_fields=["time_zone"])
    match = _turn_based(ann, bob, mine=True, left=timedelta(days=1, hours=4, minutes=30))
    for viewer in (ann, bob):  # the player to move and the one waiting: the same clock, each in their zone
        deadline = match.deadline.astimezone(ZoneInfo(viewer.time_zone))
        client.force_login(viewer)
        html = client.get(f"/m/{match.public_id}/").content.decode()
        status = html[html.index('id="status"'):html.index("</div>", html.index('id="status"'))]
        assert re.search(r'Time left: <time id="clock" class="days" data-deadline="\d+" '
                         r'data-server-now="\d+" data-words>1 day 4 h</time>', status), status
        assert "until <time datetime=" in status and "2 days a move" in status
        assert deadline.strftime("%-d %b %Y, %H:%M") in status
        assert " s</time>" not in status
    # A spectator's and every watcher's pushed frame: rendered once, in UTC, and it says so.
    seats = list(match.seats.select_related("user"))
    frame = render.public_frame(contexts.public_context(match, seats))
    assert match.deadline.astimezone(UTC).strftime("%-d %b %Y, %H:%M") + " UTC</time>" in frame
    assert 'data-words>1 day 4 h</time>' in frame


def test_a_live_match_page_keeps_its_seconds_clock(client):
    ann, bob = make_user(), make_user()
    match = make_match(seats=("human", "human"), users=[ann, bob], state=ludo_state(turn=0))
    client.force_login(ann)
    html = client.get(f"/m/{match.public_id}/").content.decode()
    assert re.search(r'<p>Time left: <time id="clock" data-deadline="\d+" '
                     r'data-server-now="\d+">\d+ s</time></p>', html)
    assert "data-words" not in html and "until <time" not in html


def test_a_finished_turn_based_match_leaves_the_list_and_the_count(client):
    ann, bob = make_user(), make_user()
    match = _turn_based(ann, bob, mine=True)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, seat_to_move=None)
    assert your_matches.your_turn_count(ann.pk) == 0
    client.force_login(ann)
    assert match.public_id not in client.get("/").content.decode()
    # A seat that left no longer counts, though the match goes on.
    other = _turn_based(ann, bob, mine=True)
    Seat.objects.filter(match=other, user=ann).update(status=Seat.Status.LEFT)
    assert your_matches.your_turn_count(ann.pk) == 0


def test_a_turn_based_match_is_not_among_the_live_matches_to_watch(client):
    """It was just moved, but a day per decision is nothing to watch live."""
    from games.lobby import worth_watching

    ann, bob = make_user(), make_user()
    turn_based = _turn_based(ann, bob, mine=True)
    live = make_match(seats=("human", "human"), state=ludo_state(turn=0))
    assert [m.public_id for m in worth_watching()] == [live.public_id]
    html = client.get("/play/").content.decode()
    watch = html[html.index('id="live"'):]
    assert live.public_id in watch and turn_based.public_id not in watch
