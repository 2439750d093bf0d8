"""Making turn-based matches (docs/features.md "Turn-based play"): rooms,
challenges and rematches offer live seconds or turn-based days; live and
turn-based matches never hold each other back (ranked pairing, challenges,
rooms, rematches); a player sits in at most PARLOUR_TURN_BASED_LIMIT
turn-based matches, one more refused with a message naming the limit and
nothing changed, two accepts at once included; bad time controls are refused."""

from datetime import timedelta

import pytest

from games import actions as game_actions
from games.models import Match
from games.time_controls import DAY
from matchmaking import together
from matchmaking.challenges import actions as challenges
from matchmaking.models import Challenge, RematchOffer, Room
from matchmaking.queue import actions as queue
from matchmaking.rematch import actions as rematch
from matchmaking.rooms import actions as rooms
from tests.factories import make_match, make_user, play_until_every_seat_moved
from tests.races import race

THREE_DAYS = 3 * DAY


@pytest.fixture(autouse=True)
def no_tasks(monkeypatch):
    """No Celery task is sent and nothing is pushed (the actions are tested)."""
    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    from games import push as game_push
    from games import tasks

    monkeypatch.setattr(game_push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


@pytest.fixture
def limit_two(settings):
    settings.PARLOUR_TURN_BASED_LIMIT = 2


def turn_based_match(user, *, rated=True, kind="rondo"):
    """A turn-based match (3 days a decision) ``user`` is seated in, not ended."""
    return make_match(kind, seats=("human", "human"), users=[user], rated=rated, turn_seconds=THREE_DAYS)


def live_rated_match(user):
    return make_match("ludo", seats=("human", "human"), users=[user], rated=True)


def room_with(host, friends, **settings_):
    """An open room of ``host`` with ``friends`` seated by invite (every seat taken)."""
    settings_.setdefault("kind", "rondo")
    room = rooms.do_create_room(host, settings_.pop("kind"), 1 + len(friends), {}, **settings_)
    for friend in friends:
        _invite, token = rooms.do_create_invite(room.code, host)
        rooms.do_redeem_invite(token, friend)
    return room


def finished_between(ada, bob, **kw) -> Match:
    match = make_match("rondo", seats=("human", "human"), users=[ada, bob], **kw)
    play_until_every_seat_moved(match)
    game_actions.leave_match(match.public_id, ada)
    match.refresh_from_db()
    assert match.is_over
    return match


@pytest.mark.django_db
class TestLiveAndTurnBasedApart:
    def test_busy_users_counts_live_matches_for_live_pairing_and_the_limit_for_turn_based(self, limit_two):
        ada, bob, cy = make_user(), make_user(), make_user()
        turn_based_match(ada)
        live = live_rated_match(bob)
        turn_based_match(cy), turn_based_match(cy)
        ids = [ada.pk, bob.pk, cy.pk]
        assert game_actions.busy_users(ids) == {bob.pk}
        assert game_actions.busy_matches(ids) == {bob.pk: live}
        assert game_actions.playing_matches(ada.pk) == [] and game_actions.playing_matches(bob.pk) == [
            live.public_id]
        assert game_actions.busy_users(ids, turn_based=True) == {cy.pk}
        assert game_actions.turn_based_counts(ids) == {ada.pk: 1, bob.pk: 0, cy.pk: 2}
        assert game_actions.turn_based_count(cy.pk) == 2

    def test_a_player_in_a_turn_based_match_is_ranked_paired_live(self):
        ada, bob = make_user(), make_user()
        turn_based_match(ada)
        queue.join_queue(ada, "ludo", 2)
        match = queue.join_queue(bob, "ludo", 2).match
        assert match is not None and {s.user_id for s in match.seats.all()} == {ada.pk, bob.pk}
        assert not match.turn_based

    def test_a_player_in_a_turn_based_rated_match_is_challenged_live_and_starts_a_live_room(self):
        ada, bob, cy = make_user(), make_user(), make_user()
        turn_based_match(bob)
        c = challenges.do_challenge(ada, bob.username, "rondo", 60)
        assert challenges.do_answer(c.pk, bob, True).match.turn_seconds == 60
        room = room_with(cy, [bob], turn_seconds=90)
        assert rooms.do_start_room(room.code, cy).turn_seconds == 90

    def test_a_player_in_a_live_rated_match_starts_and_accepts_turn_based_ones(self):
        ada, bob, cy = make_user(), make_user(), make_user()
        live_rated_match(bob)
        c = challenges.do_challenge(bob, ada.username, "rondo", str(THREE_DAYS))
        match = challenges.do_answer(c.pk, ada, True).match
        assert match.turn_seconds == THREE_DAYS and match.turn_based
        c = challenges.do_challenge(ada, bob.username, "roundabout", "7d")
        assert challenges.do_answer(c.pk, bob, True).match.turn_seconds == 7 * DAY
        room = room_with(bob, [cy], turn_seconds=DAY)
        assert rooms.do_start_room(room.code, bob).turn_seconds == DAY
        # ... and a live one is still refused, as before.
        c = challenges.do_challenge(ada, bob.username, "rondo", 60)
        with pytest.raises(challenges.ChallengeRefused, match="You are playing a rated or arena match"):
            challenges.do_answer(c.pk, bob, True)

    def test_a_rematch_keeps_the_time_control_and_ignores_live_matches(self):
        ada, bob = make_user(), make_user()
        match = finished_between(ada, bob, turn_seconds=THREE_DAYS)
        live_rated_match(ada)  # paired live meanwhile
        rematch.do_offer(match.public_id, ada)
        offer = rematch.do_answer(match.public_id, bob, True)
        assert offer.status == "started" and offer.new_match.turn_seconds == THREE_DAYS

    def test_a_turn_based_rematch_offer_stays_open_a_day_and_lapses_in_the_wave(
            self, monkeypatch, django_capture_on_commit_callbacks):
        from matchmaking.rematch import fragments

        sent = []
        monkeypatch.setattr(together, "send_task", lambda *a, **k: sent.append(a))
        ada, bob = make_user(), make_user()
        match = finished_between(ada, bob, turn_seconds=THREE_DAYS)
        assert "everyone has 1 day to accept" in fragments.panel(match, ada.pk)
        with django_capture_on_commit_callbacks(execute=True):
            offer = rematch.do_offer(match.public_id, ada)
        assert offer.expires_at - offer.created_at == timedelta(days=1) and sent == []
        html = fragments.panel(match, bob.pk)
        assert "offers a rematch.</strong> <time" in html and "24 hours</time> left to answer" in html
        assert rematch.lapse_overdue(offer.expires_at - timedelta(hours=1)) == 0
        assert rematch.lapse_overdue(offer.expires_at) == 1
        assert "not everyone accepted within 1 day" in fragments.panel(match, ada.pk)


@pytest.mark.django_db
class TestTheLimit:
    def test_a_room_start_past_the_limit_is_refused_naming_it_and_changes_nothing(self, limit_two):
        host, friend = make_user(), make_user()
        turn_based_match(friend), turn_based_match(friend, rated=False)
        room = room_with(host, [friend], turn_seconds=THREE_DAYS)
        with pytest.raises(rooms.NotAllowed, match=f"{friend.username} is in 2 turn-based matches; one "
                                                   "player may be in at most 2 at once"):
            rooms.do_start_room(room.code, host)
        assert Room.objects.get(pk=room.pk).status == "open" and Match.objects.count() == 2
        live = room_with(host, [friend], turn_seconds=30)  # live matches are not counted
        assert rooms.do_start_room(live.code, host).turn_seconds == 30

    def test_a_challenge_past_the_limit_is_refused_at_sending_and_at_accepting(self, limit_two):
        ada, bob = make_user(), make_user()
        turn_based_match(ada), turn_based_match(ada)
        with pytest.raises(challenges.ChallengeRefused, match="You are in 2 turn-based matches; one player "
                                                              "may be in at most 2 at once"):
            challenges.do_challenge(ada, bob.username, "rondo", str(DAY))
        c = challenges.do_challenge(bob, ada.username, "rondo", str(DAY))
        with pytest.raises(challenges.ChallengeRefused, match="You are in 2 turn-based matches"):
            challenges.do_answer(c.pk, ada, True)
        assert Challenge.objects.get().status == "open" and Match.objects.count() == 2
        c2 = challenges.do_challenge(ada, bob.username, "rondo", 60)  # live: not counted
        assert challenges.do_answer(c2.pk, bob, True).match.turn_seconds == 60

    def test_a_rematch_past_the_limit_is_refused_and_changes_nothing(self, limit_two):
        ada, bob = make_user(), make_user()
        match = finished_between(ada, bob, turn_seconds=DAY)
        rematch.do_offer(match.public_id, ada)
        turn_based_match(ada), turn_based_match(ada)  # ada fills her turn-based seats meanwhile
        with pytest.raises(rematch.RematchRefused, match=f"{ada.username} is in 2 turn-based matches; "
                                                         "one player may be in at most 2"):
            rematch.do_answer(match.public_id, bob, True)
        assert RematchOffer.objects.get().status == "open" and Match.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_accepts_at_once_never_pass_the_limit(settings):
    settings.PARLOUR_TURN_BASED_LIMIT = 1
    ada, bob, cy = make_user(), make_user(), make_user()
    first = challenges.do_challenge(bob, ada.username, "rondo", str(DAY))
    second = challenges.do_challenge(cy, ada.username, "roundabout", str(2 * DAY))
    results = race(lambda: challenges.do_answer(first.pk, ada, True),
                   lambda: challenges.do_answer(second.pk, ada, True))
    refused = [r for r in results if isinstance(r, challenges.ChallengeRefused)]
    assert len(refused) == 1 and "one player may be in at most 1 at once" in refused[0].message, results
    assert game_actions.turn_based_count(ada.pk) == 1 and Match.objects.count() == 1


@pytest.mark.django_db
class TestTimeControls:
    def test_every_game_takes_turn_based_days_ludo_fixes_only_its_live_time(self):
        host = make_user()
        for kind in ("ludo", "roundabout", "rondo"):
            assert rooms.do_create_room(host, kind, 2, {}, turn_seconds=5 * DAY).turn_seconds == 5 * DAY
        assert rooms.do_create_room(host, "ludo", 2, {}, turn_seconds=30).turn_seconds == 60
        c = challenges.do_challenge(host, make_user().username, "ludo", str(14 * DAY))
        assert c.turn_seconds == 14 * DAY

    @pytest.mark.parametrize("value", ["4d", str(4 * DAY), "45", "15 days", "-1", "soon", "", "86400.0"])
    def test_days_not_offered_and_garbage_are_refused_and_change_nothing(self, value):
        host, bob = make_user(), make_user()
        with pytest.raises(rooms.RoomError, match="The time control is 30, 60, 90 or 120 seconds"):
            rooms.do_create_room(host, "ludo", 2, {}, turn_seconds=value or "x")
        with pytest.raises(challenges.ChallengeRefused, match=r"or 1, 2, 3, 5, 7 or 14 days \(turn-based\)"):
            challenges.do_challenge(host, bob.username, "ludo", value)
        assert not Room.objects.exists() and not Challenge.objects.exists()

    def test_a_turn_based_challenge_stays_open_one_decision_and_lapses_in_the_wave(
            self, monkeypatch, django_capture_on_commit_callbacks):
        sent = []
        monkeypatch.setattr(together, "send_task", lambda *a, **k: sent.append(a))
        monkeypatch.setattr(challenges.notices, "challenge_received", lambda *a: None)
        ada, bob = make_user(), make_user()
        with django_capture_on_commit_callbacks(execute=True):
            c = challenges.do_challenge(ada, bob.username, "rondo", str(2 * DAY))
        assert c.expires_at - c.created_at == timedelta(days=2) and c.open_for == "2 days"
        assert sent == []  # no task waits days: the queue wave lapses it
        later = c.expires_at + timedelta(seconds=1)
        with pytest.raises(challenges.ChallengeRefused, match="not answered within 2 days"):
            challenges.do_answer(c.pk, bob, True, now=later)
        assert challenges.lapse_overdue(c.expires_at - timedelta(days=1)) == 0
        assert challenges.lapse_overdue(later) == 1 and Challenge.objects.get(pk=c.pk).status == "lapsed"
        with django_capture_on_commit_callbacks(execute=True):
            live = challenges.do_challenge(ada, bob.username, "rondo", 60)
        assert live.open_for == "5 minutes" and sent == [(challenges.LAPSE_TASK, (live.pk,))]


@pytest.mark.django_db
class TestForms:
    def test_the_room_form_offers_live_and_turn_based_groups_and_makes_a_turn_based_room(self, client):
        client.force_login(make_user())
        page = client.get("/rooms/new/").content.decode()
        assert '<optgroup label="Live">' in page and '<optgroup label="Turn-based">' in page
        assert f'<option value="{3 * DAY}">3 days</option>' in page
        form = {"kind": "rondo", "seats": "2", "seat_2": "", "turn_seconds": str(3 * DAY),
                "idle_limit": "3", "side": "blue", "theme": "plain"}
        response = client.post("/rooms/new/", form)
        room = Room.objects.get()
        assert response.status_code == 302 and room.turn_seconds == 3 * DAY
        lobby = client.get(f"/rooms/{room.code}/").content.decode()
        assert "Time per decision: 3 days (turn-based)" in lobby
        _invite, token = rooms.do_create_invite(room.code, room.host)
        client.logout()
        invite = client.get(f"/rooms/join/{token}/").content.decode()
        assert "A private turn-based room of 2 seats" in invite and "3 days per decision" in invite
        client.force_login(room.host)
        bad = client.post("/rooms/new/", {**form, "turn_seconds": str(4 * DAY)})
        assert bad.status_code == 400 and "Select a valid choice" in bad.content.decode()
        assert Room.objects.count() == 1

    def test_the_challenge_form_sends_a_turn_based_challenge_and_its_pages_say_so(self, client):
        ada, bob = make_user(), make_user()
        client.force_login(ada)
        profile = client.get(f"/u/{bob.username}/").content.decode()
        assert '<optgroup label="Turn-based">' in profile
        assert f'<option value="{DAY}">1 day</option>' in profile
        response = client.post(f"/u/{bob.username}/challenge/", {"kind": "rondo", "turn_seconds": str(DAY)})
        c = Challenge.objects.get()
        assert response.status_code == 302 and c.turn_seconds == DAY
        assert "Turn-based, 1 day per decision" in client.get(f"/challenges/{c.pk}/").content.decode()
        assert "lapses after 1 day" in client.get(f"/challenges/{c.pk}/").content.decode()
        client.force_login(bob)
        play = client.get("/play/").content.decode()
        assert f"{ada.username}</strong> challenges you to Rondo, turn-based, 1 day per decision" in play
        client.force_login(ada)
        bad = client.post(f"/u/{bob.username}/challenge/", {"kind": "roundabout", "turn_seconds": "6d"},
                          follow=True)
        assert "The time control is" in bad.content.decode() and Challenge.objects.count() == 1


@pytest.mark.django_db
def test_the_notice_of_a_challenge_names_its_time_control(monkeypatch):
    from matchmaking import notices
    from notifications import notify

    sent = []
    monkeypatch.setattr(notify, "send_quietly", sent.extend)
    ada, bob = make_user(), make_user()
    for seconds in (3 * DAY, 90):
        c = challenges.do_challenge(ada, bob.username, "rondo", seconds)
        notices.challenge_received(bob.pk, c.pk)
        Challenge.objects.filter(pk=c.pk).update(status="cancelled")
    (_, turn_based), (_, live) = sent
    assert turn_based["note"]["text"] == (f"{ada.username} challenges you to Rondo "
                                          "(turn-based, 3 days per decision, casual)")
    assert turn_based["note"]["deadline_ms"] is None  # days, not a countdown in seconds
    assert live["note"]["text"] == f"{ada.username} challenges you to Rondo (90 s turns, casual)"
    assert live["note"]["deadline_ms"] == int(c.expires_at.timestamp() * 1000)
