"""Several processes and broken ones: two daphne processes and two Celery
workers on one database and one Redis; a Redis restart; a client that was
offline. Real processes, real sockets (the ``websockets`` client)."""

import signal
import time

import pytest
import redis

from config import embedded_redis
from games.models import Match, Move
from tests import services
from tests.factories import ludo_state, make_match

pytestmark = [pytest.mark.slow, pytest.mark.resilience, pytest.mark.ci_postgresql_only]


def seat_users(match):
    return {s.index: s.user for s in match.seats.select_related("user")}


def current(match):
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def two_servers(transactional_db, django_db_blocker):
    with django_db_blocker.unblock():
        one, url1 = services.start_daphne("daphne-1", wait=False)
        two, url2 = services.start_daphne("daphne-2", wait=False)
    try:
        services.wait_ready(one, two)  # started side by side
    except BaseException:
        one.stop()
        two.stop()
        raise
    yield url1, url2
    one.stop()
    two.stop()


@pytest.fixture
def two_workers(transactional_db):
    services.purge_task_queues()
    workers = [services.start_celery_worker(f"worker-{i}", wait=False) for i in (1, 2)]
    beat = services.start_celery_beat()
    try:
        services.wait_ready(*workers)  # started side by side
    except BaseException:
        for svc in (*workers, beat):
            svc.stop()
        raise
    yield workers
    for svc in (*workers, beat):
        svc.stop()


class OwnRedis:
    """A Redis of the test's own (the embedded redis-server on a unix
    socket), which it kills and starts again, empty."""

    def __init__(self, name: str):
        self.sock = services.LOG_DIR.parent / f"redis-{name}.sock"
        self.url = f"unix://{self.sock}"
        self.proc = embedded_redis.start(self.sock)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def start(self, wait: bool = True) -> None:
        """Start it again; ``wait``: until it answers."""
        self.proc = embedded_redis.start(self.sock)
        if wait:
            embedded_redis.wait_until_up(self.url)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


@pytest.fixture
def own_redis_server(request, transactional_db, django_db_blocker):
    """(OwnRedis, the base URL of a daphne whose channel layer uses it);
    both are stopped after the test."""
    name = request.node.name.removeprefix("test_")[:24]
    own = OwnRedis(name)
    with django_db_blocker.unblock():
        server, base = services.start_daphne(f"daphne-{name}", PARLOUR_TEST_REDIS_URL=own.url)
    yield own, base
    server.stop()
    own.stop()


def test_two_servers_two_workers_one_match(two_servers, two_workers):
    url1, url2 = two_servers
    match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=3)
    users = seat_users(match)
    a = services.WsPlayer(url1, users[0]).connect(match.public_id)
    b = services.WsPlayer(url2, users[1]).connect(match.public_id)
    a.until_version(match.version)
    b.until_version(match.version)
    # A (on server 1) rolls; B (on server 2) sees it.
    a.send(move="roll", version=str(match.version))
    b.until_version(match.version + 1)
    a.until_version(match.version + 1)
    # Then nobody moves: deadlines fire through the workers, each exactly once.
    start = current(match).version
    services.wait_for(lambda: current(match).version >= start + 2, 3 * 2 + 15,
                      what="two deadlines to expire")
    b.until_version(start + 2, timeout=10)
    a.until_version(start + 2, timeout=10)
    rows = list(Move.objects.filter(match=match).order_by("ply")
                .values_list("ply", "notation", "version_after"))
    assert [p for p, _, _ in rows] == list(range(len(rows)))
    per_version = {}
    for _, notation, version in rows:
        per_version.setdefault(version, []).append(notation)
    assert all(v.count("timeout") <= 1 for v in per_version.values())
    assert sorted(per_version) == list(range(min(per_version), max(per_version) + 1))
    a.close()
    b.close()


def test_redis_restart_mid_match_recovers_by_itself(transactional_db, django_db_blocker):
    """Redis (channel layer and Celery broker) is killed and started again,
    empty, while the worker holds a match's deadline task. daphne, the
    Celery worker and beat carry on by themselves: the worker stays up
    (config/celery.py), the lost deadline is swept and applied, the computer
    still plays, and moves made after the restart reach the other seat."""
    from django.utils import timezone

    from games.engine import get_rules

    sock = services.LOG_DIR.parent / "redis-2.sock"
    env = {"PARLOUR_TEST_REDIS_URL": f"unix://{sock}"}
    redis_proc = embedded_redis.start(sock)
    with django_db_blocker.unblock():
        server, base = services.start_daphne("daphne-redis2", wait=False, **env)
    worker = services.start_celery_worker("worker-redis2", wait=False, **env)
    beat = services.start_celery_beat("beat-redis2", **env)
    try:
        services.wait_ready(server, worker)  # started side by side
        match = make_match(seats=("human", "human", "normal"), state=ludo_state(3),
                           turn_seconds=5, start=False)
        # Started from a process on this test's Redis (as daphne would), so
        # the first deadline task reaches this worker and not the session's broker.
        services.run_python(f"from games import actions; actions.start_match({match.public_id!r})", **env)
        match = current(match)
        users = seat_users(match)
        a = services.WsPlayer(base, users[0]).connect(match.public_id)
        b = services.WsPlayer(base, users[1]).connect(match.public_id)
        # At least this version: on a loaded machine seat 0's 5 s may already have run out.
        a.until_version_at_least(match.version)
        b.until_version_at_least(match.version)
        services.wait_for(lambda: "games.tasks.expire_turn[" in worker.log(), 10,
                          what="the worker to hold seat 0's deadline task")

        redis_proc.send_signal(signal.SIGKILL)
        redis_proc.wait(10)
        time.sleep(1)
        redis_proc = embedded_redis.start(sock)
        restarted = timezone.now()

        services.wait_for(lambda: worker.log().count("Connected to") >= 2 or not worker.alive(), 30,
                          what="the worker to reconnect")
        assert worker.alive(), f"the worker exited after the Redis restart:\n{worker.log()[-3000:]}"

        # Nobody moves: seat 0's deadline (its task died with Redis) is swept,
        # seat 1's runs from a task sent after the restart, then the computer plays.
        def after_restart(**filters):
            return Move.objects.filter(match=match, created_at__gt=restarted, **filters)

        services.wait_for(lambda: after_restart(notation="timeout").exists(), 30,
                          what="a turn deadline to be applied after the restart")
        services.wait_for(lambda: after_restart(actor=Move.Actor.SEAT, seat=2).exists(), 30,
                          what="the computer to move after the restart")

        # Moves are applied and delivered without any manual step. A frame
        # published in the instant before the server's subscriptions are
        # restored can be lost (Redis pub/sub keeps nothing); the page then
        # catches up on the next frame. So: keep playing, and require that
        # moves made after the restart reach B.
        rules = get_rules("ludo")
        players = {0: a, 1: b}
        delivered = 0

        def play_one_and_see_it():
            nonlocal delivered
            m = current(match)
            assert m.status == Match.Status.ACTIVE, m.status
            state = rules.load(m.state)
            mover = players.get(rules.to_move(state))
            if mover is None:  # the computer's turn: the worker plays it
                time.sleep(0.2)
                return False
            mover.send(move=str(rules.legal_moves(state)[0]), version=str(m.version))
            try:
                b.until_version(m.version + 1, timeout=2)
                delivered += 1
            except (AssertionError, TimeoutError):
                pass
            return delivered >= 2

        services.wait_for(play_one_and_see_it, 40, interval=0.2, what="moves after the restart to reach B")
        assert worker.alive() and beat.alive()
        rows = list(Move.objects.filter(match=match).values_list("ply", flat=True))
        assert len(rows) == len(set(rows))
        a.close()
        b.close()
    finally:
        for svc in (beat, worker, server):
            svc.stop()
        redis_proc.terminate()
        redis_proc.wait(10)


def test_after_a_redis_restart_an_idle_servers_first_socket_opens_and_hears_moves(own_redis_server):
    """A web process with no socket open while Redis restarts holds a dead
    pub/sub connection that nothing reads; the next handshake's SUBSCRIBE
    finds it dead. It opens anyway (config/settings.py, channel_layer_host:
    one retry on a new connection), and moves reach it."""
    from games.engine import get_rules

    own, base = own_redis_server
    match = make_match(seats=("human", "human"), state=ludo_state())
    users = seat_users(match)
    first = services.WsPlayer(base, users[1]).connect(match.public_id)
    first.until_version(match.version)
    first.close()  # the server's pub/sub connection stays, subscribed to nothing
    idle = redis.Redis.from_url(own.url)
    services.wait_for(lambda: not idle.pubsub_channels(), 10,
                      what="the server to unsubscribe from everything (the socket closed)")
    idle.close()

    own.kill()
    own.start()

    b = services.WsPlayer(base, users[1]).connect(match.public_id)  # was: HTTP 500
    b.until_version(match.version)
    a = services.WsPlayer(base, users[0]).connect(match.public_id)
    a.until_version(match.version)
    rules = get_rules("ludo")
    a.send(move=str(rules.legal_moves(rules.load(match.state))[0]), version=str(match.version))
    b.until_version(match.version + 1)
    a.close()
    b.close()


def test_redis_killed_as_sockets_close_never_leaves_a_server_deaf_or_its_handshakes_stuck(own_redis_server):
    """Redis is SIGKILLed right after a socket's disconnect, while the
    server is unsubscribing, and is back 0.05 to 0.15 s later, several
    times. Each time, the next handshake opens (a try or two may be refused
    while Redis is away, never left hanging until daphne drops it) and a
    move is heard by the other seat on the same server. Upstream, the
    receive task and the UNSUBSCRIBE reconnected the pub/sub connection at
    once and the server stayed deaf to moves until restarted
    (core/channel_layer.py, ResilientShard)."""
    from games.engine import get_rules

    own, base = own_redis_server
    rules = get_rules("ludo")
    match = make_match(seats=("human", "human"), state=ludo_state())
    users = seat_users(match)
    for trial in range(6):
        m = current(match)
        leaving = services.WsPlayer(base, users[1]).connect(match.public_id)
        leaving.until_version(m.version)
        leaving.close()
        own.kill()
        time.sleep(0.05 + 0.05 * (trial % 3))
        own.start(wait=False)
        for _attempt in range(3):
            started = time.monotonic()
            try:
                b = services.WsPlayer(base, users[1]).connect(match.public_id)
                b.until_version(m.version)
                break
            except Exception:
                # Refused while Redis was away is fine; hanging is not.
                assert time.monotonic() - started < 3, f"trial {trial}: a handshake hung"
                time.sleep(0.2)
        else:
            raise AssertionError(f"trial {trial}: no socket opened after the restart")
        a = services.WsPlayer(base, users[0]).connect(match.public_id)
        a.until_version(m.version)
        state = rules.load(m.state)
        mover, other = (a, b) if rules.to_move(state) == 0 else (b, a)
        mover.send(move=str(rules.legal_moves(state)[0]), version=str(m.version))
        other.until_version(m.version + 1, timeout=5)  # was: never heard
        a.close()
        b.close()


def test_a_move_published_before_the_server_subscribed_again_still_reaches_its_sockets(own_redis_server):
    """Redis restarts and a move is played the moment it answers, before the
    web process has subscribed again: Redis pub/sub keeps nothing, so the
    move's frames are lost. Once the subscription is rebuilt, every socket of
    that process gets a snapshot (core/channel_layer.py, RESUBSCRIBED), so
    both seats see the move without reloading."""
    from games.engine import get_rules

    own, base = own_redis_server
    rules = get_rules("ludo")
    match = make_match(seats=("human", "human"), state=ludo_state())
    users = seat_users(match)
    a = services.WsPlayer(base, users[0]).connect(match.public_id)
    b = services.WsPlayer(base, users[1]).connect(match.public_id)
    a.until_version(match.version)
    b.until_version(match.version)
    own.kill()
    own.start()
    state = rules.load(match.state)
    mover, other = (a, b) if rules.to_move(state) == 0 else (b, a)
    mover.send(move=str(rules.legal_moves(state)[0]), version=str(match.version))
    other.until_version(match.version + 1, timeout=15)
    mover.until_version(match.version + 1, timeout=15)
    a.close()
    b.close()


def test_handshakes_that_failed_while_redis_was_away_leave_nothing_subscribed(own_redis_server):
    """While Redis is away, every handshake fails in the channel layer's
    SUBSCRIBE. Once it is back and the subscription rebuilt, the server is
    subscribed to what its open sockets need, and not to those handshakes'
    channels (before, each was held for good, and every rebuild subscribed
    to it again: core/channel_layer.py, LoopLayer._subscribe_to_channel)."""
    own, base = own_redis_server
    match = make_match(seats=("human", "human"), state=ludo_state())
    users = seat_users(match)
    watcher = services.WsPlayer(base, users[0]).connect(match.public_id)
    watcher.until_version(match.version)
    probe = redis.Redis.from_url(own.url)
    held = set(probe.pubsub_channels())
    assert held, "the open socket's channels are subscribed"

    own.kill()
    refused = 0
    for _ in range(20):
        try:
            services.WsPlayer(base, users[1]).connect(match.public_id, open_timeout=5).close()
        except Exception:  # noqa: BLE001 - refused or dropped: Redis is away
            refused += 1
    assert refused == 20
    own.start()
    probe = redis.Redis.from_url(own.url)
    services.wait_for(lambda: set(probe.pubsub_channels()) == held, 15,
                      what=f"the rebuilt subscription to be the open socket's {len(held)} channel(s)")
    # And the server works: a new socket opens and hears a move.
    other = services.WsPlayer(base, users[1]).connect(match.public_id)
    other.until_version(match.version)
    from games.engine import get_rules

    rules = get_rules("ludo")
    state = rules.load(match.state)
    mover, hearer = (watcher, other) if rules.to_move(state) == 0 else (other, watcher)
    mover.send(move=str(rules.legal_moves(state)[0]), version=str(match.version))
    hearer.until_version(match.version + 1, timeout=15)
    watcher.close()
    other.close()
    probe.close()


def test_an_offline_client_is_brought_up_to_date_and_its_old_moves_refused(daphne_server, transactional_db):
    match = make_match(seats=("human", "human", "human"), state=ludo_state(3))
    users = seat_users(match)
    from games import actions

    a = services.WsPlayer(daphne_server, users[0]).connect(match.public_id)
    a.until_version(match.version)
    seen = match.version
    a.close()  # offline
    # Meanwhile the match moves on without it.
    actions.leave_match(match.public_id, users[2])
    m = current(match)
    assert m.version > seen
    # Back online: the first frame is the current position.
    a = services.WsPlayer(daphne_server, users[0]).connect(match.public_id)
    snapshot = a.receive()
    assert 'data-kind="snapshot"' in snapshot and f'data-version="{m.version}"' in snapshot
    # A move it queued offline, against the old version, is refused, not applied.
    a.send(move="roll", version=str(seen))
    reply = a.until(lambda f: 'data-kind="error"' in f)
    assert "moved on" in reply
    assert current(match).version == m.version
    assert not Move.objects.filter(match=match, notation="roll").exists()
    a.close()


def test_the_server_closes_huge_frames_before_reading_them_and_stays_healthy(daphne_server, transactional_db):
    """Frames over PARLOUR_WS_MAX_FRAME get the app's 4009; frames over the
    server's own limit (config/servers.py) are never read whole: daphne
    (autobahn) drops the connection at once, without a close frame, so the
    client sees 1006."""
    from config import servers

    match = make_match(seats=("human", "human"), state=ludo_state())
    users = seat_users(match)
    watcher = services.WsPlayer(daphne_server, users[1]).connect(match.public_id)
    watcher.until_version(match.version)
    codes = services.close_codes(daphne_server, users[0], match.public_id,
                                 (10_000, servers.WS_MAX_MESSAGE + 1, 2_000_000))
    assert codes == [4009, None, None]  # None: no close frame (1006)
    # The server is healthy: the other socket still gets the match's frames.
    from games import actions

    after = actions.play_move(match.public_id, users[0], "roll", match.version)
    watcher.until_version(after.version)
    watcher.close()
