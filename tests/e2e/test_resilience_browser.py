"""A server process restarted mid-match: the page reconnects by itself and
shows the current state; no move is lost or applied twice."""

import pytest
from playwright.sync_api import expect

from games import actions
from games.models import Match, Move
from tests import services
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.factories import ludo_state, make_match

pytestmark = pytest.mark.resilience


def test_server_restart_mid_match(page, transactional_db, django_db_blocker, csp_violations):
    with django_db_blocker.unblock():
        server, base = services.start_daphne("daphne-restart")
    port = int(base.rsplit(":", 1)[1])
    try:
        match = in_thread(make_match, seats=("human", "human"), state=ludo_state())
        users = {s.index: s.user for s in match.seats.select_related("user")}
        log_in(page.context, users[1], base)
        page.goto(f"{base}/m/{match.public_id}/")
        live(page)

        server.stop()
        expect(page.locator("#connection-status")).not_to_have_text("Live", timeout=20_000)
        # While the server is down, seat 0 moves (through another process).
        in_thread(actions.play_move, match.public_id, users[0], "roll", match.version)
        with django_db_blocker.unblock():
            server, _ = services.start_daphne("daphne-restart-2", port=port)

        live(page)  # reconnected by itself
        now = Match.objects.get(pk=match.pk).version
        expect(page.locator("#match")).to_have_attribute("data-version", str(now), timeout=20_000)
        expect(page.locator("#move-list")).to_contain_text("rolled")
        assert Move.objects.filter(match=match, notation="roll").count() == 1
        assert csp_violations == []
    finally:
        server.stop()
