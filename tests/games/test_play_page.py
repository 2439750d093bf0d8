"""The play page as a picture (README "The play page"): a card per game with its
board and quick choices, how many wait in each ranked queue, and only the live
matches worth watching."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import lobby
from games.models import Match, Seat
from matchmaking.queue import actions as queue_actions
from tests.factories import ludo_state, make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_effects(monkeypatch):
    from games import push, tasks

    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


def test_a_card_per_game_with_its_board_and_one_click_choices(client):
    client.force_login(make_user())
    html = client.get("/play/").content.decode()
    for kind, name in (("ludo", "Ludo"), ("roundabout", "Roundabout"), ("rondo", "Rondo")):
        card = re.search(rf'<article class="game-card" id="game-{kind}".*?</article>', html, re.S)[0]
        assert f"/static/img/{kind}-board.svg" in card and f"<h2 id=\"card-{kind}\">{name}</h2>" in card
        assert f'name="kind" value="{kind}"' in card  # against computers, one click
        assert [f"{kind}-{n}" for n in (2, 3, 4)] == re.findall(r'name="queue" value="([a-z]+-\d)"', card)
        assert f"/rooms/new/?kind={kind}" in card
    assert "<details>" in html  # the full form, closed


def test_a_quick_choice_starts_a_match_against_normal_computers(client):
    user = make_user()
    client.force_login(user)
    response = client.post("/play/", {"kind": "rondo", "players": "3", "speed": "normal", "level_1": "normal",
                                      "level_2": "normal", "level_3": "normal"})
    match = Match.objects.get()
    assert response.status_code == 302 and match.kind == "rondo" and match.theme == "plain"
    assert [s.computer_level for s in match.seats.order_by("index")] == ["", "normal", "normal"]


def test_more_choices_opens_the_full_form_with_that_game_and_a_bad_game_is_ignored(client):
    client.force_login(make_user())
    html = client.get("/play/?kind=roundabout").content.decode()
    assert "<details open>" in html and '<option value="roundabout" selected>' in html
    html = client.get("/play/?kind=<chess>").content.decode()
    assert "<details>" in html and "&lt;chess&gt;" not in html and "<chess>" not in html


def test_the_ranked_buttons_say_how_many_wait_now(client):
    for _ in range(2):
        queue_actions.join_queue(make_user(), "ludo", 4)
    queue_actions.join_queue(make_user(), "rondo", 3)
    client.force_login(make_user())
    html = client.get("/play/").content.decode()
    waiting = dict(re.findall(r'value="([a-z]+-\d)".*?class="quick-note queue-waiting">([^<]*)<', html))
    assert waiting["ludo-4"] == "2 waiting" and waiting["rondo-3"] == "1 waiting"
    assert waiting["ludo-2"] == "none waiting"


def test_a_visitor_sees_the_cards_with_log_in_links_instead_of_buttons(client):
    html = client.get("/play/").content.decode()
    assert html.count('class="game-card"') == 3 and 'name="queue"' not in html
    assert "Log in</a> to play ranked" in html and 'name="players"' not in html


def test_only_live_matches_worth_watching_are_listed():
    watched = make_match(state=ludo_state())  # a person playing a computer, on their turn
    idle = make_match(state=ludo_state())  # its person missed their last turn
    Seat.objects.filter(match=idle, user__isnull=False).update(missed_turns=1)
    quiet = make_match(state=ludo_state())  # nothing has happened for a long while
    Match.objects.filter(pk=quiet.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    gone = make_match(seats=("human", "human", "easy"), state=ludo_state(3))  # both people left
    Seat.objects.filter(match=gone, user__isnull=False).update(status=Seat.Status.LEFT)
    paused = make_match(state=ludo_state())
    Match.objects.filter(pk=paused.pk).update(status=Match.Status.PAUSED)
    private = make_match(state=ludo_state(), is_public=False)
    finished = make_match(state=ludo_state(phase="move", die=1, pieces=[[56, 56, 56, 55], [-1] * 4]))
    assert finished.is_over
    listed = {m.public_id for m in lobby.worth_watching()}
    assert listed == {watched.public_id}
    assert idle.public_id not in listed and quiet.public_id not in listed and private.public_id not in listed


def test_the_play_page_lists_what_is_worth_watching_and_counts_it_on_the_card(client):
    ann, bob = make_user("ann"), make_user("bob")
    match = make_match(seats=("human", "human"), users=[ann, bob], state=ludo_state(), rated=True)
    html = client.get("/play/").content.decode()
    assert f'href="/m/{match.public_id}/"' in html and "ann, bob" in html
    card = re.search(r'<article class="game-card" id="game-ludo".*?</article>', html, re.S)[0]
    assert '1 live now' in card
