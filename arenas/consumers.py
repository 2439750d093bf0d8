"""The arena WebSocket, ``/ws/arena/<id>/`` (STYLE habit 8): thin and async.

Anyone may watch an arena: the socket joins the arena's group (standings
rows as they change, the header when its phase changes) and, for a signed-in
player, their own group on it ("your match is ready"). It sends the whole
header and table on connect, so a page that reconnects is current. Nothing
the client sends is acted on.

Close codes (accounts/close_codes.py): 4004 no such arena; 4029 over the
socket cap (accounts.sockets).
"""

from __future__ import annotations

from datetime import timedelta

from django.template.loader import render_to_string
from django.utils import timezone

from accounts import sockets
from accounts.close_codes import CLOSE_NOT_FOUND
from arenas import push, standings
from arenas.models import Arena
from games.models import Match


class ArenaConsumer(sockets.ParlourConsumer):
    async def connect(self):
        self.user = self.scope.get("user")
        await self.accept()
        try:
            arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        except (KeyError, TypeError, ValueError):
            await self.close(CLOSE_NOT_FOUND)
            return
        await self.take_slot()
        # The groups first, then the snapshot: a push made in between is
        # delivered after it (never lost between the two).
        groups = [push.arena_group(arena_id)]
        if self.user is not None and self.user.is_authenticated:
            groups.append(push.arena_user_group(arena_id, self.user.pk))
        await self.join(*groups)
        frames = await self.db(_snapshot, arena_id, self.user)
        if frames is None:
            await self.close(CLOSE_NOT_FOUND)
            return
        for html in frames:  # two frames: rows parse only in one that starts with them
            await self.send(text_data=html)

    async def receive(self, text_data=None, bytes_data=None):
        """Every frame is ignored: joining and leaving post forms."""

    async def arena_frame(self, event):
        await self.send(text_data=event["html"])


#: Seconds after its start during which a player's arena match is still
#: "ready": a page that connects then (it was loading as the pairing was pushed)
#: goes to it; later the page only links it ("back to your match").
FRESH_SECONDS = 15


def _snapshot(arena_id: int, user) -> list[str] | None:
    """[the header, the whole table] of arena ``arena_id`` (and the redirect to
    ``user``'s freshly paired match), or None if there is no such arena."""
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        return None
    frames = []
    if user is not None and user.is_authenticated:
        fresh = (Match.objects.filter(arena_match__arena=arena, arena_match__scored=False, seats__user=user,
                                      started_at__gte=timezone.now() - timedelta(seconds=FRESH_SECONDS))
                 .values_list("public_id", flat=True).first())
        if fresh:
            frames.append(push.redirect_frame(fresh))
    header = standings.header_context(arena, timezone.now())
    return frames + [render_to_string(push.PARTS + "header", {"oob": True, **header}),
                     render_to_string(push.PARTS + "table", {"oob": True, "rows": standings.rows(arena)})]
