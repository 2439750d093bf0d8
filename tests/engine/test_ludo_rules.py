"""Ludo scenarios, each reached by playing chosen moves and chance outcomes
(the Ludo rule text, rules 1-12; docs/rules.md "Common" and "Ludo")."""

import pytest

from games.engine import (
    CHANCE,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    Outcome,
    UnknownGameError,
    get_rules,
)
from games.engine.base import leaver_ranks
from games.ludo.engine import LudoMove, parse_move
from games.ludo.engine.board import BASE, HOME

from .helpers import LUDO, TO_HOME, drive, pieces_of, run


def red(dice, piece=0):
    return [(d, piece) for d in dice]


def two_player_red_at(progress_dice):
    return drive(run(LUDO.new_match(2), "s0"), 0, red(progress_dice))


TO_54 = (6, 6, 5, 6, 6, 5, 6, 6, 5, 6, 3)


def test_registry_gives_ludo_and_rejects_unknown_games():
    assert get_rules("ludo").name == "ludo"
    with pytest.raises(UnknownGameError, match="chess"):
        get_rules("chess")
    assert issubclass(UnknownGameError, ValueError)


@pytest.mark.parametrize("players", [0, 1, 5, "2", 2.0])
def test_new_match_rejects_bad_player_counts(players):
    with pytest.raises(InvalidOptionsError):
        LUDO.new_match(players)


def test_new_match_rejects_unknown_or_non_bool_options():
    with pytest.raises(InvalidOptionsError, match="colour"):
        LUDO.new_match(2, {"colour": "red"})
    with pytest.raises(InvalidOptionsError, match="autoplay_forced"):
        LUDO.new_match(2, {"autoplay_forced": "yes"})
    assert LUDO.new_match(2, {"autoplay_forced": False}).autoplay_forced is False


def test_the_start_is_chance_step_zero_with_one_outcome_per_seat():
    state = LUDO.new_match(3)
    assert LUDO.to_move(state) == CHANCE
    assert LUDO.chance_count(state) == 0
    assert [(str(m), w) for m, w in LUDO.chance_outcomes(state)] == [("s0", 1), ("s1", 1), ("s2", 1)]
    state = LUDO.play(state, "s2")
    assert LUDO.to_move(state) == 2
    assert [str(m) for m in LUDO.legal_moves(state)] == ["roll"]
    state = LUDO.play(state, "roll")
    assert LUDO.chance_count(state) == 1
    assert [str(m) for m, _ in LUDO.chance_outcomes(state)] == ["d1", "d2", "d3", "d4", "d5", "d6"]


def test_a_piece_enters_only_on_a_six_onto_its_start_cell():
    state = run(LUDO.new_match(2), "s1 roll d6")
    assert [str(m) for m in LUDO.legal_moves(state)] == ["p0", "p1", "p2", "p3"]
    state = LUDO.play(state, "p2")
    assert pieces_of(state, 1) == [BASE, BASE, 0, BASE]
    assert LUDO.view(state, None)["seats"][1]["pieces"][2]["cell"] == 26  # yellow starts at 13*2


def test_54_plus_2_reaches_home():
    state = two_player_red_at(TO_54)
    assert pieces_of(state, 0) == [54, BASE, BASE, BASE]
    state = drive(state, 0, [(2, 0)])
    assert pieces_of(state, 0)[0] == HOME
    assert LUDO.to_move(state) == 1, "reaching home gives no bonus roll (rule 9)"


def test_54_plus_3_has_no_move_and_the_turn_passes():
    state = two_player_red_at(TO_54)
    state = drive(state, 0, [(3, None)])
    assert pieces_of(state, 0)[0] == 54
    assert LUDO.to_move(state) == 1
    assert [str(m) for m in LUDO.legal_moves(state)] == ["roll"]


def test_a_piece_may_not_pass_home_and_the_error_names_the_move_and_rule():
    state = two_player_red_at(TO_54)
    state = run(state, "roll d1 roll d6")  # seat 1 passes; red rolls a 6: only entering is legal
    assert [str(m) for m in LUDO.legal_moves(state)] == ["p1", "p2", "p3"]
    with pytest.raises(IllegalMoveError, match=r"p0 is not legal here: .*exact"):
        LUDO.play(state, "p0")


def test_three_sixes_forfeit_the_third_roll_but_earlier_moves_stay():
    state = run(LUDO.new_match(2), "s0 roll d6 p0 roll d6 p0")
    assert pieces_of(state, 0) == [6, BASE, BASE, BASE]
    assert LUDO.view(state, 0)["sixes"] == 2
    state = run(state, "roll d6")
    assert pieces_of(state, 0) == [6, BASE, BASE, BASE]
    assert LUDO.to_move(state) == 1
    assert state.sixes == 0


def test_sixes_are_counted_within_one_turn_only():
    state = run(LUDO.new_match(2), "s0 roll d6 p0 roll d6 p0 roll d2 p0")
    state = run(state, "roll d1")  # seat 1 passes
    state = run(state, "roll d6 p0")
    assert LUDO.to_move(state) == 0 and state.sixes == 1


def test_a_capture_on_a_plain_cell_sends_every_piece_of_that_opponent_there_to_base():
    state = run(LUDO.new_match(4), "s0")
    state = drive(state, 0, red((6, 6, 4)))  # red: cell 10
    state = drive(state, 1, [(6, 0), (6, 1), (3, 0)])  # green: pieces on 16 and 13
    state = drive(state, 1, [(3, 1)])  # green: both pieces on cell 16
    assert pieces_of(state, 1) == [3, 3, BASE, BASE]
    state = drive(state, 0, [(2, 0)])  # red: cell 12
    state = drive(state, 2, [(6, 0)])  # yellow enters on 26, a start cell
    state = run(state, "roll d1 p0")  # yellow: piece 0 to 27
    state = run(state, "roll d1")  # blue has no piece out: passes
    assert pieces_of(state, 2) == [1, BASE, BASE, BASE]
    state = run(state, "roll d4")
    labels = [m["label"] for m in LUDO.view(state, 0)["moves"]]
    assert labels == ["Move piece 0 forward 4, capturing green"]
    state = run(state, "p0")
    assert pieces_of(state, 0)[0] == 16
    assert pieces_of(state, 1) == [BASE] * 4
    assert pieces_of(state, 2) == [1, BASE, BASE, BASE], "only the pieces on that cell go back"
    assert LUDO.to_move(state) == 1, "a capture gives no bonus roll (rule 9)"


def test_no_capture_on_a_start_cell_and_a_star_cell_step_by_step():
    state = run(LUDO.new_match(4), "s1")
    state = drive(state, 1, [(6, 0), (6, 1), (2, 1), (6, 1), (5, None)])  # green on 13 and 21
    state = drive(state, 0, red((6, 6, 1)))  # red on 7
    state = drive(state, 0, [(6, 0)])  # red to 13: green's start cell, safe
    assert pieces_of(state, 0)[0] == 13
    assert pieces_of(state, 1) == [0, 8, BASE, BASE]
    state = run(state, "roll d6 p0 roll d2 p0")  # red to 19 then 21: green's star, safe
    assert pieces_of(state, 0)[0] == 21
    assert pieces_of(state, 1) == [0, 8, BASE, BASE]


def test_own_pieces_share_cells_and_no_blockade_stops_anyone():
    state = run(LUDO.new_match(2), "s1 roll d6 p0 roll d6 p1 roll d1 p0")  # yellow 27 and 26... then 27
    state = run(state, "roll d1")  # red passes
    state = run(state, "roll d1 p1")
    assert pieces_of(state, 1)[:2] == [1, 1]


def test_a_six_with_no_move_rolls_again():
    state = run(LUDO.new_match(2), "s0")
    state = drive(state, 0, red(TO_HOME, 0) + red(TO_HOME, 1) + red(TO_HOME, 2))
    state = drive(state, 0, red((6, 6, 5, 6, 6, 5, 6, 6, 5, 6, 1), 3))
    assert pieces_of(state, 0) == [HOME, HOME, HOME, 52]
    state = drive(state, 0, [(6, None)])
    assert LUDO.to_move(state) == 0
    assert [str(m) for m in LUDO.legal_moves(state)] == ["roll"]
    assert state.sixes == 1


def test_first_home_wins_and_all_who_stayed_share_second():
    state = run(LUDO.new_match(4), "s0 leave 3")
    state = drive(state, 0, red(TO_HOME, 0) + red(TO_HOME, 1) + red(TO_HOME, 2) + red(TO_HOME, 3))
    assert LUDO.to_move(state) is None
    assert LUDO.legal_moves(state) == []
    assert LUDO.outcome(state) == Outcome((1, 2, 2, 4), "finished")
    assert LUDO.seat_status(state) == ["done", "done", "done", "left"]
    with pytest.raises(IllegalMoveError, match="over"):
        LUDO.play(state, "roll")
    with pytest.raises(IllegalMoveError, match="over"):
        LUDO.leave_move(state, 1)


def test_leavers_rank_below_all_who_stayed_the_earlier_lower():
    assert leaver_ranks(4, (2,), (0, 3)) == (4, 2, 1, 3)
    state = run(LUDO.new_match(3), "s0 leave 2 leave 1")
    assert LUDO.outcome(state) == Outcome((1, 2, 3), "last_player_standing")


def test_a_leavers_pieces_leave_the_board_and_others_continue():
    state = run(LUDO.new_match(3), "s0 roll d6 p0 roll d1 p0")  # red on 1
    state = drive(state, 1, [(6, 0), (1, 0)])  # green on 14
    assert LUDO.to_move(state) == 2
    state = LUDO.play(state, LUDO.leave_move(state, 0))
    assert pieces_of(state, 0) == [BASE] * 4
    assert LUDO.seat_status(state) == ["left", "playing", "playing"]
    assert LUDO.to_move(state) == 2
    assert all(p["where"] == "removed" for p in LUDO.view(state, None)["seats"][0]["pieces"])
    state = run(state, "roll d1")  # yellow passes; the turn skips the leaver
    assert LUDO.to_move(state) == 1


def test_leaving_on_ones_own_turn_passes_the_turn_even_at_the_die():
    state = run(LUDO.new_match(3), "s1 roll")
    assert LUDO.to_move(state) == CHANCE
    state = LUDO.play(state, "leave 1")
    assert LUDO.to_move(state) == 2
    assert LUDO.chance_count(state) == 1, "the abandoned roll is no chance step"


def test_a_drawn_starting_seat_that_has_left_hands_the_start_to_the_next_seat():
    state = run(LUDO.new_match(3), "leave 1")
    assert LUDO.to_move(state) == CHANCE
    assert len(LUDO.chance_outcomes(state)) == 3, "the start keeps N equal outcomes"
    assert LUDO.to_move(LUDO.play(state, "s1")) == 2


def test_leave_move_rejects_seats_out_of_range_or_gone():
    state = run(LUDO.new_match(3), "s0 leave 1")
    with pytest.raises(IllegalMoveError, match="already left"):
        LUDO.leave_move(state, 1)
    with pytest.raises(IllegalMoveError, match="already left"):
        LUDO.play(state, "leave 1")
    with pytest.raises(IllegalMoveError, match="seats 0..2"):
        LUDO.play(state, "leave 3")
    with pytest.raises(IllegalMoveError):
        LUDO.leave_move(state, 7)


def test_timeout_before_rolling_passes_the_turn():
    state = run(LUDO.new_match(2), "s0")
    assert str(LUDO.timeout_move(state)) == "timeout"
    state = LUDO.play(state, LUDO.timeout_move(state))
    assert LUDO.to_move(state) == 1
    assert "timeout" not in [str(m) for m in LUDO.legal_moves(state)]


def test_timeout_after_a_roll_ends_the_turn_and_earlier_moves_stay():
    state = run(LUDO.new_match(2), "s0 roll d6 p0 roll d6")
    state = LUDO.play(state, "timeout")
    assert pieces_of(state, 0) == [0, BASE, BASE, BASE]
    assert LUDO.to_move(state) == 1 and state.sixes == 0


def test_timeout_is_refused_at_a_chance_step():
    state = run(LUDO.new_match(2), "s0 roll")
    with pytest.raises(IllegalMoveError, match="chance"):
        LUDO.timeout_move(state)
    with pytest.raises(IllegalMoveError, match="timeout"):
        LUDO.play(state, "timeout")


def test_forced_move_when_only_one_position_can_follow():
    state = run(LUDO.new_match(2), "s0 roll d6")
    assert str(LUDO.forced_move(state)) == "p0", "entering any of four pieces in base is one position"
    state = run(state, "p0 roll d3")
    assert str(LUDO.forced_move(state)) == "p0"
    state = run(state, "p0 roll d1 roll d6")  # seat 1 passes; red: enter or move piece 0
    assert LUDO.forced_move(state) is None


def test_forced_move_never_for_roll_nor_with_the_option_off():
    state = run(LUDO.new_match(2), "s0")
    assert LUDO.forced_move(state) is None
    state = run(LUDO.new_match(2, {"autoplay_forced": False}), "s0 roll d6")
    assert LUDO.forced_move(state) is None


def test_play_accepts_notation_and_rejects_garbage_with_typed_errors():
    state = run(LUDO.new_match(2), "s0")
    assert LUDO.play(state, "roll") == LUDO.play(state, LudoMove("roll"))
    for bad in ["", "jump", "p4", "d7", "leave", "leave x", 42]:
        with pytest.raises(InvalidMoveError):
            LUDO.play(state, bad)
    with pytest.raises(InvalidMoveError):
        LudoMove("piece", 9)
    with pytest.raises(IllegalMoveError, match="p0.*must roll"):
        LUDO.play(state, "p0")
    with pytest.raises(IllegalMoveError, match="d3.*chance"):
        LUDO.play(LUDO.new_match(2), "d3")


@pytest.mark.parametrize("text", ["roll", "d1", "d6", "s3", "p0", "p3", "timeout", "leave 0", "leave 3"])
def test_notation_round_trips(text):
    assert str(parse_move(text)) == text
    assert parse_move(f"  {text} ") == parse_move(text)


def test_play_never_changes_its_input():
    state = run(LUDO.new_match(2), "s0 roll d6")
    before = LUDO.dump(state)
    LUDO.play(state, "p0")
    assert LUDO.dump(state) == before
