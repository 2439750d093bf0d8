"""Turn-based clocks (docs/features.md "Turn-based play"): a deadline of
days sends no task and the sweeper expires it as a missed turn; an outage
extends the running clocks by its length; a holiday stops the clock of the
player to move; a computer seat still answers within its usual delay.
In-process, times moved in the database, never waited for."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import holidays
from accounts.models import Holiday
from games import actions, tasks, uptime
from games.actions import clock
from games.frames import contexts
from games.models import Match, Move, Outage
from games.time_controls import DAY
from tests.factories import ludo_state, make_match

pytestmark = pytest.mark.django_db

THREE_DAYS = 3 * DAY


@pytest.fixture
def scheduled(monkeypatch):
    """Celery tasks the actions send, as (task name, args, options)."""
    calls = []
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async",
                            lambda args, _n=name, **kw: calls.append((_n, tuple(args), kw)))
    return calls


def current(match):
    return Match.objects.get(pk=match.pk)


def turn_based(**kwargs):
    return make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=THREE_DAYS, **kwargs)


def began(match, ago: timedelta, left: timedelta, credit=timedelta(0)):
    """Move the current decision's start ``ago`` into the past and its deadline to ``left`` from now."""
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(updated_at=now - ago, deadline=now + left, holiday_credit=credit)
    return current(match)


def timeouts(match):
    return Move.objects.filter(match=match, notation="timeout").count()


def sweep(capture):
    with capture(execute=True):
        tasks.sweep_deadlines()


# -- no countdown task; the sweeper expires -------------------------------------------


def test_a_turn_based_decision_sends_no_deadline_task(scheduled, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = turn_based()
        user = match.seats.get(index=0).user
        after = actions.play_move(match.public_id, user, "roll", match.version)
    assert not [c for c in scheduled if c[0] == "expire_turn"]
    m = current(match)
    assert m.version == after.version and m.deadline_task_at is None
    assert timedelta(days=3) - timedelta(minutes=1) < m.deadline - timezone.now() <= timedelta(days=3)
    # A live match still gets its task (unchanged).
    with django_capture_on_commit_callbacks(execute=True):
        make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=60)
    assert [c[0] for c in scheduled] == ["expire_turn"]


def test_the_sweeper_expires_an_overdue_turn_based_decision_as_a_missed_turn_and_not_before(
    scheduled, django_capture_on_commit_callbacks
):
    match = turn_based()
    began(match, timedelta(days=3), timedelta(minutes=1))  # a minute left
    sweep(django_capture_on_commit_callbacks)
    assert current(match).version == match.version and not timeouts(match)
    # Seats 0 and 1 miss in turn: seat 0's third missed turn idles it out (docs/rules.md "Idle seats").
    for missed in range(1, 6):
        m = began(current(match), timedelta(days=3), timedelta(seconds=-2))
        sweep(django_capture_on_commit_callbacks)
        assert current(match).version > m.version and timeouts(match) == missed
    m = current(match)
    assert m.seats.get(index=0).status == "idle_out" and m.is_over
    assert not [c for c in scheduled if c[0] == "expire_turn"]


def test_the_sweeper_reads_only_overdue_rows_in_batches(django_capture_on_commit_callbacks, monkeypatch):
    waiting = [turn_based() for _ in range(6)]
    for i, m in enumerate(waiting[:3]):
        began(m, timedelta(days=3), timedelta(seconds=-10 - i))
    assert actions.overdue_matches(limit=2) == [(m.public_id, m.version) for m in reversed(waiting[1:3])]
    monkeypatch.setattr("games.actions.timeout.SWEEP_BATCH", 2)
    with CaptureQueriesContext(connection) as queries:
        sweep(django_capture_on_commit_callbacks)
    overdue_query = next(q["sql"] for q in queries.captured_queries if "ORDER BY" in q["sql"]
                         and '"deadline" <' in q["sql"])
    assert "LIMIT 2" in overdue_query
    assert [timeouts(m) for m in waiting] == [0, 1, 1, 0, 0, 0]  # the earliest two
    sweep(django_capture_on_commit_callbacks)
    assert [timeouts(m) for m in waiting] == [1, 1, 1, 0, 0, 0]


# -- outage credit ------------------------------------------------------------------------


def test_an_outage_extends_every_running_turn_based_clock_by_its_length_once(
    settings, scheduled, django_capture_on_commit_callbacks
):
    settings.PARLOUR_OUTAGE_SECONDS = 30
    outage = timedelta(hours=2)
    running = began(turn_based(), timedelta(days=1), timedelta(days=2))
    passed = began(turn_based(), timedelta(days=3), -timedelta(hours=1))  # passed during the outage
    during = began(turn_based(), timedelta(hours=1), timedelta(days=3) - timedelta(hours=1))
    live = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=60)
    Match.objects.filter(pk=live.pk).update(deadline=timezone.now() + timedelta(seconds=30))
    before = {m.pk: current(m).deadline for m in (running, passed, during, live)}
    uptime.record_beat(timezone.now() - outage)
    uptime.record_beat(timezone.now())  # beat is back: a two-hour outage
    (recorded,) = Outage.objects.all()
    length = recorded.length
    assert uptime.credit_pending()
    sweep(django_capture_on_commit_callbacks)
    assert current(running).deadline == before[running.pk] + length
    assert current(passed).deadline == before[passed.pk] + length  # its length, not a fresh 3 days
    assert current(passed).deadline > timezone.now() and not timeouts(passed)
    # The decision that began an hour into the outage gets the hour it ran through.
    assert current(during).deadline == before[during.pk] + (recorded.up_since - current(during).updated_at)
    assert current(live).deadline == before[live.pk]  # live clocks: unchanged
    assert not uptime.credit_pending()
    sweep(django_capture_on_commit_callbacks)  # credited once
    assert current(running).deadline == before[running.pk] + length
    # No version changed: a move in flight is not refused.
    assert all(current(m).version == m.version for m in (running, passed, during))


def test_an_outage_is_credited_in_batches_and_no_turn_based_deadline_expires_meanwhile(
    settings, django_capture_on_commit_callbacks
):
    settings.PARLOUR_OUTAGE_SECONDS = 30
    matches = [began(turn_based(), timedelta(days=3), -timedelta(minutes=30)) for _ in range(3)]
    uptime.record_beat(timezone.now() - timedelta(hours=1))
    uptime.record_beat(timezone.now())
    assert uptime.credit_outages(batch=2, max_batches=1) is False  # a sweep cut short
    assert Outage.objects.get().credited_through == matches[1].pk
    assert [actions.expire_turn(m.public_id, m.version) for m in matches] == [None] * 3  # still pending
    assert uptime.credit_outages(batch=2) is True
    assert all(current(m).deadline > timezone.now() + timedelta(minutes=29) for m in matches)
    assert not any(timeouts(m) for m in matches)


def test_a_live_deadline_in_an_outage_still_gets_a_fresh_turn(settings, scheduled,
                                                              django_capture_on_commit_callbacks):
    settings.PARLOUR_OUTAGE_SECONDS = 30
    live = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=60)
    uptime.record_beat(timezone.now() - timedelta(seconds=120))
    Match.objects.filter(pk=live.pk).update(deadline=timezone.now() - timedelta(seconds=60))
    uptime.record_beat(timezone.now())
    sweep(django_capture_on_commit_callbacks)
    m = current(live)
    assert m.version == live.version + 1 and not timeouts(live)
    assert m.deadline >= timezone.now() + timedelta(seconds=58)


# -- holidays -------------------------------------------------------------------------------


def away(user, start, end):
    """A holiday of ``user`` over the moments ``start``..``end`` (dates from them)."""
    return Holiday.objects.create(user=user, starts_on=start.date(), ends_on=end.date(),
                                  starts_at=start, ends_at=end)


def test_a_holiday_stops_the_clock_of_the_player_to_move(django_capture_on_commit_callbacks):
    match = turn_based()
    user = match.seats.get(index=0).user
    now = timezone.now()
    # A day into a three-day decision the player went away for two days, one of them still to come.
    m = began(match, timedelta(days=2), timedelta(days=1))
    plain = m.deadline
    away(user, now - timedelta(days=1), now + timedelta(days=1))
    assert clock.refresh_holidays(user.pk) == 1
    m = current(match)
    assert m.deadline == plain + timedelta(days=2) and m.holiday_credit == timedelta(days=2)
    assert m.version == match.version
    # Stored times moved on: the holiday is under way and the plain deadline long past.
    m = began(m, timedelta(days=4), -timedelta(hours=1), credit=timedelta(0))
    sweep(django_capture_on_commit_callbacks)
    m = current(match)
    assert not timeouts(match) and m.deadline > timezone.now() + timedelta(days=1)
    # Back from holiday (a day of it fell in the decision), the rest of the time ran out: a missed turn.
    Holiday.objects.filter(user=user).update(starts_at=now - timedelta(days=4),
                                             ends_at=now - timedelta(days=3))
    began(m, timedelta(days=5), -timedelta(hours=1), credit=timedelta(days=1))
    sweep(django_capture_on_commit_callbacks)
    assert timeouts(match) == 1


def test_booking_and_cancelling_a_holiday_moves_the_waiting_deadlines(django_capture_on_commit_callbacks):
    match = turn_based()
    user = match.seats.get(index=0).user
    plain = current(match).deadline
    start = holidays.today_for(user) + timedelta(days=1)
    with django_capture_on_commit_callbacks(execute=True):
        holiday = holidays.book_holiday(user, start, start + timedelta(days=2))
    assert current(match).deadline == plain + timedelta(days=3)
    assert holidays.on_holiday_until([user.pk], holiday.starts_at + timedelta(hours=1)) == {
        user.pk: start + timedelta(days=2)}
    with django_capture_on_commit_callbacks(execute=True):
        holidays.cancel_holiday(user, holiday.pk)
    assert current(match).deadline == plain and current(match).holiday_credit == timedelta(0)


def test_a_decision_that_begins_on_holiday_starts_its_clock_when_the_holiday_ends():
    match = turn_based()
    player = match.seats.get(index=1).user
    now = timezone.now()
    away(player, now - timedelta(hours=1), now + timedelta(days=2))
    began(match, timedelta(days=3), -timedelta(seconds=2))
    after = actions.expire_turn(match.public_id, match.version)  # seat 0 missed: seat 1 is to move
    assert after.seat_to_move == 1
    assert timedelta(days=5) - timedelta(minutes=1) < after.deadline - now <= timedelta(days=5)
    assert after.holiday_credit > timedelta(days=2) - timedelta(minutes=1)


def test_the_seat_list_says_who_is_on_holiday():
    match = turn_based()
    user = match.seats.get(index=1).user
    now = timezone.now()
    away(user, now - timedelta(hours=1), now + timedelta(days=2))
    ctx = contexts.public_context(match, list(match.seats.select_related("user")))
    from games.templatetags.board_parts import seats_list

    html = seats_list(ctx["seat_rows"])
    assert html.count("on holiday until") == 1 and f"{(now + timedelta(days=2)).date():%-d %B %Y}" in html


# -- computer seats -------------------------------------------------------------------------


def test_a_computer_seat_in_a_turn_based_match_answers_within_its_usual_delay(
    settings, scheduled, django_capture_on_commit_callbacks
):
    settings.PARLOUR_COMPUTER_DELAYS = dict.fromkeys(("slow", "normal", "fast"), 2.0)
    settings.PARLOUR_COMPUTER_RETRY_SECONDS = 10.0
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(seats=("human", "easy"), state=ludo_state(turn=1), turn_seconds=THREE_DAYS)
    m = current(match)
    assert m.deadline is None and m.computer_due_at <= timezone.now() + timedelta(seconds=12)
    assert scheduled == [("computer_move", (m.public_id, m.version), {"countdown": 2.0})]
    for _ in range(50):
        if m.deadline is not None:
            break
        with django_capture_on_commit_callbacks(execute=True):
            tasks.computer_move(m.public_id, m.version)
        m = current(match)
    assert m.seat_to_move == 0 and m.deadline > timezone.now() + timedelta(days=2)
    assert {c[0] for c in scheduled} == {"computer_move"}  # the human's days: no task


def test_a_pause_keeps_the_time_left_without_the_holidays_to_come_and_sends_no_deadline_task(
    scheduled, django_capture_on_commit_callbacks
):
    from tests.factories import make_user

    host = make_user()
    match = make_match(seats=("human", "human"), users=[host], state=ludo_state(), host=host,
                       turn_seconds=THREE_DAYS)
    now = timezone.now()
    away(host, now + timedelta(days=1), now + timedelta(days=2))
    clock.refresh_holidays(host.pk)
    assert current(match).holiday_credit == timedelta(days=1)
    paused = actions.pause_match(match.public_id, host, match.version)
    assert THREE_DAYS - 60 < paused.paused_remaining <= THREE_DAYS
    with django_capture_on_commit_callbacks(execute=True):
        resumed = actions.resume_match(match.public_id, host, paused.version)
    assert resumed.holiday_credit == timedelta(days=1)  # counted once
    assert timedelta(days=4) - timedelta(minutes=1) < resumed.deadline - now <= timedelta(days=4, minutes=1)
    assert not [c for c in scheduled if c[0] == "expire_turn"]


def test_the_sweepers_query_is_served_by_the_deadline_index():
    """Only overdue rows are read, however many matches are open: the plan
    searches ``match_deadline`` (status, deadline), on SQLite and PostgreSQL.
    The table holds what a site holds (many ended matches, many open ones
    not yet due) and PostgreSQL's statistics are fresh: on three rows and
    none, its planner's choice between two indexes that both start with
    ``status`` is a toss-up (it once took ``match_kind_finished``)."""
    from games.models import new_public_id

    for _ in range(3):
        turn_based()
    model = current(turn_based())
    fields = {f.attname: getattr(model, f.attname) for f in Match._meta.concrete_fields
              if f.attname not in ("id", "public_id")}
    later = timezone.now() + timedelta(days=2)
    Match.objects.bulk_create(
        [Match(**{**fields, "public_id": new_public_id(), "status": Match.Status.FINISHED, "deadline": None})
         for _ in range(1500)]
        + [Match(**{**fields, "public_id": new_public_id(), "deadline": later}) for _ in range(300)],
        batch_size=500)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_match")
    from games.actions.timeout import overdue_query

    for live_only in (False, True):
        plan = overdue_query(timezone.now(), live_only=live_only).explain()
        assert "match_deadline" in plan, plan
