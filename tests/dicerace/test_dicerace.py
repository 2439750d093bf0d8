"""Dice race, a game from outside games/ (docs/adding-a-game.md), played end to
end through the site: its rules through the engine contract, the site's pages,
a WebSocket on a real daphne against a computer player on a real Celery
worker, then its history and replay. Nothing outside tests/dicerace/ names it."""

import json
import os
import random
import re
import subprocess
import sys
import time

import pytest
from django.urls import reverse

from games import sites
from games.engine import CHANCE, available_games, get_rules
from games.models import Match, Move
from tests import services
from tests.dicerace import KIND
from tests.factories import make_user

SETTINGS = {"DJANGO_SETTINGS_MODULE": "tests.dicerace.settings"}


def test_it_is_registered_only_while_the_fixture_holds(dicerace):
    assert dicerace in available_games() and sites.get_site(dicerace).name == "Dice race"


def test_the_site_games_alone_outside_the_fixture():
    assert KIND not in available_games()


def test_random_matches_keep_the_engine_contract(dicerace):
    """The checks of check-engine-interface (which loads only the games of
    games.engine.GAMES): matches end, chance weights are positive integers,
    notation round-trips, play() leaves its input alone, dump/load round-trips."""
    rules, rng = get_rules(dicerace), random.Random(11)
    for _ in range(20):
        s = rules.new_match(2)
        for _ply in range(1000):
            who = rules.to_move(s)
            if who is None:
                assert rules.legal_moves(s) == []
                break
            if who == CHANCE:
                outs = rules.chance_outcomes(s)
                assert all(isinstance(w, int) and w > 0 for _, w in outs)
                m = rng.choices([o for o, _ in outs], [w for _, w in outs])[0]
            else:
                ms = rules.legal_moves(s)
                m = rng.choice(ms)
                assert str(rules.parse_move(str(m))) == str(m)
                assert rules.view(s, who)["moves"]
            before = json.dumps(rules.dump(s), sort_keys=True)
            s2 = rules.play(s, m)
            assert json.dumps(rules.dump(s), sort_keys=True) == before
            dumped = json.dumps(rules.dump(s2), sort_keys=True)
            assert json.dumps(rules.dump(rules.load(json.loads(dumped))), sort_keys=True) == dumped
            s = s2
        assert rules.outcome(s) is not None


def test_with_it_registered_the_models_need_no_migration():
    env = {**os.environ, **SETTINGS, "DATABASE_URL": "sqlite://:memory:"}
    result = subprocess.run([sys.executable, "manage.py", "makemigrations", "--check", "--dry-run"],
                            cwd=services.ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No changes detected" in result.stdout


@pytest.mark.django_db
def test_its_rules_page_is_listed_and_the_forms_and_admin_offer_it(dicerace, client, admin_client):
    index = client.get(reverse("rules_index")).content.decode()
    assert reverse("rules", args=[dicerace]) in index and "Dice race" in index
    assert "first to reach cell 20 wins" in client.get(reverse("rules", args=[dicerace])).content.decode()
    client.force_login(make_user())
    assert '<option value="dicerace">Dice race</option>' in client.get(reverse("play")).content.decode()
    assert '<option value="dicerace">Dice race</option>' in client.get(reverse("room_new")).content.decode()
    assert "?kind__exact=dicerace" in admin_client.get("/admin/games/match/").content.decode()


@pytest.mark.slow
def test_a_match_against_a_computer_through_the_site(dicerace, transactional_db, client):
    daphne, url = services.start_daphne("daphne-dicerace", wait=False, **SETTINGS)
    services.purge_task_queues()
    worker = services.start_celery_worker("celery-worker-dicerace", wait=False, **SETTINGS)
    player = None
    try:
        services.wait_ready(daphne, worker)  # started side by side
        user = make_user("racer")
        client.force_login(user)
        response = client.post(reverse("play"), {"kind": dicerace, "players": 2, "level_1": "easy",
                                                 "level_2": "easy", "level_3": "easy", "speed": "fast",
                                                 "theme": "plain"})
        assert response.status_code == 302, response.content.decode()
        match = Match.objects.get(kind=dicerace)
        assert response.url == reverse("match", args=[match.public_id])
        page = client.get(response.url).content.decode()
        assert "Dice race" in page and 'class="board dicerace-board"' in page and "Roll the die" in page
        assert "to roll." in " ".join(page.split())

        player = services.WsPlayer(url, user).connect(match.public_id)
        sent = set()
        deadline = time.monotonic() + 90
        while (m := Match.objects.get(pk=match.pk)).status == Match.Status.ACTIVE:
            assert time.monotonic() < deadline, "the match did not end"
            if m.state["phase"] == "roll" and m.state["turn"] == 0 and m.version not in sent:
                player.send(move="roll", version=str(m.version))
                sent.add(m.version)
            time.sleep(0.05)
        assert m.status == Match.Status.FINISHED and m.end_reason == "finished"
        assert Move.objects.filter(match=m, actor="seat", seat=0, notation="roll").count() == len(sent)
        assert Move.objects.filter(match=m, actor="seat", seat=1, notation="roll").exists()  # the worker's
        player.until(lambda f: "Match over." in f, 30)

        history = client.get(reverse("history", args=[user.username])).content.decode()
        assert m.public_id in history and "Dice race" in history
        replay = client.get(reverse("replay", args=[m.public_id]) + "?ply=2").content.decode()
        assert "Replay of Dice race match" in replay and re.search(r"racer \(\w+\) rolled", replay)
    finally:
        if player is not None:
            player.close()
        worker.stop()
        daphne.stop()
