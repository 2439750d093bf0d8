"""Follows: the profile's Follow and Unfollow buttons (POST, CSRF, signed
in), refused for yourself, a closed account or an unknown name (nothing
changed); following is public (counts and lists on every profile); the
list of the people you follow shows who is online (a socket open, read from
the socket slots) and who is in a live match: a watch link for a public
one, "playing" without a link for a private one, and a Challenge link."""

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from config.routing import websocket_urlpatterns
from core.sockets import presence
from core.sockets.caps import slots
from games import push, tasks
from games.time_controls import DAY
from people import actions
from people.models import Follow
from tests.factories import ludo_state, make_match, make_user


@pytest.fixture(autouse=True)
def no_match_tasks(monkeypatch):
    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def follows(user) -> list[str]:
    return sorted(Follow.objects.filter(follower=user).values_list("followed__username", flat=True))


@pytest.mark.django_db
def test_follow_and_unfollow_from_the_profile_are_public():
    ann, bob = make_user("ann"), make_user("bob")
    client = signed_in(ann)
    page = client.get("/u/bob/").content.decode()
    assert "0 followers" in page and 'action="/u/bob/follow/"' in page
    response = client.post("/u/BOB/follow/", follow=True)
    assert response.redirect_chain[-1][0] == "/u/bob/"
    assert "You follow bob." in response.content.decode()
    assert 'action="/u/bob/unfollow/"' in response.content.decode()
    client.post("/u/bob/follow/")  # again: nothing more
    assert follows(ann) == ["bob"] and Follow.objects.count() == 1
    # Public, like Lichess: anyone sees the counts and the lists.
    visitor = Client()
    assert "1 follower" in visitor.get("/u/bob/").content.decode()
    assert "1 following" in visitor.get("/u/ann/").content.decode()
    assert 'href="/u/ann/"' in visitor.get("/u/bob/followers/").content.decode()
    assert 'href="/u/bob/"' in visitor.get("/u/ann/following/").content.decode()
    assert "Follow</button>" not in visitor.get("/u/bob/").content.decode()
    response = client.post("/u/bob/unfollow/", follow=True)
    assert "You no longer follow bob." in response.content.decode()
    assert follows(ann) == [] and "0 followers" in visitor.get("/u/bob/").content.decode()
    again = client.post("/u/bob/unfollow/", follow=True)  # not following: said so, nothing changes
    assert "You were not following bob." in again.content.decode()
    assert "You no longer follow" not in again.content.decode() and follows(ann) == []
    assert bob.pk  # bob was never changed by any of it


@pytest.mark.django_db
def test_refusals_change_nothing():
    ann, gone = make_user("ann"), make_user("gone")
    User.objects.filter(pk=gone.pk).update(is_active=False)
    client = signed_in(ann)
    for path, message in (("/u/ann/follow/", "You cannot follow yourself."),
                          ("/u/gone/follow/", "That account is closed."),
                          ("/u/nobody/follow/", "There is no player with that name.")):
        response = client.post(path, follow=True)
        assert message in response.content.decode(), path
    assert Follow.objects.count() == 0
    assert client.get("/u/ann/follow/").status_code == 405  # GET never follows
    anonymous = Client().post("/u/ann/follow/")
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(make_user("cat"))
    assert strict.post("/u/ann/follow/").status_code == 403  # no CSRF token
    assert Follow.objects.count() == 0
    assert "Follow</button>" not in client.get("/u/ann/").content.decode()  # not on your own profile


@pytest.mark.django_db
def test_a_closed_account_leaves_the_lists_and_the_cap_holds(monkeypatch):
    monkeypatch.setattr(actions, "MAX_FOLLOWING", 3)
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    Follow.objects.create(follower=ann, followed=bob)
    Follow.objects.create(follower=cat, followed=bob)
    User.objects.filter(pk=cat.pk).update(is_active=False)
    assert "1 follower" in Client().get("/u/bob/").content.decode()
    assert 'href="/u/cat/"' not in Client().get("/u/bob/followers/").content.decode()
    others = [make_user(f"many{i}") for i in range(3)]
    Follow.objects.bulk_create(Follow(follower=ann, followed=u) for u in others[:2])  # and bob: 3
    response = signed_in(ann).post("/u/many2/follow/", follow=True)
    assert "You follow 3 players already: unfollow one first." in response.content.decode()
    assert Follow.objects.filter(follower=ann).count() == 3


@pytest.mark.django_db
def test_the_following_list_shows_who_plays_what_and_links_only_public_matches():
    me = make_user("me")
    public_player, private_player, slow_player, idle = (make_user(n) for n in
                                                        ("pub", "priv", "slow", "idle"))
    for u in (public_player, private_player, slow_player, idle):
        Follow.objects.create(follower=me, followed=u)
    public = make_match(seats=("human", "normal"), users=[public_player], state=ludo_state())
    make_match(seats=("human", "normal"), users=[private_player], state=ludo_state(), is_public=False)
    make_match(seats=("human", "normal"), users=[slow_player], state=ludo_state(), turn_seconds=DAY)
    page = signed_in(me).get("/people/following/")
    html = page.content.decode()
    rows = {r.user.username: r for r in page.context["rows"]}
    assert rows["pub"].match.public_id == public.public_id
    assert f'href="/m/{public.public_id}/" class="watch"' in html
    assert rows["priv"].match is not None and "Playing (a private match)" in html
    assert html.count('class="watch"') == 1  # the private match has no link
    assert rows["slow"].match is None and rows["idle"].match is None  # turn-based is not "in a match now"
    assert html.count('class="challenge"') == 4 and 'href="/u/idle/#challenge-heading"' in html
    assert [r.user.username for r in page.context["rows"]][:2] == ["priv", "pub"]  # playing first
    assert Client().get("/people/following/").status_code == 302  # yours only: sign in


@pytest.mark.django_db
def test_the_following_list_shows_who_is_online():
    me, friend = make_user("me"), make_user("friend")
    Follow.objects.create(follower=me, followed=friend)
    client = signed_in(me)
    assert '<span class="offline">Offline</span>' in client.get("/people/following/").content.decode()
    # A socket's slot, as every socket of a signed-in person takes it (the next test).
    async_to_sync(slots.admit)(f"u:{friend.pk}", "specific.test!friend")
    try:
        assert '<span class="online">Online</span>' in client.get("/people/following/").content.decode()
    finally:
        async_to_sync(slots.release)(f"u:{friend.pk}", "specific.test!friend")
    assert '<span class="offline">Offline</span>' in client.get("/people/following/").content.decode()


router = URLRouter(websocket_urlpatterns)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_online_while_a_socket_is_open_and_not_after():
    """The socket's person is in its scope, as the session put it there (the
    database is allowed: the consumer's database thread may find a connection an
    earlier test left open and close it)."""
    friend, other = User(pk=900_001, username="friend"), User(pk=900_002, username="other")
    comm = WebsocketCommunicator(router, "/ws/notify/")
    comm.scope["user"] = friend
    connected, _ = await comm.connect(timeout=5)
    assert connected
    # The consumer handles its messages in order: the answer to this one comes
    # after its connect, slot taken, is done.
    await comm.send_to(text_data='{"type": "watch", "panels": "none"}')
    assert "error" in await comm.receive_from(timeout=5)
    try:
        assert await sync_to_async(presence.online)([friend.pk, other.pk]) == {friend.pk}
    finally:
        await comm.disconnect()
    # The slot is given back as the socket closes: offline at once.
    assert await sync_to_async(presence.online)([friend.pk]) == set()
