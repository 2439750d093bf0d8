"""What the room actions (``actions``) and the invite actions (``invites``)
share: the refusals every room action raises, the room's lock, the checks of
who may act, and saving a room's change (a new ``Room.version``, its lobby
pushed after commit: ``push``)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import Refused
from matchmaking.models import Room
from matchmaking.rooms import push


class RoomError(Refused):
    """A refused room action; ``message`` is safe to show. Nothing changed."""


class RoomNotFound(RoomError):
    code = "not_found"


class NotAllowed(RoomError):
    code = "not_allowed"


def changed(room: Room) -> None:
    """Save the room with a new version; push the lobby after commit."""
    room.version += 1
    room.save()
    code, version = room.code, room.version
    transaction.on_commit(lambda: push.room_updated(code, version))


def lock(code: str) -> Room:
    """The room of ``code`` (any case), locked for the rest of the
    transaction. Raises RoomNotFound."""
    room = Room.objects.select_for_update().filter(code=str(code).upper()[:8]).first()
    if room is None:
        raise RoomNotFound(_("There is no such room."))
    return room


def require_user(user) -> None:
    """Raises NotAllowed unless ``user`` is signed in and not banned."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed(_("Log in first."))
    if getattr(user, "is_banned", False):  # README "Moderation": no rooms for banned users
        raise NotAllowed(_("Your account is banned, so you cannot join or open rooms."))


def require_host(room: Room, user) -> None:
    """Raises NotAllowed unless ``user`` (signed in, not banned) hosts ``room``."""
    require_user(user)
    if room.host_id != user.pk:
        raise NotAllowed(_("Only the host can do that."))


def require_open(room: Room) -> None:
    """Raises NotAllowed unless ``room`` is in its lobby (no match started, not closed)."""
    if room.status != Room.Status.OPEN:
        raise NotAllowed(_("The room's match has started or the room is closed."))


def as_int(value) -> int:
    """A form's id as an int; -1 for anything that is not one a database
    column can hold (64-bit)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return -1
    return number if -(2**63) <= number < 2**63 else -1
