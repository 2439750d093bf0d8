"""Ranked queues (README "Ranked play").

A queue is a (game kind, players) pair; a QueueEntry is one signed-in player
waiting in one of them. A user has at most one entry (one queue at a time).
When pairing seats the entry, ``match`` is set and the entry stays until the
player queues again or the wave clears it, so a page without JavaScript can
still find the match it was paired into.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import GameKindField, Match

__all__ = ["QueueEntry"]


class QueueEntry(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry"
    )
    kind = GameKindField()
    players = models.PositiveSmallIntegerField(help_text="Seats at the table: 2, 3 or 4.")
    rating = models.FloatField(help_text="The player's rating in this game when they joined.")
    joined_at = models.DateTimeField()
    seen_at = models.DateTimeField(
        help_text="Last sign of the player's queue page (socket or reload); stale entries expire."
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The match pairing seated this entry in; empty while waiting.",
    )
    # A queue entry survives a blip (README "Ranked play"): its socket's
    # abnormal drop marks it away, and pairing skips it until a socket is back.
    socket_seen_at = models.DateTimeField(
        null=True, blank=True,
        help_text="Last heartbeat of a queue socket (empty: never one, e.g. a page without JavaScript).",
    )
    away_since = models.DateTimeField(
        null=True, blank=True, help_text="When its socket dropped abnormally; empty while one is open.",
    )

    class Meta:
        verbose_name_plural = "queue entries"
        constraints = [
            models.CheckConstraint(condition=Q(players__gte=2) & Q(players__lte=4),
                                   name="queue_entry_players_2_to_4"),
        ]
        indexes = [
            models.Index(fields=["kind", "players", "joined_at"], name="queue_waiting",
                         condition=Q(match__isnull=True)),
        ]

    def __str__(self):
        return f"{self.user} in {self.kind}/{self.players}"

    @property
    def is_waiting(self) -> bool:
        return self.match_id is None
