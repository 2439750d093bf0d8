"""The refusals of the match actions: raised before anything changed, with a
``message`` safe to show the user and a ``code`` for the logs."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import Refused


class ActionError(Refused):
    """A refused action; ``message`` is safe to show the user. Nothing changed."""


class MatchNotFound(ActionError):
    code = "not_found"


class StaleVersion(ActionError):
    """The caller acted on an old version; ``current`` is the version now."""

    code = "stale"

    def __init__(self, current: int):
        super().__init__(
            _("Your page is out of date: the match has moved on (it is at version %(version)s); "
              "here is the current position.") % {"version": current}
        )
        self.current = current


class NotAllowed(ActionError):
    code = "not_allowed"


class NoSeat(NotAllowed):
    """The user has no seat in the match (or is not signed in)."""

    code = "no_seat"


class TooManyComputerMatches(NotAllowed):
    """The account already plays PARLOUR_COMPUTER_MATCHES_PER_USER matches
    against computers (``games.actions.check_computer_matches``)."""

    code = "computer_matches"


class TooManyTurnBasedMatches(NotAllowed):
    """A player is seated in PARLOUR_TURN_BASED_LIMIT turn-based matches not
    ended already (``games.actions.check_turn_based_limit``)."""

    code = "turn_based_matches"


class NotYourTurn(ActionError):
    code = "not_your_turn"


class BadMove(ActionError):
    code = "bad_move"


class TooLate(ActionError):
    """The move arrived after its deadline and the network allowance
    (``PARLOUR_MOVE_ALLOWANCE_SECONDS``); it was not played, and the turn's
    timeout has been applied (README "Decisions")."""

    code = "too_late"

    def __init__(self):
        super().__init__(_("Too late: your time ran out before this move arrived, so it was not played."))
