"""Ranked queues (README "Ranked play").

A queue is a (game kind, players) pair; a QueueEntry is one signed-in player
waiting in one of them. A user has at most one entry (one queue at a time).
When pairing seats the entry, ``match`` is set and the entry stays until the
player queues again or the wave clears it, so a page without JavaScript can
still find the match it was paired into.

A TurnBasedEntry is one player waiting in a turn-based ranked queue
(docs/features.md "The turn-based ranked queue"): (game, players, days per
decision). Those wait hours, with no page open: an entry has no presence and
no paired state (pairing deletes it), and a player may wait in the
turn-based queue of every game at once, whatever their live queue does.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import GameKindField, Match
from games.time_controls import TURN_BASED_DAYS

__all__ = ["QueueEntry", "TurnBasedEntry"]


class QueueEntry(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry"
    )
    kind = GameKindField()
    players = models.PositiveSmallIntegerField(help_text=_("Seats at the table: 2, 3 or 4."))
    rating = models.FloatField(help_text=_("The player's rating in this game when they joined."))
    joined_at = models.DateTimeField()
    seen_at = models.DateTimeField(
        help_text=_("Last sign of the player's queue page (socket or reload); stale entries expire.")
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text=_("The match pairing seated this entry in; empty while waiting."),
    )
    # A queue entry survives a blip (README "Ranked play"): its socket's
    # abnormal drop marks it away, and pairing skips it until a socket is back.
    socket_seen_at = models.DateTimeField(
        null=True, blank=True,
        help_text=_("Last heartbeat of a queue socket (empty: never one, e.g. a page without JavaScript)."),
    )
    away_since = models.DateTimeField(
        null=True, blank=True, help_text=_("When its socket dropped abnormally; empty while one is open."),
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


def _days(days: int) -> str:
    return ngettext("%(n)s day", "%(n)s days", days) % {"n": days}


#: "3 days", in the language active when it is shown (a choice's label, made at import).
_days_label = lazy(_days, str)


class TurnBasedEntry(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="turn_based_entries"
    )
    kind = GameKindField()
    players = models.PositiveSmallIntegerField(help_text=_("Seats at the table: 2, 3 or 4."))
    days = models.PositiveSmallIntegerField(
        choices=[(d, _days_label(d)) for d in TURN_BASED_DAYS],
        help_text=_("Days per decision of the match it waits for."),
    )
    rating = models.FloatField(help_text=_("The player's rating in this game when they joined."))
    joined_at = models.DateTimeField(help_text=_("When they joined: their rating window widens from it."))

    class Meta:
        verbose_name = "turn-based queue entry"
        verbose_name_plural = "turn-based queue entries"
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="turn_based_entry_one_per_game"),
            models.CheckConstraint(condition=Q(players__gte=2) & Q(players__lte=4),
                                   name="turn_based_entry_players_2_to_4"),
            models.CheckConstraint(condition=Q(days__in=TURN_BASED_DAYS), name="turn_based_entry_days"),
        ]
        indexes = [models.Index(fields=["kind", "players", "days", "joined_at"], name="turn_based_waiting")]

    def __str__(self):
        return f"{self.user} in {self.kind}/{self.players}/{self.days}d"
