"""Private rooms, their seats, members and invites (the Ludo rule text "Game
settings and rooms"; docs/rules.md "Common": Public and private matches, Pauses).

A room is a waiting area (the lobby) with the settings its host chose. Its
``code`` is short and human-readable so members can name it to each other;
it is **not** an invite: joining needs an :class:`Invite`, a single-use link
whose random token is stored only as its SHA-256 hash. Only
``matchmaking.rooms`` writes these rows.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

__all__ = ["Room", "RoomSeat", "RoomMember", "Invite", "new_room_code", "ROOM_CODE_ALPHABET"]

#: Capitals and digits without look-alikes (no 0/O, 1/I/L).
ROOM_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ROOM_CODE_LENGTH = 6


def new_room_code() -> str:
    """A 6-character room code such as ``"K7QX2M"`` (about 30 bits): a name, not a secret."""
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


class Room(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("room status", "Waiting in the lobby")
        PLAYING = "playing", pgettext_lazy("room status", "Playing")
        CLOSED = "closed", pgettext_lazy("room status", "Closed")

    code = models.CharField(max_length=8, unique=True, default=new_room_code, editable=False)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=16)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    options = models.JSONField(default=dict, blank=True, help_text=_("The game's rule options."))
    turn_seconds = models.PositiveIntegerField()
    idle_limit = models.PositiveSmallIntegerField(default=3)
    theme = models.CharField(max_length=32, default="plain")
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    version = models.PositiveIntegerField(default=0, help_text=_("Bumped by every lobby change."))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"room {self.code} ({self.kind})"


class RoomSeat(models.Model):
    """Seat ``index`` of a room: empty, a member, or a computer of a level."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    computer_level = models.CharField(max_length=8, blank=True)

    class Meta:
        ordering = ["room", "index"]
        constraints = [
            models.UniqueConstraint(fields=["room", "index"], name="roomseat_unique_index"),
            models.UniqueConstraint(
                fields=["room", "user"], condition=Q(user__isnull=False), name="roomseat_unique_user"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(computer_level=""), name="roomseat_user_or_computer"
            ),
        ]

    def __str__(self):
        return f"{self.room} seat {self.index}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.computer_level


class RoomMember(models.Model):
    """A person who joined a room; kept after they leave or are removed
    (a removed person can never rejoin that room)."""

    class Status(models.TextChoices):
        ACTIVE = "active", pgettext_lazy("room member status", "In the room")
        LEFT = "left", pgettext_lazy("room member status", "Left")
        REMOVED = "removed", pgettext_lazy("room member status", "Removed by the host")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    joined_at = models.DateTimeField(default=timezone.now, help_text=_("When they last took a seat."))

    class Meta:
        ordering = ["room", "joined_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["room", "user"], name="roommember_unique_user")]

    def __str__(self):
        return f"{self.user} in {self.room} ({self.status})"


class Invite(models.Model):
    """A single-use invite link to a room; the token itself is never stored."""

    class State(models.TextChoices):
        UNUSED = "unused", pgettext_lazy("invite status", "Unused")
        USED = "used", pgettext_lazy("invite status", "Used")
        EXPIRED = "expired", pgettext_lazy("invite status", "Expired")
        REVOKED = "revoked", pgettext_lazy("invite status", "Revoked")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="invites")
    token_hash = models.CharField("token (SHA-256)", max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["room", "-created_at", "-pk"]

    def __str__(self):
        return f"invite {self.pk} to {self.room}"

    def state(self, now=None) -> str:
        """``unused``, ``used``, ``expired`` or ``revoked`` at ``now`` (default: now)."""
        if self.revoked_at:
            return self.State.REVOKED
        if self.used_at:
            return self.State.USED
        if (now or timezone.now()) >= self.expires_at:
            return self.State.EXPIRED
        return self.State.UNUSED
