"""The match record in words, for the move list, announcements and replays.

Each game says how its notation reads (see the game's rules page). Only the
public notation is described: a record entry that hides something from some
viewers must be filtered before it reaches here.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import get_rules


@dataclass(frozen=True)
class RecordLine:
    """One line of the move list: ``ply`` (0-based), the seat it concerns
    (or None), and ``text`` in English."""

    ply: int
    seat: int | None
    text: str


def describe(kind: str, moves, names: dict[int, str], roller: int | None = None,
             after: dict | None = None) -> list[RecordLine]:
    """Lines for ``moves`` (Move rows or objects with ply, actor, seat,
    notation), in order. ``names`` maps seat index to a display name;
    ``roller`` is the seat that rolled just before ``moves[0]`` if that is a
    die outcome. A seat's roll and its die read as one line. ``after``: the
    public engine view after the last of ``moves``, when known (a Ludo die at
    the end then says whether the turn passed without a move)."""
    if kind == "ludo":
        return _ludo(moves, names, roller, after)
    if kind == "rondo":
        return _rondo(moves, names)
    if kind == "roundabout":
        return _roundabout(moves, names, roller)
    return [RecordLine(m.ply, m.seat, m.notation) for m in moves]


def _rondo(moves, names):
    """Rondo notation in words (see games.engine.rondo.moves), never naming a
    colour that only one seat may know: a face-down tile is "a tile face
    down" and a drawn tile is "a tile" (NOTES "Rondo": Hidden information).
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


def _ludo_next_roller(moves, i: int, after: dict | None) -> int | None:
    """The seat that rolls next when the die at ``moves[i]`` led to no piece
    move (the next entry is a roll, or the match now waits for a roll), else None."""
    if i + 1 < len(moves):
        nxt = moves[i + 1]
        return nxt.seat if nxt.notation == "roll" else None
    if after is not None and after.get("phase") == "roll":
        return after.get("turn")
    return None


def _ludo(moves, names, roller, after=None):
    """Ludo notation in words (ludo-rules.txt rules 8 and 10: a six rolls
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


_WAYS = {"r": "around the ring", "i": "inward", "o": "outward"}


def _roundabout(moves, names, roller):
    """Roundabout notation in words (see games.engine.roundabout.moves)."""
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


def hidden_plies(match, moves) -> dict[int, frozenset]:
    """The plies of ``moves`` (``match``'s Move rows from ply 0, in order)
    whose notation writes down something a spectator may not know yet, each
    with those facts (``Rules.hidden_in_move(state before, move, None)``,
    e.g. Rondo's ``{("tile", 4, "red")}``): ``{ply: facts}``. Empty once the
    match has ended (then the whole record may be shown). Read by replaying
    the record with the engine from ``match.start_state``; if it does not
    replay, every ply from the one that failed counts as hidden (nothing is
    shown that the engine could not vouch for)."""
    if match.is_over:
        return {}
    moves = list(moves)
    rules = get_rules(match.kind)
    out = {}
    done = 0
    try:
        state = rules.load(match.start_state)
        for m in moves:
            facts = rules.hidden_in_move(state, m.notation, None)
            if facts:
                out[m.ply] = facts
            state = rules.play(state, m.notation)
            done += 1
    except (ValueError, TypeError, KeyError):  # EngineError is a ValueError
        out.update({m.ply: frozenset({("unreadable record",)}) for m in moves[done:]})
    return out
