"""Ranked queue actions (matchmaking/queue/actions.py) and views: join, leave,
pairing on join and in the wave, stale entries, the pushes sent."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Rating
from games.models import Match
from matchmaking import tasks
from matchmaking.models import QueueEntry
from matchmaking.queue import actions, push
from tests.factories import make_user


@pytest.fixture(autouse=True)
def no_match_effects(monkeypatch):
    """Matches the pairing starts schedule no Celery tasks and push nothing."""
    from games import push as game_push
    from games import tasks as game_tasks

    monkeypatch.setattr(game_push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(game_tasks, name), "apply_async", lambda *a, **k: None)


@pytest.fixture
def sent(monkeypatch):
    """Queue frames sent, as (group, html), instead of the channel layer."""
    frames = []

    async def capture(messages):
        frames.extend(messages)

    monkeypatch.setattr(push, "_send_all", capture)
    return frames


@pytest.mark.django_db
class TestJoinAndLeave:
    def test_joining_records_the_players_rating_in_that_game(self):
        user = make_user()
        entry = actions.join_queue(user, "ludo", 2)
        assert (entry.kind, entry.players, entry.rating, entry.match_id) == ("ludo", 2, 1500, None)
        other = make_user()
        Rating.objects.create(user=other, kind="ludo", rating=1712.5, games=30, peak=1712.5)
        assert actions.join_queue(other, "ludo", 3).rating == 1712.5

    def test_a_player_waits_in_one_queue_at_a_time(self):
        user = make_user()
        actions.join_queue(user, "ludo", 2)
        actions.join_queue(user, "ludo", 4)
        assert list(QueueEntry.objects.values_list("players", flat=True)) == [4]

    @pytest.mark.parametrize("kind, players", [("chess", 2), ("ludo", 5), ("ludo", "x"), (None, None)])
    def test_no_such_queue_is_refused_and_changes_nothing(self, kind, players):
        with pytest.raises(actions.QueueError):
            actions.join_queue(make_user(), kind, players)
        assert not QueueEntry.objects.exists()

    def test_signed_out_or_inactive_players_cannot_queue(self):
        from django.contrib.auth.models import AnonymousUser

        with pytest.raises(actions.QueueError):
            actions.join_queue(AnonymousUser(), "ludo", 2)
        user = make_user()
        user.is_active = False
        assert not actions.can_queue(user)

    def test_leaving_removes_the_entry_but_only_the_one_named(self):
        user = make_user()
        entry = actions.join_queue(user, "ludo", 2)
        assert actions.leave_queue(user, entry.pk + 1000) is False
        assert actions.leave_queue(user, entry.pk) is True
        assert not QueueEntry.objects.exists()
        assert actions.leave_queue(user) is False

    def test_entries_whose_page_vanished_expire(self):
        now = timezone.now()
        old, fresh = make_user(), make_user()
        actions.join_queue(old, "ludo", 2, now=now - timedelta(seconds=100))
        actions.join_queue(fresh, "ludo", 3, now=now)
        assert actions.expire_stale(now) == 1
        assert list(QueueEntry.objects.values_list("user", flat=True)) == [fresh.pk]


@pytest.mark.django_db
class TestPairing:
    def test_the_second_close_player_is_paired_at_once_into_a_ranked_match(
        self, django_capture_on_commit_callbacks, sent
    ):
        a, b = make_user(), make_user()
        with django_capture_on_commit_callbacks(execute=True):
            assert actions.join_queue(a, "ludo", 2).match_id is None
            entry = actions.join_queue(b, "ludo", 2)
        match = entry.match
        assert match is not None and match.status == Match.Status.ACTIVE
        assert match.rated and match.is_public and match.kind == "ludo"
        assert match.options == {"autoplay_forced": True}
        assert {s.user_id for s in match.seats.all()} == {a.pk, b.pk}
        assert QueueEntry.objects.get(user=a).match_id == match.pk
        groups = {g for g, html in sent}
        assert groups == {push.queue_user_group(a.pk), push.queue_user_group(b.pk)}
        assert all(f'data-href="/m/{match.public_id}/"' in html for _, html in sent)

    def test_a_player_still_seated_in_a_match_waits_and_is_paired_once_it_ends(self):
        from games import actions as game_actions
        from tests.factories import make_match

        a, b = make_user(), make_user()
        elsewhere = make_match(seats=("human", "human"), users=[a, make_user()])  # e.g. an arena's
        actions.join_queue(a, "ludo", 2)
        assert actions.join_queue(b, "ludo", 2).match_id is None
        assert Match.objects.filter(seats__user=a, status=Match.Status.ACTIVE).count() == 1
        game_actions.leave_match(elsewhere.public_id, a)
        actions.pair_queues(now=timezone.now())
        match = QueueEntry.objects.get(user=b).match
        assert match is not None and {s.user_id for s in match.seats.all()} == {a.pk, b.pk}

    def test_the_count_is_of_pairable_players_and_the_panel_names_the_match_that_holds_one(self, client):
        from games import actions as game_actions
        from tests.factories import make_match

        a, b = make_user(), make_user()
        solo = make_match(seats=("human", "normal"), users=[a])  # open in another tab
        actions.join_queue(a, "ludo", 2)
        entry_b = actions.join_queue(b, "ludo", 2)
        assert entry_b.match_id is None
        held, free = actions.queue_status(QueueEntry.objects.get(user=a)), actions.queue_status(entry_b)
        assert (held.waiting, held.held_by, free.waiting, free.held_by) == (1, solo, 1, None)
        assert held.held_leave is None  # against computers: unrated
        assert actions.waiting_counts() == {"ludo-2": 1}
        assert {s.entry.user_id: (s.waiting, s.held_by) for s in actions.waiting_statuses()} == {
            a.pk: (1, solo), b.pk: (1, None)}

        client.force_login(a)
        panel = client.get("/play/").content.decode()
        assert "You can't be paired yet" in panel
        assert f'href="/m/{solo.public_id}/"' in panel
        assert 'action="/queue/leave-match/"' in panel and f'value="{solo.public_id}"' in panel
        assert "Leave it</button>" in panel
        client.force_login(b)
        assert "You can't be paired yet" not in client.get("/play/").content.decode()

        client.force_login(a)
        other = make_match(seats=("human", "normal"), users=[b])  # someone else's: refused, no change
        refused = client.post("/queue/leave-match/", {"match": other.public_id}, HTTP_HX_REQUEST="true")
        assert refused.status_code == 200 and "not a match you are still playing" in refused.content.decode()
        assert game_actions.busy_users([a.pk, b.pk]) == {a.pk, b.pk}
        game_actions.leave_match(other.public_id, b)
        # The panel's "Leave it" (htmx): a leaves and is paired at once, sent to the match.
        answer = client.post("/queue/leave-match/", {"match": solo.public_id}, HTTP_HX_REQUEST="true")
        match = QueueEntry.objects.get(user=a).match
        assert match is not None and {s.user_id for s in match.seats.all()} == {a.pk, b.pk}
        assert f'data-href="/m/{match.public_id}/"' in answer.content.decode()  # the panel: go there
        assert Match.objects.get(pk=solo.pk).is_over

    def test_a_seat_left_in_a_match_that_goes_on_holds_nobody(self):
        from games import actions as game_actions
        from tests.factories import make_match

        a, b = make_user(), make_user()
        match = make_match(seats=("human", "human", "normal"), users=[a, b])
        game_actions.leave_match(match.public_id, a)
        assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE  # b and the computer play on
        assert game_actions.busy_users([a.pk, b.pk]) == {b.pk}
        assert set(game_actions.busy_matches([a.pk, b.pk])) == {b.pk}

    def test_other_queues_and_distant_ratings_are_not_paired(self):
        a, b, c = make_user(), make_user(), make_user()
        Rating.objects.create(user=c, kind="ludo", rating=1800, games=40, peak=1800)
        actions.join_queue(a, "ludo", 2)
        actions.join_queue(b, "ludo", 3)
        assert actions.join_queue(c, "ludo", 2).match_id is None
        assert not Match.objects.exists()

    def test_windows_grow_with_the_wait_until_the_wave_pairs_them(self):
        a, c = make_user(), make_user()
        Rating.objects.create(user=c, kind="ludo", rating=1800, games=40, peak=1800)
        start = timezone.now()
        actions.join_queue(a, "ludo", 2, now=start)
        actions.join_queue(c, "ludo", 2, now=start)
        assert actions.pair_queues(now=start + timedelta(seconds=39)) == []  # windows 250
        [match] = actions.pair_queues(now=start + timedelta(seconds=40))  # windows 300
        assert {s.user_id for s in match.seats.all()} == {a.pk, c.pk}

    def test_a_four_player_table_waits_for_four_and_nobody_is_seated_twice(self):
        users = [make_user() for _ in range(5)]
        for u in users[:3]:
            assert actions.join_queue(u, "ludo", 4).match_id is None
        entry = actions.join_queue(users[3], "ludo", 4)
        assert entry.match.seats.count() == 4
        assert actions.join_queue(users[4], "ludo", 4).match_id is None
        assert actions.pair_queues() == []
        assert Match.objects.count() == 1

    def test_the_wave_expires_pairs_and_pushes_each_waiting_players_numbers(
        self, django_capture_on_commit_callbacks, sent
    ):
        now = timezone.now()
        a, b, c = make_user(), make_user(), make_user()
        actions.join_queue(a, "ludo", 3, now=now - timedelta(seconds=25))
        actions.join_queue(b, "ludo", 3, now=now)
        QueueEntry.objects.filter(user=a).update(seen_at=now)
        actions.join_queue(c, "ludo", 2, now=now - timedelta(seconds=300))  # page vanished
        with django_capture_on_commit_callbacks(execute=True):
            tasks.queue_wave()
        assert not QueueEntry.objects.filter(user=c).exists()
        by_group = dict(sent)
        assert "<strong>2</strong> players waiting" in by_group[push.queue_group("ludo", 3)]
        mine = by_group[push.queue_user_group(a.pk)]
        assert "±200" in mine and 'class="queue-waited">2' in mine  # waited 25-29 s: window 200


@pytest.mark.django_db
class TestViews:
    def test_the_play_page_offers_every_ranked_queue(self, client):
        client.force_login(make_user())
        html = client.get("/play/").content.decode()
        assert 'value="ludo-2"' in html and 'value="ludo-4"' in html
        assert 'ws-connect="/ws/queue/"' not in html

    def test_join_waits_on_the_play_page_then_the_second_player_goes_to_the_match(self, client):
        a, b = make_user(), make_user()
        client.force_login(a)
        response = client.post("/queue/join/", {"queue": "ludo-2"})
        assert response.status_code == 302 and response.url == "/play/#queue"
        html = client.get("/play/").content.decode()
        assert 'ws-connect="/ws/queue/"' in html and "Leave the queue" in html
        assert 'http-equiv="refresh"' in html  # the page without JavaScript checks in
        client.force_login(b)
        response = client.post("/queue/join/", {"kind": "ludo", "players": "2"})
        match = Match.objects.get()
        assert response.url == f"/m/{match.public_id}/"
        client.force_login(a)
        assert client.get("/queue/").url == f"/m/{match.public_id}/"
        assert f'href="/m/{match.public_id}/"' in client.get("/play/").content.decode()

    def test_leaving_through_the_form(self, client):
        user = make_user()
        client.force_login(user)
        client.post("/queue/join/", {"queue": "ludo-3"})
        assert client.post("/queue/leave/").url == "/play/#queue"
        assert not QueueEntry.objects.exists()
        assert client.get("/queue/").url == "/play/#queue"

    def test_a_bad_queue_says_so_and_changes_nothing(self, client):
        client.force_login(make_user())
        response = client.post("/queue/join/", {"queue": "ludo-9"}, follow=True)
        assert "There is no such ranked queue." in response.content.decode()
        assert not QueueEntry.objects.exists()

    def test_signed_out_visitors_are_sent_to_log_in(self, client):
        assert client.post("/queue/join/", {"queue": "ludo-2"}).url.startswith("/login/")
        assert "Log in</a> to play ranked" in client.get("/play/").content.decode()


@pytest.mark.django_db
class TestHtmxPanel:
    """The join and leave forms through htmx get the panel alone (README "Ranked play")."""

    HX = {"HX-Request": "true"}

    def test_joining_and_leaving_swap_the_panel_in_place(self, client):
        client.force_login(make_user())
        response = client.post("/queue/join/", {"queue": "ludo-3"}, headers=self.HX)
        html = response.content.decode()
        assert response.status_code == 200 and "HX-Request" in response["Vary"]
        assert "<html" not in html and html.count('id="queue"') == 1 and 'ws-connect="/ws/queue/"' in html
        assert "Ludo, 3 players" in html and QueueEntry.objects.count() == 1
        assert "http-equiv" not in html  # htmx parses with scripting off: a noscript refresh would run
        response = client.post("/queue/leave/", headers=self.HX)
        html = response.content.decode()
        assert 'id="queue"' in html and "ws-connect" not in html and not QueueEntry.objects.exists()

    def test_a_join_that_pairs_at_once_moves_the_page_to_the_match(self, client):
        actions.join_queue(make_user(), "ludo", 2)
        client.force_login(make_user())
        response = client.post("/queue/join/", {"queue": "ludo-2"}, headers=self.HX)
        match = Match.objects.get()
        assert response.status_code == 200 and response["HX-Redirect"] == f"/m/{match.public_id}/"

    def test_a_refused_join_says_why_in_the_panel_and_changes_nothing(self, client):
        client.force_login(make_user())
        for bad in ({"queue": "ludo-9"}, {"queue": ["x"] * 3}, {"kind": "chess", "players": "two"}, {}):
            html = client.post("/queue/join/", bad, headers=self.HX).content.decode()
            assert 'role="alert"' in html and ("no such ranked queue" in html or "Choose a game" in html), bad
        assert not QueueEntry.objects.exists()

    def test_a_suspended_players_panel_shows_the_suspension_not_a_waiting_time(self, client):
        from moderation import actions as moderation

        user = make_user()
        client.force_login(user)
        client.post("/queue/join/", {"queue": "ludo-3"})
        moderation.ban_user(None, user, timezone.now() + timedelta(days=3), "chat abuse")
        html = client.get("/queue/panel/", headers=self.HX).content.decode()
        assert "This account is suspended until" in html and "Reason: chat abuse." in html
        assert "Waited" not in html and 'id="queue-status"' not in html
        assert not QueueEntry.objects.exists()
        assert client.get("/queue/panel/").url == "/play/#queue"  # without htmx: the play page


@pytest.mark.django_db
def test_a_silent_socket_is_skipped_by_pairing_and_an_away_entry_expires_after_30_seconds():
    """A server process that died closes nothing: an entry whose socket sent
    no heartbeat for PARLOUR_QUEUE_PRESENT_SECONDS is not paired; an entry
    away for PARLOUR_QUEUE_STALE_SECONDS goes."""
    from datetime import timedelta

    from django.conf import settings
    from django.utils import timezone

    a, b = make_user(), make_user()
    now = timezone.now()
    actions.join_queue(a, "ludo", 2, now=now)
    actions.socket_seen(a, now=now)
    later = now + timedelta(seconds=settings.PARLOUR_QUEUE_PRESENT_SECONDS + 1)
    assert actions.join_queue(b, "ludo", 2, now=later).match_id is None
    entry, was_away = actions.socket_seen(a, now=later)
    assert was_away and entry.match_id is None
    [match] = actions.pair_queues(now=later)
    assert {s.user_id for s in match.seats.all()} == {a.pk, b.pk}

    c = make_user()
    entry = actions.join_queue(c, "ludo", 3, now=now)
    assert actions.mark_away(c, entry.pk, now=now)
    assert actions.expire_stale(now=now + timedelta(seconds=29)) == 0
    assert actions.expire_stale(now=now + timedelta(seconds=31)) >= 1
    assert not QueueEntry.objects.filter(user=c).exists()
