"""Bans (README "Moderation"): the ban fields, log-in refusal, sessions cut off, live
seats counted as left (a ranked match rates the banned player as the
leaver), queues and rooms left, moves refused, the audit rows, unbanning."""

from datetime import timedelta

import pytest
from django.contrib.auth import SESSION_KEY
from django.utils import timezone

from accounts.models import BAN_FOREVER, Rating, User
from core import ratelimits
from games import actions
from games.models import Match, RatingChange, Seat
from moderation import actions as moderation
from moderation.models import AuditLog
from tests.factories import every_seat_moves, ludo_state, make_match, make_user

PASSWORD = "a sturdy pass 42"


@pytest.fixture(autouse=True)
def no_effects(monkeypatch):
    """No pushes or Celery tasks: these tests look at the database."""
    from games import push, tasks

    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)
    ratelimits.reset()


@pytest.fixture
def moderator(db):
    return User.objects.create_user("mod", "mod@example.com", PASSWORD, is_staff=True)


def in_days(days):
    return timezone.now() + timedelta(days=days)


@pytest.mark.django_db
class TestBanFields:
    def test_a_ban_sets_the_fields_and_writes_an_audit_row(self, moderator):
        user = make_user()
        moderation.ban_user(moderator, user, in_days(3), "spam in chat")
        user.refresh_from_db()
        assert user.is_banned and user.ban_reason == "spam in chat"
        row = AuditLog.objects.get()
        assert (row.actor, row.action, row.target_user, row.reason) == (
            moderator, AuditLog.Action.BAN, user, "spam in chat")
        assert "until" in row.target and row.created_at is not None

    def test_a_ban_without_date_is_permanent(self, moderator):
        user = make_user()
        moderation.ban_user(moderator, user, None, "cheating")
        user.refresh_from_db()
        assert user.banned_until == BAN_FOREVER and user.is_banned_forever

    def test_a_suspension_ends_by_itself(self, moderator):
        user = make_user()
        User.objects.filter(pk=user.pk).update(banned_until=timezone.now() - timedelta(seconds=1))
        user.refresh_from_db()
        assert not user.is_banned

    @pytest.mark.parametrize("reason", ["", "   "])
    def test_a_reason_is_required(self, moderator, reason):
        user = make_user()
        with pytest.raises(moderation.ModerationError, match="reason"):
            moderation.ban_user(moderator, user, in_days(1), reason)
        user.refresh_from_db()
        assert not user.is_banned and not AuditLog.objects.exists()

    def test_refusals_change_nothing(self, moderator):
        user = make_user()
        with pytest.raises(moderation.ModerationError, match="future"):
            moderation.ban_user(moderator, user, in_days(-1), "late")
        with pytest.raises(moderation.ModerationError, match="yourself"):
            moderation.ban_user(moderator, moderator, in_days(1), "oops")
        boss = User.objects.create_superuser("boss", "b@example.com", PASSWORD)
        with pytest.raises(moderation.ModerationError, match="superuser"):
            moderation.ban_user(moderator, boss, in_days(1), "coup")
        assert not AuditLog.objects.exists()

    def test_unban_restores_access_and_is_recorded(self, moderator, client):
        user = make_user()
        moderation.ban_user(moderator, user, None, "abuse")
        moderation.unban_user(moderator, user, "appeal accepted")
        user.refresh_from_db()
        assert not user.is_banned and user.banned_until is None and user.ban_reason == ""
        assert list(AuditLog.objects.order_by("pk").values_list("action", flat=True)) == ["ban", "unban"]
        response = client.post("/login/", {"username": user.username, "password": PASSWORD})
        assert response.status_code == 302
        with pytest.raises(moderation.ModerationError, match="not banned"):
            moderation.unban_user(moderator, user, "again")


@pytest.mark.django_db
class TestLogInAndSessions:
    def test_a_banned_user_cannot_log_in_and_is_told_why(self, moderator, client):
        user = make_user()
        moderation.ban_user(moderator, user, in_days(2), "rude to players")
        response = client.post("/login/", {"username": user.username, "password": PASSWORD})
        assert response.status_code == 200
        assert SESSION_KEY not in client.session
        assert "suspended until" in response.text and "rude to players" in response.text

    def test_a_wrong_password_of_a_banned_user_reveals_nothing(self, moderator, client):
        user = make_user()
        moderation.ban_user(moderator, user, None, "secret reason")
        response = client.post("/login/", {"username": user.username, "password": "wrong one 42"})
        assert "secret reason" not in response.text and "banned" not in response.text

    def test_an_open_session_is_logged_out_on_the_next_request(self, moderator, client):
        user = make_user()
        client.force_login(user)
        assert client.get("/").context["user"] == user
        moderation.ban_user(moderator, user, None, "cheating")
        response = client.get("/", follow=True)
        assert not response.context["user"].is_authenticated
        assert SESSION_KEY not in client.session
        assert "This account is banned. Reason: cheating." in response.text
        # And pages that need a log-in send them to it.
        assert client.get("/password/change/").status_code == 302

    def test_unbanned_users_keep_their_sessions(self, client):
        user = make_user()
        client.force_login(user)
        client.get("/")
        assert client.session[SESSION_KEY] == str(user.pk)


@pytest.mark.django_db
class TestLiveSeats:
    def test_a_banned_players_ranked_match_rates_them_as_the_leaver(self, moderator):
        match = every_seat_moves(make_match(seats=("human", "human"), state=ludo_state(), rated=True))
        stayer, banned = (match.seats.get(index=i).user for i in (0, 1))
        left = moderation.ban_user(moderator, banned, None, "cheating")
        assert left == [match.public_id]
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert match.seats.get(user=banned).status == Seat.Status.LEFT
        assert match.seats.get(user=stayer).rank == 1 and match.seats.get(user=banned).rank == 2
        assert Rating.objects.get(user=stayer).rating > 1500 > Rating.objects.get(user=banned).rating
        assert RatingChange.objects.filter(match=match).count() == 2

    def test_in_a_three_seat_match_the_others_play_on(self, moderator):
        match = make_match(seats=("human", "human", "human"), state=ludo_state(3), rated=True)
        banned = match.seats.get(index=2).user
        moderation.ban_user(moderator, banned, in_days(1), "abuse")
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE
        assert match.seats.get(index=2).status == Seat.Status.LEFT
        assert match.moves.filter(notation__startswith="leave").exists()
        # When the match ends, the banned seat ranks last.
        actions.leave_match(match.public_id, match.seats.get(index=1).user)
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        ranks = dict(match.seats.values_list("index", "rank"))
        assert ranks[0] == 1 and ranks[2] == 3

    def test_a_match_against_computers_is_aborted(self, moderator):
        match = make_match(seats=("human", "normal"), state=ludo_state())
        user = match.seats.get(index=0).user
        moderation.ban_user(moderator, user, None, "abuse")
        match.refresh_from_db()
        assert match.status == Match.Status.ABORTED and match.end_reason == "no_humans_left"

    def test_finished_matches_are_left_alone(self, moderator):
        match = make_match(seats=("human", "human"), state=ludo_state())
        user = match.seats.get(index=0).user
        actions.leave_match(match.public_id, match.seats.get(index=1).user)
        assert moderation.ban_user(moderator, user, None, "x") == []

    def test_a_banned_player_cannot_send_moves(self):
        match = make_match(seats=("human", "human"), state=ludo_state())
        user = match.seats.get(index=0).user
        User.objects.filter(pk=user.pk).update(banned_until=BAN_FOREVER)
        with pytest.raises(actions.NotAllowed, match="banned"):
            actions.play_move(match.public_id, user, "roll", match.version)
        assert Match.objects.get(pk=match.pk).version == match.version


@pytest.mark.django_db
class TestQueuesAndRooms:
    def test_a_ban_takes_the_user_out_of_the_queue(self, moderator):
        from matchmaking.models import QueueEntry
        from matchmaking.queue import actions as queue_actions

        user = make_user()
        queue_actions.join_queue(user, "ludo", 2)
        moderation.ban_user(moderator, user, None, "x")
        assert not QueueEntry.objects.filter(user=user).exists()

    def test_a_ban_takes_the_user_out_of_room_lobbies(self, moderator, monkeypatch):
        from matchmaking.models import RoomMember, RoomSeat
        from matchmaking.rooms import actions as rooms
        from matchmaking.rooms import push as room_push

        monkeypatch.setattr(room_push, "room_updated", lambda *a, **k: None)
        host, friend = make_user(), make_user()
        room = rooms.do_create_room(host, "ludo", 2)
        _invite, token = rooms.do_create_invite(room.code, host)
        rooms.do_redeem_invite(token, friend)
        moderation.ban_user(moderator, friend, None, "x")
        assert RoomMember.objects.get(room=room, user=friend).status == RoomMember.Status.LEFT
        assert not RoomSeat.objects.filter(room=room, user=friend).exists()

    def test_a_banned_user_cannot_queue_or_join_a_room(self, monkeypatch):
        from matchmaking.models import QueueEntry, RoomMember
        from matchmaking.queue import actions as queue_actions
        from matchmaking.rooms import actions as rooms
        from matchmaking.rooms import push as room_push

        monkeypatch.setattr(room_push, "room_updated", lambda *a, **k: None)
        host, banned = make_user(), make_user()
        room = rooms.do_create_room(host, "ludo", 2)
        _invite, token = rooms.do_create_invite(room.code, host)
        User.objects.filter(pk=banned.pk).update(banned_until=BAN_FOREVER)
        banned.refresh_from_db()
        with pytest.raises(queue_actions.QueueError):
            queue_actions.join_queue(banned, "ludo", 2)
        with pytest.raises(rooms.NotAllowed, match="banned"):
            rooms.do_redeem_invite(token, banned)
        with pytest.raises(rooms.NotAllowed, match="banned"):
            rooms.do_create_room(banned, "ludo", 2)
        assert not QueueEntry.objects.filter(user=banned).exists()
        assert not RoomMember.objects.filter(user=banned).exists()
