"""The Ludo board drawing: geometry, board_context and the board and dice partials.

No database: engine states come from the registry (``load`` of a dumped state, or
moves played), and the templates render with Django's template engine.
"""

import re
import time

import pytest
from django.template.loader import render_to_string

from games.engine import get_rules
from games.ludo import svg as geo
from games.ludo.svg import board_context

RULES = get_rules("ludo")
CENTRE = (7, 7)
# Where the ring turns round an inner corner of the cross, it steps diagonally:
# from the last cell of one arm's row to the first of the next arm's column.
DIAGONAL_STEPS = {4, 17, 30, 43}  # ring cell i -> i + 1


def state(pieces, players=4, turn=0, left=(), phase="roll"):
    """A state from per-seat progress lists (-1 base, 0..50 ring, 51..55 lane, 56 home)."""
    return RULES.load(
        {
            "game": "ludo",
            "players": players,
            "phase": phase,
            "turn": turn,
            "die": 0,
            "sixes": 0,
            "pieces": [list(p) for p in pieces],
            "left": list(left),
            "winner": None,
            "reason": "",
            "chance_count": 1,
            "options": {"autoplay_forced": True},
        }
    )


def board_for(pieces, **kw):
    return board_context(RULES.view(state(pieces, **kw), None))


def piece(board, colour, i):
    found = [p for p in board["pieces"] if p["colour"] == colour and p["piece"] == i]
    return found[0] if found else None


def centre_of(square):
    return (square[0] + 0.5, square[1] + 0.5)


def inside(point, square):
    x, y = point
    return square[0] <= x <= square[0] + 1 and square[1] <= y <= square[1] + 1


def played(players, plies, seed):
    """A mid-game state reached by random legal moves and chance outcomes."""
    import random

    rng = random.Random(seed)
    s = RULES.new_match(players)
    for _ in range(plies):
        if RULES.outcome(s) is not None:
            break
        if RULES.to_move(s) == -1:
            outcomes = RULES.chance_outcomes(s)
            s = RULES.play(s, rng.choices([m for m, _ in outcomes], [w for _, w in outcomes])[0])
        else:
            s = RULES.play(s, rng.choice(RULES.legal_moves(s)))
    return s


# --- Geometry -------------------------------------------------------------------


def test_ring_is_52_distinct_squares_on_the_cross_outside_bases_and_centre():
    assert len(geo.RING) == 52 and len(set(geo.RING)) == 52
    for x, y in geo.RING:
        assert 0 <= x < 15 and 0 <= y < 15
        assert 6 <= x <= 8 or 6 <= y <= 8, (x, y)  # on an arm of the cross
        assert not (6 <= x <= 8 and 6 <= y <= 8), (x, y)  # not in the centre


def test_ring_is_a_closed_path_stepping_diagonally_only_at_the_four_inner_corners():
    for i in range(52):
        (x0, y0), (x1, y1) = geo.RING[i], geo.RING[(i + 1) % 52]
        dx, dy = abs(x1 - x0), abs(y1 - y0)
        if i in DIAGONAL_STEPS:
            assert (dx, dy) == (1, 1), i
        else:
            assert dx + dy == 1, i


def test_ring_runs_clockwise_on_screen():
    # Shoelace sum with y pointing down: positive for a clockwise path.
    area2 = sum(
        geo.RING[i][0] * geo.RING[(i + 1) % 52][1] - geo.RING[(i + 1) % 52][0] * geo.RING[i][1]
        for i in range(52)
    )
    assert area2 > 0


@pytest.mark.parametrize("c", range(4))
def test_start_cell_is_beside_its_base(c):
    sx, sy = geo.RING[13 * c]
    bx, by = geo.BASES[c]
    base = {(bx + i, by + j) for i in range(6) for j in range(6)}
    assert {(sx + 1, sy), (sx - 1, sy), (sx, sy + 1), (sx, sy - 1)} & base


def test_bases_are_the_four_corners_red_green_yellow_blue_clockwise():
    assert geo.BASES == ((0, 0), (9, 0), (9, 9), (0, 9))


@pytest.mark.parametrize("c", range(4))
def test_home_lane_leads_from_the_turn_in_cell_to_the_centre(c):
    lane = geo.LANES[c]
    assert len(lane) == 5 and not set(lane) & set(geo.RING)
    turn_in = geo.RING[(13 * c + 50) % 52]  # progress 50: the last ring cell
    squares = (turn_in, *lane)
    for a, b in zip(squares, squares[1:], strict=False):
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    distances = [abs(x - CENTRE[0]) + abs(y - CENTRE[1]) for x, y in squares]
    assert distances == sorted(distances, reverse=True) and distances[-1] == 2  # next to the centre square


def test_cells_list_ring_then_lanes_with_kinds_and_colours():
    cells = geo.CELLS
    assert len(cells) == 52 + 20
    assert [(c["x"], c["y"]) for c in cells[:52]] == list(geo.RING)
    kinds = {c["cell"]: c["kind"] for c in cells[:52]}
    assert {i for i, k in kinds.items() if k == "start"} == {0, 13, 26, 39}
    assert {i for i, k in kinds.items() if k == "star"} == {8, 21, 34, 47}
    assert [cells[13 * c]["colour"] for c in range(4)] == ["red", "green", "yellow", "blue"]
    assert all(c["kind"] == "lane" and c["colour"] for c in cells[52:])


# --- board_context ----------------------------------------------------------------


def test_new_match_has_every_piece_in_its_base_slot():
    board = board_context(RULES.view(RULES.new_match(4), None))
    assert len(board["pieces"]) == 16
    for p in board["pieces"]:
        c = ["red", "green", "yellow", "blue"].index(p["colour"])
        assert p["where"] == "base"
        assert (p["x"], p["y"]) == geo.BASE_SLOTS[c][p["piece"]]
        bx, by = geo.BASES[c]
        assert bx < p["x"] < bx + 6 and by < p["y"] < by + 6
    assert board["stacks"] == []
    assert board["summary"].startswith("Red: 4 in base; Green: 4 in base")


def test_piece_on_its_start_cell_and_on_a_star_are_drawn_there_and_marked_safe():
    board = board_for([[0, 8, -1, -1], [0, -1, -1, -1], [-1] * 4, [-1] * 4])
    red0, red1, green0 = piece(board, "red", 0), piece(board, "red", 1), piece(board, "green", 0)
    assert (red0["x"], red0["y"]) == centre_of(geo.RING[0]) and red0["cell"] == 0 and red0["safe"]
    assert (red1["x"], red1["y"]) == centre_of(geo.RING[8]) and red1["safe"]
    assert (green0["x"], green0["y"]) == centre_of(geo.RING[13]) and green0["cell"] == 13
    assert "piece 0 on cell 0 (safe)" in board["summary"]
    assert "piece 1 on cell 8 (safe)" in board["summary"]


def test_pieces_sharing_a_cell_are_offset_apart_with_a_count():
    # Red 0 and 1 on cell 3; green's progress 47 is cell 8 (a star), with red 2 there too.
    board = board_for([[3, 3, 8, -1], [47, -1, -1, -1], [-1] * 4, [-1] * 4])
    a, b = piece(board, "red", 0), piece(board, "red", 1)
    assert (a["x"], a["y"]) != (b["x"], b["y"])
    assert inside((a["x"], a["y"]), geo.RING[3]) and inside((b["x"], b["y"]), geo.RING[3])
    assert a["count"] == b["count"] == 2 and a["scale"] < 1
    star = [piece(board, "red", 2), piece(board, "green", 0)]
    assert all(p["count"] == 2 and inside((p["x"], p["y"]), geo.RING[8]) for p in star)
    assert len({(p["x"], p["y"]) for p in star}) == 2
    assert sorted((s["x"], s["y"], s["count"]) for s in board["stacks"]) == sorted(
        [(*centre_of(geo.RING[3]), 2), (*centre_of(geo.RING[8]), 2)]
    )


def test_many_pieces_on_one_safe_cell_all_stay_inside_it():
    # Every colour's pieces on cell 0: red progress 0, green 39, yellow 26, blue 13.
    board = board_for([[0] * 4, [39] * 4, [26] * 4, [13] * 4])
    spots = {(p["x"], p["y"]) for p in board["pieces"]}
    assert all(p["count"] == 16 and inside((p["x"], p["y"]), geo.RING[0]) for p in board["pieces"])
    assert len(spots) == 9  # a 3 x 3 arrangement
    assert board["stacks"] == [{"x": 1.5, "y": 6.5, "count": 16}]


def test_home_lane_and_home_pieces():
    board = board_for([[51, 55, 56, -1], [-1] * 4, [53, -1, -1, -1], [-1] * 4])
    red0, red1, red2, yellow0 = (
        piece(board, *k) for k in (("red", 0), ("red", 1), ("red", 2), ("yellow", 0))
    )
    assert (
        (red0["x"], red0["y"]) == centre_of(geo.LANES[0][0])
        and red0["where"] == "lane"
        and red0["cell"] is None
    )
    assert (red1["x"], red1["y"]) == centre_of(geo.LANES[0][4])
    assert (yellow0["x"], yellow0["y"]) == centre_of(geo.LANES[2][2])
    assert red2["where"] == "home" and 6 <= red2["x"] <= 7.5 and 6 <= red2["y"] <= 9  # red's triangle
    assert (
        "Red: 1 home, piece 0 in home lane at step 1 of 5, piece 1 in home lane at step 5 of 5"
        in board["summary"]
    )


def test_two_players_sit_red_and_yellow():
    board = board_for([[0, -1, -1, -1], [0, -1, -1, -1]], players=2, turn=1)
    seat1 = piece(board, "yellow", 0)
    assert seat1["seat"] == 1 and (seat1["x"], seat1["y"]) == centre_of(geo.RING[26])
    assert [b["status"] for b in board["bases"]] == ["playing", "empty", "playing", "empty"]
    assert board["turn"] == "yellow" and [b["turn"] for b in board["bases"]] == [False, False, True, False]
    assert board["summary"].startswith("Yellow to play. Red: piece 0 on cell 0 (safe), 3 in base; Yellow:")


def test_pieces_of_a_seat_that_left_are_not_drawn():
    s = state([[5, -1, -1, -1], [3, 56, -1, -1], [-1] * 4], players=3)
    s = RULES.play(s, "leave 1")
    board = board_context(RULES.view(s, None))
    assert {p["colour"] for p in board["pieces"]} == {"red", "yellow"}
    assert board["bases"][1]["status"] == "left"
    assert "Green: left the match" in board["summary"]


def test_board_context_is_quick():
    view = RULES.view(played(4, 400, 3), None)
    board_context(view)
    start = time.perf_counter()
    for _ in range(200):
        board_context(view)
    per_call = (time.perf_counter() - start) / 200
    assert per_call < 0.001  # measured about 0.05 ms; the budget is 0.3 ms


# --- Templates ---------------------------------------------------------------------


def render_board(s, seat=None):
    return render_to_string("games/ludo/board.html", {"board": board_context(RULES.view(s, seat))})


def test_board_partial_is_an_out_of_band_svg_image_with_its_position_in_words():
    html = render_board(state([[0, 14, -1, 56], [-1] * 4, [-1] * 4, [-1] * 4]))
    assert html.startswith('<div id="board" class="board ludo-board" hx-swap-oob="true">')
    assert html.rstrip().endswith("</div>")
    assert re.search(r'<svg [^>]*viewBox="0 0 15 15"[^>]*role="img"[^>]*aria-labelledby="board-title"', html)
    title = re.search(r'<title id="board-title">(.*?)</title>', html).group(1)
    assert title == (
        "Red to play. Red: 1 home, piece 0 on cell 0 (safe), piece 1 on cell 14, 1 in base; "
        "Green: 4 in base; Yellow: 4 in base; Blue: 4 in base."
    )
    assert html.count('<use href="#lb-c"') == 72
    assert html.count('<use href="#lb-star"') == 8


def test_each_colour_has_its_own_piece_shape_and_pieces_show_their_numbers():
    html = render_board(state([[0, -1, -1, -1], [0, -1, -1, -1], [0, -1, -1, -1], [0, -1, -1, -1]]))
    assert '<circle id="lb-red"' in html
    assert '<rect id="lb-green"' in html
    yellow = re.search(r'<path id="lb-yellow" d="([^"]*)"', html).group(1)
    blue = re.search(r'<path id="lb-blue" d="([^"]*)"', html).group(1)
    assert yellow == "M0-.5L.46.27H-.46z"  # three corners, point up: a triangle
    assert blue == "M0-.46L.46 0 0 .46-.46 0z"  # top, right, bottom, left: a diamond
    for colour in ("red", "green", "yellow", "blue"):
        drawn = re.findall(
            rf'<g class="lb-pc {colour}" transform="[^"]+"><use href="#lb-{colour}"/><text>(\d)</text>', html
        )
        assert sorted(drawn) == ["0", "1", "2", "3"]


def test_board_is_the_same_for_every_viewer():
    s = played(4, 300, 11)
    assert render_board(s, None) == render_board(s, 0) == render_board(s, 3)


def test_board_markup_of_a_four_player_mid_game_is_small():
    html = render_board(played(4, 400, 3))
    assert len(html.encode()) < 12_000


def test_decimal_points_survive_a_locale_with_decimal_commas():
    from django.utils import translation

    s = state([[3, 3, 56, -1], [-1] * 4, [-1] * 4, [-1] * 4])
    with translation.override("de"):
        html = render_board(s)
    assert "," not in re.sub(r'points="[^"]*"|<title[^>]*>.*?</title>', "", html)


@pytest.mark.parametrize("die, pips", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)])
def test_dice_partial_shows_pips_the_numeral_and_words(die, pips):
    html = render_to_string("games/dice.html", {"view": {"die": die}})
    assert html.startswith('<div id="dice" class="dice" hx-swap-oob="true">')
    assert html.count("<circle") == pips
    assert f'<span class="die-number" aria-hidden="true">{die}</span>' in html
    assert f'<span class="visually-hidden">Last roll: {die}</span>' in html


def test_dice_partial_before_the_first_roll():
    html = render_to_string("games/dice.html", {"view": RULES.view(RULES.new_match(2), None)})
    assert 'id="dice"' in html and 'hx-swap-oob="true"' in html
    assert "No roll yet" in html and "<circle" not in html
