"""The admin shows no hidden fact of a live match (README "Moderation").

A live Rondo match with drawn tiles and face-down placements in its record
is opened in the admin by a moderator and by a superuser: the match list,
a search, and the match's page with its seat and move inlines. The engine
says what is hidden (``Rules.hidden`` of the state, ``Rules.hidden_in_move``
of each recorded move, for a spectator); none of it may show: no hidden
move's notation, no colour on a hidden move's row, no rack, bag or
face-down colour of the state. Once the match has ended, all of it may.
"""

from __future__ import annotations

import json
import random

import pytest

from games import actions
from games.engine import get_rules
from games.models import Match, Move
from moderation import actions as moderation
from tests.factories import make_match
from tests.hidden import parse

RONDO = get_rules("rondo")
MATCHES = "/admin/games/match/"


def play_some_turns(match: Match, turns: int) -> Match:
    """``turns`` whole turns of the seats to move, through the actions, each
    placing face down where it can (so the record hides colours)."""
    rng = random.Random(3)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    for _ in range(turns):
        match.refresh_from_db()
        state = RONDO.load(match.state)
        seat = RONDO.to_move(state)
        plies = []
        while RONDO.to_move(state) == seat and len(plies) < actions.MAX_PLIES_PER_ACTION:
            legal = RONDO.legal_moves(state)
            downs = [m for m in legal if str(m).split()[2:3] == ["down"]]
            move = downs[0] if downs and len(plies) < 2 else (
                next((m for m in legal if str(m) == "end"), None) or rng.choice(legal))
            plies.append(str(move))
            state = RONDO.play(state, move)
        actions.play_move(match.public_id, users[seat], plies, match.version)
    match.refresh_from_db()
    return match


def secrets_of(match: Match) -> tuple[set, dict[int, frozenset]]:
    """(the state's facts hidden from a spectator, ply -> facts its move hides)."""
    state = RONDO.load(match.start_state)
    by_ply = {}
    for m in Move.objects.filter(match=match).order_by("ply"):
        facts = RONDO.hidden_in_move(state, m.notation, None)
        if facts:
            by_ply[m.ply] = (m.notation, facts)
        state = RONDO.play(state, m.notation)
    return set(RONDO.hidden(RONDO.load(match.state), None)), by_ply


def move_rows(html: str) -> dict[int, str]:
    """The move inline's rows: ply (its "ply" cell) -> the row's text."""
    elements = parse(html)
    rows = {}
    for row in elements:
        if row.tag == "tr" and str(row.attrs.get("id", "")).startswith("moves-"):
            ply = next(e.text.strip() for e in elements
                       if e.attrs.get("class") == "field-ply" and any(p is row.attrs for p in e.parents))
            rows[int(ply)] = row.text
    return rows


def assert_nothing_hidden_shows(html: str, match: Match, where: str) -> None:
    state_facts, by_ply = secrets_of(match)
    assert state_facts and by_ply, "the test match should hold secrets"
    for ply, (notation, _facts) in by_ply.items():
        assert notation not in html, f"{where}: the hidden move {notation!r} (ply {ply}) is shown"
    rows = move_rows(html)
    for ply, text in rows.items():
        if ply in by_ply:
            for fact in by_ply[ply][1]:
                assert str(fact[-1]) not in text.lower(), f"{where}: row {ply} ({text!r}) names {fact[-1]!r}"
    state = match.state
    for key in ("racks", "face_down", "bag"):
        assert json.dumps(state[key]) not in html, f"{where}: the state's {key} is shown"
        assert f"&quot;{key}&quot;" not in html and f'"{key}"' not in html, f"{where}: the state is shown"


@pytest.fixture
def live_rondo(db, no_effects):
    match = make_match("rondo", seats=("human", "human", "human"))
    return play_some_turns(match, 6)


@pytest.mark.parametrize("who", ["moderator", "superuser"])
def test_the_admin_shows_no_hidden_tile_of_a_live_rondo_match(client, request, live_rondo, who):
    client.force_login(request.getfixturevalue(who))
    match = live_rondo
    change = client.get(f"{MATCHES}{match.pk}/change/")
    assert change.status_code == 200
    html = change.content.decode()
    assert_nothing_hidden_shows(html, match, f"{who}: match page")
    rows = move_rows(html)
    assert len(rows) == Move.objects.filter(match=match).count()  # every ply is listed, secrets withheld
    assert "(hidden until the match ends)" in html
    assert "place" in html and "end" in html  # the public plies keep their notation
    for url in (MATCHES, f"{MATCHES}?q={match.public_id}", f"{MATCHES}?status__exact=active"):
        page = client.get(url)
        assert page.status_code == 200
        assert match.public_id in page.content.decode()
        assert_nothing_hidden_shows(page.content.decode(), match, f"{who}: {url}")


@pytest.mark.parametrize("who", ["moderator", "superuser"])
def test_the_match_list_cannot_be_filtered_on_the_seed_the_state_or_the_moves(client, request, live_rondo,
                                                                              who):
    """The list's count would answer yes or no to each guess (one character of
    the seed at a time, a face-down colour, a drawn tile): such a filter is
    refused outright, whatever it guesses."""
    client.force_login(request.getfixturevalue(who))
    match = live_rondo
    face_down = next(iter(match.state["face_down"]))
    guesses = [f"seed__startswith={match.seed[:1]}", f"seed={match.seed}", "seed__isnull=False",
               f"state__face_down__{face_down}__0=blue", "state__isnull=False",
               "start_state__isnull=False", "moves__notation__startswith=tile",
               "moves__notation__contains=down"]
    for guess in guesses:
        page = client.get(f"{MATCHES}?public_id={match.public_id}&{guess}")
        assert page.status_code in (302, 400), f"{who}: ?{guess} answered {page.status_code}"
        assert "1 match" not in page.content.decode()
    allowed = client.get(f"{MATCHES}?public_id={match.public_id}&status__exact=active")
    assert allowed.status_code == 200 and match.public_id in allowed.content.decode()


def test_after_the_end_the_admin_may_show_the_whole_record(client, superuser, moderator, live_rondo):
    match = live_rondo
    _facts, by_ply = secrets_of(match)
    moderation.abort_match(moderator, match.public_id, "test")
    client.force_login(moderator)
    html = client.get(f"{MATCHES}{match.pk}/change/").content.decode()
    assert "(hidden until the match ends)" not in html
    for notation, _ in by_ply.values():
        assert notation in html
    assert "racks" in html  # the engine state, once over


def test_a_move_is_named_by_its_ply_not_its_notation():
    """The admin titles inline rows with ``str(move)``; logs may name moves too."""
    move = Move(match=Match(kind="rondo", public_id="abc"), ply=4, notation="tile red")
    assert str(move) == "Rondo abc ply 4"
