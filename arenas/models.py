"""Arenas (README "Arenas"): a tournament of one game during a fixed window,
its schedule, its players, its matches and each match's results.

Only ``arenas.actions`` writes these rows (the admin creates arenas and
schedules). An arena's phase follows from its times and ``closed_at`` /
``finished_at``: upcoming before ``starts_at``; running until the wave closes
it (at ``ends_at``); closed while matches begun before the close still run
(its podium is provisional); finished once the last one ended.
"""

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import sites
from games.models import GameKindField, Match


def _check_seats(value):
    if value not in (2, 3, 4):
        raise ValidationError(_("A table has 2, 3 or 4 seats."))


def _fixed_turn_seconds(kind: str) -> int | None:
    """The turn time game ``kind`` always gives (Ludo: docs/rules.md), or None."""
    if not kind or kind not in sites.kinds():
        return None
    return sites.get_site(kind).fixed_turn_seconds


class ArenaSettings(models.Model):
    """What an arena and a schedule both hold."""

    name = models.CharField(max_length=80)
    kind = GameKindField(verbose_name=_("game"))
    seats = models.PositiveSmallIntegerField(default=2, validators=[_check_seats],
                                             help_text=_("Seats per table: 2, 3 or 4."))
    turn_seconds = models.PositiveIntegerField(default=30, help_text=_("Seconds per decision (10 to 300)."))
    minutes = models.PositiveIntegerField(default=30, help_text=_("How long it runs, in minutes (5 to 720)."))
    rated = models.BooleanField(default=True, help_text=_("Its matches change ratings, as ranked ones do."))
    rated_from_players = models.PositiveSmallIntegerField(
        default=4, help_text=_("Matches are rated only once at least this many players have joined."))
    rated_meetings = models.PositiveSmallIntegerField(
        default=3, help_text=_("The same two players meet in rated play at most this many times per arena; "
                             "later meetings are played unrated."))
    max_players = models.PositiveIntegerField(null=True, blank=True,
                                              help_text=_("Empty: no limit."))

    class Meta:
        abstract = True

    def clean(self):
        from games.engine import get_rules

        errors = {}
        if self.kind:
            try:
                counts = get_rules(self.kind).player_counts
            except KeyError:
                counts = ()
            if counts and self.seats not in counts:
                errors["seats"] = (_("This game is played by %(counts)s players.")
                                   % {"counts": ", ".join(map(str, counts))})
        fixed = _fixed_turn_seconds(self.kind)
        if fixed and self.turn_seconds != fixed:
            errors["turn_seconds"] = _("%(game)s always has %(seconds)s s turns.") % {
                "game": sites.name(self.kind), "seconds": fixed}
        elif not 10 <= self.turn_seconds <= 300:
            errors["turn_seconds"] = _("Between 10 and 300 seconds.")
        if not 5 <= self.minutes <= 720:
            errors["minutes"] = "Between 5 and 720 minutes."
        if errors:
            raise ValidationError(errors)


class ArenaSchedule(ArenaSettings):
    """A recurring arena: one starts every ``every_minutes`` from ``first_start``
    (the wave creates each one ``PARLOUR_ARENA_ANNOUNCE_MINUTES`` ahead)."""

    first_start = models.DateTimeField()
    every_minutes = models.PositiveIntegerField(default=60, help_text=_("60: hourly; 1440: daily."))
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")

    def __str__(self):
        return f"{self.name} (every {self.every_minutes} min)"

    def clean(self):
        super().clean()
        if self.every_minutes < self.minutes:
            raise ValidationError({"every_minutes": _("At least the arena's own length: two of one "
                                                      "schedule never run at once.")})


class Arena(ArenaSettings):
    schedule = models.ForeignKey(ArenaSchedule, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="arenas")
    starts_at = models.DateTimeField()
    opened_at = models.DateTimeField(null=True, blank=True,
                                     help_text=_("When the wave first found it running and told its pages."))
    closed_at = models.DateTimeField(null=True, blank=True,
                                     help_text=_("When the wave closed it: no pairing after this."))
    finished_at = models.DateTimeField(null=True, blank=True,
                                       help_text=_("When its last match ended after the close: "
                                                 "the podium is final."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["schedule", "starts_at"], name="arena_one_per_schedule_start",
                                    condition=Q(schedule__isnull=False)),
            models.CheckConstraint(condition=Q(seats__gte=2) & Q(seats__lte=4), name="arena_seats_2_to_4"),
        ]

    def __str__(self):
        return f"{self.name} ({self.starts_at:%Y-%m-%d %H:%M})"

    @property
    def ends_at(self):
        return self.starts_at + timedelta(minutes=self.minutes)

    def phase(self, now) -> str:
        """"upcoming", "running", "closing" (closed, matches still running) or "finished"."""
        if self.finished_at is not None:
            return "finished"
        if self.closed_at is not None:
            return "closing"
        if now < self.starts_at:
            return "upcoming"
        return "running"


class ArenaPlayer(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", pgettext_lazy("arena player", "Playing")
        PAUSED = "paused", pgettext_lazy("arena player", "Paused")
        WITHDRAWN = "withdrawn", pgettext_lazy("arena player", "Withdrawn")
        DISQUALIFIED = "disqualified", pgettext_lazy("arena player", "Disqualified")

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arena_entries")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    paused_reason = models.CharField(max_length=80, blank=True)
    joined_at = models.DateTimeField()
    free_since = models.DateTimeField(null=True, blank=True,
                                      help_text=_("When they last became free to be paired; "
                                                "empty while in a match."))
    rating = models.FloatField(
        help_text=_("Their rating in this game (rating points), refreshed as they play."))
    points = models.IntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    on_fire = models.BooleanField(default=False,
                                  help_text=_("Two wins in a row: the next win scores double."))
    reached_at = models.DateTimeField(null=True, blank=True, help_text=_("When they reached their points."))
    sequence = models.CharField(max_length=400, blank=True,
                                help_text=_("Each scored match's points, in order (voided ones left out)."))
    last_opponents = models.JSONField(default=list, blank=True,
                                      help_text=_("User ids of their last arena match's opponents."))
    final_rank = models.PositiveIntegerField(null=True, blank=True,
                                             help_text=_("Their place once the arena finished (1 = first); "
                                                       "empty before, and for a disqualified player."))

    class Meta:
        constraints = [models.UniqueConstraint(fields=["arena", "user"], name="arena_player_once")]
        indexes = [models.Index(fields=["arena", "-points"], name="arena_standings")]

    def __str__(self):
        return f"{self.user} in {self.arena}"


class ArenaMatch(models.Model):
    """A match an arena's pairing started; ``scored`` once its results are written."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="matches")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="arena_match")
    scored = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "arena matches"

    def __str__(self):
        return f"{self.match} in {self.arena}"


class ArenaResult(models.Model):
    """One player's result in one arena match (README "Arenas", Scoring)."""

    arena_match = models.ForeignKey(ArenaMatch, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(ArenaPlayer, on_delete=models.CASCADE, related_name="results")
    rank = models.PositiveSmallIntegerField()
    seats = models.PositiveSmallIntegerField()
    shared = models.PositiveSmallIntegerField(default=1, help_text=_("How many hold this rank."))
    forfeit = models.BooleanField(default=False, help_text=_("Left or idled out: no points, streak broken."))
    void = models.BooleanField(default=False, help_text=_("Voided by a moderator: counts for nothing."))
    points = models.IntegerField(default=0, help_text=_("What it scored (0 when void)."))
    ended_at = models.DateTimeField()

    class Meta:
        ordering = ["ended_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["arena_match", "player"], name="arena_result_once")]

    def __str__(self):
        return f"{self.player} in {self.arena_match.match}: rank {self.rank}, {self.points} points"
