"""Ludo's record in words (the move list, announcements, replays)."""

from __future__ import annotations

from games.engine.base import RecordLine


def _ludo_next_roller(moves, i: int, after: dict | None) -> int | None:
    """The seat that rolls next when the die at ``moves[i]`` led to no piece
    move (the next entry is a roll, or the match now waits for a roll), else None."""
    if i + 1 < len(moves):
        nxt = moves[i + 1]
        return nxt.seat if nxt.notation == "roll" else None
    if after is not None and after.get("phase") == "roll":
        return after.get("turn")
    return None


def describe(moves, names, roller=None, after=None):
    """Ludo notation in words (the Ludo rule text rules 8 and 10: a six rolls
    again, a third six in a row forfeits the roll, no possible move passes)."""
    lines = []
    for i, m in enumerate(moves):
        n = m.notation
        who = names.get(m.seat, f"Seat {m.seat}") if m.seat is not None else ""
        if n == "roll":
            roller = m.seat
            continue
        if n.startswith("s"):
            seat = int(n[1:])
            lines.append(RecordLine(m.ply, seat, f"{names.get(seat, seat)} starts."))
        elif n.startswith("d"):
            rolled = names.get(roller, "") if roller is not None else ""
            text = f"{rolled} rolled {n[1:]}"
            next_roller = _ludo_next_roller(moves, i, after)
            if next_roller is not None and roller is not None:
                if n == "d6" and next_roller != roller:
                    text += ", a third six in a row: the roll is forfeited and the turn passes"
                elif n == "d6":
                    text += ": no piece can move; a six rolls again"
                else:
                    text += ": no piece can move; the turn passes"
            lines.append(RecordLine(m.ply, roller, f"{text}.".strip()))
        elif n.startswith("p"):
            forced = " (the only move)" if m.actor == "server" else ""
            lines.append(RecordLine(m.ply, m.seat, f"{who} moved piece {n[1:]}{forced}."))
        elif n == "timeout":
            lines.append(RecordLine(m.ply, m.seat, f"{who} ran out of time."))
        elif n.startswith("leave"):
            lines.append(RecordLine(m.ply, m.seat, f"{who} left the match."))
        else:
            lines.append(RecordLine(m.ply, m.seat, f"{who} {n}".strip()))
    return lines
