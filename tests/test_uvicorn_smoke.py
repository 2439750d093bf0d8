"""The socket smoke module on uvicorn, the production layout's server
(config.servers.production_argv; README "Production layout"): a few socket
tests of the suite, and one of its own, against a real uvicorn process.

The rest of the suite runs on daphne, the server of ``make run`` and the
browser tests (``make cluster``'s fault test, tests/resilience/test_supervisor.py,
runs uvicorn too). Imported tests run here with this module's
``daphne_server`` fixture, which starts uvicorn instead; they keep their own
marks (database access), not their modules' (this module is ``slow``, so it
runs in CI's SQLite pass, once).
"""

import re

import pytest

from config import servers
from games.engine import get_rules
from games.models import Match
from tests import services
from tests.core.test_websocket_origin import (  # noqa: F401 - collected here, on uvicorn
    test_a_real_server_refuses_a_foreign_origin_at_the_handshake,
)
from tests.factories import ludo_state, make_match
from tests.games.test_frame_sizes import (  # noqa: F401 - collected here, on uvicorn
    test_a_seat_whose_frames_pass_64_kb_gets_them_all_over_a_real_server,
)
from tests.resilience.test_faults import (  # noqa: F401 - collected here, on uvicorn
    test_an_offline_client_is_brought_up_to_date_and_its_old_moves_refused,
)

pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module")
def daphne_server(django_db_setup, django_db_blocker):
    """One uvicorn process for this module (in place of tests/conftest.py's daphne); its base URL."""
    port = services.free_port()
    with django_db_blocker.unblock():
        svc, url = services.start_daphne("uvicorn", port, argv=servers.production_argv("127.0.0.1", port))
    yield url
    svc.stop()


def _version(frame: str) -> int:
    return int(re.search(r'id="frame-version" data-version="(\d+)"', frame).group(1))


def test_on_uvicorn_every_socket_gets_one_frame_a_change_in_order_and_oversized_frames_close(
        live_server_url):
    """Two players and an anonymous spectator: each socket gets its snapshot,
    then exactly one frame per change, in version order, with no rack or
    controls of another seat; a frame over PARLOUR_WS_MAX_FRAME closes with
    the app's 4009; one over the server's limit closes with uvicorn's 1009."""
    rules = get_rules("ludo")
    match = make_match(seats=("human", "human"), state=ludo_state())
    users = {s.index: s.user for s in match.seats.select_related("user")}
    sockets = {key: services.WsPlayer(live_server_url, user).connect(match.public_id)
               for key, user in (("seat0", users[0]), ("seat1", users[1]), ("watcher", None))}
    for ws in sockets.values():
        ws.until_version(match.version)
        ws.frames.clear()
    start = match.version
    for _ in range(6):
        m = Match.objects.get(pk=match.pk)
        state = rules.load(m.state)
        seat = rules.to_move(state)
        sockets[f"seat{seat}"].send(move=str(rules.legal_moves(state)[0]), version=str(m.version))
        sockets["watcher"].until_version(m.version + 1)
    end = Match.objects.get(pk=match.pk).version
    assert end > start
    for key, ws in sockets.items():
        if not ws.frames or _version(ws.frames[-1]) != end:  # the watcher's loop read it already
            ws.until_version(end)
        versions = [_version(f) for f in ws.frames if 'id="frame-version"' in f]
        assert versions == list(range(start + 1, end + 1)), (key, versions)  # one a change, in order
    assert not any('id="controls"' in f for f in sockets["watcher"].frames)

    codes = services.close_codes(live_server_url, users[0], match.public_id,
                                 (10_000, servers.WS_MAX_MESSAGE + 1))
    assert codes == [4009, 1009]
    # The server stays healthy: the match's sockets still hear its changes.
    m = Match.objects.get(pk=match.pk)
    state = rules.load(m.state)
    sockets[f"seat{rules.to_move(state)}"].send(move=str(rules.legal_moves(state)[0]), version=str(m.version))
    for ws in sockets.values():
        ws.until_version(m.version + 1)
        ws.close()
