"""Roundabout on the live-play platform: the board drawing, the controls, the
rules page, the record in words, solo play through the actions, and the
clock (an offer that times out is a decline, not a missed turn)."""

from datetime import timedelta

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games import actions
from games.engine import get_rules
from games.models import Match, Move
from games.record import describe
from games.roundabout.svg import bar_angle, board_context, space_xy
from tests.engine.roundabout_helpers import position, run
from tests.factories import make_match, make_user

RA = get_rules("roundabout")


# -- the board drawing (no database) ------------------------------------------------
def test_spaces_sit_on_their_rings_and_bars_go_clockwise_on_screen():
    x0, y0 = space_xy(0)  # ring 1, bar 0: just right of twelve o'clock
    x1, y1 = space_xy(1)
    assert y0 < 50 and x0 > 50 and x1 > x0, "bar 1 is clockwise of bar 0"
    assert round(((x0 - 50) ** 2 + (y0 - 50) ** 2) ** 0.5) == 14
    assert bar_angle(3.5) == 0, "green's territory (bars 4..7) starts at three o'clock"


def test_board_context_draws_every_dart_as_an_arrow_with_its_facing_and_marks():
    darts = {0: {0: (2, 5, "cw"), 1: (3, 5, "ccw"), 2: (3, 8, "cw"), 3: (3, 9, "cw")}, 1: {0: (4, 5, "cw")}}
    board = board_context(RA.view(position(2, darts), None))
    assert len(board["darts"]) == 5
    red0 = next(d for d in board["darts"] if d["seat"] == 0 and d["dart"] == 0)
    assert red0["transform"].endswith(f"rotate({bar_angle(5) + 90:g})")
    red1 = next(d for d in board["darts"] if d["seat"] == 0 and d["dart"] == 1)
    assert red1["transform"].endswith(f"rotate({bar_angle(5) - 90:g})")
    assert [d["captured"] for d in board["darts"] if d["seat"] == 1] == [True]
    assert len(board["blocks"]) == 2  # (2,5)-(3,5) and (3,8)-(3,9)
    assert [(r["ring"], r["length"]) for r in board["ringers"]] == [(3, 2)]
    assert "dart 0 on ring 4, bar 5, facing clockwise, captured" in board["summary"]
    # The board's accessible name: its title, then each seat's words (one part each).
    words = "; ".join(s["text"][:-1] for s in board["seat_texts"])
    assert board["summary"] == f"{board['title']} {words}."
    html = render_to_string("games/roundabout/board.html", {"board": board})
    assert html.count('class="ra-dart') == 5 and "ra-caught" in html and "ra-ringer" in html
    assert 'id="board"' in html and 'hx-swap-oob="true"' in html


def test_the_record_reads_in_words():
    """A real record, played from the start (the lines read the position
    before each ply: who rolled, who moves after an accepted offer)."""
    from types import SimpleNamespace

    rules = get_rules("roundabout")
    start = rules.new_match(3)
    names = {0: "ada", 1: "Computer", 2: "bob"}
    plies = [("chance", None, "d6"), ("chance", None, "d1"), ("chance", None, "d2"),
             ("seat", 0, "roll"), ("chance", None, "d1-2"), ("seat", 0, "offer 2 1"),
             ("server", 2, "decline"), ("seat", 1, "accept"),
             ("seat", 1, "0r1"), ("seat", 1, "1r2"), ("seat", 1, "roll"), ("chance", None, "d3-3"),
             ("seat", 1, "rev 1"), ("server", 2, "timeout"), ("server", 2, "leave 2")]
    moves = [SimpleNamespace(ply=i, actor=a, seat=s, notation=n, version_after=i)
             for i, (a, s, n) in enumerate(plies)]
    texts = [line.text for line in describe("roundabout", moves, names, start)]
    assert texts[:4] == ["Roll-off: ada rolled 6.", "Roll-off: Computer rolled 1.", "Roll-off: bob rolled 2.",
                         "ada won the roll-off and starts."]
    assert texts[4:] == [
        "ada rolled 1 and 2.",
        "ada offered the roll to bob, then Computer.",
        "bob declined the roll (time ran out).",
        "Computer accepted the roll.",
        "Computer moved dart 0 by 1 around the ring.",
        "Computer moved dart 1 by 2 around the ring.",
        "Computer rolled 3 and 3 (doubles).",
        "Computer turned dart 1 around.",
        "bob ran out of time: the turn passes.",
        "bob left the match.",
    ]


# -- pages and actions ------------------------------------------------------------------
@pytest.mark.django_db
def test_the_rules_page_credits_otero_games_and_is_linked_from_the_index(client):
    body = client.get(reverse("rules", args=["roundabout"])).content.decode()
    assert "ROUNDABOUT by Otero Games" in body and "Golden Rule" in body
    assert reverse("rules", args=["roundabout"]) in client.get(reverse("rules_index")).content.decode()


@pytest.mark.django_db
def test_a_solo_roundabout_match_starts_from_the_play_page_with_a_roll_off(client):
    user = make_user()
    client.force_login(user)
    resp = client.post(reverse("play"), {"kind": "roundabout", "players": "3", "level_1": "easy",
                                         "level_2": "easy", "level_3": "easy", "speed": "fast"})  # fmt: skip
    match = Match.objects.get()
    assert resp.status_code == 302 and match.kind == "roundabout" and match.turn_seconds == 60
    assert Move.objects.filter(match=match, actor="chance", chance_index=0).exists(), "the roll-off"
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert "roundabout-board" in page


def _offer_state():
    three = {0: {0: (3, 5, "cw")}, 1: {0: (3, 12, "cw")}, 2: {0: (2, 8, "ccw")}}
    return RA.dump(run(position(3, three), "roll, d3-4, offer 1"))


@pytest.mark.django_db
def test_the_offered_seat_sees_accept_and_decline_and_the_roller_offers_only_legal_orders():
    users = [make_user(), make_user(), make_user()]
    match = make_match("roundabout", ("human", "human", "human"), users=users, state=_offer_state())
    from games.frames.render import seat_frame

    seats = {s.index: s for s in match.seats.all()}
    offered = seat_frame(match, seats[1])
    assert "Accept the offered roll" in offered and "Decline the offered roll" in offered
    assert "Accept the offered roll" not in seat_frame(match, seats[0])


@pytest.mark.django_db
def test_an_offer_that_times_out_is_a_decline_and_not_a_missed_turn():
    users = [make_user(), make_user(), make_user()]
    match = make_match("roundabout", ("human", "human", "human"), users=users, state=_offer_state())
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    after = actions.expire_turn(match.public_id, match.version)
    last = Move.objects.filter(match=after).order_by("-ply").first()
    assert last.notation == "decline" and last.actor == "server" and last.seat == 1
    seats = {s.index: s for s in after.seats.all()}
    assert seats[1].missed_turns == 0
    assert RA.to_move(RA.load(after.state)) == 0, "back to the roller, who must play"
    # The roller's own timeout is a missed turn.
    Match.objects.filter(pk=after.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    again = actions.expire_turn(after.public_id, after.version)
    assert {s.index: s for s in again.seats.all()}[0].missed_turns == 1


@pytest.mark.django_db
def test_a_human_turn_through_the_actions_roll_then_each_die():
    user = make_user()
    state = RA.dump(position(2, {0: {0: (2, 4, "cw")}, 1: {0: (3, 14, "cw")}}))
    match = make_match("roundabout", ("human", "easy"), users=[user], state=state)
    match = actions.play_move(match.public_id, user, "roll", match.version)
    view = RA.view(RA.load(match.state), 0)
    assert len(view["dice"]) == 2 and view["moves"], "the dice were drawn fairly by the server"
    first = next(m["move"] for m in view["moves"] if m["kind"] == "dart")
    match = actions.play_move(match.public_id, user, first, match.version)
    assert Move.objects.filter(match=match, notation=first).exists()
    with pytest.raises(actions.BadMove):
        actions.play_move(match.public_id, user, "9r6", match.version)
