"""Roundabout's record in words (the move list, announcements, replays).

A numbered turn is one roll and what the seat (or the seat that accepted
the offered roll) did with it: up to two dart moves, turned darts, an offer
and its answers. The roll-off comes before the first turn
(docs/rules.md "The move list", "The start", "Golden Rule").

The lines are worded in the language active when they are made (the record
itself stays in the engine's notation): this module is pure Python
(.importlinter), so the site hands it Django's translation functions when the
app loads (``translator``, set by games/roundabout/apps.py); without the site
(the engine's own tools) the lines are English. Its strings are in the game
folder's own catalogue (games/roundabout/locale).
"""

from __future__ import annotations

from games.engine import get_rules
from games.engine.base import RecordLine, idled_out

from .engine.board import darts_per_seat


class _English:
    """The translation functions without the site: every message as written."""

    @staticmethod
    def gettext(message: str) -> str:
        return message

    @staticmethod
    def ngettext(singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


#: ``gettext`` and ``ngettext`` of the active language (django.utils.translation on the site).
translator = _English


def _(message: str) -> str:
    return translator.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translator.ngettext(singular, plural, n)


_RULES = get_rules("roundabout")


def _label(names, seat: int) -> str:
    """How a line names ``seat``: its label in ``names``, else "Seat N"."""
    if seat in names:
        return names[seat]
    return _("Seat %(number)s") % {"number": seat}


def _in_turn(names, seats, joiner) -> str:
    """The labels of ``seats`` joined pairwise by ``joiner`` (a message with
    %(first)s and %(second)s): "a and b and c"."""
    text = _label(names, seats[0])
    for s in seats[1:]:
        text = joiner() % {"first": text, "second": _label(names, s)}
    return text


def _dice(m, names, state, after) -> list[RecordLine]:
    a, b = m.notation[1], m.notation[3]
    passes = after.phase != "move" and after.turn != state.turn
    if a == b:
        text = (_("%(who)s rolled %(a)s and %(b)s (doubles): no dart can move; the turn passes.") if passes
                else _("%(who)s rolled %(a)s and %(b)s (doubles)."))
    else:
        text = (_("%(who)s rolled %(a)s and %(b)s: no dart can move; the turn passes.") if passes
                else _("%(who)s rolled %(a)s and %(b)s."))
    return [RecordLine(m.ply, state.turn, text % {"who": _label(names, state.turn), "a": a, "b": b}, "turn")]


def _rolloff(m, names, state, after) -> list[RecordLine]:
    seat = state.rolloff[len(state.rolls)]
    text = _("Roll-off: %(who)s rolled %(number)s.") % {"who": _label(names, seat), "number": m.notation[1]}
    out = [RecordLine(m.ply, seat, text, "setup" if state.chance_count == 0 else "")]
    if after.phase == "roll":
        text = _("%(who)s won the roll-off and starts.") % {"who": _label(names, after.turn)}
        out.append(RecordLine(m.ply, after.turn, text))
    elif after.rolloff != state.rolloff:
        tied = _in_turn(names, after.rolloff, lambda: _("%(first)s and %(second)s"))
        out.append(RecordLine(m.ply, None, _("Roll-off tied: %(seats)s roll again.") % {"seats": tied}))
    return out


def _dart_move(m, names, state) -> RecordLine:
    n = m.notation
    dart, way, die = n[:-2], n[-2], n[-1]
    text = {
        "r": lambda: _("%(who)s moved dart %(dart)s by %(die)s around the ring."),
        "i": lambda: _("%(who)s moved dart %(dart)s by %(die)s inward."),
        "o": lambda: _("%(who)s moved dart %(dart)s by %(die)s outward."),
    }[way]()
    who = _label(names, state.mover)
    return RecordLine(m.ply, state.mover, text % {"who": who, "dart": dart, "die": die})


def _seat_line(m, moves, i, names, state) -> RecordLine | None:
    """The line of a seat's own move other than a dart's (None: a roll, whose dice say it)."""
    n = m.notation
    parts = n.split()
    who = _label(names, m.seat)
    begins = ""
    if parts[0] == "rev":
        return RecordLine(m.ply, state.mover, _("%(who)s turned dart %(dart)s around.") % {
            "who": _label(names, state.mover), "dart": parts[1]})
    if parts[0] == "offer":
        order = _in_turn(names, [int(p) for p in parts[1:]], lambda: _("%(first)s, then %(second)s"))
        return RecordLine(m.ply, m.seat, _("%(who)s offered the roll to %(seats)s.") % {
            "who": who, "seats": order})
    if n == "accept":
        text = _("%(who)s accepted the roll.")
    elif n == "decline":
        text = (_("%(who)s declined the roll (time ran out).") if m.actor == "server"
                else _("%(who)s declined the roll."))
    elif n == "pass":
        text = _("%(who)s ended the turn.")
    elif n == "timeout":
        text = _("%(who)s ran out of time: the turn passes.")
        begins = "turn" if state.phase == "roll" else ""
    elif parts[0] == "leave":
        text = (_("%(who)s missed three turns in a row: out of the match.") if idled_out(moves, i)
                else _("%(who)s left the match."))
    else:
        return None
    return RecordLine(m.ply, m.seat, text % {"who": who}, begins)


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
        if len(n) == 4 and n[0] == "d" and n[2] == "-":
            lines += _dice(m, names, state, after)
        elif len(n) == 2 and n[0] == "d":
            lines += _rolloff(m, names, state, after)
        elif n[:1].isdigit():
            lines.append(_dart_move(m, names, state))
        else:
            line = _seat_line(m, moves, i, names, state)
            if line is not None:
                lines.append(line)
        if not n.startswith("leave"):
            lines.extend(_effects(m.ply, names, state, after))
        state = after
    return lines


def _gone(ply, names, seat, gone, left) -> RecordLine:
    """A dart that went home, or a ringer's darts leaving the board."""
    who = _label(names, seat)
    if len(gone) == 1:
        text = ngettext("%(who)s's dart %(dart)s went home (%(left)s left on the board).",
                        "%(who)s's dart %(dart)s went home (%(left)s left on the board).", left)
        return RecordLine(ply, seat, text % {"who": who, "dart": gone[0], "left": left})
    text = ngettext("Ringer: %(who)s's darts %(darts)s leave the board (%(left)s left).",
                    "Ringer: %(who)s's darts %(darts)s leave the board (%(left)s left).", left)
    return RecordLine(ply, seat, text % {"who": who, "darts": ", ".join(str(d) for d in gone), "left": left})


def _held(ply, names, seat, darts, caught) -> RecordLine:
    """Darts of ``seat`` captured (``caught``) or free again at a turn's end."""
    if caught:
        text = ngettext("%(who)s's dart %(darts)s is captured.", "%(who)s's darts %(darts)s are captured.",
                        len(darts))
    else:
        text = ngettext("%(who)s's dart %(darts)s is free again.",
                        "%(who)s's darts %(darts)s are free again.", len(darts))
    return RecordLine(ply, seat, text % {"who": _label(names, seat), "darts": ", ".join(map(str, darts))})


def _turned(state, after, darts, caught: bool) -> list[int]:
    """The darts (numbers within their seat) among indices ``darts`` that a ply
    captured (``caught``) or freed, still on the board."""
    first = darts[0]
    return [i - first for i in darts
            if after.pos[i] >= 0 and after.captured[i] == caught and state.captured[i] != caught]


def _effects(ply, names, state, after) -> list[RecordLine]:
    """What a ply did to the darts besides moving one: darts leaving the
    board (home, or a ringer), darts captured or freed at a turn's end, and
    seats passed over because all their darts are captured."""
    out = []
    n = darts_per_seat(state.players)
    for seat in range(state.players):
        gone = [i - seat * n for i in range(seat * n, seat * n + n) if state.pos[i] >= 0 and after.pos[i] < 0]
        if gone:
            left = sum(1 for i in range(seat * n, seat * n + n) if after.pos[i] >= 0)
            out.append(_gone(ply, names, seat, gone, left))
    for seat in range(state.players):
        darts = range(seat * n, seat * n + n)
        for caught in (True, False):
            changed = _turned(state, after, darts, caught)
            if changed:
                out.append(_held(ply, names, seat, changed, caught))
    for seat in range(state.players):
        if seat != state.turn and after.turns[seat] > state.turns[seat]:
            text = _("%(who)s has every dart captured: the turn passes.") % {"who": _label(names, seat)}
            out.append(RecordLine(ply, seat, text))
    return out
