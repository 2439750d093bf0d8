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

_RULES = get_rules("rondo")

#: Lines name a seat without its colour: Rondo's seat colours are tile
#: colours' names, so "a tile was dealt to ada (green)" would seem to say
#: which tile (docs/rules.md "Hidden information"; games.record.seat_labels).
COLOURS_IN_LINES = False




def describe(moves, names, before):
    """Lines for ``moves`` (objects with ply, actor, seat, notation, played
    from the Rondo state ``before``), in order; ``names``: seat index ->
    label. Never names a colour that only one seat may know: a face-down
    tile is "a tile face down" and a drawn tile is "a tile"
    (docs/rules.md "Hidden information"). The record's notation holds those
    colours, so no Rondo line ever echoes a notation it does not know. The
    chain's score is public (the scores are on the page). Raises the
    engine's errors for a record it refuses."""
    lines = []
    state = before
    for i, m in enumerate(moves):
        n = m.notation
        after = _RULES.play(state, n)
        who = _label(names, m.seat)
        parts = n.split()
        seat, begins = m.seat, ""
        opens = "turn" if state.phase == "turn" and not state.chain else ""
        if parts[:1] == ["place"] and len(parts) in (3, 4):
            begins = opens
            if parts[2] == "down":
                text = f"{who} placed a tile face down on {parts[1]}."
            else:
                k = int(parts[2]) if parts[2].isdigit() else 0
                gained = after.scores[m.seat] - state.scores[m.seat]
                text = (
                    f"{who} placed {k} tile{'s' if k != 1 else ''} face up on {parts[1]}: "
                    f"{gained} point{'s' if gained != 1 else ''}."
                )
        elif n == "end":
            total = after.scores[m.seat]
            text = f"{who} ended the chain ({total} point{'s' if total != 1 else ''} in all)."
        elif n == "draw":
            begins = opens
            text = f"{who} draws instead of placing."
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
        lines.append(RecordLine(m.ply, seat, text, begins))
        state = after
    return lines
