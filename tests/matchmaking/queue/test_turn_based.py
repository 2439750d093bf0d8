"""The turn-based ranked queues (matchmaking/queue/turn_based.py) and their
views: joining and leaving, bad input, pairing by a window that widens over
hours (join times moved in the database, not waited for), the match it
starts, the per-player limit, and independence from the live queue."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Rating
from core.errors import Refused
from games import time_controls
from games.models import Match
from matchmaking import tasks
from matchmaking.models import QueueEntry, TurnBasedEntry
from matchmaking.queue import actions, pairing, turn_based
from matchmaking.queue.actions import QueueError
from tests.factories import make_match, make_user


@pytest.fixture(autouse=True)
def no_match_effects(monkeypatch):
    """Matches the pairing starts schedule no Celery tasks and push nothing."""
    from games import push as game_push
    from games import tasks as game_tasks

    monkeypatch.setattr(game_push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(game_tasks, name), "apply_async", lambda *a, **k: None)


def rated(user, kind="rondo", rating=1500.0, games=30):
    Rating.objects.create(user=user, kind=kind, rating=rating, games=games, peak=rating)
    return user


def entries():
    return list(TurnBasedEntry.objects.order_by("pk").values_list("user_id", "kind", "players", "days"))


class TestWindow:
    @pytest.mark.parametrize("waited, window", [
        (0, 100), (599, 100), (600, 150), (30 * 60, 250), (60 * 60, 400), (11 * 3600, 400),
    ])
    def test_the_window_widens_by_fifty_points_every_ten_minutes_to_four_hundred(self, waited, window):
        assert pairing.turn_based_window(waited) == window

    @pytest.mark.parametrize("waited, text", [
        (59, "0 min"), (95 * 60, "1 h 35 min"), (51 * 3600 + 60, "2 d 3 h"),
    ])
    def test_the_wait_is_told_to_the_minute(self, waited, text):
        assert turn_based.Waiting(None, waited, None).waited_text == text

    def test_after_twelve_hours_anyone_will_do(self):
        assert pairing.turn_based_window(12 * 3600) == float("inf")

    def test_pair_takes_the_window_it_is_given(self):
        after_ten_minutes = [pairing.Waiting("a", 1500, 600), pairing.Waiting("b", 1550 + 200, 600)]
        assert pairing.pair(after_ten_minutes, 2) == [("a", "b")]  # the live window: 600 by now
        assert pairing.pair(after_ten_minutes, 2, pairing.turn_based_window) == []  # 150


@pytest.mark.django_db
class TestJoinAndLeave:
    def test_joining_records_the_game_players_days_and_rating(self):
        user = rated(make_user(), rating=1712.5)
        assert turn_based.join_turn_based(user, "rondo", 2, "5") is None
        entry = TurnBasedEntry.objects.get()
        assert (entry.kind, entry.players, entry.days, entry.rating) == ("rondo", 2, 5, 1712.5)

    @pytest.mark.parametrize("kind, players, days", [
        ("chess", 2, 3), ("rondo", 9, 3), ("rondo", 2, 4), ("rondo", 2, 0), ("rondo", 2, "x"),
        ("rondo", 2, None), ("rondo", 2, "3 days"), (None, None, None),
    ])
    def test_bad_input_is_refused_and_changes_nothing(self, kind, players, days):
        with pytest.raises(QueueError) as refused:
            turn_based.join_turn_based(make_user(), kind, players, days)
        assert refused.value.message
        assert not TurnBasedEntry.objects.exists()

    def test_days_not_offered_are_named_in_the_message(self):
        with pytest.raises(QueueError, match="1, 2, 3, 5, 7 or 14 days"):
            turn_based.join_turn_based(make_user(), "rondo", 2, 4)

    def test_joining_a_games_queue_twice_is_refused_and_keeps_the_first(self):
        user = make_user()
        turn_based.join_turn_based(user, "rondo", 2, 3)
        with pytest.raises(QueueError, match="already waiting"):
            turn_based.join_turn_based(user, "rondo", 2, 7)
        assert entries() == [(user.pk, "rondo", 2, 3)]

    def test_a_player_may_wait_in_the_queue_of_every_game_at_once(self):
        user = make_user()
        turn_based.join_turn_based(user, "rondo", 2, 3)
        turn_based.join_turn_based(user, "ludo", 4, 14)
        assert sorted(e[1] for e in entries()) == ["ludo", "rondo"]

    def test_leaving_takes_out_that_games_entry_only(self):
        user = make_user()
        turn_based.join_turn_based(user, "rondo", 2, 3)
        turn_based.join_turn_based(user, "ludo", 2, 3)
        assert turn_based.leave_turn_based(user, "rondo") is True
        assert turn_based.leave_turn_based(user, "rondo") is False
        assert entries() == [(user.pk, "ludo", 2, 3)]

    def test_the_live_queue_and_the_turn_based_one_are_independent(self):
        user = make_user()
        actions.join_queue(user, "rondo", 2)
        turn_based.join_turn_based(user, "rondo", 2, 3)
        actions.join_queue(user, "ludo", 2)  # moving live queues leaves the turn-based entry
        actions.leave_queue(user)
        assert entries() == [(user.pk, "rondo", 2, 3)]

    def test_a_player_at_the_limit_cannot_join(self, settings):
        settings.PARLOUR_TURN_BASED_LIMIT = 1
        user = make_user()
        make_match("rondo", ("human", "human"), users=[user], turn_seconds=3 * time_controls.DAY)
        with pytest.raises(Refused, match=r"You are in 1 turn-based match; .* at most 1 at once"):
            turn_based.join_turn_based(user, "rondo", 2, 3)
        assert not TurnBasedEntry.objects.exists()

    def test_live_matches_do_not_count_towards_the_limit(self, settings):
        settings.PARLOUR_TURN_BASED_LIMIT = 1
        user = make_user()
        make_match("rondo", ("human", "human"), users=[user], rated=True)  # live
        turn_based.join_turn_based(user, "rondo", 2, 3)
        assert entries() == [(user.pk, "rondo", 2, 3)]


@pytest.mark.django_db
class TestPairing:
    def test_a_paired_match_is_rated_turn_based_and_starts_at_once(self):
        a, b = rated(make_user(), rating=1500), rated(make_user(), rating=1560)
        assert turn_based.join_turn_based(a, "rondo", 2, 3) is None
        match = turn_based.join_turn_based(b, "rondo", 2, 3)
        assert match is not None
        assert match.rated and match.is_public and match.turn_based
        assert match.turn_seconds == 3 * time_controls.DAY
        assert match.status == Match.Status.ACTIVE
        assert {s.user_id for s in match.seats.all()} == {a.pk, b.pk}
        assert not TurnBasedEntry.objects.exists()

    def test_a_paired_match_moves_the_same_rating_as_live_play(self):
        from tests.factories import play_to_the_end

        a, b = rated(make_user(), rating=1500), rated(make_user(), rating=1500)
        turn_based.join_turn_based(a, "rondo", 2, 1)
        match = play_to_the_end(turn_based.join_turn_based(b, "rondo", 2, 1))
        assert match.is_over
        ratings = Rating.objects.filter(user__in=[a, b], kind="rondo")
        assert sorted(r.games for r in ratings) == [31, 31]  # the one rating row per game
        assert {c.kind for c in match.rating_changes.all()} == {"rondo"}

    def test_each_player_is_told_without_being_taken_off_a_live_match(self, monkeypatch):
        from notifications import notify

        notes = []
        monkeypatch.setattr(notify, "notify", lambda user_id, kind, text, href, **o: notes.append(
            (user_id, kind, text, href)))
        a, b = make_user(), make_user()
        turn_based.join_turn_based(a, "rondo", 2, 3)
        match = turn_based.join_turn_based(b, "rondo", 2, 3)
        href = reverse("match", args=[match.public_id])
        text = "Your turn-based ranked Rondo match is ready (3 days a decision)"
        # Not "match_found": an arena match's page follows those (static/js/notify.js).
        assert sorted(notes) == [(u.pk, "turn_based_found", text, href) for u in (a, b)]

    def test_only_players_who_chose_the_same_days_are_paired(self):
        a, b = make_user(), make_user()
        turn_based.join_turn_based(a, "rondo", 2, 3)
        assert turn_based.join_turn_based(b, "rondo", 2, 7) is None
        assert turn_based.pair_turn_based() == []
        assert len(entries()) == 2

    def test_the_window_widens_with_the_stored_join_times(self):
        a, b = rated(make_user(), rating=1500), rated(make_user(), rating=1800)
        now = timezone.now()
        turn_based.join_turn_based(a, "rondo", 2, 3, now=now)
        assert turn_based.join_turn_based(b, "rondo", 2, 3, now=now) is None  # 300 apart, windows 100
        TurnBasedEntry.objects.update(joined_at=now - timedelta(minutes=30))  # windows 250
        assert turn_based.pair_turn_based(now=now) == []
        TurnBasedEntry.objects.update(joined_at=now - timedelta(minutes=40))  # windows 300
        [match] = turn_based.pair_turn_based(now=now)
        assert {s.user_id for s in match.seats.all()} == {a.pk, b.pk}

    def test_after_twelve_hours_any_rating_is_paired(self):
        now = timezone.now()
        a, b = rated(make_user(), rating=1100), rated(make_user(), rating=2300)
        turn_based.join_turn_based(a, "rondo", 2, 3, now=now)
        turn_based.join_turn_based(b, "rondo", 2, 3, now=now)
        TurnBasedEntry.objects.update(joined_at=now - timedelta(hours=11))
        assert turn_based.pair_turn_based(now=now) == []
        TurnBasedEntry.objects.update(joined_at=now - timedelta(hours=12))
        assert len(turn_based.pair_turn_based(now=now)) == 1

    def test_the_wave_pairs_every_queue(self):
        now = timezone.now()
        users = [rated(make_user(), kind=k, rating=r) for k, r in
                 (("rondo", 1500), ("rondo", 1900), ("ludo", 1500), ("ludo", 1520))]
        turn_based.join_turn_based(users[0], "rondo", 2, 3, now=now)
        turn_based.join_turn_based(users[1], "rondo", 2, 3, now=now)
        for user, rating in ((users[2], 1500), (users[3], 1520)):
            TurnBasedEntry.objects.create(user=user, kind="ludo", players=2, days=2, rating=rating,
                                          joined_at=now)
        TurnBasedEntry.objects.filter(kind="rondo").update(joined_at=now - timedelta(hours=1))
        tasks.turn_based_wave()
        assert not TurnBasedEntry.objects.exists()
        assert sorted(Match.objects.values_list("kind", "turn_seconds")) == [
            ("ludo", 2 * time_controls.DAY), ("rondo", 3 * time_controls.DAY)]

    def test_beat_runs_the_turn_based_wave_every_minute(self, settings):
        wave = settings.CELERY_BEAT_SCHEDULE["turn-based-wave"]
        assert wave["task"] == "matchmaking.tasks.turn_based_wave" and wave["schedule"] == 60.0

    def test_a_player_in_a_live_match_or_queue_is_still_paired_turn_based(self):
        a, b = make_user(), make_user()
        make_match("rondo", ("human", "human"), users=[a, b], rated=True)  # a live rated match
        actions.join_queue(a, "ludo", 2)
        turn_based.join_turn_based(a, "rondo", 2, 3)
        match = turn_based.join_turn_based(b, "rondo", 2, 3)
        assert match is not None and match.turn_based
        assert QueueEntry.objects.filter(user=a, match__isnull=True).exists()  # still waiting live too

    def test_a_player_waiting_turn_based_is_still_paired_live(self):
        a, b = make_user(), make_user()
        turn_based.join_turn_based(a, "rondo", 2, 3)
        actions.join_queue(a, "rondo", 2)
        entry = actions.join_queue(b, "rondo", 2)
        assert entry.match_id is not None and not entry.match.turn_based
        assert entries() == [(a.pk, "rondo", 2, 3)]

    def test_a_player_at_the_limit_waits_on_and_the_others_are_paired(self, settings):
        settings.PARLOUR_TURN_BASED_LIMIT = 1
        full, b, c = make_user(), make_user(), make_user()
        turn_based.join_turn_based(full, "rondo", 2, 3)
        make_match("ludo", ("human", "human"), users=[full], turn_seconds=time_controls.DAY)
        assert turn_based.join_turn_based(b, "rondo", 2, 3) is None  # not with `full`
        match = turn_based.join_turn_based(c, "rondo", 2, 3)
        assert {s.user_id for s in match.seats.all()} == {b.pk, c.pk}
        assert entries() == [(full.pk, "rondo", 2, 3)]

    def test_a_banned_players_entry_is_dropped(self):
        a, b = make_user(), make_user()
        turn_based.join_turn_based(a, "rondo", 2, 3)
        a.banned_until = timezone.now() + timedelta(days=1)
        a.save(update_fields=["banned_until"])
        assert turn_based.join_turn_based(b, "rondo", 2, 3) is None
        assert entries() == [(b.pk, "rondo", 2, 3)]


@pytest.mark.django_db
class TestViews:
    def test_the_play_page_offers_the_turn_based_queue_of_each_game(self, client):
        client.force_login(make_user())
        page = client.get(reverse("play")).content.decode()
        assert page.count('action="/queue/turn-based/join/"') == 3
        assert '<option value="3" selected>3 days</option>' in page

    def test_joining_from_the_page_then_leaving(self, client):
        user = make_user()
        client.force_login(user)
        response = client.post(reverse("turn_based_join"), {"kind": "rondo", "players": "2", "days": "7"})
        assert response.status_code == 302 and response.url == "/play/#game-rondo"
        assert entries() == [(user.pk, "rondo", 2, 7)]
        page = client.get(reverse("play")).content.decode()
        assert "You are in the turn-based queue" in page  # the message
        assert "You wait in the turn-based queue: <strong>2 players, 7 days a decision</strong>" in page
        assert "1 for 2 players, 7 days" in page
        client.post(reverse("turn_based_leave"), {"kind": "rondo"})
        assert not TurnBasedEntry.objects.exists()

    def test_bad_days_from_the_page_are_refused_with_a_message(self, client):
        client.force_login(make_user())
        response = client.post(reverse("turn_based_join"), {"kind": "rondo", "players": "2", "days": "4"},
                               follow=True)
        assert "Choose 1, 2, 3, 5, 7 or 14 days per decision." in response.content.decode()
        assert not TurnBasedEntry.objects.exists()

    def test_a_pairing_join_goes_to_the_match(self, client):
        a, b = make_user(), make_user()
        turn_based.join_turn_based(a, "rondo", 2, 3)
        client.force_login(b)
        response = client.post(reverse("turn_based_join"), {"kind": "rondo", "players": "2", "days": "3"})
        match = Match.objects.get()
        assert response.url == reverse("match", args=[match.public_id])


def waiting(user, kind="rondo", players=2, days=3, rating=1500.0):
    return TurnBasedEntry.objects.create(user=user, kind=kind, players=players, days=days, rating=rating,
                                         joined_at=timezone.now())


@pytest.mark.django_db(transaction=True)
def test_two_waves_at_once_start_one_match():
    from tests.races import race

    a, b = make_user(), make_user()
    waiting(a), waiting(b)
    results = race(turn_based.pair_turn_based, turn_based.pair_turn_based)
    assert sorted(len(r) for r in results) == [0, 1], results
    assert Match.objects.count() == 1 and not TurnBasedEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_pairings_at_once_keep_a_player_within_the_limit(settings):
    """One free place left and two tables of two games ready: the players'
    rows are claimed, then counted again, so one table starts and the other waits."""
    from tests.races import race

    settings.PARLOUR_TURN_BASED_LIMIT = 1
    a, b, c = make_user(), make_user(), make_user()
    waiting(a, "rondo"), waiting(b, "rondo"), waiting(a, "ludo"), waiting(c, "ludo")
    results = race(lambda: turn_based.pair_turn_based([("rondo", 2, 3)]),
                   lambda: turn_based.pair_turn_based([("ludo", 2, 3)]))
    assert sorted(len(r) for r in results) == [0, 1], results
    assert Match.objects.filter(seats__user=a).count() == 1
    assert TurnBasedEntry.objects.filter(user=a).count() == 1  # waits on in the other game
