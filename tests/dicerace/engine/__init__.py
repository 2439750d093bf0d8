"""Dice race's rules, pure Python (never imports Django or the site)."""

from .rules import GOAL, DiceRaceMove, DiceRaceRules, DiceRaceState

RULES = DiceRaceRules

__all__ = ["GOAL", "RULES", "DiceRaceMove", "DiceRaceRules", "DiceRaceState"]
