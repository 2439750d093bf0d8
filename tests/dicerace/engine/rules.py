"""Dice race: two seats, one die, a track of cells 0..GOAL.

Seat 0 starts. A seat's turn is one decision, ``roll``, then one chance step,
the die (``d1``..``d6``, equally likely), which moves the seat that many cells.
Reaching GOAL (or passing it) wins. A seat that runs out of time rolls anyway
(``timeout`` is a roll the server makes); ``leave N`` hands the match to the
other seat. Nothing is hidden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from games.engine.base import (
    CHANCE,
    HidesNothing,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    InvalidStateError,
    Outcome,
    Rules,
    leaver_ranks,
)

GOAL = 20
COLOURS = ("red", "yellow")
_NOTATION = re.compile(r"roll|timeout|d[1-6]|leave [01]")


@dataclass(frozen=True, slots=True)
class DiceRaceMove:
    """A move; ``str()`` is its notation: ``roll``, ``d1``..``d6``, ``timeout``, ``leave N``."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class DiceRaceState:
    """``cells``: each seat's cell (0..GOAL); ``turn``: the seat to act;
    ``phase``: "roll" (a seat decides), "chance" (the die) or "over"."""

    cells: tuple[int, int] = (0, 0)
    turn: int = 0
    phase: str = "roll"
    die: int | None = None
    chance_count: int = 0
    left: tuple[int, ...] = ()
    winner: int | None = None
    reason: str | None = None


class DiceRaceRules(HidesNothing, Rules):
    name = "dicerace"
    player_counts = (2,)
    default_options: dict = {}
    move_type = DiceRaceMove

    def new_match(self, players: int, options: dict | None = None) -> DiceRaceState:
        if players not in self.player_counts:
            raise InvalidOptionsError(f"dice race is for 2 players, not {players!r}")
        if options:
            raise InvalidOptionsError(f"dice race has no options: {sorted(options)}")
        return DiceRaceState()

    def to_move(self, state):
        return {"roll": state.turn, "chance": CHANCE}.get(state.phase)

    def legal_moves(self, state) -> list:
        if state.phase == "chance":
            return [m for m, _ in self.chance_outcomes(state)]
        return [DiceRaceMove("roll")] if state.phase == "roll" else []

    def chance_outcomes(self, state):
        if state.phase != "chance":
            raise IllegalMoveError("the next step is not the die")
        return [(DiceRaceMove(f"d{n}"), 1) for n in range(1, 7)]

    def chance_count(self, state) -> int:
        return state.chance_count

    def parse_move(self, text: str) -> DiceRaceMove:
        if not isinstance(text, str) or not _NOTATION.fullmatch(text):
            raise InvalidMoveError(f"{text!r} is not a dice race move (roll, d1..d6, timeout, leave N)")
        return DiceRaceMove(text)

    def play(self, state, move):
        move = self.parse_move(move) if isinstance(move, str) else move
        if not isinstance(move, DiceRaceMove):
            raise InvalidMoveError(f"{move!r} is not a DiceRaceMove")
        text = move.text
        if text.startswith("leave"):
            return self._leave(state, int(text[-1]))
        if text in ("roll", "timeout"):
            if state.phase != "roll":
                raise IllegalMoveError(f"{text} is not legal here: no seat is to roll")
            return replace(state, phase="chance")
        if state.phase != "chance":
            raise IllegalMoveError(f"{text} is not legal here: the die is not being rolled")
        die = int(text[1:])
        cells = list(state.cells)
        cells[state.turn] = min(GOAL, cells[state.turn] + die)
        state = replace(state, cells=tuple(cells), die=die, chance_count=state.chance_count + 1)
        if cells[state.turn] >= GOAL:
            return replace(state, phase="over", winner=state.turn, reason="finished")
        return replace(state, phase="roll", turn=1 - state.turn)

    def _leave(self, state, seat: int):
        if state.phase == "over" or seat in state.left:
            raise IllegalMoveError(f"leave {seat} is not possible now")
        return replace(state, left=(*state.left, seat), phase="over", winner=1 - seat,
                       reason="last_player_standing")

    def outcome(self, state) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(leaver_ranks(2, (state.winner,), state.left), state.reason)

    def timeout_move(self, state):
        if state.phase != "roll":
            raise IllegalMoveError("no seat is to move")
        return DiceRaceMove("timeout")

    def leave_move(self, state, seat: int):
        if seat not in (0, 1) or state.phase == "over" or seat in state.left:
            raise IllegalMoveError(f"leave {seat} is not possible now")
        return DiceRaceMove(f"leave {seat}")

    def forced_move(self, state):
        return None

    def seat_status(self, state) -> list[str]:
        over = state.phase == "over"
        return ["left" if s in state.left else ("done" if over else "playing") for s in (0, 1)]

    def view(self, state, seat: int | None) -> dict:
        self._check_viewer(state, seat)
        status = self.seat_status(state)
        mine = seat is not None and state.phase == "roll" and state.turn == seat
        return {
            "game": self.name, "players": 2, "viewer": seat, "phase": state.phase,
            "to_move": self.to_move(state), "turn": state.turn if state.phase != "over" else None,
            "die": state.die, "chance_count": state.chance_count, "goal": GOAL,
            "seats": [{"seat": s, "colour": COLOURS[s], "status": status[s], "cell": state.cells[s]}
                      for s in (0, 1)],
            "moves": [{"move": "roll", "label": "Roll the die"}] if mine else [],
            "winner": state.winner, "left": list(state.left),
        }

    def sample_state(self, view: dict, seat: int | None, rng):
        return self.load({"cells": [s["cell"] for s in view["seats"]], "turn": view["turn"] or 0,
                          "phase": view["phase"], "die": view["die"], "chance_count": view["chance_count"],
                          "left": view["left"], "winner": view["winner"], "reason": None})

    def dump(self, state) -> dict:
        return {"cells": list(state.cells), "turn": state.turn, "phase": state.phase, "die": state.die,
                "chance_count": state.chance_count, "left": list(state.left), "winner": state.winner,
                "reason": state.reason}

    def load(self, data: dict) -> DiceRaceState:
        try:
            state = DiceRaceState(tuple(data["cells"]), data["turn"], data["phase"], data["die"],
                                  data["chance_count"], tuple(data["left"]), data["winner"], data["reason"])
        except (KeyError, TypeError, ValueError) as e:
            raise InvalidStateError(f"not a dice race state: {e}") from None
        if state.phase not in ("roll", "chance", "over") or len(state.cells) != 2:
            raise InvalidStateError(f"not a dice race state: {data!r}")
        return state
