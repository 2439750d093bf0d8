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
from django.utils import translation

from core.push import send_all
from games import live_languages, marks, your_matches
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


def language_group(group: str, language: str) -> str:
    """The group of the sockets of ``group`` (``match_group`` or
    ``seat_group``) that read ``language``; ``group`` itself for the default
    (docs/i18n.md "Live play")."""
    return group if language == live_languages.DEFAULT else f"{group}.{language}"


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
    keys = live_languages.present(match.public_id, seats)
    messages, served, to_move = [], {}, None
    for language in live_languages.public_languages(keys):
        with translation.override(language):
            ctx = contexts.public_context(match, seats, state, last_move=last)
            public = render.public_update(ctx, new_moves, before)
        if to_move is None:
            to_move = ctx["to_move"]
        messages.append(_message(match_group(match.public_id), public, language))
        served[language] = []
        for seat in seats:
            if not (seat.user_id and seat.index in seat_indices
                    and language in live_languages.seat_languages(seat, keys)):
                continue
            with translation.override(language):
                packed = wire.pack([public, render.seat_frame(match, seat, state)])
            if len(packed) == 1:
                served[language].append(seat.index)  # its sockets skip the public message
            messages.append(_message(seat_group(match.public_id, seat.index), packed[-1], language))
    # Each human member's "Your matches" row and, when a decision passed to
    # a seat, its "your turn" note, in the same round trip (games/your_matches.py),
    # each in its member's language.
    extra = your_matches.change_events(match, seats, state, before, to_move)
    keys = live_languages.foreign(keys)
    if not keys:  # the default language alone: the messages and events as before languages
        served = served[live_languages.DEFAULT]
    _dispatch(messages, match.version, served, extra, keys)


def _message(group: str, html: str, language: str) -> tuple:
    """(group, html) in the default language, else (its language's group, html, language)."""
    if language == live_languages.DEFAULT:
        return group, html
    return language_group(group, language), html, language


def _events(messages: list[tuple], version: int, served,
            extra: list[tuple[str, dict]] = (), keys=frozenset()) -> list[tuple[str, dict]]:
    """(group, channel-layer event) for each (group, html[, language]); the
    first of each language, its public group's, lists the seats served in
    that language (``served``: language -> seat indices, or a list for the
    default; consumers of those seats skip it). A frame in another language
    than the default names it (``"lang"``); when a change renders for other
    languages, each default-language frame lists the ``keys`` it rendered for
    (``"langs"``: a socket whose key is missing asks for a snapshot).
    ``extra``: events for other sockets (the user sockets), sent after."""
    if not isinstance(served, dict):
        served = {live_languages.DEFAULT: served}
    events, first = [], set()
    for group, html, *rest in messages:
        language = rest[0] if rest else live_languages.DEFAULT
        event = {"type": EVENT, "version": version, "html": html}
        if language != live_languages.DEFAULT:
            event["lang"] = language
        elif keys:
            event["langs"] = sorted(keys)
        if language not in first:
            first.add(language)
            if served.get(language):
                event["seats"] = list(served[language])
        events.append((group, event))
    return events + list(extra)


def _dispatch(messages: list[tuple], version: int, served,
              extra: list[tuple[str, dict]] = (), keys=frozenset()) -> None:
    pending = getattr(_collector, "messages", None)
    if pending is not None:
        pending.extend(_events(messages, version, served, extra, keys))
    else:
        async_to_sync(_send_change)(messages, version, served, extra, keys)


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


async def send_chat(public_id: str, html: str, sender_id: int, preset: str = "", name: str = "",
                    others: dict[str, str] | None = None) -> None:
    """One preset chat line (games.chat, already rendered once per language)
    to everyone watching the match; each socket whose user blocked
    ``sender_id`` drops it (``MatchConsumer.match_chat``). ``html``: the line
    in the default language; ``others``: language -> the line in it, for the
    languages the match's sockets read (a socket whose language is missing
    renders the line itself). ``preset`` (its id in games.chat.PRESETS)
    and ``name`` (the sender's) are for the API's match streams, which send
    chat as data (docs/api.md), and for those sockets. Chat is not stored, so
    there is no commit to wait for."""
    event = {"type": CHAT_EVENT, "html": html, "from": sender_id, "id": preset, "name": name}
    if others:
        event["langs"] = others
    await get_channel_layer().group_send(match_group(public_id), event)


async def _send_change(messages: list[tuple], version: int, served,
                       extra: list[tuple[str, dict]], keys=frozenset()) -> None:
    """The match's frames (``_send_all``), then the user sockets' events."""
    if keys:
        await _send_all(messages, version, served, keys)
    else:
        await _send_all(messages, version, served)
    if extra:
        await notify.send_events(list(extra))


async def _send_all(messages: list[tuple], version: int, served=(), keys=frozenset()) -> None:
    """The match's frames, (group, html) each, as ``version``'s events
    (``_events``: the match group's lists the ``served`` seats), through the
    shared ``core.push.send_all``: the versions and ``served`` are built here,
    and the sending is the one every push module shares, called directly (no
    extra work per move)."""
    await send_all(_events(messages, version, served, (), keys))
