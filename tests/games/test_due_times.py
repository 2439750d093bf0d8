"""Every decision has a due time the sweeper finds; the deadline is the rule;
an outage idles no one out (README "Decisions"). In-process: the actions,
the sweeper task called directly, beat's heartbeat. The same paths with real
processes killed and restarted are in tests/resilience/test_due_times.py."""

from datetime import timedelta

import pytest
from celery.signals import after_task_publish
from django.urls import reverse
from django.utils import timezone

from games import actions, tasks, uptime
from games.frames import contexts
from games.models import Heartbeat, Match, Move
from tests.factories import ludo_state, make_match

pytestmark = pytest.mark.django_db


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


def moves_at(match, version):
    rows = Move.objects.filter(match=match, version_after=version)
    return list(rows.values_list("actor", "seat", "notation"))


def beat_at(seconds_ago: float) -> None:
    uptime.record_beat(timezone.now() - timedelta(seconds=seconds_ago))


# -- a computer's due time ---------------------------------------------------------


def test_a_computer_to_move_has_a_retry_time_and_no_clock(settings, scheduled,
                                                          django_capture_on_commit_callbacks):
    settings.PARLOUR_COMPUTER_DELAYS = dict.fromkeys(("slow", "normal", "fast"), 2.0)
    settings.PARLOUR_COMPUTER_RETRY_SECONDS = 10.0
    before = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(seats=("human", "easy"), state=ludo_state(turn=1))
    m = current(match)
    assert m.deadline is None
    assert before + timedelta(seconds=12) <= m.computer_due_at <= timezone.now() + timedelta(seconds=12)
    assert scheduled == [("computer_move", (m.public_id, m.version), {"countdown": 2.0})]
    assert contexts.public_context(m, list(m.seats.all()))["deadline_ms"] is None  # no clock shows
    # Once the computer has played, the human has a deadline and the retry time is gone.
    for _ in range(50):
        if m.deadline is not None:
            break
        tasks.computer_move(m.public_id, m.version)
        m = current(match)
    assert m.state["turn"] == 0 and m.deadline is not None and m.computer_due_at is None


def test_the_sweeper_sends_an_overdue_computer_move_again_and_never_times_it_out(
    settings, scheduled, django_capture_on_commit_callbacks
):
    settings.PARLOUR_COMPUTER_RETRY_SECONDS = 10.0
    match = make_match(seats=("human", "easy"), state=ludo_state(turn=1))
    Match.objects.filter(pk=match.pk).update(computer_due_at=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        tasks.sweep_deadlines()
    assert scheduled == [("computer_move", (match.public_id, match.version), {"countdown": None})]
    m = current(match)
    assert m.version == match.version and not moves_at(match, match.version + 1)  # a retry records nothing
    assert m.computer_due_at > timezone.now() + timedelta(seconds=9)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.sweep_deadlines()  # not due again yet
    assert len(scheduled) == 1
    # The resent task and the lost one both run: the move is played once.
    tasks.computer_move(match.public_id, match.version)
    tasks.computer_move(match.public_id, match.version)
    assert moves_at(match, match.version + 1)[:1] == [("seat", 1, "roll")]
    assert [a for a, _, _ in moves_at(match, match.version + 1)].count("seat") == 1
    assert current(match).version > match.version
    assert not Move.objects.filter(match=match, notation="timeout").exists()


def test_pausing_drops_the_computers_retry_time_and_resuming_sets_it_again(scheduled):
    from tests.factories import make_user

    host = make_user()
    match = make_match(seats=("human", "easy"), users=[host], state=ludo_state(turn=1), host=host)
    paused = actions.pause_match(match.public_id, host, match.version)
    assert paused.computer_due_at is None
    assert (paused.public_id, paused.version) not in actions.overdue_computer_moves()
    resumed = actions.resume_match(match.public_id, host, paused.version)
    assert resumed.computer_due_at is not None and resumed.deadline is None


# -- the deadline is the rule ----------------------------------------------------------


def overdue(match, seconds):
    """The match's deadline (and its task's time) passed ``seconds`` ago."""
    past = timezone.now() - timedelta(seconds=seconds)
    Match.objects.filter(pk=match.pk).update(deadline=past, deadline_task_at=past)


def test_a_move_after_the_deadline_and_allowance_is_refused_and_the_turn_times_out():
    match = make_match(seats=("human", "human"), state=ludo_state())
    user = match.seats.get(index=0).user
    overdue(match, 1.5)
    with pytest.raises(actions.TooLate) as refused:
        actions.play_move(match.public_id, user, "roll", match.version)
    assert "Too late" in refused.value.message
    m = current(match)
    assert moves_at(match, match.version + 1)[0] == ("server", 0, "timeout")  # no roll
    assert m.seats.get(index=0).missed_turns == 1 and m.state["turn"] == 1


def test_a_move_within_the_allowance_counts_even_when_the_deadline_task_runs_first():
    match = make_match(seats=("human", "human"), state=ludo_state())
    overdue(match, 0.3)
    assert actions.expire_turn(match.public_id, match.version) is None  # not yet: the allowance
    assert current(match).version == match.version
    after = actions.play_move(match.public_id, match.seats.get(index=0).user, "roll", match.version)
    assert moves_at(match, after.version)[0] == ("seat", 0, "roll")


def test_a_late_form_move_says_so(client):
    match = make_match(seats=("human", "human"), state=ludo_state())
    client.force_login(match.seats.get(index=0).user)
    overdue(match, 2)
    resp = client.post(reverse("match_move", args=[match.public_id]),
                       {"move": "roll", "version": match.version}, follow=True)
    assert resp.status_code == 200
    assert "Too late: your time ran out" in resp.content.decode()
    assert moves_at(match, match.version + 1)[0] == ("server", 0, "timeout")


# -- outages -------------------------------------------------------------------------------


def test_beat_sending_the_sweep_is_the_heartbeat():
    after_task_publish.send(sender="matchmaking.tasks.queue_wave", body=None, headers={})
    assert not Heartbeat.objects.exists()
    after_task_publish.send(sender=uptime.SWEEP_TASK, body=None, headers={})
    beat = Heartbeat.objects.get(name=uptime.BEAT)
    assert abs((timezone.now() - beat.at).total_seconds()) < 60 and beat.up_since is None


def test_the_heartbeat_tells_when_the_site_was_down(settings):
    settings.PARLOUR_OUTAGE_SECONDS = 30
    now = timezone.now()
    ago = lambda s: now - timedelta(seconds=s)  # noqa: E731
    assert not uptime.was_down_at(ago(1000), now)  # no heartbeat: no evidence of an outage
    uptime.record_beat(ago(300))
    uptime.record_beat(ago(295))
    assert not uptime.was_down_at(ago(297), now - timedelta(seconds=290))  # between two beats
    assert uptime.was_down_at(ago(200), now)  # after the last beat, silent for 295 s: down now
    uptime.record_beat(ago(100))  # beat is back: 295..100 s ago was an outage
    beat = Heartbeat.objects.get(name=uptime.BEAT)
    assert (beat.down_from, beat.up_since) == (ago(295), ago(100))
    assert uptime.was_down_at(ago(200), now) and uptime.was_down_at(ago(295), now)
    assert not uptime.was_down_at(ago(297), now)  # before it
    for seconds in (80, 60, 40, 20, 1):
        uptime.record_beat(ago(seconds))
    assert not uptime.was_down_at(ago(50), now)  # after it, beat running
    assert uptime.was_down_at(ago(200), now)  # the outage is remembered


def test_a_deadline_that_passed_while_the_site_was_down_gets_a_fresh_turn(settings, scheduled,
                                                                         django_capture_on_commit_callbacks):
    settings.PARLOUR_OUTAGE_SECONDS = 30
    match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=60)
    beat_at(120)
    overdue(match, 60)  # a minute after beat went silent
    # Before beat is back (a restored task runs first) and after it: the same answer.
    for back in (False, True):
        m = current(match)
        if back:
            beat_at(0)
            overdue(m, 60)
        with django_capture_on_commit_callbacks(execute=True):
            fresh = actions.expire_turn(m.public_id, m.version)
        assert fresh.version == m.version + 1 and not moves_at(match, fresh.version)
        assert fresh.deadline >= timezone.now() + timedelta(seconds=58)
        assert scheduled[-1][:2] == ("expire_turn", (m.public_id, fresh.version))
    m = current(match)
    assert m.seats.get(index=0).missed_turns == 0 and m.state["turn"] == 0
    assert not Move.objects.filter(match=match, notation="timeout").exists()


def test_with_beat_running_an_overdue_deadline_is_a_missed_turn(settings):
    settings.PARLOUR_OUTAGE_SECONDS = 30
    match = make_match(seats=("human", "human"), state=ludo_state())
    beat_at(5)
    beat_at(2)  # the workers may be down; beat is not: the site is up
    overdue(match, 3)
    after = actions.expire_turn(match.public_id, match.version)
    assert moves_at(match, after.version)[0] == ("server", 0, "timeout")
    assert after.seats.get(index=0).missed_turns == 1


def test_a_late_move_after_an_outage_is_played_in_the_fresh_turn(settings):
    settings.PARLOUR_OUTAGE_SECONDS = 30
    match = make_match(seats=("human", "human"), state=ludo_state())
    beat_at(120)
    overdue(match, 60)
    after = actions.play_move(match.public_id, match.seats.get(index=0).user, "roll", match.version)
    assert moves_at(match, after.version)[0] == ("seat", 0, "roll")
