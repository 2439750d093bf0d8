"""Roundabout's record in words (the move list, announcements, replays).

A numbered turn is one roll and what the seat (or the seat that accepted
the offered roll) did with it: up to two dart moves, turned darts, an offer
and its answers. The roll-off comes before the first turn
(docs/rules.md "The move list", "The start", "Golden Rule").
"""

from __future__ import annotations

from games.engine import get_rules
from games.engine.base import RecordLine, idled_out
from games.engine.base import seat_label as _label

from .engine.board import darts_per_seat

_RULES = get_rules("roundabout")
_WAYS = {"r": "around the ring", "i": "inward", "o": "outward"}




def describe(moves, names, before):
    """Lines for ``moves`` (objects with ply, actor, seat, notation, played
    from the Roundabout state ``before``), in order; ``names``: seat index
    -> label ("ada (red)"). Besides each move's own line: a dart going home,
    a ringer (docs/rules.md "Going home", "Ringers"), darts captured or freed
    when a turn is judged (docs/rules.md "Captures"), a seat whose darts are
    all captured passing, and the roll-off's result. Raises the engine's
    errors for a record it refuses."""
    lines = []
    state = before
    for i, m in enumerate(moves):
        n = m.notation
        after = _RULES.play(state, n)
        who = _label(names, m.seat)
        parts = n.split()
        add = lines.append
        if n == "roll":
            pass  # the dice's line says who rolled
        elif len(n) == 4 and n[0] == "d" and n[2] == "-":
            a, b = n[1], n[3]
            text = f"{_label(names, state.turn)} rolled {a} and {b}" + (" (doubles)" if a == b else "")
            if after.phase != "move" and after.turn != state.turn:
                text += ": no dart can move; the turn passes"
            add(RecordLine(m.ply, state.turn, text + ".", "turn"))
        elif len(n) == 2 and n[0] == "d":
            seat = state.rolloff[len(state.rolls)]
            add(
                RecordLine(
                    m.ply,
                    seat,
                    f"Roll-off: {_label(names, seat)} rolled {n[1]}.",
                    "setup" if state.chance_count == 0 else "",
                )
            )
            if after.phase == "roll":
                add(
                    RecordLine(m.ply, after.turn, f"{_label(names, after.turn)} won the roll-off and starts.")
                )
            elif after.rolloff != state.rolloff:
                tied = " and ".join(_label(names, s) for s in after.rolloff)
                add(RecordLine(m.ply, None, f"Roll-off tied: {tied} roll again."))
        elif n[:1].isdigit():
            dart, way, die = n[:-2], n[-2], n[-1]
            add(
                RecordLine(
                    m.ply,
                    state.mover,
                    f"{_label(names, state.mover)} moved dart {dart} by {die} {_WAYS[way]}.",
                )
            )
        elif parts[0] == "rev":
            add(
                RecordLine(m.ply, state.mover, f"{_label(names, state.mover)} turned dart {parts[1]} around.")
            )
        elif parts[0] == "offer":
            order = ", then ".join(_label(names, int(p)) for p in parts[1:])
            add(RecordLine(m.ply, m.seat, f"{who} offered the roll to {order}."))
        elif n == "accept":
            add(RecordLine(m.ply, m.seat, f"{who} accepted the roll."))
        elif n == "decline":
            late = " (time ran out)" if m.actor == "server" else ""
            add(RecordLine(m.ply, m.seat, f"{who} declined the roll{late}."))
        elif n == "pass":
            add(RecordLine(m.ply, m.seat, f"{who} ended the turn."))
        elif n == "timeout":
            add(
                RecordLine(
                    m.ply,
                    m.seat,
                    f"{who} ran out of time: the turn passes.",
                    "turn" if state.phase == "roll" else "",
                )
            )
        elif parts[0] == "leave":
            text = (
                f"{who} missed three turns in a row: out of the match."
                if idled_out(moves, i)
                else f"{who} left the match."
            )
            add(RecordLine(m.ply, m.seat, text))
        if parts[0] != "leave":
            lines.extend(_effects(m.ply, names, state, after))
        state = after
    return lines


def _effects(ply, names, state, after) -> list[RecordLine]:
    """What a ply did to the darts besides moving one: darts leaving the
    board (home, or a ringer), darts captured or freed at a turn's end, and
    seats passed over because all their darts are captured."""
    out = []
    n = darts_per_seat(state.players)
    for seat in range(state.players):
        gone = [i - seat * n for i in range(seat * n, seat * n + n) if state.pos[i] >= 0 and after.pos[i] < 0]
        left = sum(1 for i in range(seat * n, seat * n + n) if after.pos[i] >= 0)
        if len(gone) == 1:
            out.append(
                RecordLine(
                    ply, seat, f"{_label(names, seat)}'s dart {gone[0]} went home ({left} left on the board)."
                )
            )
        elif gone:
            darts = ", ".join(str(d) for d in gone)
            out.append(
                RecordLine(
                    ply, seat, f"Ringer: {_label(names, seat)}'s darts {darts} leave the board ({left} left)."
                )
            )
    for seat in range(state.players):
        darts = range(seat * n, seat * n + n)
        caught = [
            i - seat * n for i in darts if after.captured[i] and not state.captured[i] and after.pos[i] >= 0
        ]
        freed = [
            i - seat * n for i in darts if state.captured[i] and not after.captured[i] and after.pos[i] >= 0
        ]
        for darts_, how in ((caught, "captured"), (freed, "free again")):
            if darts_:
                what = (
                    f"dart {darts_[0]} is" if len(darts_) == 1 else f"darts {', '.join(map(str, darts_))} are"
                )
                out.append(RecordLine(ply, seat, f"{_label(names, seat)}'s {what} {how}."))
    for seat in range(state.players):
        if seat != state.turn and after.turns[seat] > state.turns[seat]:
            out.append(
                RecordLine(ply, seat, f"{_label(names, seat)} has every dart captured: the turn passes.")
            )
    return out
