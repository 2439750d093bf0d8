"""A bot account never joins a ranked queue, live or turn-based, nor an arena
(docs/api.md "Bot accounts"): refused in its own words, nothing changed, left
out of pairing if it became a bot while waiting, and the pages offer it no
ranked button; bots still challenge and are challenged."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import tokens
from arenas import actions as arena_actions
from arenas.actions.errors import ArenaError
from arenas.models import Arena, ArenaPlayer
from games.models import Match
from matchmaking.challenges import actions as challenges
from matchmaking.models import QueueEntry, TurnBasedEntry
from matchmaking.queue import actions, turn_based
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_match_effects(monkeypatch):
    from games import push as game_push
    from games import tasks as game_tasks

    monkeypatch.setattr(game_push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(game_tasks, name), "apply_async", lambda *a, **k: None)


def a_bot(name=None):
    return tokens.make_bot(make_user(name))


def test_the_live_and_turn_based_queues_refuse_a_bot_in_its_own_words():
    bot = a_bot()
    with pytest.raises(actions.QueueError) as refused:
        actions.join_queue(bot, "ludo", 2)
    assert refused.value.message == actions.BOT_REFUSAL and refused.value.code == "bot_account"
    with pytest.raises(actions.QueueError) as refused:
        turn_based.join_turn_based(bot, "rondo", 2, 5)
    assert "bot account never joins a ranked queue" in refused.value.message
    assert not QueueEntry.objects.exists() and not TurnBasedEntry.objects.exists()


def test_an_account_that_became_a_bot_while_waiting_is_never_paired():
    waiting, person = make_user(), make_user()
    actions.join_queue(waiting, "ludo", 2)
    tokens.make_bot(waiting)
    entry = actions.join_queue(person, "ludo", 2)
    assert entry.match_id is None and not Match.objects.exists()


def test_an_arena_refuses_a_bot_and_its_page_says_why():
    now = timezone.now()
    arena = Arena.objects.create(name="Ludo duel", kind="ludo", seats=2, turn_seconds=30, minutes=30,
                                 starts_at=now - timedelta(minutes=1), rated=True, rated_from_players=2)
    bot = a_bot()
    with pytest.raises(ArenaError) as refused:
        arena_actions.join(bot, arena.pk)
    assert "bot account never joins an arena" in refused.value.message
    assert not ArenaPlayer.objects.exists()
    client = Client()
    client.force_login(bot)
    page = client.get(f"/arenas/{arena.pk}/").content.decode()
    assert "Arenas are for people" in page and "Join this arena" not in page
    response = client.post(f"/arenas/{arena.pk}/join/", follow=True)
    assert "bot account never joins an arena" in response.content.decode()
    assert not ArenaPlayer.objects.exists()


def test_the_play_page_offers_a_bot_no_ranked_button_and_says_why():
    client = Client()
    client.force_login(a_bot())
    html = client.get("/play/").content.decode()
    assert 'name="queue"' not in html and 'action="/queue/turn-based/join/"' not in html
    assert "Ranked queues are for people" in html and "never joins a ranked queue" in html
    response = client.post("/queue/join/", {"queue": "ludo-2"}, follow=True)
    assert actions.BOT_REFUSAL in response.content.decode() and not QueueEntry.objects.exists()


def test_a_bot_challenges_and_is_challenged_like_anyone():
    bot, ann = a_bot(), make_user()
    assert challenges.do_challenge(bot, ann.username, "ludo", 30).challenged == ann
    assert challenges.do_challenge(ann, bot.username, "rondo", 30).challenged == bot
