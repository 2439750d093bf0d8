"""The move list in words, numbered by turn (games.record and each game's
record.py; docs/rules.md "The move list").

Random playouts of every game, with missed turns, idle-outs and leaves among
the moves, check what every ply yields: the lines its kind of ply should
have (a roll none, since its die's line names the roller; every other ply
at least one), each naming its seat, none empty, none twice; the same lines
and the same numbered turns whether the record is described whole (a page)
or a few plies at a time from the state before them (the live frames,
appended to the page's list).
"""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from games.engine import CHANCE, get_rules
from games.ludo.engine.board import CELL, SAFE_CELLS, SEAT_COLOURS
from games.record import describe, describe_record, number_lines, ply_text, seat_labels, turns
from tests.engine.helpers import TO_HOME, drive, run
from tests.factories import ludo_state

GAMES = {"ludo": (2, 3, 4), "roundabout": (2, 3, 4), "rondo": (2, 3, 4)}
#: Plies that have no line of their own (their outcome's line names the seat).
SILENT = {"ludo": {"roll"}, "roundabout": {"roll"}, "rondo": set()}
RONDO_TILE_COLOURS = ("yellow", "red", "purple", "blue", "green")


def playout(kind: str, players: int, seed: int, max_plies: int = 1200):
    """(start state, moves) of a random match: chance by weight, seats by a
    seeded RNG, now and then a missed turn (three in a row idle the seat
    out: a ``leave`` in the same change) or a seat leaving."""
    rules = get_rules(kind)
    rng = random.Random(seed)
    state = start = rules.new_match(players)
    moves, missed, version = [], {}, 0

    def add(move, actor, seat):
        nonlocal state
        state = rules.play(state, move)
        moves.append(
            SimpleNamespace(ply=len(moves), actor=actor, seat=seat, notation=str(move), version_after=version)
        )

    while rules.to_move(state) is not None and len(moves) < max_plies:
        version += 1
        who = rules.to_move(state)
        if who == CHANCE:
            outcomes = rules.chance_outcomes(state)
            add(rng.choices([m for m, _ in outcomes], [w for _, w in outcomes])[0], "chance", None)
            continue
        r = rng.random()
        if r < 0.04:
            move = rules.timeout_move(state)
            counts = move not in rules.legal_moves(state)
            add(move, "server", who)
            missed[who] = missed.get(who, 0) + 1 if counts else 0
            if missed[who] >= 3 and not rules.is_over(state):
                add(rules.leave_move(state, who), "server", who)
        elif r < 0.045:
            playing = [s for s, st in enumerate(rules.seat_status(state)) if st == "playing"]
            seat = rng.choice(playing)
            add(rules.leave_move(state, seat), "server", seat)
        else:
            missed[who] = 0
            forced = rules.forced_move(state)
            add(rng.choice(rules.legal_moves(state)), "server" if forced else "seat", who)
    return start, moves


def final_round(line) -> bool:
    """A Rondo line saying the final round began (or the match ended with it)."""
    return line.seat is None and ("final round" in line.text or "the match ends" in line.text)


def rules_board(state):
    return state.board


def labels(players: int) -> dict[int, str]:
    return {i: f"player{i} (c{i})" for i in range(players)}


def chunks(moves, rng):
    """``moves`` cut into runs of 1 to 5 plies, as live changes are."""
    i = 0
    while i < len(moves):
        n = rng.randint(1, 5)
        yield i, moves[i : i + n]
        i += n


CASES = [(kind, players, seed) for kind, counts in GAMES.items() for players in counts for seed in range(4)]


@pytest.mark.parametrize(("kind", "players", "seed"), CASES)
def test_every_ply_yields_its_lines_once_each_naming_its_seat(kind, players, seed):
    start, moves = playout(kind, players, seed)
    names = labels(players)
    lines = describe(kind, moves, names, start)
    by_ply: dict[int, list] = {}
    for line in lines:
        by_ply.setdefault(line.ply, []).append(line)
    for m in moves:
        got = by_ply.get(m.ply, [])
        if m.notation in SILENT[kind]:
            assert got == [], (m.notation, got)
        elif kind == "rondo":  # one line, and the start of the final round one of its own
            assert len([line for line in got if not final_round(line)]) == 1, (m.notation, got)
        else:
            assert got, f"ply {m.ply} ({m.notation}) has no line"
    assert len({(line.ply, line.text) for line in lines}) == len(lines), "a line twice"
    assert [line.ply for line in lines] == sorted(line.ply for line in lines)
    for line in lines:
        assert line.text.strip() and line.text.endswith("."), line
        assert line.begins in ("", "turn", "setup")
        if line.seat is not None:
            assert names[line.seat] in line.text, line
        else:
            assert line.text.startswith("Roll-off tied:") or final_round(line), line
        assert "Seat " not in line.text
        if kind == "rondo":
            # Only a face-up placement names a colour: its space's, which its tiles share (public).
            named = {c for c in RONDO_TILE_COLOURS if re.search(rf"\b{c}\b", line.text)}
            parts = moves[line.ply].notation.split()
            if parts[0] == "place" and parts[2].isdigit():
                b = rules_board(start)
                assert named == {RONDO_TILE_COLOURS[b.colour[b.index[parts[1]]]]}, line
            else:
                assert not named, line
    assert lines[0].begins == "setup"
    for i, m in enumerate(moves):
        if m.notation.startswith("leave"):
            idle = (
                i > 0 and moves[i - 1].notation == "timeout" and moves[i - 1].version_after == m.version_after
            )
            text = by_ply[m.ply][0].text
            assert ("missed three turns in a row: out of the match" in text) == idle, text
            assert ("left the match" in text) == (not idle), text


@pytest.mark.parametrize(("kind", "players", "seed"), CASES[::3])
def test_frames_of_a_few_plies_make_the_same_numbered_list_as_the_whole_record(kind, players, seed):
    """The page's list (the whole record) and the list a watcher builds from
    the live frames (each change's lines, from the state before it: lines
    that continue the open turn go into the last turn, the others open
    turns numbered on from it) are the same."""
    rules = get_rules(kind)
    start, moves = playout(kind, players, seed)
    names = labels(players)
    whole = turns(number_lines(describe(kind, moves, names, start)))
    rng = random.Random(seed)
    state, page = start, []
    for _i, part in chunks(moves, rng):
        lines = describe(kind, part, names, state)
        for m in part:
            state = rules.play(state, m.notation)
        if not lines:
            continue
        groups = turns(number_lines(lines))
        if lines[0].begins == "":
            page[-1][1].extend(groups[0].lines)
            groups = groups[1:]
        for g in groups:
            number = 0 if g.setup else (page[-1][0] + 1 if page else 1)
            page.append((number, list(g.lines)))
    assert [(t.number, t.lines) for t in whole] == page


def test_turns_number_on_from_the_turns_before():
    start, moves = playout("ludo", 2, 7)
    names = labels(2)
    lines = describe("ludo", moves, names, start)
    cut = len(lines) // 2
    whole = number_lines(lines)
    opened = sum(1 for line in lines[:cut] if line.begins == "turn")
    assert number_lines(lines[:cut]) + number_lines(lines[cut:], opened) == whole
    assert whole[0][1] == 0 and {n for _, n in whole} == set(range(max(n for _, n in whole) + 1))


# -- each game's events, from positions reached by chosen moves ------------------------


def rec(rules, state, notations, seats=None):
    """Moves (for ``describe``) that play ``notations`` from ``state``, the
    seat of each being the one to move (None at chance)."""
    out = []
    for i, n in enumerate(notations):
        who = rules.to_move(state)
        seat = None if who == CHANCE else who
        if seats and i in seats:
            seat = seats[i]
        out.append(
            SimpleNamespace(
                ply=i, actor="chance" if seat is None else "seat", seat=seat, notation=n, version_after=i
            )
        )
        state = rules.play(state, n)
    return out


LUDO = get_rules("ludo")
NAMES = {0: "ada (red)", 1: "bo (yellow)"}


def test_ludo_lines_name_the_roller_and_a_six_s_extra_roll_stays_in_the_turn():
    start = LUDO.new_match(2)
    moves = rec(LUDO, start, ["s0", "roll", "d6", "p1", "roll", "d2", "p1", "roll", "d3"])
    lines = describe("ludo", moves, NAMES, start)
    assert [(line.text, line.begins) for line in lines] == [
        ("Drawn to start: ada (red).", "setup"),
        ("ada (red) rolled 6.", "turn"),
        ("ada (red) entered piece 1.", ""),
        ("ada (red) rolled 2.", ""),  # the six's extra roll: the same turn
        ("ada (red) moved piece 1 by 2.", ""),
        ("bo (yellow) rolled 3: no piece can move; the turn passes.", "turn"),
    ]
    assert [t.number for t in turns(number_lines(lines))] == [0, 1, 2]


def test_ludo_a_third_six_and_a_missed_roll():
    start = LUDO.new_match(2)
    moves = rec(LUDO, start, ["s0", "roll", "d6", "p0", "roll", "d6", "p0", "roll", "d6", "timeout"])
    texts = [line.text for line in describe("ludo", moves, NAMES, start)]
    assert texts[-2] == "ada (red) rolled 6, a third six in a row: the roll is forfeited and the turn passes."
    assert texts[-1] == "bo (yellow) ran out of time: the turn passes."


def test_ludo_a_capture_and_a_piece_home_are_lines_of_their_own():
    state = run(LUDO.new_match(2), "s0")
    state = drive(state, 0, [(d, 0) for d in TO_HOME[:-1]])  # piece 0 of ada one roll from home
    state = drive(state, 1, [(6, 0)])
    before = state
    while LUDO.to_move(before) != 0:
        before = LUDO.play(before, "timeout")
    moves = rec(LUDO, before, ["roll", f"d{TO_HOME[-1]}", "p0"])
    texts = [line.text for line in describe("ludo", moves, NAMES, before)]
    assert texts == [
        f"ada (red) rolled {TO_HOME[-1]}.",
        f"ada (red) moved piece 0 by {TO_HOME[-1]}.",
        "ada (red)'s piece 0 reached home (1 of 4).",
    ]
    # A red piece lands 2 cells on, on a ring cell that is not safe and holds bo's piece 0.
    pos = LUDO.load(
        ludo_state(players=2, phase="move", turn=0, die=2, pieces=[[26, -1, -1, -1], [2, -1, -1, -1]])
    )
    cell = CELL[SEAT_COLOURS[2][0]][28]
    assert cell == CELL[SEAT_COLOURS[2][1]][2] and cell not in SAFE_CELLS
    moves = rec(LUDO, pos, ["p0"])
    texts = [line.text for line in describe("ludo", moves, NAMES, pos)]
    assert texts == [
        "ada (red) moved piece 0 by 2.",
        "ada (red) captured bo (yellow)'s piece 0: back to base.",
    ]


def test_an_idle_out_reads_as_missed_turns_and_a_leave_as_leaving():
    start = LUDO.new_match(3)
    names = {0: "ada (red)", 1: "bo (green)", 2: "cy (yellow)"}
    state = run(start, "s0")
    moves = [
        SimpleNamespace(ply=0, actor="chance", seat=None, notation="s0", version_after=1),
        SimpleNamespace(ply=1, actor="server", seat=0, notation="timeout", version_after=2),
        SimpleNamespace(ply=2, actor="server", seat=0, notation="leave 0", version_after=2),
        SimpleNamespace(ply=3, actor="server", seat=2, notation="leave 2", version_after=3),
    ]
    texts = [line.text for line in describe("ludo", moves, names, start)]
    assert texts[1:] == [
        "ada (red) ran out of time: the turn passes.",
        "ada (red) missed three turns in a row: out of the match.",
        "cy (yellow) left the match.",
    ]
    assert state is not None


def test_roundabout_roll_off_dice_name_their_seat_and_the_turn_is_the_roll():
    rules = get_rules("roundabout")
    start = rules.new_match(3)
    names = {0: "ada (red)", 1: "Computer 2 (Strong, green)", 2: "bob (yellow)"}
    state = run(start, "d5 d5 d2 d3 d6", rules)  # ada and the computer tie on 5, then the computer wins
    moves = rec(
        rules, start, ["d5", "d5", "d2", "d3", "d6", "roll", "d3-4", "offer 2 0", "decline", "accept"]
    )
    texts = [(line.text, line.begins) for line in describe("roundabout", moves, names, start)]
    assert texts[:7] == [
        ("Roll-off: ada (red) rolled 5.", "setup"),
        ("Roll-off: Computer 2 (Strong, green) rolled 5.", ""),
        ("Roll-off: bob (yellow) rolled 2.", ""),
        ("Roll-off tied: ada (red) and Computer 2 (Strong, green) roll again.", ""),
        ("Roll-off: ada (red) rolled 3.", ""),
        ("Roll-off: Computer 2 (Strong, green) rolled 6.", ""),
        ("Computer 2 (Strong, green) won the roll-off and starts.", ""),
    ]
    assert texts[7:] == [
        ("Computer 2 (Strong, green) rolled 3 and 4.", "turn"),
        ("Computer 2 (Strong, green) offered the roll to bob (yellow), then ada (red).", ""),
        ("bob (yellow) declined the roll.", ""),
        ("ada (red) accepted the roll.", ""),
    ]
    assert state is not None


def test_roundabout_darts_home_and_captures_appear_in_random_matches():
    seen = set()
    for seed in range(6):
        start, moves = playout("roundabout", 2, seed, max_plies=3000)
        for line in describe("roundabout", moves, labels(2), start):
            for word in ("went home", "is captured", "are captured", "Ringer:", "free again"):
                if word in line.text:
                    seen.add(word)
    assert {"went home", "is captured"} <= seen


def test_rondo_lines_never_name_a_drawn_or_face_down_colour():
    """docs/rules.md "Hidden information": a draw is "a tile", a face-down
    tile "a tile face down"; seats are named without their colours (which
    are tile colours' names)."""
    rules = get_rules("rondo")
    assert seat_labels("rondo", {0: "ada"}, {0: "green"}) == {0: "ada"}
    assert seat_labels("ludo", {0: "ada", 1: "Computer 2 (Easy)"}, {0: "red", 1: "blue"}) == {
        0: "ada (red)",
        1: "Computer 2 (Easy, blue)",
    }
    start, moves = playout("rondo", 2, 3)
    lines = describe("rondo", moves, {0: "ada", 1: "bo"}, start)
    dealt = [line.text for line in lines if line.text.startswith("A tile was dealt")]
    assert len(dealt) == 4
    by_ply = {m.ply: m for m in moves}
    for line in lines:
        m = by_ply[line.ply]
        if m.notation.startswith("tile") or " down " in m.notation:
            assert m.notation.split()[-1] not in line.text
    assert any(" drew a tile." in line.text for line in lines)
    assert rules is not None


def test_rondo_lines_say_who_did_what_in_words_with_the_space_as_the_board_shows_it():
    """A player reads "ada placed 2 red tiles on a red 3: 6 points.", not a
    space code ("S000-1": the line's note, its title); every line names who
    acted, or is the set-up's, a deal's or the final round's."""
    from tests.engine.rondo_helpers import position

    rules = get_rules("rondo")
    board = rules.board("blue")
    start = next(i for i in range(board.size) if board.start_mask >> i & 1)
    sid, value = board.ids[start], board.value[start]
    colour = ("yellow", "red", "purple", "blue", "green")[board.colour[start]]
    other = next(c for c in ("yellow", "red", "purple", "blue", "green") if c != colour)
    state = position(rules, [[colour, colour, other], ["red"]], turn=0, starter=0)
    first = rules.play(state, f"place {sid} 2")
    nxt = next(m for m in rules.legal_moves(first) if m.kind == "place" and m.count == 0)
    plies = [(0, f"place {sid} 2"), (0, str(nxt)), (0, "end"), (None, "tile red"), (1, "draw"),
             (None, "tile green"), (None, "tile blue")]
    moves = [SimpleNamespace(ply=i, actor="chance" if s is None else "seat", seat=s, notation=n,
                             version_after=i) for i, (s, n) in enumerate(plies)]
    lines = describe("rondo", moves, {0: "ada", 1: "bo"}, state)
    nb = board.index[nxt.space]
    gray = lambda i: " (a gray space)" if board.gray[i] else ""  # noqa: E731
    assert [line.text for line in lines] == [
        f"ada placed 2 {colour} tiles on a {colour} {value}{gray(start)}: {2 * value} points.",
        f"ada placed a tile face down on a space worth {board.value[nb]}{gray(nb)} (a bridge: no points).",
        f"ada ended the chain: {2 * value} points this turn, {2 * value} in all.",
        "ada drew a tile.",
        "bo chose to draw instead of placing.",
        "bo drew a tile.",
        "bo drew a tile.",
    ]
    assert [line.note for line in lines[:2]] == [f"Space {sid}", f"Space {nxt.space}"]
    code = re.compile(r"\b(S\d{3}-\d|I\d\d|O\d\d|L\d{3}-\d)\b")
    start_state, played = playout("rondo", 3, 5)
    played_lines = describe("rondo", played, {0: "ada", 1: "bo", 2: "cy"}, start_state)
    texts = [line.text for line in played_lines]
    for line in played_lines:
        assert not code.search(line.text), line.text
        assert line.seat is None or any(n in line.text for n in ("ada", "bo", "cy")), line.text
        assert not re.search(r",[:.,)]|\s[:.,]", line.text), line.text  # no "a gray space,: 4 points"
    assert any("(a gray space)" in t for t in texts)  # the playout names one


def test_rondo_the_final_round_is_a_line_of_its_own():
    """The ply that covers the last gray space (or finds the bag short) is
    followed by a line saying the final round has begun."""
    for seed in range(4):
        start, moves = playout("rondo", 2, seed)
        lines = describe("rondo", moves, {0: "ada", 1: "bo"}, start)
        finals = [line for line in lines if "final round" in line.text or "the match ends" in line.text]
        if finals:
            assert len(finals) == 1 and finals[0].seat is None
            # It may share its ply with a hidden draw: not even part of a word names a colour.
            assert not any(c in finals[0].text.lower() for c in RONDO_TILE_COLOURS), finals[0]
            assert finals[0].text.split(":")[0] in ("The last gray space is taken", "The bag ran out",
                                                  "Nobody can place or draw")
            return
    raise AssertionError("no playout reached its final round")


def test_a_record_that_stops_replaying_says_where_and_echoes_no_notation():
    start = LUDO.new_match(2)
    moves = rec(LUDO, start, ["s0", "roll", "d6"])
    moves.append(SimpleNamespace(ply=3, actor="seat", seat=0, notation="p3", version_after=3))
    moves.append(SimpleNamespace(ply=4, actor="seat", seat=0, notation="roll", version_after=4))
    moves[2].notation = "d2"  # edited: no piece can enter, so p3 does not replay
    lines = describe_record("ludo", moves, NAMES, start)
    assert lines[-1].text == "The record does not replay from ply 3."
    assert ply_text("ludo", moves[2], lines, NAMES).startswith("ada (red) rolled 2")


def test_a_lines_seat_colour_is_in_the_readers_language():
    """The seats' colours in the move list's lines follow the language, as the
    rest of the line does (English byte-identical)."""
    from django.utils import translation

    names, colours = {0: "ada", 1: "Computer 2 (Normal)"}, {0: "red", 1: "yellow"}
    with translation.override("en"):
        assert seat_labels("ludo", names, colours) == {0: "ada (red)", 1: "Computer 2 (Normal, yellow)"}
    with translation.override("es"):
        # (the names come translated: seat_names; here they are given as they are)
        assert seat_labels("ludo", names, colours) == {0: "ada (rojo)", 1: "Computer 2 (Normal, amarillo)"}
    with translation.override("ar"):
        assert seat_labels("roundabout", names, colours) == {0: "ada (أحمر)", 1: "Computer 2 (Normal، أصفر)"}
