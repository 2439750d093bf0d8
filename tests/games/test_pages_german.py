"""The game pages outside live play in German (docs/i18n.md): one render of each
shows translated words, numbers and dates in German, while every value a
script or the SVG reads (data attributes, coordinates) stays as in English."""

import re

import pytest
from django.utils import timezone, translation
from django.utils.formats import date_format

from games.models import RatingChange
from tests.factories import ludo_state, make_match, make_user, play_to_the_end

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture(autouse=True)
def no_effects(monkeypatch):
    from games import push, tasks

    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


def played_out(users, **kw):
    """A two-player Ludo match played to its end through the actions (dice and all)."""
    return play_to_the_end(make_match(seats=("human", "human"), users=users,
                                      state=ludo_state(pieces=[[56, 56, 56, 50], [56, 56, 56, 50]]), **kw))


def german(client, url, status=200):
    response = client.get(url, **GERMAN)
    assert response.status_code == status
    assert response["Content-Language"] == "de"
    return response.content.decode()


def attributes(html: str, name: str) -> list[str]:
    return re.findall(rf'{name}="([^"]*)"', html)


@pytest.mark.django_db
def test_history_profile_and_leaderboard_in_german(client):
    ada, bob = make_user("ada"), make_user("bob")
    match = played_out([ada, bob], rated=True)
    assert RatingChange.objects.filter(match=match, user=ada).exists()

    html = german(client, "/u/ada/matches/?rated=rated")
    assert "<title>Partien von ada" in html
    assert 'data-label="Wann"' in html and ">Ergebnis</label>" in html
    assert re.search(r"(Gewonnen|Verloren \(2\.\))</td>", html)
    assert "gewertet</span>" in html and "Filtern</button>" in html

    html = german(client, "/u/ada/")
    assert ">Wertungen</h2>" in html and "Alle Partien von ada" in html
    assert "Wertung in Ludo über 1 gewertete Partie" in html
    with translation.override("de"):
        day = date_format(timezone.localtime(), "j M Y")
    assert day in html  # the chart's dates: German month names
    assert "Die Würfel in Zahlen" in html
    # The chart's geometry stays machine-readable (no decimal commas).
    for value in attributes(html, "cx") + attributes(html, "y1"):
        assert "," not in value

    html = german(client, "/leaderboard/ludo/?control=live")
    assert "<title>Rangliste Ludo" in html
    assert "Davon live</th>" in html and "Bedenkzeit" in html
    assert "Vorläufig: weniger als 20 gewertete Partien" in html
    html = german(client, "/leaderboard/ludo/?control=turn-based")
    assert "Noch niemand hat eine gewertete Partie Ludo (Fernpartie) gespielt." in html
    refused = german(client, "/leaderboard/ludo/?control=soon", status=400)
    assert refused.count("Diese Bedenkzeit gibt es nicht") == 1


@pytest.mark.django_db
def test_replay_in_german_keeps_its_machine_read_values(client):
    ada, bob = make_user("ada"), make_user("bob")
    match = played_out([ada, bob])
    english = client.get(f"/m/{match.public_id}/replay/?ply=2", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    html = german(client, f"/m/{match.public_id}/replay/?ply=2")
    assert f"Halbzug 2 von {match.ply_count}" in html
    assert "Prüfung der fairen Würfel" in html and "« Anfang" in html and "Partieverlauf" in html
    # The dice in numbers: words and numbers in German, data attributes as in English.
    assert "Augenzahl" in html or "Glück" in html
    for name in ("data-ply", "data-total", "data-value", "data-luck", "data-expected", "cx"):
        assert attributes(html, name) == attributes(english, name), name
    assert re.search(r'<span class="expected">fair \d+,\d</span>', html)


@pytest.mark.django_db
def test_play_rules_and_luck_verdict_in_german(client):
    client.force_login(make_user("ada"))
    html = german(client, "/play/")
    assert "<h1>Spielen</h1>" in html and "Gegen Computer" in html
    assert "Tempo der Computer" in html and "Partie starten" in html
    assert "4 Spieler" in html and "3 Computer" in html

    html = german(client, "/rules/")
    assert "<h1>Regeln</h1>" in html

    from games import luck
    with translation.override("de"):
        verdict = luck.verdict(luck.luck_rules("ludo"), [1, 1, 1, 1, 1, 1])
    assert verdict.text.startswith("Zu wenige")
