"""The account events of ``GET /api/stream/events`` (docs/api.md): challenges
made and gone, rematch offers, matches starting and ending.

The lower apps send signals inside the transactions of their actions
(``games.signals``: ``match_started``, ``match_ended``;
``matchmaking.signals``: ``challenge_made``, ``challenge_gone``,
``rematch_offered``); the receivers here (connected in ``ApiConfig.ready``)
build each event's line and send it, after commit, to the group of each
account it concerns, ``api.<user id>``, which only API event streams join
(``api.streams.EventStream``). Nothing here runs per move: a match costs one
group message per human seat when it starts and one when it ends, a
challenge one or two, a rematch offer one per player asked.
"""

from __future__ import annotations

from django.db import transaction

from accounts import sockets

#: The channel-layer event carrying one line (``{"type": EVENT, "line": {...}}``).
EVENT = "api.event"

#: A challenge's status -> the ``reason`` of its ``challenge_gone`` line.
GONE_REASONS = {"accepted": "accepted", "declined": "declined", "cancelled": "cancelled", "lapsed": "expired"}


def events_group(user_id: int) -> str:
    """The group of ``user_id``'s API event streams."""
    return f"api.{int(user_id)}"


def _send_on_commit(lines: list[tuple[int, dict]]) -> None:
    """Send each (user id, line) to that user's event streams after commit."""
    events = [(events_group(user_id), {"type": EVENT, "line": line}) for user_id, line in lines]
    if events:
        transaction.on_commit(lambda: sockets.send_quietly(events))


def challenge_line(challenge) -> dict:
    """The ``challenge`` line of an open challenge (its challenger loaded)."""
    return {"type": "challenge", "challenge": {
        "id": challenge.pk, "from": challenge.challenger.username, "game": challenge.kind,
        "rated": challenge.rated, "turn_seconds": challenge.turn_seconds, "options": {}}}


def match_line(kind: str, match, seat) -> dict:
    """A ``match_start`` (``kind``) line for ``seat`` of ``match``."""
    return {"type": kind, "match": {"id": match.public_id, "game": match.kind, "seat": seat.index}}


def on_match_started(sender, match, seats, **kwargs) -> None:
    _send_on_commit([(s.user_id, match_line("match_start", match, s)) for s in seats if s.user_id])


def on_match_ended(sender, match, seats=None, **kwargs) -> None:
    seats = list(seats.values()) if isinstance(seats, dict) else list(seats or match.seats.all())
    lines = []
    for seat in seats:
        if seat.user_id:
            line = match_line("match_finish", match, seat)
            line["match"].update(status=match.status,
                                 result={"rank": seat.rank, "end_reason": match.end_reason})
            lines.append((seat.user_id, line))
    _send_on_commit(lines)


def on_challenge_made(sender, challenge, **kwargs) -> None:
    _send_on_commit([(challenge.challenged_id, challenge_line(challenge))])


def on_challenge_gone(sender, challenge, **kwargs) -> None:
    line = {"type": "challenge_gone", "challenge": {"id": challenge.pk},
            "reason": GONE_REASONS.get(challenge.status, challenge.status)}
    _send_on_commit([(challenge.challenged_id, line), (challenge.challenger_id, line)])


def on_rematch_offered(sender, match, by, to, **kwargs) -> None:
    _send_on_commit([(user_id, {"type": "rematch", "match": match.public_id, "from": by.username})
                     for user_id in to])


def connect() -> None:
    """Connect the receivers (``ApiConfig.ready``)."""
    from games import signals as games_signals
    from matchmaking import signals as matchmaking_signals

    for signal, receiver in ((games_signals.match_started, on_match_started),
                             (games_signals.match_ended, on_match_ended),
                             (matchmaking_signals.challenge_made, on_challenge_made),
                             (matchmaking_signals.challenge_gone, on_challenge_gone),
                             (matchmaking_signals.rematch_offered, on_rematch_offered)):
        signal.connect(receiver, dispatch_uid=f"api.events.{receiver.__name__}")
