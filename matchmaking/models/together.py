"""Playing again with the same people (README "Playing again"): rematch
offers after a finished match, and challenges from a player's profile.

A RematchOffer asks every human seat of a finished (or aborted) match for the
next match; it also records how a room's next match or a rematch against
computers followed (``status`` started at once), so an old match's page can
link to the one that followed it. A Challenge asks one player for a two-seat
match. Only ``matchmaking.rematch`` and ``matchmaking.challenges`` write these rows.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import time_controls
from games.models import GameKindField, Match

from .rooms import Room

__all__ = ["RematchOffer", "Challenge", "ChallengePreference"]


class RematchOffer(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("rematch offer status", "Waiting for answers")
        STARTED = "started", pgettext_lazy("rematch offer status", "Started")
        LAPSED = "lapsed", pgettext_lazy("rematch offer status", "Lapsed")
        DECLINED = "declined", pgettext_lazy("rematch offer status", "Declined")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+",
                              help_text=_("The match that ended."))
    offered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accepted = models.JSONField(
        default=list, blank=True,
        help_text=_("User ids of the seats that accepted (the offer's own included)."))
    rated = models.BooleanField(default=False, help_text=_("Whether the match it starts is rated."))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    declined_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField(help_text=_("An open offer lapses at this time."))
    new_match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="rematch_offer", help_text=_("The match it started."))
    room = models.ForeignKey(Room, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                             help_text=_("The room whose next match this was."))

    class Meta:
        ordering = ["match", "-created_at", "-pk"]
        constraints = [
            # One open offer and one started rematch per match, whatever races.
            models.UniqueConstraint(fields=["match"], condition=Q(status="open"), name="rematch_one_open"),
            models.UniqueConstraint(fields=["match"], condition=Q(status="started"),
                                    name="rematch_one_started"),
        ]

    def __str__(self):
        return f"rematch of {self.match} ({self.status})"


class Challenge(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("challenge status", "Waiting for an answer")
        ACCEPTED = "accepted", pgettext_lazy("challenge status", "Accepted")
        DECLINED = "declined", pgettext_lazy("challenge status", "Declined")
        CANCELLED = "cancelled", pgettext_lazy("challenge status", "Withdrawn")
        LAPSED = "lapsed", pgettext_lazy("challenge status", "Lapsed")

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = GameKindField()
    turn_seconds = models.PositiveIntegerField(help_text=_("Seconds per decision."))
    is_public = models.BooleanField(default=True, help_text=_("Anyone may watch the match."))
    rated = models.BooleanField(default=False, help_text=_("The match moves both players' ratings."))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField(help_text=_("An open challenge lapses at this time."))
    answered_at = models.DateTimeField(null=True, blank=True)
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["challenged", "status"], name="challenge_incoming"),
                   models.Index(fields=["challenger", "status"], name="challenge_outgoing")]
        constraints = [models.CheckConstraint(condition=~Q(challenger=models.F("challenged")),
                                              name="challenge_not_oneself")]

    def __str__(self):
        return f"{self.challenger} challenges {self.challenged} ({self.status})"

    @property
    def time_control(self) -> str:
        """Its time per decision in words: "60 s", "3 days" (``games.time_controls.label``)."""
        return time_controls.label(self.turn_seconds)

    @property
    def turn_based(self) -> bool:
        return time_controls.is_turn_based(self.turn_seconds)

    @property
    def open_for(self) -> str:
        """How long it stays open, in words: "5 minutes", "3 days"
        (``matchmaking.challenges.actions.lifetime``)."""
        seconds = round((self.expires_at - self.created_at).total_seconds())
        if time_controls.is_turn_based(seconds):
            return time_controls.label(seconds)
        minutes = max(1, seconds // 60)
        return "1 minute" if minutes == 1 else f"{minutes} minutes"


class ChallengePreference(models.Model):
    """A player's choice to take challenges or not (default: take them)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accepts = models.BooleanField(default=True)

    def __str__(self):
        return f"{self.user}: {'takes' if self.accepts else 'refuses'} challenges"
