"""The Ludo board drawing: geometry, board_context and the board and dice partials.

No database: engine states come from the registry (``load`` of a dumped state, or
moves played), and the templates render with Django's template engine.
"""

import itertools
import re
import time

import pytest
from django.template.loader import render_to_string

from games.engine import get_rules
from games.frames import wire
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


def test_a_seats_pieces_on_one_square_are_one_piece_with_a_count():
    # Red 0 and 1 on cell 3; green's progress 47 is cell 8 (a star), with red 2 there too.
    board = board_for([[3, 3, 8, -1], [47, -1, -1, -1], [-1] * 4, [-1] * 4])
    a, b = piece(board, "red", 0), piece(board, "red", 1)
    # One piece, whole and in the middle of its square: they are one choice (ludo_tags).
    assert (a["x"], a["y"]) == (b["x"], b["y"]) == centre_of(geo.RING[3])
    assert a["scale"] == b["scale"] == 1 and a["count"] == b["count"] == 2
    assert a["top"] and not b["top"]  # the lowest number is the one drawn
    # Two colours on one safe cell: side by side, each whole inside the cell.
    star = [piece(board, "red", 2), piece(board, "green", 0)]
    assert all(p["count"] == 1 and p["top"] and inside((p["x"], p["y"]), geo.RING[8]) for p in star)
    assert len({(p["x"], p["y"]) for p in star}) == 2
    assert all(p["scale"] < 1 for p in star)
    [badge] = board["stacks"]
    assert (badge["count"], badge["colour"], badge["square"]) == (2, "red", geo.RING[3])
    assert abs(badge["x"] - a["x"]) < 0.5 and abs(badge["y"] - a["y"]) < 0.5


def test_a_pile_is_drawn_once_with_a_count_badge_and_keeps_its_shape():
    html = render_board(state([[3, 3, 8, -1], [47, -1, -1, -1], [-1] * 4, [-1] * 4]))
    drawn = re.findall(r'<g class="lb-pc red[^>]*>.*?</g>', html)
    assert drawn == [
        # Cell 3, grid square (4, 6): pieces 0 and 1, one piece on a second shape (a pile).
        '<g class="lb-pc red lb-pile" transform="translate(4.5 6.5)"><use class="lb-under" href="#lb-red"'
        ' transform="translate(.09 .11)"/><use href="#lb-red"/><text>0</text></g>',
        # Cell 8, beside green's piece; piece 3 in its base slot.
        '<g class="lb-pc red" transform="translate(6.28 2.28) scale(0.8)"><use href="#lb-red"/>'
        "<text>2</text></g>",
        '<g class="lb-pc red" transform="translate(4 4) scale(1.2)"><use href="#lb-red"/><text>3</text></g>',
    ]
    assert re.findall(r'<g class="lb-count red" transform="translate\([\d.]+ [\d.]+\)"><rect [^>]*/>'
                      r"<text>(.*?)</text></g>", html) == ["×2"]
    assert "piece 0 on cell 3, piece 1 on cell 3" in html  # the words name both


def test_every_colour_on_one_safe_cell_is_four_piles_inside_it():
    # Every colour's pieces on cell 0: red progress 0, green 39, yellow 26, blue 13.
    board = board_for([[0] * 4, [39] * 4, [26] * 4, [13] * 4])
    assert all(p["count"] == 4 and inside((p["x"], p["y"]), geo.RING[0]) for p in board["pieces"])
    tops = [p for p in board["pieces"] if p["top"]]
    assert [(p["colour"], p["piece"]) for p in tops] == [(c, 0) for c in ("red", "green", "yellow", "blue")]
    assert len({(p["x"], p["y"]) for p in tops}) == 4  # a 2 x 2 arrangement
    assert [(s["colour"], s["count"]) for s in board["stacks"]] == [
        (c, 4) for c in ("red", "green", "yellow", "blue")
    ]
    assert board["pieces_svg"].count("lb-pile") == 4 and board["pieces_svg"].count("<text>") == 4


# --- The way a move goes ------------------------------------------------------------


def test_a_moves_way_is_the_ring_cells_it_passes_in_order():
    # Red from cell 10 to cell 14, up its arm and round the top (cell 11 is its end).
    assert geo.way(0, 1, 10, 14) == tuple(centre_of(geo.RING[cell]) for cell in range(10, 15))


def test_a_way_wraps_from_cell_51_to_cell_0():
    # Green (start 13): progress 37 is cell 50, so 37 -> 41 passes cells 51 and 0.
    assert geo.way(1, 0, 37, 41) == tuple(centre_of(geo.RING[cell]) for cell in (50, 51, 0, 1, 2))


@pytest.mark.parametrize("c", range(4))
def test_a_way_turns_into_the_home_lane_where_the_piece_does(c):
    # Progress 49, 50 on the ring (never the cell before the start), then lane steps 1, 2.
    ring = [geo.RING[(13 * c + p) % 52] for p in (49, 50)]
    assert geo.way(c, 2, 49, 52) == tuple(centre_of(sq) for sq in ring + list(geo.LANES[c][:2]))
    assert geo.RING[(13 * c - 1) % 52] not in ring


def test_a_way_home_ends_on_the_pieces_home_slot():
    assert geo.way(3, 1, 54, 56) == (*(centre_of(sq) for sq in geo.LANES[3][3:]), geo.HOME_SLOTS[3][1])


def test_an_entrys_way_goes_from_the_base_slot_to_the_start_cell():
    assert geo.way(2, 3, None, 0) == (geo.BASE_SLOTS[2][3], centre_of(geo.RING[26]))


def test_every_way_steps_from_square_to_neighbouring_square_and_never_crosses_a_base():
    for c in range(4):
        for start in range(0, 56):
            for die in range(1, 7):
                if start + die > 56:
                    continue
                points = geo.way(c, 0, start, start + die)
                assert len(points) == die + 1
                squares = [(int(x), int(y)) for x, y in (points if start + die < 56 else points[:-1])]
                for (x1, y1), (x2, y2) in itertools.pairwise(squares):
                    assert max(abs(x1 - x2), abs(y1 - y2)) == 1, (c, start, die)
                for x, y in points:
                    assert not any(bx <= x <= bx + 6 and by <= y <= by + 6 for bx, by in geo.BASES)


def test_the_last_moves_path_runs_along_the_track():
    before = RULES.load({**RULES.dump(state([[49, 20, -1, -1], [-1] * 4, [-1] * 4, [-1] * 4])),
                         "phase": "move", "die": 3})
    marks = geo.last_move(RULES, before, ["p0"], RULES.play(before, "p0"))
    [path] = marks["paths"]
    points = geo.way(0, 0, 49, 52)
    assert path["points"] == " ".join(f"{x:g},{y:g}" for x, y in points)
    assert (path["x1"], path["y1"], path["x2"], path["y2"]) == (*points[0], *points[-1])
    html = render_to_string("games/ludo/board.html",
                            {"board": board_context(RULES.view(before, None)), "last_move": marks})
    assert f'<polyline class="lm-path" points="{path["points"]}"/>' in html
    assert '<line class="lm-path"' not in html


def test_an_entrys_last_move_path_leaves_from_the_base():
    before = RULES.load({**RULES.dump(state([[-1, -1, 20, -1], [-1] * 4, [-1] * 4, [-1] * 4])),
                         "phase": "move", "die": 6})
    marks = geo.last_move(RULES, before, ["p0"], RULES.play(before, "p0"))
    assert marks["paths"][0]["points"] == "2,2 1.5,6.5"  # red's slot 0, then cell 0


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
    assert board["summary"].startswith("Red: piece 0 on cell 0 (safe), 3 in base; Yellow:")


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
    """The board as a page or a whole frame has it (the part markers stripped: games/frames/wire.py)."""
    html = render_to_string("games/ludo/board.html", {"board": board_context(RULES.view(s, seat))})
    return wire.strip(html)


def test_board_partial_is_an_out_of_band_svg_image_with_its_position_in_words():
    html = render_board(state([[0, 14, -1, 56], [-1] * 4, [-1] * 4, [-1] * 4]))
    assert html.startswith('<div id="board" class="board ludo-board" hx-swap-oob="true">')
    assert html.rstrip().endswith("</div>")
    # Its accessible name: the title, then each seat's words (a hidden paragraph each).
    labelledby = re.search(r'<svg [^>]*viewBox="0 0 15 15"[^>]*role="img"[^>]*aria-labelledby="([^"]*)"',
                           html)
    ids = labelledby.group(1).split()
    assert ids == ["board-title", "lb-sum-0", "lb-sum-1", "lb-sum-2", "lb-sum-3"]
    words = [re.search(rf'<(?:title|p) id="{i}">(.*?)</(?:title|p)>', html).group(1) for i in ids]
    assert words == [
        "Ludo board",
        "Red: 1 home, piece 0 on cell 0 (safe), piece 1 on cell 14, 1 in base.",
        "Green: 4 in base.", "Yellow: 4 in base.", "Blue: 4 in base.",
    ]
    assert re.search(r'</svg><div hidden><p id="lb-sum-0">', html)
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
    assert "," not in re.sub(r'points="[^"]*"|<title[^>]*>.*?</title>|<p id="lb-sum-\d">.*?</p>', "", html)


@pytest.mark.parametrize("die", range(1, 7))
def test_dice_partial_shows_the_face_and_words(die):
    html = render_to_string("games/dice.html", {"view": {"die": die}})
    assert html.startswith('<div id="dice" class="dice" hx-swap-oob="true">')
    # One element a die; match.css draws its pips or numeral from data-die.
    assert html.count('class="die"') == 1 and f'<i class="die" data-die="{die}"></i>' in html
    assert f'<span class="visually-hidden">Last roll: {die}</span>' in html


@pytest.mark.parametrize("view", [{"die": -1}, {"die": 7}, {"dice": [3, 9]}])
def test_dice_partial_refuses_a_face_no_die_has(view):
    with pytest.raises(ValueError):
        render_to_string("games/dice.html", {"view": view})


def test_dice_partial_before_the_first_roll():
    html = render_to_string("games/dice.html", {"view": RULES.view(RULES.new_match(2), None)})
    assert 'id="dice"' in html and 'hx-swap-oob="true"' in html
    assert "No roll yet" in html and 'class="die"' not in html
