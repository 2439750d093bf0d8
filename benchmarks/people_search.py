"""The search by name on 100,000 accounts (PostgreSQL).

Run: ``.venv/bin/python -m benchmarks.people_search [--queries N]``
(``make bench-people``). With ``DATABASE_URL`` set to a ``postgres://`` URL it
uses that database (its accounts are replaced); otherwise it starts its own
PostgreSQL under var/bench-live/postgres (benchmarks/live_services.py).

Seeds 100,000 active accounts (names drawn from syllables, so prefixes are
shared unevenly, as real names are; 2% closed, which the search leaves out),
runs ``ANALYZE``, prints the plan of a one-letter search (it must use
``people_user_username_prefix``, never a sequential scan), then times
``people.search.search`` (the page's query: the range, the order, a page of
20 and whether there is another) for N random prefixes of 1 to 4 letters,
first pages and next pages, each in a fresh read. Target: p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import time

ACCOUNTS = 100_000
SYLLABLES = ["ka", "lo", "mi", "ra", "to", "ve", "su", "an", "el", "or", "ju", "pe", "di", "no",
             "fa", "ze", "qu", "wi", "bo", "ny", "ch", "st", "ix", "um", "_", "-", "."]


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DATABASE_POOL", "1")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def name(rng: random.Random, i: int) -> str:
    parts = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 5)))
    return f"{parts.capitalize() if rng.random() < 0.3 else parts}{i}"


def seed(rng: random.Random) -> list[str]:
    from django.core.management import call_command
    from django.db import connection, transaction

    from accounts.models import User

    call_command("migrate", verbosity=0)
    names = [name(rng, i) for i in range(ACCOUNTS)]
    with transaction.atomic():
        with connection.cursor() as cursor:  # the accounts only: nothing else points at them here
            cursor.execute("TRUNCATE accounts_user CASCADE")
        # Unusable passwords: hashing 100,000 real ones would take an hour.
        User.objects.bulk_create((User(username=n, email=f"{n}@example.com", password="!",
                                       is_active=rng.random() >= 0.02) for n in names),
                                 batch_size=5000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE accounts_user")
    return names


def plan(prefix: str) -> str:
    """PostgreSQL's plan, run, of the search's own query for ``prefix``."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from people.search import search

    with CaptureQueriesContext(connection) as captured:
        search(prefix)
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {captured.captured_queries[-1]['sql']}")
        return "\n".join(r[0] for r in cursor.fetchall())


def timings(rng: random.Random, names: list[str], queries: int) -> list[float]:
    from people.search import search

    out = []
    for _ in range(queries):
        base = rng.choice(names).lower()
        prefix = base[:rng.randint(1, 4)]
        start = time.perf_counter()
        found = search(prefix)
        if found.next_after and rng.random() < 0.5:  # a next page, as "More names" asks
            search(prefix, found.next_after)
            out.append((time.perf_counter() - start) * 1000 / 2)
        else:
            out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    server = None
    if not url.startswith("postgres"):
        from benchmarks.live_services import Postgres

        server = Postgres().start()
        url = server.url
    try:
        setup_django(url)
        rng = random.Random(41)
        started = time.perf_counter()
        names = seed(rng)
        print(f"seeded {ACCOUNTS:,} accounts in {time.perf_counter() - started:.1f} s")
        print(plan("k"))
        ms = timings(rng, names, args.queries)
        q = statistics.quantiles(ms, n=100)
        print(f"search, {len(ms)} queries: p50 {q[49]:.2f} ms, p95 {q[94]:.2f} ms, max {max(ms):.2f} ms "
              f"(target p95 <= 50 ms)")
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
