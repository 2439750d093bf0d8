"""A young site with a handful of players, for the browser tests and screenshots of the
play page, the leaderboards, history and replays (README "The play page", "Ranked play").

``populate()`` makes it through the factories and actions: established and provisional
ratings, finished rated matches (one of them voided by a moderator), a live match worth
watching, and players waiting in ranked queues. Returns a ``Site``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from accounts.models import Rating, User
from games.models import Match
from matchmaking.queue import actions as queue_actions
from moderation import actions as moderation
from tests.factories import ludo_state, make_match, make_user, play_to_the_end


@dataclass
class Site:
    me: User
    finished: Match  # a rated Ludo match of ``me``'s, played out: dozens of plies to replay
    voided: Match
    live: Match


def populate() -> Site:
    me = make_user("ada_lovelace")
    rivals = [make_user(name) for name in ("grace", "alan", "edsger", "barbara", "ken")]
    for i, user in enumerate(rivals[:3]):  # established players
        Rating.objects.create(user=user, kind="ludo", rating=1640 - 45 * i, games=24 + 3 * i,
                              peak=1660 - 40 * i)
    Rating.objects.create(user=rivals[3], kind="rondo", rating=1575, games=31, peak=1590)
    for name, rating, games in (("margaret", 1561, 6), ("linus", 1478, 2)):  # still provisional
        Rating.objects.create(user=make_user(name), kind="ludo", rating=rating, games=games,
                              peak=max(rating, 1500))
    finished = play_to_the_end(make_match(seats=("human", "human"), users=[me, rivals[0]], rated=True,
                                          state=ludo_state(pieces=[[56, 56, 46, 40], [56, 56, 44, 42]])))
    voided = play_to_the_end(make_match(seats=("human", "human"), users=[me, rivals[4]], rated=True,
                                        state=ludo_state(pieces=[[56, 56, 56, 50], [56, 56, 56, 50]])))
    moderation.void_match(None, voided.public_id, "The two accounts belong to one person.")
    for _ in range(3):
        play_to_the_end(make_match(seats=("human", "human"), users=[me, rivals[1]], rated=True,
                                   state=ludo_state(pieces=[[56, 56, 56, 50], [56, 56, 56, 50]])))
    for i, m in enumerate(Match.objects.filter(seats__user=me).order_by("pk")):
        Match.objects.filter(pk=m.pk).update(created_at=timezone.now() - timedelta(days=9 - 2 * i))
    live = make_match(seats=("human", "human", "normal"), users=[rivals[2], rivals[3]],
                      state=ludo_state(3, pieces=[[10, 22, -1, -1], [5, -1, -1, -1], [30, -1, -1, -1]]))
    queue_actions.join_queue(rivals[4], "ludo", 2)
    queue_actions.join_queue(rivals[1], "rondo", 3)
    return Site(me, finished, voided, live)


class QueueSocket:
    """The frames the queue panel's socket (``/ws/queue/``) of ``page`` receives,
    listened for from now on: so a frame that comes before the test looks is
    still seen (Playwright's ``wait_for_event`` waits for the next one only)."""

    def __init__(self, page):
        self.page, self.frames = page, []
        page.on("websocket", lambda ws: "/ws/queue/" in ws.url
                and ws.on("framereceived", lambda frame: self.frames.append(frame)))

    def first_frame(self, seconds: float = 20) -> None:
        """Wait until the socket sent its first frame (its snapshot: the entry is
        then the socket's, in the player's groups)."""
        for _ in range(int(seconds * 10)):
            if self.frames:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError(f"the queue panel's socket sent nothing in {seconds} s")
