"""Open sockets end with their session (accounts/sockets.py, "Sessions"), on a
real daphne and Redis: log-out closes every socket of that session (match,
room, queue, arena, the user socket) with 4002 at once, and no other; a
password change closes the user's sockets of every other session and keeps
those of the session that made it, which follow its new key; a reset closes
them all. As a backstop each process re-checks its sockets' sessions every
PARLOUR_WS_SESSION_CHECK_SECONDS: a session that ended without an event
(deleted, a password set in the admin's way, a ban whose event was lost)
closes its sockets too, and the renewed session of a password change
survives the re-check."""

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.close_codes import CLOSE_BANNED, CLOSE_SIGNED_OUT
from accounts.models import BAN_FOREVER, User
from tests import services
from tests.factories import ludo_state, make_match, make_user
from tests.live_sockets import LiveSocket, cookie_of, every_kind_of_socket, open_all, signed_in_client

pytestmark = [pytest.mark.slow]

PASSWORD = "a sturdy pass 42"  # tests.factories.make_user's
NEW_PASSWORD = "another sturdy pass 43"
#: Seconds within which an event closes a socket: far below the re-check's
#: 60 s on the session's daphne, so only the event can have closed it.
AT_ONCE = 5

CHECK_SECONDS = 0.2


@pytest.fixture(autouse=True)
def _close_sockets():
    yield
    LiveSocket.close_all()


def change_password(client, old=PASSWORD, new=NEW_PASSWORD) -> None:
    response = client.post(reverse("password_change"),
                           {"old_password": old, "new_password1": new, "new_password2": new})
    assert response.status_code == 302, response.content[:500]


def test_log_out_closes_every_socket_of_that_session_at_once_and_no_other(live_server_url):
    user = make_user()
    leaving, staying = signed_in_client(user), signed_in_client(user)
    paths = every_kind_of_socket(user)
    theirs = open_all(live_server_url, paths, cookie_of(leaving))
    other = open_all(live_server_url, {"match": paths["match"], "notify": "/ws/notify/"}, cookie_of(staying))

    assert leaving.post(reverse("logout")).status_code == 302

    closed = {kind: ws.close_code(AT_ONCE) for kind, ws in theirs.items()}
    assert closed == dict.fromkeys(paths, CLOSE_SIGNED_OUT)
    assert all(ws.answers() for ws in other.values())


def test_a_password_change_closes_the_other_sessions_sockets_and_keeps_its_own(live_server_url):
    user = make_user()
    stolen, changing = signed_in_client(user), signed_in_client(user)
    paths = every_kind_of_socket(user)
    theirs = open_all(live_server_url, paths, cookie_of(stolen))
    mine = open_all(live_server_url, {"match": paths["match"], "notify": "/ws/notify/"}, cookie_of(changing))

    change_password(changing)

    closed = {kind: ws.close_code(AT_ONCE) for kind, ws in theirs.items()}
    assert closed == dict.fromkeys(paths, CLOSE_SIGNED_OUT)
    assert all(ws.answers() for ws in mine.values())
    # They follow the session's new key: its log-out reaches them.
    assert changing.post(reverse("logout")).status_code == 302
    assert [ws.close_code(AT_ONCE) for ws in mine.values()] == [CLOSE_SIGNED_OUT] * 2


def test_a_password_reset_closes_every_socket_of_the_user(live_server_url):
    user = make_user()
    match = make_match(seats=("human", "human"), users=[user], state=ludo_state())
    sockets = open_all(live_server_url, {"match": f"/ws/match/{match.public_id}/", "notify": "/ws/notify/"},
                       cookie_of(signed_in_client(user)))
    anyone = signed_in_client(make_user())  # whoever holds the e-mailed link
    link = reverse("password_reset_confirm", args=[urlsafe_base64_encode(force_bytes(user.pk)),
                                                   default_token_generator.make_token(user)])
    form = anyone.get(link)["Location"]  # the link's token moves into the session
    response = anyone.post(form, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_complete")

    assert [ws.close_code(AT_ONCE) for ws in sockets.values()] == [CLOSE_SIGNED_OUT] * 2


@pytest.fixture
def checking_server(transactional_db, django_db_blocker):
    """A daphne re-checking its sockets' sessions every CHECK_SECONDS."""
    with django_db_blocker.unblock():
        svc, url = services.start_daphne("daphne-session-check",
                                         PARLOUR_WS_SESSION_CHECK_SECONDS=str(CHECK_SECONDS))
    yield url
    svc.stop()


def test_the_session_re_check_closes_sockets_whose_session_ended_without_an_event(checking_server):
    base = checking_server
    match = make_match(seats=("human", "human"), state=ludo_state())
    path = f"/ws/match/{match.public_id}/"  # public: any signed-in watcher stays
    changer = make_user()
    changing, other = signed_in_client(changer), signed_in_client(changer)
    mine = open_all(base, {"match": path, "notify": "/ws/notify/"}, cookie_of(changing))
    theirs = open_all(base, {"match": path}, cookie_of(other))["match"]
    # A password change by the view: the other session's socket closes by its event, at once.
    change_password(changing)
    assert theirs.close_code(AT_ONCE) == CLOSE_SIGNED_OUT

    # Then sessions end with no event: logged out with the event lost (the
    # session deleted), a password set as the admin and manage.py set it, a
    # ban whose event was lost.
    quiet = {name: (make_user(), None) for name in ("logged out", "password set", "banned")}
    for name, (user, _ws) in quiet.items():
        client = signed_in_client(user)
        quiet[name] = (user, client, LiveSocket(base, path, cookie_of(client)))
        quiet[name][2].recv()
    Session.objects.filter(session_key=quiet["logged out"][1].session.session_key).delete()
    user = quiet["password set"][0]
    user.set_password(NEW_PASSWORD)
    user.save()
    User.objects.filter(pk=quiet["banned"][0].pk).update(banned_until=BAN_FOREVER)

    assert {name: ws.close_code(AT_ONCE) for name, (_u, _c, ws) in quiet.items()} == {
        "logged out": CLOSE_SIGNED_OUT, "password set": CLOSE_SIGNED_OUT, "banned": CLOSE_BANNED}
    # The re-checks that closed them checked the changing session's sockets
    # too, under its new key: they stay.
    assert all(ws.answers() for ws in mine.values())
