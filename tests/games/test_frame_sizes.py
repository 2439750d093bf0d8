"""Pushed messages fit what the server can send: daphne (autobahn) drops a
socket rather than send a message over config.servers.WS_MAX_MESSAGE, and a
Roundabout seat's choices after a 2 and a 1, with the board, came to 70 KB
when the 64 KB limit was also the send limit. The match socket packs its
frames into messages of at most games.frames.wire.MESSAGE_BYTES
(``wire.pack``); a frame larger than that travels alone."""

import random

import pytest

from config import servers
from games.engine import get_rules
from games.frames import contexts, render, wire
from tests import services
from tests.factories import make_match

RA = get_rules("roundabout")


def test_pack_joins_frames_while_they_fit_and_keeps_their_order():
    small = ["<a>" * 10, "<b>" * 10, "<c>" * 10]
    assert wire.pack(small) == ["".join(small)]
    big = "x" * (wire.MESSAGE_BYTES - 10)
    assert wire.pack([big, "y" * 20, "z"]) == [big, "y" * 20 + "z"]
    huge = "é" * wire.MESSAGE_BYTES  # counted in UTF-8 bytes: twice its length
    assert wire.pack(["a", huge, "b"]) == ["a", huge, "b"]
    assert wire.pack(["", "a", ""]) == ["a"]


def _large_roundabout_position(seed: int = 7):
    """A two-seat Roundabout state, seat to move, whose public board and
    seat controls together pass 64 KB (random play until one does)."""
    rng = random.Random(seed)
    for _game in range(20):
        match = make_match("roundabout", ("human", "human"))
        state = RA.load(match.state)
        seats = list(match.seats.select_related("user"))
        for _ply in range(300):
            mover = RA.to_move(state)
            if mover is None:
                break
            if state.phase == "move" and len(state.unused) == 2:
                match.state = RA.dump(state)
                seat = render.seat_frame(match, seats[mover], state)
                public = render.public_frame(contexts.public_context(match, seats, state))
                if len((seat + public).encode()) > 64 * 1024:
                    match.save()
                    return match, mover
            state = RA.play(state, rng.choice(RA.legal_moves(state)))
    raise AssertionError("no position over 64 KB found: the test needs another way to reach one")


@pytest.mark.slow
def test_a_seat_whose_frames_pass_64_kb_gets_them_all_over_a_real_server(live_server_url):
    match, mover = _large_roundabout_position()
    user = match.seats.get(index=mover).user
    player = services.WsPlayer(live_server_url, user).connect(match.public_id)
    got = [player.receive(timeout=20)]
    while 'id="board-choices"' not in "".join(got):
        got.append(player.receive(timeout=20))  # the snapshot's public frame, then the controls
    assert all(len(m.encode()) <= servers.WS_MAX_MESSAGE for m in got)
    assert 'data-kind="snapshot"' in got[0]
    # The socket is still open (before, the server dropped it instead of sending).
    player.send(type="sync")
    player.until(lambda f: 'data-kind="snapshot"' in f)
    player.close()
