"""The moderation admin through the Django test client (README "Moderation"): each
action, its intermediate reason page, the audit rows, read-only records,
the seed of a live match never shown, and refusals for non-staff and for
moderators outside their permissions."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import BAN_FOREVER, Rating, User
from games import actions
from games.models import Match, RatingChange, RatingVoid
from moderation.models import AuditLog, Report
from tests.factories import ludo_state, make_match, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_effects")]

USERS = "/admin/accounts/user/"
MATCHES = "/admin/games/match/"


def near_win():
    return ludo_state(2, phase="move", die=1, pieces=[[56, 56, 56, 55], [-1] * 4])


def run_action(client, url, action, objs, **form):
    """Select ``objs`` on the change list, choose ``action``: the reason page;
    then post it with ``form`` (if given). Returns (reason page, final response)."""
    data = {"action": action, "_selected_action": [o.pk for o in objs]}
    page = client.post(url, data)
    if not form:
        return page, None
    return page, client.post(url, {**data, "apply": "1", **form})


class TestAccess:
    @pytest.mark.parametrize("url", ["/admin/", USERS, MATCHES, "/admin/moderation/auditlog/"])
    def test_non_staff_get_the_admin_login_page(self, client, url):
        player = make_user()
        for who in (None, player):
            if who:
                client.force_login(who)
            response = client.get(url, follow=True)
            assert response.redirect_chain[-1][0].startswith("/admin/login/")
            assert "Log in" in response.text or "log in" in response.text

    def test_staff_outside_the_group_see_nothing(self, client):
        staff = User.objects.create_user("helper", "h@example.com", "a sturdy pass 42", is_staff=True)
        client.force_login(staff)
        assert client.get(MATCHES).status_code == 403
        assert client.get(USERS).status_code == 403

    def test_moderators_see_their_models_only(self, mod_client):
        index = mod_client.get("/admin/").text
        for name in ("Users", "Matches", "Ratings", "Rating changes", "Reports", "Audit log",
                     "Rooms", "Invites"):
            assert name in index
        assert "Groups" not in index
        assert mod_client.get("/admin/auth/group/").status_code == 403

    def test_moderators_cannot_add_change_or_delete_users(self, mod_client):
        user = make_user()
        assert mod_client.get(f"{USERS}add/").status_code == 403
        assert mod_client.get(f"{USERS}{user.pk}/delete/").status_code == 403
        assert mod_client.post(f"{USERS}{user.pk}/change/", {"username": "renamed"}).status_code == 403
        assert mod_client.get(f"{USERS}{user.pk}/password/").status_code == 403
        page = mod_client.get(USERS).text
        assert "delete_selected" not in page and "ban_users" in page
        mod_client.post(USERS, {"action": "delete_selected", "_selected_action": [user.pk], "post": "yes"})
        assert User.objects.filter(pk=user.pk, username=user.username).exists()

    def test_ratings_and_audit_rows_are_read_only_even_for_superusers(self, client, superuser, moderator):
        a, b = make_user(), make_user()
        make_match(seats=("human", "human"), users=[a, b], state=near_win(), rated=True)
        rating, change = Rating.objects.get(user=a), RatingChange.objects.get(user=a)
        log = AuditLog.objects.create(actor=moderator, action="ban", target_user=a, target="x", reason="y")
        for who in (moderator, superuser):
            client.force_login(who)
            for url, obj in (("/admin/accounts/rating/", rating), ("/admin/games/ratingchange/", change),
                             ("/admin/moderation/auditlog/", log)):
                assert client.get(url).status_code == 200
                assert client.get(f"{url}add/").status_code == 403
                assert client.get(f"{url}{obj.pk}/delete/").status_code == 403
                view = client.get(f"{url}{obj.pk}/change/")
                assert view.status_code == 200 and 'name="_save"' not in view.text
                assert client.post(f"{url}{obj.pk}/change/", {"rating": "3000"}).status_code == 403
        assert Rating.objects.get(pk=rating.pk).rating == rating.rating


class TestUsers:
    def test_search_and_filters(self, mod_client):
        ada, bob = make_user("ada"), make_user("bob")
        User.objects.filter(pk=bob.pk).update(banned_until=BAN_FOREVER, ban_reason="x")
        User.objects.filter(pk=ada.pk).update(date_joined=timezone.now() - timedelta(days=400))

        def names(query):
            text = mod_client.get(USERS + query).text
            return set(re.findall(r'/admin/accounts/user/\d+/change/[^"]*">([^<]+)<', text))

        assert names("?q=ad") == {"ada"}
        assert names("?banned=yes") == {"bob"}
        assert "ada" in names("?banned=no")
        assert names("?is_staff__exact=1") == {"mod"}
        week_ago = (timezone.now() - timedelta(days=7)).strftime("%Y-%m-%d")
        assert "ada" not in names(f"?date_joined__gte={week_ago}+00:00:00%2B00:00")

    def test_the_user_page_shows_ratings_matches_reports_and_history(self, mod_client, moderator):
        a, b = make_user(), make_user()
        match = make_match(seats=("human", "human"), users=[a, b], state=near_win(), rated=True)
        Report.objects.create(reporter=b, match=match, seat=match.seats.get(user=a), reported_user=a,
                              reason=Report.Reason.ABUSE, note="called me names")
        AuditLog.objects.create(actor=moderator, action="unban", target_user=a, target="user",
                                reason="appeal")
        page = mod_client.get(f"{USERS}{a.pk}/change/").text
        assert "Ratings" in page and "1520?" in page
        assert match.public_id in page
        assert "Abusive or offensive chat" in page
        assert "appeal" in page

    def test_ban_through_the_admin_asks_for_a_reason_and_records_it(self, mod_client, moderator):
        user = make_user()
        page, done = run_action(mod_client, USERS, "ban_users", [user])
        assert page.status_code == 200 and "reason" in page.text and user.username in page.text
        _, done = run_action(mod_client, USERS, "ban_users", [user], reason="")
        assert done.status_code == 200 and "This field is required" in done.text
        assert not User.objects.get(pk=user.pk).is_banned
        until = (timezone.now() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")
        _, done = run_action(mod_client, USERS, "ban_users", [user], reason="spam", length="suspend",
                             until=until)
        assert done.status_code == 302
        user.refresh_from_db()
        assert user.is_banned and not user.is_banned_forever and user.ban_reason == "spam"
        row = AuditLog.objects.get(action="ban")
        assert (row.actor, row.target_user, row.reason) == (moderator, user, "spam")

    def test_a_past_date_is_refused(self, mod_client):
        user = make_user()
        _, done = run_action(mod_client, USERS, "ban_users", [user], reason="x", length="suspend",
                             until="2020-01-01T00:00")
        assert done.status_code == 200 and "future" in done.text
        assert not User.objects.get(pk=user.pk).is_banned

    @pytest.mark.parametrize("data,error", [
        ({}, "This field is required"),  # no choice of length: nothing is taken for permanent
        ({"length": "suspend"}, "A suspension needs its end"),  # an end left empty, or typed half
        ({"length": "suspend", "until": "2031-02-30T25:00"}, "Enter a valid date/time"),
        ({"length": "permanent", "until": "2031-01-01T10:00"}, "A permanent ban has no end date"),
        ({"length": "forever"}, "Select a valid choice"),
    ])
    def test_a_ban_whose_length_is_not_clear_is_refused_and_changes_nothing(self, mod_client, data, error):
        user = make_user()
        _, done = run_action(mod_client, USERS, "ban_users", [user], reason="spam", **data)
        assert done.status_code == 200 and error in done.text
        assert User.objects.get(pk=user.pk).banned_until is None and not AuditLog.objects.exists()

    def test_the_end_date_is_read_in_the_moderators_time_zone(self, mod_client, moderator):
        User.objects.filter(pk=moderator.pk).update(time_zone="Asia/Tokyo")
        user = make_user()
        page, _ = run_action(mod_client, USERS, "ban_users", [user])
        assert "In your time zone, Asia/Tokyo." in page.text
        run_action(mod_client, USERS, "ban_users", [user], reason="spam", length="suspend",
                   until="2031-01-01T09:00")
        assert User.objects.get(pk=user.pk).banned_until.isoformat() == "2031-01-01T00:00:00+00:00"
        assert AuditLog.objects.get(action="ban").target.endswith("(until 2031-01-01 00:00 UTC)")

    def test_permanent_ban_and_unban(self, mod_client):
        user = make_user()
        run_action(mod_client, USERS, "ban_users", [user], reason="cheating", length="permanent")
        assert User.objects.get(pk=user.pk).is_banned_forever
        _, done = run_action(mod_client, USERS, "unban_users", [user], reason="appeal upheld")
        assert done.status_code == 302 and not User.objects.get(pk=user.pk).is_banned
        assert list(AuditLog.objects.order_by("pk").values_list("action", "reason")) == [
            ("ban", "cheating"), ("unban", "appeal upheld")]


class TestMatches:
    def test_filters(self, mod_client):
        a = make_user("alice")
        live = make_match(seats=("human", "normal"), users=[a], state=ludo_state())
        rated = make_match(seats=("human", "human"), state=near_win(), rated=True)

        def ids(query):
            text = mod_client.get(MATCHES + query).text
            return set(re.findall(r"/admin/games/match/\d+/change/[^>]*>(\w+)<", text))

        assert ids("") == {live.public_id, rated.public_id}
        assert ids("?status__exact=active") == {live.public_id}
        assert ids("?rated__exact=1") == {rated.public_id}
        assert ids("?kind__exact=ludo") == {live.public_id, rated.public_id}
        assert ids(f"?seats__user__id__exact={a.pk}") == {live.public_id}
        assert ids("?q=alice") == {live.public_id}
        today = timezone.now().strftime("%Y-%m-%d")
        assert ids(f"?created_at__gte={today}+00:00:00%2B00:00") == {live.public_id, rated.public_id}

    def test_the_seed_of_a_live_match_is_never_shown(self, mod_client, client, superuser):
        live = make_match(seats=("human", "human"), state=ludo_state())
        actions.play_move(live.public_id, live.seats.get(index=0).user, "roll", live.version)
        live.refresh_from_db()
        for c in (mod_client,):
            page = c.get(f"{MATCHES}{live.pk}/change/").text
            assert live.seed not in page and "revealed seed" not in page.lower()
            assert live.seed_hash in page and "Seats" in page and "Moves" in page and "roll" in page
        client.force_login(superuser)
        assert live.seed not in client.get(f"{MATCHES}{live.pk}/change/").text
        assert live.seed not in client.get(MATCHES).text
        over = make_match(seats=("human", "human"), state=near_win())
        over.refresh_from_db()
        assert over.seed in mod_client.get(f"{MATCHES}{over.pk}/change/").text

    def test_abort_through_the_admin(self, mod_client, moderator):
        match = make_match(seats=("human", "human"), state=ludo_state(), rated=True)
        page, done = run_action(mod_client, MATCHES, "abort_matches", [match], reason="stuck match")
        assert done.status_code == 302
        match.refresh_from_db()
        assert match.status == Match.Status.ABORTED and match.end_reason == "moderator"
        assert not RatingChange.objects.exists()
        rows = AuditLog.objects.filter(action="abort")
        assert rows.count() == 2 and all(r.reason == "stuck match" and r.actor == moderator for r in rows)
        # A second abort is refused with a message; nothing more is recorded.
        run_action(mod_client, MATCHES, "abort_matches", [match], reason="again")
        assert AuditLog.objects.filter(action="abort").count() == 2

    def test_void_through_the_admin(self, mod_client):
        match = make_match(seats=("human", "human"), state=near_win(), rated=True)
        _, done = run_action(mod_client, MATCHES, "void_matches", [match], reason="collusion")
        assert done.status_code == 302
        assert RatingVoid.objects.filter(match=match).count() == 2
        assert all(r.rating == 1500 and r.games == 0 for r in Rating.objects.all())
        assert "collusion" in mod_client.get(f"{MATCHES}{match.pk}/change/").text

    def test_staff_without_the_abort_permission_cannot_abort(self, client):
        from django.contrib.auth.models import Permission

        staff = User.objects.create_user("viewer", "v@example.com", "a sturdy pass 42", is_staff=True)
        staff.user_permissions.add(Permission.objects.get(codename="view_match"))
        client.force_login(staff)
        match = make_match(seats=("human", "normal"), state=ludo_state())
        assert "abort_matches" not in client.get(MATCHES).text
        run_action(client, MATCHES, "abort_matches", [match], reason="x")
        assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
        assert not AuditLog.objects.exists()


class TestRoomsAndInvites:
    def test_see_rooms_and_revoke_an_invite(self, mod_client, moderator, monkeypatch,
                                            django_capture_on_commit_callbacks):
        from matchmaking.models import Invite
        from matchmaking.rooms import actions as rooms
        from matchmaking.rooms import push as room_push

        sent = []
        monkeypatch.setattr(room_push, "room_updated", lambda *a: sent.append(a))
        host = make_user()
        room = rooms.do_create_room(host, "ludo", 2)
        invite, _token = rooms.do_create_invite(room.code, host)
        assert room.code in mod_client.get("/admin/matchmaking/room/").text
        assert mod_client.get(f"/admin/matchmaking/room/{room.pk}/change/").status_code == 200
        page = mod_client.get("/admin/matchmaking/invite/").text
        assert "Unused" in page and invite.token_hash not in page
        with django_capture_on_commit_callbacks(execute=True):
            _, done = run_action(mod_client, "/admin/matchmaking/invite/", "revoke_invites", [invite],
                                 reason="spammed in public")
        assert done.status_code == 302
        invite.refresh_from_db()
        assert invite.state() == Invite.State.REVOKED
        row = AuditLog.objects.get(action="revoke_invite")
        assert row.reason == "spammed in public" and room.code in row.target and row.target_user == host
        assert sent == [(room.code, room.version + 2)]  # the lobby, pushed after commit
        # Used, expired or revoked invites stay as they are.
        run_action(mod_client, "/admin/matchmaking/invite/", "revoke_invites", [invite], reason="x")
        assert AuditLog.objects.filter(action="revoke_invite").count() == 1


def test_the_players_see_that_a_moderator_aborted_the_match(client, moderator):
    from moderation import actions as moderation

    match = make_match(seats=("human", "human"), state=ludo_state())
    moderation.abort_match(moderator, match.public_id, "stuck")
    client.force_login(match.seats.get(index=0).user)
    page = client.get(f"/m/{match.public_id}/").text
    assert "Match aborted</strong> by a moderator" in page
