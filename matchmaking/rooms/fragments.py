"""What a room lobby shows, for the page and for its pushes alike: the lobby
context every member may see, one member's own controls, and the frames
(htmx out-of-band swaps of templates/matchmaking/room_parts.html) pushed
over the lobby socket.

The lobby page (views.py), the pushes (push.py) and the lobby
socket's snapshot (consumers.py) all render from here, so a push never
goes through view code.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import sites, themes, time_controls
from games.models import ComputerLevel

PARTS = "matchmaking/room_parts.html#"


def lobby_context(room) -> dict:
    """What every member of ``room`` may see (room_parts.html public partials):
    ``room``, ``seat_rows`` (one dict per seat, by index: ``index``,
    ``number`` (index + 1), ``user``, ``level``, ``level_label``,
    ``is_host``, ``empty``), ``open_seats``, ``kind_label``, ``theme``,
    ``levels`` (the computer levels' choices), ``option_lines`` (the
    room's settings in words), and once a match has ended, back in the
    lobby, ``last_match`` and ``last_winners`` (their names) for its result."""
    seats = list(room.seats.select_related("user").order_by("index"))
    last = room.match if room.status == room.Status.OPEN and room.match_id and room.match.is_over else None
    winners = [s.display_name for s in last.seats.select_related("user") if s.rank == 1] if last else []
    rows = [{"index": s.index, "number": s.index + 1, "user": s.user, "level": s.computer_level,
             "level_label": ComputerLevel(s.computer_level).label if s.computer_level else "",
             "is_host": s.user_id is not None and s.user_id == room.host_id, "empty": s.is_empty}
            for s in seats]
    return {
        "room": room,
        "seat_rows": rows,
        "open_seats": sum(r["empty"] for r in rows),
        "kind_label": sites.name(room.kind),
        "theme": themes.get(room.theme),
        "levels": ComputerLevel.choices,
        "option_lines": _option_lines(room),
        "last_match": last,
        "last_winners": winners,
    }


def member_context(ctx: dict, user) -> dict:
    """``ctx`` (``lobby_context``) plus one member's own controls:
    ``viewer``, ``is_host`` and, for the host, ``invites`` (the newest 20,
    each ``{"invite", "state"}``)."""
    room = ctx["room"]
    is_host = room.host_id == user.pk
    invites = []
    if is_host:
        now = timezone.now()
        invites = [{"invite": i, "state": i.state(now)}
                   for i in room.invites.select_related("used_by")[:20]]
    return dict(ctx, viewer=user, is_host=is_host, invites=invites)


def public_frame(ctx: dict) -> str:
    """The frame every lobby socket of the room gets: seats and status (HTML)."""
    return render_to_string(PARTS + "public_frame", ctx)


def member_frame(ctx: dict) -> str:
    """One member's frame, from ``member_context``: their controls (HTML)."""
    return render_to_string(PARTS + "member_frame", ctx)


def removed_frame() -> str:
    """The frame a removed member's sockets get before they close (HTML)."""
    return render_to_string(PARTS + "removed_frame", {})


def left_frame() -> str:
    """The frame a leaving member's other lobby sockets get before they close (HTML)."""
    return render_to_string(PARTS + "left_frame", {})


def error_frame(message: str) -> str:
    """A refusal shown in the lobby's error box (HTML)."""
    return render_to_string(PARTS + "error_frame", {"message": message})


def _option_lines(room) -> list[str]:
    lines = [_("Time per decision: %(control)s (%(kind)s)") % {
                 "control": time_controls.label(room.turn_seconds),
                 "kind": time_controls.kind_label(room.turn_seconds)},
             ngettext("%(n)s missed turn in a row counts as leaving",
                      "%(n)s missed turns in a row count as leaving",
                      room.idle_limit) % {"n": room.idle_limit}]
    if room.kind in sites.kinds():
        lines.extend(sites.get_site(room.kind).option_lines(room.options or {}))
    lines.append(themes.get(room.theme).label)
    return lines
