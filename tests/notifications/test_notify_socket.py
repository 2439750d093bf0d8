"""The user socket, /ws/notify/, with the real Redis channel layer: notes and
"Your matches" rows reach only their own person's sockets; bad input gets
an error frame or the same closes as every other socket and changes nothing."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from config.asgi import application
from config.routing import websocket_urlpatterns
from games import actions
from games.engine import get_rules
from games.models import Match
from moderation import actions as moderation
from notifications import notify
from tests.factories import ludo_state, make_match, make_user

pytestmark = [pytest.mark.django_db(transaction=True)]

router = URLRouter(websocket_urlpatterns)


@pytest.fixture(autouse=True)
def no_match_tasks(monkeypatch):
    from games import tasks as game_tasks

    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(game_tasks, name), "apply_async", lambda *a, **k: None)


async def connect(user, path="/ws/notify/"):
    comm = WebsocketCommunicator(router, path)
    comm.scope["user"] = user
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def receive_json(comm, timeout=5):
    return json.loads(await comm.receive_from(timeout=timeout))


@sync_to_async
def play_until_seat_moves(match, users, index):
    """Play seat 0's (then whoever's) first legal moves until seat ``index`` is to move."""
    rules = get_rules(match.kind)
    for _ in range(50):
        match = Match.objects.get(pk=match.pk)
        state = rules.load(match.state)
        seat = rules.to_move(state)
        if seat == index:
            return match
        actions.play_move(match.public_id, users[seat], rules.view(state, seat)["moves"][0]["move"],
                           match.version)
    raise AssertionError("the turn never passed")


@sync_to_async
def two_player_match(**kw):
    match = make_match(seats=("human", "human"), state=ludo_state(), **kw)
    return match, {s.index: s.user for s in match.seats.select_related("user")}


@pytest.mark.asyncio
async def test_a_note_reaches_only_its_persons_sockets_once_per_socket():
    ann, bob = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    ann_tabs = [await connect(ann), await connect(ann)]
    bob_tab = await connect(bob)
    await sync_to_async(notify.notify)(ann.pk, "challenge", "bob challenges you to Ludo", "/u/bob/")
    for tab in ann_tabs:
        note = await receive_json(tab)
        assert note["type"] == "note" and note["kind"] == "challenge"
        assert note["text"] == "bob challenges you to Ludo" and note["href"] == "/u/bob/"
        assert await tab.receive_nothing(timeout=0.2)
    assert await bob_tab.receive_nothing(timeout=0.3)
    for tab in (*ann_tabs, bob_tab):
        await tab.disconnect()


@pytest.mark.django_db(transaction=False)
def test_the_api_refuses_unknown_kinds_and_links_off_the_site():
    with pytest.raises(ValueError):
        notify.note("lottery", "You won", "/")
    for href in ("https://evil.example/", "//evil.example/", "javascript:alert(1)", ""):
        with pytest.raises(ValueError):
            notify.note("challenge", "x", href)
    assert len(notify.note("challenge", "x" * 1000, "/")["text"]) == notify.TEXT_MAX


@pytest.mark.parametrize("payload, message", [
    ("not json", "not valid JSON"),
    ("[1, 2]", "JSON objects"),
    ('{"type": "subscribe", "group": "notify.1"}', "Unknown message"),
    ('{"type": 7}', "Unknown message"),
    ('{"type": "watch"}', "this site's panels"),
    ('{"type": "watch", "panels": "your-matches"}', "this site's panels"),
    ('{"type": "watch", "panels": ["your-matches", "someone-elses"]}', "this site's panels"),
    ('{"type": "watch", "panels": [1]}', "this site's panels"),
    ('{"type": "watch", "panels": ["your-matches", "your-matches", "your-matches", "your-matches", '
     '"your-matches"]}', "this site's panels"),
    ('{"type": "watch", "panels": [], "match": 7}', "the id in its address"),
    ('{"type": "watch", "panels": [], "match": ""}', "the id in its address"),
    ('{"type": "watch", "panels": [], "match": "' + "x" * 33 + '"}', "the id in its address"),
    ('{"type": "watch", "panels": [], "match": ["a"]}', "the id in its address"),
])
@pytest.mark.asyncio
async def test_bad_frames_get_an_error_frame_and_change_nothing(payload, message):
    user = await sync_to_async(make_user)()
    comm = await connect(user)
    await comm.send_to(text_data=payload)
    error = await receive_json(comm)
    assert error["type"] == "error" and message in error["message"]
    # Still open, and still watching nothing: a row of a match of theirs is not forwarded.
    await sync_to_async(notify.send)([notify.row_event(user.pk, "your-matches", "abc", "<li>x</li>")])
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()


@pytest.mark.asyncio
async def test_another_users_id_gets_nothing_of_theirs():
    """Nothing a client sends names a user: a watch with someone else's id
    still shows the sender's own matches, and their notes stay theirs."""
    match, users = await two_player_match()
    outsider = await sync_to_async(make_user)()
    comm = await connect(outsider)
    await comm.send_to(text_data=json.dumps({"type": "watch", "panels": ["your-matches"],
                                             "user": users[0].pk, "user_id": users[0].pk}))
    panel = await receive_json(comm)
    assert panel == {"type": "panel", "name": "your-matches", "html": ""}
    await sync_to_async(actions.play_move)(match.public_id, users[0], "roll", match.version)
    assert await comm.receive_nothing(timeout=0.5)
    await comm.disconnect()


@pytest.mark.asyncio
async def test_oversized_frames_close_with_4009_and_floods_with_4008():
    user = await sync_to_async(make_user)()
    comm = await connect(user)
    await comm.send_to(text_data=json.dumps({"type": "watch", "pad": "é" * 3000}, ensure_ascii=False))
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4009}
    comm = await connect(user)
    for _ in range(40):
        await comm.send_to(text_data='{"type": "nothing"}')
    while (out := await comm.receive_output(timeout=5))["type"] != "websocket.close":
        pass
    assert out["code"] == 4008


@pytest.mark.asyncio
async def test_signed_out_and_banned_sockets_are_refused_and_foreign_origins_never_open():
    comm = await connect(AnonymousUser())
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4001}
    banned = await sync_to_async(make_user)()
    banned.banned_until = timezone.now() + timedelta(days=1)
    await sync_to_async(banned.save)()
    comm = await connect(banned)
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4003}
    for headers in ([(b"origin", b"http://evil.example"), (b"host", b"localhost")],
                    [(b"host", b"localhost")]):
        comm = WebsocketCommunicator(application, "/ws/notify/", headers=headers)
        connected, _ = await comm.connect(timeout=5)
        assert not connected
    comm = await connect(AnonymousUser(), "/ws/notify/extra/")
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4004}


@pytest.mark.asyncio
async def test_your_turn_and_your_matches_reach_the_members_only_and_rows_only_watchers():
    match, users = await two_player_match(is_public=False)
    outsider = await sync_to_async(make_user)()
    watching, plain = await connect(users[1]), await connect(users[1])
    await watching.send_to(text_data='{"type": "watch", "panels": ["your-matches"]}')
    panel = await receive_json(watching)
    assert f'id="ym-{match.public_id}"' in panel["html"] and "Waiting for" in panel["html"]
    stranger = await connect(outsider)
    await stranger.send_to(text_data='{"type": "watch", "panels": ["your-matches"]}')
    assert (await receive_json(stranger))["html"] == ""

    await play_until_seat_moves(match, users, 1)
    got = [await receive_json(watching)]
    while not await watching.receive_nothing(timeout=0.5):
        got.append(await receive_json(watching))
    rows = [g for g in got if g["type"] == "row"]
    notes = [g for g in got if g["type"] == "note"]
    assert rows and rows[-1]["key"] == match.public_id and "Your turn" in rows[-1]["html"]
    assert [n["kind"] for n in notes] == ["your_turn"]
    assert notes[0]["match"] == match.public_id and notes[0]["deadline_ms"]
    assert users[0].username in notes[0]["text"]
    # The socket that watches no panel gets the note and no row.
    assert [g["type"] for g in [await receive_json(plain)]] == ["note"]
    assert await plain.receive_nothing(timeout=0.3)
    # A non-member never hears of the private match.
    assert await stranger.receive_nothing(timeout=0.3)
    for comm in (watching, plain, stranger):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_match_pages_user_socket_gets_no_note_of_that_match_and_every_other():
    """A match page's own socket shows its turns: its user socket (which
    named the match in its watch) is not sent the notes of that match; the
    person's other pages are, and the notes of their other matches reach it."""
    match, users = await two_player_match()
    other, other_users = await two_player_match()
    on_page, elsewhere = await connect(users[1]), await connect(users[1])
    await on_page.send_to(text_data=json.dumps({"type": "watch", "panels": ["your-matches"],
                                                "match": match.public_id}))
    assert (await receive_json(on_page))["type"] == "panel"  # the watch was read

    await play_until_seat_moves(match, users, 1)
    note = await receive_json(elsewhere)
    assert note["kind"] == "your_turn" and note["match"] == match.public_id
    got = [await receive_json(on_page)]  # its row, not the note
    while not await on_page.receive_nothing(timeout=0.5):
        got.append(await receive_json(on_page))
    assert {g["type"] for g in got} == {"row"}

    # The same person seated in another match: its note reaches the page.
    from games.models import Seat
    await sync_to_async(Seat.objects.filter(match=other, index=1).update)(user=users[1])
    other_users[1] = users[1]
    await play_until_seat_moves(other, other_users, 1)
    got = [await receive_json(on_page)]
    while not await on_page.receive_nothing(timeout=0.5):
        got.append(await receive_json(on_page))
    notes = [g for g in got if g["type"] == "note"]
    assert [(n["kind"], n["match"]) for n in notes] == [("your_turn", other.public_id)]
    for comm in (on_page, elsewhere):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_turn_played_takes_its_toast_away_on_pages_that_do_not_watch_the_rows():
    """The turn a "your turn" note told of ends: a socket watching no panel is
    told "turn-over" for that match (its page removes the toast); a watching
    one gets the row, which says so; the match's own page hears nothing of it."""
    match, users = await two_player_match()
    plain, watching, on_page = await connect(users[1]), await connect(users[1]), await connect(users[1])
    await watching.send_to(text_data='{"type": "watch", "panels": ["your-matches"]}')
    assert (await receive_json(watching))["type"] == "panel"
    await on_page.send_to(text_data=json.dumps({"type": "watch", "panels": [], "match": match.public_id}))

    await play_until_seat_moves(match, users, 1)
    assert (await receive_json(plain))["kind"] == "your_turn"
    assert await plain.receive_nothing(timeout=0.3)
    while not await watching.receive_nothing(timeout=0.3):
        await receive_json(watching)
    await play_until_seat_moves(match, users, 0)  # seat 1 plays its turn
    assert await receive_json(plain) == {"type": "turn-over", "match": match.public_id}
    assert await plain.receive_nothing(timeout=0.3)
    rows = [await receive_json(watching)]
    while not await watching.receive_nothing(timeout=0.3):
        rows.append(await receive_json(watching))
    assert rows[-1]["type"] == "row" and "Waiting for" in rows[-1]["html"]
    assert "ym-mine" not in rows[-1]["html"]
    assert await on_page.receive_nothing(timeout=0.3)
    for comm in (plain, watching, on_page):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_ban_shows_its_reason_on_the_user_socket_and_then_closes_it():
    user = await sync_to_async(make_user)()
    user.time_zone = "Asia/Tokyo"  # the note is in the banned person's own zone (README "Times")
    await sync_to_async(user.save)()
    comm = await connect(user)
    until = (timezone.now() + timedelta(days=3)).replace(hour=3, minute=30, second=0, microsecond=0)
    await sync_to_async(moderation.ban_user)(None, user, until, "Abusive chat")
    note = await receive_json(comm)
    assert note["kind"] == "moderation" and note["sticky"]
    assert f"suspended your account until {until:%d %B %Y}, 12:30 (Asia/Tokyo)" in note["text"], note["text"]
    assert "Abusive chat" in note["text"]
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4003}


@pytest.mark.asyncio
async def test_challenges_and_rematch_offers_reach_the_other_players_pages():
    """README "Notifications": a challenge received, its answer, and a rematch
    offered come as notes (matchmaking/notices.py); the sender hears nothing
    of their own offer."""
    from matchmaking.challenges import actions as challenges
    from matchmaking.rematch import actions as rematch

    ada, bob = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    ada_page, bob_page = await connect(ada), await connect(bob)
    challenge = await sync_to_async(challenges.do_challenge)(ada, bob.username, "ludo", 60)
    note = await receive_json(bob_page)
    assert note["kind"] == "challenge" and note["href"] == f"/challenges/{challenge.pk}/"
    assert f"{ada.username} challenges you to Ludo (60 s turns, casual)" == note["text"]
    # It stays until dismissed, counting down the time left to answer.
    assert note["sticky"] and note["deadline_ms"] == int(challenge.expires_at.timestamp() * 1000)
    await sync_to_async(challenges.do_answer)(challenge.pk, bob, False)
    note = await receive_json(ada_page)
    assert note["kind"] == "challenge" and "declined" in note["text"] and bob.username in note["text"]

    @sync_to_async
    def finished_match():
        match = make_match(seats=("human", "human"), users=[ada, bob], rated=True)
        actions.leave_match(match.public_id, ada)
        return match

    match = await finished_match()
    await sync_to_async(rematch.do_offer)(match.public_id, bob)
    notes = [await receive_json(ada_page)]
    while not await ada_page.receive_nothing(timeout=0.3):
        notes.append(await receive_json(ada_page))
    [note] = [n for n in notes if n.get("kind") == "rematch"]  # (the match's own "your turn" came first)
    assert note["match"] == match.public_id
    assert note["href"] == f"/m/{match.public_id}/" and bob.username in note["text"]
    heard = []
    while not await bob_page.receive_nothing(timeout=0.3):
        heard.append(await receive_json(bob_page))
    assert "rematch" not in [n.get("kind") for n in heard]
    for comm in (ada_page, bob_page):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_count_reaches_every_socket_of_its_person_only_and_comes_again_after_a_resync():
    """The turn-based matches waiting for you (the badge beside Play,
    games.your_matches.COUNT): to each of your sockets, whatever panels its page
    watches; none to anyone else's; read again from the database after a resync."""
    from channels.layers import get_channel_layer

    from games.time_controls import DAY

    ann, bob = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    await sync_to_async(make_match)(seats=("human", "human"), users=[ann, bob], state=ludo_state(turn=0),
                                    turn_seconds=DAY)
    plain, watching, other = await connect(ann), await connect(ann), await connect(bob)
    await watching.send_to(text_data='{"type": "watch", "panels": ["your-matches"]}')
    assert (await receive_json(watching))["type"] == "panel"
    await sync_to_async(notify.send)([notify.count_event(ann.pk, "your-turn", 7)])
    for comm in (plain, watching):
        assert await receive_json(comm) == {"type": "count", "name": "your-turn", "n": 7}
    assert await other.receive_nothing(timeout=0.3)
    # A resync (the channel layer lost messages) sends the count as the database has it.
    await get_channel_layer().group_send(notify.notify_group(ann.pk), {"type": "layer.resubscribed"})
    assert await receive_json(plain) == {"type": "count", "name": "your-turn", "n": 1}
    for comm in (plain, watching, other):
        await comm.disconnect()
