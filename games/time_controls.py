"""A match's time control: live or turn-based (docs/features.md, "Turn-based play").

A match's ``turn_seconds`` is its one time control, for every game (a
property of the match, not of the game):

- **live**: seconds per decision, one of ``LIVE_SECONDS`` (30 to 120) or the
  game's own (``games.sites.turn_seconds``); the match is played in one
  sitting, its deadlines are Celery countdown tasks;
- **turn-based**: whole days per decision, one of ``TURN_BASED_DAYS``; the
  players come back when told it is their turn, the database holds the
  deadlines and a periodic sweep expires them.

Nothing else marks a match turn-based: ``is_turn_based(match.turn_seconds)``
(or ``Match.turn_based``) is the test everywhere, so a query filters on
``turn_seconds__gte=DAY`` (``TURN_BASED_Q``).
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

#: Seconds in a day: a turn-based decision is a whole number of them.
DAY = 86_400
#: Seconds per decision a live match may be given (rooms, challenges).
LIVE_SECONDS = (30, 60, 90, 120)
#: Days per decision a turn-based match may be given.
TURN_BASED_DAYS = (1, 2, 3, 5, 7, 14)
#: The same, in seconds (``Match.turn_seconds``).
TURN_BASED_SECONDS = tuple(days * DAY for days in TURN_BASED_DAYS)

#: Matches (or rows with a ``turn_seconds`` column) that are turn-based.
TURN_BASED_Q = Q(turn_seconds__gte=DAY)
#: Matches that are live.
LIVE_Q = Q(turn_seconds__lt=DAY)


def is_turn_based(turn_seconds: int) -> bool:
    """Whether ``turn_seconds`` per decision is a turn-based time control."""
    return turn_seconds >= DAY


def label(turn_seconds: int) -> str:
    """The time control in words: "60 s" (live), "1 day", "3 days" per decision
    (in the active language)."""
    if not is_turn_based(turn_seconds):
        return _("%(seconds)s s") % {"seconds": turn_seconds}
    days, rest = divmod(turn_seconds, DAY)
    if rest:
        return _("%(days)s days") % {"days": f"{turn_seconds / DAY:.1f}"}
    return ngettext("%(days)s day", "%(days)s days", days) % {"days": days}


def kind_label(turn_seconds: int) -> str:
    """"live" or "turn-based": the time control's name in the history, the
    leaderboards' filters and the export (a value code reads: not translated)."""
    return "turn-based" if is_turn_based(turn_seconds) else "live"


def parse(value) -> int:
    """``Match.turn_seconds`` from a form's or an API's value: seconds of a
    live control (``"60"``) or days of a turn-based one (``"3d"``, ``"3 days"``).
    Raises ValueError with a message for anything not offered."""
    text = str(value).strip().lower()
    for suffix in (" days", " day", "days", "day", "d"):
        if text.endswith(suffix):
            number = text[: -len(suffix)].strip()
            if number.isdigit() and int(number) in TURN_BASED_DAYS:
                return int(number) * DAY
            raise ValueError(f"{value!r}: a turn-based match gives "
                             f"{', '.join(map(str, TURN_BASED_DAYS))} days per decision")
    if text.isdigit() and (int(text) in LIVE_SECONDS or int(text) in TURN_BASED_SECONDS):
        return int(text)
    raise ValueError(f"{value!r}: choose {', '.join(map(str, LIVE_SECONDS))} seconds, or "
                     f"{', '.join(map(str, TURN_BASED_DAYS))} days, per decision")


def choices() -> list[tuple[int, str]]:
    """Every time control a form offers, as (turn_seconds, label) pairs, live first."""
    live = [(s, ngettext("%(seconds)s second", "%(seconds)s seconds", s) % {"seconds": s})
            for s in LIVE_SECONDS]
    return live + [(s, label(s)) for s in TURN_BASED_SECONDS]
