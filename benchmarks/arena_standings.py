"""Arena standings speed with 1,000 players (SQLite).

Run: ``.venv/bin/python -m benchmarks.arena_standings [--repeat R]`` (``make bench-arena``).

Builds its own database, ``var/bench-arena/arena.sqlite3`` (made again each
run): one running two-seat Ludo arena of 1,000 players with 0 to 12 scored
results each. Then it measures, per finished match (R matches, each a fresh
match between two free players ended by a leave):

- the server CPU of scoring the match (``arenas.actions.score_match`` inside
  the finishing transaction) and of the push that follows (the two changed
  standings rows, ranked among all, rendered: ``push.rows_events``, what
  ``push.standings_rows`` sends), with ``time.process_time``; the bytes of
  that push; and, in the same run, the old code path (every player read and
  sorted to rank the two rows), whose ranks the new ones must equal;
- the arena page (full request through Django's test client: middleware,
  queries, template), p50 and p95 of R requests: signed out (the first 100
  rows), as the player placed 500th (the first 100 and their own row),
  ``?page=5``, and with every row on one page (the old page);
- the CPU of a socket's snapshot on connect, of a viewer's own row and of
  their own block sent again (consumers.py).

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


def old_some_rows(arena, player_ids):
    """The rows of ``player_ids`` ranked as before session 14: every player's
    points read and sorted, then bisected (kept here to measure the old code
    path in the same run and to check the new ranks against it)."""
    import bisect

    from arenas import scoring, standings
    from arenas.models import ArenaPlayer
    from games.models import Seat

    players = list(ArenaPlayer.objects.filter(arena=arena, pk__in=list(player_ids)).select_related("user"))
    playing = dict(Seat.objects.filter(match__arena_match__arena=arena, match__arena_match__scored=False,
                                       user_id__in=[p.user_id for p in players])
                   .values_list("user_id", "match__public_id"))
    everyone = list(ArenaPlayer.objects.filter(arena=arena).exclude(status=ArenaPlayer.Status.DISQUALIFIED)
                    .values_list("points", "wins", "reached_at", "user__username"))
    keys = sorted(scoring.standings_key(pts, wins, r.timestamp() if r else standings._NEVER, name)
                  for pts, wins, r, name in everyone)
    out = []
    for p in players:
        dq = p.status == ArenaPlayer.Status.DISQUALIFIED
        rank = None if dq else bisect.bisect_left(keys, standings.order_key(p)[1:]) + 1
        out.append(standings.Row(p, rank, playing.get(p.user_id, ""), standings.token(p), rank or 0))
    return out


def one_match(arena, a, b) -> dict:
    """CPU seconds of scoring a match between users ``a`` and ``b`` that ``b``
    leaves, of making its push (new, and the old code path), and its bytes."""
    from django.db import transaction

    from arenas import push
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
    events = push.rows_events(arena, ids)  # what push.standings_rows sends, unsent
    made = time.process_time() - t0
    t0 = time.process_time()
    old_rows = old_some_rows(arena, ids)
    push.rows_frame(old_rows)
    old = time.process_time() - t0
    from arenas import standings

    new_ranks = {r.player.pk: r.rank for r in standings.some_rows(arena, ids)}
    assert new_ranks == {r.player.pk: r.rank for r in old_rows}, (new_ranks, old_rows)
    return {"scored": scored, "made": made, "old": old, "bytes": sum(len(e["html"].encode()) for e in events)}


def timed(fn, repeat: int) -> list[float]:
    """CPU ms of ``fn()``, ``repeat`` times."""
    out = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        out.append((time.process_time() - t0) * 1000)
    return out


def pages_ms(client, path: str, repeat: int) -> tuple[list[float], int]:
    """Wall ms of ``repeat`` requests for ``path`` (sorted), and the last one's bytes."""
    client.get(path)  # warm
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = client.get(path)
        out.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200, (path, r.status_code)
    return sorted(out), len(r.content)


def p95(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.95))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    setup_django()
    from unittest import mock

    from django.test import Client

    from arenas import consumers, push, standings
    from arenas.actions import common as action_common
    from arenas.models import ArenaPlayer

    arena, users = build()
    rng = random.Random(5)
    runs = []
    # Sending (Redis, the broker) is not measured: what is, is the work of making the push.
    with mock.patch.object(push, "_send_all", _noop), \
            mock.patch.object(action_common, "send_pair", lambda pk: None):
        for _ in range(args.repeat):
            a, b = rng.sample(users, 2)
            runs.append(one_match(arena, a, b))
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    top = {k: max(r[k] for r in runs) for k in runs[0]}
    # A viewer in the middle of the table: the first page shows their own row below it.
    middle = standings.rows(arena)[len(users) // 2]
    viewer = middle.player.user
    signed_in = Client()
    signed_in.force_login(viewer)
    url = f"/arenas/{arena.pk}/"
    anon, anon_bytes = pages_ms(Client(), url, args.repeat)
    mine, mine_bytes = pages_ms(signed_in, url, args.repeat)
    later, later_bytes = pages_ms(Client(), url + "?page=5", args.repeat)
    with mock.patch.object(standings, "PAGE_SIZE", PLAYERS):  # the old page: every row
        every, every_bytes = pages_ms(Client(), url, args.repeat)
    snapshot = timed(lambda: consumers._snapshot(arena.pk, viewer, 1, False), args.repeat)
    own = timed(lambda: consumers._own_row(arena.pk, middle.player.pk), args.repeat)
    place = standings.some_rows(arena, [middle.player.pk])[0].pos
    own_same = timed(lambda: consumers._own_row(arena.pk, middle.player.pk, place), args.repeat)
    me = timed(lambda: consumers._me_html(arena.pk, viewer), args.repeat)
    me_bytes = len(consumers._me_html(arena.pk, viewer).encode())
    assert ArenaPlayer.objects.filter(arena=arena).count() == PLAYERS

    ms = 1000
    print(f"Arena of {PLAYERS} players, {args.repeat} finished matches and page loads (SQLite)")
    print(f"{'measure':<60}{'median':>10}{'max':>10}")
    line = "{:<60}{:>10.2f}{:>10.2f}".format
    print(line("scoring a finished match (score_match), CPU ms", med["scored"] * ms, top["scored"] * ms))
    print(line("making its push (2 rows ranked by counts), CPU ms", med["made"] * ms, top["made"] * ms))
    print(line("  old code path (every player read and sorted), CPU ms", med["old"] * ms, top["old"] * ms))
    both = [(r["scored"] + r["made"]) * ms for r in runs]
    old_both = [(r["scored"] + r["old"]) * ms for r in runs]
    print(line("standings update per finished match, CPU ms", statistics.median(both), max(both)))
    print(line("  with the old code path, CPU ms", statistics.median(old_both), max(old_both)))
    print(f"{'push bytes (2 rows)':<60}{med['bytes']:>10.0f}{top['bytes']:>10.0f}")
    print(f"{'page':<44}{'p50 ms':>10}{'p95 ms':>10}{'bytes':>12}")
    for name, got, size in (("arena page, signed out (100 rows)", anon, anon_bytes),
                            ("arena page, a player 500th (100 rows + own)", mine, mine_bytes),
                            ("arena page ?page=5 (places 401-500)", later, later_bytes),
                            ("old: every row on one page (1,000 rows)", every, every_bytes)):
        print(f"{name:<44}{statistics.median(got):>10.1f}{p95(got):>10.1f}{size:>12,}")
    print(line("socket snapshot on connect (the player's page 1), CPU ms", statistics.median(snapshot),
               max(snapshot)))
    print(line("own row looked up, place unchanged (_own_row), CPU ms", statistics.median(own_same),
               max(own_same)))
    print(line("own row looked up and sent again (_own_row), CPU ms", statistics.median(own), max(own)))
    print(line(f"own block sent again ({me_bytes} bytes), CPU ms", statistics.median(me), max(me)))


async def _noop(messages):
    return None


if __name__ == "__main__":
    main()
