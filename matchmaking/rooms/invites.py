"""Room invites: the only writers of invites (STYLE habit 3), and the link's
preview. An invite is a single-use link with a random token (only its SHA-256
is stored), valid INVITE_LIFETIME unless revoked; redeeming it seats one
person (README "Private rooms"; the rules in ``actions``' docstring).
``actions`` names these as its own: callers use ``rooms.actions``."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts import blocks
from core import ratelimits
from games import time_controls
from matchmaking.models import Invite, Room, RoomMember, RoomSeat
from matchmaking.rooms.common import (
    NotAllowed,
    RoomError,
    as_int,
    changed,
    lock,
    require_host,
    require_open,
    require_user,
)

INVITE_LIFETIME = timedelta(minutes=30)
INVITE_REFUSED = gettext_noop("This invite link cannot be used. Ask the host of the room for a new one.")
#: Invite redemption attempts (rate, key kind): per signed-in user and per IP address.
REDEEM_RATES = (("10/10minute", "user"), ("30/10minute", "ip"))
#: Looking at an invite link (its page names the game and the host): per IP address,
#: signed in or not, a budget of its own (a reload must not use up the redemptions).
INVITE_VIEW_RATE = "60/10minute"
MAX_OPEN_INVITES = 10


class InviteRefused(RoomError):
    """Every unusable invite link (unknown, used, expired, revoked) gets this, alike."""

    code = "invite_refused"

    def __init__(self):
        super().__init__(_(INVITE_REFUSED))


class TooManyAttempts(RoomError):
    code = "rate_limited"


def hash_token(token: str) -> str:
    """SHA-256 (hex) of an invite token: all the database ever holds."""
    return hashlib.sha256(token.encode()).hexdigest()


def do_create_invite(code: str, user, *, now=None) -> tuple[Invite, str]:
    """The host makes a single-use invite; returns (invite, token). The token
    is shown once (in the link) and never stored. Raises NotAllowed."""
    now = now or timezone.now()
    with transaction.atomic():
        room = lock(code)
        require_host(room, user)
        require_open(room)
        live = Invite.objects.filter(room=room, used_at__isnull=True, revoked_at__isnull=True,
                                     expires_at__gt=now).count()
        if live >= MAX_OPEN_INVITES:
            raise NotAllowed(_("This room already has %(n)s unused invites; revoke some first.")
                             % {"n": MAX_OPEN_INVITES})
        token = secrets.token_urlsafe(24)
        invite = Invite.objects.create(room=room, token_hash=hash_token(token), created_by=user,
                                       created_at=now, expires_at=now + INVITE_LIFETIME)
        changed(room)
    return invite, token


def do_revoke_invite(code: str, user, invite_id) -> Invite:
    """The host revokes an unused invite of the room (a used one stays used).
    Raises NotAllowed."""
    with transaction.atomic():
        room = lock(code)
        require_host(room, user)
        invite = Invite.objects.filter(room=room, pk=as_int(invite_id)).first()
        if invite is None:
            raise NotAllowed(_("There is no such invite in this room."))
        if not _revoke(room, invite.pk, only_valid=False):
            raise NotAllowed(_("That invite was already used or revoked."))
        invite.refresh_from_db(fields=["revoked_at"])
    return invite


def revoke_invite_as_staff(invite_id: int) -> Room | None:
    """A moderator revokes an invite that is still valid (unused, not
    revoked, not expired), whoever hosts the room; the caller records it in
    the audit log (``moderation.actions.revoke_invite``). Returns the room,
    or None when the invite is gone or no longer valid (nothing changes)."""
    with transaction.atomic():
        room_id = Invite.objects.filter(pk=as_int(invite_id)).values_list("room_id", flat=True).first()
        if room_id is None:
            return None
        room = Room.objects.select_for_update().get(pk=room_id)
        return room if _revoke(room, invite_id, only_valid=True) else None


def _revoke(room: Room, invite_id, *, only_valid: bool) -> bool:
    """Revoke one unused, unrevoked invite of the locked ``room`` (and, with
    ``only_valid``, only an unexpired one) and save the room's new version;
    returns whether it was revoked."""
    now = timezone.now()
    invites = Invite.objects.filter(room=room, pk=as_int(invite_id), used_at__isnull=True,
                                    revoked_at__isnull=True)
    if only_valid:
        invites = invites.filter(expires_at__gt=now)
    if not invites.update(revoked_at=now):
        return False
    changed(room)
    return True


def check_redeem_rate(user, ip: str | None) -> None:
    """Count one redemption attempt for ``user`` and ``ip``; raises
    TooManyAttempts past REDEEM_RATES."""
    keys = {"user": getattr(user, "pk", None), "ip": ip}
    for rate, kind in REDEEM_RATES:
        if keys[kind] is not None and not ratelimits.hit(rate, "redeem", kind, keys[kind]):
            raise TooManyAttempts(_("Too many invite attempts; wait a few minutes and try again."))


@dataclass(frozen=True)
class InvitePreview:
    """What an invite link's page says before it is redeemed: the room's game
    (``kind``), its host's username ("" if the host account is gone), seats,
    and its time control (``turn_seconds``: live seconds or turn-based days)."""

    kind: str
    host: str
    seat_count: int
    turn_seconds: int = 60

    @property
    def time_control(self) -> str:
        """"60 s", "3 days" (``games.time_controls.label``)."""
        return time_controls.label(self.turn_seconds)

    @property
    def turn_based(self) -> bool:
        return time_controls.is_turn_based(self.turn_seconds)


def invite_preview(token, *, ip: str | None = None, now=None) -> InvitePreview | None:
    """The room an invite ``token`` would seat someone in, or None when it would
    not (unknown, used, expired or revoked link, or a room no longer taking
    players: one answer for all, as redeeming gives). Only someone holding a valid
    link learns anything. Raises TooManyAttempts past INVITE_VIEW_RATE per ``ip``."""
    if ip is not None and not ratelimits.hit(INVITE_VIEW_RATE, "invite-view", "ip", ip):
        raise TooManyAttempts(_("Too many invite attempts; wait a few minutes and try again."))
    if not isinstance(token, str) or not 16 <= len(token) <= 64:
        return None
    now = now or timezone.now()
    invite = (Invite.objects.filter(token_hash=hash_token(token), used_at__isnull=True,
                                    revoked_at__isnull=True, expires_at__gt=now,
                                    room__status=Room.Status.OPEN)
              .select_related("room", "room__host").first())
    if invite is None:
        return None
    room = invite.room
    return InvitePreview(room.kind, room.host.username if room.host else "", room.seats.count(),
                         room.turn_seconds)


def do_redeem_invite(token, user, *, ip: str | None = None, now=None) -> Room:
    """``user`` (signed in) joins a room with invite ``token``, taking its
    first empty seat; returns the room.

    A member already in the room just gets the room (the invite stays
    unused). Raises TooManyAttempts (rate), InviteRefused (unknown, used,
    expired or revoked: one message for all; also, the invite staying unused,
    for someone the host or another member of the room blocked, so the
    link's holder cannot tell a block from a bad link), NotAllowed (removed from that
    room, room started or closed, every seat taken: the invite stays unused).
    """
    require_user(user)
    check_redeem_rate(user, ip)
    if not isinstance(token, str) or not 16 <= len(token) <= 64:
        raise InviteRefused()
    now = now or timezone.now()
    with transaction.atomic():
        room_id = (Invite.objects.filter(token_hash=hash_token(token))
                   .values_list("room_id", flat=True).first())
        if room_id is None:
            raise InviteRefused()
        room = Room.objects.select_for_update().get(pk=room_id)
        member = RoomMember.objects.filter(room=room, user=user).first()
        if member is not None and member.status == RoomMember.Status.REMOVED:
            raise NotAllowed(_("The host removed you from this room, so you cannot join it again."))
        if member is not None and member.status == RoomMember.Status.ACTIVE:
            return room
        if room.status != Room.Status.OPEN:
            raise NotAllowed(_("This room is no longer taking players."))
        members = RoomMember.objects.filter(room=room, status=RoomMember.Status.ACTIVE).values("user_id")
        if blocks.blocked_by_any(members, user.pk):
            raise InviteRefused()
        # Single use: only one UPDATE can find the invite unused, unrevoked and unexpired.
        used = Invite.objects.filter(
            token_hash=hash_token(token), room=room, used_at__isnull=True, revoked_at__isnull=True,
            expires_at__gt=now,
        ).update(used_at=now, used_by=user)
        if used != 1:
            raise InviteRefused()
        seat = (RoomSeat.objects.filter(room=room, user__isnull=True, computer_level="")
                .order_by("index").first())
        if seat is None:
            raise NotAllowed(_("Every seat in this room is taken."))  # rolls the invite back
        seat.user = user
        seat.save(update_fields=["user"])
        if member is None:
            RoomMember.objects.create(room=room, user=user, joined_at=now)
        else:
            member.status, member.joined_at = RoomMember.Status.ACTIVE, now
            member.save(update_fields=["status", "joined_at"])
        changed(room)
    return room
