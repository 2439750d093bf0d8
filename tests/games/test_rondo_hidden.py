"""Rondo's hidden information, end to end through the live-play platform.

Full matches are played through the actions (humans send whole chains as one
action; computer seats are driven by calling games.tasks.computer_move). Every
frame push.py sends (captured from push._send_all), the match page for every
viewer and the WebSocket snapshots are parsed: rack elements (data-rack-seat)
and tile elements (data-tile-colour, data-face-down) are checked against what
that viewer may know. Before the end nobody but a rack's owner sees its tiles,
a drawn tile's colour or a face-down tile's colour; afterwards all may be shown.
"""

from __future__ import annotations

import json
import logging
import random

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import actions, push, tasks
from games.engine import get_rules
from games.models import Match, Move
from games.record import describe
from games.rondo import bot as rondo_bots
from games.rondo.engine import COLOURS
from games.rondo.engine.state import down_colour
from games.routing import websocket_urlpatterns
from tests.factories import make_match, make_user
from tests.hidden import parse, silence_tasks

RONDO = get_rules("rondo")
def rack_of(state, seat) -> list[str]:
    return [COLOURS[c] for c in range(5) for _ in range(state.racks[seat][c])]


def hidden_words(match) -> dict[int, str]:
    """ply -> the colour its notation hides (drawn tiles, face-down placements)."""
    out = {}
    for m in Move.objects.filter(match=match):
        parts = m.notation.split()
        if parts[0] == "tile":
            out[m.ply] = parts[1]
        elif parts[0] == "place" and parts[2] == "down":
            out[m.ply] = parts[3]
    return out


def check_frame(html: str, state, viewer, *, over: bool, hidden: dict[int, str]) -> None:
    """What one frame (or page) shows ``viewer`` (None: a spectator or the
    public group) against what it may know in ``state``."""
    b = state.board
    els = parse(html)
    racks = [e for e in els if "data-rack-seat" in e.attrs]
    for rack in racks:
        seat = int(rack.attrs["data-rack-seat"])
        if not over:
            assert seat == viewer, f"viewer {viewer} sees the rack of seat {seat}"
        chips = [
            e.attrs["data-tile-colour"]
            for e in els
            if "data-tile-colour" in e.attrs and rack.attrs in e.parents
        ]
        assert sorted(chips) == sorted(rack_of(state, seat))
    if over and any(e.attrs.get("id") == "board" for e in els):
        assert {int(r.attrs["data-rack-seat"]) for r in racks} >= set(range(state.players)) - {viewer}
    tiles = [e for e in els if "data-tile-space" in e.attrs]
    for t in tiles:
        i = b.index[t.attrs["data-tile-space"]]
        cell = state.cells[i]
        assert cell != 0
        if "data-face-down" in t.attrs:
            assert cell < 0
            if over:
                assert t.attrs["data-tile-colour"] == COLOURS[down_colour(cell)]
            else:
                assert "data-tile-colour" not in t.attrs, "a face-down tile's colour is shown"
        else:
            assert cell > 0 and int(t.attrs["data-tiles"]) == cell
            assert t.attrs["data-tile-colour"] == COLOURS[b.colour[i]]
    for e in els:
        if "data-tile-colour" in e.attrs and "data-tile-space" not in e.attrs:
            # Outside the board's tiles, colours only sit in a rack the viewer may see.
            assert any("data-rack-seat" in p for p in e.parents), "a tile colour outside a rack"
        if e.tag == "option" and e.attrs.get("value", "").startswith("place ") and not over:
            parts = e.attrs["value"].split()
            if parts[2] == "down":
                assert viewer is not None and parts[3] in rack_of(state, viewer)
        if "data-ply" in e.attrs and not over:
            ply = int(e.attrs["data-ply"])
            if ply in hidden:
                assert hidden[ply] not in e.text.lower(), f"ply {ply} names its hidden colour"


@pytest.fixture
def sent(monkeypatch):
    frames = []

    async def capture(messages, version, served=()):
        frames.extend((group, version, html) for group, html in messages)

    monkeypatch.setattr(push, "_send_all", capture)
    return frames


@pytest.fixture
def no_tasks(monkeypatch):
    silence_tasks(monkeypatch)


def seat_of_group(public_id, group, players):
    if group == push.match_group(public_id):
        return None
    for s in range(players):
        if group == push.seat_group(public_id, s):
            return s
    raise AssertionError(f"a frame for an unknown group {group}")


def human_turn(match, seat, rng):
    """A human's whole turn chosen from its own view (as a player would), in notation."""
    state = RONDO.load(match.state)
    view = RONDO.view(state, seat)
    sampled = RONDO.sample_state(view, seat, rng)
    return [str(m) for m in rondo_bots.normal_turn(sampled)]


def play_and_check(capture, sent, seats, *, max_actions=400, check_pages=None):
    rng = random.Random(5)
    with capture(execute=True):
        match = make_match("rondo", seats=seats)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    seen = 0
    actions_done = 0
    while True:
        match.refresh_from_db()
        state = RONDO.load(match.state)
        over = match.status != Match.Status.ACTIVE
        hidden = hidden_words(match)
        for group, version, html in sent[seen:]:
            assert version == match.version
            check_frame(
                html, state, seat_of_group(match.public_id, group, state.players), over=over, hidden=hidden
            )
        seen = len(sent)
        if check_pages is not None:
            check_pages(match, users, state, over, hidden)
        if over:
            return match, users
        who = RONDO.to_move(state)
        with capture(execute=True):
            if users.get(who) is not None:
                actions.play_move(match.public_id, users[who], human_turn(match, who, rng), match.version)
            else:
                tasks.computer_move(match.public_id, match.version)
        actions_done += 1
        assert actions_done < max_actions, "the match did not end"


@pytest.mark.django_db
def test_a_full_match_never_shows_a_hidden_tile_to_anyone_else_until_the_end(
    django_capture_on_commit_callbacks, sent, no_tasks, caplog
):
    caplog.set_level(logging.INFO)
    match, users = play_and_check(django_capture_on_commit_callbacks, sent, ("human", "human", "normal"))
    assert match.status == Match.Status.FINISHED
    assert {s.rank for s in match.seats.all()} >= {1}
    # The last public frame shows everything.
    public = [html for group, _, html in sent if group == push.match_group(match.public_id)]
    assert len(public) > 20
    last = parse(public[-1])
    assert {e.attrs["data-rack-seat"] for e in last if "data-rack-seat" in e.attrs} == {"0", "1", "2"}
    # Log lines count plies; they never write a hidden move out.
    secret = [m.notation for m in Move.objects.filter(match=match)
              if m.notation.startswith("tile") or " down " in m.notation]  # fmt: skip
    assert secret
    for record in caplog.records:
        message = record.getMessage()
        assert not any(n in message for n in secret), f"a log line names a hidden tile: {message}"


@pytest.mark.django_db
def test_the_match_page_shows_each_viewer_only_what_it_may_see(
    django_capture_on_commit_callbacks, sent, no_tasks, client
):
    viewed = {"turns": 0}

    def check_pages(match, users, state, over, hidden):
        viewed["turns"] += 1
        if viewed["turns"] % 6 and not over:
            return
        client.logout()
        page = client.get(f"/m/{match.public_id}/")
        assert page.status_code == 200
        check_frame(page.content.decode(), state, None, over=over, hidden=hidden)
        for seat, user in users.items():
            if user is None:
                continue
            client.force_login(user)
            page = client.get(f"/m/{match.public_id}/")
            html = page.content.decode()
            check_frame(html, state, seat, over=over, hidden=hidden)
            if not over:
                racks = [e for e in parse(html) if "data-rack-seat" in e.attrs]
                assert [r.attrs["data-rack-seat"] for r in racks] == [str(seat)]

    match, _ = play_and_check(
        django_capture_on_commit_callbacks, sent, ("human", "easy", "human"), check_pages=check_pages
    )
    assert viewed["turns"] > 5


def test_the_move_list_describes_draws_and_face_down_tiles_without_colour():
    """A real record (the lines read the position before each ply: whose
    deal or draw a tile is), with a face-down placement, a chain, a draw,
    a missed turn and a leave."""
    from types import SimpleNamespace

    rules = get_rules("rondo")
    state = start = rules.new_match(2)
    plies = [("chance", None, "s1"),
             *[("chance", None, f"tile {c}") for c in ("red", "green", "blue", "yellow")]]
    for _a, _s, n in plies:
        state = rules.play(state, n)
    down = next(m for m in rules.legal_moves(state) if m.kind == "place" and m.count == 0)
    state = rules.play(state, down)
    up = next(m for m in rules.legal_moves(state) if m.kind == "place")  # a second space of the chain
    plies += [("seat", 1, str(down)), ("seat", 1, str(up)), ("seat", 1, "end"),
              ("chance", None, "tile purple"), ("seat", 0, "draw"), ("chance", None, "tile green"),
              ("chance", None, "tile red"),
              ("server", 1, "timeout"), ("server", 1, "leave 1")]
    moves = [SimpleNamespace(ply=i, actor=a, seat=s, notation=n, version_after=i)
             for i, (a, s, n) in enumerate(plies)]
    lines = describe("rondo", moves, {0: "ada", 1: "bo"}, start)
    texts = [line.text for line in lines]
    assert texts[0] == "Drawn to start: bo."
    assert texts[1:5] == ["A tile was dealt to bo."] * 2 + ["A tile was dealt to ada."] * 2
    b = rules.board("blue")
    gray = " (a gray space)" if b.gray[b.index[down.space]] else ""
    assert texts[5] == (f"bo placed a tile face down on a space worth {b.value[b.index[down.space]]}{gray}"
                        " (a bridge: no points).")
    assert lines[5].note == f"Space {down.space}"
    assert texts[6].startswith("bo placed ") and up.space not in texts[6]
    assert lines[6].note == f"Space {up.space}"
    assert texts[7].startswith("bo ended the chain: ")
    assert texts[8] == "bo drew a tile." and lines[8].seat == 1
    assert texts[9] == "ada chose to draw instead of placing."
    assert texts[10:12] == ["ada drew a tile."] * 2
    assert texts[-1] == "bo left the match."
    for line, m in zip(lines, moves, strict=True):
        hidden = m.notation.split()[-1] if m.notation.startswith("tile") or " down " in m.notation else None
        if hidden:
            assert hidden not in line.text


@sync_to_async
def _mid_match():
    users = [make_user(), make_user()]
    match = make_match("rondo", seats=("human", "human", "easy"), users=users)
    rng = random.Random(2)
    for _ in range(12):
        match.refresh_from_db()
        state = RONDO.load(match.state)
        who = RONDO.to_move(state)
        if who in (0, 1):
            actions.play_move(match.public_id, users[who], human_turn(match, who, rng), match.version)
        else:
            move = rondo_bots.normal_turn(RONDO.sample_state(RONDO.view(state, who), who, rng))[0]
            actions.play_computer_move(match.public_id, match.version, str(move))
    match.refresh_from_db()
    return match, users


async def _connect(match, user):
    from django.contrib.auth.models import AnonymousUser

    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/match/{match.public_id}/")
    comm.scope["user"] = user if user is not None else AnonymousUser()
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_websocket_snapshots_and_errors_keep_each_seat_s_tiles_to_itself(monkeypatch):
    silence_tasks(monkeypatch)
    match, users = await _mid_match()
    state = RONDO.load(match.state)
    hidden = await sync_to_async(hidden_words)(match)
    comms = {}
    for viewer, user in ((None, None), (0, users[0]), (1, users[1])):
        comm = await _connect(match, user)
        snapshot = await comm.receive_from(timeout=5)
        if viewer is not None and 'data-kind="seat"' not in snapshot:
            # A large board and rack travel as two messages (games.frames.wire.pack).
            snapshot += await comm.receive_from(timeout=5)
        check_frame(snapshot, state, viewer, over=False, hidden=hidden)
        comms[viewer] = comm
    # A refused chain (a colour the seat does not hold, face down) answers its sender only.
    who = RONDO.to_move(state)
    if who in (0, 1):
        missing = next(c for c in COLOURS if c not in rack_of(state, who))
        space = RONDO.candidates(state)[0]
        await comms[who].send_to(
            text_data=json.dumps(
                {"moves": [f"place {space} down {missing}", "end"], "version": str(match.version)}
            )
        )
        error = await comms[who].receive_from(timeout=5)
        assert 'data-kind="error"' in error
        for viewer, comm in comms.items():
            if viewer != who:
                assert await comm.receive_nothing(timeout=0.3)
    for comm in comms.values():
        await comm.disconnect()
