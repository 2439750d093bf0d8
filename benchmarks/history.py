"""Match history speed with 10,000 matches per player (SQLite).

Run: ``.venv/bin/python -m benchmarks.history [--repeat R]`` (``make bench-history``).

Builds its own database, ``var/bench-history/history.sqlite3`` (kept between runs;
``--rebuild`` makes it again): two heavy players with 10,000 finished or
aborted matches each (random game, rated or casual, 5% private, results and
rating changes) against 60 other players, so 40,000 seats in all. Then it
times full requests of the history page through Django's test client
(middleware, queries, template), as the owner, as another signed-in player
(private matches filtered out) and signed out, for every filter and deep
pages (keyset cursors). Target: p95 under 100 ms per request.
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
DB = ROOT / "var" / "bench-history" / "history.sqlite3"
MATCHES = 10_000


def setup_django() -> None:
    DB.parent.mkdir(parents=True, exist_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{DB}"
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def build() -> None:
    from django.core.management import call_command
    from django.db import transaction

    from accounts.models import User
    from games.engine import get_rules
    from games.models import Match, RatingChange, Seat

    call_command("migrate", verbosity=0)
    rng = random.Random(7)
    kinds = ["ludo", "roundabout", "rondo"]
    start = get_rules("ludo").dump(get_rules("ludo").new_match(2))
    with transaction.atomic():
        # Unusable passwords: hashing 62 real ones would take longer than the rest.
        heavy = User.objects.bulk_create(
            User(username=f"heavy{i}", email=f"heavy{i}@example.com", password="!") for i in range(2))
        others = User.objects.bulk_create(
            User(username=f"opp{i}", email=f"opp{i}@example.com", password="!") for i in range(60))
        for player in heavy:
            matches = Match.objects.bulk_create(
                Match(kind=rng.choice(kinds), status=rng.choice(["finished"] * 9 + ["aborted"]),
                      rated=rng.random() < 0.6, is_public=rng.random() >= 0.05, seed="00" * 32,
                      seed_hash="11" * 32, start_state=start, state=start, end_reason="finished")
                for _ in range(MATCHES)
            )
            seats, changes = [], []
            for m in matches:
                opp = rng.choice(others)
                mine_first = rng.random() < 0.5
                finished = m.status == "finished"
                my_rank = rng.choice([1, 2]) if finished else None
                opp_rank = (3 - my_rank) if finished else None
                pair = [(player, my_rank), (opp, opp_rank)]
                if not mine_first:
                    pair.reverse()
                seats += [Seat(match=m, index=i, colour="red" if i == 0 else "yellow", user=u, rank=r)
                          for i, (u, r) in enumerate(pair)]
                if m.rated and finished:
                    d = 10.0 if my_rank == 1 else -10.0
                    changes.append(RatingChange(match=m, user=player, kind=m.kind, before=1500,
                                                after=1500 + d, delta=d))
            Seat.objects.bulk_create(seats, batch_size=2000)
            RatingChange.objects.bulk_create(changes, batch_size=2000)
    call_command("shell", "-c", "from django.db import connection; connection.cursor().execute('ANALYZE')",
                 verbosity=0)


def time_requests(repeat: int) -> None:
    from django.test import Client

    from accounts.models import User
    from benchmarks.engine import machine
    from games.models import Seat

    owner = User.objects.get(username="heavy0")
    mine = Seat.objects.filter(user=owner).order_by("pk").values_list("pk", flat=True)
    deep, middle = mine[30], mine[5000]
    other = User.objects.get(username="heavy1")
    clients = {"owner": Client(), "other player": Client(), "signed out": Client()}
    clients["owner"].force_login(owner)
    clients["other player"].force_login(other)
    cases = [
        ("no filter, page 1", ""),
        ("the last page (keyset)", f"?before={deep}"),
        ("middle page, newer link", f"?after={middle}"),
        ("game", "?kind=ludo"),
        ("rated", "?rated=rated"),
        ("result won", "?result=won"),
        ("opponent", "?opponent=opp7"),
        ("game + rated + won + opponent", "?kind=rondo&rated=rated&result=won&opponent=opp3"),
        ("game, middle page", f"?kind=roundabout&before={middle}"),
    ]
    print(f"History of a player with {MATCHES:,} matches; {repeat} requests per case; {machine()}\n")
    print("| viewer | case | rows shown | p50 ms | p95 ms | max ms |")
    print("|---|---|---:|---:|---:|---:|")
    everything = []
    for who, client in clients.items():
        for name, query in cases:
            times = []
            for _ in range(repeat):
                t = time.perf_counter()
                response = client.get(f"/u/heavy0/matches/{query}")
                times.append((time.perf_counter() - t) * 1000)
                assert response.status_code == 200, response.status_code
            count = response.content.decode().count("data-match=")
            everything += times
            times.sort()
            print(f"| {who} | {name} | {count:,} | {statistics.median(times):.1f} | "
                  f"{times[int(0.95 * (len(times) - 1))]:.1f} | {times[-1]:.1f} |")
    everything.sort()
    print(f"\nAll {len(everything)} requests: p50 {statistics.median(everything):.1f} ms, "
          f"p95 {everything[int(0.95 * (len(everything) - 1))]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    if args.rebuild and DB.exists():
        for suffix in ("", "-wal", "-shm"):
            Path(f"{DB}{suffix}").unlink(missing_ok=True)
    fresh = not DB.exists()
    setup_django()
    if fresh:
        t = time.perf_counter()
        build()
        print(f"(built the benchmark database in {time.perf_counter() - t:.0f} s)\n")
    time_requests(args.repeat)


if __name__ == "__main__":
    main()
