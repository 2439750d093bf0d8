"""nginx (deploy/nginx.conf.template, as ``make cluster`` writes it) never
takes a web process out of its rotation for a failed request: by default one
failure did, for 10 s, and when the database was away a little over 4 s the
handshakes it reset took both web processes out at once, so the whole site
answered 502 for 10 s after the database was back (config/cluster.py).

A real nginx in front of a real daphne and a second web process that is
down (nginx ignores failures when it has one server only): the daphne is
stopped (a request fails on both) and started again on the same port; the
next request through nginx works."""

import os

import pytest

from tests import services

pytestmark = [pytest.mark.slow, pytest.mark.resilience]


def test_a_web_process_back_after_a_failure_gets_requests_again_at_once(transactional_db, django_db_blocker):
    if not os.path.exists(services.NGINX):
        pytest.skip(f"nginx is not installed ({services.NGINX}): apt-get install nginx")
    port = services.free_port()
    with django_db_blocker.unblock():
        web, direct = services.start_daphne("daphne-upstream", port, **services.behind_proxy())
        down = services.free_port()  # a web process that is down: nothing listens there
        proxy, base = services.start_nginx([port, down], name="nginx-upstream")
    try:
        assert services.http_status(f"{base}/healthz") == 200
        web.stop()
        assert services.http_status(f"{base}/healthz") == 502  # nginx saw the process fail
        with django_db_blocker.unblock():
            web, direct = services.start_daphne("daphne-upstream-again", port, **services.behind_proxy())
        assert services.http_status(f"{direct}/healthz") == 200
        # Before: 502 for the next 10 s (fail_timeout), though the process was back.
        assert [services.http_status(f"{base}/healthz") for _ in range(3)] == [200, 200, 200]
    finally:
        web.stop()
        proxy.stop()
