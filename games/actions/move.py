"""A player's move: checked against the version the player saw, the seat,
the turn and the rules, then applied, and the match advanced."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import uptime
from games.actions.advance import advance
from games.actions.core import Change, allowance, lock, parse_version, require_live, user_seat
from games.actions.errors import BadMove, NotAllowed, NotYourTurn, StaleVersion, TooLate
from games.actions.timeout import expire_turn
from games.models import Match, Move, Seat

#: The most plies one player action may hold (a Rondo turn: 5 placements + draw).
MAX_PLIES_PER_ACTION = 12


def play_move(public_id: str, user, notation: str | list[str], version: int | str | None) -> Match:
    """Play ``notation`` for ``user``'s seat, made against ``version``.

    ``notation`` may be a list: a turn of several plies by the same seat (a
    Rondo chain), applied in order in one transaction, all or nothing (at most
    MAX_PLIES_PER_ACTION).

    Raises ``MatchNotFound``, ``StaleVersion`` (old or missing version: the
    caller should show the current position), ``NotAllowed`` (no seat, the
    seat has left, the match is not live), ``NotYourTurn`` or ``BadMove``
    (does not parse, or the rules forbid it): nothing changes on these.
    ``TooLate``: the move arrived more than ``PARLOUR_MOVE_ALLOWANCE_SECONDS``
    after the deadline; it is not played and the turn's timeout is applied
    at once (``expire_turn``), without waiting for a worker.
    """
    version = parse_version(version)
    try:
        return _play_move(public_id, user, notation, version)
    except TooLate:
        # The deadline is the rule: the timeout applies now, whether or not
        # a worker is there to run the deadline task (README "Decisions").
        expire_turn(public_id, version)
        raise


def _play_move(public_id: str, user, notation, version: int) -> Match:
    with transaction.atomic():
        match = lock(public_id)
        if version != match.version:
            raise StaleVersion(match.version)
        change = Change(match)
        seat = user_seat(match, user, change.seats.values())
        require_live(match)
        if seat.status != Seat.Status.PLAYING:
            raise NotAllowed(_("You have left this match."))
        if seat.user.is_banned:  # README "Moderation": banned players send no moves
            raise NotAllowed(_("Your account is banned, so you cannot play."))
        notations = notation if isinstance(notation, list) else [notation]
        if not 1 <= len(notations) <= MAX_PLIES_PER_ACTION:
            raise BadMove(_("Send between 1 and %(most)s moves at once.") % {"most": MAX_PLIES_PER_ACTION})
        if change.to_move == seat.index and _too_late(match):
            raise TooLate()
        for i, text in enumerate(notations):
            if change.to_move != seat.index:
                if i:
                    raise BadMove(_("Those moves cannot all be played in one go."))
                raise NotYourTurn(_("It is not your turn."))
            change.apply(change.parse_legal(text), Move.Actor.SEAT, seat.index)
        change.seat(seat.index).missed_turns = 0
        advance(change)
        change.save()
    return change.match


def _too_late(match: Match) -> bool:
    """True when a move for ``match``'s current decision arrives now, after its
    deadline and the network allowance, and the site was up at that deadline
    (after an outage the turn is the player's again: ``expire_turn``)."""
    if match.deadline is None:
        return False
    now = timezone.now()
    return now > match.deadline + allowance() and not uptime.was_down_at(match.deadline, now)
