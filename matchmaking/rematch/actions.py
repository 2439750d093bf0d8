"""Rematches: the only writer of RematchOffer rows (STYLE habit 3).

README "Playing again" holds the rules:

- Against computers one click starts the same settings at once
  (``do_rematch_computers``).
- Between humans (a ranked match, a challenge) each human seat may offer
  (``do_offer``); the others accept or decline (``do_answer``); when every
  human seat has accepted within OFFER_SECONDS (30 s; a day for a
  turn-based match: ``offer_seconds``) the next match starts with the same
  time control and the seats rotated by one (seat 1's player takes seat 0,
  and so on). Otherwise the offer lapses (``lapse``, a Celery task at the
  time and the queue wave as its back-up; the wave alone for a turn-based
  match's offer) and says so. At most OFFERS_PER_MATCH offers per match.
- At most two rated matches in a row between the same players: the rematch of
  a rated match is rated unless that match was itself a rated rematch; later
  ones are unrated and the offer says so. A rated match whose rating does not
  stand (aborted, ended unrated, voided by a moderator) has an unrated
  rematch too (``together.rematch_rating``); a void while an offer is open
  makes it unrated (``rating_taken_back``), and the last acceptance checks again.
- No offer between players apart by a block, either way (``accounts.blocks``):
  offering and accepting get the same refusal as when a player cannot play,
  so the block is not revealed.
- A private room's match is followed by the room's lobby, not an offer; the
  room records its next match here (``record_next``) so the old match links to it.

Every change locks the finished match's row first (``SELECT ... FOR
UPDATE``; SQLite's IMMEDIATE transactions serialise writers), and two unique
constraints (one open offer, one started rematch per match) back that up, so
two accepts at once start exactly one match and an accept racing the lapse
either starts it or finds it lapsed. Pushes and the lapse task leave after commit.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts import blocks
from core.errors import Refused
from games import actions as match_actions
from games.models import Match, Seat
from matchmaking import notices, signals, together
from matchmaking.models import QueueEntry, RematchOffer, Room
from matchmaking.rematch import push

log = logging.getLogger(__name__)

OFFER_SECONDS = together.OFFER_SECONDS
offer_seconds = together.offer_seconds
OFFERS_PER_MATCH = together.OFFERS_PER_MATCH
LAPSE_TASK = "matchmaking.tasks.lapse_rematch"


class RematchRefused(Refused):
    """A refused rematch action; ``message`` is safe to show. Nothing changed."""

    code = "rematch_refused"


NO_SUCH = gettext_noop("There is no such match to play again.")  # translated where raised


def _locked_match(public_id) -> Match:
    match = Match.objects.select_for_update().filter(public_id=str(public_id)[:16]).first()
    if match is None:
        raise RematchRefused(_(NO_SUCH))
    return match


def _seats(match: Match) -> list[Seat]:
    return list(match.seats.select_related("user").order_by("index"))


def _require_seat(match: Match, seats: list[Seat], user) -> Seat:
    """``user``'s seat; a match they have no seat in does not exist for them
    when it is private (the same words as for no match)."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise RematchRefused(_("Log in to play again."))
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise RematchRefused(_(NO_SUCH) if not match.is_public
                             else _("Only its players can play a match again."))
    if getattr(user, "is_banned", False):
        raise RematchRefused(_("Your account is banned, so you cannot start matches."))
    if not match.is_over:
        raise RematchRefused(_("This match is still being played."))
    return seat


# -- against computers ---------------------------------------------------------


def do_rematch_computers(public_id, user) -> Match:
    """A new match with the settings of ``public_id`` (a match of ``user``
    against computers that is over): the same game, computer levels, speed,
    board and options, ``user`` in their seat again; started at once. A second
    call (a double click, another tab) gets the same new match. Raises
    RematchRefused (also when ``user`` plays as many matches against
    computers as one may at once: ``games.actions.check_computer_matches``,
    or, for a turn-based one, as many turn-based matches:
    ``together.check_seatable``)."""
    with transaction.atomic():
        match = _locked_match(public_id)
        seats = _seats(match)
        _require_seat(match, seats, user)
        if together.is_room_match(match):
            raise RematchRefused(_("The room's next match starts from its lobby."))
        if not any(s.is_computer for s in seats):
            raise RematchRefused(_("This match is played again by offering a rematch."))
        followed = together.started_rematch(match)
        if followed is not None:
            return followed
        try:
            match_actions.check_computer_matches(user)  # locks the user's row: the claim
        except match_actions.TooManyComputerMatches as e:
            raise RematchRefused(e.message) from None
        if match.turn_based:  # a room's turn-based match against computers, played again
            _check_seatable([user], match, you=user)
        specs = [match_actions.SeatSpec(user=s.user) if s.user_id else
                 match_actions.SeatSpec(computer_level=s.computer_level) for s in seats]
        new = match_actions.create_match(
            match.kind, specs, options=match.options, host=user, rated=False, is_public=match.is_public,
            computer_speed=match.computer_speed, turn_seconds=match.turn_seconds,
            idle_limit=match.idle_limit, theme=match.theme)
        new = match_actions.start_match(new.public_id)
        now = timezone.now()
        RematchOffer.objects.create(match=match, offered_by=user, accepted=[user.pk], rated=False,
                                    status=RematchOffer.Status.STARTED, created_at=now, expires_at=now,
                                    new_match=new)
    return new


# -- between humans ------------------------------------------------------------


def _humans(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if s.user_id]


def _require_offerable(match: Match, seats: list[Seat]) -> None:
    humans = _humans(seats)
    if len(humans) != len(seats) or len(seats) < 2:
        raise RematchRefused(_("A match against computers starts again with Rematch."))
    if together.is_room_match(match):
        raise RematchRefused(_("The room's next match starts from its lobby."))
    if match.event:
        raise RematchRefused(_("%(event)s pairs its players again; an arena match has no rematch.")
                             % {"event": match.event})
    if any(s.user.is_banned or not s.user.is_active for s in humans) \
            or blocks.any_block(s.user_id for s in humans):
        # One refusal, whatever the reason: it must not tell of a moderation action or a block.
        raise RematchRefused(_("A rematch is not possible: not every player can play now."))


def do_offer(public_id, user, *, now=None) -> RematchOffer:
    """``user`` (a human seat of the finished or aborted match ``public_id``
    between humans) offers a rematch; they count as having accepted it. The
    others are asked (pushed to their seats, and a site-wide notice); it
    lapses after OFFER_SECONDS. Offering while an offer is open accepts it.
    Raises RematchRefused (not a seat, the match not over, against computers
    or in a room, a player who cannot play, the offerer not seatable in a
    match of its time control: ``together.check_seatable``, OFFERS_PER_MATCH
    reached, the rematch already started)."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked_match(public_id)
        seats = _seats(match)
        _require_seat(match, seats, user)
        _require_offerable(match, seats)
        if together.started_rematch(match) is not None:
            raise RematchRefused(_("The rematch has already started."))
        offer = together.current_offer(match, now)
        if offer is not None and offer.status == RematchOffer.Status.OPEN:
            return _accept(match, seats, offer, user, now)
        _check_seatable([user], match, you=user)
        _close_lapsed(match, now)
        if RematchOffer.objects.filter(match=match).count() >= OFFERS_PER_MATCH:
            raise RematchRefused(_("This match has had %(n)s rematch offers; find a new match.")
                                 % {"n": OFFERS_PER_MATCH})
        offer = RematchOffer.objects.create(
            match=match, offered_by=user, accepted=[user.pk], rated=together.rematch_is_rated(match),
            created_at=now, expires_at=now + timedelta(seconds=offer_seconds(match)))
        offer_id, match_id, lapses_at = offer.pk, match.pk, offer.expires_at
        others = [s.user_id for s in seats if s.user_id != user.pk]
        if not match.turn_based:  # a turn-based one lapses in the queue wave: no task waits a day
            transaction.on_commit(lambda: together.send_task(LAPSE_TASK, (offer_id,), at=lapses_at))
        transaction.on_commit(lambda: push.offer_changed(match_id))
        transaction.on_commit(lambda: notices.rematch_offered(others, match_id, user.username))
        signals.rematch_offered.send(sender=RematchOffer, match=match, by=user, to=others)
    return offer


def do_answer(public_id, user, accept: bool, *, now=None) -> RematchOffer:
    """``user`` accepts (``accept``) or declines the open offer of match
    ``public_id``. The last acceptance starts the rematch: a new match with
    the seats rotated, rated as ``RematchOffer.rated`` says, public as the
    first, with its time control (live or turn-based); its players leave any
    ranked queue. A decline ends the offer. Raises RematchRefused (no open
    offer: lapsed, declined, started or none; not a seat; accepting while
    not seatable in a match of its time control, or another player not
    seatable when the last acceptance would start it:
    ``together.check_seatable``; a player who cannot play)."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked_match(public_id)
        seats = _seats(match)
        _require_seat(match, seats, user)
        offer = together.current_offer(match, now)
        if offer is None or offer.status != RematchOffer.Status.OPEN:
            if offer is not None and offer.status == RematchOffer.Status.STARTED and accept:
                return offer  # a second accept of the same offer (another tab): nothing more to do
            raise RematchRefused(_("There is no rematch offer to answer: it lapsed or was answered."))
        if not accept:
            offer.status, offer.declined_by = RematchOffer.Status.DECLINED, user
            offer.save(update_fields=["status", "declined_by"])
            match_id = match.pk
            transaction.on_commit(lambda: push.offer_changed(match_id))
            return offer
        _require_offerable(match, seats)
        return _accept(match, seats, offer, user, now)


def _check_seatable(users, match: Match, *, you) -> None:
    """Refuse a rematch of ``match`` (same time control) that ``users`` may
    not be seated in (``together.check_seatable``)."""
    try:
        together.check_seatable(users, match.turn_seconds, you=you, but=match)
    except match_actions.NotAllowed as e:
        raise RematchRefused(e.message) from None


def _accept(match: Match, seats: list[Seat], offer: RematchOffer, user, now) -> RematchOffer:
    _check_seatable([user], match, you=user)
    if user.pk not in offer.accepted:
        offer.accepted = [*offer.accepted, user.pk]
    humans = _humans(seats)
    if all(s.user_id in offer.accepted for s in humans):
        if offer.rated and not together.rematch_is_rated(match):
            offer.rated = False  # its rating was taken back since the offer (rating_taken_back)
            offer.save(update_fields=["rated"])
        together.claim(s.user_id for s in humans)
        _check_seatable([s.user for s in humans], match, you=user)
        rotated = humans[1:] + humans[:1]
        new = match_actions.create_match(
            match.kind, [match_actions.SeatSpec(user=s.user) for s in rotated], options=match.options,
            host=match.host, rated=offer.rated, is_public=match.is_public,
            computer_speed=match.computer_speed,
            turn_seconds=match.turn_seconds, idle_limit=match.idle_limit, theme=match.theme)
        new = match_actions.start_match(new.public_id)
        offer.status, offer.new_match = RematchOffer.Status.STARTED, new
        QueueEntry.objects.filter(user_id__in=[s.user_id for s in humans], match__isnull=True).delete()
        log.info("rematch of %s started as %s (rated: %s)", match.public_id, new.public_id, offer.rated)
    offer.save(update_fields=["accepted", "status", "new_match"])
    match_id = match.pk
    transaction.on_commit(lambda: push.offer_changed(match_id))
    return offer


def rating_taken_back(match: Match) -> None:
    """A moderator voided ``match``'s rating (``moderation.actions.void_match``,
    inside its transaction, which holds the match row's lock): an open offer
    of a rematch is no longer rated, and its players' panels say so."""
    if RematchOffer.objects.filter(match=match, status=RematchOffer.Status.OPEN,
                                   rated=True).update(rated=False):
        match_id = match.pk
        transaction.on_commit(lambda: push.offer_changed(match_id))


def _close_lapsed(match: Match, now) -> None:
    RematchOffer.objects.filter(match=match, status=RematchOffer.Status.OPEN,
                                expires_at__lte=now).update(status=RematchOffer.Status.LAPSED)


def lapse(offer_id: int, *, now=None) -> bool:
    """Lapse offer ``offer_id`` if it is still open past its time (the Celery
    task at OFFER_SECONDS); True if it lapsed now. Its players' pages are told."""
    now = now or timezone.now()
    with transaction.atomic():
        match_id = RematchOffer.objects.filter(pk=offer_id).values_list("match_id", flat=True).first()
        if match_id is None:
            return False
        Match.objects.select_for_update().filter(pk=match_id).first()  # the lock every rematch action takes
        lapsed = RematchOffer.objects.filter(pk=offer_id, status=RematchOffer.Status.OPEN,
                                             expires_at__lte=now).update(status=RematchOffer.Status.LAPSED)
        if lapsed:
            transaction.on_commit(lambda: push.offer_changed(match_id))
    return bool(lapsed)


def lapse_overdue(now=None) -> int:
    """Lapse every open offer past its time whose task was lost (the queue
    wave calls this every 2 s). Returns how many lapsed."""
    now = now or timezone.now()
    ids = list(RematchOffer.objects.filter(status=RematchOffer.Status.OPEN, expires_at__lte=now)
               .values_list("pk", flat=True)[:100])
    return sum(lapse(i, now=now) for i in ids)


# -- rooms -----------------------------------------------------------------------


def record_next(room: Room, previous: Match, new: Match, host) -> None:
    """A room's next match ``new`` follows ``previous`` (called by
    ``matchmaking.rooms.actions`` inside the start's transaction): recorded as a
    started rematch, and the pages of ``previous`` still open are told (its
    seats that are still members of the room: ``push``)."""
    now = timezone.now()
    RematchOffer.objects.filter(match=previous, status=RematchOffer.Status.OPEN).update(
        status=RematchOffer.Status.LAPSED)
    if RematchOffer.objects.filter(match=previous, status=RematchOffer.Status.STARTED).exists():
        return
    RematchOffer.objects.create(match=previous, offered_by=host, accepted=[], rated=False,
                                status=RematchOffer.Status.STARTED, created_at=now, expires_at=now,
                                new_match=new, room=room)
    previous_id = previous.pk
    transaction.on_commit(lambda: push.offer_changed(previous_id))
