"""Rondo rules as scenarios: the rulebook's worked examples on small boards of
our own (spaces of the same colours and values), rack limits, both end
conditions and the round finish, the tie-break, the one-change option, the
server's events, hidden information in views, and the board data."""

import json
import random

import pytest

from games.engine import CHANCE, IllegalMoveError, InvalidMoveError, InvalidOptionsError, InvalidStateError
from games.engine.fair import draw, fair_outcome
from games.rondo.engine import COLOURS, RondoMove, RondoRules, board_data, parse_move

from .rondo_helpers import RONDO, check_rondo_invariants, position, run, small_board, tile_total

SEED = bytes(range(32))

# Meike's chain (rulebook, Option A): purple 2, blue 1, yellow 3 in a row.
MEIKE = RondoRules(
    small_board(
        [("P2", "purple", 2), ("B1", "blue", 1), ("Y3", "yellow", 3), ("G4", "green", 4)],
        [("C", "P2", "radial"), ("P2", "B1", "ring"), ("B1", "Y3", "ring"), ("Y3", "G4", "ring")],
    )
)

# Matthias: a yellow 1 he has no tile for, then a green 5 behind it.
MATTHIAS = RondoRules(
    small_board(
        [("Y1", "yellow", 1), ("G5", "green", 5)],
        [("C", "Y1", "radial"), ("Y1", "G5", "radial")],
    )
)

# Lukas: red 2, purple 1, then blue 4 (A) and green (B) both next to the purple
# space: a branch. C is where blue A could go instead, continuing the row.
LUKAS = RondoRules(
    small_board(
        [("R2", "red", 2), ("P1", "purple", 1), ("A", "blue", 4), ("B", "green", 3), ("Cx", "blue", 4)],
        [
            ("C", "R2", "radial"),
            ("R2", "P1", "ring"),
            ("P1", "A", "radial"),
            ("P1", "B", "ring"),
            ("B", "Cx", "ring"),
        ],
    )
)

# A ring of 4 with a spoke: ring and radial edges, and two gray spaces.
RING = RondoRules(
    small_board(
        [
            ("S", "red", 1),
            ("R0", "red", 1),
            ("R1", "red", 2),
            ("R2", "red", 3),
            ("R3", "red", 4),
            ("X", "red", 5),
        ],
        [
            ("C", "S", "radial"),
            ("S", "R0", "radial"),
            ("R0", "R1", "ring"),
            ("R1", "R2", "ring"),
            ("R2", "R3", "ring"),
            ("R3", "R0", "ring"),
            ("R2", "X", "radial"),
        ],
        gray=("R2", "X"),
    )
)


def test_a_purple_2_blue_1_yellow_3_chain_scores_6_then_draws_one_tile():
    s = position(MEIKE, [["purple", "blue", "yellow"], ["red", "red"]])
    s = run(MEIKE, s, "place P2 1", "place B1 1", "place Y3 1")
    assert s.scores == (6, 0)
    assert MEIKE.view(s, None)["chain_points"] == 6
    s = MEIKE.play(s, "end")
    assert MEIKE.to_move(s) == CHANCE and s.pending == 1
    s = MEIKE.play(s, "tile green")
    assert s.racks[0] == (0, 0, 0, 0, 1)
    assert MEIKE.to_move(s) == 1


def test_a_face_down_tile_then_3_tiles_on_a_green_5_scores_15():
    s = position(MATTHIAS, [["red", "green", "green", "green"], ["blue"]])
    s = run(MATTHIAS, s, "place Y1 down red", "place G5 3", "end")
    assert s.scores == (15, 0)
    assert s.racks[0] == (0, 0, 0, 0, 0)
    spectator = MATTHIAS.view(s, None)
    assert spectator["tiles"]["Y1"] == {"tiles": 1, "face_down": True, "owner": 0, "tile_colour": None}
    assert spectator["tiles"]["G5"]["tiles"] == 3


def test_a_branching_chain_is_refused_and_the_straight_one_scores_7():
    s = position(LUKAS, [["red", "purple", "blue", "green"], ["yellow"]])
    s = run(LUKAS, s, "place R2 1", "place P1 1", "place A 1")
    with pytest.raises(IllegalMoveError, match="not next to A"):
        LUKAS.play(s, "place B 1")
    assert "place B 1" not in [str(m) for m in LUKAS.legal_moves(s)]
    assert s.scores[0] == 2 + 1 + 4
    # Placing the green first and then the blue on C continues the row instead.
    t = position(LUKAS, [["red", "purple", "blue", "green"], ["yellow"]])
    t = run(LUKAS, t, "place R2 1", "place P1 1", "place B 1", "place Cx 1")
    assert t.scores[0] == 2 + 1 + 3 + 4


def test_the_first_placement_must_touch_an_occupied_space_or_the_centre():
    s = position(MEIKE, [["blue", "yellow"], ["red"]])
    with pytest.raises(IllegalMoveError, match="next to an occupied space or the centre"):
        MEIKE.play(s, "place B1 1")
    s = position(MEIKE, [["blue", "yellow"], ["red"]], tiles={"P2": 1})
    s = MEIKE.play(s, "place B1 1")
    assert s.scores[0] == 1


def test_occupied_spaces_take_no_more_tiles_and_face_up_tiles_match_the_space():
    s = position(MEIKE, [["purple", "purple", "blue"], ["red"]], tiles={"P2": 1})
    with pytest.raises(IllegalMoveError, match="already occupied"):
        MEIKE.play(s, "place P2 1")
    with pytest.raises(IllegalMoveError, match="holds 1 blue"):
        MEIKE.play(s, "place B1 2")
    moves = [str(m) for m in MEIKE.legal_moves(s)]
    assert moves == ["draw", "place B1 1", "place B1 down purple", "place B1 down blue"]


def test_a_face_down_placement_is_exactly_one_tile_of_the_rack():
    s = position(MEIKE, [["red"], ["red"]])
    with pytest.raises(IllegalMoveError, match="no tile of that colour"):
        MEIKE.play(s, "place P2 down green")
    s = MEIKE.play(s, "place P2 down red")
    assert s.racks[0] == (0, 0, 0, 0, 0)
    assert [str(m) for m in MEIKE.legal_moves(s)] == ["end"]


def test_draw_two_one_with_four_and_none_with_five():
    s = position(MEIKE, [["red"], ["red"]])
    s = MEIKE.play(s, "draw")
    assert s.pending == 2
    s = run(MEIKE, s, "tile red", "tile red")
    assert sum(s.racks[0]) == 3 and MEIKE.to_move(s) == 1
    four = position(MEIKE, [["red"] * 4, ["red"]])
    four = MEIKE.play(four, "draw")
    assert four.pending == 1
    assert MEIKE.view(position(MEIKE, [["red"] * 4, ["red"]]), None)["draw_count"] == 1
    five = position(MEIKE, [["red"] * 5, ["red"]])
    assert "draw" not in [str(m) for m in MEIKE.legal_moves(five)]
    with pytest.raises(IllegalMoveError, match="must place"):
        MEIKE.play(five, "draw")


def test_end_needs_a_placement_and_draw_needs_none():
    s = position(MEIKE, [["purple"], ["red"]])
    with pytest.raises(IllegalMoveError, match="no placement to end"):
        MEIKE.play(s, "end")
    s = MEIKE.play(s, "place P2 1")
    with pytest.raises(IllegalMoveError, match="end the chain"):
        MEIKE.play(s, "draw")


def test_one_change_between_ring_and_radial_by_default_any_number_when_off():
    rack = [["red"] * 5, ["red"]]
    s = position(RING, rack)
    # S (radial) R0 (ring) R1 (ring) R2: radial then ring is the one change.
    s = run(RING, s, "place S 1", "place R0 1", "place R1 1", "place R2 1")
    assert "place X 1" not in [str(m) for m in RING.legal_moves(s)]
    with pytest.raises(IllegalMoveError, match="already changed once"):
        RING.play(s, "place X 1")
    off = position(RING, rack, options={"one_change": False})
    off = run(RING, off, "place S 1", "place R0 1", "place R1 1", "place R2 1", "place X 1")
    assert off.scores[0] == 1 + 1 + 2 + 3 + 5


def test_the_end_after_the_last_gray_space_is_covered_finishes_the_round():
    # Three seats, seat 0 starts; seat 1 covers the last gray space: seat 2 still plays.
    s = position(RING, [["red"], ["red", "red"], ["red"]], tiles={"S": 1, "R0": 1, "R3": 1, "X": 1}, turn=1)
    s = run(RING, s, "place R2 1", "end", "tile red")
    assert s.ending and RING.to_move(s) == 2
    s = run(RING, s, "draw", "tile red", "tile yellow")
    assert RING.to_move(s) is None
    assert RING.outcome(s).reason == "finished"
    assert s.scores == (0, 3, 0)


def test_the_last_seat_of_a_round_ending_it_ends_the_match_at_once():
    s = position(RING, [["red"], ["red", "red"]], tiles={"S": 1, "R0": 1, "R3": 1, "X": 1}, turn=1)
    s = run(RING, s, "place R2 1", "end", "tile red")
    assert RING.to_move(s) is None


def _store_board(play_spaces, edges):
    """A small board plus unjoined "store" spaces that hold tiles out of play,
    so that a position can have an almost empty bag and still hold 120 tiles."""
    store = [(f"{c[0].upper()}{n}", c, 1) for c in COLOURS for n in range(5)]
    return RondoRules(small_board(play_spaces + store, edges))


def _with_bag(rules, racks, bag, **kw):
    """A position whose bag holds ``bag`` ({colour: n}); the other tiles not on
    a rack sit face up in the store."""
    spare = {c: 24 - bag.get(c, 0) for c in COLOURS}
    for r in racks:
        for c in r:
            spare[c] -= 1
    tiles = {}
    for c in COLOURS:
        for n in range(5):
            k = min(5, spare[c])
            if k:
                tiles[f"{c[0].upper()}{n}"] = k
                spare[c] -= k
    return position(rules, racks, tiles=tiles, bag={c: bag.get(c, 0) for c in COLOURS}, **kw)


SHORT = _store_board([("Z", "red", 2), ("Z2", "red", 3)], [("C", "Z", "radial"), ("Z", "Z2", "radial")])


def test_a_draw_that_falls_short_takes_what_is_left_and_ends_the_match_after_the_round():
    s = _with_bag(SHORT, [["red"], ["red"], ["red"]], {"yellow": 1}, turn=0, starter=0)
    assert tile_total(s) == [24] * 5
    s = SHORT.play(s, "draw")
    assert s.ending and s.pending == 1
    s = SHORT.play(s, "tile yellow")
    assert s.racks[0] == (1, 1, 0, 0, 0) and sum(s.bag) == 0
    assert SHORT.to_move(s) == 1, "the round is played to its end"
    s = SHORT.play(s, "place Z 1")
    s = SHORT.play(s, "end")  # the bag is empty: no draw, no chance step
    assert SHORT.to_move(s) == 2 and s.k == 11
    s = SHORT.play(s, "draw")
    assert SHORT.to_move(s) is None
    assert SHORT.outcome(s).to_dict() == {"ranks": [2, 1, 3], "reason": "finished"}


def test_placing_then_finding_the_bag_empty_triggers_the_end():
    s = _with_bag(SHORT, [["red"], ["red"]], {}, turn=1, starter=0)
    s = run(SHORT, s, "place Z 1", "end")
    assert SHORT.to_move(s) is None, "seat 1 ends the round; the empty bag ended the match"
    assert SHORT.outcome(s).ranks == (2, 1)


def test_seat_status_and_leaving_keeps_the_leavers_tiles_and_skips_its_turns():
    s = position(MEIKE, [["purple"], ["blue"], ["yellow"]], turn=0)
    s = run(MEIKE, s, "place P2 1")
    s = MEIKE.play(s, "leave 0")  # the chain in progress is taken back
    assert s.cells == (0, 0, 0, 0) and s.scores[0] == 0 and s.racks[0][2] == 1
    assert MEIKE.to_move(s) == 1
    assert MEIKE.seat_status(s) == ["left", "playing", "playing"]
    s = MEIKE.play(s, "timeout")
    assert MEIKE.to_move(s) == 2
    s = MEIKE.play(s, "timeout")
    assert MEIKE.to_move(s) == 1, "the leaver takes no more turns"
    s = MEIKE.play(s, "leave 2")
    assert MEIKE.to_move(s) is None
    assert MEIKE.outcome(s).to_dict() == {"ranks": [3, 1, 2], "reason": "last_player_standing"}


def test_a_timeout_passes_with_no_placement_and_no_draw():
    s = position(MEIKE, [["purple", "blue"], ["red"]])
    before = (s.racks, s.bag, s.cells, s.scores)
    t = MEIKE.play(s, "timeout")
    assert (t.racks, t.bag, t.cells, t.scores) == before
    assert MEIKE.to_move(t) == 1
    mid = MEIKE.play(s, "place P2 1")
    t2 = MEIKE.play(mid, MEIKE.timeout_move(mid))
    assert (t2.racks, t2.bag, t2.cells, t2.scores) == before, "a chain in progress is taken back"


def _finished(rules, scores, racks):
    s = position(rules, racks, scores=scores, ending=True, turn=len(racks) - 1)
    s = rules.play(s, "timeout")
    assert rules.to_move(s) is None
    return rules.outcome(s)


def test_ranking_by_score_then_tiles_left_then_shared_places():
    assert _finished(MEIKE, [10, 12, 10], [["red"], ["red"], ["red", "red"]]).ranks == (3, 1, 2)
    assert _finished(MEIKE, [10, 10, 10], [["red"], ["red", "red"], ["red", "red"]]).ranks == (3, 1, 1)
    assert _finished(MEIKE, [7, 7], [["red"], ["blue"]]).ranks == (1, 1)


def test_a_full_rack_with_nowhere_to_place_is_passed_over():
    s = position(MEIKE, [["red"] * 5, ["red"]], tiles={"P2": 1, "B1": 1, "Y3": 1, "G4": 1}, turn=1)
    s = MEIKE.play(s, "timeout")
    assert MEIKE.to_move(s) == 1, "seat 0 has no move at all and is passed over"


def test_the_start_draws_the_starting_seat_then_deals_two_tiles_each_in_turn_order():
    s = RONDO.new_match(3)
    assert [str(m) for m, _ in RONDO.chance_outcomes(s)] == ["s0", "s1", "s2"]
    s = RONDO.play(s, "s2")
    assert s.turn == 2 and s.pending == 2
    order = []
    while RONDO.to_move(s) == CHANCE:
        order.append(s.turn)
        s = RONDO.play(s, "tile red")
    assert order == [2, 2, 0, 0, 1, 1]
    assert RONDO.to_move(s) == 2 and s.racks == ((0, 2, 0, 0, 0),) * 3 and s.k == 7


def test_tile_draws_are_weighted_by_the_bag_in_colour_order_and_the_test_vector_gives_green():
    s = RONDO.play(RONDO.new_match(2), "s0")
    outcomes = RONDO.chance_outcomes(s)
    assert [(str(m), w) for m, w in outcomes] == [(f"tile {c}", 24) for c in COLOURS]
    assert draw(SEED, "42", 0, [w for _, w in outcomes]) == 4
    at_zero = RONDO.load({**RONDO.dump(s), "chance_count": 0})
    assert str(fair_outcome(RONDO, at_zero, SEED, "42")) == "tile green"
    s = RONDO.play(s, "tile green")
    assert [w for _, w in RONDO.chance_outcomes(s)] == [24, 24, 24, 24, 23]


def test_an_empty_colour_is_not_an_outcome_and_an_empty_bag_is_no_chance_step():
    s = _with_bag(SHORT, [["red"], ["red"]], {"purple": 2, "green": 1})
    s = SHORT.play(s, "draw")
    assert [(str(m), w) for m, w in SHORT.chance_outcomes(s)] == [("tile purple", 2), ("tile green", 1)]
    empty = _with_bag(SHORT, [["red"], ["red"]], {})
    after = SHORT.play(empty, "draw")
    assert SHORT.to_move(after) == 1 and after.k == empty.k


def test_views_hide_racks_and_face_down_colours_until_the_end():
    s = position(MATTHIAS, [["red", "green", "green", "green"], ["blue", "yellow"]])
    s = run(MATTHIAS, s, "place Y1 down red", "place G5 3", "end", "tile purple")
    spectator, mine, theirs = MATTHIAS.view(s, None), MATTHIAS.view(s, 0), MATTHIAS.view(s, 1)
    assert spectator["private"] == {}
    assert mine["private"]["rack"] == ["purple"] and mine["private"]["face_down"] == {"Y1": "red"}
    assert theirs["private"]["rack"] == ["yellow", "blue"] and theirs["private"]["face_down"] == {}
    assert theirs["private"]["moves"] and mine["private"]["moves"] == []
    for v in (spectator, mine, theirs):
        assert v["tiles"]["Y1"]["tile_colour"] is None
        assert [r["rack"] for r in v["seats"]] == [None, None]
        assert [r["rack_size"] for r in v["seats"]] == [1, 2]
        assert v["moves"] == []
    check_rondo_invariants(s, MATTHIAS)
    s = run(MATTHIAS, s.replace(ending=True), "timeout")
    assert MATTHIAS.to_move(s) is None
    end = MATTHIAS.view(s, None)
    assert end["tiles"]["Y1"]["tile_colour"] == "red"
    assert [r["rack"] for r in end["seats"]] == [["purple"], ["yellow", "blue"]]


def test_sample_state_redeals_only_what_the_viewer_cannot_see():
    rng = random.Random(5)
    s = RONDO.new_match(3)
    while RONDO.to_move(s) == CHANCE or s.k < 30:
        who = RONDO.to_move(s)
        if who == CHANCE:
            outs = RONDO.chance_outcomes(s)
            s = RONDO.play(s, rng.choices([m for m, _ in outs], [w for _, w in outs])[0])
        else:
            s = RONDO.play(s, rng.choice(RONDO.legal_moves(s)))
    seat = RONDO.to_move(s) if RONDO.to_move(s) not in (None, CHANCE) else 0
    view = RONDO.view(s, seat)
    samples = [RONDO.sample_state(view, seat, random.Random(i)) for i in range(5)]
    for t in samples:
        assert t.racks[seat] == s.racks[seat]
        assert [sum(r) for r in t.racks] == [sum(r) for r in s.racks]
        assert sum(t.bag) == sum(s.bag) and tile_total(t) == [24] * 5
        assert RONDO.view(t, seat) == view
    assert len({t.bag for t in samples}) > 1, "the unseen tiles are re-dealt"


def test_notation_round_trips_and_bad_text_is_an_invalid_move():
    for text in [
        "place I03 2",
        "place S000-1 down purple",
        "end",
        "draw",
        "tile green",
        "s3",
        "timeout",
        "leave 2",
    ]:
        assert str(parse_move(text)) == text
        assert str(parse_move("  " + text.replace(" ", "   ") + " ")) == text
    for bad in [
        "",
        "place",
        "place I03 0",
        "place I03 6",
        "place I03 down pink",
        "tile black",
        "s4",
        "PLACE I03 1",
        3,
    ]:
        with pytest.raises(InvalidMoveError):
            parse_move(bad)
    with pytest.raises(InvalidMoveError):
        RondoMove("place", "I03", 2, 3)
    s = position(MEIKE, [["red"], ["red"]])
    with pytest.raises(IllegalMoveError, match="no space Q9"):
        MEIKE.play(s, "place Q9 1")


def test_both_board_sides_load_from_the_data_file_and_options_are_checked():
    data = board_data()
    blue, red = RONDO.new_match(2), RONDO.new_match(2, {"side": "red"})
    assert blue.board.size == red.board.size == len(data["sides"]["blue"]["spaces"]) == 80
    assert sum(blue.board.value) == data["sides"]["blue"]["total_face_value"]
    assert sum(red.board.value) == data["sides"]["red"]["total_face_value"]
    assert {blue.board.ids[i] for i in range(80) if blue.board.gray[i]} == set(data["gray"])
    assert len(blue.board.edge_kind) == 2 * (len(data["edges"]) - 4)
    assert RONDO.dump(red)["options"] == {"side": "red", "one_change": True}
    for bad in ({"side": "green"}, {"one_change": "yes"}, {"colour": 1}):
        with pytest.raises(InvalidOptionsError):
            RONDO.new_match(2, bad)
    with pytest.raises(InvalidOptionsError):
        RONDO.new_match(5)


def test_load_refuses_states_whose_tiles_do_not_add_up():
    data = RONDO.dump(RONDO.new_match(2))
    data["bag"]["red"] = 23
    with pytest.raises(InvalidStateError, match="not conserved"):
        RONDO.load(data)
    with pytest.raises(InvalidStateError):
        RONDO.load({"game": "ludo"})
    assert json.loads(json.dumps(RONDO.dump(RONDO.new_match(4))))["players"] == 4


def test_a_placement_s_label_names_the_space_as_the_board_shows_it():
    """The no-JavaScript form's choices: "1 purple face up on purple 1, S000-1 (1 point)"
    (it said "(1 points)" and named the space only by its code)."""
    from games.rondo.engine.view import describe_move

    board = RONDO.board("blue")
    start = next(i for i in range(board.size) if board.start_mask >> i & 1)
    sid, value = board.ids[start], board.value[start]
    colour = COLOURS[board.colour[start]]
    state = position(RONDO, [[colour, "red"], ["red"]])
    labels = {str(m): describe_move(RONDO, state, m)["label"] for m in RONDO.placements(state, sid)}
    points = f"{value} point{'s' if value != 1 else ''}"
    assert labels[f"place {sid} 1"] == f"1 {colour} face up on {colour} {value}, {sid} ({points})"
    down = labels[f"place {sid} down red"]
    assert down == f"1 red face down on {colour} {value}, {sid} (a bridge, 0 points)"
