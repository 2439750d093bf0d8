"""What the follow pages show: the people a person follows, with who is
online now (``core.sockets.presence``: one Redis round trip) and who is in
a live match (one query); who follows a person; the profile's counts.
Closed (inactive) accounts are left out everywhere."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import User
from core.sockets import presence
from games.models import Match, Seat
from games.time_controls import DAY
from people.models import Follow

#: A match someone is playing now.
PLAYING = (Match.Status.ACTIVE, Match.Status.PAUSED)


@dataclass
class Followed:
    user: User
    online: bool
    match: Match | None  # a live match they are playing now


def _playing(user_ids: list[int]) -> dict[int, Match]:
    """Each of ``user_ids`` in a live (not turn-based) match now: that match
    (the newest, if more than one)."""
    seats = (Seat.objects.filter(user_id__in=user_ids, status=Seat.Status.PLAYING,
                                 match__status__in=PLAYING, match__turn_seconds__lt=DAY)
             .select_related("match").order_by("match__created_at"))
    return {seat.user_id: seat.match for seat in seats}


def followed_by(user: User):
    """Whom ``user`` follows (active accounts), by name."""
    return (Follow.objects.filter(follower=user, followed__is_active=True)
            .select_related("followed").order_by("followed__username"))


def followers(user: User):
    """Who follows ``user`` (active accounts), by name."""
    return (Follow.objects.filter(followed=user, follower__is_active=True)
            .select_related("follower").order_by("follower__username"))


def following(user: User) -> list[Followed]:
    """Whom ``user`` follows (at most MAX_FOLLOWING), those online or playing
    first, then by name."""
    people = [f.followed for f in followed_by(user)]
    ids = [p.pk for p in people]
    online = presence.online(ids)
    matches = _playing(ids) if ids else {}
    rows = [Followed(p, p.pk in online, matches.get(p.pk)) for p in people]
    rows.sort(key=lambda r: (not r.online and r.match is None, r.user.username.lower()))
    return rows


def counts(user: User) -> dict[str, int]:
    """How many active accounts follow ``user``, and how many it follows."""
    return {"followers": followers(user).count(), "following": followed_by(user).count()}


def follows(viewer, user: User) -> bool:
    """Whether ``viewer`` (maybe anonymous) follows ``user``."""
    return bool(viewer is not None and viewer.is_authenticated
                and Follow.objects.filter(follower=viewer, followed=user).exists())
