"""The lobby speaks German (docs/i18n.md, "Lobby and arenas"): the site's
frame pages, the queue, room, challenge and arena pages and the frames they
are pushed, each in its reader's language, while what a machine reads
(data-pos, data-token, <time datetime>) stays as in English."""

import asyncio
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone, translation

from arenas import actions as arena_actions
from arenas import push as arena_push
from arenas.models import Arena
from config.asgi import application
from matchmaking.languages import of_scope
from matchmaking.models import QueueEntry
from matchmaking.queue import actions as queue_actions
from matchmaking.queue import push as queue_push
from matchmaking.rooms import actions as rooms
from matchmaking.rooms import push as room_push
from tests.factories import make_user


@pytest.fixture(autouse=True)
def _english_afterwards():
    """LocaleMiddleware activates a request's language in the test's thread and
    leaves it there: the next test would run in German."""
    yield
    translation.deactivate()


def german(user=None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    if user is not None:
        client.force_login(user)
    return client


def speaker(language: str):
    user = make_user()
    user.language = language
    user.save(update_fields=["language"])
    return user


@pytest.mark.django_db
def test_the_frame_pages_in_german():
    client = german()
    home = client.get("/").text
    assert "Zum Inhalt springen" in home and "Was Parlour bietet" in home and "Anmelden" in home
    assert "Skip to content" not in home and "What Parlour offers" not in home
    about = client.get("/about/").text
    assert "Über Parlour" in about and "Faires Spiel" in about
    missing = client.get("/no/such/page/")
    assert missing.status_code == 404 and "Nicht gefunden" in missing.text
    with translation.override("de"):
        assert "Etwas ist schiefgelaufen" in render_to_string("500.html", {"request_id": "r"})
        page = render_to_string("503.html")
        assert "Versuche es gleich noch einmal" in page and 'lang="de"' in page
    with translation.override("ar"):
        assert 'dir="rtl"' in render_to_string("500.html", {"request_id": "r"})


@pytest.mark.django_db
def test_arena_pages_and_their_frames_in_german_with_the_same_machine_values():
    arena = Arena.objects.create(name="Abendarena", kind="ludo", seats=2, minutes=60,
                                 starts_at=timezone.now() - timedelta(minutes=5))
    players = [make_user() for _ in range(3)]
    for p in players:
        arena_actions.join(p, arena.pk)
    listing = german().get("/arenas/").text
    assert "Wie Arenen werten" in listing and "Laufend" in listing
    page = german(players[0]).get(f"/arenas/{arena.pk}/").text
    assert "Tabelle" in page and "Zurückziehen" in page and "3 beigetreten" in page

    def machine(html):
        return re.findall(r'(?:data-pos|data-token|datetime)="[^"]*"', html)

    events = {}
    for language in ("en", "de"):
        with translation.override(language):
            events[language] = arena_push.rows_events(arena, [p.pk for p in arena.players.all()], header=True)
    english, deutsch = ("".join(e["html"] for e in events[k]) for k in ("en", "de"))
    assert "joined" in english and "beigetreten" in deutsch and "beigetreten" not in english
    assert machine(english) == machine(deutsch) and machine(english)


@pytest.mark.django_db
def test_an_arena_push_reaches_each_language_group_in_its_language(monkeypatch):
    arena = Arena.objects.create(name="A", kind="ludo", seats=2, minutes=60,
                                 starts_at=timezone.now() + timedelta(hours=1))
    sent = []

    async def capture(messages):
        sent.extend(messages)

    monkeypatch.setattr(arena_push, "_send_all", capture)
    arena_push.arena_changed(arena.pk)
    by_group = {group: event["html"] for group, event in sent}
    assert set(by_group) == {arena_push.arena_group(arena.pk, code) for code in arena_push.site_languages()}
    assert "Beginnt" in by_group[arena_push.arena_group(arena.pk, "de")]
    assert "Starts" in by_group[arena_push.arena_group(arena.pk)]


@pytest.mark.django_db
def test_a_room_pushes_its_public_frame_once_per_members_language(monkeypatch):
    sent = []

    async def capture(messages):
        sent.extend(messages)

    monkeypatch.setattr(room_push, "_send_all", capture)
    host, friend = speaker("en"), speaker("de")
    room = rooms.do_create_room(host, "ludo", 3, {})
    _invite, token = rooms.do_create_invite(room.code, host)
    rooms.do_redeem_invite(token, friend)
    sent.clear()
    room_push.room_updated(room.code, rooms.Room.objects.get(code=room.code).version)
    groups = {g: html for g, _e, html in sent}
    assert "Waiting for 1 more player." in groups[room_push.room_group(room.code)]
    assert "Warte auf 1 weiteren Spieler." in groups[room_push.room_group(room.code, "de")]
    assert "Raum verlassen" in groups[room_push.member_group(room.code, friend.pk)]
    assert "Make an invite link" in groups[room_push.member_group(room.code, host.pk)]
    page = german(friend).get(f"/rooms/{room.code}/").text
    assert "Plätze" in page and "Raum verlassen" in page


@pytest.mark.django_db
def test_a_queue_counts_once_per_language_and_each_player_reads_their_own(monkeypatch):
    sent = []

    async def capture(messages):
        sent.extend(messages)

    monkeypatch.setattr(queue_push, "_send_all", capture)
    now = timezone.now()
    ann, bea, cem = speaker("en"), speaker("de"), speaker("de")
    for user in (ann, bea, cem):
        queue_actions.join_queue(user, "ludo", 4, now=now)
    QueueEntry.objects.update(seen_at=now)
    queue_push.queue_statuses(queue_actions.waiting_statuses(now))
    by_group = {}
    for group, html in sent:
        by_group.setdefault(group, []).append(html)
    assert len(by_group[queue_push.queue_group("ludo", 4, "de")]) == 1  # two German players, one render
    assert "Spieler warten in dieser Warteschlange" in by_group[queue_push.queue_group("ludo", 4, "de")][0]
    assert "players waiting in this queue" in by_group[queue_push.queue_group("ludo", 4)][0]
    assert "Gewartet" in by_group[queue_push.queue_user_group(bea.pk)][0]
    assert "Waited" in by_group[queue_push.queue_user_group(ann.pk)][0]


@pytest.mark.django_db
def test_challenge_and_rematch_texts_in_german():
    bea, cem = speaker("de"), speaker("de")
    profile = german(bea).get(f"/u/{cem.username}/").text
    assert "Herausforderung senden" in profile
    with translation.override("de"):
        panel = render_to_string("matchmaking/rematch.html#panel", {"state": "offer", "can_offer": True,
                                                                    "rated": False, "why": "in_a_row",
                                                                    "offer_for": "5 Minuten",
                                                                    "match": {"public_id": "abc"}})
    assert "Revanche anbieten" in panel and "Die Plätze rotieren" in panel


def test_a_sockets_language_as_a_request_would_choose_it():
    def scope(headers, user=None):
        return {"headers": [(k.encode(), v.encode()) for k, v in headers.items()], "user": user}

    class Reader:
        is_authenticated = True
        language = "hi"

    assert of_scope(scope({})) == "en"
    assert of_scope(scope({"accept-language": "de-DE,de;q=0.9,en;q=0.5"})) == "de"
    assert of_scope(scope({"accept-language": "fr, es;q=0.5"})) == "es"
    assert of_scope(scope({"cookie": "django_language=ar; sessionid=x", "accept-language": "de"})) == "ar"
    assert of_scope(scope({"cookie": "django_language=xx", "accept-language": "de"})) == "de"
    assert of_scope(scope({"accept-language": "de"}, Reader())) == "hi"


@pytest.mark.django_db(transaction=True)
def test_two_arena_watchers_each_get_the_pushed_header_in_their_own_language():
    arena = Arena.objects.create(name="Duel", kind="ludo", seats=2, minutes=30,
                                 starts_at=timezone.now() - timedelta(minutes=1))

    def watcher(language):
        headers = [(b"host", b"localhost:8300"), (b"origin", b"http://localhost:8300"),
                   (b"accept-language", language.encode())]
        return WebsocketCommunicator(application, f"/ws/arena/{arena.pk}/", headers=headers)

    async def run():
        english, deutsch = watcher("en"), watcher("de-DE,de;q=0.9")
        for comm in (english, deutsch):
            connected, _ = await comm.connect(timeout=10)
            assert connected
            await comm.receive_from(timeout=10)  # the snapshot: header and own block
            await comm.receive_from(timeout=10)  # the table
        await sync_to_async(arena_push.arena_changed)(arena.pk)
        heard_en, heard_de = await english.receive_from(timeout=10), await deutsch.receive_from(timeout=10)
        assert "Running: ends" in heard_en and "Läuft: endet" in heard_de
        assert "Läuft" not in heard_en and "Running" not in heard_de
        assert await english.receive_nothing(timeout=0.3) and await deutsch.receive_nothing(timeout=0.3)
        await english.disconnect()
        await deutsch.disconnect()

    asyncio.run(run())
