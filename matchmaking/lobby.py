"""What a room's lobby shows: the page (views_rooms.py), its live frames
(room_push.py) and its socket's snapshot (room_consumers.py) render the same
contexts."""

from __future__ import annotations

from django.utils import timezone

from games import themes
from games.models import ComputerLevel, GameKind


def lobby_context(room) -> dict:
    """What every member of ``room`` may see (room_parts.html public partials)."""
    seats = list(room.seats.select_related("user").order_by("index"))
    rows = [{"index": s.index, "number": s.index + 1, "user": s.user, "level": s.computer_level,
             "level_label": ComputerLevel(s.computer_level).label if s.computer_level else "",
             "is_host": s.user_id is not None and s.user_id == room.host_id, "empty": s.is_empty}
            for s in seats]
    return {
        "room": room,
        "seat_rows": rows,
        "open_seats": sum(r["empty"] for r in rows),
        "kind_label": GameKind(room.kind).label if room.kind in GameKind.values else room.kind,
        "theme": themes.get(room.theme),
        "levels": ComputerLevel.choices,
        "option_lines": _option_lines(room),
    }


def member_context(ctx: dict, user) -> dict:
    """``ctx`` plus one member's own controls (the host's invites and forms)."""
    room = ctx["room"]
    is_host = room.host_id == user.pk
    invites = []
    if is_host:
        now = timezone.now()
        invites = [{"invite": i, "state": i.state(now)}
                   for i in room.invites.select_related("used_by")[:20]]
    return dict(ctx, viewer=user, is_host=is_host, invites=invites)


def _option_lines(room) -> list[str]:
    lines = [f"Turn time {room.turn_seconds} s", f"{room.idle_limit} missed turns in a row count as leaving"]
    o = room.options or {}
    if "autoplay_forced" in o:
        lines.append("Forced moves play automatically" if o["autoplay_forced"] else "Forced moves by hand")
    if "side" in o:
        lines.append(f"{str(o['side']).capitalize()} side of the board")
    if "one_change" in o:
        lines.append("One-change chain rule " + ("on" if o["one_change"] else "off"))
    lines.append(themes.get(room.theme).label)
    return lines
