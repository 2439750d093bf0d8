"""Rating finished matches (games/rating.py, called from games/actions/finish.py):
who is rated, the changes recorded once per (match, user), concurrent finishes."""


import pytest
from django.db import IntegrityError, transaction

from accounts.models import Rating
from games import actions
from games.models import Match, RatingChange
from games.rating import rate_match
from tests.factories import every_seat_moves, ludo_state, make_match, make_user
from tests.races import race


@pytest.fixture(autouse=True)
def no_effects(monkeypatch):
    """No pushes or Celery tasks: these tests look at the database only."""
    from games import push, tasks

    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


def near_win(players=2):
    """Seat 0 has a 1 to play with its last piece one step from home: with
    forced moves on, starting the match finishes it (seat 0 first)."""
    pieces = [[56, 56, 56, 55]] + [[-1] * 4] * (players - 1)
    return ludo_state(players, phase="move", die=1, pieces=pieces)


def seat_controls(match, index):
    from games.frames import render

    match = Match.objects.get(pk=match.pk)
    return render.seat_frame(match, match.seats.get(index=index))


def rating(user, kind="ludo"):
    return Rating.objects.get(user=user, kind=kind)


@pytest.mark.django_db
class TestRatedMatches:
    def test_a_ranked_two_player_finish_moves_both_ratings_once(self):
        match = make_match(seats=("human", "human"), state=near_win(), rated=True)
        assert match.status == Match.Status.FINISHED
        winner, loser = (match.seats.get(index=i).user for i in (0, 1))
        # Both provisional (K 40) at 1500: +20 / -20.
        assert rating(winner).rating == pytest.approx(1520)
        assert rating(loser).rating == pytest.approx(1480)
        assert rating(winner).games == rating(loser).games == 1
        assert rating(winner).peak == pytest.approx(1520) and rating(loser).peak == 1500
        changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
        assert changes[winner.pk].before == 1500 and changes[winner.pk].after == pytest.approx(1520)
        assert changes[loser.pk].delta == pytest.approx(-20)
        assert rating(winner).display == "1520?"

    def test_a_leaver_loses_to_the_seat_that_stayed(self):
        match = make_match(seats=("human", "human"), state=ludo_state(), rated=True)
        stayer, leaver = (match.seats.get(index=i).user for i in (0, 1))
        match = every_seat_moves(match)
        actions.leave_match(match.public_id, leaver)
        assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
        assert rating(stayer).rating > 1500 > rating(leaver).rating

    @pytest.mark.parametrize("who", [0, 1])
    def test_leaving_before_every_seat_has_moved_aborts_the_rating(self, who):
        """Seat 0 has rolled, seat 1 has not moved: whoever leaves now, the
        match ends unrated for both (docs/rules.md "Leaving"); the page says so."""
        match = make_match(seats=("human", "human"), state=ludo_state(), rated=True)
        users = {i: match.seats.get(index=i).user for i in (0, 1)}
        actions.play_move(match.public_id, users[0], "roll", match.version)
        assert "Abort (not rated)" in seat_controls(match, who)
        actions.leave_match(match.public_id, users[who])
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and match.rated
        assert not RatingChange.objects.exists() and not Rating.objects.exists()
        from django.test import Client
        page = Client().get(f"/m/{match.public_id}/").text
        assert "Not rated: a player left before every player had moved." in page

    def test_once_every_seat_has_moved_leave_says_it_counts_as_a_loss(self):
        match = make_match(seats=("human", "human"), state=ludo_state(), rated=True)
        every_seat_moves(match)
        assert "Leave (counts as a loss)" in seat_controls(match, 0)
        casual = make_match(seats=("human", "human"), state=ludo_state())
        assert "Leave the match" in seat_controls(casual, 0)

    def test_three_players_sum_pairwise_changes_with_k_over_two(self):
        match = make_match(seats=("human", "human", "human"), state=near_win(3), rated=True)
        users = [match.seats.get(index=i).user for i in range(3)]
        # Seat 0 wins (beats two: +2 * 0.5 * 40 / 2), the others share second.
        assert [rating(u).rating for u in users] == pytest.approx([1520, 1490, 1490])
        assert sum(RatingChange.objects.filter(match=match).values_list("delta", flat=True)) == \
            pytest.approx(0)

    def test_established_players_use_k_20(self):
        a, b = make_user(), make_user()
        Rating.objects.create(user=a, kind="ludo", rating=1700, games=30, peak=1800)
        Rating.objects.create(user=b, kind="ludo", rating=1700, games=30, peak=1700)
        make_match(seats=("human", "human"), users=[a, b], state=near_win(), rated=True)
        assert rating(a).rating == pytest.approx(1710) and rating(a).peak == 1800
        assert rating(b).rating == pytest.approx(1690) and rating(b).games == 31

    def test_casual_matches_are_not_rated(self):
        match = make_match(seats=("human", "human"), state=near_win())
        assert match.status == Match.Status.FINISHED
        assert not RatingChange.objects.exists() and not Rating.objects.exists()

    def test_a_match_with_a_computer_seat_is_not_rated(self):
        make_match(seats=("human", "easy"), state=near_win(), rated=True)
        assert not RatingChange.objects.exists()

    def test_an_aborted_match_is_not_rated(self):
        match = make_match(seats=("human", "human"), state=ludo_state(), rated=True)
        actions.abort_match(match.public_id)
        assert not RatingChange.objects.exists()

    def test_a_repeated_finish_rates_once(self):
        match = make_match(seats=("human", "human"), state=near_win(), rated=True)
        winner = match.seats.get(index=0).user
        seats = list(match.seats.all())
        with transaction.atomic():
            assert rate_match(match, seats) == []
        assert rating(winner).rating == pytest.approx(1520) and rating(winner).games == 1
        assert RatingChange.objects.filter(match=match).count() == 2
        # The database refuses a second row for the same (match, user) too.
        with pytest.raises(IntegrityError), transaction.atomic():
            RatingChange.objects.create(match=match, user=winner, kind="ludo",
                                        before=1, after=2, delta=1)


@pytest.mark.django_db(transaction=True)
def test_two_matches_of_one_user_ending_together_both_count():
    """Two ranked matches of the same player end at the same moment in two
    threads: the rating rows are locked in turn, so both changes count and
    the second starts from where the first ended."""
    shared = make_user()
    one, two = (every_seat_moves(make_match(seats=("human", "human"), users=[shared], state=ludo_state(),
                                            rated=True)) for _ in range(2))
    leavers = [m.seats.get(index=1).user for m in (one, two)]
    results = race(*[lambda m=m, u=u: actions.leave_match(m.public_id, u)
                     for m, u in zip((one, two), leavers, strict=True)])
    assert not [r for r in results if isinstance(r, Exception)]
    r = rating(shared)
    assert r.games == 2
    changes = sorted(RatingChange.objects.filter(user=shared), key=lambda c: c.before)
    assert changes[0].before == 1500 and changes[1].before == pytest.approx(changes[0].after)
    assert r.rating == pytest.approx(changes[1].after)
    assert r.rating == pytest.approx(1500 + 20 + 40 * (1 - 1 / (1 + 10 ** ((1500 - 1520) / 400))))
