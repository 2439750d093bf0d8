"""Rondo on the site: the rules page, starting a solo match, the board and the
seat's controls, and the chain sent without JavaScript as one form."""

import pytest

from games.engine import get_rules
from games.models import Match, Move
from tests.engine.rondo_helpers import position
from tests.factories import make_match, make_user

RONDO = get_rules("rondo")


def test_the_rules_page_is_in_the_index_and_credits_the_game(client):
    page = client.get("/rules/rondo/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Reiner Knizia" in text and "Schmidt Spiele" in text
    assert "/rules/rondo/" in client.get("/rules/").content.decode()


@pytest.mark.django_db
def test_a_solo_rondo_match_starts_with_the_board_and_the_players_rack(client):
    user = make_user()
    client.force_login(user)
    response = client.post(
        "/play/",
        {
            "kind": "rondo",
            "players": 3,
            "level_1": "easy",
            "level_2": "normal",
            "level_3": "normal",
            "speed": "normal",
            "theme": "plain",
        },
    )
    assert response.status_code == 302
    match = Match.objects.get(kind="rondo")
    assert match.turn_seconds == 90
    page = client.get(response["Location"]).content.decode()
    assert 'class="board rondo-board"' in page and 'id="rs-O02"' in page
    assert 'data-rack-seat="0"' in page and 'data-rack-seat="1"' not in page
    assert "js/rondo.js" in page


def _my_turn_match(racks, tiles=None):
    users = [make_user(), make_user()]
    state = position(RONDO, racks, tiles=tiles or {})
    match = make_match("rondo", seats=("human", "human"), users=users, state=RONDO.dump(state))
    return match, users


@pytest.mark.django_db
def test_a_chain_posted_without_javascript_is_played_as_one_action(client):
    board = RONDO.board("blue")
    start = next(i for i in range(board.size) if board.start_mask >> i & 1)
    nxt = next(j for j, _ in board.nb[start])
    colours = ("yellow", "red", "purple", "blue", "green")
    first, second = colours[board.colour[start]], colours[board.colour[nxt]]
    match, users = _my_turn_match([[first, first, second], ["red"]])
    client.force_login(users[0])
    page = client.get(f"/m/{match.public_id}/").content.decode()
    assert 'id="rondo-chain-form"' in page and f"place {board.ids[start]} 2" in page
    version = match.version
    response = client.post(
        f"/m/{match.public_id}/move/",
        {
            "version": version,
            "move": [f"place {board.ids[start]} 2", f"place {board.ids[nxt]} 1", "", "", "", "end"],
        },
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.version == version + 1
    notations = list(
        Move.objects.filter(match=match, version_after=version + 1).values_list("notation", flat=True)
    )
    assert notations[:3] == [f"place {board.ids[start]} 2", f"place {board.ids[nxt]} 1", "end"]
    assert notations[3].startswith("tile ")
    state = RONDO.load(match.state)
    assert state.scores[0] == 2 * board.value[start] + board.value[nxt]


@pytest.mark.django_db
def test_a_broken_chain_changes_nothing_and_says_why(client):
    board = RONDO.board("blue")
    start = next(i for i in range(board.size) if board.start_mask >> i & 1)
    colours = ("yellow", "red", "purple", "blue", "green")
    match, users = _my_turn_match([[colours[board.colour[start]], "red"], ["red"]])
    client.force_login(users[0])
    version = match.version
    response = client.post(
        f"/m/{match.public_id}/move/",
        {
            "version": version,
            "move": [f"place {board.ids[start]} 1", "place O17 down red", "end"],
        },
        follow=True,
    )
    assert "not a legal move" in response.content.decode()
    match.refresh_from_db()
    assert match.version == version and RONDO.load(match.state).scores == (0, 0)


@pytest.mark.django_db
def test_drawing_instead_of_placing(client):
    match, users = _my_turn_match([["red"], ["red"]])
    client.force_login(users[0])
    page = client.get(f"/m/{match.public_id}/").content.decode()
    assert 'value="draw"' in page
    client.post(f"/m/{match.public_id}/move/", {"version": match.version, "move": "draw"})
    match.refresh_from_db()
    assert sum(RONDO.load(match.state).racks[0]) == 3


@pytest.mark.django_db
def test_replay_and_export_of_a_finished_match_and_none_before(client):
    users = [make_user(), make_user()]
    state = position(RONDO, [["red"], ["blue"]], turn=1, starter=0, ending=True, scores=[4, 3])
    match = make_match("rondo", seats=("human", "human"), users=users, state=RONDO.dump(state))
    client.force_login(users[0])
    assert client.get(f"/m/{match.public_id}/replay/").status_code == 302
    assert client.get(f"/m/{match.public_id}/export.json").status_code == 404
    client.force_login(users[1])
    client.post(f"/m/{match.public_id}/move/", {"version": match.version, "move": "draw"})
    match.refresh_from_db()
    assert match.status == "finished"
    total = match.ply_count
    for ply in (0, total):
        page = client.get(f"/m/{match.public_id}/replay/?ply={ply}")
        assert page.status_code == 200 and 'class="board rondo-board"' in page.content.decode()
    export = client.get(f"/m/{match.public_id}/export.json").json()
    assert export["game"] == "rondo" and export["moves"][-1]["move"].startswith("tile ")


@pytest.mark.django_db
def test_a_rondo_timeout_passes_the_turn_with_no_placement_and_no_draw():
    from datetime import timedelta

    from django.utils import timezone

    from games import actions

    match, users = _my_turn_match([["red", "blue"], ["green"]])
    before = RONDO.load(match.state)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    actions.expire_turn(match.public_id, match.version)
    match.refresh_from_db()
    after = RONDO.load(match.state)
    assert (after.racks, after.bag, after.cells) == (before.racks, before.bag, before.cells)
    assert RONDO.to_move(after) == 1
    assert list(Move.objects.filter(match=match).order_by("-ply").values_list("notation", flat=True)[:1]) == [
        "timeout"
    ]
    assert match.seats.get(index=0).missed_turns == 1


def _board_html(state, viewer=None) -> str:
    from django.template.loader import render_to_string

    from games.rondo.svg import board_context

    return render_to_string("games/rondo/board.html", {"board": board_context(RONDO.view(state, viewer))})


def test_tiles_are_drawn_as_tiles_a_stack_as_a_stack_a_face_down_tile_as_its_back():
    """"R2" (two red tiles) read as a red 2 and "?" as a question: a tile face up is now
    a square in its colour with its letter and nothing else, a stack shows its other
    tiles under the top one, a face-down tile is its back (no text) until the end."""
    from tests.hidden import parse

    board = RONDO.board("blue")
    colours = ("yellow", "red", "purple", "blue", "green")
    one, two = board.ids[0], board.ids[1]
    down = board.ids[2]
    state = position(RONDO, [["red"], ["blue"]], tiles={one: 1, two: 3}, face_down={down: ("blue", 1)})
    els = parse(_board_html(state, viewer=0))
    tiles = {e.attrs["data-tile-space"]: e for e in els if "data-tile-space" in e.attrs}
    assert set(tiles) == {one, two, down}

    def inside(space, cls):
        return [e for e in els if e.attrs.get("class") == cls and tiles[space].attrs in e.parents]

    for space, count in ((one, 1), (two, 3)):
        colour = colours[board.colour[board.ids.index(space)]]
        assert tiles[space].text.startswith(colour[0].upper()), tiles[space].text
        [letter] = inside(space, "rb-tl")
        assert letter.text == colour[0].upper()
        assert len(inside(space, "rb-under")) == count - 1
        assert f"{count} {colour} tile" in tiles[space].text
    assert not inside(down, "rb-tl") and len(inside(down, "rb-back")) == 2
    assert "?" not in tiles[down].text and "blue" not in tiles[down].text
    assert "a tile face down" in tiles[down].text


def test_the_no_script_chain_form_lists_the_best_placements_first():
    """A first space's options in the plain form: most points first, and a 0-point
    face-down bridge after every face-up placement (the engine's board order put one first)."""
    import random
    import re

    from games.rondo.templatetags.rondo_tags import rondo_chain

    rules = get_rules("rondo")
    state, rnd = rules.new_match(2, {}), random.Random(3)
    while rules.to_move(state) == -1:
        state = rules.play(state, rnd.choice(rules.chance_outcomes(state))[0])
    seat_view = rules.view(state, rules.to_move(state))
    engine_order = [m["label"] for m in seat_view["private"]["moves"] if "space" in m]
    assert "face down" in engine_order[0]  # the case this is about
    labels = re.findall(r">([^<]+)</option>", str(rondo_chain(seat_view)["first_options"]))
    assert sorted(labels) == sorted(engine_order)
    points = [int(re.search(r"(\d+) points?\)", label).group(1)) for label in labels]
    assert points == sorted(points, reverse=True)
    assert "face up" in labels[0] and "face down" in labels[-1]
