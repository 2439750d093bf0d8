"""Golden playthroughs: one seeded match per game, its moves and views stored
under tests/engine/golden/ and compared exactly. Chance outcomes come from the
fair draw (games.engine.fair), the players' moves from a seeded RNG.

Regenerate after a deliberate change with ``UPDATE_GOLDEN=1``, then read the diff.
"""

import json
import os
import random
from pathlib import Path

import pytest

from games.engine import CHANCE, available_games, get_rules
from games.engine.fair import fair_outcome

GOLDEN = Path(__file__).parent / "golden"
SEED = bytes(range(32))
#: Views are stored for the first plies, every 25th ply after, and the last.
FULL_VIEWS = 60
VIEW_EVERY = 25
PLAYERS = {"ludo": 3}


def playthrough(kind: str) -> dict:
    rules = get_rules(kind)
    players = PLAYERS.get(kind, rules.player_counts[0])
    match_id = f"golden-{kind}"
    rng = random.Random(2024)
    state = rules.new_match(players)
    start = rules.dump(state)
    moves, views = [], []
    ply = 0
    while rules.to_move(state) is not None:
        who = rules.to_move(state)
        if who == CHANCE:
            move = fair_outcome(rules, state, SEED, match_id)
        else:
            move = rng.choice(rules.legal_moves(state))
        state = rules.play(state, move)
        moves.append(str(move))
        ply += 1
        if ply <= FULL_VIEWS or ply % VIEW_EVERY == 0 or rules.to_move(state) is None:
            views.append({"ply": ply, "view": rules.view(state, None if ply % 2 else ply % players)})
    return {
        "game": kind,
        "players": players,
        "seed": SEED.hex(),
        "match_id": match_id,
        "start": start,
        "moves": moves,
        "views": views,
        "outcome": rules.outcome(state).to_dict(),
    }


@pytest.mark.parametrize("kind", available_games())
def test_golden_playthrough(kind):
    path = GOLDEN / f"{kind}.json"
    got = json.loads(json.dumps(playthrough(kind)))
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    assert path.exists(), f"no golden playthrough for {kind}: create it with UPDATE_GOLDEN=1, then read it"
    expected = json.loads(path.read_text())
    assert got["moves"] == expected["moves"]
    assert got == expected


def test_a_match_stored_before_reversals_were_capped_replays_to_its_recorded_result():
    """The Roundabout golden playthrough recorded before a reversing double was
    held to two darts (it turns three in one turn) replays from its stored start,
    which has no "capped_reversals" flag, to the outcome and views it recorded
    (docs/rules.md "Reversing doubles": matches keep the rule they began with)."""
    rules = get_rules("roundabout")
    old = json.loads((GOLDEN / "roundabout-uncapped-reversals.json").read_text())
    assert "capped_reversals" not in old["start"]
    state = rules.load(old["start"])
    views = {v["ply"]: v["view"] for v in old["views"]}
    turned, most = 0, 0
    for ply, move in enumerate(old["moves"], 1):
        state = rules.play(state, move)
        turned = turned + 1 if move.startswith("rev") else 0
        most = max(most, turned)
        if ply in views:
            players = old["players"]
            assert json.loads(json.dumps(rules.view(state, None if ply % 2 else ply % players))) == views[ply]
    assert most > 2, "the record turns more than two darts in one turn (what the cap now forbids)"
    assert rules.outcome(state).to_dict() == old["outcome"]
