"""Live play in each socket's language (docs/i18n.md "Live play"): a socket's
language is read once at connect; a change's public frame is rendered once
per language its match's sockets read, a seat's controls in its person's
language, refusals and chat lines in the socket's; an English-only match
renders and sends as before."""

import json
import time
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from accounts.sockets import socket_language
from games import actions, live_languages, push
from games.frames import render
from games.routing import websocket_urlpatterns
from tests.factories import ludo_state, make_match

router = URLRouter(websocket_urlpatterns)


def scope(user=None, cookie="", accept=""):
    headers = []
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    if accept:
        headers.append((b"accept-language", accept.encode()))
    return {"user": user or AnonymousUser(), "headers": headers}


def test_a_socket_reads_its_account_s_language_then_the_cookie_then_accept_language_then_english():
    chose_hindi = SimpleNamespace(is_authenticated=True, language="hi")
    chose_none = SimpleNamespace(is_authenticated=True, language="")
    assert socket_language(scope(chose_hindi, cookie="django_language=de", accept="es")) == "hi"
    assert socket_language(scope(chose_none, cookie="django_language=de", accept="es")) == "de"
    assert socket_language(scope(cookie="django_language=de", accept="es")) == "de"
    assert socket_language(scope(accept="es-MX,es;q=0.9,en;q=0.5")) == "es"
    assert socket_language(scope(cookie="django_language=xx", accept="ar")) == "ar"
    assert socket_language(scope(accept="fr-CH, fr;q=0.9")) == "en"
    assert socket_language(scope()) == "en"
    behind_cookie_middleware = {"user": AnonymousUser(), "headers": [], "cookies": {"django_language": "es"}}
    assert socket_language(behind_cookie_middleware) == "es"




async def connect(match, user=None, *, cookie="", accept=""):
    headers = []
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    if accept:
        headers.append((b"accept-language", accept.encode()))
    comm = WebsocketCommunicator(router, f"/ws/match/{match.public_id}/", headers=headers)
    comm.scope["user"] = user if user is not None else AnonymousUser()
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def until_version(comm, version, timeout=5):
    """Frames received until one carries ``version`` (inclusive)."""
    got = []
    while True:
        text = await comm.receive_from(timeout=timeout)
        got.append(text)
        if f'id="frame-version" data-version="{version}"' in text:
            return got


@sync_to_async
def two_player_match(languages=("", "")):
    match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=60)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    for index, language in enumerate(languages):
        users[index].language = language
        users[index].save(update_fields=["language"])
    live_languages.forget()
    return match, users


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_german_and_an_english_spectator_get_each_change_in_their_own_language():
    match, users = await two_player_match()
    german = await connect(match, cookie="django_language=de")
    english = await connect(match, accept="en-GB,en;q=0.9")
    assert "Verbleibende Zeit:" in await german.receive_from(timeout=5)
    assert "Time left:" in await english.receive_from(timeout=5)

    await sync_to_async(actions.play_move)(match.public_id, users[0], "roll", match.version)
    de = "".join(await until_version(german, match.version + 1))
    en = "".join(await until_version(english, match.version + 1))
    # Each got the change rendered for its language, not a snapshot of its own.
    assert "Verbleibende Zeit:" in de and "Time left:" not in de and 'data-kind="snapshot"' not in de
    assert "Time left:" in en and "Verbleibende Zeit:" not in en
    assert await german.receive_nothing(timeout=0.3)
    assert await english.receive_nothing(timeout=0.2)
    for comm in (german, english):
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_hindi_seat_gets_its_controls_and_the_board_in_hindi_in_one_message():
    match, users = await two_player_match(languages=("hi", ""))
    seat0 = await connect(match, users[0], cookie="django_language=de")  # the account's choice wins
    seat1 = await connect(match, users[1])
    snap = await seat0.receive_from(timeout=5)
    assert "आपकी चाल" in snap and "बचा समय:" in snap  # "Your move", "Time left:"
    assert "Your move" not in await seat1.receive_from(timeout=5)

    await sync_to_async(actions.play_move)(match.public_id, users[0], "roll", match.version)
    s0 = await until_version(seat0, match.version + 1)
    assert len(s0) == 1 and 'id="controls"' in s0[0] and "बचा समय:" in s0[0]
    s1 = "".join(await until_version(seat1, match.version + 1))
    assert "Time left:" in s1 and "बचा समय:" not in s1
    assert await seat0.receive_nothing(timeout=0.3)
    for comm in (seat0, seat1):
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_refusals_arrive_in_the_socket_s_language():
    match, users = await two_player_match(languages=("", "es"))
    seat1 = await connect(match, users[1])
    spectator = await connect(match, accept="de-DE,de;q=0.9")
    await seat1.receive_from(timeout=5)
    await spectator.receive_from(timeout=5)
    await seat1.send_to(text_data=json.dumps({"move": "roll", "version": match.version}))
    assert "No es tu turno." in await seat1.receive_from(timeout=5)
    await spectator.send_to(text_data=json.dumps({"move": "roll", "version": match.version}))
    assert "Du schaust dieser Partie zu" in await spectator.receive_from(timeout=5)
    await spectator.send_to(text_data="not json{")
    assert "Diese Nachricht ist kein gültiges JSON." in await spectator.receive_from(timeout=5)
    for comm in (seat1, spectator):
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_chat_lines_arrive_in_each_socket_s_language():
    match, users = await two_player_match()
    seat0 = await connect(match, users[0])
    arabic = await connect(match, accept="ar")
    await seat0.receive_from(timeout=5)
    await arabic.receive_from(timeout=5)
    await seat0.send_to(text_data=json.dumps({"type": "chat", "id": "good_luck"}))
    assert "Good luck" in await seat0.receive_from(timeout=5)
    assert "حظًا سعيدًا" in await arabic.receive_from(timeout=5)
    for comm in (seat0, arabic):
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_whose_language_the_pusher_missed_asks_for_a_snapshot_in_it():
    match, users = await two_player_match()
    # This process read the match's languages a moment ago: none but English.
    live_languages._kept[match.public_id] = (time.monotonic(), frozenset())
    german = await connect(match, cookie="django_language=de")
    await german.receive_from(timeout=5)
    await sync_to_async(actions.play_move)(match.public_id, users[0], "roll", match.version)
    frames = "".join(await until_version(german, match.version + 1))
    assert 'data-kind="snapshot"' in frames and "Verbleibende Zeit:" in frames
    await german.disconnect()


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """The language active at each public frame render, in order."""
    from django.utils.translation import get_language

    seen = []
    real = render.public_update

    def counting(*args, **kwargs):
        seen.append(get_language())
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "public_update", counting)
    return seen


@pytest.mark.django_db
def test_an_english_only_match_renders_one_public_frame_per_change_and_sends_as_before(
        monkeypatch, renders, django_capture_on_commit_callbacks):
    match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=60)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    live_languages.forget()
    sent = []

    async def capture(messages, version, served=()):
        sent.extend(messages)

    monkeypatch.setattr(push, "_send_all", capture)
    with django_capture_on_commit_callbacks(execute=True):
        actions.play_move(match.public_id, users[0], "roll", match.version)
    assert len(renders) == 1
    groups = [message[0] for message in sent]
    assert all(len(message) == 2 for message in sent)  # (group, html): no language named
    assert groups[0] == push.match_group(match.public_id)
    assert set(groups[1:]) <= {push.seat_group(match.public_id, i) for i in (0, 1)}


@pytest.mark.django_db
def test_a_change_renders_once_per_language_present_and_names_them_in_the_english_frame(
        renders, django_capture_on_commit_callbacks):
    match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=60)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    users[1].language = "hi"
    users[1].save(update_fields=["language"])
    live_languages.forget()
    # Seat 0's socket reads English, a spectator's German (what their sockets counted).
    live_languages._kept[match.public_id] = (time.monotonic(), frozenset({"en", "0:en", "de"}))
    with push.collect() as events, django_capture_on_commit_callbacks(execute=True):
        actions.play_move(match.public_id, users[0], "roll", match.version)
    assert renders == ["en", "de", "hi"]
    frames = [(group, event) for group, event in events if event["type"] == push.EVENT]
    by_group = {group: event for group, event in frames}
    english = by_group[push.match_group(match.public_id)]
    assert english["langs"] == ["1:hi", "de", "hi"] and "lang" not in english
    assert by_group[push.match_group(match.public_id) + ".de"]["lang"] == "de"
    assert "बचा समय:" in by_group[push.match_group(match.public_id) + ".hi"]["html"]
    assert push.seat_group(match.public_id, 1) not in by_group  # seat 1 reads Hindi only


@pytest.mark.django_db
def test_a_match_whose_sockets_all_read_german_renders_and_sends_no_english(
        renders, django_capture_on_commit_callbacks):
    """docs/i18n.md "Live play": only the languages counted are rendered, so a
    German match costs what an English one does (one public render)."""
    match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=60)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    live_languages.forget()
    live_languages._kept[match.public_id] = (time.monotonic(), frozenset({"de", "0:de", "1:de"}))
    with push.collect() as events, django_capture_on_commit_callbacks(execute=True):
        actions.play_move(match.public_id, users[0], "roll", match.version)
    assert renders == ["de"]
    groups = {group for group, event in events if event["type"] == push.EVENT}
    assert push.match_group(match.public_id) not in groups
    assert push.match_group(match.public_id) + ".de" in groups


@pytest.mark.django_db
def test_the_live_benchmark_gives_each_seat_of_a_match_its_own_language():
    from accounts.models import User
    from benchmarks.live import parse_languages, set_languages
    from tests.factories import make_user

    players = [(make_user(), "session") for _ in range(8)]
    set_languages(players, parse_languages("en,hi,es,de"))
    chosen = [User.objects.get(pk=u.pk).language for u, _ in players]
    assert chosen == ["", "hi", "es", "de"] * 2
    with pytest.raises(SystemExit, match="xx"):
        set_languages(players, ["xx"])
