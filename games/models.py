"""The persisted record of matches: Match, Seat, Move.

A match's engine state is stored as the engine's JSON ``dump``; the record
(every ply, server events and chance outcomes included) plus ``start_state``
rebuilds it (docs/rules.md "The record is complete"). Only ``games.actions`` writes
these rows.
"""

import secrets
from datetime import timedelta

from django import forms
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import sites, time_controls

PUBLIC_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def new_public_id() -> str:
    """A 10-character id for URLs: 50 random bits, no look-alike characters."""
    return "".join(secrets.choice(PUBLIC_ID_ALPHABET) for _ in range(10))


class GameKindField(models.CharField):
    """A game's registry name ("ludo"). It holds no ``choices``, so a new game
    needs no migration: validation (``full_clean``, model forms, the admin)
    checks the games registered at the time, a model form offers them as a
    choice list, so does the admin (``flatchoices``), and the model gets ``get_<field>_display()``, the game's
    display name (``games.sites``)."""

    default_validators = [sites.validate_kind]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 16)
        super().__init__(*args, **kwargs)

    def contribute_to_class(self, cls, name, *args, **kwargs):
        super().contribute_to_class(cls, name, *args, **kwargs)
        display = f"get_{name}_display"
        if display not in cls.__dict__:
            attname = self.attname
            setattr(cls, display, lambda obj: sites.name(getattr(obj, attname)))

    @property
    def flatchoices(self) -> list[tuple[str, str]]:
        """(kind, display name) of the games registered now: the admin's list
        filter (``admin.ChoicesFieldListFilter``) and read-only display use it."""
        return sites.choices()

    def formfield(self, **kwargs):
        # Field.formfield, not CharField's: a choice field takes no max_length.
        return models.Field.formfield(self, **{"form_class": forms.ChoiceField,
                                               "choices": _kind_form_choices, **kwargs})


def _kind_form_choices() -> list[tuple[str, str]]:
    return [("", "---------"), *sites.choices()]


class ComputerLevel(models.TextChoices):
    EASY = "easy", pgettext_lazy("computer level", "Easy")
    NORMAL = "normal", pgettext_lazy("computer level", "Normal")
    STRONG = "strong", pgettext_lazy("computer level", "Strong")


class ComputerSpeed(models.TextChoices):
    SLOW = "slow", pgettext_lazy("computer speed", "Slow")
    NORMAL = "normal", pgettext_lazy("computer speed", "Normal")
    FAST = "fast", pgettext_lazy("computer speed", "Fast")


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("match status", "Waiting")
        ACTIVE = "active", pgettext_lazy("match status", "Active")
        PAUSED = "paused", pgettext_lazy("match status", "Paused")
        FINISHED = "finished", pgettext_lazy("match status", "Finished")
        ABORTED = "aborted", pgettext_lazy("match status", "Aborted")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    kind = GameKindField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    options = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=False)
    is_public = models.BooleanField(default=True, help_text=_("Anyone may watch a public match."))
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    computer_speed = models.CharField(
        max_length=8, choices=ComputerSpeed.choices, default=ComputerSpeed.NORMAL
    )
    theme = models.CharField(
        max_length=32, default="plain", help_text=_("Cosmetic board theme (docs/rules.md \"Board themes\").")
    )
    turn_seconds = models.PositiveIntegerField(
        default=60, help_text=_("Seconds per decision: its time control, a whole number of days when "
                                "turn-based (games/time_controls.py)."))
    idle_limit = models.PositiveSmallIntegerField(
        default=3, help_text=_("Missed turns in a row that count as leaving.")
    )
    # The competition it was played in, as PGN's Event tag names it: set by the
    # app that made the match (an arena: its name and page), so the history,
    # the replay and the export name it without ``games`` knowing arenas.
    event = models.CharField(max_length=120, blank=True,
                             help_text=_("The event it was played in (an arena's name); empty for none."))
    event_url = models.CharField(max_length=200, blank=True, help_text=_("That event's page (a path)."))
    start_state = models.JSONField(null=True, blank=True)
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    ply_count = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, help_text=_("Current decision's deadline."))
    # Not one deadline task per move: while an expire_turn task is pending with
    # an eta at or before the new deadline, a move sends none; that task, when
    # it finds the match moved on, hands over to the current deadline
    # (games.actions.expire_turn). The sweeper backs up lost tasks.
    deadline_task_at = models.DateTimeField(
        null=True, blank=True, editable=False,
        help_text=_("When the earliest pending turn-deadline task runs."),
    )
    # A computer's decision has a due time too, so the sweeper finds a
    # computer move whose task was lost (a killed worker, a Redis restart).
    # A retry time, not a deadline: past it the move is sent again, never
    # timed out, and no clock shows (README "Decisions").
    computer_due_at = models.DateTimeField(
        null=True, blank=True, editable=False,
        help_text=_("When the sweeper sends the computer's move again if it has not been played."),
    )
    # The seat whose decision the match waits for (its index), written with
    # the move that hands it the decision (games.actions.advance): "your turn"
    # lists and mails find a player's waiting matches by it, without loading
    # each match's state. None before the start, at a chance step and at the end.
    seat_to_move = models.PositiveSmallIntegerField(
        null=True, blank=True, editable=False,
        help_text=_("Index of the seat whose decision the match waits for."),
    )
    # Turn-based only (games/actions/clock.py): how much later ``deadline``
    # is for the holidays of the seat to move, so the deadline without them
    # (``deadline - holiday_credit``) is known when holidays change. Zero for
    # live matches and when no holiday touches the decision.
    holiday_credit = models.DurationField(
        default=timedelta(0), editable=False,
        help_text=_("How much later the current deadline is for the holidays of the player to move."),
    )
    paused_remaining = models.FloatField(
        null=True, blank=True, help_text=_("Seconds left on the clock when paused.")
    )
    # The secret seed (hex): never shown before the match ends (docs/rules.md "Common").
    seed = models.CharField(max_length=64, editable=False)
    seed_hash = models.CharField("seed commitment (SHA-256)", max_length=64, editable=False)
    end_reason = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = _("matches")
        indexes = [
            models.Index(fields=["status", "is_public", "-created_at"], name="match_live_public"),
            models.Index(fields=["status", "deadline"], name="match_deadline"),
            models.Index(fields=["status", "computer_due_at"], name="match_computer_due"),
            models.Index(fields=["kind", "status", "-finished_at"], name="match_kind_finished"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} {self.public_id}"

    @property
    def turn_based(self) -> bool:
        """Whether the match is turn-based: days per decision (games/time_controls.py)."""
        return time_controls.is_turn_based(self.turn_seconds)

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def revealed_seed(self) -> str | None:
        """The seed in hex once the match has ended; None before."""
        return self.seed if self.is_over else None


class Heartbeat(models.Model):
    """When a site-wide process last showed it was running (``games.uptime``).

    One row per ``name``: ``"beat"`` is Celery beat, recorded each time it
    has sent the deadline sweep. ``down_from``..``up_since`` is the last gap
    longer than ``PARLOUR_OUTAGE_SECONDS`` (both empty until one is seen).
    """

    name = models.CharField(max_length=16, primary_key=True)
    at = models.DateTimeField()
    down_from = models.DateTimeField(null=True, blank=True)
    up_since = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


class Outage(models.Model):
    """A whole-site outage (``games.uptime``): beat was silent from
    ``down_from`` to ``up_since``. Every turn-based clock that was running
    through it is extended by the part of it that it ran through
    (``uptime.credit_outages``), in batches: ``credited_through`` is the
    primary key of the last match credited, ``credited_at`` is set once all
    are, so an outage is credited once."""

    down_from = models.DateTimeField(unique=True)
    up_since = models.DateTimeField()
    credited_through = models.BigIntegerField(default=0, editable=False)
    credited_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["down_from"]

    def __str__(self):
        return f"outage {self.down_from:%Y-%m-%d %H:%M:%S} to {self.up_since:%H:%M:%S}"

    @property
    def length(self):
        return self.up_since - self.down_from


class Seat(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", pgettext_lazy("seat status", "Playing")
        LEFT = "left", pgettext_lazy("seat status", "Left")
        IDLE_OUT = "idle_out", pgettext_lazy("seat status", "Idled out")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    colour = models.CharField(max_length=16)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    computer_level = models.CharField(max_length=8, choices=ComputerLevel.choices, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    missed_turns = models.PositiveSmallIntegerField(default=0, help_text=_("Missed in a row."))
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "user"], condition=Q(user__isnull=False), name="seat_unique_user"
            ),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(computer_level=""))
                | (Q(user__isnull=True) & ~Q(computer_level="")),
                name="seat_user_xor_computer",
            ),
        ]
        indexes = [models.Index(fields=["user", "-joined_at"], name="seat_user_recent")]

    def __str__(self):
        return f"{self.match} seat {self.index} ({self.display_name})"

    @property
    def is_computer(self) -> bool:
        return not self.user_id

    @property
    def display_name(self) -> str:
        if self.user_id:
            return self.user.display_name  # "deleted player" for a closed account
        # The seat number tells several computers apart in the move list.
        return _("Computer %(number)s (%(level)s)") % {
            "number": self.index + 1, "level": self.get_computer_level_display()}


class Move(models.Model):
    """One ply of the record: a seat's move, a chance outcome or a server event."""

    class Actor(models.TextChoices):
        SEAT = "seat", pgettext_lazy("actor", "Seat")
        CHANCE = "chance", pgettext_lazy("actor", "Chance")
        SERVER = "server", pgettext_lazy("actor", "Server")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    actor = models.CharField(max_length=8, choices=Actor.choices)
    seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("The seat that moved, or on whose behalf the server did.")
    )
    notation = models.CharField(max_length=64)
    chance_index = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("k of a chance step (fair draw numbering).")
    )
    version_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "ply"]
        constraints = [models.UniqueConstraint(fields=["match", "ply"], name="move_unique_ply")]

    def __str__(self):
        # Not the notation: a Rondo draw's or face-down placement's names a
        # colour others may not know yet (README "Moderation").
        return f"{self.match} ply {self.ply}"


class RatingChange(models.Model):
    """One player's Elo change from one rated match (README "Ranked play"): recorded
    beside the match, exactly once per (match, user). ``before``, ``after`` and
    ``delta`` are rating points, unrounded. Written only by ``games.rating``."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = GameKindField()
    before = models.FloatField()
    after = models.FloatField()
    delta = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="rating_change_unique_match_user")
        ]
        indexes = [models.Index(fields=["user", "kind", "created"], name="rating_change_user_kind")]

    def __str__(self):
        return f"{self.user} {self.kind} {self.before:.0f} -> {self.after:.0f} ({self.match})"


class RatingVoid(models.Model):
    """The reversal of one player's RatingChange when a moderator voids a rated
    match (README "Moderation", Void): the recorded ``delta`` was subtracted from the rating the
    player had then (``rating_before`` -> ``rating_after``, floor 100), one
    rated game was taken off (``games_before`` -> ``games_after``) and the
    peak recomputed (``peak_before`` -> ``peak_after``; games.rating
    documents how). Rating points, unrounded. One row per (match, user)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_voids")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_voids")
    kind = GameKindField()
    delta = models.FloatField(help_text=_("The voided match's recorded change, now taken back."))
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    games_before = models.PositiveIntegerField()
    games_after = models.PositiveIntegerField()
    peak_before = models.FloatField()
    peak_after = models.FloatField()
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="rating_void_unique_match_user")
        ]

    def __str__(self):
        return (f"{self.user} {self.kind}: {self.rating_before:.0f} -> {self.rating_after:.0f}"
                f" (void of {self.match})")


class SeatLuck(models.Model):
    """One seat's chance outcomes in an ended match (docs/features.md "The dice
    in numbers"), written once in the transaction that ends the match
    (``games.luck_summary.record_match_end``) from the replayed record, so the
    match page and the profile sum rows instead of replaying records.
    ``counts``: how often each face of the game's ``LuckRules`` came up;
    ``expected``: what fair chance gives for each face over the seat's steps.
    ``user``, ``kind`` and ``public`` copy the seat's and match's, for the
    profile's one indexed query (a player's rows of one game)."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, primary_key=True, related_name="luck")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=32)
    public = models.BooleanField()
    counts = models.JSONField(default=list)
    expected = models.JSONField(default=list)

    class Meta:
        indexes = [models.Index(fields=["user", "kind"], name="seat_luck_user_kind")]

    def __str__(self):
        return f"{self.seat_id}: {sum(self.counts)} outcomes"
