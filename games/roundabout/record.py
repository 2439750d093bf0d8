"""Roundabout's record in words (the move list, announcements, replays)."""

from __future__ import annotations

from games.engine.base import RecordLine

_WAYS = {"r": "around the ring", "i": "inward", "o": "outward"}


def describe(moves, names, roller=None, after=None):
    """Roundabout notation in words (see games.roundabout.engine.moves)."""
    lines = []
    for m in moves:
        n = m.notation
        who = names.get(m.seat, f"Seat {m.seat}") if m.seat is not None else ""
        parts = n.split()
        if n == "roll":
            roller = m.seat
            continue
        if len(n) == 4 and n[0] == "d" and n[2] == "-":
            a, b = n[1], n[3]
            rolled = names.get(roller, "") if roller is not None else ""
            text = f"{rolled} rolled {a} and {b}" + (" (doubles)" if a == b else "")
            lines.append(RecordLine(m.ply, roller, text.strip() + "."))
        elif len(n) == 2 and n[0] == "d":
            lines.append(RecordLine(m.ply, None, f"Roll-off die: {n[1:]}."))
        elif n[:1].isdigit():
            dart, way, die = n[:-2], n[-2], n[-1]
            lines.append(RecordLine(m.ply, m.seat, f"{who} moved dart {dart} {die} {_WAYS[way]}."))
        elif parts[0] == "rev":
            lines.append(RecordLine(m.ply, m.seat, f"{who} turned dart {parts[1]} around."))
        elif parts[0] == "offer":
            order = ", then ".join(names.get(int(p), f"Seat {p}") for p in parts[1:])
            lines.append(RecordLine(m.ply, m.seat, f"{who} offered the roll to {order}."))
        elif n == "accept":
            lines.append(RecordLine(m.ply, m.seat, f"{who} accepted the roll."))
        elif n == "decline":
            late = " (time ran out)" if m.actor == "server" else ""
            lines.append(RecordLine(m.ply, m.seat, f"{who} declined the roll{late}."))
        elif n == "pass":
            lines.append(RecordLine(m.ply, m.seat, f"{who} ended the turn."))
        elif n == "timeout":
            lines.append(RecordLine(m.ply, m.seat, f"{who} ran out of time."))
        elif parts[0] == "leave":
            lines.append(RecordLine(m.ply, m.seat, f"{who} left the match."))
        else:
            lines.append(RecordLine(m.ply, m.seat, f"{who} {n}".strip()))
    return lines
