"""The seat's board choices (games/templatetags/board_parts.py) and what a
deadline does to a turn composed on the board (Roundabout rules page, "Timers")."""

import json
import math
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.engine import get_rules
from games.frames import contexts, render
from games.ludo.svg import way
from games.models import Match, Move
from games.roundabout import svg
from tests.engine.roundabout_helpers import position
from tests.factories import ludo_state, make_match

pytestmark = pytest.mark.django_db
RA = get_rules("roundabout")


def choices_of(html: str):
    found = re.search(r'<div id="board-choices"[^>]*>(.*?)</div>', html, re.S)
    return json.loads(found.group(1)) if found else None


def roundabout_match(darts, dice, circuit=()):
    state = RA.play(RA.play(position(2, darts, turn=0, circuit=circuit), "roll"), dice)
    return make_match("roundabout", ("human", "human"), state=RA.dump(state))


def test_ludo_pieces_in_base_are_one_choice_and_so_are_pieces_on_one_square():
    state = ludo_state(2, phase="move", die=6, pieces=[[-1, -1, 20, 20], [-1] * 4], autoplay_forced=False)
    match = make_match(seats=("human", "human"), state=state)
    html = render.seat_frame(match, match.seats.get(index=0))
    assert html.count('name="move"') == 2  # enter, and one of the two on cell 20
    assert "Bring a piece out" in html and "Move a piece forward 6" in html
    board = choices_of(html)
    assert [c["m"] for c in board] == ["p0", "p2"]
    assert board[0]["hr"] == [0, 0, 6, 6]  # the whole base is the target


def test_ludo_previews_go_along_the_track_from_the_seats_own_frame():
    # Red: two pieces on cell 20 (one choice), piece 3 at progress 49; a 3 is rolled.
    state = ludo_state(2, phase="move", die=3, pieces=[[20, 20, -1, 49], [-1] * 4])
    match = make_match(seats=("human", "human"), state=state)
    seats = list(match.seats.select_related("user"))
    html = render.seat_frame(match, seats[0])
    board = {c["m"]: c for c in choices_of(html)}
    assert list(board) == ["p0", "p3"]
    # The pile is one piece in the middle of its square (grid square (11, 6)), its hit circle
    # two cells across (48 px where a cell is 24 px, a 390 px phone).
    assert board["p0"]["h"] == [11.5, 6.5, 1.0]
    assert board["p0"]["p"] == [[11.5, 6.5], [12.5, 6.5], [13.5, 6.5], [14.5, 6.5]]
    for move, (start, end) in {"p0": (20, 23), "p3": (49, 52)}.items():
        assert board[move]["p"] == [list(xy) for xy in way(0, int(move[1]), start, end)]
        assert board[move]["t"] == board[move]["p"][-1]
    public = render.public_frame(contexts.public_context(match, seats))
    assert "board-choices" not in public and "bd-" not in public and "polyline" not in public


def test_roundabout_second_die_choices_come_from_the_engine_after_the_first():
    darts = {0: {0: (3, 14, "cw"), 1: (1, 8, "cw")}, 1: {0: (5, 6, "cw")}}
    match = roundabout_match(darts, "d2-3", {(0, 0)})
    data = choices_of(render.seat_frame(match, match.seats.get(index=0)))
    state = RA.load(match.state)
    firsts = {str(m) for m in RA.legal_moves(state) if m.kind == "dart"}
    assert {c["m"] for c in data["choices"]} == firsts
    for c in data["choices"]:
        after = RA.play(state, c["m"])
        if RA.to_move(after) != 0:
            assert c["e"] == 1 and not c.get("n")  # e.g. dart 0 went home: the turn ended
            continue
        seconds = {data["table"][i]["m"] for i in c["n"]}
        assert seconds == {str(m) for m in RA.legal_moves(after) if m.kind == "dart"}


def test_a_turn_composed_on_the_board_and_sent_after_the_deadline_is_refused_and_times_out():
    darts = {0: {0: (1, 8, "cw"), 1: (2, 8, "cw")}, 1: {0: (5, 6, "cw")}}
    match = roundabout_match(darts, "d2-3")
    data = choices_of(render.seat_frame(match, match.seats.get(index=0)))
    first = data["choices"][0]
    turn = [first["m"], data["table"][first["n"][0]]["m"]]
    past = timezone.now() - timedelta(seconds=5)
    Match.objects.filter(pk=match.pk).update(deadline=past, deadline_task_at=past)
    with pytest.raises(actions.TooLate):
        actions.play_move(match.public_id, match.seats.get(index=0).user, turn, match.version)
    m = Match.objects.get(pk=match.pk)
    rows = list(Move.objects.filter(match=m).values_list("actor", "notation"))
    assert ("server", "timeout") in rows  # the turn timed out
    assert not any(a == "seat" for a, _ in rows)  # and nothing composed was played
    assert m.seats.get(index=0).missed_turns == 1
    assert RA.load(m.state).pos == RA.load(match.state).pos


def test_choices_and_previews_never_reach_the_public_frame():
    darts = {0: {0: (1, 8, "cw"), 1: (2, 8, "cw")}, 1: {0: (5, 6, "cw")}}
    match = roundabout_match(darts, "d2-3")
    seats = list(match.seats.select_related("user"))
    public = render.public_frame(contexts.public_context(match, seats))
    assert "board-choices" not in public and "bd-" not in public


def test_the_doubles_hint_offers_turning_darts_around_only_when_one_may_turn():
    """Reversing doubles say "you may instead turn one or two darts around"
    only when the engine allows a reversal now (not, say, at the start, with
    every dart in its home territory)."""
    import random

    rng = random.Random(3)
    seen = {True: False, False: False}
    for _game in range(30):
        state = RA.load(make_match("roundabout", ("human", "human")).state)
        for _ply in range(200):
            if RA.to_move(state) is None or all(seen.values()):
                break
            mover = RA.to_move(state)
            view = RA.view(state, mover) if state.phase == "move" and mover >= 0 else None
            if (view and len(state.unused) == 2 and view["dice"][0] == view["dice"][1]
                    and not view["jumping"] and not view.get("reversed")):
                match = make_match("roundabout", ("human", "human"), state=RA.dump(state))
                html = render.seat_frame(match, match.seats.get(index=mover))
                can = any(m.kind == "reverse" for m in RA.legal_moves(state))
                if 'data-help="' in html:
                    assert ("turn one or two darts around" in html) == can
                    seen[can] = True
            state = RA.play(state, rng.choice(RA.legal_moves(state)))
    assert all(seen.values()), seen


def test_reversing_doubles_are_board_choices_at_the_darts_own_spot_and_played_as_one_turn():
    """On reversing doubles a dart's own spot turns it (w "turn", the preview the
    dart facing the other way, no die); what may follow comes from the engine
    (another reversal, or a pass), and the composed turn is played as one change."""
    from tests.e2e.positions import RA_DARTS_2, _roundabout_rolled

    match = make_match("roundabout", ("human", "human"), state=_roundabout_rolled(2, RA_DARTS_2, (3, 3)))
    state = RA.load(match.state)
    data = choices_of(render.seat_frame(match, match.seats.get(index=0)))
    turns = [c for c in data["choices"] if c.get("w") == "turn"]
    assert {c["m"] for c in turns} == {str(m) for m in RA.legal_moves(state) if m.kind == "reverse"} != set()
    for c in turns:
        assert "d" not in c and list(c["t"]) == c["h"][:2]  # its own spot
        after = RA.play(state, c["m"])
        assert c["x"] == "pass"  # one reversal may end the turn
        assert {data["table"][i]["m"] for i in c["n"]} == {
            str(m) for m in RA.legal_moves(after) if m.kind == "reverse"}
    first = turns[0]
    version = match.version
    actions.play_move(match.public_id, match.seats.get(index=0).user,
                      [first["m"], data["table"][first["n"][0]]["m"]], version)
    rows = list(Move.objects.filter(match=match, actor="seat").values_list("notation", "version_after"))
    assert [n for n, _ in rows] == [first["m"], data["table"][first["n"][0]]["m"]]
    assert len({v for _, v in rows}) == 1  # one change


def test_after_one_reversal_the_board_offers_the_second_which_ends_the_turn():
    """A seat that turned one dart (say with the "Dart N" button) may turn one more
    on the board too: each remaining reversal is a choice that ends the turn ("e"),
    and the page says Pass ends the turn instead (docs/rules.md "Reversing doubles")."""
    from tests.e2e.positions import RA_DARTS_8, _roundabout_rolled

    state = RA.play(RA.load(_roundabout_rolled(4, RA_DARTS_8, (1, 1))), "rev 3")
    match = make_match("roundabout", ("human", "easy", "easy", "easy"), state=RA.dump(state))
    html = render.seat_frame(match, match.seats.get(index=0))
    data = choices_of(html)
    assert data is not None, "the board offers nothing after the first reversal"
    turns = {c["m"] for c in data["choices"] if c.get("w") == "turn"}
    assert turns == {str(m) for m in RA.legal_moves(state) if m.kind == "reverse"}
    assert len(turns) >= 3 and "rev 3" not in turns
    assert all(c.get("e") == 1 for c in data["choices"]) and data["table"] == []
    assert "turn one more" in html and "Pass" in html


def test_roundabout_dart_choices_carry_the_darts_body_and_its_shape_where_it_stands():
    """Where a match starts darts sit 5.5 board units apart (ring 1): each choice gives
    the dart's body ("hs": a tap in it means that dart, never "Which one?") and its
    angle on the board ("fr": its outline is its highlight). Two bodies never
    overlap, anywhere on the board."""
    from tests.e2e.positions import _roundabout_rolled, _start_darts

    match = make_match("roundabout", ("human", "human"), state=_roundabout_rolled(2, _start_darts(2), (2, 5)))
    data = choices_of(render.seat_frame(match, match.seats.get(index=0)))
    board = svg.board_context(RA.view(RA.load(match.state), None))
    drawn = {d["space"]: d["transform"] for d in board["darts"]}
    firsts = data["choices"]
    assert len({c["k"] for c in firsts}) == 10
    for c in firsts:
        x, y, _ = c["h"]
        assert f"translate({x:g} {y:g}) rotate({c['fr']:g})" == drawn[c["fs"]], c
    assert all(isinstance(c["fr"], float) for c in data["table"])  # after a step: where it stands then
    closest = min(math.dist(svg.space_xy(a), svg.space_xy(b)) for a in range(80) for b in range(a))
    assert all(2 * c["hs"] < closest for c in firsts + data["table"])
