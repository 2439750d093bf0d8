"""Dice race's move list in words (pure Python, like the engine)."""

from games.engine.base import RecordLine


def describe(moves, names, before) -> list[RecordLine]:
    """A seat's roll and its die read as one line, "ada rolled 4.", which
    opens a turn; a leave reads "ada left." ``before``: the state before
    ``moves[0]`` (its seat to move rolled a die that opens ``moves``)."""
    lines = []
    roller = getattr(before, "turn", None) if before is not None else None
    for m in moves:
        if m.notation in ("roll", "timeout"):
            roller = m.seat
        elif m.notation.startswith("d") and roller is not None:
            lines.append(RecordLine(m.ply, roller, f"{names.get(roller, roller)} rolled {m.notation[1:]}.",
                                    "turn"))
        elif m.notation.startswith("leave"):
            seat = int(m.notation[-1])
            lines.append(RecordLine(m.ply, seat, f"{names.get(seat, seat)} left."))
    return lines
