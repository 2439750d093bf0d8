"""Arena standings speed with 1,000 players (SQLite).

Run: ``.venv/bin/python -m benchmarks.arena_standings [--repeat R]`` (``make bench-arena``).

Builds its own database, ``var/bench-arena/arena.sqlite3`` (made again each
run): one running two-seat Ludo arena of 1,000 players with 0 to 12 scored
results each. Then it measures, per finished match (R matches, each a fresh
match between two free players ended by a leave):

- the server CPU of scoring the match (``arenas.actions.score_match`` inside
  the finishing transaction) and of the push that follows (the two changed
  standings rows, ranked among all, rendered: ``push.rows_frame``), with
  ``time.process_time``; and the bytes of that push;
- the arena page (full request through Django's test client: middleware,
  queries, template; 1,000 rows), p50 and p95 of R requests.

Targets (README "Arenas", docs/benchmarks.md): ≤ 20 ms CPU per finished match
for the standings update, pushing only changed rows; page p95 ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DB = ROOT / "var" / "bench-arena" / "arena.sqlite3"
PLAYERS = 1_000


def setup_django() -> None:
    DB.parent.mkdir(parents=True, exist_ok=True)
    if DB.exists():
        DB.unlink()
    os.environ["DATABASE_URL"] = f"sqlite:///{DB}"
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # No Redis: the matches' own pushes go to an in-memory layer and their
    # deadline tasks to an in-memory broker (neither is what is measured).
    os.environ["CELERY_BROKER_URL"] = "memory://"
    import django

    django.setup()
    from django.conf import settings

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def build():
    from datetime import timedelta

    from django.core.management import call_command
    from django.db import transaction
    from django.utils import timezone

    from accounts.models import User
    from arenas.models import Arena, ArenaPlayer

    call_command("migrate", verbosity=0)
    rng = random.Random(11)
    now = timezone.now()
    with transaction.atomic():
        users = User.objects.bulk_create(
            User(username=f"p{i:04d}", email=f"p{i}@example.com", password="!") for i in range(PLAYERS))
        arena = Arena.objects.create(name="Bench arena", kind="ludo", seats=2, minutes=720,
                                     starts_at=now - timedelta(minutes=60), rated=False)
        players = []
        for u in users:
            seq = [rng.choice((0, 2, 2, 4, 0, 1)) for _ in range(rng.randint(0, 12))]
            players.append(ArenaPlayer(
                arena=arena, user=u, joined_at=now - timedelta(minutes=59), rating=rng.gauss(1500, 300),
                free_since=now - timedelta(seconds=rng.randint(1, 60)), points=sum(seq),
                wins=sum(1 for p in seq if p >= 2), sequence=" ".join(map(str, seq)),
                reached_at=now - timedelta(seconds=rng.randint(60, 3000)) if seq else None))
        ArenaPlayer.objects.bulk_create(players)
    return arena, users


def one_match(arena, a, b) -> tuple[float, float, int]:
    """(CPU seconds scoring, CPU seconds making the push, push bytes) for a match
    between users ``a`` and ``b`` that ``b`` leaves."""
    from django.db import transaction

    from arenas import push, standings
    from arenas.models import ArenaMatch, ArenaPlayer
    from games import actions as game_actions
    from games.models import Match, Seat

    match = game_actions.create_match("ludo", [game_actions.SeatSpec(user=a), game_actions.SeatSpec(user=b)])
    ArenaMatch.objects.create(arena=arena, match=match)
    ArenaPlayer.objects.filter(arena=arena, user__in=[a, b]).update(free_since=None)
    game_actions.start_match(match.public_id)
    # The finish itself, as games.actions does it, with the scoring timed alone.
    from arenas import actions

    with transaction.atomic():
        m = Match.objects.select_for_update().get(pk=match.pk)
        m.status, m.end_reason = Match.Status.FINISHED, "left"
        seats = list(Seat.objects.filter(match=m).order_by("index"))
        for s in seats:
            s.rank = 1 if s.user_id == a.pk else 2
            s.status = Seat.Status.PLAYING if s.user_id == a.pk else Seat.Status.LEFT
            s.save()
        m.save()
        am = ArenaMatch.objects.select_for_update().get(match=m)
        t0 = time.process_time()
        actions.score_match(am, m, seats)
        scored = time.process_time() - t0
        transaction.on_commit(lambda: None)
    ids = list(ArenaPlayer.objects.filter(arena=arena, user__in=[a, b]).values_list("pk", flat=True))
    t0 = time.process_time()
    html = push.rows_frame(standings.some_rows(arena, ids))
    made = time.process_time() - t0
    return scored, made, len(html.encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    setup_django()
    from unittest import mock

    from django.test import Client

    from arenas import actions, push

    arena, users = build()
    rng = random.Random(5)
    scored, made, sizes = [], [], []
    # Sending (Redis, the broker) is not measured: what is, is the work of making the push.
    with mock.patch.object(push, "_send_all", _noop), \
            mock.patch.object(actions, "send_pair", lambda pk: None):
        for _ in range(args.repeat):
            a, b = rng.sample(users, 2)
            s, m, n = one_match(arena, a, b)
            scored.append(s * 1000)
            made.append(m * 1000)
            sizes.append(n)
    client = Client()
    client.get(f"/arenas/{arena.pk}/")  # warm
    pages = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        r = client.get(f"/arenas/{arena.pk}/")
        pages.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200
    pages.sort()
    p95 = pages[min(len(pages) - 1, int(len(pages) * 0.95))]
    print(f"Arena of {PLAYERS} players, {args.repeat} finished matches and page loads (SQLite)")
    print(f"{'measure':<52}{'median':>10}{'max':>10}")
    print(f"{'scoring a finished match, CPU ms':<52}{statistics.median(scored):>10.2f}{max(scored):>10.2f}")
    print(f"{'making its standings push (2 rows ranked), CPU ms':<52}{statistics.median(made):>10.2f}"
          f"{max(made):>10.2f}")
    both = [s + m for s, m in zip(scored, made, strict=True)]
    print(f"{'standings update per finished match, CPU ms':<52}{statistics.median(both):>10.2f}"
          f"{max(both):>10.2f}")
    print(f"{'push bytes':<52}{statistics.median(sizes):>10.0f}{max(sizes):>10.0f}")
    print(f"{'arena page (1,000 rows), ms p50 / p95':<52}{statistics.median(pages):>10.1f}{p95:>10.1f}"
          f"  ({len(r.content):,} bytes)")


async def _noop(messages):
    return None


if __name__ == "__main__":
    main()
