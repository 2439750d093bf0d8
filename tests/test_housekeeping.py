"""Housekeeping (accounts/housekeeping.py, matchmaking/housekeeping.py, their
daily Celery tasks): expired sessions, log-in records, room invites and
challenges older than their retention go, in bounded batches; newer ones
stay, and every other table (matches, moves, seats, ratings, reports, the
audit log...) is untouched."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import tasks as accounts_tasks
from games import actions
from games.models import Move, RatingChange
from matchmaking import tasks as matchmaking_tasks
from matchmaking.housekeeping import clear_old_invites
from matchmaking.models import Challenge, Invite, RematchOffer, Room, RoomMember
from moderation.models import AuditLog, Report
from tests.factories import ludo_state, make_match, make_user

pytestmark = pytest.mark.django_db

#: The tables housekeeping deletes from; every other one it leaves alone.
CLEARED = {Session, AccessAttempt, AccessFailureLog, AccessLog, Invite, Challenge,
           apps.get_model("axes", "AccessAttemptExpiration")}


def days_ago(days: float):
    return timezone.now() - timedelta(days=days)


def run_housekeeping():
    accounts_tasks.housekeeping()
    matchmaking_tasks.housekeeping()


def session(expires_in_days: float) -> str:
    store = SessionStore()
    store["k"] = "v"
    store.create()
    Session.objects.filter(session_key=store.session_key).update(expire_date=days_ago(-expires_in_days))
    return store.session_key


def test_expired_sessions_go_and_live_ones_stay():
    expired = [session(-1), session(-0.01)]
    live = [session(0.01), session(14)]
    run_housekeeping()
    assert set(Session.objects.values_list("session_key", flat=True)) == set(live)
    assert not Session.objects.filter(session_key__in=expired).exists()


def login_record(model, days: float, username: str):
    row = model.objects.create(username=username, ip_address="203.0.113.7", user_agent="test",
                               **({"failures_since_start": 3} if model is AccessAttempt else {}))
    model.objects.filter(pk=row.pk).update(attempt_time=days_ago(days))


@override_settings(PARLOUR_KEEP_LOGIN_ATTEMPTS_DAYS=7, PARLOUR_KEEP_LOGIN_LOG_DAYS=90)
def test_log_in_records_older_than_their_retention_go():
    for model, keep in ((AccessAttempt, 7), (AccessLog, 90), (AccessFailureLog, 90)):
        login_record(model, keep + 1, "old")
        login_record(model, keep - 1, "recent")
    run_housekeeping()
    for model in (AccessAttempt, AccessLog, AccessFailureLog):
        assert list(model.objects.values_list("username", flat=True)) == ["recent"], model.__name__


def a_room():
    return Room.objects.create(kind="ludo", turn_seconds=60, host=make_user())


def invite(room, expired_days_ago: float, n: int, **fields) -> Invite:
    return Invite.objects.create(room=room, token_hash=f"{n:064x}", created_at=days_ago(expired_days_ago + 1),
                                 expires_at=days_ago(expired_days_ago), **fields)


def challenge(expired_days_ago: float, status) -> Challenge:
    return Challenge.objects.create(challenger=make_user(), challenged=make_user(), kind="ludo",
                                    turn_seconds=60, status=status, created_at=days_ago(expired_days_ago),
                                    expires_at=days_ago(expired_days_ago))


@override_settings(PARLOUR_KEEP_INVITES_DAYS=30, PARLOUR_KEEP_CHALLENGES_DAYS=30)
def test_invites_and_challenges_go_30_days_after_their_expiry_whatever_became_of_them():
    room = a_room()
    old = [invite(room, 31, 1), invite(room, 40, 2, used_at=days_ago(41), used_by=room.host),
           invite(room, 31, 3, revoked_at=days_ago(32))]
    recent = [invite(room, 29, 4), invite(room, -1, 5)]  # the last one not expired at all
    old_challenges = [challenge(31, status) for status in Challenge.Status]
    recent_challenges = [challenge(29, Challenge.Status.DECLINED), challenge(-0.001, Challenge.Status.OPEN)]
    run_housekeeping()
    assert set(Invite.objects.all()) == set(recent)
    assert set(Challenge.objects.all()) == set(recent_challenges)
    assert Room.objects.filter(pk=room.pk).exists()
    assert len(old) == 3 and len(old_challenges) == len(Challenge.Status)


@override_settings(PARLOUR_HOUSEKEEPING_BATCH=2)
def test_rows_go_in_bounded_batches_each_its_own_statement():
    room = a_room()
    for n in range(5):
        invite(room, 100, n)
    with CaptureQueriesContext(connection) as queries:
        assert clear_old_invites() == 5
    deletes = [q["sql"] for q in queries if q["sql"].startswith("DELETE")]
    assert len(deletes) == 3  # 2 + 2 + 1
    assert not Invite.objects.exists()


def history():
    """A played match and everything that records it, all 1,000 days old."""
    match = make_match(seats=("human", "human"), state=ludo_state())
    seats = list(match.seats.select_related("user"))
    actions.play_move(match.public_id, seats[0].user, "roll", match.version)
    RatingChange.objects.create(match=match, user=seats[0].user, kind="ludo",
                                before=1500, after=1510, delta=10)
    Report.objects.create(reporter=seats[0].user, match=match, seat=seats[1], reported_user=seats[1].user,
                          reason=Report.Reason.values[0])
    AuditLog.objects.create(actor=seats[0].user, action=AuditLog.Action.ABORT, target="match x")
    room = a_room()
    RoomMember.objects.create(room=room, user=seats[1].user)
    RematchOffer.objects.create(match=match, offered_by=seats[0].user, accepted=[], rated=False,
                                created_at=days_ago(1000), expires_at=days_ago(1000), room=room)
    old = days_ago(1000)
    type(match).objects.update(created_at=old, started_at=old, finished_at=old)
    Move.objects.update(created_at=old)
    RatingChange.objects.update(created=old)
    Report.objects.update(created_at=old)
    AuditLog.objects.update(created_at=old)
    Room.objects.update(created_at=old, updated_at=old)


def test_every_other_table_is_left_alone_however_old_its_rows():
    history()
    others = [m for m in apps.get_models() if m not in CLEARED]
    before = {m._meta.label: m.objects.count() for m in others}
    assert before["games.Move"] and before["games.Seat"] and before["moderation.AuditLog"]
    run_housekeeping()
    assert {m._meta.label: m.objects.count() for m in others} == before


def test_beat_runs_each_apps_housekeeping_daily_on_the_general_queue():
    from django.conf import settings

    from config.celery import app

    for name in ("accounts.tasks.housekeeping", "matchmaking.tasks.housekeeping"):
        [entry] = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == name]
        assert entry["schedule"].hour == {settings.PARLOUR_HOUSEKEEPING_HOUR}
        assert app.amqp.router.route({}, name)["queue"].name == settings.CELERY_TASK_DEFAULT_QUEUE
