"""The notification API (README "Notifications"): the only sender to the
user socket's group, ``notify_group(user_id)``, which only that socket
(``/ws/notify/``, notifications/consumers.py) joins.

Two things travel to a person's user sockets, as channel-layer events the
consumer forwards as JSON frames:

- a **note** (``notify`` / ``note_event``): a toast with a link, shown once
  per tab (static/js/notify.js), and a browser notification when the tab is
  hidden and the person opted in. Frame shape::

      {"type": "note", "id": str, "kind": str, "text": str, "href": str,
       "match": str | None, "sticky": bool, "deadline_ms": int | None[, "words": true]}

  ``kind`` is one of ``KINDS``; ``id`` makes it once per tab (the same id is
  shown once); ``match`` is the public id of the match the note is about (its
  own match page shows no toast for it); ``sticky`` keeps the toast until
  dismissed (a moderator's action); ``deadline_ms`` the decision's deadline
  (epoch milliseconds) when there is one, for "time left" (``words``: said in
  days and hours, a turn-based decision's, not in seconds).
- a **row** of a live panel (``row_event``), e.g. "Your matches" on the home
  and play pages: ``{"type": "row", "panel": str, "key": str, "html": str}``;
  empty ``html`` removes the row. Sockets forward rows only of the panels
  their page asked for (``{"type": "watch", "panels": [...]}``); a panel's
  whole content comes from the function registered for it (``register_panel``).
- a **count** (``count_event``), e.g. the turn-based matches waiting for
  the person, the badge beside Play in every page's header:
  ``{"type": "count", "name": str, "n": int}``, to every user socket; the
  function registered for it (``register_count``) gives it again after a
  resync.

Callers give only what the person may know: a note or row goes to one user's
group, so a private match is named to its members alone, by construction.

Usage (after the change is committed, or inside a transaction: ``notify``
sends on commit)::

    notify(user.pk, "challenge", f"{bob} challenges you to Ludo", "/challenges/12/")
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime

from asgiref.sync import async_to_sync
from django.db import transaction

from core.push import send_all

log = logging.getLogger(__name__)

#: The channel-layer event of a note; consumers handle it as ``notify_note``.
NOTE_EVENT = "notify.note"
#: The channel-layer event of a panel row; consumers handle it as ``notify_row``.
ROW_EVENT = "notify.row"
#: The channel-layer event of a count; consumers handle it as ``notify_count``.
COUNT_EVENT = "notify.count"

#: The kinds of note: a ranked match found, a decision of yours in a match
#: (with its deadline), a challenge received, a rematch offered, a moderator's
#: action on you (a ban or suspension: its reason; the socket then closes with 4003).
KINDS = frozenset({"match_found", "your_turn", "challenge", "rematch", "moderation",
                   # A turn-based ranked match found: its own kind, since an arena match
                   # page follows a "match_found" note (static/js/notify.js), and a
                   # turn-based pairing may come while its player is in a live match.
                   "turn_based_found"})

#: Longest note text, in characters (longer is cut with "…").
TEXT_MAX = 300

_panels: dict[str, Callable] = {}
_counts: dict[str, Callable] = {}


def notify_group(user_id: int) -> str:
    """The group only the user sockets of ``user_id`` join (not ``accounts.sockets.user_group``)."""
    return f"notify.{int(user_id)}"


def note(kind: str, text: str, href: str, *, match: str | None = None, key: str | None = None,
         sticky: bool = False, deadline: datetime | None = None, ends_session: bool = False,
         words: bool = False) -> dict:
    """The frame of one note (module docstring). ``key``: its id (the same
    key is shown once per tab; default a fresh random one); ``deadline``: an
    aware datetime; ``ends_session``: the socket closes with 4003 after it (a ban);
    ``words``: the time left is said in days and hours (a turn-based decision).
    Raises ValueError for an unknown ``kind`` or an ``href`` that is not a
    path on this site (starting with one "/")."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    if not isinstance(href, str) or not href.startswith("/") or href.startswith("//"):
        raise ValueError(f"a notification links to a path on this site, not {href!r}")
    text = str(text)
    if len(text) > TEXT_MAX:
        text = text[: TEXT_MAX - 1] + "…"
    frame = {"type": "note", "id": key or uuid.uuid4().hex, "kind": kind, "text": text, "href": href,
             "match": match, "sticky": bool(sticky),
             "deadline_ms": int(deadline.timestamp() * 1000) if deadline else None}
    if ends_session:
        frame["ends_session"] = True
    if words and deadline:
        frame["words"] = True
    return frame


def note_event(user_id: int, kind: str, text: str, href: str, **options) -> tuple[str, dict]:
    """(group, channel-layer event) of one note to ``user_id`` (``note``'s
    arguments), for a caller that sends it with others in one round trip
    (``send_events``, games/push.py)."""
    return notify_group(user_id), {"type": NOTE_EVENT, "note": note(kind, text, href, **options)}


def row_event(user_id: int, panel: str, key: str, html: str, *, turn_over: bool = False) -> tuple[str, dict]:
    """(group, channel-layer event) of one row of ``panel`` for ``user_id``:
    ``html`` replaces the row ``key`` (or adds it); "" removes it.
    ``turn_over``: the change ended ``user_id``'s turn in match ``key`` (the
    consumers tell the pages that do not show the row: their "your turn" toast goes)."""
    event = {"type": ROW_EVENT, "panel": panel, "key": str(key), "html": html}
    if turn_over:
        event["turn_over"] = True
    return notify_group(user_id), event


def count_event(user_id: int, name: str, n: int) -> tuple[str, dict]:
    """(group, channel-layer event) of the count ``name`` of ``user_id``, now ``n``."""
    return notify_group(user_id), {"type": COUNT_EVENT, "name": name, "n": int(n)}


def notify(user_id: int, kind: str, text: str, href: str, **options) -> None:
    """Tell ``user_id`` something on every page they have open (``note``'s
    arguments; raises its ValueError at once). Sent after the current
    transaction commits (at once outside one); a channel layer that cannot
    be reached loses the note, never the caller's change."""
    event = note_event(user_id, kind, text, href, **options)
    transaction.on_commit(lambda: send_quietly([event]))


def send_quietly(events: Iterable[tuple[str, dict]]) -> None:
    """``send``, logging instead of raising when the channel layer fails:
    a lost notification must not fail the change that made it."""
    try:
        send(events)
    except Exception as e:  # noqa: BLE001 - a note is best effort; the pages show the truth on load
        log.warning("notifications not sent: %s", e)


def send(events: Iterable[tuple[str, dict]]) -> None:
    """Send (group, event) pairs from synchronous code (``send_events``)."""
    events = list(events)
    if events:
        async_to_sync(send_events)(events)


#: Send (group, event) pairs from the event loop: ``core.push.send_all`` itself
#: (one round trip to Redis with the project's layer, else one by one, in
#: order), bound here once so a move's events pay no extra call for it.
send_events = send_all


def register_panel(name: str, render: Callable) -> None:
    """Make ``name`` a live panel: ``render(user)`` returns its rows' HTML
    (called on the database thread when a socket asks to watch it)."""
    _panels[name] = render


def panel(name: str) -> Callable | None:
    """The render function of panel ``name``, or None when there is none."""
    return _panels.get(name)


def register_count(name: str, count: Callable) -> None:
    """Make ``name`` a count: ``count(user_id)`` returns it (called on the
    database thread when a user socket resyncs)."""
    _counts[name] = count


def counts() -> dict[str, Callable]:
    """Every registered count: name -> its function."""
    return dict(_counts)
