"""A room's live match through the match actions: the host pauses and
resumes (rate-limited), the host role passes on when the host leaves,
leaving removes the pieces and the last player wins; with a real Celery
worker, a pause stops the deadline task and resuming restores the time."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from core import ratelimits
from games import actions, push
from games.engine import get_rules
from games.models import Match, Move
from matchmaking.rooms import push as room_push
from tests.factories import ludo_state, make_user, start_room_match


@pytest.fixture(autouse=True)
def fresh_limits():
    ratelimits.reset()
    yield
    ratelimits.reset()


@pytest.fixture
def quiet(monkeypatch):
    """No pushes and no Celery tasks (the actions are what is tested)."""

    async def drop(*args):
        pass

    monkeypatch.setattr(room_push, "_send_all", drop)
    monkeypatch.setattr(push, "_send_all", drop)
    from games import tasks

    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


def three_friends(state=None, **room_settings):
    """A started 3-seat Ludo room match: host, then two friends who joined in order."""
    host, first, second = make_user(), make_user(), make_user()
    match = start_room_match(host, [first, second], state=state, **room_settings)
    return match, host, first, second


def pieces_of(match, seat):
    view = get_rules("ludo").view(get_rules("ludo").load(Match.objects.get(pk=match.pk).state), None)
    return [p["where"] for p in view["seats"][seat]["pieces"]]


@pytest.mark.django_db
class TestHostControls:
    def test_only_the_host_pauses_and_pausing_is_rate_limited(self, quiet):
        match, host, first, _ = three_friends()
        with pytest.raises(actions.NotAllowed):
            actions.pause_match(match.public_id, first, match.version)
        limit = int(actions.PAUSE_RATE.split("/")[0])
        for _ in range(limit):
            match = actions.pause_match(match.public_id, host, match.version)
            match = actions.resume_match(match.public_id, host, match.version)
        with pytest.raises(actions.NotAllowed, match="paused this match often"):
            actions.pause_match(match.public_id, host, match.version)
        assert Match.objects.get(pk=match.pk).status == "active"

    def test_a_pause_ends_by_itself_after_ten_minutes(self, quiet, monkeypatch,
                                                      django_capture_on_commit_callbacks):
        from django.conf import settings

        from games import tasks

        scheduled = []
        monkeypatch.setattr(tasks.auto_resume, "apply_async",
                            lambda args, **kw: scheduled.append((tuple(args), kw)))
        match, host, _first, _second = three_friends()
        with django_capture_on_commit_callbacks(execute=True):
            paused = actions.pause_match(match.public_id, host, match.version)
        assert scheduled == [((match.public_id, paused.version),
                              {"countdown": settings.PARLOUR_PAUSE_MAX_SECONDS})]
        assert settings.PARLOUR_PAUSE_MAX_SECONDS == 600
        tasks.auto_resume(match.public_id, paused.version)  # the task, run when it is due
        resumed = Match.objects.get(pk=match.pk)
        assert resumed.status == "active" and resumed.deadline is not None
        tasks.auto_resume(match.public_id, paused.version)  # late or repeated: nothing happens
        assert Match.objects.get(pk=match.pk).version == resumed.version

    def test_a_leaving_host_hands_the_role_to_the_longest_seated_human(self, quiet):
        match, host, first, second = three_friends()
        actions.leave_match(match.public_id, host)
        match = Match.objects.get(pk=match.pk)
        assert match.host == first
        paused = actions.pause_match(match.public_id, first, match.version)
        assert paused.status == "paused"
        with pytest.raises(actions.NotAllowed):
            actions.resume_match(match.public_id, host, paused.version)
        # Leaving is allowed while paused too; the role passes on again.
        actions.leave_match(match.public_id, first)
        match = Match.objects.get(pk=match.pk)
        assert match.host == second and match.status == "finished"

    def test_leaving_removes_the_pieces_and_the_last_player_wins(self, quiet):
        state = ludo_state(3, pieces=[[5, -1, -1, -1], [20, 30, -1, -1], [-1, -1, -1, 40]])
        match, host, first, second = three_friends(state=state)
        actions.leave_match(match.public_id, first)
        assert pieces_of(match, 1) == ["removed"] * 4
        assert Move.objects.filter(match=match, notation="leave 1", actor="server").exists()
        assert Match.objects.get(pk=match.pk).status == "active"
        actions.leave_match(match.public_id, host)
        match = Match.objects.get(pk=match.pk)
        assert match.status == "finished" and match.end_reason == "last_player_standing"
        ranks = dict(match.seats.values_list("index", "rank"))
        assert ranks[2] == 1 and ranks[1] > ranks[0] > 1  # earlier leaver ranks lower


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_pause_stops_the_deadline_task_and_resume_restores_the_remaining_time(celery_worker):
    # A 3-second clock (test-only: rooms give Ludo 60 s); every seat is human.
    match, host, _first, _second = three_friends(turn_seconds=4)
    assert match.deadline is not None
    time.sleep(0.5)
    # The clock's remaining time is what was left between the calls before and
    # after the pause (bounds from the clock, not from how long a loaded machine took).
    before = timezone.now()
    paused = actions.pause_match(match.public_id, host, match.version)
    after = timezone.now()
    remaining = paused.paused_remaining
    least, most = (match.deadline - after).total_seconds() - 0.01, (match.deadline - before).total_seconds()
    assert least <= remaining <= most
    assert 0 < remaining < 4
    # Well past the old deadline: its task fires and finds the match moved on.
    time.sleep((match.deadline - timezone.now()).total_seconds() + 1.0)
    assert not Move.objects.filter(match=match, notation="timeout").exists()
    assert Match.objects.get(pk=match.pk).status == "paused"
    before = timezone.now()
    resumed = actions.resume_match(match.public_id, host, paused.version)
    after = timezone.now()
    restored = timedelta(seconds=remaining)
    assert before + restored - timedelta(milliseconds=10) <= resumed.deadline <= after + restored
    # The restored clock runs out and the worker records the missed turn.
    for _ in range(100):
        if Move.objects.filter(match=match, notation="timeout").exists():
            break
        time.sleep(0.1)
    assert Move.objects.filter(match=match, notation="timeout").exists()
    assert Move.objects.get(match=match, notation="timeout").created_at >= resumed.deadline


@pytest.mark.django_db
def test_a_room_does_not_start_while_a_member_plays_an_arena_or_rated_match(quiet):
    from matchmaking.rooms import actions as rooms
    from tests.factories import make_match

    host, friend = make_user(), make_user()
    elsewhere = make_match(seats=("human", "human"), users=[friend, make_user()], event="Ludo sprint",
                           event_url="/arenas/1/")
    room = rooms.do_create_room(host, "ludo", 2, {})
    _invite, token = rooms.do_create_invite(room.code, host)
    rooms.do_redeem_invite(token, friend)
    with pytest.raises(rooms.NotAllowed, match=f"{friend.username} is playing a rated or arena match"):
        rooms.do_start_room(room.code, host)
    assert not Match.objects.filter(is_public=False).exists()
    actions.leave_match(elsewhere.public_id, friend)
    assert rooms.do_start_room(room.code, host).status == Match.Status.ACTIVE
