"""Roundabout scenarios: one or more per rule of the rulebook and per decision
in docs/rules.md "Roundabout" and "Common", each reached from a chosen position or
by playing moves and chance outcomes.

Conventions in these positions: with 2 players seat 0 is red (home bars 0..3,
opposite territory bars 8..11) and seat 1 yellow (home bars 8..11). Darts are
given as {seat: {dart: (ring, bar, facing)}}; darts not given are off the board.
"""

import json

import pytest

from games.engine import CHANCE, IllegalMoveError, InvalidMoveError, InvalidOptionsError, InvalidStateError
from games.engine.fair import fair_outcome
from games.roundabout.engine import SETUPS, parse_move
from games.roundabout.engine.moves import DICE

from .roundabout_helpers import RA, is_captured, legal, position, run, where

SEED = bytes(range(32))


# -- set-up, roll-off, dice -----------------------------------------------------
@pytest.mark.parametrize(
    ("players", "darts", "rings", "territories"),
    [(2, 10, (1, 2, 3, 4, 5), (0, 2)), (3, 8, (1, 2, 4, 5), (0, 1, 2)), (4, 6, (2, 3, 4), (0, 1, 2, 3))],
)
def test_set_ups_stand_on_the_centre_bars_of_each_home_territory(players, darts, rings, territories):
    assert SETUPS[players]["rings"] == rings
    view = RA.view(RA.new_match(players), None)
    assert [s["territory"] for s in view["seats"]] == list(territories)
    for seat in view["seats"]:
        t = seat["territory"]
        assert len(seat["darts"]) == darts
        ccw = sorted(d["ring"] for d in seat["darts"] if d["bar"] == 4 * t + 1 and d["facing"] == "ccw")
        cw = sorted(d["ring"] for d in seat["darts"] if d["bar"] == 4 * t + 2 and d["facing"] == "cw")
        assert ccw == cw == list(rings)


def test_seat_colours_follow_their_territories():
    assert [s["colour"] for s in RA.view(RA.new_match(2), None)["seats"]] == ["red", "yellow"]
    assert [s["colour"] for s in RA.view(RA.new_match(3), None)["seats"]] == ["red", "green", "yellow"]


def test_new_match_rejects_bad_player_counts_and_options():
    for players in (1, 5, "2"):
        with pytest.raises(InvalidOptionsError):
            RA.new_match(players)
    with pytest.raises(InvalidOptionsError):
        RA.new_match(2, {"autoplay_forced": True})


def test_the_roll_off_is_one_die_per_seat_and_the_highest_starts():
    state = RA.new_match(3)
    assert RA.to_move(state) == CHANCE and RA.chance_count(state) == 0
    assert [str(m) for m, w in RA.chance_outcomes(state)] == ["d1", "d2", "d3", "d4", "d5", "d6"]
    state = run(state, "d4, d6, d2")
    assert RA.to_move(state) == 1 and legal(state) == ["roll"]
    assert RA.chance_count(state) == 3


def test_a_tied_roll_off_is_rolled_again_by_the_tied_seats_only_in_seat_order():
    state = run(RA.new_match(3), "d5, d2, d5")
    assert state.rolloff == (0, 2) and state.rolls == ()
    state = run(state, "d3, d6")
    assert RA.to_move(state) == 2 and RA.chance_count(state) == 5


def test_two_dice_are_one_chance_step_of_36_ordered_outcomes_first_die_major():
    state = run(position(2, {0: {0: (3, 5, "cw")}, 1: {0: (3, 12, "cw")}}), "roll")
    outcomes = RA.chance_outcomes(state)
    assert len(outcomes) == 36 and all(w == 1 for _, w in outcomes)
    assert [str(m) for m, _ in outcomes[:7]] == ["d1-1", "d1-2", "d1-3", "d1-4", "d1-5", "d1-6", "d2-1"]
    assert all((m.die, m.second) == (i // 6 + 1, i % 6 + 1) for i, (m, _) in enumerate(outcomes))


def test_the_fair_rng_vector_two_dice_at_k0_is_2_6():
    state = run(position(2, {0: {0: (3, 5, "cw")}, 1: {0: (3, 12, "cw")}}, chance_count=0), "roll")
    assert RA.chance_count(state) == 0
    assert str(fair_outcome(RA, state, SEED, "42")) == "d2-6"


# -- moving ---------------------------------------------------------------------
def test_a_ring_move_goes_the_way_the_dart_faces_and_wraps_from_bar_15_to_bar_0():
    state = position(2, {0: {0: (3, 14, "cw"), 1: (2, 1, "ccw")}, 1: {0: (3, 15, "ccw")}})
    state = run(state, "roll, d2-3, 0r2")  # passes over yellow's dart, which counts as a space
    assert where(state, 0, 0) == (3, 0)
    state = run(state, "1r3")
    assert where(state, 0, 1) == (2, 14)


def test_a_bar_move_goes_in_or_out_without_turning_and_stays_on_rings_1_to_5():
    state = run(position(2, {0: {0: (2, 4, "cw")}, 1: {0: (3, 12, "cw")}}), "roll, d3-1")
    assert "0o3" in legal(state) and "0i3" not in legal(state) and "0i1" in legal(state)
    state = run(state, "0o3")
    assert where(state, 0, 0) == (5, 4) and state.face[0] == 1
    assert "0o1" not in legal(state)


def test_each_die_moves_one_dart_the_full_value_same_or_different_dart():
    state = position(2, {0: {0: (2, 4, "cw"), 1: (4, 12, "cw")}, 1: {0: (3, 14, "cw")}})
    same = run(state, "roll, d2-3, 0r2, 0r3")
    assert where(same, 0, 0) == (2, 9)
    other = run(state, "roll, d2-3, 0r3, 1i2")
    assert where(other, 0, 0) == (2, 7) and where(other, 0, 1) == (2, 12)


def test_doubles_give_no_extra_roll_and_no_doubled_move():
    state = run(position(2, {0: {0: (2, 4, "cw")}, 1: {0: (3, 14, "cw")}}), "roll, d5-5, 0r5, 0r5")
    assert RA.to_move(state) == 1 and legal(state) == ["roll"]


def test_a_move_cannot_end_on_an_occupied_space():
    state = run(position(2, {0: {0: (2, 4, "cw"), 1: (2, 7, "cw")}, 1: {0: (2, 6, "cw")}}), "roll, d2-3")
    assert "0r2" not in legal(state) and "0r3" not in legal(state)


def test_the_player_must_use_a_die_that_can_be_used_and_then_the_second():
    state = run(position(2, {0: {0: (2, 4, "cw")}, 1: {0: (3, 14, "cw")}}), "roll, d2-3")
    assert "pass" not in legal(state)
    state = run(state, "0r2")
    assert "pass" not in legal(state) and legal(state)


def test_the_player_picks_which_die_to_use_first():
    state = run(position(2, {0: {0: (2, 4, "cw")}, 1: {0: (3, 14, "cw")}}), "roll, d2-3")
    assert {"0r2", "0r3"} <= set(legal(state))


def test_a_turn_ends_after_one_die_when_the_other_has_no_move():
    # After 0o3 the dart is on ring 5; with the 4 it cannot go out, in (ring 1) is taken, around is blocked.
    state = position(2, {0: {0: (2, 4, "cw")}, 1: {0: (1, 4, "cw"), 1: (5, 6, "cw"), 2: (5, 7, "cw")}})
    state = run(state, "roll, d3-4")
    state = run(state, "0o3")
    assert RA.to_move(state) == 1 and legal(state) == ["roll"]


def test_a_seat_with_no_choice_at_all_is_passed_over():
    # Red's only dart: around ring 1 it hits or passes yellow's ring block, outward yellow's.
    state = position(
        2, {0: {0: (1, 5, "cw")}, 1: {0: (1, 6, "cw"), 1: (1, 7, "cw"), 2: (2, 5, "cw"), 3: (2, 4, "cw")}}
    )
    assert not is_captured(state, 0, 0)
    state = run(state, "roll, d1-2")
    assert RA.to_move(state) == 1 and legal(state) == ["roll"] and state.turns == (1, 0)


# -- blocks ----------------------------------------------------------------------
def test_a_ring_block_stops_an_opponent_passing_but_not_its_owner():
    darts = {0: {0: (3, 5, "cw")}, 1: {0: (3, 7, "ccw"), 1: (3, 8, "ccw"), 2: (3, 10, "ccw")}}
    red = run(position(2, darts), "roll, d3-1")
    assert legal(red) == ["0r1", "0i1", "0o1"]  # 0r3 would pass (3, 7) and (3, 8)
    yellow = run(position(2, darts, turn=1), "roll, d4-1, 2r4")  # over its own block
    assert where(yellow, 1, 2) == (3, 6)


def test_a_bar_block_stops_ring_and_bar_moves_over_any_of_its_darts():
    darts = {0: {0: (1, 6, "cw"), 1: (3, 4, "cw")}, 1: {0: (2, 6, "cw"), 1: (3, 6, "cw"), 2: (5, 12, "cw")}}
    state = run(position(2, darts), "roll, d3-5")
    assert "0o3" not in legal(state)  # passes (2, 6) and (3, 6)
    assert "1r3" not in legal(state)  # passes (3, 6)
    assert "1r5" not in legal(state)


def test_a_single_opponent_dart_is_passed_over():
    darts = {0: {0: (3, 4, "cw")}, 1: {0: (3, 6, "cw"), 1: (5, 12, "cw")}}
    state = run(position(2, darts), "roll, d3-5")
    assert "0r3" in legal(state)


def test_ring_blocks_wrap_from_bar_15_to_bar_0():
    state = run(position(2, {0: {0: (2, 13, "cw")}, 1: {0: (2, 15, "ccw"), 1: (2, 0, "ccw")}}), "roll, d5-3")
    assert legal(state) == ["0o3"]


def test_in_three_player_games_a_block_stops_every_other_player():
    darts = {0: {0: (3, 5, "cw")}, 1: {0: (3, 12, "ccw")}, 2: {0: (3, 7, "cw"), 1: (3, 8, "cw")}}
    red = run(position(3, darts), "roll, d4-1")
    green = run(position(3, darts, turn=1), "roll, d6-1")
    assert "0r4" not in legal(red) and "0r4" not in legal(green)


# -- jumping doubles -----------------------------------------------------------------
def test_jumping_doubles_pass_over_blocks_but_are_never_required():
    darts = {0: {0: (3, 5, "cw")}, 1: {0: (3, 7, "ccw"), 1: (3, 8, "ccw")}}
    state = run(position(2, darts), "roll, d4-4")
    assert legal(state) == ["0r4", "pass"]  # the jump is the only move: pass is offered
    jumped = run(state, "0r4")
    assert where(jumped, 0, 0) == (3, 9)
    passed = run(state, "pass")
    assert RA.to_move(passed) == 1 and where(passed, 0, 0) == (3, 5)


def test_a_jump_does_not_count_as_an_available_move_so_a_normal_move_is_still_required():
    darts = {0: {0: (3, 5, "cw"), 1: (5, 14, "cw")}, 1: {0: (3, 7, "ccw"), 1: (3, 8, "ccw")}}
    state = run(position(2, darts), "roll, d2-2")
    assert "pass" not in legal(state) and "1r2" in legal(state)
    odd = run(position(2, darts), "roll, d1-1")
    assert "0r4" not in legal(odd)


@pytest.mark.parametrize("dice", ["d2-2", "d6-6"])
def test_jumping_doubles_move_one_or_two_darts_over_blocks(dice):
    v = int(dice[1])
    darts = {0: {0: (3, 7 - v + 1, "cw"), 1: (2, 7 - v + 1, "cw")}, 1: {0: (3, 7, "ccw"), 1: (2, 7, "ccw")}}
    state = run(position(2, darts), f"roll, {dice}, 0r{v}, 1r{v}")
    assert where(state, 0, 0)[1] == (7 - v + 1 + v) % 16 and where(state, 0, 1)[1] == (8) % 16


# -- reversing doubles ---------------------------------------------------------------
def test_reversing_doubles_turn_one_or_two_darts_instead_of_moving():
    darts = {0: {0: (3, 5, "cw"), 1: (2, 6, "ccw"), 2: (4, 1, "cw")}, 1: {0: (3, 12, "cw")}}
    state = run(position(2, darts), "roll, d3-3")
    assert {"rev 0", "rev 1", "0r3"} <= set(legal(state))
    assert "rev 2" not in legal(state), "a dart in its own home territory cannot be reversed"
    state = run(state, "rev 0")
    assert state.face[0] == -1
    assert legal(state) == ["rev 1", "pass"], "after a reversal: another reversal or the end of the turn"
    state = run(state, "rev 1")
    assert state.face[1] == 1 and RA.to_move(state) == 1


@pytest.mark.parametrize("dice", ["d1-1", "d3-3", "d5-5"])
def test_a_reversing_double_turns_at_most_two_darts_when_more_could_turn(dice):
    """The rulebook's "one or two": with four darts that could turn, the first
    reversal leaves the other three and "pass"; the second ends the turn."""
    darts = {0: {0: (3, 5, "cw"), 1: (2, 6, "ccw"), 2: (4, 7, "cw"), 3: (5, 13, "ccw")},
             1: {0: (3, 12, "cw")}}
    state = run(position(2, darts), f"roll, {dice}")
    before = state.face[:4]
    assert {"rev 0", "rev 1", "rev 2", "rev 3"} <= set(legal(state))
    state = run(state, "rev 2")
    assert legal(state) == ["rev 0", "rev 1", "rev 3", "pass"]
    state = run(state, "rev 0")
    assert RA.to_move(state) == 1 and state.phase == "roll", "the second reversal ends the turn"
    assert [state.face[i] * before[i] for i in range(4)] == [-1, 1, -1, 1], "darts 0 and 2 turned, no other"
    with pytest.raises((IllegalMoveError, InvalidMoveError)):
        RA.play(run(position(2, darts), f"roll, {dice}, rev 2, rev 0"), "rev 1")


def test_a_reversing_double_with_three_turnable_darts_may_turn_one_and_pass():
    darts = {0: {0: (3, 5, "cw"), 1: (2, 6, "ccw"), 2: (4, 7, "cw")}, 1: {0: (3, 12, "cw")}}
    start = position(2, darts)
    state = run(start, "roll, d5-5, rev 1, pass")
    assert RA.to_move(state) == 1
    assert [state.face[i] * start.face[i] for i in range(3)] == [1, -1, 1]


def test_a_state_mid_turn_after_two_reversals_is_not_a_stored_position():
    """Under the cap no seat is ever to move after two reversals, so such a
    stored state is refused when loaded (it has no choice)."""
    darts = {0: {0: (3, 5, "cw"), 1: (2, 6, "ccw"), 2: (4, 7, "cw")}, 1: {0: (3, 12, "cw")}}
    state = run(position(2, darts), "roll, d3-3, rev 0")
    data = RA.dump(state)
    data["reversed"] = [0, 1]
    with pytest.raises(InvalidStateError):
        RA.load(data)


def test_a_match_begun_before_the_cap_keeps_uncapped_reversals_so_it_replays_to_its_result():
    """States stored without "capped_reversals" (matches begun before the cap)
    load with the older rule: a reversal may follow each reversal while a dart
    can still turn. So their records replay to the results they had; new
    matches write the flag (docs/rules.md "Reversing doubles")."""
    darts = {0: {0: (3, 5, "cw"), 1: (2, 6, "ccw"), 2: (4, 7, "cw")}, 1: {0: (3, 12, "cw")}}
    old = position(2, darts, capped_reversals=False)
    assert "capped_reversals" not in RA.dump(old) and not RA.load(RA.dump(old)).capped_reversals
    state = run(old, "roll, d3-3, rev 0, rev 1")
    assert legal(state) == ["rev 2", "pass"]
    state = run(state, "rev 2")
    assert RA.to_move(state) == 1 and [state.face[i] * old.face[i] for i in range(3)] == [-1, -1, -1]
    assert RA.dump(RA.new_match(2))["capped_reversals"] is True
    assert RA.load(RA.dump(RA.new_match(4))).capped_reversals


def test_reversing_is_instead_of_the_roll_not_after_a_move():
    darts = {0: {0: (3, 5, "cw"), 1: (2, 6, "ccw")}, 1: {0: (3, 12, "cw")}}
    state = run(position(2, darts), "roll, d1-1, 0r1")
    assert not any(m.startswith("rev") for m in legal(state))


def test_captured_darts_cannot_be_reversed():
    darts = {0: {0: (4, 5, "cw"), 1: (2, 12, "cw")}, 1: {0: (2, 5, "cw"), 1: (3, 5, "cw")}}
    state = position(2, darts)
    assert is_captured(state, 0, 0)
    state = run(state, "roll, d5-5")
    assert "rev 0" not in legal(state) and "rev 1" in legal(state)


# -- captures --------------------------------------------------------------------------
def test_a_capture_needs_a_lone_dart_beside_two_darts_of_one_other_player_on_a_bar():
    caught = position(2, {0: {0: (2, 5, "cw"), 1: (3, 5, "cw")}, 1: {0: (4, 5, "cw")}})
    assert is_captured(caught, 1, 0)
    two = position(2, {0: {0: (2, 5, "cw"), 1: (3, 5, "cw")}, 1: {0: (4, 5, "cw"), 1: (1, 5, "cw")}})
    assert not is_captured(two, 1, 0) and not is_captured(two, 1, 1), "the victim has one dart on that bar"
    gap = position(2, {0: {0: (1, 5, "cw"), 1: (3, 5, "cw")}, 1: {0: (5, 5, "cw")}})
    assert not is_captured(gap, 1, 0)
    middle = position(2, {0: {0: (2, 5, "cw"), 1: (4, 5, "cw")}, 1: {0: (3, 5, "cw")}})
    assert is_captured(middle, 1, 0)


def test_a_capture_is_evaluated_on_the_completed_turn_so_it_can_be_left_with_the_second_die():
    darts = {0: {0: (2, 5, "cw"), 1: (3, 5, "cw")}, 1: {0: (4, 7, "ccw"), 1: (1, 12, "cw")}}
    state = run(position(2, darts, turn=1), "roll, d2-1, 0r2")  # yellow walks in beside red's pair
    assert where(state, 1, 0) == (4, 5) and not is_captured(state, 1, 0), "not evaluated mid-turn"
    stays = run(state, "1o1")
    assert is_captured(stays, 1, 0), "evaluated when the turn is complete"
    leaves = run(state, "0r1")
    assert where(leaves, 1, 0) == (4, 4) and not any(leaves.captured)


def test_a_capture_pattern_formed_with_the_first_die_and_left_with_the_second_does_not_stand():
    darts = {0: {0: (2, 5, "cw"), 1: (3, 3, "cw"), 2: (5, 12, "cw")}, 1: {0: (4, 5, "cw"), 1: (1, 12, "cw")}}
    state = run(position(2, darts), "roll, d2-1, 1r2")
    assert where(state, 0, 1) == (3, 5) and not is_captured(state, 1, 0)
    left = run(state, "1r1")
    assert not is_captured(left, 1, 0)
    stays = run(state, "2i1")
    assert is_captured(stays, 1, 0)


def test_a_captured_dart_cannot_move():
    darts = {0: {0: (2, 5, "cw"), 1: (3, 5, "cw")}, 1: {0: (4, 5, "cw"), 1: (1, 12, "cw")}}
    state = run(position(2, darts, turn=1), "roll, d2-1")
    assert all(not m.startswith("0") for m in legal(state))
    with pytest.raises(IllegalMoveError, match="captured"):
        RA.play(state, "0r1")


def test_the_victim_cannot_end_its_turn_with_a_second_dart_on_that_bar():
    darts = {0: {0: (2, 5, "cw"), 1: (3, 5, "cw")}, 1: {0: (4, 5, "cw"), 1: (5, 3, "cw")}}
    state = run(position(2, darts, turn=1), "roll, d2-3")
    assert "1r2" in legal(state), "landing there is allowed when the second die can leave"
    state = run(state, "1r2")
    assert where(state, 1, 1) == (5, 5)
    assert legal(state) == ["1r3"], "the second die must take it off the bar"
    state = run(state, "1r3")
    assert where(state, 1, 1) == (5, 8) and is_captured(state, 1, 0)


def test_a_first_die_onto_the_victims_bar_is_illegal_when_the_second_cannot_leave():
    darts = {0: {0: (2, 5, "cw"), 1: (3, 5, "cw"), 2: (5, 6, "cw")}, 1: {0: (4, 5, "cw"), 1: (5, 3, "cw")}}
    state = run(position(2, darts, turn=1), "roll, d2-1")
    assert "1r2" not in legal(state)


def test_the_victim_may_pass_over_its_captured_bar():
    darts = {0: {0: (2, 5, "cw"), 1: (3, 5, "cw")}, 1: {0: (4, 5, "cw"), 1: (5, 3, "cw")}}
    state = run(position(2, darts, turn=1), "roll, d4-1, 1r4")
    assert where(state, 1, 1) == (5, 7)


def test_a_timeout_after_a_first_die_onto_the_victims_bar_takes_that_move_back():
    darts = {0: {0: (2, 5, "cw"), 1: (3, 5, "cw")}, 1: {0: (4, 5, "cw"), 1: (5, 3, "cw")}}
    state = run(position(2, darts, turn=1), "roll, d2-3, 1r2")
    assert RA.timeout_move(state) == parse_move("timeout")
    state = RA.play(state, "timeout")
    assert where(state, 1, 1) == (5, 3) and RA.to_move(state) == 0


def test_a_timeout_after_an_ordinary_first_die_keeps_that_move():
    state = run(position(2, {0: {0: (2, 4, "cw")}, 1: {0: (3, 14, "cw")}}), "roll, d2-3, 0r2, timeout")
    assert where(state, 0, 0) == (2, 6) and RA.to_move(state) == 1


def test_a_capture_ends_as_soon_as_the_pattern_no_longer_holds():
    darts = {0: {0: (2, 5, "cw"), 1: (3, 5, "cw")}, 1: {0: (4, 5, "cw"), 1: (1, 12, "cw")}}
    state = run(position(2, darts), "roll, d1-2, 1r1, 1r2")  # red's pair breaks up
    assert not is_captured(state, 1, 0)
    state = run(state, "roll, d1-2")
    assert "0r1" in legal(state)


def test_a_player_whose_darts_are_all_captured_passes():
    darts = {0: {0: (2, 5, "cw"), 1: (3, 5, "cw"), 2: (3, 14, "cw")}, 1: {0: (4, 5, "cw")}}
    state = run(position(2, darts), "roll, d1-2, 2r1, 2r2")
    assert RA.to_move(state) == 0 and legal(state) == ["roll"], "yellow's turn is passed over"
    assert state.turns == (1, 1)


def test_with_three_players_one_pair_captures_two_victims_and_only_victims_are_restricted():
    darts = {
        0: {0: (2, 5, "cw"), 1: (3, 5, "cw")},
        1: {0: (1, 5, "cw"), 1: (5, 12, "cw")},
        2: {0: (4, 5, "cw"), 1: (5, 3, "cw")},
    }
    state = position(3, darts, turn=2)
    assert is_captured(state, 1, 0) and is_captured(state, 2, 0)
    # Yellow's second dart may stop on bar 5 only to leave it with the other die ...
    yellow = run(state, "roll, d2-1, 1r2")
    assert legal(yellow) == ["1r1"]
    # ... but a player who is not a victim there may end its turn on that bar.
    state4 = position(
        4,
        {
            0: {0: (2, 5, "cw"), 1: (3, 5, "cw")},
            1: {0: (1, 5, "cw")},
            2: {0: (4, 12, "cw")},
            3: {0: (5, 3, "cw"), 1: (1, 14, "cw")},
        },
        turn=3,
    )
    assert is_captured(state4, 1, 0)
    blue = run(state4, "roll, d2-1, 0r2, 1o1")
    assert where(blue, 3, 0) == (5, 5) and RA.to_move(blue) == 0


# -- ringers ---------------------------------------------------------------------------
def test_a_two_player_ringer_holds_one_ring_on_all_four_bars_of_the_opponents_territory():
    darts = {
        0: {0: (3, 8, "cw"), 1: (3, 9, "cw"), 2: (3, 10, "cw"), 3: (3, 6, "cw"), 4: (1, 14, "cw")},
        1: {0: (4, 9, "cw"), 1: (5, 9, "cw")},
    }
    state = position(2, darts)
    assert is_captured(state, 0, 1)
    state = run(state, "roll, d5-1, 3r5")
    assert [where(state, 0, i) for i in range(4)] == [None] * 4, "the ringer frees the captured dart too"
    assert where(state, 0, 4) == (1, 14)
    assert not any(state.captured)


def test_three_of_four_bars_are_no_ringer_with_two_players():
    darts = {0: {0: (3, 8, "cw"), 1: (3, 9, "cw"), 2: (3, 6, "cw")}, 1: {0: (5, 12, "cw")}}
    state = run(position(2, darts), "roll, d4-1, 2r4")
    assert where(state, 0, 2) == (3, 10) and where(state, 0, 0) == (3, 8)


def test_with_three_players_three_consecutive_bars_of_the_opposite_territory_make_a_ringer():
    darts = {0: {0: (2, 8, "cw"), 1: (2, 9, "cw"), 2: (2, 6, "cw"), 3: (2, 11, "cw")}, 1: {0: (5, 4, "cw")}}
    state = run(position(3, darts), "roll, d4-1, 2r4")
    assert [where(state, 0, i) for i in range(4)] == [None] * 4, "a run of four removes all four"
    darts = {0: {0: (2, 8, "cw"), 1: (2, 9, "cw"), 2: (2, 6, "cw"), 3: (1, 0, "cw")}, 1: {0: (5, 4, "cw")}}
    state = run(position(3, darts), "roll, d4-1, 2r4")
    assert [where(state, 0, i) for i in range(3)] == [None] * 3 and where(state, 0, 3) == (1, 0)


def test_with_three_players_bars_that_are_not_consecutive_make_no_ringer():
    darts = {0: {0: (2, 8, "cw"), 1: (2, 11, "cw"), 2: (2, 6, "cw")}, 1: {0: (5, 4, "cw")}}
    state = run(position(3, darts), "roll, d3-1, 2r3")
    assert where(state, 0, 2) == (2, 9) and where(state, 0, 0) == (2, 8)


# -- going home and winning -------------------------------------------------------------
def test_a_dart_that_has_made_a_circuit_leaves_the_board_on_landing_at_home():
    darts = {0: {0: (3, 14, "cw"), 1: (1, 6, "cw")}, 1: {0: (5, 12, "cw")}}
    state = run(position(2, darts, circuit={(0, 0)}), "roll, d3-1, 0r3")
    assert where(state, 0, 0) is None


def test_without_a_circuit_a_dart_at_home_stays():
    darts = {0: {0: (3, 14, "cw"), 1: (1, 6, "cw")}, 1: {0: (5, 12, "cw")}}
    state = run(position(2, darts), "roll, d3-1, 0r3")
    assert where(state, 0, 0) == (3, 1)


def test_passing_over_the_opposite_territory_completes_the_circuit():
    darts = {0: {0: (3, 6, "cw"), 1: (1, 6, "cw")}, 1: {0: (5, 12, "cw")}}
    state = run(position(2, darts), "roll, d3-1, 0r3")
    assert state.circuit[0] is True


def test_a_dart_that_overshoots_home_must_circle_again():
    darts = {0: {0: (3, 15, "cw"), 1: (1, 6, "cw")}, 1: {0: (5, 12, "cw")}}
    state = run(position(2, darts, circuit={(0, 0)}), "roll, d6-1, 0r6")
    assert where(state, 0, 0) == (3, 5) and state.circuit[0] is False


def test_a_dart_goes_home_even_onto_a_space_that_would_capture_it():
    darts = {0: {0: (3, 14, "cw"), 1: (1, 6, "cw")}, 1: {0: (2, 1, "cw"), 1: (1, 1, "cw")}}
    state = run(position(2, darts, circuit={(0, 0)}), "roll, d3-1, 0r3")
    assert where(state, 0, 0) is None


def test_the_first_player_to_remove_every_dart_wins():
    darts = {0: {0: (3, 14, "cw")}, 1: {0: (5, 12, "cw")}}
    state = run(position(2, darts, circuit={(0, 0)}), "roll, d3-1, 0r3")
    assert RA.to_move(state) is None and RA.legal_moves(state) == []
    outcome = RA.outcome(state)
    assert outcome.ranks == (1, 2) and outcome.reason == "finished"


# -- Golden Rule -------------------------------------------------------------------------
THREE = {0: {0: (3, 5, "cw")}, 1: {0: (3, 12, "cw")}, 2: {0: (2, 8, "ccw")}}


def test_the_golden_rule_lets_the_roller_offer_the_roll_naming_opponents_in_order():
    state = run(position(3, THREE), "roll, d3-4")
    offers = [m for m in legal(state) if m.startswith("offer")]
    assert offers == ["offer 1", "offer 2", "offer 1 2", "offer 2 1"]
    two = run(position(2, {0: {0: (3, 5, "cw")}, 1: {0: (3, 12, "cw")}}), "roll, d3-4")
    assert not any(m.startswith("offer") for m in legal(two)), "only with 3 or 4 players"


def test_the_first_acceptor_plays_the_roll_and_play_resumes_after_the_roller():
    state = run(position(3, THREE), "roll, d3-4, offer 2 1")
    assert RA.to_move(state) == 2 and legal(state) == ["accept", "decline"]
    state = run(state, "decline")
    assert RA.to_move(state) == 1
    state = run(state, "accept")
    assert RA.to_move(state) == 1 and "0r3" in legal(state)
    assert not any(m.startswith("offer") for m in legal(state))
    state = run(state, "0r3, 0r4")
    assert where(state, 1, 0) == (3, 3)
    assert RA.to_move(state) == 1 and legal(state) == ["roll"], "seat 1 is next after the roller anyway"
    assert state.turns == (1, 0, 0)


def test_when_every_offered_opponent_declines_the_roller_must_play():
    state = run(position(3, THREE), "roll, d3-4, offer 1 2, decline, decline")
    assert RA.to_move(state) == 0
    assert not any(m.startswith("offer") for m in legal(state)) and "pass" not in legal(state)


def test_an_offer_that_times_out_is_a_decline():
    state = run(position(3, THREE), "roll, d3-4, offer 1")
    assert str(RA.timeout_move(state)) == "decline"
    assert RA.timeout_move(state) in RA.legal_moves(state)
    state = RA.play(state, RA.timeout_move(state))
    assert RA.to_move(state) == 0


def test_an_acceptor_gets_the_powers_of_doubles():
    state = run(position(3, THREE), "roll, d3-3, offer 1, accept")
    assert "rev 0" in legal(state) and RA.to_move(state) == 1


def test_an_offered_seat_that_leaves_counts_as_declining():
    state = run(position(3, THREE), "roll, d3-4, offer 1 2")
    state = RA.play(state, "leave 1")
    assert RA.to_move(state) == 2 and legal(state) == ["accept", "decline"]


# -- pass, timeouts, the end of every match -------------------------------------------------
def test_pass_is_offered_only_where_every_choice_is_optional():
    state = run(position(3, THREE), "roll, d3-4")
    assert "pass" not in legal(state)
    stuck = {
        0: {0: (1, 5, "cw")},
        1: {0: (1, 6, "cw"), 1: (1, 7, "cw"), 2: (2, 5, "cw"), 3: (2, 4, "cw")},
        2: {0: (5, 12, "cw")},
    }
    state = run(position(3, stuck), "roll, d1-2")
    assert legal(state)[-1] == "pass" and all(m.startswith("offer") for m in legal(state)[:-1])


def test_a_timeout_before_rolling_ends_the_turn():
    state = RA.play(position(2, {0: {0: (3, 5, "cw")}, 1: {0: (3, 12, "cw")}}), "timeout")
    assert RA.to_move(state) == 1 and state.turns == (1, 0)


def test_a_full_round_without_a_dart_moving_ends_the_match_ranked_by_darts_left():
    stuck = {
        0: {0: (1, 5, "cw")},
        1: {0: (1, 6, "cw"), 1: (1, 7, "cw"), 2: (2, 5, "cw"), 3: (2, 4, "cw")},
    }
    state = run(position(2, stuck, idle=1, turn=0), "roll, d1-2")
    assert RA.to_move(state) is None
    outcome = RA.outcome(state)
    assert outcome.reason == "stalled" and outcome.ranks == (1, 2)


def test_the_stall_count_runs_over_consecutive_turns_from_any_seat_not_from_the_starting_seat():
    # Seat 1 is to roll and the count already holds one idle turn (seat 0's):
    # seat 1's idle turn completes the full round of two, wherever it began.
    stuck = {
        0: {0: (1, 5, "cw")},
        1: {0: (1, 6, "cw"), 1: (1, 7, "cw"), 2: (2, 5, "cw"), 3: (2, 4, "cw")},
    }
    state = position(2, stuck, idle=1, turn=1)
    state = run(state, "roll, d6-6")
    assert RA.legal_moves(state), "seat 1 has a move: nothing stalls before it is played"
    state = run(state, "timeout")
    assert RA.to_move(state) is None and RA.outcome(state).reason == "stalled"


def test_a_turn_spent_only_turning_darts_counts_as_a_turn_without_a_dart_moving():
    darts = {0: {0: (3, 5, "cw"), 1: (2, 6, "ccw")}, 1: {0: (3, 12, "cw")}}
    state = run(position(2, darts, idle=0), "roll, d3-3, rev 0, rev 1")
    assert state.face[:2] == (-1, 1) and RA.to_move(state) == 1
    assert state.idle == 1, "turning is not moving: the stall count goes on"
    state = run(state, "roll, d1-2, timeout")  # seat 1 lets its time run out: the second idle turn
    assert RA.to_move(state) is None and RA.outcome(state).reason == "stalled"


def test_players_turning_darts_back_and_forth_cannot_keep_a_match_alive():
    darts = {0: {0: (3, 5, "cw")}, 1: {0: (3, 12, "cw")}}
    state = run(position(2, darts), "roll, d1-1, rev 0")
    assert RA.to_move(state) == 1 and state.idle == 1
    state = run(state, "roll, d5-5, rev 0")
    assert RA.to_move(state) is None and RA.outcome(state).reason == "stalled"


def test_a_state_stored_before_the_turning_decision_keeps_its_rule_when_loaded():
    """States stored without "turning_moves" load with the older rule (turning
    resets the count), so stored matches replay to the result they had; new
    matches write the flag."""
    darts = {0: {0: (3, 5, "cw"), 1: (2, 6, "ccw")}, 1: {0: (3, 12, "cw")}}
    old = position(2, darts, turning_moves=True)
    assert "turning_moves" not in RA.dump(old) and old.turning_moves
    assert RA.load(RA.dump(old)).turning_moves
    state = run(old, "roll, d3-3, rev 0, rev 1")
    assert state.idle == 0, "under the older rule a turn of turning resets the count"
    assert RA.dump(RA.new_match(2))["turning_moves"] is False
    assert not RA.load(RA.dump(RA.new_match(3))).turning_moves


def test_a_match_ends_after_300_turns_per_player():
    state = position(
        2, {0: {0: (3, 5, "cw"), 1: (3, 6, "cw")}, 1: {0: (3, 12, "cw")}}, turn=1, turns=[300, 299]
    )
    state = RA.play(state, "timeout")
    outcome = RA.outcome(state)
    assert outcome.reason == "turn_limit" and outcome.ranks == (2, 1)


def test_tied_counts_share_a_place_when_a_match_stalls():
    stuck = {0: {0: (1, 5, "cw")}, 1: {0: (1, 6, "cw")}}
    state = position(2, stuck, idle=1, turns=[299, 299])
    state = RA.play(state, "timeout")
    assert RA.outcome(state).ranks == (1, 1)


# -- leaving -------------------------------------------------------------------------------
def test_a_leavers_darts_leave_the_board_and_the_last_player_standing_wins():
    state = run(RA.new_match(3), "d6, d1, d1")
    state = RA.play(state, "leave 0")
    assert all(p < 0 for p in state.pos[:8]) and RA.to_move(state) == 1
    state = RA.play(state, "leave 2")
    outcome = RA.outcome(state)
    assert outcome.reason == "last_player_standing" and outcome.ranks == (3, 1, 2)


def test_a_seat_leaving_during_the_roll_off_drops_out_of_it():
    state = run(RA.new_match(3), "d5, d5")
    state = RA.play(state, "leave 2")
    assert RA.to_move(state) == CHANCE and state.rolloff == (0, 1)
    state = run(state, "d2, d4")
    assert RA.to_move(state) == 1


def test_leave_and_timeout_are_refused_where_they_make_no_sense():
    state = run(RA.new_match(2), "d6, d1")
    state = RA.play(state, "leave 1")
    with pytest.raises(IllegalMoveError):
        RA.leave_move(state, 0)
    with pytest.raises(IllegalMoveError):
        RA.timeout_move(RA.new_match(2))


# -- notation, views, persistence --------------------------------------------------------------
def test_every_move_has_a_notation_that_parses_back():
    for text in ["d4", "d2-6", "roll", "3r5", "0i2", "9o6", "rev 3", "offer 2 1", "accept", "decline", "pass",
                 "timeout", "leave 2"]:  # fmt: skip
        assert str(parse_move(text)) == text
        assert parse_move(f"  {text.upper()} ".lower()) is parse_move(text)
    assert all(str(parse_move(str(m))) == str(m) for m in DICE)


@pytest.mark.parametrize("text", ["", "3x5", "3r7", "10r1", "offer", "offer 1 1", "d7", "d0-1", "rev", 5])
def test_bad_notation_is_an_invalid_move(text):
    with pytest.raises(InvalidMoveError):
        parse_move(text)


def test_an_illegal_move_says_why():
    state = run(position(2, {0: {0: (3, 5, "cw")}, 1: {0: (3, 12, "cw")}}), "roll, d3-4")
    with pytest.raises(IllegalMoveError, match="unused die"):
        RA.play(state, "0r6")
    with pytest.raises(IllegalMoveError, match="roll"):
        RA.play(position(2, {0: {0: (3, 5, "cw")}, 1: {0: (3, 12, "cw")}}), "0r1")


def test_the_view_is_the_whole_public_position_and_rebuilds_the_state():
    state = run(position(3, THREE), "roll, d3-4")
    view = json.loads(json.dumps(RA.view(state, 0)))
    assert view["dice"] == [3, 4] and view["unused"] == [3, 4] and view["mover"] == 0
    dart = view["seats"][0]["darts"][0]
    assert (dart["ring"], dart["bar"], dart["facing"]) == (3, 5, "cw")
    move = next(m for m in view["moves"] if m["move"] == "0r3")
    assert (move["dart"], move["die"], move["direction"], move["to"]) == (0, 3, "ring", 2 * 16 + 8)
    assert RA.sample_state(view, 0, None) == state
    assert view["private"] == {} and RA.view(state, None)["viewer"] is None


def test_load_rejects_states_that_break_the_rules():
    data = RA.dump(RA.new_match(2))
    bad = json.loads(json.dumps(data))
    bad["darts"][0][1][0] = bad["darts"][0][0][0]
    with pytest.raises(InvalidStateError, match="share"):
        RA.load(bad)
    with pytest.raises(InvalidStateError):
        RA.load({"game": "ludo"})
    with pytest.raises(InvalidStateError):
        RA.load({**data, "phase": "dance"})


def test_a_fair_record_verifies_against_the_seed_and_a_tampered_one_does_not():
    from games.engine.fair import commitment, verify_record

    state = RA.new_match(3)
    start, record = RA.dump(state), []
    for _ in range(120):
        move = fair_outcome(RA, state, SEED, "7") if RA.to_move(state) == CHANCE else RA.legal_moves(state)[0]
        record.append(str(move))
        state = RA.play(state, move)
    report = verify_record("roundabout", SEED.hex(), "7", start, record, commitment(SEED))
    assert report.ok and report.chance_steps > 20
    ply = next(i for i, m in enumerate(record) if "-" in m and i > 10)
    tampered = record[:ply] + ["d6-6" if record[ply] != "d6-6" else "d5-5"] + record[ply + 1 :]
    assert verify_record("roundabout", SEED.hex(), "7", start, tampered).mismatch.ply == ply


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seats_that_always_turn_darts_never_turn_more_than_two_in_a_turn(players):
    """Seeded playouts in which a seat takes a reversal whenever one is offered,
    from positions where three or more darts can turn: no turn ever holds a third."""
    import random

    rng = random.Random(players)
    seen_three_turnable = 0
    for _match in range(6):
        state = RA.new_match(players)
        for _ply in range(3000):
            who = RA.to_move(state)
            if who is None:
                break
            if who == CHANCE:
                move = rng.choice([m for m, _ in RA.chance_outcomes(state)])
            else:
                moves = RA.legal_moves(state)
                turns = [m for m in moves if m.kind == "reverse"]
                if turns and not state.reversed and len(turns) >= 3:
                    seen_three_turnable += 1
                move = rng.choice(turns) if turns else rng.choice(moves)
            state = RA.play(state, move)
            assert len(state.reversed) <= 2
            if len(state.reversed) == 2:
                raise AssertionError("a seat is still to move after turning two darts")
    assert seen_three_turnable > 0
