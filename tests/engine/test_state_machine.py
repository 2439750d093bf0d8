"""A Hypothesis state machine that plays every registered game with random
legal moves (and now and then the server's timeout and leave moves) and
checks the shared contract after each ply. The example count comes from the
Hypothesis profile loaded in tests/conftest.py."""

import json
import os
import random

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.engine import CHANCE, EngineError, available_games, get_rules

from .helpers import check_ludo_invariants
from .rondo_helpers import check_rondo_invariants
from .roundabout_helpers import check_roundabout_invariants, check_roundabout_step

#: Game-specific invariants (pieces conserved and in range, ...), by game.
GAME_INVARIANTS = {
    "ludo": check_ludo_invariants,
    "rondo": check_rondo_invariants,
    "roundabout": check_roundabout_invariants,
}
#: Game-specific checks of one ply (state before, move, state after), by game:
#: Roundabout's captured darts never move, blocks are passed only with jumping doubles.
GAME_STEP_CHECKS = {"roundabout": check_roundabout_step}

#: Game-specific match options to draw, by game (default: the game's defaults).
GAME_OPTIONS = {
    "rondo": st.fixed_dictionaries({"side": st.sampled_from(["blue", "red"]), "one_change": st.booleans()}),
}


def public_part(view: dict) -> dict:
    """A view without what may differ between viewers: who looks, and the
    viewer's own secrets (the "private" key, see Rules.view)."""
    return {k: v for k, v in view.items() if k not in ("viewer", "private")}


def machine_for(kind: str):
    rules = get_rules(kind)

    class GameMachine(RuleBasedStateMachine):
        @initialize(
            players=st.sampled_from(rules.player_counts),
            autoplay=st.booleans(),
            extra=GAME_OPTIONS.get(kind, st.none()),
        )
        def start(self, players, autoplay, extra):
            options = {"autoplay_forced": autoplay} if "autoplay_forced" in rules.default_options else None
            if extra is not None:
                options = {**(options or {}), **extra}
            self.state = rules.new_match(players, options)
            self.players = players

        def step(self, move):
            before = json.dumps(rules.dump(self.state), sort_keys=True)
            nxt = rules.play(self.state, move)
            assert json.dumps(rules.dump(self.state), sort_keys=True) == before, "play changed its input"
            GAME_STEP_CHECKS.get(kind, lambda *a: None)(self.state, move, nxt)
            self.state = nxt

        @precondition(lambda self: rules.to_move(self.state) is not None)
        @rule(data=st.data())
        def play_legal(self, data):
            if rules.to_move(self.state) == CHANCE:
                outcomes = rules.chance_outcomes(self.state)
                move = data.draw(st.sampled_from([m for m, _ in outcomes]))
            else:
                move = data.draw(st.sampled_from(rules.legal_moves(self.state)))
            assert str(rules.parse_move(str(move))) == str(move)
            self.step(move)

        @precondition(lambda self: rules.to_move(self.state) is not None)
        @rule(seed=st.integers(0, 2**32), plies=st.integers(1, 60))
        def play_a_stretch(self, seed, plies):
            """Many random plies at once, so matches reach their late stages."""
            rng = random.Random(seed)
            for _ in range(plies):
                who = rules.to_move(self.state)
                if who is None:
                    break
                if who == CHANCE:
                    outcomes = rules.chance_outcomes(self.state)
                    move = rng.choices([m for m, _ in outcomes], [w for _, w in outcomes])[0]
                else:
                    move = rng.choice(rules.legal_moves(self.state))
                self.step(move)
                self.contract_holds()

        @precondition(lambda self: rules.to_move(self.state) not in (None, CHANCE))
        @rule()
        def forced_move_if_any(self):
            forced = rules.forced_move(self.state)
            if forced is not None:
                assert forced in rules.legal_moves(self.state)
                assert str(forced) != "roll"
                self.step(forced)

        @precondition(lambda self: rules.to_move(self.state) not in (None, CHANCE))
        @rule(dice=st.integers(0, 4))
        def now_and_then_a_timeout(self, dice):
            if dice == 0:
                self.step(rules.timeout_move(self.state))

        @precondition(lambda self: rules.to_move(self.state) is not None)
        @rule(data=st.data(), dice=st.integers(0, 9))
        def now_and_then_a_seat_leaves(self, data, dice):
            if dice != 0:
                return
            playing = [s for s, status in enumerate(rules.seat_status(self.state)) if status == "playing"]
            seat = data.draw(st.sampled_from(playing))
            self.step(rules.leave_move(self.state, seat))

        @rule(text=st.text(max_size=8))
        def any_text_is_played_or_refused_with_an_engine_error(self, text):
            try:
                rules.play(self.state, text)
            except EngineError:
                pass

        @invariant()
        def contract_holds(self):
            state = self.state
            who = rules.to_move(state)
            legal = rules.legal_moves(state)
            assert (legal == []) == (who is None)
            assert (rules.outcome(state) is None) == (who is not None)
            if who == CHANCE:
                outcomes = rules.chance_outcomes(state)
                assert outcomes and all(type(w) is int and w > 0 for _, w in outcomes)
            data = json.loads(json.dumps(rules.dump(state)))
            assert rules.load(data) == state
            spectator = rules.view(state, None)
            json.dumps(spectator)
            assert spectator.get("private") in (None, {}), "a spectator has no secrets"
            for seat in range(self.players):
                view = rules.view(state, seat)
                assert public_part(view) == public_part(spectator), "a view shows another seat's secrets"
            GAME_INVARIANTS.get(kind, lambda s: None)(state)

    GameMachine.__name__ = f"{kind.title()}Machine"
    return GameMachine


# In CI (the "ci" Hypothesis profile, tests/conftest.py) each machine plays 20
# random runs of 50 steps, not the profile's 40: the three machines were a
# minute of CPU on the critical path of .ci/run. Elsewhere: the profile's count.
_CI = os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev") == "ci"

for _kind in available_games():
    _machine = machine_for(_kind)
    _settings = settings(stateful_step_count=50, **({"max_examples": 20} if _CI else {}))
    globals()[f"Test{_kind.title()}StateMachine"] = _settings(_machine).TestCase
