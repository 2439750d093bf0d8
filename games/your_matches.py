""""Your matches" (README "Notifications"): the live list, on the home and
play pages, of the matches a person plays in, with whose turn it is and the
time left; and the "your turn" note when a decision passes to a seat.

One row per match, rendered in Python (``row_html``) for the page, for the
panel a user socket asks for (``panel_html``, registered with
notifications.notify as ``PANEL``) and for the pushes of each change
(``change_events``, which games/push.py sends in the move's one round trip
to Redis). A row and a note go to one member's own group only
(``notifications.notify.notify_group``): a private match is never named to
anyone else.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict

from django.urls import reverse
from django.utils.html import format_html

from games import sites
from games.engine import get_rules
from games.models import Match, Seat
from notifications import notify

#: The panel's name on the user socket and in the page (``data-panel``).
PANEL = "your-matches"

_LIVE = (Match.Status.WAITING, Match.Status.ACTIVE, Match.Status.PAUSED)


@functools.lru_cache(maxsize=4096)
def match_url(public_id: str) -> str:
    return reverse("match", args=[public_id])


def _others(seats, viewer_id: int) -> str:
    return ", ".join(s.display_name for s in sorted(seats, key=lambda s: s.index) if s.user_id != viewer_id)


def row_html(match: Match, seats, viewer_id: int, to_move: int | None, now_ms: int | None = None) -> str:
    """The row of ``match`` for the member ``viewer_id``: a link to the match
    ("Ludo with bob, Computer 3 (Easy)"), whether it is the viewer's turn
    ("Your turn", "Waiting for bob" with one other seat, "Waiting for the
    others" with more, "Paused", "Starting") and, while the decision is the
    viewer's, the seconds left in a ``<time>`` whose ``data-deadline-ms``
    (epoch milliseconds) static/js/notify.js counts down. Whose turn it is
    among the others, and their clocks, are on the match page: a row that
    named them would change, and be pushed to every member, with each turn
    or ply; this one changes for a member only when their own turn begins or
    ends. ``to_move``: the engine's seat to move (``rules.to_move``).
    ``seats`` with their users loaded."""
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    by_index = {s.index: s for s in seats}
    mover = by_index.get(to_move) if isinstance(to_move, int) else None
    mine = False
    if match.status == Match.Status.PAUSED:
        turn = "Paused"
    elif match.status == Match.Status.WAITING or mover is None:
        turn = "Starting"
    elif mover.user_id == viewer_id:
        turn, mine = "Your turn", True
    else:
        others = [s for s in seats if s.user_id != viewer_id]
        turn = f"Waiting for {others[0].display_name}" if len(others) == 1 else "Waiting for the others"
    clock = ""
    if match.status == Match.Status.ACTIVE and match.deadline and mine:
        deadline_ms = int(match.deadline.timestamp() * 1000)
        left = max(0, -(-(deadline_ms - now_ms) // 1000))
        clock = format_html(' <time class="ym-clock" data-deadline-ms="{}" datetime="PT{}S">{} s left</time>',
                            deadline_ms, left, left)
    return format_html(
        '<li id="ym-{}" class="ym-row{}"><a href="{}">{} with {}</a> <span class="ym-turn">{}</span>{}</li>',
        match.public_id, " ym-mine" if mine else "", match_url(match.public_id), sites.name(match.kind),
        _others(seats, viewer_id) or "nobody yet", turn, clock)


def live_matches(user) -> list[tuple[Match, list[Seat]]]:
    """The matches ``user`` plays in (a seat still playing, the match not
    over), newest first, each with its seats (users loaded). Two queries."""
    matches = list(Match.objects.filter(status__in=_LIVE, seats__user=user, seats__status=Seat.Status.PLAYING)
                   .order_by("-created_at").distinct()[:20])
    seats: dict[int, list[Seat]] = {m.pk: [] for m in matches}
    for s in Seat.objects.filter(match__in=matches).select_related("user"):
        seats[s.match_id].append(s)
    return [(m, seats[m.pk]) for m in matches]


def panel_html(user) -> str:
    """Every row of ``user``'s "Your matches" (``row_html``), joined with no
    space between (so that an empty list is ``:empty`` in site.css)."""
    now_ms = int(time.time() * 1000)
    return "".join(row_html(m, seats, user.pk, get_rules(m.kind).to_move(get_rules(m.kind).load(m.state))
                            if m.state else None, now_ms) for m, seats in live_matches(user))


_rows_sent: OrderedDict[tuple, tuple[int, str]] = OrderedDict()
_rows_lock = threading.Lock()
_ROWS_KEPT = 4096


def _unchanged(match: Match, user_id: int, html: str) -> bool:
    """Whether this process sent ``user_id`` the row ``html`` of ``match``
    for the version before (then that member's sockets show it already);
    remembers ``html`` as sent for this version."""
    key = (match.public_id, match.created_at, user_id)
    with _rows_lock:
        sent = _rows_sent.get(key)
        if sent is None or sent[0] < match.version:
            _rows_sent[key] = (match.version, html)
            _rows_sent.move_to_end(key)
            while len(_rows_sent) > _ROWS_KEPT:
                _rows_sent.popitem(last=False)
    return sent is not None and sent[0] == match.version - 1 and sent[1] == html


def change_events(match: Match, seats, state, before, to_move=None) -> list[tuple[str, dict]]:
    """The user-socket events of one change (after commit): each human
    member's row when it changed ("" (removed) for a member whose seat no
    longer plays or when the match is over); and a ``your_turn`` note (with
    the deadline) to the human seat a decision passed to (``before``'s seat
    to move was another; ``before`` None: no note). The row of the member
    whose turn the change ended says so (``turn_over``: their pages' "your
    turn" toasts go). A row is left out when
    this process sent the member the same row for the version before (most
    rows name only whose turn it is)."""
    rules = get_rules(match.kind)
    if to_move is None:
        to_move = rules.to_move(state)
    events = []
    now_ms = int(time.time() * 1000)
    live = match.status in _LIVE
    was = rules.to_move(before) if before is not None else None
    for s in seats:
        if not s.user_id:
            continue
        playing = live and s.status == Seat.Status.PLAYING
        html = row_html(match, seats, s.user_id, to_move, now_ms) if playing else ""
        if not _unchanged(match, s.user_id, html):
            ended = was == s.index and (to_move != s.index or not playing)
            events.append(notify.row_event(s.user_id, PANEL, match.public_id, html, turn_over=ended))
    if before is not None and match.status == Match.Status.ACTIVE and isinstance(to_move, int) \
            and rules.to_move(before) != to_move:
        mover = next((s for s in seats if s.index == to_move), None)
        if mover is not None and mover.user_id and mover.status == Seat.Status.PLAYING:
            events.append(notify.note_event(
                mover.user_id, "your_turn",
                f"Your turn in {sites.name(match.kind)} with {_others(seats, mover.user_id)}",
                match_url(match.public_id), match=match.public_id,
                key=f"turn:{match.public_id}:{match.version}", deadline=match.deadline))
    return events
