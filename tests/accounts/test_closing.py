"""Closing an account and downloading one's data (accounts.closing,
accounts.data; docs/features.md "Closing your account and your data")."""

import json
import re
from datetime import timedelta
from unittest import mock

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone

from accounts import closing, data
from accounts.models import DELETED_NAME, Holiday, Rating, ReleasedName, User
from games.engine import fair
from games.models import Match, Move, RatingChange, Seat
from moderation.models import AuditLog
from notifications.models import MailSettings
from tests.factories import ludo_state, make_match, make_user, play_to_the_end

pytestmark = pytest.mark.django_db
PASSWORD = "a sturdy pass 42"


@pytest.fixture(autouse=True)
def no_effects(monkeypatch):
    from games import push, tasks

    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)
    monkeypatch.setattr(closing.sockets, "password_changed", lambda user_id: None)


def played_out(alice, bob):
    """A rated two-player Ludo match of alice and bob, played to its end."""
    state = ludo_state(pieces=[[56, 56, 56, 50], [56, 56, 56, 50]])
    return play_to_the_end(make_match(seats=("human", "human"), users=[alice, bob], state=state, rated=True))


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user, backend="accounts.backends.ParlourBackend")
    return client


def row(user) -> dict:
    fields = [f.attname for f in User._meta.concrete_fields]
    return dict(User.objects.filter(pk=user.pk).values(*fields).get())


def records(match) -> tuple:
    """Everything of a match that closing must leave alone."""
    return (list(Seat.objects.filter(match=match).order_by("index").values()),
            list(Move.objects.filter(match=match).order_by("ply").values()),
            list(RatingChange.objects.filter(match=match).order_by("pk").values()),
            Match.objects.filter(pk=match.pk).values().get())


def test_closing_clears_exactly_the_personal_fields_and_keeps_every_record():
    alice, bob = make_user("alice"), make_user("bob")
    match = played_out(alice, bob)
    User.objects.filter(pk=alice.pk).update(bio="I like dice", time_zone="Europe/Paris", first_name="Alice",
                                            last_name="Liddell")
    today = timezone.localdate()
    Holiday.objects.create(user=alice, starts_on=today, ends_on=today, starts_at=timezone.now(),
                           ends_at=timezone.now() + timedelta(days=1))
    MailSettings.objects.create(user=alice, results=False)
    before, kept = row(alice), records(match)
    ratings = list(Rating.objects.order_by("pk").values())

    closed = closing.close_account(User.objects.get(pk=alice.pk), PASSWORD)

    after = row(alice)
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"username", "email", "password", "is_active", "bio", "time_zone", "first_name",
                       "last_name"}
    assert re.fullmatch(r"deleted-[0-9a-f]{12}", after["username"]) and closed.is_closed
    assert after["email"] == after["bio"] == after["time_zone"] == "" and not after["is_active"]
    assert not closed.has_usable_password() and closed.display_name == DELETED_NAME
    assert records(match) == kept  # seats (the same user ids), moves, rating changes, the match
    assert list(Rating.objects.order_by("pk").values()) == ratings
    assert not Holiday.objects.filter(user=alice).exists()
    assert not MailSettings.objects.filter(user=alice).exists()
    assert ReleasedName.objects.filter(name="alice").exists()


def test_other_players_see_deleted_player_in_history_replay_export_and_no_leaderboard_row(client):
    alice, bob = make_user("alice"), make_user("bob")
    match = played_out(alice, bob)
    assert "alice" in client.get("/leaderboard/ludo/").content.decode()

    closing.close_account(alice, PASSWORD)

    history = client.get("/u/bob/matches/").content.decode()
    assert DELETED_NAME in history and "alice" not in history
    replay = client.get(f"/m/{match.public_id}/replay/")
    assert replay.status_code == 200 and DELETED_NAME in replay.content.decode()
    assert "alice" not in replay.content.decode()
    export = json.loads(client.get(f"/m/{match.public_id}/export.json").content)
    assert [p["username"] for p in export["players"]] == [DELETED_NAME, "bob"]
    assert fair.verify_record("ludo", export["seed"], export["id"], export["start_state"],
                              [m["move"] for m in export["moves"]], export["seed_commitment"]).ok
    board = client.get("/leaderboard/ludo/").content.decode()
    assert "bob" in board and "alice" not in board and DELETED_NAME not in board
    assert client.get("/u/alice/").status_code == 404


def test_the_report_form_names_a_closed_account_deleted_player():
    alice, bob = make_user("alice"), make_user("bob")
    match = played_out(alice, bob)
    closing.close_account(alice, PASSWORD)
    page = logged_in(bob).get(f"/m/{match.public_id}/report/").content.decode()
    assert DELETED_NAME in page and "deleted-" not in page


def test_the_match_page_read_before_the_close_names_deleted_player_after_it(client):
    """The match page's move list is kept per process between reads: a name
    written into it before the close is not shown after it (found in a trial:
    "Drawn to start: alice" stayed)."""
    alice, bob = make_user("alice"), make_user("bob")
    match = played_out(alice, bob)
    before = client.get(f"/m/{match.public_id}/").content.decode()
    assert "alice" in before[before.index('id="move-list"'):]
    closing.close_account(alice, PASSWORD)
    after = client.get(f"/m/{match.public_id}/").content.decode()
    assert "alice" not in after and DELETED_NAME in after[after.index('id="move-list"'):]


@pytest.mark.parametrize("turn_seconds", [30, 3 * 86400], ids=["live", "turn-based"])
def test_a_match_being_played_is_left_first_by_the_leave_rule(turn_seconds):
    alice, bob = make_user("alice"), make_user("bob")
    match = make_match(seats=("human", "human"), users=[alice, bob], state=ludo_state(),
                       turn_seconds=turn_seconds)

    closing.close_account(alice, PASSWORD)

    match.refresh_from_db()
    seats = {s.index: s for s in match.seats.all()}
    assert match.status == Match.Status.FINISHED and seats[0].status == Seat.Status.LEFT
    assert seats[0].user_id == alice.pk and seats[1].rank == 1
    assert Move.objects.filter(match=match, notation__startswith="leave").exists()


def test_the_queue_rooms_and_open_challenges_let_go_of_a_closed_account():
    from matchmaking.models import Challenge, QueueEntry, Room
    from matchmaking.rooms import actions as rooms

    alice, bob = make_user("alice"), make_user("bob")
    room = rooms.do_create_room(alice, "ludo", 2)
    now = timezone.now()
    QueueEntry.objects.create(user=alice, kind="ludo", players=2, rating=1500, joined_at=now, seen_at=now)
    challenge = Challenge.objects.create(challenger=bob, challenged=alice, kind="ludo", turn_seconds=30,
                                         created_at=now, expires_at=now + timedelta(minutes=5))

    closing.close_account(alice, PASSWORD)

    assert not QueueEntry.objects.filter(user=alice).exists()
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.CANCELLED
    room.refresh_from_db()
    assert room.status == Room.Status.CLOSED and room.host is None


def test_an_arena_player_leaves_its_match_and_is_withdrawn_and_its_row_says_deleted_player(client):
    from arenas import actions as arenas
    from arenas.models import Arena, ArenaPlayer

    arena = Arena.objects.create(name="Ludo duel", kind="ludo", seats=2, turn_seconds=30, minutes=30,
                                 starts_at=timezone.now() - timedelta(minutes=1), rated=True,
                                 rated_from_players=2)
    alice, bob = make_user("alice"), make_user("bob")
    arenas.join(alice, arena.pk)
    arenas.join(bob, arena.pk)
    arenas.pair_arena(arena.pk)
    match = Match.objects.get(seats__user=alice, status=Match.Status.ACTIVE)

    closing.close_account(alice, PASSWORD)

    assert Match.objects.get(pk=match.pk).is_over
    assert ArenaPlayer.objects.get(arena=arena, user=alice).status == ArenaPlayer.Status.WITHDRAWN
    html = client.get(f"/arenas/{arena.pk}/").content.decode()
    assert DELETED_NAME in html and "alice" not in html and "bob" in html


def test_a_wrong_password_or_a_closed_account_changes_nothing():
    alice = make_user("alice")
    client = logged_in(alice)
    before = row(alice)
    response = client.post("/account/close/", {"password": "not it"})
    assert response.status_code == 400 and "not your password" in response.content.decode()
    assert row(alice) == before
    with pytest.raises(closing.CloseError, match="already closed"):
        closing.close_account(closing.close_account(alice, PASSWORD), PASSWORD)


def test_closing_from_the_page_logs_out_every_session():
    alice = make_user("alice")
    other_device, here = logged_in(alice), logged_in(alice)
    assert other_device.get("/account/close/").status_code == 200
    response = here.post("/account/close/", {"password": PASSWORD})
    assert response.status_code == 302
    assert other_device.get("/account/close/").status_code == 302  # to the log-in page
    again = Client().post("/login/", {"username": "alice", "password": PASSWORD})
    assert again.status_code == 200 and "do not match an account" in again.content.decode()


def test_the_old_name_is_reserved_for_30_days_then_free(client):
    alice = make_user("alice")
    closing.close_account(alice, PASSWORD)
    form = {"username": "ALICE", "email": "new@example.com", "password1": "another pass 77",
            "password2": "another pass 77"}
    response = client.post("/signup/", form)
    assert response.status_code == 400 and "closed less than 30 days ago" in response.content.decode()
    assert not User.objects.filter(email="new@example.com").exists()
    released = ReleasedName.objects.get(name="alice").released_at
    assert closing.name_reserved("alice", now=released + timedelta(days=29))
    assert not closing.name_reserved("alice", now=released + timedelta(days=30, seconds=1))
    assert closing.name_reserved("Deleted-abc")  # the tombstones' prefix, whatever the case


def test_the_ban_history_stays_in_the_audit_log_without_the_name():
    from moderation.actions import ban_user

    alice, mod = make_user("alice"), make_user("mod")
    ban_user(mod, alice, timezone.now() + timedelta(days=1), "alice insulted bob")
    alice.refresh_from_db()
    closing.close_account(alice, PASSWORD)
    entry = AuditLog.objects.get(target_user=alice)
    assert entry.action == AuditLog.Action.BAN and entry.actor == mod
    assert "alice" not in entry.target.lower() and entry.reason == f"{DELETED_NAME} insulted bob"
    alice.refresh_from_db()
    assert alice.banned_until is not None and alice.ban_reason == f"{DELETED_NAME} insulted bob"


def test_a_small_accounts_data_comes_at_once_with_each_match_as_its_export():
    alice, bob = make_user("alice"), make_user("bob")
    match = played_out(alice, bob)
    client = logged_in(alice)
    response = client.post("/account/data/")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    got = json.loads(response.content)
    assert set(got) >= {"format", "account", "ratings", "rating_changes", "matches", "reports_filed",
                        "mail_settings", "challenges", "holidays"}
    assert got["account"]["username"] == "alice" and got["account"]["email"] == "alice@example.com"
    assert [r["game"] for r in got["ratings"]] == ["ludo"]
    assert got["rating_changes"][0]["match"] == match.public_id
    assert got["matches"] == [json.loads(client.get(f"/m/{match.public_id}/export.json").content)]
    assert got["mail_settings"] == {"your_turn": True, "reminders": True, "results": True}


def test_a_large_accounts_data_is_mailed_as_a_signed_link_for_its_owner_only(monkeypatch, settings):
    """Made by the Celery task's body (run in place of ``delay``) and mailed
    over real SMTP to a local aiosmtpd server (tests/mail_server.py)."""
    from accounts import tasks, views_closing
    from tests.mail_server import MailServer

    alice, bob = make_user("alice"), make_user("bob")
    played_out(alice, bob)
    monkeypatch.setattr(data, "DIRECT_MATCHES", 0)
    monkeypatch.setattr(views_closing.export_data, "delay", lambda user_id: tasks.export_data(user_id))
    owner = logged_in(alice)
    with MailServer() as server:
        settings.MAILERS = server.mailers
        response = owner.post("/account/data/")
    assert response.status_code == 302 and len(server.messages) == 1
    assert server.messages[0]["To"] == "alice@example.com"
    text = server.messages[0].get_content()
    url = re.search(rf"{re.escape(settings.SITE_URL)}(/account/data/\S+/)", text)[1]

    got = owner.get(url)
    assert got.status_code == 200 and json.loads(got.content)["account"]["username"] == "alice"
    assert logged_in(bob).get(url).status_code == 404  # not bob's
    assert Client().get(url).status_code == 302  # log in first
    forged = url.replace("/account/data/", "/account/data/x")
    assert owner.get(forged).status_code == 404
    later = timezone.now() + timedelta(days=data.LINK_DAYS, seconds=1)
    with mock.patch("time.time", return_value=later.timestamp()):
        expired = owner.get(url)
    assert expired.status_code == 410 and "expired" in expired.content.decode()
    assert data.clear_old_exports(now=later) == 1
    token = url.rsplit("/", 2)[1]
    assert signing.loads(token, salt=data.SALT)["u"] == alice.pk
