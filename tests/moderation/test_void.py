"""Voiding a finished rated match (README "Moderation"): each player's rating afterwards
is their rating before the void minus the voided delta, clamped at the
floor, even with later matches in between (which keep their own deltas);
games played, provisional count and peak follow; the reversal is recorded."""

import pytest

from accounts.models import Rating
from games.models import Match, RatingChange, RatingVoid
from games.rating import replayed_peak
from moderation import actions as moderation
from moderation.models import AuditLog
from tests.factories import ludo_state, make_match, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_effects")]


def near_win(players=2):
    """Seat 0 finishes as soon as the match starts (forced move)."""
    pieces = [[56, 56, 56, 55]] + [[-1] * 4] * (players - 1)
    return ludo_state(players, phase="move", die=1, pieces=pieces)


def win(winner, *losers):
    match = make_match(seats=("human",) * (1 + len(losers)), users=[winner, *losers],
                       state=near_win(1 + len(losers)), rated=True)
    assert match.status == Match.Status.FINISHED
    return match


def rating(user):
    return Rating.objects.get(user=user, kind="ludo")


def test_a_void_with_later_matches_takes_back_only_its_own_delta(moderator):
    a, b = make_user(), make_user()
    first = win(a, b)
    win(b, a)
    win(a, b)
    win(b, a)
    before = {u.pk: rating(u) for u in (a, b)}
    voided = {c.user_id: c.delta for c in RatingChange.objects.filter(match=first)}
    later = {c.pk: (c.before, c.after, c.delta) for c in RatingChange.objects.exclude(match=first)}
    voids = moderation.void_match(moderator, first.public_id, "win traded between friends")
    assert len(voids) == 2
    for u in (a, b):
        after = rating(u)
        assert after.rating == pytest.approx(max(100, before[u.pk].rating - voided[u.pk]))
        assert after.games == before[u.pk].games - 1 == 3
        assert after.provisional
    # Later matches keep their recorded changes.
    assert {c.pk: (c.before, c.after, c.delta) for c in RatingChange.objects.exclude(match=first)} == later
    row = RatingVoid.objects.get(match=first, user=a)
    assert row.delta == pytest.approx(voided[a.pk])
    assert row.rating_before == pytest.approx(before[a.pk].rating)
    assert row.rating_after == pytest.approx(rating(a).rating)
    assert (row.games_before, row.games_after) == (4, 3)
    assert row.voided_by == moderator and row.reason == "win traded between friends"
    audit = AuditLog.objects.filter(action=AuditLog.Action.VOID)
    assert {r.target_user_id for r in audit} == {a.pk, b.pk}
    assert all(first.public_id in r.target and r.actor == moderator for r in audit)


def test_the_floor_still_applies(moderator):
    a, b = make_user(), make_user()
    Rating.objects.create(user=a, kind="ludo", rating=115, games=30, peak=115)
    Rating.objects.create(user=b, kind="ludo", rating=115, games=30, peak=115)
    first = win(b, a)  # b +10 -> 125
    win(a, b)  # b falls
    win(a, b)  # b falls below 110
    before_b = rating(b).rating
    delta_b = RatingChange.objects.get(match=first, user=b).delta
    assert delta_b == pytest.approx(10) and before_b - delta_b < 100
    moderation.void_match(moderator, first.public_id, "collusion")
    assert rating(b).rating == 100
    assert rating(a).rating == pytest.approx(
        max(100, RatingChange.objects.filter(user=a).order_by("pk").last().after + 10))


def test_peaks_are_recomputed_from_what_remains(moderator):
    a, b = make_user(), make_user()
    first = win(a, b)  # a 1520: the peak, only from the voided match
    win(b, a)
    assert rating(a).peak == pytest.approx(1520)
    moderation.void_match(moderator, first.public_id, "x")
    # What remains for a: a loss from 1500 (replayed without the void).
    remaining = RatingChange.objects.exclude(match=first).get(user=a)
    assert rating(a).peak == pytest.approx(max(1500, 1500 + remaining.delta, rating(a).rating)) == 1500
    # b: a win in the remaining match; replayed from 1500.
    remaining_b = RatingChange.objects.exclude(match=first).get(user=b)
    assert rating(b).peak == pytest.approx(max(1500 + remaining_b.delta, rating(b).rating))
    assert replayed_peak(b.pk, "ludo", rating(b).rating) == pytest.approx(rating(b).peak)


@pytest.mark.parametrize("setup, message", [
    ("casual", "not rated"), ("live", "has not finished"), ("twice", "already void"),
])
def test_refusals_change_nothing(moderator, setup, message):
    a, b = make_user(), make_user()
    if setup == "casual":
        match = make_match(seats=("human", "human"), users=[a, b], state=near_win())
    elif setup == "live":
        match = make_match(seats=("human", "human"), users=[a, b], state=ludo_state(), rated=True)
    else:
        match = win(a, b)
        moderation.void_match(moderator, match.public_id, "first")
    ratings = list(Rating.objects.order_by("pk").values_list("rating", "games", "peak"))
    audit = AuditLog.objects.count()
    with pytest.raises(moderation.ModerationError, match=message):
        moderation.void_match(moderator, match.public_id, "again")
    assert list(Rating.objects.order_by("pk").values_list("rating", "games", "peak")) == ratings
    assert AuditLog.objects.count() == audit


def test_a_void_needs_a_reason(moderator):
    a, b = make_user(), make_user()
    match = win(a, b)
    with pytest.raises(moderation.ModerationError, match="reason"):
        moderation.void_match(moderator, match.public_id, " ")
    assert not RatingVoid.objects.exists()
