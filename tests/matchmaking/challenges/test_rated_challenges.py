"""Rated challenges (docs/features.md "Playing again", docs/decisions.md
"Rated challenges"): a challenge may be rated, for people and bot accounts
alike; accepted, it starts a rated match whose end moves both players'
ratings (a bot's too, which then shows on the bots' leaderboard and not on
the people's); a casual one moves nothing; a rated challenge is public; a
pair whose rated match was voided gets no rated challenge; a ``rated`` that
is neither yes nor no is refused; the pages, lists and notes
say rated or casual."""

import pytest

from accounts import tokens
from accounts.models import Rating
from core import ratelimits
from games import actions as match_actions
from games import rating
from games.models import Match, RatingChange
from matchmaking import notices, together
from matchmaking.challenges import actions as challenges
from matchmaking.models import Challenge
from notifications import notify
from tests.factories import make_user, play_until_every_seat_moved

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet(monkeypatch):
    ratelimits.reset()
    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    from games import tasks

    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)
    yield
    ratelimits.reset()


def played_out(challenger, challenged, **kw):
    """A roundabout challenge from ``challenger`` accepted by ``challenged``,
    played until every seat has moved and then left by ``challenged`` (a loss
    that keeps the match ratable: docs/rules.md "Leaving"). Returns the match."""
    c = challenges.do_challenge(challenger, challenged.username, "roundabout", 90, **kw)
    match = play_until_every_seat_moved(challenges.do_answer(c.pk, challenged, True).match)
    match = match_actions.leave_match(match.public_id, challenged)
    assert match.is_over
    return match


def ratings(*users) -> dict[str, tuple[int, float]]:
    rows = Rating.objects.filter(user__in=users, kind="roundabout").select_related("user")
    return {r.user.username: (r.games, r.rating) for r in rows}


def test_a_rated_challenge_with_a_bot_rates_both_and_puts_the_bot_on_the_bots_board(client):
    bot, ada = tokens.make_bot(make_user("rated_bot")), make_user("rated_ada")
    match = played_out(bot, ada, rated=True)
    assert match.rated and match.is_public
    moved = ratings(bot, ada)
    assert moved["rated_bot"][0] == moved["rated_ada"][0] == 1
    assert moved["rated_bot"][1] > 1500 > moved["rated_ada"][1]  # ada left: bot won
    assert set(RatingChange.objects.filter(match=match).values_list("user__username", flat=True)) == {
        "rated_bot", "rated_ada"}
    bots_board = client.get("/leaderboard/roundabout/?bots=1").content.decode()
    people_board = client.get("/leaderboard/roundabout/").content.decode()
    assert "rated_bot" in bots_board and "rated_ada" not in bots_board
    assert "rated_ada" in people_board and "rated_bot" not in people_board
    # Its rematch is rated as any rated match's (at most two in a row).
    assert together.rematch_rating(match) == together.RATED


def test_a_casual_challenge_moves_no_rating():
    ada, bob = make_user(), make_user()
    match = played_out(ada, bob)
    assert not match.rated
    assert ratings(ada, bob) == {} and not RatingChange.objects.filter(match=match).exists()
    assert together.rematch_rating(match) == together.CASUAL


def test_a_pair_whose_rated_match_was_voided_gets_no_rated_challenge():
    ada, bob = make_user(), make_user()
    first = played_out(ada, bob, rated=True)
    sent_before = challenges.do_challenge(bob, ada.username, "roundabout", 90, rated=True)
    rating.void_ratings(first, make_user(), "farming")
    with pytest.raises(challenges.ChallengeRefused, match="voided a rated match between you two"):
        challenges.do_challenge(ada, bob.username, "roundabout", 90, rated=True)
    with pytest.raises(challenges.ChallengeRefused, match="this rated challenge cannot be played"):
        challenges.do_answer(sent_before.pk, ada, True)
    sent_before.refresh_from_db()
    assert sent_before.status == "open" and Match.objects.count() == 1
    assert not challenges.do_challenge(ada, bob.username, "roundabout", 90).rated  # casual is fine


@pytest.mark.parametrize("rated", ["yes", "1", "true", "garbage", 1, 0, "ON"])
def test_a_rated_that_is_neither_yes_nor_no_is_refused_and_nothing_is_made(rated):
    ada, bob = make_user(), make_user()
    with pytest.raises(challenges.ChallengeRefused, match="Rated is yes or no"):
        challenges.do_challenge(ada, bob.username, "roundabout", 90, rated=rated)
    assert not Challenge.objects.exists()


def test_rated_and_private_together_are_refused_and_nothing_is_made():
    ada, bob = make_user(), make_user()
    with pytest.raises(challenges.ChallengeRefused, match="A rated challenge is public"):
        challenges.do_challenge(ada, bob.username, "roundabout", 90, rated=True, is_public=False)
    assert not Challenge.objects.exists()


def test_the_form_refuses_bad_rated_posts_plainly(client):
    ada, bob = make_user(), make_user()
    client.force_login(ada)
    url = f"/u/{bob.username}/challenge/"
    for data, said in (({"rated": "yes"}, "Rated is yes or no"),
                       ({"rated": "on", "private": "on"}, "A rated challenge is public")):
        response = client.post(url, {"kind": "roundabout", "turn_seconds": "90", **data}, follow=True)
        assert said in response.content.decode()
    assert not Challenge.objects.exists()
    client.post(url, {"kind": "roundabout", "turn_seconds": "90", "rated": "on"})
    assert Challenge.objects.get().rated


def test_pages_lists_and_notes_say_rated_or_casual(client, monkeypatch):
    sent = []
    monkeypatch.setattr(notify, "send_quietly", lambda events: sent.extend(events))
    ada, bob, cy = make_user("rc_ada"), make_user("rc_bob"), make_user("rc_cy")
    rated = challenges.do_challenge(ada, bob.username, "roundabout", 90, rated=True)
    casual = challenges.do_challenge(cy, bob.username, "roundabout", 90)
    client.force_login(ada)
    page = client.get(f"/challenges/{rated.pk}/").content.decode()
    assert "<strong>Rated</strong>: the result moves both players' ratings in Roundabout." in page
    assert "(<strong>rated</strong>)" in client.get("/u/rc_ada/").content.decode()  # outgoing
    client.force_login(bob)
    casual_page = client.get(f"/challenges/{casual.pk}/").content.decode()
    assert "<strong>Casual</strong>: no rating moves." in casual_page
    incoming = client.get("/challenges/incoming/").content.decode()
    assert "rc_ada</strong> challenges you to Roundabout, live, 90 s turns, <strong>rated</strong>." \
        in incoming
    assert "rc_cy</strong> challenges you to Roundabout, live, 90 s turns, casual." in incoming
    notices.challenge_received(bob.pk, rated.pk)
    notices.challenge_received(bob.pk, casual.pk)
    texts = [event["note"]["text"] for _group, event in sent]
    assert texts == ["rc_ada challenges you to Roundabout (90 s turns, rated)",
                     "rc_cy challenges you to Roundabout (90 s turns, casual)"]
    challenges.do_answer(rated.pk, bob, True)
    notices.challenge_answered(ada.pk, rated.pk)
    assert sent[-1][1]["note"]["text"] == ("rc_bob accepted your rated Roundabout challenge: "
                                           "the match has begun")
