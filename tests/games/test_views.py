"""Play page, match page, the no-JavaScript move forms, and rules pages."""

import pytest
from django.urls import reverse

from games.models import Match, Move
from tests.factories import ludo_state, make_match, make_user

pytestmark = pytest.mark.django_db


def test_play_page_lists_live_public_matches_only(client):
    public = make_match()
    private = make_match(is_public=False)
    body = client.get(reverse("play")).content.decode()
    assert public.public_id in body and private.public_id not in body
    assert "Log in" in body  # anonymous: no form


def test_starting_a_solo_match(client):
    user = make_user()
    client.force_login(user)
    resp = client.post(reverse("play"), {"kind": "ludo", "players": "4", "level_1": "easy",
                                         "level_2": "normal", "level_3": "strong", "speed": "fast"})
    match = Match.objects.get()
    assert resp.status_code == 302 and resp["Location"] == reverse("match", args=[match.public_id])
    assert match.status == "active" and match.host == user and match.computer_speed == "fast"
    seats = list(match.seats.order_by("index"))
    assert seats[0].user == user and [s.computer_level for s in seats[1:]] == ["easy", "normal", "strong"]
    assert Move.objects.filter(match=match, actor="chance", chance_index=0).exists()


@pytest.mark.parametrize("bad", [
    {"kind": "chess"}, {"players": "5"}, {"players": "x"}, {"level_1": "godlike"}, {"speed": "warp"}, {},
])
def test_bad_solo_match_forms_are_400_and_create_nothing(client, bad):
    client.force_login(make_user())
    data = {"kind": "ludo", "players": "2", "level_1": "easy", "level_2": "easy", "level_3": "easy",
            "speed": "fast"}
    data = {} if bad == {} else {**data, **bad}
    resp = client.post(reverse("play"), data)
    assert resp.status_code == 400
    assert not Match.objects.exists()


def test_anonymous_post_to_play_goes_to_login(client):
    resp = client.post(reverse("play"), {"kind": "ludo"})
    assert resp.status_code == 302 and "/login/" in resp["Location"]
    assert not Match.objects.exists()


def test_match_page_shows_board_seats_clock_and_the_commitment_not_the_seed(client):
    match = make_match(seats=("human", "strong"), state=ludo_state())
    body = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert 'id="board"' in body and 'id="seats"' in body and 'id="clock"' in body
    assert f'ws-connect="/ws/match/{match.public_id}/"' in body
    assert match.seed_hash in body and match.seed not in body
    assert 'id="controls"' not in body  # a spectator has no controls


def test_the_clock_reads_the_time_left_without_javascript(client):
    from datetime import timedelta

    from django.utils import timezone

    match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=60)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(seconds=13.4))
    html = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert '<time id="clock"' in html and ">14 s</time>" in html and ">60 s</time>" not in html


def test_an_aborted_match_marks_no_turn_on_the_board(client):
    from games import actions

    match = make_match(seats=("human", "human"), state=ludo_state())
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert " turn\"" in page  # the seat to move is marked while the match is live
    actions.abort_match(match.public_id, "moderator")
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert "Match aborted" in page and " turn\"" not in page


def test_a_seated_player_sees_move_buttons_that_post_without_javascript(client):
    match = make_match(seats=("human", "human"), state=ludo_state())
    user = match.seats.get(index=0).user
    client.force_login(user)
    body = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert "Roll the die" in body and 'name="csrfmiddlewaretoken"' in body
    resp = client.post(reverse("match_move", args=[match.public_id]),
                       {"move": "roll", "version": match.version})
    assert resp.status_code == 302
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_a_refused_no_js_move_says_why_and_changes_nothing(client):
    match = make_match(seats=("human", "human"), state=ludo_state())
    client.force_login(match.seats.get(index=1).user)
    resp = client.post(reverse("match_move", args=[match.public_id]),
                       {"move": "roll", "version": match.version}, follow=True)
    assert "It is not your turn." in resp.content.decode()
    assert Match.objects.get(pk=match.pk).version == match.version
    resp = client.post(reverse("match_move", args=["nosuchmatch"]), {"move": "roll", "version": 1},
                       follow=True)
    assert resp.status_code == 404


def test_private_matches_are_hidden_from_outsiders(client):
    match = make_match(is_public=False)
    assert client.get(reverse("match", args=[match.public_id])).status_code == 404
    client.force_login(make_user())
    assert client.get(reverse("match", args=[match.public_id])).status_code == 404
    client.force_login(match.seats.get(index=0).user)
    assert client.get(reverse("match", args=[match.public_id])).status_code == 200


@pytest.mark.parametrize("action", ["match_move", "match_leave", "match_pause", "match_resume"])
def test_forms_posted_to_an_outsiders_private_match_get_404_and_no_message(client, action):
    match = make_match(seats=("human", "human"), state=ludo_state(), is_public=False)
    client.force_login(make_user())
    resp = client.post(reverse(action, args=[match.public_id]), {"move": "roll", "version": match.version})
    assert resp.status_code == 404
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.status) == (match.version, match.status)
    page = client.get(reverse("play")).content.decode()  # no queued message shows up later
    assert 'class="messages"' not in page and "no seat" not in page


def test_seed_is_revealed_when_the_match_ends(client):
    state = ludo_state(phase="move", die=1, pieces=[[56, 56, 56, 55], [-1] * 4], autoplay_forced=False)
    match = make_match(seats=("human", "human"), state=state)
    client.force_login(match.seats.get(index=0).user)
    client.post(reverse("match_move", args=[match.public_id]), {"move": "p3", "version": match.version})
    body = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert "Match over." in body and match.seed in body


def test_leave_and_pause_forms(client):
    match = make_match(seats=("human", "human", "human"), state=ludo_state(3))
    users = [s.user for s in match.seats.order_by("index")]
    Match.objects.filter(pk=match.pk).update(host=users[0])
    client.force_login(users[0])
    client.post(reverse("match_pause", args=[match.public_id]), {"version": match.version})
    assert Match.objects.get(pk=match.pk).status == "paused"
    m = Match.objects.get(pk=match.pk)
    client.post(reverse("match_resume", args=[match.public_id]), {"version": m.version})
    assert Match.objects.get(pk=match.pk).status == "active"
    client.force_login(users[2])
    client.post(reverse("match_leave", args=[match.public_id]))
    assert Match.objects.get(pk=match.pk).seats.get(index=2).status == "left"
    assert client.get(reverse("match_leave", args=[match.public_id])).status_code == 405


def test_rules_pages(client):
    assert client.get(reverse("rules", args=["ludo"])).status_code == 200
    assert client.get(reverse("rules", args=["chess"])).status_code == 404
    assert client.get("/rules/..%2Fbase/").status_code == 404
    assert client.get(reverse("rules_index")).status_code == 200


@pytest.mark.parametrize("kind", ["ludo", "roundabout", "rondo"])
def test_every_rules_page_says_how_turn_based_play_works(client, kind):
    page = client.get(reverse("rules", args=[kind])).content.decode()
    start = page.index('id="timers"')
    timers = page[start:page.index("</ul>", start)]
    assert 'id="turn-based"' in timers and "1, 2, 3, 5, 7 or 14 <strong>days</strong>" in timers
    assert "on holiday" in timers


@pytest.mark.parametrize("path", ["/m/%00x/", "/m/ABC/", "/m/x%00/move/", "/u/%00bad/", "/u/a b/",
                                  "/m/" + "a" * 40 + "/"])
def test_urls_that_can_name_nothing_are_404_before_any_query(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("kind,has_dice", [("ludo", True), ("roundabout", True), ("rondo", False)])
def test_the_device_settings_beside_the_board_show_only_what_applies(client, kind, has_dice):
    """Dice style only in games with dice (GameSite.has_dice); notifications and
    board shortcuts only for a player; the heartbeat period for match.js."""
    match = make_match(kind, ("human", "human"))
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    start = page.index('id="device-settings"')
    settings_form = page[start:page.index("</form>", start)]
    assert 'name="sound"' in settings_form
    assert ('name="dice_style"' in settings_form) == has_dice
    assert 'name="shortcuts"' not in settings_form and "notify-button" not in settings_form
    assert 'data-heartbeat-ms="10000"' in page and 'data-my-seat=""' in page
    client.force_login(match.seats.get(index=0).user)
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert 'name="shortcuts"' in page and 'id="notify-button"' in page and 'data-my-seat="0"' in page
