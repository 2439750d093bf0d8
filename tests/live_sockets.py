"""Real WebSocket clients of any Parlour socket on a real server (daphne), and
the places that every kind of socket needs to stay open: what the tests of
sessions, limits and room leaving share."""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.test import Client
from django.utils import timezone


def signed_in_client(user) -> Client:
    """A test client (an HTTP session of its own) logged in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def cookie_of(client: Client | None) -> str | None:
    """The Cookie header of ``client``'s session (None: anonymous)."""
    if client is None:
        return None
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


class LiveSocket:
    """A socket of ``base`` (the server's http:// URL) on ``path``, with the
    Origin a browser sends and ``cookie`` (a Cookie header value, or None)."""

    opened: list[LiveSocket] = []  # closed by close_all()

    def __init__(self, base: str, path: str, cookie: str | None = None):
        from websockets.sync.client import connect

        headers = [("Cookie", cookie)] if cookie else []
        self.path = path
        self._connection = connect(base.replace("http://", "ws://") + path, origin=base,
                                   additional_headers=headers, proxy=None, open_timeout=10, max_size=None)
        self.ws = self._connection.__enter__()
        LiveSocket.opened.append(self)

    def recv(self, timeout: float = 5) -> str:
        return self.ws.recv(timeout=timeout)

    def close_code(self, timeout: float = 5) -> int | None:
        """Read frames (kept in ``last_frames``) until the server closes the
        socket; the code it sent. Raises AssertionError when it is still
        open after ``timeout`` s."""
        from websockets.exceptions import ConnectionClosed

        deadline = time.monotonic() + timeout
        self.last_frames = []
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{self.path} still open after {timeout} s")
                try:
                    self.last_frames.append(self.ws.recv(timeout=left))
                except TimeoutError:
                    raise AssertionError(f"{self.path} still open after {timeout} s") from None
        except ConnectionClosed as e:
            return e.rcvd.code if e.rcvd else None

    def answers(self, timeout: float = 5) -> bool:
        """Whether the socket is open and answers a frame that is not JSON
        with its error frame (the match, room and user sockets do; the queue
        and arena sockets read nothing)."""
        from websockets.exceptions import ConnectionClosed

        deadline = time.monotonic() + timeout
        try:
            self.ws.send("not json")
            while (left := deadline - time.monotonic()) > 0:
                if "error" in self.ws.recv(timeout=left):
                    return True
        except (ConnectionClosed, TimeoutError):
            return False
        return False

    def close(self) -> None:
        self.ws.close()

    @classmethod
    def close_all(cls) -> None:
        """Close every socket opened so far (a test's teardown)."""
        while cls.opened:
            cls.opened.pop().close()


def every_kind_of_socket(user):
    """For ``user``: {kind: path} of a socket of each kind that stays open
    for them: their match, their room's lobby, their ranked queue, an arena,
    the user socket. Makes what each needs."""
    from arenas.models import Arena
    from matchmaking.queue import actions as queue_actions
    from matchmaking.rooms import actions as rooms
    from tests.factories import ludo_state, make_match

    match = make_match(seats=("human", "human"), users=[user], state=ludo_state())
    room = rooms.do_create_room(user, "ludo", 2)
    queue_actions.join_queue(user, "ludo", 4)
    arena = Arena.objects.create(name="Duel", kind="ludo", seats=2, minutes=30,
                                 starts_at=timezone.now() - timedelta(minutes=1))
    return {
        "match": f"/ws/match/{match.public_id}/",
        "room": f"/ws/room/{room.code}/",
        "queue": "/ws/queue/",
        "arena": f"/ws/arena/{arena.pk}/",
        "notify": "/ws/notify/",
    }


def open_all(base: str, paths: dict[str, str], cookie: str | None) -> dict[str, LiveSocket]:
    """Open a socket on each of ``paths`` and read the first frame of those
    that send one on connect (all but the user socket): each is then in
    its groups."""
    sockets = {}
    for kind, path in paths.items():
        sockets[kind] = LiveSocket(base, path, cookie)
        if kind != "notify":
            sockets[kind].recv()
    if "notify" in sockets:  # in its groups once it answers
        assert sockets["notify"].answers()
    return sockets
