"""What rematches (``rematch/``) and challenges (``challenges/``) share, and
what the rematch panel reads (``rematch/fragments.py``): which room a match was
played in, which match followed it, its current offer; the check that a
player is busy in a rated or arena match, and the claim on players that
every new match takes first; and sending their Celery tasks by name
(the tasks call these actions, so naming them keeps that a one-way import,
as ``games.scheduling`` does for the games' tasks)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from core import tasks
from games.models import Match, RatingChange, RatingVoid, Seat
from matchmaking.models import QueueEntry, RematchOffer, Room

#: Offers one finished match may have (a lapsed or declined offer may be made again).
OFFERS_PER_MATCH = 3


def in_live_rated_or_arena_match(user, *, but: Match | None = None) -> bool:
    """Whether ``user`` plays in a rated match, or an event's match (an
    arena's: ``Match.event``), that is being played or is paused (``but``
    excepted): they may not start another one on top. (A casual match, a
    computer's or a room's, does not hold them back; arena and ranked
    pairing skip anyone seated in any match not ended.)"""
    seats = Seat.objects.filter(Q(match__rated=True) | ~Q(match__event=""), user_id=user.pk,
                                status=Seat.Status.PLAYING,
                                match__status__in=(Match.Status.ACTIVE, Match.Status.PAUSED))
    if but is not None:
        seats = seats.exclude(match_id=but.pk)
    return seats.exists()


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
