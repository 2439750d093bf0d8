"""Turn-based play at scale: 10,000 open turn-based matches over 2,000 players.

Run: ``.venv/bin/python -m benchmarks.turn_based [--rebuild] [--repeat R] [--explain]``
(``make bench-turn-based``). Target (docs/features.md "Turn-based play"): the "Your turn in N
matches" list p95 <= 50 ms; the sweeper's cost per minute and the digest
task's cost per run are measured and reported.

The database: PostgreSQL when ``$DATABASE_URL`` is a postgres URL (the
benchmark makes two databases of its own on that server, never the one the
URL names: ``bench_turn_based_seed``, built once and kept, ``--rebuild`` makes
it again, and ``bench_turn_based``, a fresh copy of it made for each run with
``CREATE DATABASE ... TEMPLATE``); else SQLite files under
``var/bench-turn-based/`` (the output says which). An embedded Redis on a unix
socket there takes the channel layer's pushes, as in production.

The seed (bulk inserts, no actions): 2,000 players (time zones, mail
settings: 5% with the "your turn" mail off, 3% with reminders off, 1% with a
bounced address; a rating per game), 50,000 finished or aborted matches
(live and turn-based, 2 to 4 seats, rating changes for the rated ones) and
10,000 active turn-based matches (the three games, 1 to 14 days a decision,
2 to 4 human seats, engine states reached by random play, ``seat_to_move``
the engine's, the decision begun at a random point of its time so the
deadlines spread over the next 1 to 14 days). Twenty players sit in 50 open
matches each (the per-player limit), the others in about 12. No Move rows
(nothing measured reads them).

Measured (wall ms, this process's CPU ms, the database backend's CPU ms read
from /proc on PostgreSQL, queries):
(a) the sweeper, ``games.tasks.sweep_deadlines``'s body, for simulated minutes
    of 12 runs (PARLOUR_SWEEP_SECONDS = 5): with no deadline overdue, and with 3
    a minute (10,000 decisions / ~3 days is 2.3 a minute, were every deadline
    to run out), made overdue by moving the next deadlines into the past
    before a run; then a backlog of 500 overdue at once (one sweep's batch) and
    the credit of a 10-minute outage to every running clock;
(b) the mail task, ``notifications.tasks.turn_mail`` (the digests and the
    reminders) with ``send_mail`` replaced at the task boundary by a counter:
    the first runs, with every player due (500 players a run), a run with
    nothing due, and a steady-state run (a twelfth of the players' hour past,
    each with a new decision);
(c) the "Your turn in N matches" list, ``games.your_matches.panel_rows`` (what
    the home and play pages render), for a player in 50 matches and a median
    one, and the whole home and play pages through Django's test client,
    signed in;
(d) the header count, ``games.your_matches.your_turn_count``.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "var" / "bench-turn-based"
SEED_DB, RUN_DB = "bench_turn_based_seed", "bench_turn_based"
PLAYERS, OPEN, FINISHED = 2_000, 10_000, 50_000
HEAVY, HEAVY_MATCHES = 20, 50
KINDS = ("ludo", "roundabout", "rondo")
DAYS_WEIGHTS = {1: 15, 2: 20, 3: 30, 5: 15, 7: 15, 14: 5}
ZONES = ("UTC", "Europe/London", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney")


# -- the database -----------------------------------------------------------------


def postgres_url() -> str | None:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.split(":", 1)[0].startswith(("postgres", "pgsql", "psql")) else None


def _with_db(url: str, name: str) -> str:
    return urllib.parse.urlunsplit(urllib.parse.urlsplit(url)._replace(path=f"/{name}"))


def _admin(url: str):
    import psycopg

    return psycopg.connect(_with_db(url, "postgres").replace("postgresql://", "postgres://", 1),
                           autocommit=True)


def prepare_database(rebuild: bool) -> tuple[str, str]:
    """(DATABASE_URL of this run's fresh copy of the seed, how the report names it)."""
    DIR.mkdir(parents=True, exist_ok=True)
    url = postgres_url()
    if url is None:
        seed, run = DIR / "seed.sqlite3", DIR / "run.sqlite3"
        if rebuild or not seed.exists():
            seed.unlink(missing_ok=True)
            _seed_in_subprocess(f"sqlite:///{seed}")
        shutil.copyfile(seed, run)
        return f"sqlite:///{run}", ("SQLite (no postgres $DATABASE_URL; the production figures are "
                                    "PostgreSQL's)")
    with _admin(url) as conn:
        have = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [SEED_DB]).fetchone()
        if rebuild or not have:
            conn.execute(f"DROP DATABASE IF EXISTS {SEED_DB} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {SEED_DB}")
            have = None
    if not have:
        _seed_in_subprocess(_with_db(url, SEED_DB))
    with _admin(url) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {RUN_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {RUN_DB} TEMPLATE {SEED_DB}")
        version = conn.execute("SHOW server_version").fetchone()[0]
    host = urllib.parse.urlsplit(url).netloc.rsplit("@", 1)[-1]
    return _with_db(url, RUN_DB), f"PostgreSQL {version} at {host}, database {RUN_DB}"


def _seed_in_subprocess(url: str) -> None:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "benchmarks.turn_based", "--seed-into", url], cwd=ROOT,
                   check=True, env={**os.environ, "DATABASE_URL": url})
    print(f"(built the seed database in {time.perf_counter() - t:.0f} s)\n")


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["REDIS_URL"] = f"unix://{DIR / 'redis.sock'}"
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SITE_URL", "https://parlour.example")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import logging

    import django

    django.setup()
    logging.disable(logging.WARNING)  # the sweeper's and the mail task's per-match lines


# -- the seed ----------------------------------------------------------------------


def decision_states(rng: random.Random, per: int = 40) -> dict[tuple[str, int], list[tuple]]:
    """{(kind, players): [(dumped state, plies played, seat to move)]}: states
    at a person's decision (no chance step, no forced move), reached by random
    play of 0 to 120 plies."""
    from games.engine import CHANCE, get_rules

    pool = {}
    for kind in KINDS:
        rules = get_rules(kind)
        for n in (2, 3, 4):
            found = []
            while len(found) < per:
                target, state, plies = rng.randint(0, 120), rules.new_match(n), 0
                while True:
                    who = rules.to_move(state)
                    if who is None:
                        break
                    if who == CHANCE:
                        outcomes = rules.chance_outcomes(state)
                        move = rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
                    elif (forced := rules.forced_move(state)) is not None:
                        move = forced
                    elif plies >= target:
                        found.append((rules.dump(state), plies, who))
                        break
                    else:
                        move = rng.choice(rules.legal_moves(state))
                    state = rules.play(state, move)
                    plies += 1
            pool[(kind, n)] = found
    return pool


def _colours(kind: str, n: int) -> list[str]:
    from games.engine import get_rules

    rules = get_rules(kind)
    return [s["colour"] for s in rules.view(rules.new_match(n), None)["seats"]]


@contextmanager
def _own_times():
    """Let the seed set ``created_at`` and ``updated_at`` itself."""
    from games.models import Match, Seat

    fields = [Match._meta.get_field("created_at"), Match._meta.get_field("updated_at"),
              Seat._meta.get_field("joined_at")]
    saved = [(f.auto_now, f.auto_now_add) for f in fields]
    for f in fields:
        f.auto_now = f.auto_now_add = False
    try:
        yield
    finally:
        for f, (now, add) in zip(fields, saved, strict=True):
            f.auto_now, f.auto_now_add = now, add


def seed() -> None:
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    call_command("migrate", verbosity=0)
    rng = random.Random(40)
    now = timezone.now()
    pool = decision_states(rng)
    with transaction.atomic(), _own_times():
        users = _seed_players(rng)
        _seed_history(rng, users, now)
        _seed_open(rng, users, pool, now)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _seed_players(rng: random.Random) -> list:
    from accounts.models import Rating, User
    from notifications.models import MailSettings

    # Unusable passwords: hashing 2,000 real ones would take longer than the rest.
    users = User.objects.bulk_create(
        User(username=f"p{i:04}", email=f"p{i:04}@example.com", password="!", time_zone=rng.choice(ZONES))
        for i in range(PLAYERS))
    settings_rows = []
    for u in users:
        r = rng.random()
        settings_rows.append(MailSettings(user=u, your_turn=not r < 0.05, reminders=not 0.05 <= r < 0.08,
                                          bounced_address=u.email if 0.08 <= r < 0.09 else ""))
    MailSettings.objects.bulk_create(settings_rows, batch_size=2000)
    Rating.objects.bulk_create(
        (Rating(user=u, kind=k, rating=rng.gauss(1500, 250), games=rng.randint(0, 400))
         for u in users for k in KINDS),
        batch_size=2000)
    return users


def _seed_history(rng: random.Random, users: list, now) -> None:
    from games.engine import get_rules
    from games.models import Match, RatingChange, Seat
    from games.time_controls import DAY, LIVE_SECONDS

    starts = {(k, n): get_rules(k).dump(get_rules(k).new_match(n)) for k in KINDS for n in (2, 3, 4)}
    colours = {(k, n): _colours(k, n) for k in KINDS for n in (2, 3, 4)}
    done = 0
    while done < FINISHED:
        chunk = min(5000, FINISHED - done)
        plans, matches = [], []
        for _ in range(chunk):
            kind, n = rng.choice(KINDS), rng.choices((2, 3, 4), (60, 25, 15))[0]
            turn = rng.choice(LIVE_SECONDS) if rng.random() < 0.7 else rng.choice(tuple(DAYS_WEIGHTS)) * DAY
            finished = now - timedelta(seconds=rng.uniform(0, 365 * DAY))
            created = finished - timedelta(seconds=turn * rng.uniform(5, 40))
            status = Match.Status.FINISHED if rng.random() < 0.9 else Match.Status.ABORTED
            plans.append((n, status))
            matches.append(Match(
                kind=kind, status=status, rated=rng.random() < 0.5, turn_seconds=turn, seed="00" * 32,
                seed_hash="11" * 32, start_state=starts[(kind, n)], state=starts[(kind, n)],
                ply_count=rng.randint(20, 400), end_reason="finished" if status == "finished" else "aborted",
                created_at=created, started_at=created, finished_at=finished, updated_at=finished))
        matches = Match.objects.bulk_create(matches, batch_size=2000)
        seats, changes = [], []
        for m, (n, status) in zip(matches, plans, strict=True):
            players = rng.sample(users, n)
            ranks = list(range(1, n + 1)) if status == Match.Status.FINISHED else [None] * n
            rng.shuffle(ranks)
            for i, (u, rank) in enumerate(zip(players, ranks, strict=True)):
                seats.append(Seat(match=m, index=i, colour=colours[(m.kind, n)][i], user=u, rank=rank,
                                  joined_at=m.created_at))
                if m.rated and rank:
                    d = rng.uniform(-20, 20)
                    changes.append(RatingChange(match=m, user=u, kind=m.kind, before=1500, after=1500 + d,
                                                delta=d))
        Seat.objects.bulk_create(seats, batch_size=5000)
        RatingChange.objects.bulk_create(changes, batch_size=5000)
        done += chunk


def _seat_plan(rng: random.Random, sizes: list[int], users: list) -> list[list]:
    """The players of each open match: the first HEAVY players in HEAVY_MATCHES
    each, the others at random (at most the per-player limit, 50, each)."""
    slots = [[] for _ in sizes]
    for u in users[:HEAVY]:
        free = [i for i, s in enumerate(slots) if len(s) < sizes[i]]
        for i in rng.sample(free, HEAVY_MATCHES):
            slots[i].append(u)
    rest, count = users[HEAVY:], {}
    for i, s in enumerate(slots):
        while len(s) < sizes[i]:
            u = rng.choice(rest)
            if u in s or count.get(u.pk, 0) >= 50:
                continue
            s.append(u)
            count[u.pk] = count.get(u.pk, 0) + 1
        rng.shuffle(s)
    return slots


def _seed_open(rng: random.Random, users: list, pool: dict, now) -> None:
    from games.engine import get_rules
    from games.models import Match, Seat
    from games.time_controls import DAY

    starts = {(k, n): get_rules(k).dump(get_rules(k).new_match(n)) for k in KINDS for n in (2, 3, 4)}
    colours = {(k, n): _colours(k, n) for k in KINDS for n in (2, 3, 4)}
    sizes = [rng.choices((2, 3, 4), (70, 20, 10))[0] for _ in range(OPEN)]
    plan = _seat_plan(rng, sizes, users)
    matches = []
    for n in sizes:
        kind = rng.choice(KINDS)
        turn = rng.choices(tuple(DAYS_WEIGHTS), tuple(DAYS_WEIGHTS.values()))[0] * DAY
        state, plies, to_move = rng.choice(pool[(kind, n)])
        # The decision began at a random point of its time: at least an hour left.
        began = now - timedelta(seconds=rng.uniform(0, turn - 3600))
        created = began - timedelta(seconds=plies * turn * rng.uniform(0.05, 0.5) / max(n, 1))
        matches.append(Match(
            kind=kind, status=Match.Status.ACTIVE, rated=rng.random() < 0.5, turn_seconds=turn,
            seed=secrets.token_hex(32), seed_hash="11" * 32, start_state=starts[(kind, n)], state=state,
            version=plies + 1, ply_count=plies, seat_to_move=to_move,
            deadline=began + timedelta(seconds=turn),
            holiday_credit=timedelta(0), created_at=created, started_at=created, updated_at=began))
    matches = Match.objects.bulk_create(matches, batch_size=2000)
    seats = []
    for m, players in zip(matches, plan, strict=True):
        n = len(players)
        for i, u in enumerate(players):
            seats.append(Seat(match=m, index=i, colour=colours[(m.kind, n)][i], user=u,
                              joined_at=m.created_at, missed_turns=1 if rng.random() < 0.1 else 0))
    Seat.objects.bulk_create(seats, batch_size=5000)


# -- measuring ---------------------------------------------------------------------


class Meter:
    """Wall, this process's CPU and the database backend's CPU (ms), and queries, of a block."""

    def __init__(self):
        from django.db import connection

        self.connection = connection
        self.queries = 0
        connection.execute_wrappers.append(self._count)

    def _count(self, execute, sql, params, many, context):
        self.queries += 1
        return execute(sql, params, many, context)

    def _backend_cpu(self) -> float | None:
        from benchmarks.live_services import cpu_seconds

        if self.connection.vendor != "postgresql":
            return None
        self.connection.ensure_connection()
        pid = self.connection.connection.info.backend_pid
        try:
            return cpu_seconds(pid)
        except OSError:  # a server on another machine
            return None

    @contextmanager
    def measure(self, into: list):
        q, db, cpu, wall = self.queries, self._backend_cpu(), time.process_time(), time.perf_counter()
        yield
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        db_after = self._backend_cpu()
        into.append({"wall": wall * 1000, "cpu": cpu * 1000,
                     "db": (db_after - db) * 1000 if db is not None and db_after is not None else None,
                     "queries": self.queries - q})


def _med(rows, key) -> str:
    values = [r[key] for r in rows if r[key] is not None]
    return f"{statistics.median(values):.1f}" if values else "–"


def _sum(rows, key) -> float | None:
    values = [r[key] for r in rows]
    return None if None in values else sum(values)


def make_overdue(count: int) -> None:
    """Move the next ``count`` turn-based deadlines just past the sweeper's
    cutoff (now, less the network allowance), as the clock would."""
    from django.utils import timezone

    from games.actions.core import allowance
    from games.models import Match
    from games.time_controls import TURN_BASED_Q

    if not count:
        return
    ids = list(Match.objects.filter(TURN_BASED_Q, status=Match.Status.ACTIVE, deadline__gt=timezone.now())
               .order_by("deadline").values_list("pk", flat=True)[:count])
    Match.objects.filter(pk__in=ids).update(deadline=timezone.now() - allowance() - timedelta(seconds=1))


def sweeper(meter: Meter, minutes: int) -> None:
    from django.conf import settings
    from django.utils import timezone

    from games import uptime
    from games.models import Match, Outage
    from games.tasks import sweep_deadlines

    runs = round(60 / settings.PARLOUR_SWEEP_SECONDS)
    print(f"\n### (a) The sweeper (`games.tasks.sweep_deadlines`, every "
          f"{settings.PARLOUR_SWEEP_SECONDS:g} s: {runs} runs a simulated minute)\n")
    print("| case | runs | per run: wall ms | CPU ms | DB CPU ms | queries "
          "| per minute: wall ms | CPU ms | DB CPU ms |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    cases = [("no deadline overdue", 0), ("3 overdue a minute (1 in runs 1, 5, 9)", 3)]
    for name, per_minute in cases:
        every = runs // per_minute if per_minute else None
        minute_totals, all_runs, with_one = [], [], []
        for _ in range(minutes):
            rows = []
            for i in range(runs):
                uptime.record_beat()  # beat's part, in beat's process: not counted
                due = 1 if every and i % every == 0 else 0
                make_overdue(due)
                with meter.measure(rows):
                    sweep_deadlines.run()
                (with_one if due else all_runs).append(rows[-1])
            minute_totals.append({k: _sum(rows, k) for k in ("wall", "cpu", "db")})
        runs_shown = all_runs + with_one
        print(f"| {name} | {len(runs_shown)} | {_med(runs_shown, 'wall')} | {_med(runs_shown, 'cpu')} | "
              f"{_med(runs_shown, 'db')} | {_med(runs_shown, 'queries')} | {_med(minute_totals, 'wall')} | "
              f"{_med(minute_totals, 'cpu')} | {_med(minute_totals, 'db')} |")
        if with_one:
            print(f"| … of which the runs with none overdue | {len(all_runs)} | {_med(all_runs, 'wall')} | "
                  f"{_med(all_runs, 'cpu')} | {_med(all_runs, 'db')} | {_med(all_runs, 'queries')} | | | |")
            print(f"| … of which the runs expiring one | {len(with_one)} | {_med(with_one, 'wall')} | "
                  f"{_med(with_one, 'cpu')} | {_med(with_one, 'db')} | {_med(with_one, 'queries')} | | | |")
    # A backlog: one sweep's batch (workers down for a while).
    uptime.record_beat()
    make_overdue(500)
    rows = []
    with meter.measure(rows):
        sweep_deadlines.run()
    r = rows[0]
    print(f"| a backlog of 500 overdue (one batch) | 1 | {r['wall']:.0f} | {r['cpu']:.0f} | "
          f"{_fmt(r['db'])} | {r['queries']} | per expiry: {r['wall'] / 500:.1f} | {r['cpu'] / 500:.1f} | "
          f"{_fmt(r['db'], 500)} |")
    # A 10-minute outage credited to every running clock.
    now = timezone.now()
    Outage.objects.create(down_from=now - timedelta(minutes=15), up_since=now - timedelta(minutes=5))
    uptime.record_beat()
    running = Match.objects.filter(status=Match.Status.ACTIVE, turn_seconds__gte=86400).count()
    rows = []
    with meter.measure(rows):
        sweep_deadlines.run()
    r = rows[0]
    print(f"| a 10-minute outage credited to {running:,} clocks | 1 | {r['wall']:.0f} | {r['cpu']:.0f} | "
          f"{_fmt(r['db'])} | {r['queries']} | | | |")


def _fmt(value, per: int = 1) -> str:
    return "–" if value is None else f"{value / per:.1f}" if per > 1 else f"{value:.0f}"


class _Counter:
    """``notifications.tasks.send_mail`` stand-in: counts what would be queued, by kind."""

    def __init__(self):
        self.kinds: dict[str, int] = {}

    def delay(self, user_id, kind, subject, template, context):
        self.kinds[kind] = self.kinds.get(kind, 0) + 1


def mail_task(meter: Meter, repeat: int) -> None:
    from unittest import mock

    from django.conf import settings
    from django.db.models import F
    from django.utils import timezone

    import notifications.tasks
    from games.turn_mail import waiting_decisions
    from notifications.models import MailSettings, MatchMail

    print(f"\n### (b) The mail task (`notifications.tasks.turn_mail`, every "
          f"{settings.PARLOUR_TURN_MAIL_SECONDS:g} s; mails counted at `send_mail`, not sent)\n")
    print("| run | digests queued | reminders queued | wall ms | CPU ms | DB CPU ms | queries |")
    print("|---|--:|--:|--:|--:|--:|--:|")

    def run(name: str) -> dict:
        counter, rows = _Counter(), []
        with mock.patch.object(notifications.tasks, "send_mail", counter), meter.measure(rows):
            notifications.tasks.turn_mail.run()
        r = rows[0]
        print(f"| {name} | {counter.kinds.get('your_turn', 0)} | {counter.kinds.get('reminders', 0)} | "
              f"{r['wall']:.0f} | {r['cpu']:.0f} | {_fmt(r['db'])} | {r['queries']} |")
        return counter.kinds

    n = 1
    while run(f"first runs: {n}").get("your_turn") and n < 10:
        n += 1
    idle = []
    for _ in range(repeat):
        with mock.patch.object(notifications.tasks, "send_mail", _Counter()), meter.measure(idle):
            notifications.tasks.turn_mail.run()
    print(f"| nothing due (median of {repeat}) | 0 | 0 | {_med(idle, 'wall')} | {_med(idle, 'cpu')} | "
          f"{_med(idle, 'db')} | {_med(idle, 'queries')} |")
    rng = random.Random(12)
    decisions = waiting_decisions()
    movers = sorted({user for _, user, _, _ in decisions})
    for _ in range(3):
        # A twelfth of the players' hour has passed since their digest, and each has a new decision.
        lapsed = set(rng.sample(movers, len(movers) // 12))
        MailSettings.objects.filter(user_id__in=lapsed).update(
            last_digest_at=timezone.now() - timedelta(seconds=settings.PARLOUR_DIGEST_EVERY_SECONDS + 60))
        MatchMail.objects.filter(match_id__in=[m for m, user, _, _ in decisions if user in lapsed]).update(
            digest_ply=F("digest_ply") - 1)
        run(f"steady state: {len(lapsed)} players' hour past, with a new decision")


def percentiles(times: list[float]) -> tuple[float, float, float]:
    times = sorted(times)

    def at(q):
        return times[min(len(times) - 1, int(q * len(times)))]

    return statistics.median(times), at(0.95), at(0.99)


def lists(meter_queries: Meter, repeat: int) -> None:
    from django.db.models import Count
    from django.test import Client

    from accounts.models import User
    from games import your_matches
    from games.models import Match, Seat

    counts = dict(Seat.objects.filter(match__status=Match.Status.ACTIVE).values_list("user_id")
                  .annotate(n=Count("id")).values_list("user_id", "n"))
    ordered = sorted(counts, key=lambda u: counts[u])
    heavy = User.objects.get(pk=max(counts, key=lambda u: (counts[u], -u)))
    median = User.objects.get(pk=ordered[len(ordered) // 2])
    print(f"\n### (c) \"Your turn in N matches\" and (d) the header count ({repeat} calls each)\n")
    print("| what | player | matches | your turn | p50 ms | p95 ms | p99 ms | queries |")
    print("|---|---|--:|--:|--:|--:|--:|--:|")
    for user in (heavy, median):
        rows = your_matches.panel_rows(user)
        turn = len(rows[your_matches.TURN])
        cases = [
            ("`panel_rows` (the list the pages render)", lambda u=user: your_matches.panel_rows(u)),
            ("`your_turn_count` (the header's count)", lambda u=user: your_matches.your_turn_count(u.pk)),
        ]
        for name, call in cases:
            call()
            q0 = meter_queries.queries
            call()
            queries = meter_queries.queries - q0
            times = []
            for _ in range(repeat):
                t = time.perf_counter()
                call()
                times.append((time.perf_counter() - t) * 1000)
            p50, p95, p99 = percentiles(times)
            print(f"| {name} | {user.username} | {counts[user.pk]} | {turn} | {p50:.1f} | {p95:.1f} | "
                  f"{p99:.1f} | {queries} |")
        client = Client()
        client.force_login(user)
        for path in ("/", "/play/"):
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
            assert f"ym-{Match.objects.filter(seats__user=user, status='active').first().public_id}" in \
                response.content.decode(), "the page lists the matches"
            q0 = meter_queries.queries
            client.get(path)
            queries = meter_queries.queries - q0
            times = []
            for _ in range(max(50, repeat // 2)):
                t = time.perf_counter()
                client.get(path)
                times.append((time.perf_counter() - t) * 1000)
            p50, p95, p99 = percentiles(times)
            print(f"| the whole page `{path}` (test client, signed in) | {user.username} | "
                  f"{counts[user.pk]} | {turn} | {p50:.1f} | {p95:.1f} | {p99:.1f} | {queries} |")


def _waiting_decisions_query():
    """``games.turn_mail.waiting_decisions``' query, as it builds it."""
    from django.db.models import Exists, OuterRef, Subquery

    from games import time_controls
    from games.models import Match, Seat
    from notifications.models import MatchMail

    mover = Seat.objects.filter(match_id=OuterRef("pk"), index=OuterRef("seat_to_move"),
                                status=Seat.Status.PLAYING, user__isnull=False).values("user_id")[:1]
    mailed = Exists(MatchMail.objects.filter(match_id=OuterRef("pk"), digest_ply=OuterRef("ply_count")))
    return (Match.objects.filter(time_controls.TURN_BASED_Q, status=Match.Status.ACTIVE,
                                 seat_to_move__isnull=False)
            .annotate(mover=Subquery(mover), mailed=mailed).order_by()
            .values_list("pk", "mover", "ply_count", "mailed"))


def explain() -> None:
    """EXPLAIN ANALYZE of the queries measured (PostgreSQL)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.db.models import Count

    from games.actions.timeout import overdue_query
    from games.models import Seat

    if connection.vendor != "postgresql":
        return
    from django.utils import timezone

    user_id = (Seat.objects.filter(match__status="active").values("user_id").annotate(n=Count("id"))
               .order_by("-n").values_list("user_id", flat=True)[0])
    user = get_user_model().objects.get(pk=user_id)
    from django.db.models import F

    from games import time_controls
    from games.models import Match

    queries = {
        "sweeper: overdue_query": overdue_query(timezone.now()),
        "your_turn_count": Seat.objects.filter(
            user_id=user_id, status=Seat.Status.PLAYING, index=F("match__seat_to_move"),
            match__status=Match.Status.ACTIVE, match__turn_seconds__gte=time_controls.DAY),
        "the digests: waiting_decisions": _waiting_decisions_query(),
        "live_matches (first query)": Match.objects.filter(
            status__in=["waiting", "active", "paused"], seats__user=user, seats__status="playing")
        .order_by("-created_at")[:120],
    }
    for name, qs in queries.items():
        print(f"\n#### EXPLAIN ANALYZE: {name}\n")
        print("```")
        print(qs.explain(analyze=True))
        print("```")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rebuild", action="store_true", help="build the seed database again")
    parser.add_argument("--repeat", type=int, default=300, help="calls per list case (default 300)")
    parser.add_argument("--minutes", type=int, default=5, help="simulated sweeper minutes per case")
    parser.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE the queries (PostgreSQL)")
    parser.add_argument("--seed-into", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed_into:
        setup_django(args.seed_into)
        seed()
        return
    url, where = prepare_database(args.rebuild)
    from benchmarks.live_services import load_average, start_redis

    redis = start_redis(DIR / "redis.sock")
    try:
        setup_django(url)
        from benchmarks.engine import machine

        print(f"## Turn-based play: {OPEN:,} open turn-based matches over {PLAYERS:,} players, "
              f"{FINISHED:,} finished\n")
        print(f"{machine()}; {where}; load average before: {load_average()}; "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        meter = Meter()
        lists(meter, args.repeat)
        sweeper(meter, args.minutes)
        mail_task(meter, 5)
        if args.explain:
            explain()
        print(f"\nload average after: {load_average()}")
    finally:
        redis.stop()


if __name__ == "__main__":
    main()
