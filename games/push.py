"""The only caller of the channel layer for games (STYLE habits 4 and 6).

Called after commit. Each change is rendered once per audience: the public
frame once for the match's group (every socket of the match, spectators
included), and each human seat's controls once for that seat's group.
Group messages carry only what every member of the group may see, and the
match version.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from core.push import send_all
from games import marks, your_matches
from games.engine import get_rules
from games.frames import contexts, render, wire
from games.models import Match, Move
from notifications import notify

log = logging.getLogger(__name__)

EVENT = "match.frame"  # consumers handle it as ``match_frame``
#: A chat line, with its sender's id (``"from"``): consumers handle it as
#: ``match_chat`` and skip the lines of players their user blocked.
CHAT_EVENT = "match.chat"


def match_group(public_id: str) -> str:
    """The group every socket of a match joins."""
    return f"match.{public_id}"


def seat_group(public_id: str, index: int) -> str:
    """The group of the sockets of the user in seat ``index``."""
    return f"match.{public_id}.seat.{index}"


_collector = threading.local()


@contextmanager
def collect():
    """Inside this block (a consumer's database thread), frames are gathered
    into the yielded list of (group, event) instead of being sent, so the
    consumer sends them from the event loop without holding that thread."""
    _collector.messages = messages = []
    try:
        yield messages
    finally:
        _collector.messages = None


def match_changed(match: Match, seats, new_moves, state, seat_indices, before=None) -> None:
    """Send the frames of the change that made ``match.version`` (after commit),
    rendered from what the action already holds: the public frame once, and
    the controls of the human seats in ``seat_indices`` (those whose controls
    may have changed) once each. ``state``: the engine state after the
    change; ``before``: the one before ``new_moves`` (their move-list lines
    read it: captures, pieces home, whose turn), re-read from the record if None.

    A seat whose controls changed gets one message with both frames (the
    public one, then its controls), and its sockets skip the public message
    of that version (its ``seats`` list names them): one WebSocket frame per
    socket per change, as socket writes are a large part of a move's cost
    (docs/benchmarks.md). When the two would pass ``wire.MESSAGE_BYTES``
    the seat's sockets take the public message and then their controls alone
    (``wire.pack``). ``before``: the state the change began from, for
    the last move's marks (games.marks); None: they are read from the record."""
    seats = list(seats)
    last = marks.from_change(match.kind, before, new_moves, state) if before is not None else None
    ctx = contexts.public_context(match, seats, state, last_move=last)
    public = render.public_update(ctx, new_moves, before)
    messages = [(match_group(match.public_id), public)]
    served = []
    for seat in seats:
        if seat.user_id and seat.index in seat_indices:
            packed = wire.pack([public, render.seat_frame(match, seat, state)])
            if len(packed) == 1:
                served.append(seat.index)  # its sockets skip the public message
            messages.append((seat_group(match.public_id, seat.index), packed[-1]))
    # Each human member's "Your matches" row and, when a decision passed to
    # a seat, its "your turn" note, in the same round trip (games/your_matches.py).
    extra = your_matches.change_events(match, seats, state, before, ctx["to_move"])
    _dispatch(messages, match.version, served, extra)


def _events(messages: list[tuple[str, str]], version: int, served: list[int],
            extra: list[tuple[str, dict]] = ()) -> list[tuple[str, dict]]:
    """(group, channel-layer event) for each (group, html); the first, the
    match group's, lists the ``served`` seats (consumers of those seats skip
    it). ``extra``: events for other sockets (the user sockets), sent after."""
    events = [(group, {"type": EVENT, "version": version, "html": html}) for group, html in messages]
    if events and served:
        events[0][1]["seats"] = list(served)
    return events + list(extra)


def _dispatch(messages: list[tuple[str, str]], version: int, served: list[int],
              extra: list[tuple[str, dict]] = ()) -> None:
    pending = getattr(_collector, "messages", None)
    if pending is not None:
        pending.extend(_events(messages, version, served, extra))
    else:
        async_to_sync(_send_change)(messages, version, served, extra)


#: Send what ``collect`` gathered, a list of (group, event), from the event
#: loop: ``core.push.send_all`` itself (one round trip to Redis with the
#: project's layer, else one ``group_send`` each, in order), bound here once
#: so a move pays no extra call for it.
send_collected = send_all


def match_updated(public_id: str, version: int) -> None:
    """Send the frames of ``version``, re-read from the database (for callers
    that hold no change, e.g. a test that rewrote a match). Actions use
    ``match_changed``. Sends nothing if the match has moved on meanwhile."""
    match = Match.objects.filter(public_id=public_id, version=version).first()
    if match is None:
        return
    seats = list(match.seats.select_related("user"))
    new_moves = list(Move.objects.filter(match=match, version_after=version).order_by("ply"))
    state = get_rules(match.kind).load(match.state)
    match_changed(match, seats, new_moves, state, {s.index for s in seats})


async def send_chat(public_id: str, html: str, sender_id: int, preset: str = "", name: str = "") -> None:
    """One preset chat line (games.chat, already rendered once) to everyone
    watching the match; each socket whose user blocked ``sender_id`` drops it
    (``MatchConsumer.match_chat``). ``preset`` (its id in games.chat.PRESETS)
    and ``name`` (the sender's) are for the API's match streams, which send
    chat as data (docs/api.md); sockets ignore them. Chat is not stored, so
    there is no commit to wait for."""
    event = {"type": CHAT_EVENT, "html": html, "from": sender_id, "id": preset, "name": name}
    await get_channel_layer().group_send(match_group(public_id), event)


async def _send_change(messages: list[tuple[str, str]], version: int, served: list[int],
                       extra: list[tuple[str, dict]]) -> None:
    """The match's frames (``_send_all``), then the user sockets' events."""
    await _send_all(messages, version, served)
    if extra:
        await notify.send_events(list(extra))


async def _send_all(messages: list[tuple[str, str]], version: int, served: list[int] = ()) -> None:
    """The match's frames, (group, html) each, as ``version``'s events
    (``_events``: the match group's lists the ``served`` seats), through the
    shared ``core.push.send_all``: the versions and ``served`` are built here,
    and the sending is the one every push module shares, called directly (no
    extra work per move)."""
    await send_all(_events(messages, version, served))
