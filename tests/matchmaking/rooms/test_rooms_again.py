"""A private room after its match (README "Private rooms", "Playing again"):
back to its lobby with the same members and seats, the host starts the next
match with no new invites, the old match links to the next for members only;
and the rematch forms refuse bad input plainly."""

import pytest

from core import ratelimits
from games import actions
from games.models import Match
from matchmaking.models import RematchOffer, Room, RoomSeat
from matchmaking.rematch import actions as rematch
from matchmaking.rematch import fragments as rematch_fragments
from matchmaking.rooms import actions as rooms
from matchmaking.rooms import fragments as room_fragments
from tests.factories import make_match, make_user, play_until_every_seat_moved, start_room_match


@pytest.fixture(autouse=True)
def quiet(monkeypatch):
    ratelimits.reset()
    from games import tasks

    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)
    yield
    ratelimits.reset()


def room_of(match):
    return Room.objects.get(match=match)


@pytest.mark.django_db
class TestBackToTheLobby:
    def test_the_room_goes_back_to_its_lobby_and_the_host_starts_the_next_match(self):
        host, ada, bob = make_user(), make_user(), make_user()
        first = start_room_match(host, [ada, bob], computers=["easy"])
        room = room_of(first)
        assert room.status == "playing"
        actions.abort_match(first.public_id)
        room.refresh_from_db()
        assert room.status == "open" and room.match_id == first.pk  # the lobby shows the last match
        assert list(RoomSeat.objects.filter(room=room).values_list("user_id", "computer_level")) == [
            (host.pk, ""), (ada.pk, ""), (bob.pk, ""), (None, "easy")]
        for user in (host, ada, bob):
            assert rematch_fragments.panel_context(first, user.pk)["state"] == "room"
        second = rooms.do_start_room(room.code, host)  # no new invites
        assert list(second.seats.values_list("user_id", flat=True)) == [host.pk, ada.pk, bob.pk, None]
        assert not second.is_public and not second.rated
        ctx = rematch_fragments.panel_context(first, ada.pk)
        assert ctx["state"] == "started" and ctx["in_room"] and second.public_id in ctx["next_url"]
        assert RematchOffer.objects.get(match=first).room == room
        actions.abort_match(second.public_id)
        third = rooms.do_start_room(room.code, host)
        assert rematch_fragments.panel_context(second, bob.pk)["next_url"].endswith(f"/m/{third.public_id}/")

    def test_a_member_who_left_during_the_match_frees_their_seat(self):
        host, ada = make_user(), make_user()
        match = start_room_match(host, [ada])
        room = room_of(match)
        rooms.do_leave_room(room.code, ada)
        actions.leave_match(match.public_id, ada)
        room.refresh_from_db()
        assert room.status == "open"
        assert list(RoomSeat.objects.filter(room=room).values_list("user_id", flat=True)) == [host.pk, None]
        assert rematch_fragments.panel_context(match, ada.pk)["state"] == "none"

    def test_a_player_who_left_sees_the_way_on_in_place_of_the_controls(self, client):
        """Leaving a match that goes on says so, with the way on: back to the
        room's lobby for a room's match, else the play page; never a Leave button."""
        host, ada, bob = make_user(), make_user(), make_user()
        match = start_room_match(host, [ada, bob])
        actions.leave_match(match.public_id, ada)
        client.force_login(ada)
        page = client.get(f"/m/{match.public_id}/").text
        assert "You left this match: it goes on without you" in page
        assert f'href="/rooms/{room_of(match).code}/" id="after-leaving-link">Back to the room' in page
        assert "Leave the match" not in page
        public = make_match(seats=("human", "human", "easy"), users=[ada, bob])
        actions.leave_match(public.public_id, ada)
        page = client.get(f"/m/{public.public_id}/").text
        assert 'href="/play/" id="after-leaving-link">Play another match' in page
        client.force_login(bob)  # still playing: no such words
        assert "after-leaving" not in client.get(f"/m/{public.public_id}/").text

    def test_a_removed_player_is_told_nothing_of_the_next_match(self):
        host, ada, bob = make_user(), make_user(), make_user()
        first = start_room_match(host, [ada, bob])
        actions.abort_match(first.public_id)
        room = room_of(first)
        rooms.do_remove_player(room.code, host, bob.pk)
        rooms.do_set_computer(room.code, host, 2, "easy")
        rooms.do_start_room(room.code, host)
        assert rematch_fragments.panel_context(first, bob.pk)["state"] == "none"
        assert rematch_fragments.panel(first, bob.pk).count("<a ") == 0
        assert rematch_fragments.panel_context(first, ada.pk)["state"] == "started"

    def test_a_room_match_is_not_played_again_by_an_offer(self):
        host, ada = make_user(), make_user()
        match = start_room_match(host, [ada])
        actions.abort_match(match.public_id)
        with pytest.raises(rematch.RematchRefused, match="lobby"):
            rematch.do_offer(match.public_id, ada)


@pytest.mark.django_db
class TestForms:
    def test_the_rematch_button_against_computers_goes_to_the_new_match(self, client):
        user = make_user()
        match = make_match(seats=("human", "easy"), users=[user])
        actions.leave_match(match.public_id, user)
        client.force_login(user)
        page = client.get(f"/m/{match.public_id}/")
        assert b'id="rematch-button"' in page.content and b"Play again" not in page.content
        response = client.post(f"/m/{match.public_id}/rematch/")
        new = Match.objects.exclude(pk=match.pk).get()
        assert response.status_code == 302 and response["Location"] == f"/m/{new.public_id}/"
        assert b"Go to the match" in client.get(f"/m/{match.public_id}/").content

    def test_an_offer_and_its_answer_by_form(self, client):
        ada, bob = make_user(), make_user()
        match = make_match(seats=("human", "human"), users=[ada, bob], rated=True)
        play_until_every_seat_moved(match)  # so that ada's leave leaves it rated, and its rematch
        actions.leave_match(match.public_id, ada)
        client.force_login(ada)
        assert client.post(f"/m/{match.public_id}/rematch/").status_code == 302
        client.force_login(bob)
        page = client.get(f"/m/{match.public_id}/").content.decode()
        assert f"{ada.username} offers a rematch" in page and "Rated, like this match" in page
        response = client.post(f"/m/{match.public_id}/rematch/accept/")
        new = Match.objects.exclude(pk=match.pk).get()
        assert response["Location"] == f"/m/{new.public_id}/"

    @pytest.mark.parametrize("path", ["rematch/", "rematch/accept/", "rematch/decline/"])
    def test_bad_posts_are_refused_plainly_and_change_nothing(self, client, path):
        ada, bob, stranger = make_user(), make_user(), make_user()
        match = make_match(seats=("human", "human"), users=[ada, bob], rated=True)
        assert client.post(f"/m/{match.public_id}/{path}").status_code == 302  # to log in
        client.force_login(stranger)
        assert client.get(f"/m/{match.public_id}/{path}").status_code == 405
        response = client.post(f"/m/{match.public_id}/{path}", follow=True)
        assert response.status_code == 200  # the live match's page, with the refusal
        assert client.post(f"/m/nosuchmatch/{path}").status_code == 302
        assert client.post("/m/" + "x" * 300 + f"/{path}").status_code == 404
        assert Match.objects.count() == 1 and not RematchOffer.objects.exists()


@pytest.mark.django_db
class TestTheLobbyPage:
    def test_the_lobby_shows_the_last_match_as_it_ended(self, client):
        host, ada = make_user(), make_user()
        match = start_room_match(host, [ada])
        room = room_of(match)
        client.force_login(ada)
        assert "The match has started" in client.get(f"/rooms/{room.code}/").content.decode()
        actions.leave_match(match.public_id, host)  # ada is the last player left: she wins
        page = client.get(f"/rooms/{room.code}/").content.decode()
        assert f"The last match is over: {ada.username} won." in page
        assert f"/m/{match.public_id}/replay/" in page and "data-match-url" not in page
        assert "the host can start the next match" in page

    def test_a_removed_player_is_left_with_nothing_of_the_room(self, client):
        frame = room_fragments.removed_frame()
        assert 'id="room-body"' in frame and "room-code" not in frame and "chat" not in frame
        host, ada = make_user(), make_user()
        room = rooms.do_create_room(host, "ludo", 2)
        _invite, token = rooms.do_create_invite(room.code, host)
        rooms.do_redeem_invite(token, ada)
        rooms.do_remove_player(room.code, host, ada.pk)
        client.force_login(ada)
        page = client.get(f"/rooms/{room.code}/")
        assert page.status_code == 404 and room.code not in page.content.decode()

    def test_a_new_invite_has_a_copy_button_the_script_shows(self, client):
        host = make_user()
        room = rooms.do_create_room(host, "ludo", 2)
        client.force_login(host)
        page = client.post(f"/rooms/{room.code}/invite/", follow=True).content.decode()
        assert 'id="copy-invite"' in page and 'data-copy="new-invite-link"' in page
