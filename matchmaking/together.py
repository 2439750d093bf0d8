"""What rematches (``rematch/``), challenges (``challenges/``) and rooms share, and
what the rematch panel reads (``rematch/fragments.py``): which room a match was
played in, which match followed it, its current offer; the time controls
their forms offer and the check of the one asked for; the check that
players may be seated in a new match (busy in a live rated or arena match,
or in as many turn-based matches as one may be), and the claim on players
that every new match takes first; and sending their Celery tasks by name
(the tasks call these actions, so naming them keeps that a one-way import,
as ``games.scheduling`` does for the games' tasks)."""

from __future__ import annotations

import math

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from core import tasks
from core.errors import Refused
from games import actions as match_actions
from games import sites, time_controls
from games.models import Match, RatingChange, RatingVoid, Seat
from matchmaking.models import QueueEntry, RematchOffer, Room

#: Offers one finished match may have (a lapsed or declined offer may be made again).
OFFERS_PER_MATCH = 3
#: Seconds every human seat has to accept an offer of a live match's rematch.
OFFER_SECONDS = 30
#: ... and of a turn-based match's: its players come back when they can.
TURN_BASED_OFFER_SECONDS = time_controls.DAY


def offer_seconds(match: Match) -> int:
    """Seconds an offer of a rematch of ``match`` stays open: OFFER_SECONDS
    when live (its players are there now), TURN_BASED_OFFER_SECONDS when
    turn-based (docs/features.md "Turn-based play")."""
    return TURN_BASED_OFFER_SECONDS if match.turn_based else OFFER_SECONDS


def duration_words(seconds: float) -> str:
    """A time span in words, in its largest unit, rounded up: "30 seconds",
    "5 minutes", "23 hours", "1 day" (in the active language)."""
    units = (("day", time_controls.DAY), ("hour", 3600), ("minute", 60), ("second", 1))
    unit, size = next((u, n) for u, n in units if seconds >= n or n == 1)
    count = max(1, math.ceil(seconds / size))
    if unit == "day":
        return ngettext("%(n)s day", "%(n)s days", count) % {"n": count}
    if unit == "hour":
        return ngettext("%(n)s hour", "%(n)s hours", count) % {"n": count}
    if unit == "minute":
        return ngettext("%(n)s minute", "%(n)s minutes", count) % {"n": count}
    return ngettext("%(n)s second", "%(n)s seconds", count) % {"n": count}


def in_live_rated_or_arena_match(user, *, but: Match | None = None) -> bool:
    """Whether ``user`` plays in a live rated match, or a live event's match
    (an arena's: ``Match.event``), that is being played or is paused
    (``but`` excepted): they may not start another live one on top. (A
    casual match, a computer's or a room's, does not hold them back, nor
    does any turn-based match; live ranked and arena pairing skip anyone
    seated in any live match not ended: ``games.actions.busy_users``.)"""
    matches = Match.objects.filter(time_controls.LIVE_Q, Q(rated=True) | ~Q(event=""),
                                   status__in=(Match.Status.ACTIVE, Match.Status.PAUSED),
                                   seats__user_id=user.pk, seats__status=Seat.Status.PLAYING)
    if but is not None:
        matches = matches.exclude(pk=but.pk)
    return matches.exists()


def check_seatable(users, turn_seconds: int, *, you=None, but: Match | None = None) -> None:
    """Refuse (``games.actions.NotAllowed``, its message naming who and why)
    seating ``users`` (User rows) in a new match of ``turn_seconds`` per
    decision made by a room, a challenge or a rematch (docs/features.md
    "Turn-based play"): a live match while one of them plays a live rated or
    arena match (``in_live_rated_or_arena_match``; ``but`` excepted), a
    turn-based one while one of them is in as many turn-based matches as one
    may be (``games.actions.check_turn_based_limit``). Live and turn-based
    matches never hold each other back. ``you``: the one acting, told "You".
    Call it after ``claim`` in the transaction that seats them; before it, it
    is an early refusal that the seating checks again."""
    users = list(users)
    if time_controls.is_turn_based(turn_seconds):
        match_actions.check_turn_based_limit(users, you=you)
        return
    busy = [u for u in users if in_live_rated_or_arena_match(u, but=but)]
    if you is not None and any(u.pk == you.pk for u in busy):
        raise match_actions.NotAllowed(_("You are playing a rated or arena match; finish it first."))
    if busy:
        raise match_actions.NotAllowed(
            ngettext("%(names)s is playing a rated or arena match; try again when it ends.",
                     "%(names)s are playing rated or arena matches; try again when they end.", len(busy))
            % {"names": ", ".join(u.username for u in busy)})


def _or_list(numbers, last_or: str) -> str:
    words = [str(n) for n in numbers]
    return last_or % {"first": ", ".join(words[:-1]), "last": words[-1]}


_TIME_CONTROL_REFUSED = gettext_noop("The time control is %(live)s seconds (live) or %(days)s days "
                                     "(turn-based) per decision.")
#: What a bad time control is told (``time_control``), in English (the API; ``time_control_refused``
#: in the active language).
TIME_CONTROL_REFUSED = _TIME_CONTROL_REFUSED % {
    "live": _or_list(time_controls.LIVE_SECONDS, "%(first)s or %(last)s"),
    "days": _or_list(time_controls.TURN_BASED_DAYS, "%(first)s or %(last)s")}


def time_control_refused() -> str:
    """TIME_CONTROL_REFUSED in the active language."""
    # Translators: joins the last two numbers of a list, "30, 60 or 120".
    last_or = _("%(first)s or %(last)s")
    return _(_TIME_CONTROL_REFUSED) % {"live": _or_list(time_controls.LIVE_SECONDS, last_or),
                                       "days": _or_list(time_controls.TURN_BASED_DAYS, last_or)}


def time_control(kind: str, value, error: type[Refused]) -> int:
    """The ``turn_seconds`` of a new match of ``kind`` (registered) that a
    room or a challenge asked for with ``value`` (``games.time_controls.parse``:
    live seconds, turn-based days; None or "": the game's default,
    ``sites.turn_seconds``). Turn-based days apply to every game; live
    seconds too, unless the game fixes its live turn time
    (``GameSite.fixed_turn_seconds``: Ludo's is always 60 s). Raises ``error``
    (TIME_CONTROL_REFUSED) for anything not offered."""
    if value is None or value == "":
        seconds = sites.turn_seconds(kind)
    else:
        try:
            seconds = time_controls.parse(value)
        except ValueError:
            raise error(time_control_refused()) from None
    fixed = sites.get_site(kind).fixed_turn_seconds
    if fixed is not None and not time_controls.is_turn_based(seconds):
        return fixed
    return seconds


#: What the choice of a time control means (the room and challenge forms).
TIME_CONTROL_HELP = gettext_noop("Live: played in one sitting, seconds per decision. Turn-based: days per "
                                 "decision; you come back when it is your turn, and may play many such "
                                 "matches at once.")


def time_control_choices() -> list[tuple[str, list[tuple[int, str]]]]:
    """The time controls a room's or a challenge's form offers, grouped as a
    select's optgroups: [("Live", [(30, "30 seconds"), ...]), ("Turn-based",
    [(86400, "1 day"), ...])], values in seconds (``Match.turn_seconds``)."""
    offered = time_controls.choices()
    return [(_("Live"), [(s, text) for s, text in offered if not time_controls.is_turn_based(s)]),
            (_("Turn-based"), [(s, text) for s, text in offered if time_controls.is_turn_based(s)])]


def claim(user_ids) -> None:
    """Lock, for the rest of the transaction, the ranked queue entries and
    then the user rows of ``user_ids``, each in id order: every path that
    seats people in a new match (ranked and arena pairing, a challenge or
    rematch accepted, a room started) claims them first, so two of them
    never seat one person at once; the second waits for the first's commit
    and then sees its seats (PostgreSQL; SQLite runs one writer at a time).
    The one order (queue entries, then users) keeps them from deadlocking."""
    ids = sorted({int(u) for u in user_ids})
    list(QueueEntry.objects.select_for_update().filter(user_id__in=ids).order_by("user_id")
         .values_list("pk", flat=True))
    list(get_user_model().objects.select_for_update().filter(pk__in=ids).order_by("pk")
         .values_list("pk", flat=True))


#: Seconds a lapse task waits past its time, so that it finds the time passed.
LAPSE_MARGIN = 0.5


def send_task(name: str, args: tuple, *, at) -> None:
    """Send Celery task ``name`` with ``args`` (ids) to run LAPSE_MARGIN
    seconds after the aware datetime ``at`` (now, if that is past), through
    ``core.tasks.send_task``."""
    tasks.send_task(name, args, countdown=max(0.0, (at - timezone.now()).total_seconds()) + LAPSE_MARGIN)


def room_of(match: Match) -> Room | None:
    """The private room ``match`` was played in, or None: the room whose
    current (or last) match it is, or the one whose next match followed it."""
    room = Room.objects.filter(match=match).first()
    if room is None:
        offer = RematchOffer.objects.filter(match=match, room__isnull=False).select_related("room").first()
        room = offer.room if offer else None
    return room


def is_room_match(match: Match) -> bool:
    return not match.is_public and room_of(match) is not None


#: Why a rematch is or is not rated (``rematch_rating``); the panel says which.
RATED, CASUAL, NO_RATING, VOIDED, IN_A_ROW = "rated", "casual", "no_rating", "voided", "in_a_row"


def rematch_rating(match: Match) -> str:
    """Whether a rematch of ``match`` (over) is rated, and if not why
    (README "Playing again"): RATED when ``match`` earned a rating that
    stands (it was rated, has its rating changes, none voided) and was not
    itself a rated rematch; else CASUAL (not a rated match), NO_RATING (a
    rated match that ended without a rating: aborted, by a moderator or for
    want of humans, or a player left before every seat had moved:
    ``games.rating.is_ratable``), VOIDED (a moderator took its rating back)
    or IN_A_ROW (at most two rated matches in a row between the same players).
    A pair whose match was taken back earns no rated match outside the queue."""
    if not match.rated:
        return CASUAL
    if not RatingChange.objects.filter(match=match).exists():
        return NO_RATING
    if RatingVoid.objects.filter(match=match).exists():
        return VOIDED
    if RematchOffer.objects.filter(new_match=match, rated=True).exists():
        return IN_A_ROW
    return RATED


def rematch_is_rated(match: Match) -> bool:
    """Whether a rematch of ``match`` is rated (``rematch_rating``)."""
    return rematch_rating(match) == RATED


def started_rematch(match: Match) -> Match | None:
    """The match that followed ``match`` (a rematch, a room's next match), or None."""
    offer = (RematchOffer.objects.filter(match=match, status=RematchOffer.Status.STARTED)
             .select_related("new_match").first())
    return offer.new_match if offer else None


def current_offer(match: Match, now=None) -> RematchOffer | None:
    """The newest offer of ``match`` (open, started, lapsed or declined), an
    open one past its time counted as lapsed (the task may not have run yet)."""
    offer = RematchOffer.objects.filter(match=match).select_related("offered_by", "declined_by").first()
    if (offer is not None and offer.status == RematchOffer.Status.OPEN
            and offer.expires_at <= (now or timezone.now())):
        offer.status = RematchOffer.Status.LAPSED
    return offer
