"""Blocking a player (docs/features.md "Blocking a player"): the block list
and the profile's button, the bad input (oneself, a closed account, twice,
nobody) refused with nothing changed, and every path a block closes:
challenges, rematch offers, a room's invite, live and turn-based ranked
pairing (the pure pairing too); unblocking opens them again. The chat's
filtering is tested with real sockets in test_block_chat.py."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts import blocks
from accounts.models import Block, Rating
from core import ratelimits
from games import actions as game_actions
from matchmaking import together
from matchmaking.challenges import actions as challenges
from matchmaking.models import Challenge, Invite, RematchOffer, RoomMember, TurnBasedEntry
from matchmaking.queue import actions as queue
from matchmaking.queue import pairing, turn_based
from matchmaking.rematch import actions as rematch
from matchmaking.rematch import fragments as rematch_fragments
from matchmaking.rooms import actions as rooms
from tests.factories import make_match, make_user, play_until_every_seat_moved


@pytest.fixture(autouse=True)
def quiet(monkeypatch):
    """No Celery task is sent and no match is pushed (no worker here); rate limits start afresh."""
    ratelimits.reset()
    from games import push as game_push
    from games import tasks

    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    monkeypatch.setattr(game_push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)
    yield
    ratelimits.reset()


def block(blocker, blocked):
    return blocks.do_block(blocker, blocked.username)


# -- the pure pairing (no database) ---------------------------------------------


class TestPairingApart:
    def test_a_pair_kept_apart_is_not_seated_together_and_the_next_nearest_is(self):
        waiting = [pairing.Waiting("a", 1500, 30), pairing.Waiting("b", 1510, 20),
                   pairing.Waiting("c", 1560, 10)]
        assert pairing.pair(waiting, 2) == [("a", "b")]
        assert pairing.pair(waiting, 2, apart=[("a", "b")]) == [("a", "c")]
        assert pairing.pair(waiting[:2], 2, apart=[("b", "a")]) == []

    def test_tables_of_three_and_four_never_hold_a_pair_kept_apart(self):
        waiting = [pairing.Waiting(k, 1500 + 10 * i, 100 - i) for i, k in enumerate("abcde")]
        [table] = pairing.pair(waiting, 4, apart=[("a", "b")])
        assert not {"a", "b"} <= set(table) and len(table) == 4
        tables = pairing.pair(waiting, 3, apart=[("a", "b"), ("a", "c")])
        assert all(not {"a", "b"} <= set(t) and not {"a", "c"} <= set(t) for t in tables)
        assert tables and all(len(t) == 3 for t in tables)
        # Keys that are not waiting, and nothing apart, change nothing.
        assert pairing.pair(waiting, 4, apart=[("x", "y")]) == pairing.pair(waiting, 4)


# -- the block list and the profile ---------------------------------------------


@pytest.mark.django_db
class TestBlockList:
    def test_block_from_the_profile_then_unblock_from_the_list(self, client):
        ada, bob = make_user(), make_user()
        client.force_login(ada)
        page = client.get(reverse("profile", args=[bob.username])).content.decode()
        assert f'name="block" value="{bob.username}"' in page and "Unblock" not in page
        response = client.post(reverse("blocked_players"),
                               {"block": bob.username, "next": f"/u/{bob.username}/"})
        assert response.status_code == 302 and response["Location"] == f"/u/{bob.username}/"
        assert blocks.has_blocked(ada.pk, bob.pk) and not blocks.has_blocked(bob.pk, ada.pk)
        page = client.get(reverse("profile", args=[bob.username])).content.decode()
        assert f"You blocked {bob.username}" in page and f'name="unblock" value="{bob.username}"' in page
        own = client.get(reverse("profile", args=[ada.username])).content.decode()
        assert reverse("blocked_players") in own and 'name="block"' not in own
        listing = client.get(reverse("blocked_players")).content.decode()
        assert bob.username in listing and "Unblock" in listing
        response = client.post(reverse("blocked_players"), {"unblock": bob.username})
        assert response.status_code == 302 and response["Location"] == reverse("blocked_players")
        assert not Block.objects.exists()
        assert "You have not blocked anyone." in client.get(reverse("blocked_players")).content.decode()

    def test_the_blocked_player_sees_nothing_of_it(self, client):
        ada, bob = make_user(), make_user()
        block(ada, bob)
        client.force_login(bob)
        page = client.get(reverse("profile", args=[ada.username])).content.decode()
        assert "You blocked" not in page and "blocked you" not in page
        assert f'name="block" value="{ada.username}"' in page  # they may block back

    def test_bad_input_is_refused_plainly_and_changes_nothing(self, client):
        ada, bob, gone = make_user(), make_user(), make_user()
        gone.is_active = False
        gone.save()
        block(ada, bob)
        client.force_login(ada)
        for data, words in [
            ({"block": ada.username}, "You cannot block yourself."),
            ({"block": ada.username.upper()}, "You cannot block yourself."),
            ({"block": gone.username}, "That account is closed"),
            ({"block": bob.username}, f"You have already blocked {bob.username}."),
            ({"block": "nobody-at-all"}, "There is no such player."),
            ({"block": ""}, "There is no such player."),
            ({"block": "x" * 5000}, "There is no such player."),
            ({}, "There is no such player."),
            ({"unblock": gone.username}, "You have not blocked that player."),
            ({"unblock": "nobody-at-all"}, "You have not blocked that player."),
        ]:
            response = client.post(reverse("blocked_players"), data)
            assert response.status_code == 400, data
            assert words in response.content.decode(), data
        assert list(Block.objects.values_list("blocker_id", "blocked_id")) == [(ada.pk, bob.pk)]

    def test_signed_out_visitors_go_to_log_in_and_a_post_needs_its_csrf_token(self):
        ada, bob = make_user(), make_user()
        visitor = Client()
        assert visitor.get(reverse("blocked_players")).status_code == 302
        assert visitor.post(reverse("blocked_players"), {"block": bob.username}).status_code == 302
        strict = Client(enforce_csrf_checks=True)
        strict.force_login(ada)
        assert strict.post(reverse("blocked_players"), {"block": bob.username}).status_code == 403
        assert not Block.objects.exists()
        assert 'name="csrfmiddlewaretoken"' in strict.get(
            reverse("profile", args=[bob.username])).content.decode()

    def test_an_offsite_next_is_not_followed(self, client):
        ada, bob = make_user(), make_user()
        client.force_login(ada)
        response = client.post(reverse("blocked_players"),
                               {"block": bob.username, "next": "https://evil.example/"})
        assert response["Location"] == reverse("blocked_players")


# -- what a block closes --------------------------------------------------------


@pytest.mark.django_db
class TestChallenges:
    def test_the_blocked_player_cannot_challenge_and_is_told_only_that_they_are_not_taking_any(self):
        ada, bob = make_user(), make_user()
        block(ada, bob)
        with pytest.raises(challenges.ChallengeRefused) as refused:
            challenges.do_challenge(bob, ada.username, "roundabout", 90)
        # The words of a player who turned challenges off: the block is not revealed.
        assert refused.value.message == challenges.NOT_TAKING.format(name=ada.username)
        with pytest.raises(challenges.ChallengeRefused, match="You blocked"):
            challenges.do_challenge(ada, bob.username, "roundabout", 90)
        assert not Challenge.objects.exists()
        blocks.do_unblock(ada, bob.username)  # unblocking opens it again
        challenges.do_challenge(bob, ada.username, "roundabout", 90)
        challenges.do_challenge(ada, bob.username, "roundabout", 90)
        assert Challenge.objects.count() == 2

    def test_a_challenge_sent_before_the_block_is_hidden_and_cannot_be_accepted(self):
        ada, bob = make_user(), make_user()
        c = challenges.do_challenge(bob, ada.username, "roundabout", 90)
        block(ada, bob)
        assert challenges.incoming(ada) == []
        with pytest.raises(challenges.ChallengeRefused, match="cannot be played now"):
            challenges.do_answer(c.pk, ada, True)
        assert Challenge.objects.get().status == Challenge.Status.OPEN and not c.match_id
        blocks.do_unblock(ada, bob.username)
        assert challenges.do_answer(c.pk, ada, True).match is not None


def finished_between(ada, bob):
    match = make_match(seats=("human", "human"), users=[ada, bob], rated=True)
    play_until_every_seat_moved(match)
    game_actions.leave_match(match.public_id, ada)
    match.refresh_from_db()
    assert match.is_over
    return match


@pytest.mark.django_db
class TestRematch:
    def test_no_rematch_offer_either_way_and_the_panel_offers_none(self):
        ada, bob = make_user(), make_user()
        match = finished_between(ada, bob)
        block(ada, bob)
        for offerer in (bob, ada):
            with pytest.raises(rematch.RematchRefused) as refused:
                rematch.do_offer(match.public_id, offerer)
            assert "not every player can play now" in refused.value.message
            assert "block" not in refused.value.message.lower()
            html = rematch_fragments.panel(match, offerer.pk)
            assert "<form" not in html and "not every player can play now" in html
        assert not RematchOffer.objects.exists()
        blocks.do_unblock(ada, bob.username)
        rematch.do_offer(match.public_id, bob)
        assert RematchOffer.objects.count() == 1

    def test_an_offer_made_before_the_block_cannot_be_accepted(self):
        ada, bob = make_user(), make_user()
        match = finished_between(ada, bob)
        rematch.do_offer(match.public_id, bob)
        block(ada, bob)
        with pytest.raises(rematch.RematchRefused, match="not every player can play now"):
            rematch.do_answer(match.public_id, ada, True)
        assert together.started_rematch(match) is None
        # Nor offered on either panel any more (it was, to the blocker: a new-user trial).
        for user in (ada, bob):
            html = rematch_fragments.panel(match, user.pk)
            assert "<form" not in html and "not every player can play now" in html


@pytest.mark.django_db
class TestRoomInvite:
    def test_someone_the_host_blocked_is_refused_as_by_a_bad_link_and_the_invite_stays_unused(self):
        host, bob, friend = make_user(), make_user(), make_user()
        room = rooms.do_create_room(host, "ludo", 3, {})
        block(host, bob)
        _invite, token = rooms.do_create_invite(room.code, host)
        with pytest.raises(rooms.InviteRefused) as refused:
            rooms.do_redeem_invite(token, bob)
        assert refused.value.message == rooms.INVITE_REFUSED
        assert Invite.objects.get().used_at is None
        assert not RoomMember.objects.filter(user=bob).exists()
        rooms.do_redeem_invite(token, friend)  # the same link still seats someone else
        assert RoomMember.objects.filter(user=friend).exists()

    def test_a_member_who_blocked_them_keeps_them_out_too_and_unblocking_lets_them_in(self):
        host, bob, friend = make_user(), make_user(), make_user()
        room = rooms.do_create_room(host, "ludo", 3, {})
        _invite, token = rooms.do_create_invite(room.code, host)
        rooms.do_redeem_invite(token, friend)
        block(friend, bob)
        _invite, token = rooms.do_create_invite(room.code, host)
        with pytest.raises(rooms.InviteRefused):
            rooms.do_redeem_invite(token, bob)
        blocks.do_unblock(friend, bob.username)
        rooms.do_redeem_invite(token, bob)
        assert RoomMember.objects.filter(user=bob, room=room).exists()

    def test_the_blocker_may_still_join_a_room_the_blocked_player_hosts(self):
        host, ada = make_user(), make_user()
        room = rooms.do_create_room(host, "ludo", 2, {})
        block(ada, host)  # their own choice: a block keeps others out, not the blocker
        _invite, token = rooms.do_create_invite(room.code, host)
        rooms.do_redeem_invite(token, ada)
        assert RoomMember.objects.filter(user=ada, room=room).exists()


@pytest.mark.django_db
class TestRankedPairing:
    def test_the_live_queue_does_not_pair_them_together_and_unblocking_does(self):
        ada, bob = make_user(), make_user()
        block(bob, ada)  # either way
        queue.join_queue(ada, "ludo", 2)
        assert queue.join_queue(bob, "ludo", 2).match_id is None
        assert queue.pair_queues() == []
        blocks.do_unblock(bob, ada.username)
        [match] = queue.pair_queues()
        assert {s.user_id for s in match.seats.all()} == {ada.pk, bob.pk}

    def test_each_is_paired_with_someone_else(self):
        ada, bob, carol = make_user(), make_user(), make_user()
        block(ada, bob)
        queue.join_queue(ada, "ludo", 2)
        queue.join_queue(bob, "ludo", 2)
        match = queue.join_queue(carol, "ludo", 2).match
        seated = {s.user_id for s in match.seats.all()}
        assert carol.pk in seated and len(seated & {ada.pk, bob.pk}) == 1

    def test_a_four_seat_live_table_waits_for_a_fifth_rather_than_seat_them_together(self):
        ada, bob, c, d = (make_user() for _ in range(4))
        block(ada, bob)
        for u in (ada, bob, c, d):
            queue.join_queue(u, "ludo", 4)
        assert queue.pair_queues() == []
        match = queue.join_queue(make_user(), "ludo", 4).match
        seated = {s.user_id for s in match.seats.all()}
        assert len(seated) == 4 and not {ada.pk, bob.pk} <= seated

    def test_the_turn_based_queue_does_not_pair_them_together(self):
        ada, bob = make_user(), make_user()
        for u in (ada, bob):
            Rating.objects.create(user=u, kind="rondo", rating=1500, games=30, peak=1500)
        block(ada, bob)
        assert turn_based.join_turn_based(ada, "rondo", 2, 3) is None
        assert turn_based.join_turn_based(bob, "rondo", 2, 3) is None
        assert turn_based.pair_turn_based() == [] and TurnBasedEntry.objects.count() == 2
        blocks.do_unblock(ada, bob.username)
        [match] = turn_based.pair_turn_based()
        assert {s.user_id for s in match.seats.all()} == {ada.pk, bob.pk}


@pytest.mark.django_db
def test_blocked_between_answers_for_a_group_in_one_query(django_assert_num_queries):
    a, b, c, d = (make_user() for _ in range(4))
    block(a, b)
    block(c, a)
    with django_assert_num_queries(1):
        assert blocks.blocked_between([a.pk, b.pk, c.pk, d.pk]) == {(a.pk, b.pk), (c.pk, a.pk)}
    with django_assert_num_queries(0):
        assert blocks.blocked_between([a.pk]) == set()
    assert blocks.apart([b.pk, c.pk, d.pk]) == set()
    assert blocks.blocked_ids(a.pk) == {b.pk} and blocks.blocked_ids(None) == frozenset()


@pytest.mark.django_db
def test_an_arena_keeps_them_apart_where_the_pool_allows_as_it_does_a_repeat():
    from datetime import timedelta

    from django.utils import timezone

    from arenas import actions as arenas
    from arenas.models import Arena

    arena = Arena.objects.create(name="Ludo duel", kind="ludo", seats=2, turn_seconds=30, minutes=30,
                                 starts_at=timezone.now() - timedelta(minutes=1), rated=True,
                                 rated_from_players=2)
    ann, bob, cat, dan = (make_user() for _ in range(4))
    block(ann, bob)
    for u in (ann, bob):
        arenas.join(u, arena.pk)
    assert arenas.pair_arena(arena.pk, hold_repeats=True) == []  # a join's pairing holds them
    for u in (cat, dan):
        arenas.join(u, arena.pk)
    started = arenas.pair_arena(arena.pk, hold_repeats=True)
    assert len(started) == 2
    assert all({s.user_id for s in m.seats.all()} != {ann.pk, bob.pk} for m in started)



@pytest.mark.django_db
def test_the_blocker_sees_no_challenge_form_on_the_blocked_players_profile(client):
    """A form that would be refused is not offered to the blocker; the blocked
    player still sees the blocker's form (and a neutral refusal if they send it)."""
    ada, bob = make_user(), make_user()
    block(ada, bob)
    client.force_login(ada)
    page = client.get(f"/u/{bob.username}/").content.decode()
    assert "challenge-form" not in page and f"You blocked {bob.username}" in page
    client.force_login(bob)
    assert "challenge-form" in client.get(f"/u/{ada.username}/").content.decode()
