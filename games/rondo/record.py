"""Rondo's record in words (the move list, announcements, replays): only the
public notation; a hidden draw or face-down colour is filtered before it
reaches here (docs/rules.md "Hidden information")."""

from __future__ import annotations

from games.engine.base import RecordLine


def describe(moves, names, roller=None, after=None):
    """Rondo notation in words (see games.rondo.engine.moves), never naming a
    colour that only one seat may know: a face-down tile is "a tile face
    down" and a drawn tile is "a tile" (docs/rules.md "Hidden information").
    The record's notation holds those colours, so no Rondo line ever echoes a
    notation it does not know."""
    lines = []
    drawer = None
    dealing: list[int] = []
    seats = sorted(names)
    for m in moves:
        n = m.notation
        who = names.get(m.seat, f"Seat {m.seat}") if m.seat is not None else ""
        parts = n.split()
        seat = m.seat
        if parts[:1] == ["place"] and len(parts) in (3, 4):
            if parts[2] == "down":
                text = f"{who} placed a tile face down on {parts[1]}."
            else:
                k = int(parts[2]) if parts[2].isdigit() else 0
                text = f"{who} placed {k} tile{'s' if k != 1 else ''} face up on {parts[1]}."
        elif n == "end":
            drawer, dealing = m.seat, []
            text = f"{who} ended the chain."
        elif n == "draw":
            drawer, dealing = m.seat, []
            text = f"{who} draws instead of placing."
        elif parts[:1] == ["tile"]:
            if dealing:
                seat = dealing.pop(0)
                text = f"A tile was dealt to {names.get(seat, f'Seat {seat}')}."
            elif drawer is not None:
                seat = drawer
                text = f"{names.get(drawer, f'Seat {drawer}')} drew a tile."
            else:
                seat = None
                text = "A tile was drawn."
        elif len(n) == 2 and n[0] == "s" and n[1].isdigit():
            seat = int(n[1])
            order = [s for s in seats if s >= seat] + [s for s in seats if s < seat]
            dealing = [s for s in order for _ in range(2)]
            text = f"{names.get(seat, f'Seat {seat}')} starts."
        elif n == "timeout":
            text = f"{who} ran out of time: no tiles placed, none drawn."
        elif parts[:1] == ["leave"]:
            text = f"{who} left the match."
        else:
            text = f"{who} moved.".strip()
        lines.append(RecordLine(m.ply, seat, text))
    return lines
