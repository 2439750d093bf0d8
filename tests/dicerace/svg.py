"""Dice race's board: a row of cells 0..GOAL and each seat's marker."""


def board_context(view: dict) -> dict:
    """{"cells": [0..goal], "markers": [{"seat", "colour", "cell", "x"}], "summary": str};
    x in viewBox units (one cell is 10 wide)."""
    goal = view["goal"]
    markers = [{"seat": s["seat"], "colour": s["colour"], "cell": s["cell"], "x": 10 * s["cell"] + 5}
               for s in view["seats"]]
    summary = "; ".join(f"{m['colour']} on cell {m['cell']} of {goal}" for m in markers)
    return {"cells": range(goal + 1), "width": 10 * (goal + 1), "markers": markers, "summary": summary}
