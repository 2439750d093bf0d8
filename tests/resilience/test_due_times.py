"""Due times with real processes broken (README "Decisions"): a computer move
whose worker is SIGKILLed inside the computer's delay is sent again and
played once; a turn deadline that passed while every process was stopped
gets a fresh turn, not a missed one; a move after the deadline is refused
and times the turn out with no worker running. Real Celery worker and beat,
real daphne, real sockets."""

import signal
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match, Move
from tests import services
from tests.factories import ludo_state, make_match

pytestmark = [pytest.mark.slow, pytest.mark.resilience, pytest.mark.ci_postgresql_only]


def current(match):
    return Match.objects.get(pk=match.pk)


def seat_users(match):
    return {s.index: s.user for s in match.seats.select_related("user")}


def timeouts(match):
    return list(Move.objects.filter(match=match, notation="timeout").values_list("seat", flat=True))


def sleep_until(moment) -> None:
    left = (moment - timezone.now()).total_seconds()
    if left > 0:
        time.sleep(left)


def test_a_computer_move_lost_with_its_worker_is_sent_again_and_played_once(transactional_db, settings):
    # The computer waits 4 s (this process schedules its first move); the
    # sweeper sends it again 2 s after that if it has not been played.
    settings.PARLOUR_COMPUTER_DELAYS = dict.fromkeys(("slow", "normal", "fast"), 4.0)
    settings.PARLOUR_COMPUTER_RETRY_SECONDS = 2.0
    services.purge_task_queues()
    beat = services.start_celery_beat()
    worker = services.start_celery_worker("worker-1")
    replacement = None
    try:
        match = make_match(seats=("human", "easy"), state=ludo_state(turn=1))
        version = match.version

        def computer_plays():
            return list(Move.objects.filter(match=match, actor="seat", seat=1, version_after=version + 1)
                        .values_list("notation", flat=True))

        # "Task games.tasks.computer_move[<id>] received", not the task list printed at start.
        services.wait_for(lambda: "Task games.tasks.computer_move[" in worker.log(), 10,
                          what="the worker to take the computer's move")
        worker.kill(signal.SIGKILL)  # inside the computer's delay: the task dies with it
        worker.proc.wait(10)
        assert not computer_plays() and current(match).version == version, \
            "killed too late to prove anything"
        replacement = services.start_celery_worker("worker-2")
        services.wait_for(computer_plays, 4 + 2 + 30,
                          what="the lost computer move to be sent again and played")
        time.sleep(3)  # later sweeps (beat runs every second here) must not play it again
        assert computer_plays() == ["roll"]
        assert "resent a lost computer move" in replacement.log()
        assert not timeouts(match)  # a retry time is not a deadline
        plies = list(Move.objects.filter(match=match).order_by("ply").values_list("ply", flat=True))
        assert plies == list(range(len(plies)))
    finally:
        for svc in (replacement, worker, beat):
            if svc is not None:
                svc.stop()


def test_a_computer_move_lost_in_a_redis_restart_is_sent_again_and_played_once(transactional_db,
                                                                               django_db_blocker):
    """The embedded Redis keeps nothing on disk: a restart loses every queued
    task. The computer's retry time is in the database, so the sweeper sends
    its move again. (No worker is connected while Redis restarts: a worker
    that is has a failure of its own, outside this test.)"""
    from config import embedded_redis
    from games.engine import get_rules

    sock = services.LOG_DIR.parent / "redis-due.sock"
    env = {"PARLOUR_TEST_REDIS_URL": f"unix://{sock}", "PARLOUR_COMPUTER_DELAY": "3",
           "PARLOUR_COMPUTER_RETRY_SECONDS": "2"}
    redis_proc = embedded_redis.start(sock)
    started = []
    try:
        with django_db_blocker.unblock():
            server, base = services.start_daphne("daphne-redis-due", **env)
        started.append(server)
        match = make_match(seats=("human", "easy"), state=ludo_state())
        human = services.WsPlayer(base, seat_users(match)[0]).connect(match.public_id)
        human.until_version(match.version)
        rules = get_rules("ludo")

        def the_human_plays_until_the_computer_is_to_move():
            m = current(match)
            if m.deadline is None:  # a computer is to move: no clock, a task
                return m
            human.send(move=str(rules.legal_moves(rules.load(m.state))[0]), version=str(m.version))
            human.until_version(m.version + 1)
            return None

        waiting = services.wait_for(the_human_plays_until_the_computer_is_to_move, 30,
                                    what="the computer to be to move")
        human.close()
        # Its task is in Redis, with no worker to take it; Redis restarts empty.
        redis_proc.send_signal(signal.SIGKILL)
        redis_proc.wait(10)
        redis_proc = embedded_redis.start(sock)
        started.append(services.start_celery_beat("beat-redis-due", **env))
        worker = services.start_celery_worker("worker-redis-due", **env)
        started.append(worker)

        def computer_plays():
            rows = Move.objects.filter(match=match, actor="seat", seat=1, version_after=waiting.version + 1)
            return list(rows.values_list("notation", flat=True))

        services.wait_for(computer_plays, 3 + 2 + 30, what="the lost computer move to be played")
        time.sleep(3)
        assert computer_plays() == ["roll"]
        assert "resent a lost computer move" in worker.log()
        assert not timeouts(match)
    finally:
        for svc in reversed(started):
            svc.stop()
        redis_proc.terminate()
        redis_proc.wait(10)


def test_a_deadline_that_passed_while_everything_was_stopped_gets_a_fresh_turn(transactional_db,
                                                                               django_db_blocker):
    from games.models import Heartbeat

    outage = 5  # seconds of beat's silence that mean the site was down
    turn = 16  # seconds per turn: time to stop everything before the deadline (8 were too few on a loaded CI)
    env = {"PARLOUR_OUTAGE_SECONDS": str(outage)}
    services.purge_task_queues()

    def start_everything(tag):
        beat = services.start_celery_beat(f"beat-{tag}", **env)
        worker = services.start_celery_worker(f"worker-{tag}", wait=False, **env)
        with django_db_blocker.unblock():
            server, url = services.start_daphne(f"daphne-{tag}", wait=False, **env)
        try:
            services.wait_ready(worker, server)  # started side by side
        except BaseException:
            for svc in (beat, worker, server):
                svc.stop()
            raise
        return [beat, worker, server], url

    running, _ = start_everything("1")
    try:
        services.wait_for(lambda: Heartbeat.objects.filter(name="beat").exists(), 30,
                          what="beat's first heartbeat")
        match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=turn)
        before = current(match)
        services.wait_for(lambda: "Task games.tasks.expire_turn[" in running[1].log(), 10,
                          what="the worker to take the deadline task")
    finally:
        for svc in running:
            svc.stop()  # SIGTERM: the worker hands its deadline task back to Redis
    assert timezone.now() < before.deadline and not timeouts(match), "stopped too late to prove anything"
    # Everything stays down past the deadline, for longer than an outage takes: the
    # stored times are moved back rather than waited out (beat's last heartbeat
    # outage + 3 s ago, the deadline 2 s ago, in that order).
    now = timezone.now()
    Heartbeat.objects.filter(name="beat").update(at=now - timedelta(seconds=outage + 3))
    Match.objects.filter(pk=match.pk).update(deadline=now - timedelta(seconds=2))

    back = timezone.now()
    running, url = start_everything("2")
    try:
        fresh = services.wait_for(
            lambda: (m := current(match)).version > before.version and m, 30,
            what="the overdue turn to be dealt with")
        assert not timeouts(match), "a deadline that passed while the site was down was counted"
        assert fresh.seats.get(index=0).missed_turns == 0
        assert fresh.state["turn"] == 0 and fresh.state["phase"] == "roll"  # the same decision
        assert fresh.deadline >= back + timedelta(seconds=turn)  # a whole turn from the restart
        player = services.WsPlayer(url, seat_users(match)[0]).connect(match.public_id)
        snapshot = player.receive()
        assert f'data-deadline="{int(fresh.deadline.timestamp() * 1000)}"' in snapshot
        player.close()
        # The fresh turn is a real one: missed, it times out once the site is up (its
        # deadline moved to 2 s ago rather than waited for: the sweeper finds it).
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=2))
        services.wait_for(lambda: timeouts(match), 30, what="the fresh turn to time out")
        assert timeouts(match) == [0]
        assert current(match).seats.get(index=0).missed_turns == 1
    finally:
        for svc in running:
            svc.stop()


def test_a_move_after_the_deadline_is_refused_and_times_the_turn_out_with_no_worker(
    daphne_server, transactional_db
):
    services.purge_task_queues()  # and no worker runs: the deadline task cannot run first
    match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=2)
    users = seat_users(match)
    a = services.WsPlayer(daphne_server, users[0]).connect(match.public_id)
    b = services.WsPlayer(daphne_server, users[1]).connect(match.public_id)
    a.until_version(match.version)
    b.until_version(match.version)
    sleep_until(current(match).deadline + timedelta(seconds=1 + 1))  # past the 1 s allowance
    a.send(move="roll", version=str(match.version))
    refusal = a.until(lambda f: 'data-kind="error"' in f)
    assert "Too late" in refusal
    # The refusal applied the timeout itself: B sees the turn pass.
    b.until_version(match.version + 1)
    m = current(match)
    assert m.version == match.version + 1 and m.state["turn"] == 1
    rows = Move.objects.filter(match=match, version_after=m.version)
    assert list(rows.values_list("actor", "seat", "notation")) == [("server", 0, "timeout")]
    assert m.seats.get(index=0).missed_turns == 1
    a.close()
    b.close()
    services.purge_task_queues()
