"""Replay speed: a step of a 2,000-ply match (``make bench-replay``).

Run: ``.venv/bin/python -m benchmarks.replay [--repeat R]``.

It keeps its own SQLite database, ``var/bench-replay/replay.sqlite3`` (migrated
each run), and starts the embedded redis-server (the rate limits' counts live
there). Each run makes its matches again from nothing: a finished, rated,
four-seat Ludo match of about 2,000 plies (``LONG_PLIES``: the seats play by a
fixed rule that captures whenever it can and otherwise moves the piece furthest
behind, the dice drawn from the match's own seed as live play draws them, so the
fairness check passes; the first seed giving a record within 1% of 2,000 plies
is used, so every run and every checkout gets the same match) and a short one
(the first request of a process compiles templates and resolves
URLs, which is not the replay's cost). Then it times full requests through
Django's test client (middleware, queries, template) as a visitor without an
account and as a signed-in player who did not play in the match:

- the first request of the long match in a process, a whole page and a step
  (what reading the record costs, where the replay keeps what it read: what it
  kept is dropped before each of these);
- a step, the "step" partial that ``static/js/replay.js`` asks htmx for
  (``HX-Request``), at random plies, and ply after ply as autoplay asks;
- the whole page at random plies (a link opened in a new tab, a page without
  JavaScript).

The visitors' replay budget (``PARLOUR_REPLAY_VISITOR_RATE``) is raised for the
run, so every request is served and timed, its Redis count included. Medians
and p95 in milliseconds; the machine and its load average are printed with them.
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
DIR = ROOT / "var" / "bench-replay"
DB = DIR / "replay.sqlite3"
LONG_ID = "benchlong2k"
SHORT_ID = "benchshort"
LONG_PLIES = 2000
PLAYERS = ("ada", "bo", "cy", "di")


def setup_django(redis_socket: Path) -> None:
    DIR.mkdir(parents=True, exist_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{DB}"
    os.environ["REDIS_URL"] = f"unix://{redis_socket}"
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["PARLOUR_REPLAY_VISITOR_RATE"] = "1000000/minute"
    import django

    django.setup()


def _seat_move(rules, state, rng):
    """The benchmark's seat: a capture when one is legal, else the piece furthest
    behind (which leaves pieces out on the ring to be captured: long matches)."""
    forced = rules.forced_move(state)
    if forced is not None:
        return forced
    legal = rules.legal_moves(state)
    if not str(legal[0]).startswith("p"):
        return legal[0]
    for move in legal:
        after = rules.play(state, move)
        if any(a >= 0 and b < 0 for a, b in zip(state.pieces, after.pieces, strict=True)):
            return move
    base = 4 * state.turn
    return min(legal, key=lambda m: (state.pieces[base + int(str(m)[1:])], rng.random()))


def play(seed: bytes, public_id: str):
    """A Ludo match for four played out from ``seed``: (start state, [(actor,
    seat, notation, chance index)], final state)."""
    from games.engine import CHANCE, get_rules
    from games.engine.fair import fair_outcome

    rules = get_rules("ludo")
    rng = random.Random(seed)
    start = state = rules.new_match(4)
    record = []
    while (who := rules.to_move(state)) is not None:
        if who == CHANCE:
            k = rules.chance_count(state)
            move = fair_outcome(rules, state, seed, public_id)
            record.append(("chance", None, str(move), k))
        else:
            forced = rules.forced_move(state)
            move = _seat_move(rules, state, rng)
            record.append(("server" if forced is not None else "seat", who, str(move), None))
        state = rules.play(state, move)
    return start, record, state


def make_match(public_id: str, plies: int | None, users) -> int:
    """The match ``public_id`` made again (finished, rated, its record within 1%
    of ``plies``, or the first seed's for None); returns its ply count."""
    from django.db import transaction
    from django.utils import timezone

    from games.engine import fair, get_rules
    from games.models import Match, Move, RatingChange, Seat

    rules = get_rules("ludo")
    for n in range(100_000):
        seed = n.to_bytes(32, "big")
        start, record, final = play(seed, public_id)
        if plies is None or abs(len(record) - plies) <= plies // 100:
            break
    outcome = rules.outcome(final)
    view = rules.view(final, None)
    now = timezone.now()
    with transaction.atomic():
        Match.objects.filter(public_id=public_id).delete()
        match = Match.objects.create(
            public_id=public_id, kind="ludo", status="finished", rated=True, is_public=True,
            seed=seed.hex(), seed_hash=fair.commitment(seed), start_state=rules.dump(start),
            state=rules.dump(final), version=len(record), ply_count=len(record),
            end_reason=outcome.reason, started_at=now, finished_at=now)
        Seat.objects.bulk_create(
            Seat(match=match, index=i, colour=view["seats"][i]["colour"], user=u, rank=outcome.ranks[i])
            for i, u in enumerate(users))
        Move.objects.bulk_create(
            (Move(match=match, ply=i, actor=a, seat=s, notation=t, chance_index=k, version_after=i + 1)
             for i, (a, s, t, k) in enumerate(record)), batch_size=1000)
        RatingChange.objects.bulk_create(
            RatingChange(match=match, user=u, kind="ludo", before=1500, after=1500 + d, delta=d)
            for u, d in zip(users, (24.0, 8.0, -8.0, -24.0), strict=True))
    return len(record)


def build() -> tuple[int, int]:
    """Migrate, then make both matches again; (long plies, short plies)."""
    from django.core.management import call_command

    from accounts.models import User

    call_command("migrate", verbosity=0)
    users = []
    for name in (*PLAYERS, "eve"):
        user, _ = User.objects.get_or_create(username=name, defaults={"email": f"{name}@example.com",
                                                                       "password": "!"})
        users.append(user)
    return make_match(LONG_ID, LONG_PLIES, users[:4]), make_match(SHORT_ID, None, users[:4])


def _ms(samples: list[float]) -> str:
    samples = sorted(samples)
    return f"{statistics.median(samples):.1f} | {samples[int(0.95 * (len(samples) - 1))]:.1f}"


def forget() -> None:
    """Drop what the replay keeps of the matches it has read, where the code
    keeps anything (games.replays), so the next request reads the record."""
    try:
        from games import replays
    except ImportError:  # a checkout before it: every request reads the record
        return
    replays.forget()


def time_requests(repeat: int, plies: int) -> None:
    from django.test import Client

    from accounts.models import User
    from benchmarks.engine import machine
    from benchmarks.live_services import load_average

    visitor, member = Client(), Client()
    member.force_login(User.objects.get(username="eve"))
    step = {"HX-Request": "true"}
    rng = random.Random(3)

    def get(client, ply, headers=None, match=LONG_ID):
        t = time.perf_counter()
        response = client.get(f"/m/{match}/replay/?ply={ply}", headers=headers or {})
        took = (time.perf_counter() - t) * 1000
        assert response.status_code == 200, response.status_code
        return took

    for client in (visitor, member):  # templates, URLs, a session: not the replay's cost
        get(client, 5, match=SHORT_ID)
        get(client, 6, step, match=SHORT_ID)
    rows = []
    for name, headers in (("whole page", {}), ("step", step)):
        samples = []
        for _ in range(max(repeat // 6, 5)):
            forget()
            samples.append(get(visitor, rng.randint(0, plies), headers))
        rows.append(("visitor", f"first request of the match: {name}", samples))
    for who, client in (("visitor", visitor), ("signed in", member)):
        rows.append((who, "step, random ply",
                     [get(client, rng.randint(0, plies), step) for _ in range(repeat)]))
        at = rng.randint(0, plies - repeat)
        rows.append((who, "step, ply after ply", [get(client, at + i, step) for i in range(repeat)]))
        rows.append((who, "whole page, random ply", [get(client, rng.randint(0, plies))
                                                      for _ in range(max(repeat // 4, 5))]))
    print(f"Replay of a {plies:,}-ply Ludo match for four; {machine()}; load average {load_average()}\n")
    print("| viewer | request | n | p50 ms | p95 ms |")
    print("|---|---|---:|---:|---:|")
    for who, name, samples in rows:
        print(f"| {who} | {name} | {len(samples)} | {_ms(samples)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=60,
                        help="requests per case (the whole page: a quarter of them)")
    args = parser.parse_args()
    from benchmarks import live_services as services

    redis = services.start_redis(DIR / "redis.sock")
    try:
        setup_django(DIR / "redis.sock")
        t = time.perf_counter()
        plies, _ = build()
        print(f"(made the benchmark's matches in {time.perf_counter() - t:.1f} s)\n")
        time_requests(args.repeat, plies)
    finally:
        redis.stop()


if __name__ == "__main__":
    main()
