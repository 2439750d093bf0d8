"""The Django side of ``make bench-live`` (benchmarks/live.py): the driver's
own Django setup, logged-in players and started matches in the benchmark's
database. Django is imported inside the functions, after ``setup_django``."""

from __future__ import annotations

import os

from benchmarks.live_client import Target

# The longest live time control: no deadline passes during the run (each match moves
# every few seconds, and no Celery worker runs). Not a day: a day or more per decision
# is turn-based play (games/time_controls.py), whose moves push every member's row
# and their "your turn" counts; this benchmark measures live play.
TURN_SECONDS = 120


def setup_django(env: dict) -> None:
    os.environ.update(env)
    import django

    django.setup()


def make_players(count: int, prefix: str) -> list[tuple[object, str]]:
    """``count`` users, each logged in: [(user, sessionid cookie value)].

    Logged in the way Django's test client does it (``force_login``: the
    first configured authentication backend, a real session row), so the
    WebSocket handshake authenticates exactly like a browser's."""
    from django.conf import settings
    from django.contrib.auth.hashers import make_password
    from django.test import Client

    from accounts.models import User

    unusable = make_password(None)  # no password hashing: nobody logs in by form
    User.objects.bulk_create(
        User(username=f"{prefix}{i}", email=f"{prefix}{i}@bench.invalid", password=unusable)
        for i in range(count)
    )
    players = []
    for user in User.objects.filter(username__startswith=prefix).order_by("pk"):
        client = Client()
        client.force_login(user)
        players.append((user, client.cookies[settings.SESSION_COOKIE_NAME].value))
    return players


def make_match(players: list[tuple[object, str]]) -> Target:
    """A started four-seat Ludo match of ``players`` with long turns."""
    from games import actions

    match = actions.create_match(
        "ludo", [actions.SeatSpec(user=u) for u, _ in players], turn_seconds=TURN_SECONDS
    )
    actions.start_match(match.public_id)
    return Target(match.public_id, [s for _, s in players])


def seat_moves_between(start, end) -> int:
    from games.models import Move

    return Move.objects.filter(actor=Move.Actor.SEAT, created_at__gte=start, created_at__lt=end).count()
