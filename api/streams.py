"""The API's NDJSON streams (docs/api.md "Streams"): the machinery every
stream shares (``Stream``) and the match stream (``MatchStream``).

A stream is an async generator of lines that Django's ASGI handler writes
as they come (``StreamingHttpResponse``); when the client goes away, the
handler cancels it and its ``finally`` leaves everything it joined.

It listens on a channel of its own (``new_channel``) that joins the
channel layer groups where what it reports is already sent: a match's
group (``games.push.match_group``: one ``match.frame`` event per accepted
change, whose HTML it ignores, and the chat), and the account's group
(``accounts.sockets.user_group``: a ban, a token's revocation). So nothing
is added to the WebSocket path per move: a move costs each of its match's
streams one query (the match row, on a shared thread pool) and one line.

One receive is kept pending for the stream's life (``asyncio.wait`` with a
timeout for the keep-alive lines, never a cancelled receive: channels_redis
unsubscribes a channel whose receive is cancelled, and messages would be
lost until the next one); cancelling it at the end unsubscribes the channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import json
import logging
import uuid
from concurrent.futures import ThreadPoolExecutor

from channels.layers import get_channel_layer
from django.db import close_old_connections

from accounts import blocks, sockets, tokens
from api import events, limits
from core.channel_layer import RESUBSCRIBED
from games import chat, live_languages, push
from games.engine import get_rules
from games.models import Match, Seat
from matchmaking.challenges import actions as challenges

log = logging.getLogger(__name__)

#: Seconds between keep-alive lines (an empty line) on a silent stream.
KEEPALIVE_SECONDS = 20
CONTENT_TYPE = "application/x-ndjson"
#: Threads shared by every stream of a process for its reads: a stream
#: never holds a database connection between reads.
READ_THREADS = 4
_read_threads = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="parlour-api-read")


def _checked(fn, *args):
    close_old_connections()
    try:
        return fn(*args)
    finally:
        close_old_connections()


async def read(fn, *args):
    """``fn(*args)`` on a read thread, with its connections checked before
    and after (closed when past CONN_MAX_AGE, 0 under ASGI: returned to the pool)."""
    call = functools.partial(contextvars.copy_context().run, _checked, fn, *args)
    return await asyncio.get_running_loop().run_in_executor(_read_threads, call)


def new_slot_id() -> str:
    """A name for a new stream's slot (``api.limits.StreamSlots``)."""
    return uuid.uuid4().hex


def line(obj: dict) -> str:
    """One NDJSON line."""
    return json.dumps(obj, separators=(",", ":"), default=str) + "\n"


class Stream:
    """One open stream of token ``token`` (an ``accounts.ApiToken``, its
    user loaded) holding the slot ``slot`` (``api.limits.streams.open``).
    Subclasses give ``groups`` (beside the account's own), ``start`` (the
    first lines, read once the groups are joined so nothing is missed) and
    ``handle`` (the lines for one channel-layer event); ``done`` ends it."""

    def __init__(self, token, slot: str):
        self.token, self.slot = token, slot
        self.user = token.user
        self.done = False

    def groups(self) -> list[str]:
        return []

    async def start(self) -> list[str]:
        return []

    async def handle(self, event: dict) -> list[str]:
        return []

    async def stop(self) -> None:
        """Undo what ``start`` did beside the groups (the stream ends)."""

    def ends(self, event: dict) -> bool:
        """A ban of the account, or this token's revocation."""
        kind = event.get("type")
        return kind == sockets.BANNED_EVENT or (
            kind == tokens.TOKEN_REVOKED_EVENT and event.get("token") == self.token.pk)

    async def lines(self):
        """The stream's lines: ``start``'s, then ``handle``'s for each event,
        an empty line after ``KEEPALIVE_SECONDS`` of silence, until ``done``."""
        layer = get_channel_layer()
        owner = f"t:{self.token.pk}"
        limits.streams.hold(owner, self.slot)
        channel, receiving, joined = None, None, []
        try:
            channel = await layer.new_channel("api.")
            receiving = asyncio.ensure_future(layer.receive(channel))
            for group in [sockets.user_group(self.user.pk), *self.groups()]:
                await layer.group_add(group, channel)
                joined.append(group)
            for text in await self.start():
                yield text
            while not self.done:
                finished, _ = await asyncio.wait({receiving}, timeout=KEEPALIVE_SECONDS)
                if not finished:
                    yield "\n"
                    continue
                event = receiving.result()
                receiving = asyncio.ensure_future(layer.receive(channel))
                if self.ends(event):
                    break
                for text in await self.handle(event):
                    yield text
        finally:
            if receiving is not None:
                receiving.cancel()  # channels_redis then unsubscribes the channel
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await receiving
            for group in joined:
                with contextlib.suppress(Exception):
                    await layer.group_discard(group, channel)
            with contextlib.suppress(Exception):
                await self.stop()
            await limits.streams.close(self.token.pk, self.slot)


# -- the match stream ------------------------------------------------------

#: What a change's line reads of the match row (one query).
_FIELDS = ("kind", "status", "state", "version", "deadline", "seat_to_move", "end_reason")


def open_match(public_id: str, user) -> dict | None:
    """What a match stream of ``user`` needs once: its seat (None: a
    spectator), the seats' names, the players ``user`` blocked (their chat
    is left out). None when the match does not exist for ``user`` (none,
    or private and not theirs: the match page's rule)."""
    match = Match.objects.filter(public_id=str(public_id)[:16]).only("id", "kind", "is_public").first()
    if match is None:
        return None
    seats = list(match.seats.select_related("user"))
    mine = next((s.index for s in seats if s.user_id == user.pk), None)
    if mine is None and not match.is_public:
        return None
    return {
        "public_id": match.public_id, "kind": match.kind, "seat": mine,
        "seats": [{"seat": s.index, "username": s.display_name, "bot": bool(s.user_id and s.user.is_bot),
                   "computer": s.is_computer} for s in seats],
        "hidden": blocks.blocked_ids(user.pk),
    }


def match_lines(opening: dict, after: int) -> tuple[int, list[str], bool] | None:
    """The lines for the match now, as seat ``opening["seat"]`` sees it, if
    its version is past ``after`` (else none): its state, and the end line
    when it has ended. Returns (version, lines, ended: the end line is
    among them); None when the match is gone. One query."""
    match = Match.objects.filter(public_id=opening["public_id"]).only(*_FIELDS).first()
    if match is None:
        return None
    if match.version <= after:
        return match.version, [], False
    out = [line(state_line(match, opening))]
    if match.is_over:
        out.append(line(end_line(match)))
    return match.version, out, match.is_over


def state_line(match: Match, opening: dict) -> dict:
    """The ``state`` line (docs/api.md): the engine's view for the seat
    (``Rules.view``: never the full state), its legal moves in the game's
    notation when it is to move, the seats and the deadline."""
    rules, seat = get_rules(match.kind), opening["seat"]
    state = rules.load(match.state) if match.state is not None else None
    to_move = match.seat_to_move
    legal = []
    if state is not None and seat is not None and to_move == seat and match.status == Match.Status.ACTIVE:
        legal = [str(move) for move in rules.legal_moves(state)]
    statuses = rules.seat_status(state) if state is not None else []
    seats = [dict(s, status=statuses[s["seat"]] if s["seat"] < len(statuses) else "playing")
             for s in opening["seats"]]
    return {
        "type": "state", "version": match.version, "game": match.kind, "seat": seat,
        "status": match.status, "to_move": to_move,
        "deadline": match.deadline.isoformat() if match.deadline else None,
        "view": rules.view(state, seat) if state is not None else None,
        "legal_moves": legal, "seats": seats,
    }


def end_line(match: Match) -> dict:
    """The ``end`` line: the result is the engine's outcome (``ranks`` per
    seat, 1 = first, and its ``reason``), None for an aborted match."""
    result = None
    if match.status == Match.Status.FINISHED and match.state is not None:
        rules = get_rules(match.kind)
        outcome = rules.outcome(rules.load(match.state))
        result = outcome.to_dict() if outcome is not None else None
    return {"type": "end", "version": match.version, "status": match.status,
            "end_reason": match.end_reason, "result": result}


class MatchStream(Stream):
    """``GET /api/match/<id>/stream``: the match as the account's seat sees
    it (``open_match``'s ``opening``), a line per newer version; versions only
    go up. Ends after the match's end line."""

    def __init__(self, token, slot: str, opening: dict):
        super().__init__(token, slot)
        self.opening = opening
        self.version = -1
        self.counted = False

    def groups(self) -> list[str]:
        return [push.match_group(self.opening["public_id"])]

    async def start(self) -> list[str]:
        # Counted as an English reader of the match: its changes render the
        # default language's frame, whose events wake this stream
        # (games.live_languages).
        await live_languages.joined(self.opening["public_id"], [live_languages.DEFAULT])
        self.counted = True
        return await self.refresh()

    async def stop(self) -> None:
        if self.counted:
            self.counted = False
            await live_languages.left(self.opening["public_id"], [live_languages.DEFAULT])

    async def refresh(self) -> list[str]:
        read_back = await read(match_lines, self.opening, self.version)
        if read_back is None:  # the match was deleted
            self.done = True
            return []
        version, out, ended = read_back
        self.version = max(self.version, version)
        self.done = ended
        return out

    async def handle(self, event: dict) -> list[str]:
        kind = event.get("type")
        if kind == push.EVENT:
            if event.get("version", 0) > self.version:
                return await self.refresh()
        elif kind == RESUBSCRIBED["type"]:  # events may have been lost meanwhile
            return await self.refresh()
        elif kind == push.CHAT_EVENT and event.get("id") in chat.PRESETS \
                and event.get("from") not in self.opening["hidden"]:
            return [line({"type": "chat", "from": event.get("name", ""), "id": event["id"],
                          "text": chat.PRESETS[event["id"]]})]
        return []


# -- the account's event stream --------------------------------------------

def account_opening(user) -> list[str]:
    """The first lines of ``user``'s event stream: a ``match_start`` line per
    match it plays that has not ended, then a ``challenge`` line per open
    challenge to it (docs/api.md), so a bot that reconnects misses nothing."""
    seats = Seat.objects.filter(user_id=user.pk, match__status__in=(
        Match.Status.WAITING, Match.Status.ACTIVE, Match.Status.PAUSED)).select_related("match")
    out = [line(events.match_line("match_start", seat.match, seat)) for seat in seats]
    out += [line(events.challenge_line(c)) for c in challenges.incoming(user)]
    return out


class EventStream(Stream):
    """``GET /api/stream/events``: the account's events
    (``api.events``), after its opening lines (``account_opening``)."""

    def groups(self) -> list[str]:
        return [events.events_group(self.user.pk)]

    async def start(self) -> list[str]:
        return await read(account_opening, self.user)

    async def handle(self, event: dict) -> list[str]:
        if event.get("type") == events.EVENT and isinstance(event.get("line"), dict):
            return [line(event["line"])]
        return []


def close_read_connections(timeout: float = 5.0) -> None:
    """Close the database connections the read threads hold (each thread
    keeps its own): for the end of a process or a test session, which must
    not leave a session open on the database. Each read thread runs one
    close, held at a barrier so no thread takes two."""
    import threading

    from django.db import connections

    barrier = threading.Barrier(READ_THREADS, timeout=timeout)

    def close():
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            pass
        connections.close_all()

    for future in [_read_threads.submit(close) for _ in range(READ_THREADS)]:
        future.result(timeout=timeout + 1)
