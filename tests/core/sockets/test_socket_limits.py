"""Every socket the routing serves meets the same limits (README "Decisions",
core/sockets/consumer.py "Limits"): a frame over PARLOUR_WS_MAX_FRAME bytes closes
it with 4009, more frames than its message budget with 4008, on a real
daphne; and no consumer can skip them by defining the methods they live in.
The queue and arena sockets, which read nothing, took frames of any size
without limit before."""

import pytest
from django.conf import settings

from config.routing import websocket_urlpatterns
from core.sockets.close_codes import CLOSE_FLOODING, CLOSE_TOO_LARGE
from core.sockets.consumer import SocketConsumer as ParlourConsumer
from games.consumers import NoRouteConsumer
from tests.factories import make_user
from tests.live_sockets import LiveSocket, cookie_of, every_kind_of_socket, open_all, signed_in_client

#: The path that names each routed consumer, as every_kind_of_socket makes them.
KINDS = {"MatchConsumer": "match", "RoomConsumer": "room", "QueueConsumer": "queue",
         "ArenaConsumer": "arena", "NotifyConsumer": "notify"}
#: More frames than the budget's burst (PARLOUR_WS_RATE, 20 at once).
FLOOD = 40


def routed_consumers() -> list[type]:
    return [pattern.callback.consumer_class for pattern in websocket_urlpatterns]


def test_every_routed_consumer_is_a_parlour_consumer_and_the_walk_below_knows_it():
    consumers = routed_consumers()
    assert all(issubclass(c, ParlourConsumer) for c in consumers), consumers
    assert {c.__name__ for c in consumers} == {*KINDS, NoRouteConsumer.__name__}


@pytest.mark.parametrize("name", ParlourConsumer.SEALED)
def test_a_consumer_that_defines_a_method_holding_the_limits_is_refused_when_made(name):
    async def bypass(self, *args):
        pass

    with pytest.raises(TypeError, match=name):
        type("Bypass", (ParlourConsumer,), {name: bypass})


def close_after(ws: LiveSocket, frames: list[str]) -> int | None:
    """Send ``frames`` without waiting, then the code the server closed with."""
    from websockets.exceptions import ConnectionClosed

    try:
        for frame in frames:
            ws.ws.send(frame)
    except ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else None
    return ws.close_code()


@pytest.mark.slow
def test_every_socket_closes_a_frame_over_the_limit_with_4009_and_a_flood_with_4008(live_server_url):
    user = make_user()
    paths = every_kind_of_socket(user)
    cookie = cookie_of(signed_in_client(user))
    assert set(paths) == set(KINDS.values())
    big = "x" * (settings.PARLOUR_WS_MAX_FRAME + 1)
    codes = {}
    for kind, path in paths.items():
        # Both open (past their first frame) before either is closed: a queue
        # socket closed for a bad frame takes its entry out of the queue.
        too_large = open_all(live_server_url, {kind: path}, cookie)[kind]
        # The arena's flood from an anonymous socket, as in the attack: anyone may watch an arena.
        flooding = open_all(live_server_url, {kind: path}, None if kind == "arena" else cookie)[kind]
        codes[kind] = (close_after(too_large, [big]), close_after(flooding, ["{}"] * FLOOD))
    assert codes == dict.fromkeys(paths, (CLOSE_TOO_LARGE, CLOSE_FLOODING))


@pytest.fixture(autouse=True)
def _close_sockets():
    yield
    LiveSocket.close_all()
