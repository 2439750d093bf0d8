"""Rondo's record in words (the move list, announcements, replays): only the
public notation; a hidden draw or face-down colour is never named
(docs/rules.md "Hidden information").

A numbered turn is one seat's turn (docs/rules.md "Turn"): its chain of
placements, the end that scores it and the tile drawn, or a draw of two; the
starting seat and the deal come before the first turn (docs/rules.md
"The move list", "The start").
"""

from __future__ import annotations

from games.engine import get_rules
from games.engine.base import RecordLine, idled_out
from games.engine.base import seat_label as _label
from games.rondo.engine import COLOURS

_RULES = get_rules("rondo")

#: Lines name a seat without its colour: Rondo's seat colours are tile
#: colours' names, so "a tile was dealt to ada (green)" would seem to say
#: which tile (docs/rules.md "Hidden information"; games.record.seat_labels).
COLOURS_IN_LINES = False




def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def _space(board, sid: str, *, colour: bool) -> str:
    """A space as the board shows it: "a red 3" (its colour and value), or,
    for a face-down tile, "a space worth 3" (the space's colour beside a
    hidden tile would read as the tile's); " (a gray space)" after it when it is one."""
    i = board.index[sid]
    gray = " (a gray space)" if board.gray[i] else ""
    if colour:
        return f"a {COLOURS[board.colour[i]]} {board.value[i]}{gray}"
    return f"a space worth {board.value[i]}{gray}"


def _final_round(state, after) -> str:
    """Why the end began with this ply (docs/rules.md "Rondo": End), and what
    follows. It may share its ply with a hidden draw: no word holds a colour's
    name ("covered" would hold "red")."""
    b = after.board
    if b.gray_mask and after.occ & b.gray_mask == b.gray_mask:
        why = "The last gray space is taken"
    elif sum(state.bag) < 2:  # a draw the bag could not fill
        why = "The bag ran out"
    else:
        why = "Nobody can place or draw"
    return f"{why}: the match ends." if after.phase == "over" else f"{why}: this is the final round."


def describe(moves, names, before):
    """Lines for ``moves`` (objects with ply, actor, seat, notation, played
    from the Rondo state ``before``), in order; ``names``: seat index ->
    label. Each line names who acted and says it in a player's words: a
    space is named as the board shows it ("a red 3"), its code goes in the
    line's note (its title: "Space I03"). Never names a colour that only one
    seat may know: a face-down tile is "a tile face down" on "a space worth
    3" and a drawn tile is "a tile" (docs/rules.md "Hidden information").
    The record's notation holds those colours, so no Rondo line ever echoes
    a notation it does not know. The chain's score is public (the scores are
    on the page); the start of the final round is a line of its own. Raises
    the engine's errors for a record it refuses."""
    lines = []
    state = before
    for i, m in enumerate(moves):
        n = m.notation
        after = _RULES.play(state, n)
        who = _label(names, m.seat)
        parts = n.split()
        seat, begins, note = m.seat, "", ""
        opens = "turn" if state.phase == "turn" and not state.chain else ""
        if parts[:1] == ["place"] and len(parts) in (3, 4):
            begins = opens
            note = f"Space {parts[1]}"
            if parts[2] == "down":
                where = _space(state.board, parts[1], colour=False)
                text = f"{who} placed a tile face down on {where} (a bridge: no points)."
            else:
                k = int(parts[2]) if parts[2].isdigit() else 0
                gained = after.scores[m.seat] - state.scores[m.seat]
                colour = COLOURS[state.board.colour[state.board.index[parts[1]]]]
                text = (
                    f"{who} placed {k} {colour} tile{'s' if k != 1 else ''} on "
                    f"{_space(state.board, parts[1], colour=True)}: {_points(gained)}."
                )
        elif n == "end":
            total = after.scores[m.seat]
            chain = sum(max(state.cells[j], 0) * state.board.value[j] for j in state.chain)
            text = f"{who} ended the chain: {_points(chain)} this turn, {total} in all."
        elif n == "draw":
            begins = opens
            text = f"{who} chose to draw instead of placing."
        elif parts[:1] == ["tile"]:
            seat = state.turn
            if state.phase == "deal":
                text = f"A tile was dealt to {_label(names, seat)}."
            else:
                text = f"{_label(names, seat)} drew a tile."
        elif len(n) == 2 and n[0] == "s" and n[1].isdigit():
            seat = after.starter if after.starter >= 0 else int(n[1])
            begins = "setup"
            text = f"Drawn to start: {_label(names, seat)}."
        elif n == "timeout":
            begins = opens
            text = f"{who} ran out of time: no tiles placed, none drawn."
        elif parts[:1] == ["leave"]:
            text = (
                f"{who} missed three turns in a row: out of the match."
                if idled_out(moves, i)
                else f"{who} left the match."
            )
        else:
            text = f"{who} moved.".strip()
        lines.append(RecordLine(m.ply, seat, text, begins, note))
        if after.ending and not state.ending:
            lines.append(RecordLine(m.ply, None, _final_round(state, after)))
        state = after
    return lines
