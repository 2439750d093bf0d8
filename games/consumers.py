"""The match WebSocket, ``/ws/match/<public_id>/`` (STYLE habit 8).

Thin and async: a player's message costs one database call (the action, in
one transaction); a broadcast costs no query and no render here: the
consumer forwards the frames push.py rendered once per audience.

Client -> server: JSON objects as htmx's ws-send makes them, e.g.
``{"move": "p2", "version": "17", "HEADERS": {...}}`` (``"moves": [...]``
for a turn of several plies), or
``{"type": "sync"}`` to ask for the current position, or
``{"type": "chat", "id": "<preset id>"}`` (games.chat; players only). Server -> client: HTML
frames of htmx out-of-band elements, each with ``#frame-version``.

Heartbeat: a socket that has sent nothing for PARLOUR_HEARTBEAT_SECONDS (10 s)
gets ``wire.HEARTBEAT_FRAME`` within a tenth of a period more, so that
the page can tell a live connection from a silent one (static/js/match.js
shows "Reconnecting…" once a period and 3 s pass without a frame). During
play the frames themselves are the heartbeat: a busy socket gets none. One
task per event loop beats for all its match sockets (``Heartbeats``), not a
task per socket.

Refusal close codes (accounts/close_codes.py; the page explains them and
does not reconnect):
4002 signed out (the session logged out, or the password changed elsewhere:
accounts.sockets, "Sessions"),
4003 banned (at connect, or when a ban arrives on the user's group:
accounts.sockets), 4004 no such match (also for a private match the user
is not in: the same answer as the page's 404, so a socket cannot tell which
private matches exist), 4008 too many messages, 4009 frame too large, 4029
this person opened more sockets than the cap (core.sockets.caps).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import DatabaseError, close_old_connections
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts import blocks, sockets
from accounts.close_codes import CLOSE_BANNED, CLOSE_NOT_FOUND
from core import database
from core.errors import Refused
from core.sockets.loop_tasks import PerLoop
from games import actions, chat, live_languages, push
from games.frames import contexts, render, wire
from games.models import Match

log = logging.getLogger(__name__)


class NoRouteConsumer(sockets.ParlourConsumer):
    """Sockets to a path that names nothing: accepted, then closed with 4004."""

    async def connect(self):
        await self.accept()
        await self.close(CLOSE_NOT_FOUND)

    async def receive(self, text_data=None, bytes_data=None):
        """A frame sent before the close arrives is ignored."""


class Heartbeats(PerLoop):
    """The heartbeat of every match socket of an event loop (module
    docstring): one task per loop (``core.sockets.loop_tasks.PerLoop``) wakes every
    tenth of PARLOUR_HEARTBEAT_SECONDS and sends ``wire.HEARTBEAT_FRAME``
    to each socket whose last frame is a period old or older. The task ends
    when its last socket leaves."""

    async def run(self, members) -> None:
        period = settings.PARLOUR_HEARTBEAT_SECONDS
        loop = asyncio.get_running_loop()
        try:
            while members:
                await asyncio.sleep(period / 10)
                now = loop.time()
                for consumer in [c for c in members if now - c.last_sent >= period]:
                    try:
                        await consumer.send(text_data=wire.HEARTBEAT_FRAME)
                    except Exception as e:  # noqa: BLE001 - a closed socket gets no heartbeat
                        log.debug("ws %s: no heartbeat: %s", consumer.public_id, e)
        except asyncio.CancelledError:
            pass


heartbeats = Heartbeats()


class MatchConsumer(sockets.ParlourConsumer):
    direct_types = frozenset({push.EVENT, push.CHAT_EVENT})
    hides_chat = True

    async def connect(self):
        self.public_id = str(self.scope["url_route"]["kwargs"]["public_id"])[:16]
        self.user = self.scope.get("user")
        await self.accept()
        access, self.hidden = await self.db(_admit, self.public_id, self.user)
        if access is False:
            await self.close(CLOSE_NOT_FOUND)
            return
        self.seat_index = access
        if getattr(self.user, "is_banned", False):
            await self.close(CLOSE_BANNED)
            return
        await self.take_slot()
        # Every socket joins the match's group and its seat's (the default
        # language's frames; in another language, the list of languages a
        # change rendered, and rematch panels), and one reading another
        # language also those groups in its language (docs/i18n.md "Live play").
        groups = [push.match_group(self.public_id)]
        if self.seat_index is not None:
            groups.append(push.seat_group(self.public_id, self.seat_index))
        if self.language != live_languages.DEFAULT:
            groups += [push.language_group(g, self.language) for g in groups]
        # Counted in every language: a change renders only the languages counted.
        self.counted = live_languages.keys_of(self.language, self.seat_index)
        await live_languages.joined(self.public_id, self.counted)
        async with self.holding():  # frames of later versions follow the snapshot
            await self.join(*groups)
            await self.send_snapshot()
        heartbeats.add(self)

    #: What this socket counts in its match's languages (games.live_languages.keys_of).
    counted: list[str] = []
    #: The last version this socket asked a snapshot for, its language missed (``match_frame``).
    healed = -1

    last_sent = 0.0  # event loop time of the last frame sent (Heartbeats)

    async def send(self, text_data=None, bytes_data=None, close=False):
        self.last_sent = asyncio.get_running_loop().time()
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def disconnect(self, code):
        heartbeats.discard(self)
        if self.counted:
            counted, self.counted = self.counted, []
            await live_languages.left(self.public_id, counted)
        await super().disconnect(code)

    def message_type(self, data: dict):
        # htmx's ws-send sends a move form's fields, with no "type".
        return data.get("type") or ("move" if "move" in data or "moves" in data else None)

    async def on_sync(self, data):
        await self.send_snapshot()

    async def resync(self) -> None:
        if self.groups_joined:  # past connect: a socket still connecting sends its own snapshot
            await self.send_snapshot()

    async def on_move(self, data):
        if self.seat_index is None:
            await self.send_error(self.words(_("You are watching this match; only its players can move.")))
            return
        notation, version = data.get("moves", data.get("move")), data.get("version")
        if isinstance(notation, list) and not all(isinstance(n, str) for n in notation):
            notation = None
        if not isinstance(notation, (str, list)) or isinstance(version, bool) \
                or not isinstance(version, (str, int)):
            await self.send_error(self.words(_("A move needs a move and a version.")))
            return
        error, frames = await _play_in_pool(self.public_id, self.user, notation, version, self.language)
        await push.send_collected(frames)
        if error is not None:
            message, resend = error
            await self.send_error(message)
            if resend:
                try:
                    await self.send_snapshot()
                except (DatabaseError, database.ConnectionLost):
                    # The database is out of reach (the error frame said so):
                    # keep the socket; the page asks again on the next frame.
                    log.warning("ws %s: no snapshot after a refused move: database unavailable",
                                self.public_id)

    async def on_chat(self, data):
        """A preset chat message from a player: only an id from games.chat,
        rate-limited per person; shown to everyone watching the match."""
        message_id = data.get("id")
        if self.seat_index is None:
            await self.send_error(self.words(_("Only the players of this match can chat.")))
            return
        try:
            with translation.override(self.language):
                await chat.check_chat(self.user, message_id)
        except Refused as e:
            await self.send_error(e.message)
            return
        # One line per language reading the match (one small Redis read; chat is rare).
        others = {}
        read = await live_languages.read(self.public_id)
        for language in live_languages.public_languages(read):
            if language == live_languages.DEFAULT:
                continue
            with translation.override(language):
                others[language] = chat.chat_line(self.user.username, message_id)
        with translation.override(live_languages.DEFAULT):
            line = chat.chat_line(self.user.username, message_id)
        await push.send_chat(self.public_id, line, self.user.pk, message_id, self.user.username, others)

    async def match_frame(self, event):
        if self.language != live_languages.DEFAULT and event.get("lang") != self.language \
                and event.get("version") is not None:
            await self._check_language(event)  # a frame in the default language: ours came too?
            return
        # This seat gets the change's public frame inside its own message (push.match_changed).
        if self.seat_index is not None and self.seat_index in event.get("seats", ()):
            return
        await self.send(text_data=event["html"])

    async def _check_language(self, event) -> None:
        """A frame of the default language reached this socket, which reads
        another: its own came too when the change rendered for its keys
        (``"langs"``); else the pusher did not know of it yet (it reads the
        languages every games.live_languages.CACHE_SECONDS), and this
        socket asks for a snapshot, once per version."""
        langs = event.get("langs", ())
        if all(k in langs for k in live_languages.keys_of(self.language, self.seat_index)):
            return
        version = event["version"]
        if version > self.healed:
            self.healed = version
            await self.send_snapshot()

    async def match_chat(self, event):
        """A chat line: shown unless its sender is one this user blocked
        (``hides``), in this socket's language (rendered here if the line's
        sender did not know of it)."""
        if self.hides(event):
            return
        html = event["html"]
        if self.language != live_languages.DEFAULT:
            html = event.get("langs", {}).get(self.language)
            if html is None:
                with translation.override(self.language):
                    html = chat.chat_line(event.get("name", ""), event.get("id"))
        await self.send(text_data=html)

    async def send_error(self, message: str) -> None:
        try:
            version = await self.db(_version, self.public_id)
        except (DatabaseError, database.ConnectionLost):
            version = 0  # the page shows an error frame whatever version it names
        with translation.override(self.language):
            await self.send(text_data=render.error_frame(str(message), version))

    async def send_snapshot(self) -> None:
        async with self.holding():
            for message in await self.db(_snapshot, self.public_id, self.seat_index, self.language):
                await self.send(text_data=message)


def _access(public_id: str, user) -> int | None | bool:
    """What ``user`` may do on match ``public_id``: its own seat index (an
    int) when it plays there; None to watch (a public match); False when
    the match does not exist for them (none, or private and not theirs:
    README "Ranked play", members only)."""
    match = Match.objects.filter(public_id=public_id).first()
    if match is None:
        return False
    seat = None
    if user is not None and user.is_authenticated:
        seat = match.seats.filter(user_id=user.pk).values_list("index", flat=True).first()
    if seat is None and not match.is_public:
        return False
    return seat


def _admit(public_id: str, user) -> tuple[int | None | bool, frozenset[int]]:
    """``_access``, and the players whose chat this socket hides: the user's
    blocks (one query, for a signed-in user who may see the match; none else)."""
    access = _access(public_id, user)
    if access is False or user is None or not user.is_authenticated:
        return access, frozenset()
    return access, blocks.blocked_ids(user.pk)


def _play(public_id: str, user, notation: str, version, language: str = live_languages.DEFAULT):
    """Play the move. Returns (error, frames): error is None when accepted, else
    (message, send the current position); frames are the pushes the move made,
    for the consumer to send from the event loop.

    A move whose database connection was lost before its commit is played
    once more, whole, on a fresh connection; lost again, or lost during the
    commit (it may have been saved), it is refused and the sender gets the
    current position (README "Decisions")."""
    with translation.override(language):  # its refusals are in the sender's language
        try:
            return database.retry_if_connection_lost(
                functools.partial(_play_once, public_id, user, notation, version))
        except database.ConnectionLost as e:
            log.warning("ws %s: a move was not played: %s (%s)", public_id, e, e.__cause__)
            return (str(e.message), True), []


def _play_once(public_id: str, user, notation: str, version):
    """One try of ``_play``: its transaction and the frames it collected."""
    with push.collect() as frames:
        try:
            actions.play_move(public_id, user, notation, version)
        except actions.StaleVersion as e:
            return (str(e.message), True), frames
        except Refused as e:
            log.info("ws %s: refused a move: %s", public_id, e.code)
            return (str(e.message), False), frames
    return None, frames


# Moves are played on threads of their own (settings.PARLOUR_ACTION_THREADS),
# not on channels' one database thread: under PostgreSQL several matches'
# transactions wait on the database at once, and page snapshots and access
# checks never queue behind a move.
_action_threads = ThreadPoolExecutor(settings.PARLOUR_ACTION_THREADS, thread_name_prefix="parlour-action")


def _play_checked(*args):
    """``_play`` with the thread's database connections checked before and
    after (closed if broken or past CONN_MAX_AGE), as channels'
    ``database_sync_to_async`` does around every call."""
    close_old_connections()
    try:
        return _play(*args)
    finally:
        close_old_connections()


async def _play_in_pool(*args):
    """Run ``_play(*args)`` on an action thread, in a copy of the caller's
    context. A plain executor hop: asgiref's ``SyncToAsync`` machinery cost
    about 0.1 ms more per move (docs/benchmarks.md)."""
    call = functools.partial(contextvars.copy_context().run, _play_checked, *args)
    return await asyncio.get_running_loop().run_in_executor(_action_threads, call)


def _version(public_id: str) -> int:
    return Match.objects.filter(public_id=public_id).values_list("version", flat=True).first() or 0


def _snapshot(public_id: str, seat_index: int | None, language: str = live_languages.DEFAULT) -> list[str]:
    """The full current view for one socket, as its WebSocket messages
    (``wire.pack``: usually one): the public frame, and its seat's
    controls, in ``language``. [] when the match is gone."""
    with translation.override(language):
        return _snapshot_of(public_id, seat_index)


def _snapshot_of(public_id: str, seat_index: int | None) -> list[str]:
    match = Match.objects.filter(public_id=public_id).first()
    if match is None:
        return []
    seats = list(match.seats.select_related("user"))
    ctx = dict(contexts.public_context(match, seats), frame_kind="snapshot")
    frames = [render.public_frame(ctx)]
    if seat_index is not None:
        seat = next(s for s in seats if s.index == seat_index)
        frames.append(render.seat_frame(match, seat))
    return wire.pack(frames)
