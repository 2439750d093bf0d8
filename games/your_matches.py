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

Turn-based matches (days per decision, ``Match.turn_based``) are grouped
after the live ones: "Your turn in N matches" (``TURN``, the soonest
deadline first), then "Waiting for others" (``WAIT``), each row with the
time left in days and hours (games/clock_words.py). Their rows come from
the match row alone (``Match.seat_to_move``, ``Match.deadline``): no match
state is loaded for them, so the list stays two queries for a player in
fifty of them. A row says its group (``data-group``) and its place in it
(``data-sort``, the deadline), so static/js/notify.js files a pushed row
where the page would have put it. ``your_turn_count`` is the site-wide
count of turn-based matches waiting for the person (the badge beside Play
in every page's header), pushed as a ``count`` with each change that
begins or ends their turn in one.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict

from django.db.models import Case, F, JSONField, When
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts import languages
from games import clock_words, sites, time_controls
from games.engine import get_rules
from games.models import Match, Seat
from notifications import notify

#: The panel's name on the user socket and in the page (``data-panel``).
PANEL = "your-matches"

#: The site-wide count (``notifications.notify.count_event``): turn-based matches waiting for you.
COUNT = "your-turn"

#: The list's groups (``data-group`` of a row), in the page's order: live
#: matches, then turn-based ones waiting for you, then the others.
LIVE, TURN, WAIT = "live", "turn", "wait"
GROUPS = (LIVE, TURN, WAIT)

_LIVE = (Match.Status.WAITING, Match.Status.ACTIVE, Match.Status.PAUSED)
#: The most live matches listed (newest first), and the most matches read at all
#: (above the per-player limit of turn-based matches, with room for live ones).
LIVE_ROWS = 20
MATCHES_READ = 120
#: The columns a row reads (``live_matches``; a live match's state comes beside them).
_ROW_FIELDS = ("public_id", "kind", "status", "turn_seconds", "deadline", "seat_to_move", "created_at")
#: ``data-sort`` of a turn-based row with no deadline (starting, paused): last in its group.
_NO_DEADLINE = 2**53


@functools.lru_cache(maxsize=4096)
def match_url(public_id: str) -> str:
    return reverse("match", args=[public_id])


def _others(seats, viewer_id: int) -> str:
    return ", ".join(s.display_name for s in sorted(seats, key=lambda s: s.index) if s.user_id != viewer_id)


def _with(match: Match, seats, viewer_id: int) -> str:
    """The row's link text: "Ludo with bob, Computer 3 (Easy)"."""
    # Translators: a row of "Your matches": the game's name, then the other players' names.
    return _("%(game)s with %(others)s") % {
        "game": sites.name(match.kind), "others": _others(seats, viewer_id) or _("nobody yet")}


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
    ``seats`` with their users loaded. A turn-based match's row is
    ``turn_based_row``'s."""
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    if match.turn_based:
        return turn_based_row(match, seats, viewer_id, to_move, now_ms)
    by_index = {s.index: s for s in seats}
    mover = by_index.get(to_move) if isinstance(to_move, int) else None
    mine = False
    if match.status == Match.Status.PAUSED:
        turn = pgettext("match", "Paused")
    elif match.status == Match.Status.WAITING or mover is None:
        turn = pgettext("match", "Starting")
    elif mover.user_id == viewer_id:
        turn, mine = _("Your turn"), True
    else:
        others = [s for s in seats if s.user_id != viewer_id]
        turn = (_("Waiting for %(name)s") % {"name": others[0].display_name} if len(others) == 1
                else _("Waiting for the others"))
    clock = ""
    if match.status == Match.Status.ACTIVE and match.deadline and mine:
        deadline_ms = int(match.deadline.timestamp() * 1000)
        left = max(0, -(-(deadline_ms - now_ms) // 1000))
        clock = format_html(' <time class="ym-clock" data-deadline-ms="{}" datetime="PT{}S">{}</time>',
                            deadline_ms, left, _("%(seconds)s s left") % {"seconds": left})
    return format_html(
        '<li id="ym-{}" class="ym-row{}"><a href="{}">{}</a> <span class="ym-turn">{}</span>{}</li>',
        match.public_id, " ym-mine" if mine else "", match_url(match.public_id),
        _with(match, seats, viewer_id), turn, clock)


def turn_based_row(match: Match, seats, viewer_id: int, to_move: int | None, now_ms: int) -> str:
    """The row of a turn-based ``match`` for ``viewer_id``: in group ``TURN``
    ("Your turn") when the match waits for the viewer's decision, else
    ``WAIT`` ("Waiting for bob", naming whoever is to move; "Paused",
    "Starting"); with the time left on the clock running, in days and hours
    ("2 days 5 h left", a ``<time data-words>`` that notify.js counts down),
    for the viewer's decision and the others' alike. A turn-based match
    changes a day or so apart, so its rows name the seat to move and its
    deadline, and every member's row changes with each turn.
    ``to_move``: ``Match.seat_to_move`` (the same seat as the engine's)."""
    turn, mine = _turn_based_turn(match, seats, viewer_id, to_move)
    clock, sort = "", _NO_DEADLINE
    if match.status == Match.Status.ACTIVE and match.deadline:
        sort = int(match.deadline.timestamp() * 1000)
        left = max(0, -(-(sort - now_ms) // 1000))
        clock = format_html(
            ' · <time class="ym-clock" data-deadline-ms="{}" data-words datetime="PT{}S">{}</time>',
            # Translators: the time left on a turn-based clock, e.g. "2 days 5 h left".
            sort, left, _("%(time)s left") % {"time": clock_words.left(left)})
    return format_html(
        '<li id="ym-{}" class="ym-row ym-tb{}" data-group="{}" data-sort="{}"><a href="{}">{}</a> '
        '<span class="ym-meta"><span class="ym-turn">{}</span>{} · <span class="ym-control">{}</span>'
        '</span></li>',
        match.public_id, " ym-mine" if mine else "", TURN if mine else WAIT, sort, match_url(match.public_id),
        _with(match, seats, viewer_id), turn, clock,
        # Translators: a turn-based time control, e.g. "3 days a move".
        _("%(control)s a move") % {"control": time_controls.label(match.turn_seconds)})


def _turn_based_turn(match: Match, seats, viewer_id: int, to_move: int | None) -> tuple[str, bool]:
    """What a turn-based row says of the turn, and whether it is the viewer's."""
    mover = next((s for s in seats if s.index == to_move), None) if isinstance(to_move, int) else None
    if match.status == Match.Status.PAUSED:
        return pgettext("match", "Paused"), False
    if match.status == Match.Status.WAITING or mover is None:
        return pgettext("match", "Starting"), False
    if mover.user_id == viewer_id and mover.status == Seat.Status.PLAYING:
        return _("Your turn"), True
    return _("Waiting for %(name)s") % {"name": mover.display_name}, False


def live_matches(user) -> list[tuple[Match, list[Seat]]]:
    """The matches ``user`` plays in (a seat still playing, the match not
    over), newest first, each with its seats (users loaded): at most
    ``LIVE_ROWS`` live ones and every turn-based one (up to ``MATCHES_READ``
    in all). Two queries, from the user's seats (the index on a seat's user).
    Only what a row shows is read: a live match's state (its seat to move),
    never a turn-based one's (``Match.seat_to_move``), so fifty of them cost
    no JSON to read."""
    matches = list(Match.objects.filter(status__in=_LIVE, seats__user=user, seats__status=Seat.Status.PLAYING)
                   .only(*_ROW_FIELDS)
                   .annotate(live_state=Case(When(time_controls.LIVE_Q, then=F("state")), default=None,
                                             output_field=JSONField()))
                   .order_by("-created_at")[:MATCHES_READ])  # one seat per user and match: no duplicates
    live = [m for m in matches if not m.turn_based][:LIVE_ROWS]
    matches = live + [m for m in matches if m.turn_based]
    seats: dict[int, list[Seat]] = {m.pk: [] for m in matches}
    for s in (Seat.objects.filter(match__in=[m.pk for m in matches]).select_related("user")
              .only("match_id", "index", "user_id", "status", "computer_level", "user__username")):
        seats[s.match_id].append(s)
    return [(m, seats[m.pk]) for m in matches]


def _to_move(match: Match) -> int | None:
    """The seat to move: a turn-based match's stored one, a live match's from its state."""
    if match.turn_based:
        return match.seat_to_move
    state = match.live_state if hasattr(match, "live_state") else match.state  # live_matches' or a full row's
    if not state:
        return None
    rules = get_rules(match.kind)
    return rules.to_move(rules.load(state))


def panel_rows(user) -> dict[str, list[str]]:
    """``user``'s "Your matches" rows (``row_html``) by group (``GROUPS``):
    live ones newest first, turn-based ones the soonest deadline first."""
    now_ms = int(time.time() * 1000)
    rows: dict[str, list[tuple[int, str]]] = {g: [] for g in GROUPS}
    for n, (m, seats) in enumerate(live_matches(user)):
        to_move = _to_move(m)
        html = row_html(m, seats, user.pk, to_move, now_ms)
        if not m.turn_based:
            rows[LIVE].append((n, html))
            continue
        mine = _turn_based_turn(m, seats, user.pk, to_move)[1]
        ticking = m.deadline and m.status == Match.Status.ACTIVE
        key = m.deadline.timestamp() if ticking else float(_NO_DEADLINE)
        rows[TURN if mine else WAIT].append((key, html))
    return {g: [html for _, html in sorted(rows[g], key=lambda r: r[0])] for g in GROUPS}


def panel_html(user) -> str:
    """Every row of ``user``'s "Your matches" (``panel_rows``, group after
    group), joined with no space between (an empty list is ``""``;
    static/js/notify.js files each row in its group), in ``user``'s
    language (``accounts.languages.of``), as their pushed rows are."""
    with languages.speaking(user):
        return "".join("".join(rows) for rows in panel_rows(user).values())


def your_turn_count(user_id: int) -> int:
    """How many turn-based matches wait for ``user_id``'s decision: one
    count over their seats (the index on a seat's user), no match state."""
    return Seat.objects.filter(
        user_id=user_id, status=Seat.Status.PLAYING, index=F("match__seat_to_move"),
        match__status=Match.Status.ACTIVE, match__turn_seconds__gte=time_controls.DAY).count()


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


def _count_events(match: Match, seats, to_move, was, *, known: bool) -> list[tuple[str, dict]]:
    """The ``your_turn_count`` of each human member of a turn-based match whose
    turn the change began or ended (``was``: the seat to move before; not
    ``known``: every member's); nothing for a live match."""
    events = []
    for s in seats if match.turn_based else ():
        if not s.user_id:
            continue
        mine = match.status == Match.Status.ACTIVE and s.status == Seat.Status.PLAYING and to_move == s.index
        if not known or mine != (was == s.index):
            events.append(notify.count_event(s.user_id, COUNT, your_turn_count(s.user_id)))
    return events


def change_events(match: Match, seats, state, before, to_move=None) -> list[tuple[str, dict]]:
    """The user-socket events of one change (after commit): each human
    member's row when it changed ("" (removed) for a member whose seat no
    longer plays or when the match is over); and a ``your_turn`` note (with
    the deadline) to the human seat a decision passed to (``before``'s seat
    to move was another; ``before`` None: no note). The row of the member
    whose turn the change ended says so (``turn_over``: their pages' "your
    turn" toasts go). A row is left out when
    this process sent the member the same row for the version before (most
    rows name only whose turn it is). In a turn-based match, each human
    member whose turn it began or ended (any member when ``before`` is None)
    is also sent their ``your_turn_count`` (one count query each; a live
    match's change queries nothing)."""
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
        html = ""
        if playing:
            with translation.override(languages.of(s.user)):  # each member's row in their language
                html = row_html(match, seats, s.user_id, to_move, now_ms)
        if not _unchanged(match, s.user_id, html):
            ended = was == s.index and (to_move != s.index or not playing)
            events.append(notify.row_event(s.user_id, PANEL, match.public_id, html, turn_over=ended))
    events += _count_events(match, seats, to_move, was, known=before is not None)
    if before is not None and match.status == Match.Status.ACTIVE and isinstance(to_move, int) \
            and rules.to_move(before) != to_move:
        mover = next((s for s in seats if s.index == to_move), None)
        if mover is not None and mover.user_id and mover.status == Seat.Status.PLAYING:
            with translation.override(languages.of(mover.user)):
                text = _("Your turn in %(game)s with %(others)s") % {
                    "game": sites.name(match.kind), "others": _others(seats, mover.user_id)}
            events.append(notify.note_event(
                mover.user_id, "your_turn", text,
                match_url(match.public_id), match=match.public_id,
                key=f"turn:{match.public_id}:{match.version}", deadline=match.deadline,
                words=match.turn_based))
    return events
