"""The arena WebSocket, ``/ws/arena/<id>/`` (STYLE habit 8): thin and async.

Anyone may watch an arena: the socket joins the arena's group (standings
rows as they change, the header when its phase changes) and, for a signed-in
player, their own group on it ("your match is ready"). It sends the header,
the viewer's own block and the first page's table on connect (and after
the channel layer lost messages), so a page that reconnects is current. A
page past the first (``?page=N`` on the socket's address too) gets the header
and the own block, not the table: it stays as it was loaded. Nothing the
client sends is acted on.

Besides the group's frames, each socket sends its own viewer what only
they see (push.py, the message keys): their own block again when their entry
changed or the arena changed phase (Join, Withdraw, Pause, Resume come and
go), and their own row again, with its true rank, after other rows moved (looked
up at most once every OWN_ROW_SECONDS, sent only if its place changed):
players who pass them change their rank without their row being pushed, and
below the first page's places the page cannot count it itself.

Close codes (accounts/close_codes.py): 4002 signed out, 4003 banned
(accounts.sockets); 4004 no such arena; 4008 too many messages, 4009 a frame
over 4 KB; 4029 over the socket cap (core.sockets.caps).

Language (docs/i18n.md, "Lobby and arenas"): read once at connect from the
handshake as a request's would be (``matchmaking.languages.of_scope``); the
socket joins the arena's group of that language (push.py renders its
frames in every language) and renders its own frames in it.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from urllib.parse import parse_qs

from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts import sockets
from accounts.close_codes import CLOSE_NOT_FOUND
from arenas import push, standings
from arenas.models import Arena, ArenaPlayer
from games.models import Match
from matchmaking.languages import of_scope

log = logging.getLogger(__name__)

#: Seconds a socket waits before it looks its viewer's own row up again (so at
#: most one look-up per socket in that time, however many rows moved).
OWN_ROW_SECONDS = 2.0


class ArenaConsumer(sockets.ParlourConsumer):
    arena_id: int | None = None
    language = "en"
    page = 1
    own: tuple[int, int] | None = None  # (player id, place) of the viewer's own row
    _own_task: asyncio.Task | None = None

    async def connect(self):
        self.user = self.scope.get("user")
        await self.accept()
        try:
            self.arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        except (KeyError, TypeError, ValueError):
            await self.close(CLOSE_NOT_FOUND)
            return
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.page = standings.page_number((query.get("page") or [None])[0])
        self.language = of_scope(self.scope)
        await self.take_slot()
        # The groups first, then the snapshot: a push made in between is
        # delivered after it (never lost between the two).
        groups = [push.arena_group(self.arena_id, self.language)]
        if self._signed_in():
            groups.append(push.arena_user_group(self.arena_id, self.user.pk))
        await self.join(*groups)
        if not await self._send_snapshot(fresh=True):
            await self.close(CLOSE_NOT_FOUND)

    async def _send_snapshot(self, fresh: bool = False) -> bool:
        got = await self.db(_speaking, self.language, _snapshot, self.arena_id, self.user, self.page, fresh)
        if got is None:
            return False
        frames, self.own = got
        for html in frames:  # rows parse only in a frame that starts with them
            await self.send(text_data=html)
        return True

    async def resync(self) -> None:
        """Group messages were lost: send the snapshot again."""
        await self._send_snapshot()

    async def receive(self, text_data=None, bytes_data=None):
        """Every frame is ignored: joining and leaving post forms. Each has
        passed the limits first (``admit``: 4008, 4009), as on every socket."""

    async def disconnect(self, code):
        if self._own_task is not None:
            self._own_task.cancel()
        await super().disconnect(code)

    def _signed_in(self) -> bool:
        return self.user is not None and self.user.is_authenticated

    async def arena_frame(self, event):
        table = event.get("table", False)
        if not table or self.page == 1:
            html = event["html"]
            if event.get("phase"):  # the header and, in the same frame, this viewer's own block
                html += await self.db(_speaking, self.language, _me_html, self.arena_id, self.user)
            await self.send(text_data=html)
        elif not self._signed_in():
            return
        mine = self._signed_in() and self.user.pk in event.get("users", ())
        if mine:
            html = await self.db(_speaking, self.language, _me_html, self.arena_id, self.user)
            await self.send(text_data=html)
        if table and self.page == 1 and self._signed_in():
            self._follow_own(event.get("places", ()))

    def _follow_own(self, places) -> None:
        for player_id, user_id, place in places:
            if user_id == self.user.pk:
                self.own = (player_id, place)  # its row is in this frame
                return
        # Other rows moved: some may have passed the viewer, or fallen behind
        # them (a void, a disqualification), which moves their rank though
        # their row was not pushed. Looked up once per OWN_ROW_SECONDS at most,
        # sent only if their place changed.
        if self.own is not None and places:
            if self._own_task is None or self._own_task.done():
                self._own_task = asyncio.create_task(self._refresh_own())

    async def _refresh_own(self) -> None:
        await asyncio.sleep(OWN_ROW_SECONDS)
        player_id, known = self.own
        try:
            got = await self.db(_speaking, self.language, _own_row, self.arena_id, player_id, known)
        except Exception as e:  # noqa: BLE001 - the next push or reconnect brings it back
            log.warning("ws arena %s: own row not refreshed: %s", self.arena_id, e)
            return
        if got is not None and got[1]:
            self.own = (player_id, got[0])
            await self.send(text_data=got[1])


def _speaking(language: str, fn, *args):
    """``fn(*args)`` with ``language`` active (in the database thread it runs in)."""
    with translation.override(language):
        return fn(*args)


#: Seconds after its start during which a player's arena match is still
#: "ready": a page that connects then (it was loading as the pairing was pushed)
#: goes to it; later the page only links it ("back to your match").
FRESH_SECONDS = 15


def _snapshot(arena_id: int, user, page: int, fresh: bool = True):
    """The frames a socket starts with on arena ``arena_id``: [the redirect to
    ``user``'s freshly paired match, when ``fresh``,] the header with the
    viewer's own block (and on the first ``page`` the line under the table),
    [the first page's table]; and (player id, place) of the viewer's own row
    when the socket follows it (the first page; else None). None if there is
    no such arena."""
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        return None
    now = timezone.now()
    frames = []
    me = None
    if user is not None and user.is_authenticated:
        if fresh:
            since = now - timedelta(seconds=FRESH_SECONDS)
            ready = (Match.objects.filter(arena_match__arena=arena, arena_match__scored=False,
                                          seats__user=user, started_at__gte=since)
                     .values_list("public_id", flat=True).first())
            if ready:
                frames.append(push.redirect_frame(ready))
        me = ArenaPlayer.objects.filter(arena=arena, user=user).select_related("user").first()
    header = render_to_string(push.PARTS + "header", {"oob": True, **standings.header_context(arena, now)})
    if page != 1:
        frames.append(header + push.me_frame(standings.me_context(arena, user, now, me)))
        return frames, None
    table = standings.table_context(arena, 1, me)  # page 1 is always there
    mine = table["own"] or next((r for r in table["rows"] if me and r.player.pk == me.pk), None)
    playing = mine.playing if mine else None
    frames.append(header + push.me_frame(standings.me_context(arena, user, now, me, playing))
                  + push.foot_frame(arena, table))
    frames.append(render_to_string(push.PARTS + "table", {"oob": True, **table}))
    return frames, ((mine.player.pk, mine.pos) if mine else None)


def _me_html(arena_id: int, user) -> str:
    """The viewer's own block on arena ``arena_id`` as an out-of-band swap ("" if it is gone)."""
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        return ""
    return push.me_frame(standings.me_context(arena, user, timezone.now()))


def _own_row(arena_id: int, player_id: int, known: int | None = None):
    """(place, the row as an out-of-band swap; "" when the place is still
    ``known``) of player ``player_id``, or None."""
    arena = Arena.objects.filter(pk=arena_id).first()
    row = next(iter(standings.some_rows(arena, [player_id])), None) if arena else None
    if row is None:
        return None
    return row.pos, ("" if row.pos == known else push.rows_frame([row]))
