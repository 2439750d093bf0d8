"""Ludo's record in words (the move list, announcements, replays).

A numbered turn is one seat's roll and what its die led to; the extra roll a
six earns belongs to the same turn (the seat keeps the turn: the Ludo rule
text "Turn"), so a turn may hold several dice (docs/rules.md "The move list").
"""

from __future__ import annotations

from games.engine import get_rules
from games.engine.base import RecordLine, idled_out
from games.engine.base import seat_label as _label

from .engine.board import BASE, HOME, PIECES_PER_SEAT

_RULES = get_rules("ludo")




def leave_text(who: str, idle: bool) -> str:
    """The line of a seat leaving: idled out (docs/rules.md "Idle seats") or by choice."""
    return f"{who} missed three turns in a row: out of the match." if idle else f"{who} left the match."


def describe(moves, names, before):
    """Lines for ``moves`` (objects with ply, actor, seat, notation, played
    from the Ludo state ``before``), in order; ``names``: seat index ->
    label ("ada (red)"). Rules 8 and 10 of the Ludo rule text: a six rolls
    again, a third six in a row forfeits the roll, no possible move passes.
    A piece move is followed by a line for each opponent it captures and one
    when the piece reaches home. Raises the engine's errors for a record it
    refuses."""
    lines = []
    state = before
    for i, m in enumerate(moves):
        n = m.notation
        after = _RULES.play(state, n)
        who = _label(names, m.seat)
        if n.startswith("s"):
            lines.append(
                RecordLine(m.ply, after.turn, f"Drawn to start: {_label(names, after.turn)}.", "setup")
            )
        elif n.startswith("d"):
            roller = state.turn
            text = f"{_label(names, roller)} rolled {n[1:]}"
            if after.phase == "roll":
                if n == "d6" and after.turn != roller:
                    text += ", a third six in a row: the roll is forfeited and the turn passes"
                elif n == "d6":
                    text += ": no piece can move; a six rolls again"
                else:
                    text += ": no piece can move; the turn passes"
            lines.append(RecordLine(m.ply, roller, f"{text}.", "turn" if state.sixes == 0 else ""))
        elif n.startswith("p"):
            lines.extend(_piece_lines(m, names, state, after))
        elif n == "timeout":
            begins = "turn" if state.phase == "roll" and state.sixes == 0 else ""
            lines.append(RecordLine(m.ply, m.seat, f"{who} ran out of time: the turn passes.", begins))
        elif n.startswith("leave"):
            lines.append(RecordLine(m.ply, m.seat, leave_text(who, idled_out(moves, i))))
        # "roll" has no line of its own: its die's line says who rolled.
        state = after
    return lines


def _piece_lines(m, names, state, after) -> list[RecordLine]:
    seat, piece = state.turn, int(m.notation[1:])
    who = _label(names, seat)
    index = PIECES_PER_SEAT * seat + piece
    start = state.pieces[index]
    forced = " (the only move)" if m.actor == "server" else ""
    if start == BASE:
        text = f"{who} entered piece {piece}{forced}."
    else:
        text = f"{who} moved piece {piece} by {state.die}{forced}."
    out = [RecordLine(m.ply, seat, text)]
    for other in range(state.players):
        if other == seat:
            continue
        b = PIECES_PER_SEAT * other
        hit = [
            j - b for j in range(b, b + PIECES_PER_SEAT) if state.pieces[j] >= 0 and after.pieces[j] == BASE
        ]
        if hit:
            pieces = " and ".join(f"piece {j}" for j in hit)
            out.append(
                RecordLine(m.ply, seat, f"{who} captured {_label(names, other)}'s {pieces}: back to base.")
            )
    if after.pieces[index] == HOME:
        home = sum(1 for p in after.pieces[PIECES_PER_SEAT * seat : PIECES_PER_SEAT * seat + 4] if p == HOME)
        out.append(RecordLine(m.ply, seat, f"{who}'s piece {piece} reached home ({home} of 4)."))
    return out
