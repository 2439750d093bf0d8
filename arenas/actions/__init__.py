"""Arenas: the only writers of the arena rows (STYLE habit 3; README "Arenas").
One module per verb:

- ``create``: each active schedule's next arena, made ahead of its start
  (``create_due``), and opened when it comes (``open_due``);
- ``join``; ``withdraw`` (and ``pause`` / ``resume``): a player's entry;
- ``pair``: seats the free players of a running arena with the pure
  ``arenas.pairing.pair`` and starts a match per table through
  ``games.actions`` (human-only, public, the arena's turn time; rated as a
  ranked match when the arena is, once enough joined, and while the pair has
  not met too often). Runs on every join and match end and in the wave;
- ``score``: ``on_match_ended``, the receiver of ``games.signals.match_ended``,
  inside the transaction that ends the match: the results and the points
  commit with the match's result, once (the ArenaMatch row is locked and marked);
- ``finish``: a running arena past its end is closed (no more pairing); once
  its last match has ended it is finished and its podium final;
- ``disqualify`` (and ``void_match_results``): called by ``moderation.actions``;
- ``wave``: what Celery beat runs (``arenas.tasks``);
- ``common``: finding an arena and an entry, and what follows a change;
  ``errors``: the refusal.

Pushes leave after commit, from ``arenas.push``; Celery tasks are sent by name
(``arenas.tasks``, through ``core.tasks``).

Callers use this package's names (``from arenas import actions``;
``actions.join``), not its modules.
"""

from arenas.actions.common import PAIR_TASK, find_arena, send_pair
from arenas.actions.create import create_due, next_starts, open_due
from arenas.actions.disqualify import disqualify, void_match_results
from arenas.actions.errors import ArenaError
from arenas.actions.finish import close_due, finish_if_done, write_final_ranks
from arenas.actions.join import join
from arenas.actions.pair import meetings, pair_arena
from arenas.actions.score import on_match_ended, rescore, score_match
from arenas.actions.wave import wave
from arenas.actions.withdraw import pause, resume, withdraw

__all__ = [
    "PAIR_TASK",
    "ArenaError",
    "close_due",
    "create_due",
    "disqualify",
    "find_arena",
    "finish_if_done",
    "join",
    "meetings",
    "next_starts",
    "on_match_ended",
    "open_due",
    "pair_arena",
    "pause",
    "rescore",
    "resume",
    "score_match",
    "send_pair",
    "void_match_results",
    "wave",
    "withdraw",
    "write_final_ranks",
]
