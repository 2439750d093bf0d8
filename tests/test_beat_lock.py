"""The one Celery beat (config/beat_lock.py): real beat processes on the test
Redis. A second beat refuses to start and says who holds the lock; a beat
killed outright is replaced at once on its own host; a lock whose holder
is elsewhere expires, and then a beat takes it; Redis losing the lock
(a restart) costs the running beat nothing."""

import json
import os
import signal
import socket
import subprocess
import sys

import pytest
import redis
from django.conf import settings

from config.beat_lock import BeatLock, BeatLockHeld, Holder
from tests import services

pytestmark = pytest.mark.slow


def lock_holder():
    raw = redis.Redis.from_url(settings.REDIS_URL).get(settings.PARLOUR_BEAT_LOCK_KEY)
    return Holder.parse(raw)


def start_beat(name: str, **env) -> services.Service:
    """A beat process; returns once it holds the lock or has exited."""
    svc = services.start_celery_beat(name, **env)
    services.wait_for(lambda: "holds the beat lock" in svc.log() or not svc.alive(), 60,
                      what=f"{name} to take the beat lock or exit")
    return svc


@pytest.fixture
def beats(transactional_db):
    started = []
    yield started
    for svc in started:
        svc.stop()


def test_a_second_beat_refuses_to_start_and_names_the_beat_that_runs(beats):
    first = start_beat("beat-first")
    beats.append(first)
    assert first.alive(), first.log()
    assert lock_holder().pid == first.proc.pid

    second = services.start_celery_beat("beat-second")
    beats.append(second)
    assert second.proc.wait(60) == 1
    assert (f"another beat holds the lock since {lock_holder().since} on host {socket.gethostname()} "
            f"(pid {first.proc.pid}): this beat does not start") in second.log()
    assert "beat: Starting" in second.log() and "Scheduler: Sending" not in second.log()
    assert first.alive() and lock_holder().pid == first.proc.pid


def test_a_beat_killed_outright_is_replaced_at_once_on_its_own_host(beats):
    first = start_beat("beat-killed", PARLOUR_BEAT_LOCK_SECONDS="600")
    beats.append(first)
    first.kill(signal.SIGKILL)
    first.proc.wait(10)
    assert lock_holder().pid == first.proc.pid  # it could not release the lock

    # As supervisord starts it again: the lock would live 600 s more.
    again = start_beat("beat-replacement", PARLOUR_BEAT_LOCK_SECONDS="600")
    beats.append(again)
    assert again.alive(), again.log()
    assert "took over the lock of a beat that is gone, since" in again.log()
    assert lock_holder().pid == again.proc.pid


def test_a_lock_held_on_another_host_expires_and_then_a_beat_takes_it(beats):
    client = redis.Redis.from_url(settings.REDIS_URL)
    elsewhere = Holder(host="worker-elsewhere", boot="b", pidns="p", pid=4242,
                       since="2026-12-04T10:00:00+00:00")
    key = settings.PARLOUR_BEAT_LOCK_KEY
    # A minute to live, so the lock cannot run out while a loaded machine starts
    # the beat (with 3 s it did, and that beat took the lock and ran); shortened
    # once the beat has refused.
    client.set(key, elsewhere.token(), px=60_000)

    refused = services.start_celery_beat("beat-refused")
    beats.append(refused)
    assert refused.proc.wait(60) == 1
    assert "another beat holds the lock since 2026-12-04T10:00:00+00:00 on host worker-elsewhere (pid 4242)" \
        in refused.log()
    assert "expires within" in refused.log()

    client.pexpire(key, 1000)
    services.wait_for(lambda: not client.exists(key), 10, what="the dead beat's lock to expire")
    taker = start_beat("beat-taker")
    beats.append(taker)
    assert taker.alive() and lock_holder().pid == taker.proc.pid


def test_the_lock_is_taken_again_after_redis_lost_it_unless_another_beat_has_it():
    client = redis.Redis.from_url(settings.REDIS_URL)
    key = settings.PARLOUR_BEAT_LOCK_KEY + "-unit"
    client.delete(key)
    lock = BeatLock.take(client, key, 5)
    assert json.loads(client.get(key))["pid"] == lock.me.pid
    client.delete(key)  # Redis restarted empty
    assert lock.renew() and Holder.parse(client.get(key)) == lock.me
    other = Holder(host="elsewhere", boot="b", pidns="p", pid=1, since="2026-12-04T10:00:00+00:00")
    client.set(key, other.token(), px=5000)
    assert not lock.renew()  # another beat took it while Redis had lost ours
    with pytest.raises(BeatLockHeld, match="something else holds the beat lock"):
        client.set(key, "not a holder", px=5000)
        BeatLock.take(client, key, 5)
    client.delete(key)
    lock.release()
    again = BeatLock.take(client, key, 5)
    again.release()
    assert not client.exists(key)


def test_a_beat_lock_time_to_live_under_a_second_is_refused_with_its_name():
    env = dict(os.environ, DEBUG="1", DJANGO_SETTINGS_MODULE="config.settings",
               PARLOUR_BEAT_LOCK_SECONDS="0")
    done = subprocess.run([sys.executable, "manage.py", "check"], cwd=services.ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "PARLOUR_BEAT_LOCK_SECONDS must be 1 or more" in done.stderr
