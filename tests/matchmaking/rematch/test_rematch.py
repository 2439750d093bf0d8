"""Rematches (README "Playing again"): one click against computers; an offer
between humans that every seat accepts within 30 s, seats rotated; lapses
and declines; at most two rated matches in a row; the refusals; two accepts
at once and an accept racing the lapse start exactly one match."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.models import Match
from matchmaking import together
from matchmaking.models import QueueEntry, RematchOffer
from matchmaking.rematch import actions as rematch
from matchmaking.rematch import fragments as rematch_fragments
from tests.factories import make_match, make_user, play_until_every_seat_moved
from tests.races import race


@pytest.fixture(autouse=True)
def no_tasks(monkeypatch):
    """Celery tasks are not sent (no worker here); pushes go to the test Redis."""
    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    from games import tasks

    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


def finished(players=2, rated=True, **kw) -> tuple[Match, list]:
    """A finished match between ``players`` humans: every seat moves, then
    all but the last leave, so the last wins; a rated one (like a queue's)
    is rated, its rating changes recorded."""
    users = [make_user() for _ in range(players)]
    match = make_match(seats=("human",) * players, users=list(users), rated=rated, **kw)
    leave_after_every_seat_moved(match, users[:-1])
    match.refresh_from_db()
    assert match.is_over and match.rating_changes.exists() is rated
    return match, users


def leave_after_every_seat_moved(match, leavers):
    """Each seat moves, then ``leavers`` leave (the match stays rated)."""
    play_until_every_seat_moved(match)
    for user in leavers:
        actions.leave_match(match.public_id, user)


def left_at_once() -> tuple[Match, list]:
    """A rated match that ended without a rating: seat 0 left before every
    seat had moved (docs/rules.md "Leaving"), so seat 1 won at once."""
    ada, bob = make_user(), make_user()
    match = make_match(seats=("human", "human"), users=[ada, bob], rated=True)
    actions.leave_match(match.public_id, ada)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.rating_changes.exists()
    return match, [ada, bob]


def seat_users(match):
    return list(match.seats.order_by("index").values_list("user_id", flat=True))


@pytest.mark.django_db
class TestAgainstComputers:
    def test_one_click_starts_the_same_settings_and_a_second_click_the_same_match(self):
        user = make_user()
        match = make_match(seats=("human", "strong", "easy"), users=[user], computer_speed="fast",
                           theme="europe")
        actions.leave_match(match.public_id, user)
        new = rematch.do_rematch_computers(match.public_id, user)
        assert new.status == Match.Status.ACTIVE and not new.rated
        assert (new.kind, new.computer_speed, new.theme) == ("ludo", "fast", "europe")
        assert list(new.seats.values_list("user_id", "computer_level")) == [
            (user.pk, ""), (None, "strong"), (None, "easy")]
        assert rematch.do_rematch_computers(match.public_id, user) == new
        assert Match.objects.count() == 2

    def test_only_its_player_and_only_once_it_is_over(self):
        user = make_user()
        match = make_match(seats=("human", "normal"), users=[user])
        with pytest.raises(rematch.RematchRefused, match="still being played"):
            rematch.do_rematch_computers(match.public_id, user)
        actions.leave_match(match.public_id, user)
        with pytest.raises(rematch.RematchRefused, match="Only its players"):
            rematch.do_rematch_computers(match.public_id, make_user())
        with pytest.raises(rematch.RematchRefused, match="no such match"):
            rematch.do_rematch_computers("nosuchmatch", user)


@pytest.mark.django_db
class TestBetweenHumans:
    def test_both_accept_and_a_rated_match_starts_with_the_seats_rotated(self):
        match, (ada, bob) = finished()
        QueueEntry.objects.create(user=bob, kind="ludo", players=2, rating=1500, joined_at=timezone.now(),
                                  seen_at=timezone.now())
        offer = rematch.do_offer(match.public_id, bob)
        assert offer.status == "open" and offer.rated and offer.accepted == [bob.pk]
        offer = rematch.do_answer(match.public_id, ada, True)
        new = offer.new_match
        assert offer.status == "started" and new.rated and new.is_public
        assert new.status == Match.Status.ACTIVE
        assert seat_users(new) == [bob.pk, ada.pk]  # rotated
        assert not QueueEntry.objects.filter(user=bob).exists()  # no pairing into a second match

    def test_three_seats_rotate_by_one_and_start_only_when_all_accept(self):
        match, (ada, bob, cy) = finished(3)
        rematch.do_offer(match.public_id, ada)
        offer = rematch.do_answer(match.public_id, bob, True)
        assert offer.status == "open" and offer.new_match is None
        offer = rematch.do_answer(match.public_id, cy, True)
        assert seat_users(offer.new_match) == [bob.pk, cy.pk, ada.pk]

    def test_a_third_match_in_a_row_is_unrated_and_says_so(self):
        first, (ada, bob) = finished()
        rematch.do_offer(first.public_id, ada)
        second = rematch.do_answer(first.public_id, bob, True).new_match
        assert second.rated
        leave_after_every_seat_moved(second, [ada])
        ctx = rematch_fragments.panel_context(Match.objects.get(pk=second.pk), bob.pk)
        assert ctx["state"] == "offer" and ctx["rated"] is False and ctx["why"] == together.IN_A_ROW
        assert "at most two rated matches in a row" in rematch_fragments.panel(second, bob.pk)
        offer = rematch.do_offer(second.public_id, bob)
        assert not offer.rated
        third = rematch.do_answer(second.public_id, ada, True).new_match
        assert not third.rated
        actions.leave_match(third.public_id, bob)
        rematch.do_offer(third.public_id, ada)
        assert not rematch.do_answer(third.public_id, bob, True).new_match.rated

    def test_an_unrated_match_has_unrated_rematches(self):
        match, (ada, bob) = finished(rated=False)
        assert not rematch.do_offer(match.public_id, ada).rated

    @staticmethod
    def offered_and_started_unrated(match, ada, bob, note):
        """The panel says the rematch of ``match`` is not rated (``note``);
        the offer and the match it starts are unrated."""
        ctx = rematch_fragments.panel_context(match, bob.pk)
        assert ctx["state"] == "offer" and ctx["rated"] is False
        panel = rematch_fragments.panel(match, bob.pk)
        assert note in panel and "Rated, like this match" not in panel
        assert not rematch.do_offer(match.public_id, ada).rated
        assert note in rematch_fragments.panel(match, bob.pk)  # the open offer, to the other seat
        offer = rematch.do_answer(match.public_id, bob, True)
        assert offer.status == "started" and not offer.new_match.rated
        assert "The rematch has started (not rated)" in rematch_fragments.panel(match, ada.pk)

    def test_the_rematch_of_a_match_a_moderator_voided_is_unrated_and_says_so(self):
        """A pair whose match a moderator took back earns no rated match
        outside the queue (README "Playing again")."""
        from moderation import actions as moderation

        match, (ada, bob) = finished()
        assert together.rematch_is_rated(match)
        moderation.void_match(make_user(), match.public_id, "win traded between friends")
        self.offered_and_started_unrated(match, ada, bob,
                                         "Not rated: a moderator voided this match's rating.")

    def test_the_rematch_of_a_rated_match_a_moderator_aborted_is_unrated_and_says_so(self):
        from moderation import actions as moderation

        ada, bob = make_user(), make_user()
        match = make_match(seats=("human", "human"), users=[ada, bob], rated=True)
        play_until_every_seat_moved(match)
        match = moderation.abort_match(make_user(), match.public_id, "a bug in the board")
        assert match.status == Match.Status.ABORTED and match.rated
        self.offered_and_started_unrated(match, ada, bob, "Not rated: this match ended without a rating.")

    def test_the_rematch_of_a_rated_match_left_before_every_seat_moved_is_unrated(self):
        match, (ada, bob) = left_at_once()
        self.offered_and_started_unrated(match, ada, bob, "Not rated: this match ended without a rating.")

    def test_a_void_while_an_offer_is_open_makes_it_unrated(self):
        from moderation import actions as moderation

        match, (ada, bob) = finished()
        assert rematch.do_offer(match.public_id, ada).rated
        moderation.void_match(make_user(), match.public_id, "collusion")
        assert not RematchOffer.objects.get(match=match).rated
        assert "a moderator voided" in rematch_fragments.panel(match, bob.pk)
        assert not rematch.do_answer(match.public_id, bob, True).new_match.rated

    def test_the_last_acceptance_checks_the_rating_again(self):
        """However the rating went (here taken back without the moderation
        action), the match that starts is rated only if its rating stands."""
        from games import rating

        match, (ada, bob) = finished()
        assert rematch.do_offer(match.public_id, ada).rated
        rating.void_ratings(match, None, "taken back")
        offer = rematch.do_answer(match.public_id, bob, True)
        assert not offer.rated and not offer.new_match.rated

    def test_a_decline_ends_the_offer_and_it_may_be_offered_again(self):
        match, (ada, bob) = finished()
        rematch.do_offer(match.public_id, ada)
        rematch.do_answer(match.public_id, bob, False)
        ctx = rematch_fragments.panel_context(match, ada.pk)
        assert ctx["state"] == "declined" and ctx["declined_by"] == bob.username
        with pytest.raises(rematch.RematchRefused, match="no rematch offer"):
            rematch.do_answer(match.public_id, bob, True)
        assert rematch.do_offer(match.public_id, ada).status == "open"

    def test_an_offer_lapses_after_30_seconds_and_says_so(self):
        match, (ada, bob) = finished()
        offer = rematch.do_offer(match.public_id, ada)
        assert offer.expires_at - offer.created_at == timedelta(seconds=30)
        assert not rematch.lapse(offer.pk)  # not yet
        later = timezone.now() + timedelta(seconds=31)
        assert rematch.lapse(offer.pk, now=later)
        assert not rematch.lapse(offer.pk, now=later)  # once
        with pytest.raises(rematch.RematchRefused, match="lapsed"):
            rematch.do_answer(match.public_id, bob, True)
        assert "lapsed" in rematch_fragments.panel(match, bob.pk)

    def test_an_accept_past_the_time_is_refused_even_before_the_task_ran(self):
        match, (ada, bob) = finished()
        rematch.do_offer(match.public_id, ada)
        with pytest.raises(rematch.RematchRefused, match="lapsed"):
            rematch.do_answer(match.public_id, bob, True, now=timezone.now() + timedelta(seconds=31))
        later = timezone.now() + timedelta(seconds=31)
        assert together.current_offer(match, later).status == "lapsed"  # the task or the wave records it
        assert Match.objects.count() == 1

    def test_the_wave_lapses_offers_whose_task_was_lost(self):
        match, (ada, bob) = finished()
        rematch.do_offer(match.public_id, ada)
        assert rematch.lapse_overdue(timezone.now() + timedelta(seconds=31)) == 1

    def test_at_most_three_offers_per_match(self):
        match, (ada, bob) = finished()
        for _ in range(3):
            rematch.do_offer(match.public_id, ada)
            rematch.do_answer(match.public_id, bob, False)
        with pytest.raises(rematch.RematchRefused, match="3 rematch offers"):
            rematch.do_offer(match.public_id, ada)
        assert "Offer a rematch" not in rematch_fragments.panel(match, ada.pk)

    def test_refusals_change_nothing(self):
        live = make_match(seats=("human", "human"), rated=True)
        live_user = live.seats.first().user
        with pytest.raises(rematch.RematchRefused, match="still being played"):
            rematch.do_offer(live.public_id, live_user)
        match, (ada, bob) = finished()
        with pytest.raises(rematch.RematchRefused, match="Only its players"):
            rematch.do_offer(match.public_id, make_user())
        with pytest.raises(rematch.RematchRefused, match="no such match"):
            rematch.do_offer("zzzzzzzzzz", ada)
        with pytest.raises(rematch.RematchRefused, match="no rematch offer"):
            rematch.do_answer(match.public_id, bob, True)
        private, (cy, dee) = finished(rated=False, is_public=False)
        with pytest.raises(rematch.RematchRefused, match="no such match"):
            rematch.do_offer(private.public_id, ada)  # a private match does not exist for others
        assert not RematchOffer.objects.exists()

    def test_a_banned_player_makes_a_rematch_impossible_without_saying_why(self):
        match, (ada, bob) = finished()
        bob.banned_until = timezone.now() + timedelta(days=1)
        bob.save()
        with pytest.raises(rematch.RematchRefused) as refused:
            rematch.do_offer(match.public_id, ada)
        assert "not every player can play" in refused.value.message
        assert "ban" not in refused.value.message

    def test_the_panel_offers_no_rematch_the_server_would_refuse(self):
        """A banned player's panel says why and offers nothing; the other
        player's panel offers nothing either, in words that tell of no ban."""
        match, (ada, bob) = finished()
        computers = make_match(seats=("human", "easy"), users=[bob])
        actions.leave_match(computers.public_id, bob)
        assert "Offer a rematch" in rematch_fragments.panel(match, bob.pk)
        bob.banned_until = timezone.now() + timedelta(days=1)
        bob.save()
        for m in (match, computers):
            html = rematch_fragments.panel(Match.objects.get(pk=m.pk), bob.pk)
            assert "Your account is banned, so you cannot start matches." in html
            assert "<form" not in html and "Rematch" not in html
        html = rematch_fragments.panel(match, ada.pk)
        assert "<form" not in html and "not every player can play now" in html and "ban" not in html

    def test_offering_or_starting_while_a_player_is_in_a_live_rated_match_is_refused(self):
        match, (ada, bob) = finished()
        rematch.do_offer(match.public_id, ada)
        make_match(seats=("human", "human"), users=[ada, make_user()], rated=True)  # ada is paired meanwhile
        with pytest.raises(rematch.RematchRefused, match=f"{ada.username} is playing a rated or arena match"):
            rematch.do_answer(match.public_id, bob, True)
        other, (cy, dee) = finished()
        make_match(seats=("human", "human"), users=[cy, make_user()], rated=True)
        with pytest.raises(rematch.RematchRefused, match="You are playing a rated or arena match"):
            rematch.do_offer(other.public_id, cy)
        assert not RematchOffer.objects.filter(match=other).exists()
        assert Match.objects.count() == 4

    def test_accepting_while_seated_in_a_live_rated_match_is_refused(self):
        match, (ada, bob) = finished()
        rematch.do_offer(match.public_id, ada)
        make_match(seats=("human", "human"), users=[bob, make_user()], rated=True)
        with pytest.raises(rematch.RematchRefused, match="playing a rated or arena match"):
            rematch.do_answer(match.public_id, bob, True)
        assert RematchOffer.objects.get().status == "open"


@pytest.mark.django_db(transaction=True)
def test_two_accepts_at_once_start_exactly_one_match():
    match, (ada, bob, cy) = finished(3)
    rematch.do_offer(match.public_id, ada)
    results = race(lambda: rematch.do_answer(match.public_id, bob, True),
                   lambda: rematch.do_answer(match.public_id, cy, True))
    assert not [r for r in results if isinstance(r, Exception)], results
    assert Match.objects.count() == 2
    offer = RematchOffer.objects.get()
    assert offer.status == "started" and sorted(offer.accepted) == sorted([ada.pk, bob.pk, cy.pk])


@pytest.mark.django_db(transaction=True)
def test_the_same_player_accepting_twice_at_once_starts_one_match():
    match, (ada, bob) = finished()
    rematch.do_offer(match.public_id, ada)
    results = race(lambda: rematch.do_answer(match.public_id, bob, True),
                   lambda: rematch.do_answer(match.public_id, bob, True))
    assert all(isinstance(r, RematchOffer) for r in results), results
    assert Match.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_an_accept_racing_the_lapse_either_starts_the_match_or_finds_it_lapsed():
    match, (ada, bob) = finished()
    offer = rematch.do_offer(match.public_id, ada)
    at = offer.expires_at  # the instant both happen: the accept is in time by a hair, the lapse due
    results = race(lambda: rematch.do_answer(match.public_id, bob, True, now=at - timedelta(microseconds=1)),
                   lambda: rematch.lapse(offer.pk, now=at))
    offer.refresh_from_db()
    if offer.status == "started":
        assert results[1] is False and Match.objects.count() == 2
    else:
        assert offer.status == "lapsed" and isinstance(results[0], rematch.RematchRefused)
        assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_offers_at_once_make_one_offer():
    match, (ada, bob) = finished()
    race(lambda: rematch.do_offer(match.public_id, ada), lambda: rematch.do_offer(match.public_id, bob))
    offers = list(RematchOffer.objects.all())
    # Either one open offer both accepted (a rematch started), or one of them still open.
    assert len(offers) == 1
    assert offers[0].status in ("open", "started")
    assert Match.objects.count() == (2 if offers[0].status == "started" else 1)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_lapse_task_lapses_an_unanswered_offer_on_a_real_worker(celery_worker, monkeypatch):
    monkeypatch.undo()  # send the real task this time
    match, (ada, bob) = finished()
    offer = rematch.do_offer(match.public_id, ada, now=timezone.now() - timedelta(seconds=28))
    deadline = timezone.now() + timedelta(seconds=20)
    while timezone.now() < deadline:
        offer.refresh_from_db()
        if offer.status == "lapsed":
            break
        time.sleep(0.2)
    assert offer.status == "lapsed"
