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

#: The lines' words in the reader's language. This module is pure Python (the
#: engine's layer: .importlinter), so the site hands it Django's ``gettext``,
#: ``ngettext`` and ``pgettext`` when it starts (``apps.RondoConfig.ready``:
#: ``speak``); until then, and for code that reads records without the site,
#: the lines are the English messages themselves. Marked with ``_`` and
#: ``ngettext`` for makemessages (this folder's catalogue, games/rondo/locale;
#: the colours' names are games.rondo.words').
_gettext = str
_ngettext = lambda singular, plural, n: singular if n == 1 else plural  # noqa: E731
_pgettext = lambda context, message: message  # noqa: E731


def speak(gettext, ngettext, pgettext) -> None:
    """Word the lines with these (Django's: the active language)."""
    global _gettext, _ngettext, _pgettext
    _gettext, _ngettext, _pgettext = gettext, ngettext, pgettext


def _(message: str) -> str:
    return _gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _ngettext(singular, plural, n)


def colour_word(name: str) -> str:
    """A tile colour's name ("red"), as games.rondo.words words it."""
    return _pgettext("rondo colour", name)

#: Lines name a seat without its colour: Rondo's seat colours are tile
#: colours' names, so "a tile was dealt to ada (green)" would seem to say
#: which tile (docs/rules.md "Hidden information"; games.record.seat_labels).
COLOURS_IN_LINES = False




def _points(n: int) -> str:
    return ngettext("%(n)d point", "%(n)d points", n) % {"n": n}


def _space(board, sid: str, *, colour: bool) -> str:
    """A space as the board shows it: "a red 3" (its colour and value), or,
    for a face-down tile, "a space worth 3" (the space's colour beside a
    hidden tile would read as the tile's); " (a gray space)" after it when it is one."""
    i = board.index[sid]
    args = {"colour": colour_word(COLOURS[board.colour[i]]), "value": board.value[i]}
    if colour:
        return (_("a %(colour)s %(value)d (a gray space)") if board.gray[i]
                else _("a %(colour)s %(value)d")) % args
    return (_("a space worth %(value)d (a gray space)") if board.gray[i]
            else _("a space worth %(value)d")) % args


def _final_round(state, after) -> str:
    """Why the end began with this ply (docs/rules.md "Rondo": End), and what
    follows. It may share its ply with a hidden draw: no word holds a colour's
    name ("covered" would hold "red")."""
    b = after.board
    over = after.phase == "over"
    if b.gray_mask and after.occ & b.gray_mask == b.gray_mask:
        return _("The last gray space is taken: the match ends.") if over else _(
            "The last gray space is taken: this is the final round.")
    if sum(state.bag) < 2:  # a draw the bag could not fill
        return _("The bag ran out: the match ends.") if over else _(
            "The bag ran out: this is the final round.")
    return _("Nobody can place or draw: the match ends.") if over else _(
        "Nobody can place or draw: this is the final round.")


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
    the engine's errors for a record it refuses. The lines are in the active
    language (the record itself stays in the engine's notation)."""
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
            # Translators: a move list line's note: the code of the space a tile went on ("Space I03").
            note = _("Space %(space)s") % {"space": parts[1]}
            text = _placed(who, parts, state, after, m.seat)
        elif n == "end":
            total = after.scores[m.seat]
            chain = sum(max(state.cells[j], 0) * state.board.value[j] for j in state.chain)
            text = _("%(who)s ended the chain: %(points)s this turn, %(total)d in all.") % {
                "who": who, "points": _points(chain), "total": total}
        elif n == "draw":
            begins = opens
            text = _("%(who)s chose to draw instead of placing.") % {"who": who}
        elif parts[:1] == ["tile"]:
            seat = state.turn
            if state.phase == "deal":
                text = _("A tile was dealt to %(who)s.") % {"who": _label(names, seat)}
            else:
                text = _("%(who)s drew a tile.") % {"who": _label(names, seat)}
        elif len(n) == 2 and n[0] == "s" and n[1].isdigit():
            seat = after.starter if after.starter >= 0 else int(n[1])
            begins = "setup"
            text = _("Drawn to start: %(who)s.") % {"who": _label(names, seat)}
        elif n == "timeout":
            begins = opens
            text = _("%(who)s ran out of time: no tiles placed, none drawn.") % {"who": who}
        elif parts[:1] == ["leave"]:
            text = (
                _("%(who)s missed three turns in a row: out of the match.")
                if idled_out(moves, i)
                else _("%(who)s left the match.")
            ) % {"who": who}
        else:
            text = (_("%(who)s moved.") % {"who": who}).strip()
        lines.append(RecordLine(m.ply, seat, text, begins, note))
        if after.ending and not state.ending:
            lines.append(RecordLine(m.ply, None, _final_round(state, after)))
        state = after
    return lines


def _placed(who: str, parts: list[str], state, after, seat: int) -> str:
    """The line of a placement ``parts`` ("place", space, count or "down", colour)."""
    if parts[2] == "down":
        where = _space(state.board, parts[1], colour=False)
        return _("%(who)s placed a tile face down on %(space)s (a bridge: no points).") % {
            "who": who, "space": where}
    k = int(parts[2]) if parts[2].isdigit() else 0
    gained = after.scores[seat] - state.scores[seat]
    colour = COLOURS[state.board.colour[state.board.index[parts[1]]]]
    return ngettext("%(who)s placed %(count)d %(colour)s tile on %(space)s: %(points)s.",
                    "%(who)s placed %(count)d %(colour)s tiles on %(space)s: %(points)s.", k) % {
        "who": who, "count": k, "colour": colour_word(colour),
        "space": _space(state.board, parts[1], colour=True), "points": _points(gained)}
