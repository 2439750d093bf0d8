"""Fuzzing (Hypothesis): random form posts to every POST endpoint and random
WebSocket frames to the match socket never cause a server error and never
change a match."""

import asyncio
import json

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Match, Move
from games.routing import websocket_urlpatterns
from tests.factories import ludo_state, make_match

FIELDS = ["move", "version", "kind", "players", "level_1", "speed", "username", "email",
          "password", "password1", "password2", "old_password", "new_password1", "csrfmiddlewaretoken"]
junk = st.one_of(st.text(max_size=40), st.sampled_from(["roll", "p0", "p9", "leave 1", "timeout", "-1",
                                                           "1e9", "", "ludo", "5", "null", "\x00"]))
forms = st.dictionaries(st.sampled_from(FIELDS), st.one_of(junk, st.lists(junk, max_size=3)), max_size=6)


def snapshot(match):
    m = Match.objects.get(pk=match.pk)
    return m.version, m.state, m.status, Move.objects.filter(match=match).count()


@pytest.mark.django_db
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          deadline=None)
@given(data=forms, endpoint=st.sampled_from(["match_move", "match_leave", "match_pause", "match_resume"]),
       as_player=st.sampled_from([0, 1, None]), seat_plays=st.booleans())
def test_random_posts_to_match_endpoints(client, data, endpoint, as_player, seat_plays):
    match = _fuzz_match()
    users = {s.index: s.user for s in match.seats.select_related("user")}
    client.logout()
    if as_player is not None:
        client.force_login(users[as_player])
    before = snapshot(match)
    # A "move" that is valid for the seat to move at this version is not junk:
    # leave it out so only invalid input remains.
    if data.get("move") == "roll" and str(data.get("version")) == str(match.version):
        data = {**data, "version": "stale"}
    resp = client.post(reverse(endpoint, args=[match.public_id]), data)
    assert resp.status_code < 500
    if endpoint in ("match_move", "match_pause", "match_resume") or as_player is None:
        assert snapshot(match) == before


@pytest.mark.django_db
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          deadline=None)
@given(data=forms, path=st.sampled_from(["/signup/", "/login/", "/play/", "/password/reset/",
                                         "/password/change/", "/logout/"]))
def test_random_posts_to_site_forms_never_fail(client, data, path):
    from accounts.models import User

    users = User.objects.count()
    resp = client.post(path, data)
    assert resp.status_code < 500
    if path != "/signup/":
        assert User.objects.count() == users


_MATCH = {}


def _fuzz_match():
    """One match per test run, reused across examples (examples must not change it)."""
    match = _MATCH.get("m")
    if match is None or not Match.objects.filter(pk=match.pk).exists():
        match = make_match(seats=("human", "human"), state=ludo_state())
        _MATCH["m"] = match
    return match


frames = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=64).map(lambda b: b.decode("latin-1")),
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)),
        lambda children: st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["type", "move", "moves", "version", "id", "HEADERS"]) | st.text(
            max_size=8), children, max_size=4),
        max_leaves=10,
    ).map(json.dumps),
)


@pytest.mark.django_db(transaction=True)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          deadline=None, max_examples=30)
@given(messages=st.lists(frames, min_size=1, max_size=4), seat=st.sampled_from([0, 1, None]))
def test_random_websocket_frames_never_crash_or_change_the_match(messages, seat):
    match = _fuzz_match()
    users = {s.index: s.user for s in match.seats.select_related("user")}
    before = snapshot(match)
    valid = json.dumps({"move": "roll", "version": str(match.version)})
    # (The test communicator cannot send an empty frame.)
    messages = [m for m in messages if m and m != valid and not _is_valid_move(m, match)]

    async def run():
        from django.contrib.auth.models import AnonymousUser

        comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/match/{match.public_id}/")
        comm.scope["user"] = users[seat] if seat is not None else AnonymousUser()
        connected, _ = await comm.connect(timeout=5)
        assert connected
        await comm.receive_from(timeout=5)  # the snapshot
        for text in messages:
            await comm.send_to(text_data=text)
            out = await comm.receive_output(timeout=5)
            if out["type"] == "websocket.close":
                assert 4000 <= out["code"] <= 4999
                return
            assert out["type"] == "websocket.send"
            assert 'data-kind="error"' in out["text"] or 'data-kind="snapshot"' in out["text"]
            if 'data-kind="error"' in out["text"] and "moved on" in out["text"]:
                await comm.receive_from(timeout=5)  # the snapshot that follows
        await comm.disconnect()

    asyncio.run(run())
    assert snapshot(match) == before


def _is_valid_move(text, match):
    try:
        data = json.loads(text)
    except ValueError:
        return False
    if not isinstance(data, dict):
        return False
    moves = data.get("moves", data.get("move"))
    return moves in ("roll", ["roll"]) and str(data.get("version")) == str(match.version)
