"""Challenges (README "Playing again"): a two-seat match (casual unless
asked rated: test_rated_challenges.py) asked from a profile, accepted or
declined, withdrawn, lapsing after 5 minutes; the refusals (oneself, a
flood, a live rated match; a banned player and one who turned challenges
off alike); two accepts at once and an accept racing the lapse start
exactly one match; the pages and forms refuse bad input plainly."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core import ratelimits
from games.models import Match
from matchmaking import together
from matchmaking.challenges import actions as challenges
from matchmaking.models import Challenge
from tests.factories import make_match, make_user
from tests.races import race


@pytest.fixture(autouse=True)
def quiet(monkeypatch):
    ratelimits.reset()
    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    from games import tasks

    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)
    yield
    ratelimits.reset()


def challenge(ada=None, bob=None, **kw):
    ada, bob = ada or make_user(), bob or make_user()
    kw.setdefault("kind", "roundabout")
    kw.setdefault("turn_seconds", 90)
    return challenges.do_challenge(ada, bob.username, **kw), ada, bob


@pytest.mark.django_db
class TestChallenges:
    def test_an_accepted_challenge_starts_an_unrated_two_seat_match_at_once(self):
        c, ada, bob = challenge(is_public=False)
        assert c.status == "open" and c.expires_at - c.created_at == timedelta(minutes=5)
        assert [x.pk for x in challenges.incoming(bob)] == [c.pk]
        assert [x.pk for x in challenges.outgoing(ada)] == [c.pk]
        c = challenges.do_answer(c.pk, bob, True)
        match = c.match
        assert c.status == "accepted" and match.status == Match.Status.ACTIVE
        assert (match.kind, match.turn_seconds) == ("roundabout", 90)
        assert not match.rated and not match.is_public
        assert sorted(match.seats.values_list("user_id", flat=True)) == sorted([ada.pk, bob.pk])
        assert challenges.do_answer(c.pk, bob, True).match == match  # a second click: the same match
        assert not challenges.incoming(bob)

    def test_ludo_always_has_60_second_turns(self):
        c, _, _ = challenge(kind="ludo", turn_seconds=30)
        assert c.turn_seconds == 60

    def test_declined_withdrawn_and_lapsed_challenges_start_nothing(self):
        c, ada, bob = challenge()
        challenges.do_answer(c.pk, bob, False)
        with pytest.raises(challenges.ChallengeRefused, match="no longer open"):
            challenges.do_answer(c.pk, bob, True)
        c, ada, bob = challenge()
        with pytest.raises(challenges.ChallengeRefused, match="Only the challenger"):
            challenges.do_cancel(c.pk, bob)
        challenges.do_cancel(c.pk, ada)
        with pytest.raises(challenges.ChallengeRefused, match="no longer open"):
            challenges.do_answer(c.pk, bob, True)
        c, ada, bob = challenge()
        later = timezone.now() + timedelta(minutes=5, seconds=1)
        with pytest.raises(challenges.ChallengeRefused, match="lapsed"):
            challenges.do_answer(c.pk, bob, True, now=later)
        assert challenges.lapse_overdue(later) == 1
        assert Challenge.objects.get(pk=c.pk).status == "lapsed"
        assert Match.objects.count() == 0

    def test_refusals_are_plain_and_change_nothing(self):
        ada, bob = make_user(), make_user()
        with pytest.raises(challenges.ChallengeRefused, match="yourself"):
            challenges.do_challenge(ada, ada.username.upper(), "ludo", 60)
        with pytest.raises(challenges.ChallengeRefused, match="no such player"):
            challenges.do_challenge(ada, "nobody-here", "ludo", 60)
        with pytest.raises(challenges.ChallengeRefused, match="Choose a game"):
            challenges.do_challenge(ada, bob.username, "chess", 60)
        with pytest.raises(challenges.ChallengeRefused, match="The time control is 30, 60, 90 or 120"):
            challenges.do_challenge(ada, bob.username, "rondo", "45")
        with pytest.raises(challenges.ChallengeRefused, match="The time control is"):
            challenges.do_challenge(ada, bob.username, "rondo", ["60"])
        c = challenges.do_challenge(ada, bob.username, "rondo", 60)
        with pytest.raises(challenges.ChallengeRefused, match="already challenged"):
            challenges.do_challenge(ada, bob.username, "rondo", 60)
        with pytest.raises(challenges.ChallengeRefused, match="no such challenge"):
            challenges.do_answer(c.pk, make_user(), True)  # someone else's: as for none
        with pytest.raises(challenges.ChallengeRefused, match="Only the challenged"):
            challenges.do_answer(c.pk, ada, True)
        assert Challenge.objects.count() == 1 and Match.objects.count() == 0

    def test_a_banned_player_and_one_who_turned_challenges_off_get_the_same_refusal(self):
        ada, banned, off = make_user(), make_user(), make_user()
        banned.banned_until = timezone.now() + timedelta(days=3)
        banned.save()
        challenges.do_set_takes_challenges(off, False)
        refusals = []
        for target in (banned, off):
            with pytest.raises(challenges.ChallengeRefused) as refused:
                challenges.do_challenge(ada, target.username, "ludo", 60)
            refusals.append(refused.value.message.replace(target.username, "NAME"))
        assert refusals[0] == refusals[1] == "NAME is not taking challenges now."
        challenges.do_set_takes_challenges(off, True)
        assert challenges.do_challenge(ada, off.username, "ludo", 60).status == "open"

    def test_a_flood_is_refused(self):
        ada = make_user()
        for _ in range(challenges.MAX_OPEN):
            challenge(ada)
        with pytest.raises(challenges.ChallengeRefused, match="open challenges"):
            challenge(ada)
        for c in Challenge.objects.filter(challenger=ada):
            challenges.do_cancel(c.pk, ada)
        sent = challenges.MAX_OPEN
        with pytest.raises(challenges.ChallengeRefused, match="Too many challenges"):
            while True:
                c, _, _ = challenge(ada)
                challenges.do_cancel(c.pk, ada)
                sent += 1
        assert sent == int(challenges.CHALLENGE_RATE.split("/")[0])

    def test_accepting_while_in_a_live_rated_match_is_refused(self):
        c, ada, bob = challenge()
        rated = make_match(seats=("human", "human"), users=[bob, make_user()], rated=True)
        with pytest.raises(challenges.ChallengeRefused, match="playing a rated or arena match"):
            challenges.do_answer(c.pk, bob, True)
        assert Challenge.objects.get(pk=c.pk).status == "open"
        assert Match.objects.count() == 1 and rated.status == "active"

    def test_accepting_while_in_an_unrated_arena_match_is_refused(self):
        c, ada, bob = challenge()
        arena = make_match(seats=("human", "human"), users=[bob, make_user()], event="Ludo sprint",
                           event_url="/arenas/1/")
        with pytest.raises(challenges.ChallengeRefused, match="playing a rated or arena match"):
            challenges.do_answer(c.pk, bob, True)
        assert Challenge.objects.get(pk=c.pk).status == "open"
        assert Match.objects.count() == 1 and arena.status == "active"


@pytest.mark.django_db(transaction=True)
def test_two_accepts_of_one_challenge_at_once_start_exactly_one_match():
    c, ada, bob = challenge()
    results = race(lambda: challenges.do_answer(c.pk, bob, True),
                   lambda: challenges.do_answer(c.pk, bob, True))
    assert all(isinstance(r, Challenge) for r in results), results
    assert Match.objects.count() == 1
    assert results[0].match_id == results[1].match_id


@pytest.mark.django_db(transaction=True)
def test_an_accept_racing_the_lapse_either_starts_the_match_or_finds_it_lapsed():
    c, ada, bob = challenge()
    at = c.expires_at
    results = race(lambda: challenges.do_answer(c.pk, bob, True, now=at - timedelta(microseconds=1)),
                   lambda: challenges.lapse(c.pk, now=at))
    c.refresh_from_db()
    if c.status == "accepted":
        assert results[1] is False and Match.objects.count() == 1
    else:
        assert c.status == "lapsed" and isinstance(results[0], challenges.ChallengeRefused)
        assert Match.objects.count() == 0


@pytest.mark.django_db
class TestPages:
    def test_a_challenge_from_a_profile_and_its_answer_from_the_play_page(self, client):
        ada, bob = make_user(), make_user()
        client.force_login(ada)
        profile = client.get(f"/u/{bob.username}/").content.decode()
        assert f"Challenge {bob.username}" in profile
        assert "Rated: the result moves both players' ratings in this game" in profile
        response = client.post(f"/u/{bob.username}/challenge/", {"kind": "rondo", "turn_seconds": "30"})
        c = Challenge.objects.get()
        assert response["Location"] == f"/challenges/{c.pk}/"
        page = client.get(f"/challenges/{c.pk}/")
        assert "Waiting for" in page.content.decode() and "HX-Request" in page["Vary"]
        polled = client.get(f"/challenges/{c.pk}/", headers={"HX-Request": "true"})
        assert polled.content.decode().lstrip().startswith('<div id="challenge-state"')
        client.force_login(bob)
        play = client.get("/play/").content.decode()
        assert f"{ada.username}</strong> challenges you to Rondo, live, 30 s turns" in play
        assert 'hx-get="/challenges/incoming/"' in play
        response = client.post(f"/challenges/{c.pk}/accept/", {"next": "/play/"})
        c.refresh_from_db()
        assert response["Location"] == f"/m/{c.match.public_id}/"
        client.force_login(ada)
        polled = client.get(f"/challenges/{c.pk}/", headers={"HX-Request": "true"})
        assert polled.status_code == 204 and polled["HX-Redirect"] == f"/m/{c.match.public_id}/"

    def test_bad_posts_and_other_peoples_challenges_are_refused_plainly(self, client):
        c, ada, bob = challenge()
        stranger = make_user()
        client.force_login(stranger)
        assert client.get(f"/challenges/{c.pk}/").status_code == 404
        assert client.get("/challenges/99999999/").status_code == 404
        for verb in ("accept", "decline", "cancel"):
            assert client.get(f"/challenges/{c.pk}/{verb}/").status_code == 405
            response = client.post(f"/challenges/{c.pk}/{verb}/", {"next": "https://evil.example/"})
            assert response.status_code == 302 and response["Location"] == f"/challenges/{c.pk}/"
        assert client.post(f"/u/{stranger.username}/challenge/", {"kind": "ludo"}).status_code == 302
        assert client.post("/u/nobody/challenge/", {"kind": ["x", "y"], "turn_seconds": "x" * 5000}
                           ).status_code == 302
        c.refresh_from_db()
        assert c.status == "open" and Challenge.objects.count() == 1

    def test_the_own_profile_lists_challenges_and_turns_them_off(self, client):
        c, ada, bob = challenge()
        client.force_login(bob)
        page = client.get(f"/u/{bob.username}/").content.decode()
        assert f"{ada.username}</strong> challenges you" in page and "Others may challenge me" in page
        client.post("/challenges/settings/", {})
        assert not challenges.takes_challenges(bob)
        client.post("/challenges/settings/", {"accepts": "on"})
        assert challenges.takes_challenges(bob)


@pytest.mark.django_db
def test_a_private_challenge_is_in_its_players_history_only(client):
    c, ada, bob = challenge(is_public=False)
    match = challenges.do_answer(c.pk, bob, True).match
    client.force_login(bob)
    assert f"/m/{match.public_id}/" in client.get(f"/u/{ada.username}/matches/").content.decode()
    client.force_login(make_user())
    assert f"/m/{match.public_id}/" not in client.get(f"/u/{ada.username}/matches/").content.decode()
    assert client.get(f"/m/{match.public_id}/").status_code == 404


@pytest.mark.django_db
def test_a_logged_out_poll_stops_and_goes_to_log_in(client):
    c, ada, bob = challenge()
    listed = client.get("/challenges/incoming/", headers={"HX-Request": "true"})
    assert listed.status_code == 200 and "hx-get" not in listed.content.decode()
    polled = client.get(f"/challenges/{c.pk}/", headers={"HX-Request": "true"})
    assert polled.status_code == 204 and polled["HX-Redirect"].startswith("/login/?next=")
    assert client.get(f"/challenges/{c.pk}/").status_code == 302
