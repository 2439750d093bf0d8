"""Follows: one person follows another. Public, like Lichess: anyone may
see whom a player follows and who follows them."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Follow(models.Model):
    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # Also the index of whom a person follows (follower first).
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_unique_pair"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]
        indexes = [models.Index(fields=["followed"], name="follow_followers")]

    def __str__(self):
        return f"{self.follower_id} follows {self.followed_id}"
