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

#: The lines' words in the reader's language. This module is pure Python (the
#: engine's layer: .importlinter), so the site hands it Django's ``gettext``
#: when it starts (``apps.LudoConfig.ready``: ``speak``); until then, and for
#: code that reads records without the site, the lines are the English
#: messages themselves. Marked with ``_`` for makemessages (this folder's
#: catalogue, games/ludo/locale).
_gettext = str


def speak(gettext) -> None:
    """Word the lines with ``gettext`` (Django's: the active language)."""
    global _gettext
    _gettext = gettext


def _(message: str) -> str:
    return _gettext(message)




def leave_text(who: str, idle: bool) -> str:
    """The line of a seat leaving: idled out (docs/rules.md "Idle seats") or by choice."""
    if idle:
        return _("%(who)s missed three turns in a row: out of the match.") % {"who": who}
    return _("%(who)s left the match.") % {"who": who}


def describe(moves, names, before):
    """Lines for ``moves`` (objects with ply, actor, seat, notation, played
    from the Ludo state ``before``), in order; ``names``: seat index ->
    label ("ada (red)"). Rules 8 and 10 of the Ludo rule text: a six rolls
    again, a third six in a row forfeits the roll, no possible move passes.
    A piece move is followed by a line for each opponent it captures and one
    when the piece reaches home. Raises the engine's errors for a record it
    refuses. The lines are in the active language (the record itself stays
    in the engine's notation)."""
    lines = []
    state = before
    for i, m in enumerate(moves):
        n = m.notation
        after = _RULES.play(state, n)
        who = _label(names, m.seat)
        if n.startswith("s"):
            text = _("Drawn to start: %(who)s.") % {"who": _label(names, after.turn)}
            lines.append(RecordLine(m.ply, after.turn, text, "setup"))
        elif n.startswith("d"):
            roller = state.turn
            lines.append(RecordLine(m.ply, roller, _roll_text(_label(names, roller), n, after, roller),
                                    "turn" if state.sixes == 0 else ""))
        elif n.startswith("p"):
            lines.extend(_piece_lines(m, names, state, after))
        elif n == "timeout":
            begins = "turn" if state.phase == "roll" and state.sixes == 0 else ""
            text = _("%(who)s ran out of time: the turn passes.") % {"who": who}
            lines.append(RecordLine(m.ply, m.seat, text, begins))
        elif n.startswith("leave"):
            lines.append(RecordLine(m.ply, m.seat, leave_text(who, idled_out(moves, i))))
        # "roll" has no line of its own: its die's line says who rolled.
        state = after
    return lines


def _roll_text(who: str, n: str, after, roller: int) -> str:
    """The line of a die ``n`` ("d1".."d6") that ``who`` rolled, ``after`` the state it led to."""
    args = {"who": who, "die": int(n[1:])}
    if after.phase != "roll":
        return _("%(who)s rolled %(die)d.") % args
    if n == "d6" and after.turn != roller:
        return _("%(who)s rolled %(die)d, a third six in a row: "
                 "the roll is forfeited and the turn passes.") % args
    if n == "d6":
        return _("%(who)s rolled %(die)d: no piece can move; a six rolls again.") % args
    return _("%(who)s rolled %(die)d: no piece can move; the turn passes.") % args


def _piece_lines(m, names, state, after) -> list[RecordLine]:
    seat, piece = state.turn, int(m.notation[1:])
    who = _label(names, seat)
    index = PIECES_PER_SEAT * seat + piece
    start = state.pieces[index]
    args = {"who": who, "piece": piece, "die": state.die}
    if m.actor == "server":
        if start == BASE:
            text = _("%(who)s entered piece %(piece)d (the only move).") % args
        else:
            text = _("%(who)s moved piece %(piece)d by %(die)d (the only move).") % args
    elif start == BASE:
        text = _("%(who)s entered piece %(piece)d.") % args
    else:
        text = _("%(who)s moved piece %(piece)d by %(die)d.") % args
    out = [RecordLine(m.ply, seat, text)]
    for other in range(state.players):
        if other == seat:
            continue
        b = PIECES_PER_SEAT * other
        hit = [
            j - b for j in range(b, b + PIECES_PER_SEAT) if state.pieces[j] >= 0 and after.pieces[j] == BASE
        ]
        if hit:
            out.append(RecordLine(m.ply, seat, _capture_text(who, _label(names, other), hit)))
    if after.pieces[index] == HOME:
        home = sum(1 for p in after.pieces[PIECES_PER_SEAT * seat : PIECES_PER_SEAT * seat + 4] if p == HOME)
        text = _("%(who)s's piece %(piece)d reached home (%(home)d of 4).") % {**args, "home": home}
        out.append(RecordLine(m.ply, seat, text))
    return out


def _capture_text(who: str, whose: str, hit: list[int]) -> str:
    """The line of ``who`` capturing the pieces ``hit`` (1 to 4 numbers, in order) of ``whose``."""
    args = {"who": who, "whose": whose, **dict(zip("abcd", hit, strict=False))}
    if len(hit) == 1:
        return _("%(who)s captured %(whose)s's piece %(a)d: back to base.") % args
    if len(hit) == 2:
        return _("%(who)s captured %(whose)s's piece %(a)d and piece %(b)d: back to base.") % args
    if len(hit) == 3:
        return _("%(who)s captured %(whose)s's piece %(a)d and piece %(b)d and piece %(c)d: "
                 "back to base.") % args
    return _("%(who)s captured %(whose)s's piece %(a)d and piece %(b)d and piece %(c)d and piece %(d)d: "
             "back to base.") % args
