"""Room actions: settings, invites (single use, also at the same instant;
30-minute expiry; revocation; one refusal for every bad link; rate limits),
the room code is not an invite, removal, host hand-over, closing, starting
the room's private unrated match."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core import ratelimits
from games import push
from games.models import Match
from matchmaking.models import Invite, Room, RoomMember, RoomSeat
from matchmaking.models.rooms import ROOM_CODE_ALPHABET
from matchmaking.rooms import actions as rooms
from matchmaking.rooms import push as room_push
from tests.factories import make_user
from tests.races import race


@pytest.fixture(autouse=True)
def fresh_limits():
    ratelimits.reset()
    yield
    ratelimits.reset()


@pytest.fixture
def pushed(monkeypatch):
    """Lobby frames room_push sends, as (group, event type, html); match pushes and
    Celery tasks are dropped."""
    frames = []

    async def capture(messages):
        frames.extend(messages)

    async def drop(messages, version, served=()):
        pass

    monkeypatch.setattr(room_push, "_send_all", capture)
    monkeypatch.setattr(push, "_send_all", drop)
    from games import tasks

    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)
    return frames


def make_room(host=None, seats=3, computers=None, **settings):
    host = host or make_user()
    return rooms.do_create_room(host, "ludo", seats, computers or {}, **settings)


def invite(room, host=None, now=None):
    _invite, token = rooms.do_create_invite(room.code, host or room.host, now=now)
    return token


def seat_users(room):
    return list(RoomSeat.objects.filter(room=room).order_by("index").values_list("user_id", flat=True))


@pytest.mark.django_db
class TestCreate:
    def test_the_host_takes_seat_one_and_the_room_has_a_short_readable_code(self):
        host = make_user()
        room = make_room(host, seats=4, computers={3: "strong"})
        assert len(room.code) == 6 and set(room.code) <= set(ROOM_CODE_ALPHABET)
        assert not set(room.code) & set("0O1IL")
        assert seat_users(room) == [host.pk, None, None, None]
        assert RoomSeat.objects.get(room=room, index=3).computer_level == "strong"
        assert room.host == host and room.status == "open"
        assert RoomMember.objects.get(room=room).user == host

    def test_ludo_always_has_60_seconds_and_its_forced_move_option(self):
        room = make_room(turn_seconds=30, options={"autoplay_forced": False})
        assert room.turn_seconds == 60 and room.options == {"autoplay_forced": False}
        assert make_room().options == {"autoplay_forced": True}  # the default, written down

    @pytest.mark.parametrize("kwargs", [
        {"options": {"dice": 2}},
        {"theme": "nowhere"},
        {"idle_limit": 9},
    ])
    def test_bad_settings_are_refused(self, kwargs):
        with pytest.raises(rooms.RoomError):
            make_room(**kwargs)
        assert not Room.objects.exists()

    def test_bad_seat_count_and_computer_seats_are_refused(self):
        for seats, computers in ((5, {}), (2, {0: "easy"}), (2, {1: "genius"}), (2, {2: "easy"})):
            with pytest.raises(rooms.RoomError):
                make_room(seats=seats, computers=computers)

    def test_a_map_theme_is_only_for_ludo(self):
        assert make_room(theme="south_asia").theme == "south_asia"
        with pytest.raises(rooms.RoomError):
            rooms.check_room_settings("roundabout", 2, {}, theme="south_asia")


@pytest.mark.django_db
class TestInvites:
    def test_an_invite_seats_one_person_and_stores_only_a_hash(self, pushed):
        room = make_room()
        token = invite(room)
        stored = Invite.objects.get(room=room)
        assert token not in stored.token_hash and stored.token_hash == rooms.hash_token(token)
        friend, other = make_user(), make_user()
        assert rooms.do_redeem_invite(token, friend) == room
        assert seat_users(room)[1] == friend.pk
        with pytest.raises(rooms.InviteRefused):
            rooms.do_redeem_invite(token, other)
        assert other.pk not in seat_users(room)
        stored.refresh_from_db()
        assert stored.state() == "used" and stored.used_by == friend

    def test_every_unusable_link_gets_the_same_plain_refusal(self, pushed):
        room = make_room()
        used, revoked = invite(room), invite(room)
        expired = invite(room, now=timezone.now() - timedelta(hours=1))
        rooms.do_redeem_invite(used, make_user())
        revoked_id = Invite.objects.get(token_hash=rooms.hash_token(revoked)).pk
        rooms.do_revoke_invite(room.code, room.host, revoked_id)
        messages = set()
        for token in (used, revoked, expired, "x" * 32, "short", None, 42):
            with pytest.raises(rooms.InviteRefused) as e:
                rooms.do_redeem_invite(token, make_user())
            messages.add(e.value.message)
        assert messages == {rooms.INVITE_REFUSED}

    def test_an_invite_expires_after_30_minutes(self, pushed):
        room = make_room()
        made = timezone.now()
        early, late = invite(room, now=made), invite(room, now=made)
        rooms.do_redeem_invite(early, make_user(), now=made + timedelta(minutes=29, seconds=59))
        with pytest.raises(rooms.InviteRefused):
            rooms.do_redeem_invite(late, make_user(), now=made + timedelta(minutes=30))
        states = {i.used_at is not None: i.state(made + timedelta(minutes=30)) for i in Invite.objects.all()}
        assert states == {True: "used", False: "expired"}

    def test_a_revoked_invite_cannot_be_used_and_only_the_host_revokes(self, pushed):
        room = make_room()
        token = invite(room)
        inv = Invite.objects.get(room=room)
        friend = make_user()
        with pytest.raises(rooms.NotAllowed):
            rooms.do_revoke_invite(room.code, friend, inv.pk)
        rooms.do_revoke_invite(room.code, room.host, inv.pk)
        with pytest.raises(rooms.InviteRefused):
            rooms.do_redeem_invite(token, friend)
        assert Invite.objects.get(pk=inv.pk).state() == "revoked"
        with pytest.raises(rooms.NotAllowed):  # revoked stays revoked
            rooms.do_revoke_invite(room.code, room.host, inv.pk)

    def test_only_the_host_makes_invites(self, pushed):
        room = make_room()
        friend = make_user()
        rooms.do_redeem_invite(invite(room), friend)
        with pytest.raises(rooms.NotAllowed):
            rooms.do_create_invite(room.code, friend)

    def test_the_room_code_alone_is_not_an_invite(self, pushed, client):
        room = make_room()
        stranger = make_user()
        for guess in (room.code, room.code.lower(), room.code * 3):
            with pytest.raises(rooms.InviteRefused):
                rooms.do_redeem_invite(guess, stranger)
        client.force_login(stranger)
        page = client.get(f"/rooms/{room.code}/")
        assert page.status_code == 404 and b"invite link" in page.content  # as for no room
        assert client.post(f"/rooms/join/{room.code}/").status_code == 400
        assert not RoomMember.objects.filter(room=room, user=stranger).exists()

    def test_a_full_room_keeps_the_invite_unused(self, pushed):
        room = make_room(seats=2)
        first, second = invite(room), invite(room)
        rooms.do_redeem_invite(first, make_user())
        with pytest.raises(rooms.NotAllowed):
            rooms.do_redeem_invite(second, make_user())
        assert Invite.objects.get(token_hash=rooms.hash_token(second)).state() == "unused"

    def test_redemption_attempts_are_rate_limited_per_user(self, pushed):
        room = make_room()
        guesser = make_user()
        limit = int(rooms.REDEEM_RATES[0][0].split("/")[0])
        for _ in range(limit):
            with pytest.raises(rooms.InviteRefused):
                rooms.do_redeem_invite("y" * 32, guesser)
        with pytest.raises(rooms.TooManyAttempts):
            rooms.do_redeem_invite(invite(room), guesser)  # even a good link, once over the limit

    def test_redemption_attempts_are_rate_limited_per_address(self, pushed):
        limit = int(rooms.REDEEM_RATES[1][0].split("/")[0])
        for _ in range(limit):
            with pytest.raises(rooms.InviteRefused):
                rooms.do_redeem_invite("z" * 32, make_user(), ip="192.0.2.7")
        with pytest.raises(rooms.TooManyAttempts):
            rooms.do_redeem_invite("z" * 32, make_user(), ip="192.0.2.7")
        with pytest.raises(rooms.InviteRefused):  # another address is not affected
            rooms.do_redeem_invite("z" * 32, make_user(), ip="192.0.2.8")


@pytest.mark.django_db(transaction=True)
def test_the_same_invite_used_at_the_same_instant_seats_one_person(pushed):
    room = make_room(seats=4)
    token = invite(room)
    people = [make_user() for _ in range(3)]
    results = race(*[lambda u=u: rooms.do_redeem_invite(token, u) for u in people])
    wins = [r for r in results if isinstance(r, Room)]
    assert len(wins) == 1, results
    assert all(isinstance(r, rooms.InviteRefused) for r in results if not isinstance(r, Room))
    assert sum(u is not None for u in seat_users(room)) == 2
    assert RoomMember.objects.filter(room=room).count() == 2


@pytest.mark.django_db
class TestLobby:
    def test_a_removed_player_cannot_rejoin_even_with_a_new_invite(self, pushed,
                                                                   django_capture_on_commit_callbacks):
        room = make_room()
        friend = make_user()
        rooms.do_redeem_invite(invite(room), friend)
        with pytest.raises(rooms.NotAllowed):
            rooms.do_remove_player(room.code, friend, room.host.pk)  # only the host removes
        with django_capture_on_commit_callbacks(execute=True):
            rooms.do_remove_player(room.code, room.host, friend.pk)
        assert friend.pk not in seat_users(room)
        assert RoomMember.objects.get(room=room, user=friend).status == "removed"
        assert any(g == room_push.member_group(room.code, friend.pk) and e == room_push.CLOSE_EVENT
                   for g, e, _ in pushed)
        fresh = invite(room)
        with pytest.raises(rooms.NotAllowed):
            rooms.do_redeem_invite(fresh, friend)
        assert not rooms.is_member(room, friend)
        rooms.do_redeem_invite(fresh, make_user())  # the link was not used up

    def test_the_host_fills_and_empties_computer_seats(self, pushed):
        room = make_room(seats=3)
        friend = make_user()
        rooms.do_redeem_invite(invite(room), friend)
        rooms.do_set_computer(room.code, room.host, 2, "easy")
        assert RoomSeat.objects.get(room=room, index=2).computer_level == "easy"
        with pytest.raises(rooms.NotAllowed):
            rooms.do_set_computer(room.code, room.host, 1, "easy")  # a friend sits there
        with pytest.raises(rooms.NotAllowed):
            rooms.do_set_computer(room.code, friend, 2, "")
        rooms.do_set_computer(room.code, room.host, 2, "")
        assert RoomSeat.objects.get(room=room, index=2).is_empty

    def test_a_leaving_host_hands_over_to_the_longest_seated_and_an_empty_room_closes(self, pushed):
        room = make_room(seats=4)
        now = timezone.now()
        first, second = make_user(), make_user()
        rooms.do_redeem_invite(invite(room), second, now=now + timedelta(seconds=1))
        rooms.do_redeem_invite(invite(room), first, now=now)  # took its seat earlier
        RoomMember.objects.filter(room=room, user=second).update(joined_at=now + timedelta(seconds=5))
        rooms.do_leave_room(room.code, room.host)
        room.refresh_from_db()
        assert room.host == first and room.status == "open"
        rooms.do_leave_room(room.code, first)
        room.refresh_from_db()
        assert room.host == second
        rooms.do_leave_room(room.code, second)
        room.refresh_from_db()
        assert room.status == "closed" and room.host is None
        with pytest.raises(rooms.NotAllowed):
            rooms.do_create_invite(room.code, second)

    def test_every_change_pushes_the_seats_to_the_room_and_controls_to_each_member(
            self, pushed, django_capture_on_commit_callbacks):
        room = make_room(seats=3)
        friend = make_user()
        token = invite(room)
        with django_capture_on_commit_callbacks(execute=True):
            rooms.do_redeem_invite(token, friend)
        groups = {g: html for g, _e, html in pushed}
        public = groups[room_push.room_group(room.code)]
        assert friend.username in public and 'id="room-seats"' in public
        host_controls = groups[room_push.member_group(room.code, room.host.pk)]
        friend_controls = groups[room_push.member_group(room.code, friend.pk)]
        assert "Make an invite link" in host_controls and "Remove " + friend.username in host_controls
        assert "Make an invite link" not in friend_controls and "Leave the room" in friend_controls
        assert "Make an invite link" not in public


@pytest.mark.django_db
class TestStart:
    def test_start_needs_every_seat_taken_and_makes_a_private_unrated_match(self, pushed):
        room = make_room(seats=3, theme="europe")
        friend = make_user()
        rooms.do_redeem_invite(invite(room), friend)
        with pytest.raises(rooms.NotAllowed):
            rooms.do_start_room(room.code, room.host)
        rooms.do_set_computer(room.code, room.host, 2, "normal")
        with pytest.raises(rooms.NotAllowed):
            rooms.do_start_room(room.code, friend)
        match = rooms.do_start_room(room.code, room.host)
        assert match.status == "active" and not match.is_public and not match.rated
        assert match.host == room.host and match.theme == "europe" and match.turn_seconds == 60
        assert match.options == {"autoplay_forced": True}
        seats = {s.index: s for s in match.seats.all()}
        assert seats[0].user == room.host and seats[1].user == friend and seats[2].computer_level == "normal"
        joined = dict(RoomMember.objects.filter(room=room).values_list("user_id", "joined_at"))
        assert seats[1].joined_at == joined[friend.pk]
        room.refresh_from_db()
        assert room.status == "playing" and room.match == match
        with pytest.raises(rooms.NotAllowed):
            rooms.do_redeem_invite(invite(room), make_user())

    def test_the_lobby_is_told_where_the_match_is(self, pushed, django_capture_on_commit_callbacks):
        room = make_room(seats=2, computers={1: "easy"})
        with django_capture_on_commit_callbacks(execute=True):
            match = rooms.do_start_room(room.code, room.host)
        public = [html for g, _e, html in pushed if g == room_push.room_group(room.code)][-1]
        assert f'data-match-url="/m/{match.public_id}/"' in public

    def test_a_room_match_is_for_its_members_only(self, pushed, client):
        room = make_room(seats=2, computers={1: "easy"})
        match = rooms.do_start_room(room.code, room.host)
        client.force_login(make_user())
        assert client.get(f"/m/{match.public_id}/").status_code == 404
        client.force_login(room.host)
        assert client.get(f"/m/{match.public_id}/").status_code == 200
        assert Match.objects.get(pk=match.pk).is_public is False


@pytest.mark.django_db
def test_rooms_work_for_every_game_that_can_be_played(pushed):
    from games import sites

    for kind, _label in sites.choices():
        host, friend = make_user(), make_user()
        options = {"side": "red", "one_change": False} if kind == "rondo" else {}
        room = rooms.do_create_room(host, kind, 2, {}, turn_seconds=30, idle_limit=2, options=options)
        rooms.do_redeem_invite(invite(room), friend)
        match = rooms.do_start_room(room.code, host)
        assert match.kind == kind and match.idle_limit == 2 and not match.rated and not match.is_public
        assert match.turn_seconds == (60 if kind == "ludo" else 30)
        assert match.options == room.options
        if kind == "rondo":
            assert match.options == {"side": "red", "one_change": False}
