"""Leaving a match (docs/rules.md "Leaving"): the seat's pieces leave the
board, the others go on; the host role passes on (docs/rules.md "Pauses");
a match with no human left is aborted."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.actions.advance import advance
from games.actions.core import Change, lock, require_live, user_seat
from games.actions.errors import NotAllowed
from games.actions.finish import end
from games.models import Match, Move, Seat


def remove_seat(change: Change, index: int, status: str) -> None:
    """Seat ``index`` leaves with ``status`` (left, idled out): its ``leave N``
    ply is recorded while the engine still counts it as playing; the match is
    aborted when no human remains."""
    seat = change.seat(index)
    seat.status = status
    if seat.user_id and seat.user_id == change.match.host_id:
        _pass_host(change)
    if not change.rules.is_over(change.state) and change.rules.seat_status(change.state)[index] == "playing":
        change.apply(change.rules.leave_move(change.state, index), Move.Actor.SERVER, index)
    humans_left = any(
        s.user_id and s.status == Seat.Status.PLAYING for s in change.seats.values()
    )
    if not humans_left and change.match.status in (Match.Status.ACTIVE, Match.Status.PAUSED):
        end(change, Match.Status.ABORTED, "no_humans_left")


def _pass_host(change: Change) -> None:
    """The host role passes to the longest-seated human still playing
    (docs/rules.md "Pauses"); None when there is none."""
    stayers = [s for s in change.seats.values() if s.user_id and s.status == Seat.Status.PLAYING]
    stayers.sort(key=lambda s: (s.joined_at, s.index))
    change.match.host = stayers[0].user if stayers else None


def leave_match(public_id: str, user) -> Match:
    """``user`` leaves the match: their pieces leave the board, the others go on
    (docs/rules.md "Leaving"). A match with no human left is aborted. Any version;
    also while paused. A leaving host hands the role on (docs/rules.md "Pauses").
    Raises MatchNotFound, or NotAllowed (no seat, already left, the match is over)."""
    with transaction.atomic():
        match = lock(public_id)
        seat = user_seat(match, user)
        if match.status != Match.Status.PAUSED:
            require_live(match)
        if seat.status != Seat.Status.PLAYING:
            raise NotAllowed(_("You have already left this match."))
        change = Change(match)
        remove_seat(change, seat.index, Seat.Status.LEFT)
        if match.status == Match.Status.PAUSED and change.rules.is_over(change.state):
            match.status = Match.Status.ACTIVE  # the last player left wins: the pause ends with the match
        advance(change)
        change.save()
    return change.match
