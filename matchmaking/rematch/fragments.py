"""What a finished match's page offers its players next (the ``#rematch``
panel of templates/matchmaking/rematch.html), for the page, the seat frames
and the pushes alike (README "Playing again"). Rendered per seat: it names
the viewer ("you accepted"), so it travels in seat groups only."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts import blocks
from games.models import Match
from matchmaking import together
from matchmaking.models import RematchOffer, Room, RoomMember

PANEL = "matchmaking/rematch.html#panel"
LEFT = "matchmaking/rematch.html#left"


def panel_context(match: Match, user_id: int, *, live: bool = False, now=None) -> dict:
    """The panel of ``match`` (over) for the player ``user_id`` (a seat of it).
    ``state`` says what it shows: ``computers`` (one-click rematch),
    ``offer`` (offer a rematch), ``open`` (an offer waiting for answers),
    ``lapsed``, ``declined``, ``started`` (the next match, ``next_url``),
    ``room`` (back to the room's lobby), ``room_closed``, ``event`` (an
    arena's match: back to the arena, which pairs again), ``banned`` (the
    viewer may not start matches), ``unavailable`` (another player cannot
    play now, or two players are apart by a block: no offer, in the same
    words as rematch.do_offer's refusal, which must not tell of a moderation
    action or a block), or ``none``.
    With an offer (to make, open or over), ``rated`` says whether its match is
    rated and ``why`` why not (``together.rematch_rating``).
    ``live``: a pushed panel, whose link to a started match the page follows."""
    now = now or timezone.now()
    seats = list(match.seats.select_related("user").order_by("index"))
    ctx = {"match": match, "live": live, "state": "none"}
    room = together.room_of(match) if not match.is_public else None
    followed = together.started_rematch(match)
    viewer = next((s.user for s in seats if s.user_id == user_id), None)
    if viewer is not None and viewer.is_banned:  # every way on would be refused (actions.py)
        ctx["state"] = "banned"
        return ctx
    if match.event:  # an arena's match: the next one comes from the arena
        ctx.update(state="event", event=match.event, event_url=match.event_url)
        return ctx
    if room is not None:
        return _room_panel(ctx, match, room, followed, user_id)
    if followed is not None:
        if followed.seats.filter(user_id=user_id).exists():
            ctx.update(state="started", next_url=reverse("match", args=[followed.public_id]),
                       rated=followed.rated)
        return ctx
    humans = [s for s in seats if s.user_id]
    if len(humans) < len(seats):
        ctx["state"] = "computers"
        return ctx
    return _offer_panel(ctx, match, humans, user_id, now)


def _room_panel(ctx: dict, match: Match, room: Room, followed: Match | None, user_id: int) -> dict:
    """``ctx`` for a room's match (``panel_context``): the next match once
    started, else back to the room's lobby (or that it closed); nothing more
    for a member the host removed."""
    members = RoomMember.objects.filter(room=room, user_id=user_id, status=RoomMember.Status.ACTIVE)
    if not members.exists():
        return ctx  # a removed member sees nothing more of the room
    ctx["room"] = room
    if followed is not None:
        ctx.update(state="started", next_url=reverse("match", args=[followed.public_id]), in_room=True)
    elif room.status == Room.Status.OPEN and room.match_id == match.pk:
        ctx.update(state="room", is_host=room.host_id == user_id)
    elif room.status == Room.Status.CLOSED:
        ctx["state"] = "room_closed"
    return ctx


def _offer_panel(ctx: dict, match: Match, humans: list, user_id: int, now) -> dict:
    """``ctx`` for a match of humans alone with no match after it
    (``panel_context``): its offer to make, open, declined or lapsed, or
    ``unavailable`` when a player cannot play now. ``humans``: its seats."""
    offer = together.current_offer(match, now)
    count = RematchOffer.objects.filter(match=match).count()
    why = together.rematch_rating(match)
    ctx.update(rated=why == together.RATED if offer is None else offer.rated, why=why,
               can_offer=count < together.OFFERS_PER_MATCH, offer=offer, turn_based=match.turn_based,
               offer_for=together.duration_words(together.offer_seconds(match)))
    # An open offer too: one made before a block (or a ban) can no longer be accepted.
    if any(s.user.is_banned or not s.user.is_active for s in humans) \
            or blocks.any_block(s.user_id for s in humans):
        ctx["state"] = "unavailable"
        return ctx
    if offer is None:
        ctx["state"] = "offer"
    elif offer.status == RematchOffer.Status.OPEN:
        names = {s.user_id: s.user.display_name for s in humans}
        ctx.update(state="open", mine=user_id in offer.accepted,
                   offered_by=names.get(offer.offered_by_id, ""),
                   waiting_for=[names[s.user_id] for s in humans if s.user_id not in offer.accepted],
                   seconds_left=max(0, int((offer.expires_at - now).total_seconds() + 0.999)),
                   time_left=together.duration_words(max(0.0, (offer.expires_at - now).total_seconds())),
                   expires_ms=int(offer.expires_at.timestamp() * 1000))
        ctx["left"] = render_to_string(LEFT, ctx)  # a <time> inside the translated sentences
    elif offer.status == RematchOffer.Status.DECLINED:
        ctx.update(state="declined", declined_by=offer.declined_by.display_name if offer.declined_by else "")
    else:
        ctx["state"] = "lapsed"
    return ctx


def panel(match: Match, user_id: int, *, live: bool = False) -> str:
    """The ``#rematch`` panel (an htmx out-of-band element) for ``user_id``; HTML."""
    return render_to_string(PANEL, panel_context(match, user_id, live=live))
