"""BOT beside a bot account's name wherever its name appears (docs/api.md "Bot
accounts"), at no query's cost on the match page's hot path, and the bots'
own leaderboard beside the people's."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import tokens
from accounts.models import Rating
from accounts.templatetags.bots import BADGE
from games.frames import contexts, render
from games.models import Match
from people import actions as people
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


def a_bot(name):
    return tokens.make_bot(make_user(name))


def seats_of(frame: str) -> str:
    start = frame.index('<ol id="seats"')
    return frame[start:frame.index("</ol>", start)]


def public_frame(match):
    match = Match.objects.get(pk=match.pk)
    with CaptureQueriesContext(connection) as queries:
        frame = render.public_frame(contexts.public_context(match, list(match.seats.select_related("user"))))
    return frame, len(queries)


def test_a_bot_seat_is_marked_in_the_match_frame_at_no_extra_query():
    bot_match = make_match(seats=("human", "human"), users=[a_bot("robo"), make_user("ann")])
    people_match = make_match(seats=("human", "human"), users=[make_user("bea"), make_user("cid")])
    bot_frame, bot_queries = public_frame(bot_match)
    people_frame, people_queries = public_frame(people_match)
    seats = seats_of(bot_frame)
    assert seats.count(BADGE) == 1 and re.search(r">robo</a>" + re.escape(BADGE), seats)
    assert BADGE not in people_frame and bot_queries == people_queries
    page = Client().get(f"/m/{bot_match.public_id}/").content.decode()
    assert seats_of(page).count(BADGE) == 1


def test_profile_people_lists_and_search_mark_a_bot():
    bot, ann = a_bot("robo"), make_user("ann")
    people.follow(ann, "robo")
    client = Client()
    client.force_login(ann)
    assert re.search(r"<h1>robo" + re.escape(BADGE) + "</h1>", client.get("/u/robo/").content.decode())
    assert "<h1>ann</h1>" in client.get("/u/ann/").content.decode()
    assert ">robo</a>" + BADGE in client.get("/u/ann/following/").content.decode()
    found = client.get("/people/", {"q": "r"}).content.decode()
    assert ">robo</a>" + BADGE in found
    found = client.get("/people/", {"q": "a"}).content.decode()
    assert ">ann</a></li>" in found and BADGE not in found
    assert bot.is_bot


def rated(user, kind, rating, games=25):
    return Rating.objects.create(user=user, kind=kind, rating=rating, peak=rating, games=games)


def test_the_leaderboard_lists_people_and_bots_apart():
    rated(make_user("ann"), "ludo", 1600)
    rated(a_bot("robo"), "ludo", 1700)
    rated(a_bot("tiny"), "ludo", 1450, games=3)
    client = Client()
    people_board = client.get("/leaderboard/ludo/").content.decode()
    assert ">ann</a>" in people_board and "robo" not in people_board and "tiny" not in people_board
    assert 'href="/leaderboard/ludo/?bots=1">Bots</a>' in people_board
    bots_board = client.get("/leaderboard/ludo/?bots=1").content.decode()
    assert ">robo</a>" + BADGE in bots_board and ">tiny</a>" + BADGE in bots_board
    assert ">ann</a>" not in bots_board and '<strong aria-current="page">Bots</strong>' in bots_board
    # The other tabs keep the filter: the games' and the time controls'.
    assert 'href="/leaderboard/rondo/?bots=1"' in bots_board
    assert 'href="/leaderboard/ludo/?control=live&amp;bots=1"' in bots_board
    assert client.get("/leaderboard/?bots=1")["Location"] == "/leaderboard/ludo/?bots=1"
    refused = client.get("/leaderboard/ludo/?bots=maybe")
    assert refused.status_code == 400 and ">ann</a>" in refused.content.decode()


def test_challenges_and_the_match_history_mark_a_bot(monkeypatch):
    from matchmaking.challenges import actions as challenges

    monkeypatch.setattr("games.push.match_changed", lambda *a, **k: None)
    bot, ann = a_bot("robo"), make_user("ann")
    challenge = challenges.do_challenge(bot, "ann", "ludo", 30)
    client = Client()
    client.force_login(ann)
    page = client.get(f"/challenges/{challenge.pk}/").content.decode()
    assert "robo" + BADGE + " against ann" in page
    incoming = client.get("/challenges/incoming/").content.decode()
    assert "<strong>robo</strong>" + BADGE + " challenges you" in incoming
    make_match(seats=("human", "human"), users=[ann, bot])
    assert ">robo</a>" + BADGE in client.get("/u/ann/matches/").content.decode()


def test_a_move_in_a_bot_s_match_costs_the_queries_of_any_other_and_its_frame_marks_the_bot(
        monkeypatch, django_capture_on_commit_callbacks):
    from games import actions, push, tasks
    from tests.factories import ludo_state

    sent = []

    async def capture(messages, version, served=()):
        sent.extend(html for _group, html in messages)

    monkeypatch.setattr(push, "_send_all", capture)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)

    def roll(users):
        match = make_match(seats=("human", "human"), users=users, state=ludo_state())
        user = match.seats.get(index=0).user
        sent.clear()
        with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
            actions.play_move(match.public_id, user, "roll", match.version)
        # A deferred column read later would be a query of its own, per seat per move.
        deferred = re.compile(r'^SELECT [^;]*"accounts_user"\."is_bot" FROM "accounts_user" WHERE')
        assert not [q["sql"] for q in queries if deferred.match(q["sql"])]
        return len(queries), "".join(sent)

    people_queries, people_frames = roll([make_user("ann"), make_user("bea")])
    bot_queries, bot_frames = roll([make_user("cid"), a_bot("robo")])
    assert bot_queries == people_queries
    assert BADGE not in people_frames and ">robo</a>" + BADGE in bot_frames
