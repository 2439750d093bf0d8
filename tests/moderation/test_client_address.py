"""One notion of the client's address (core/proxy.py), through real servers:
the web process started as deploy/Procfile starts it, behind a real nginx
with deploy/nginx.conf.template and without one. A client writing its own
X-Forwarded-For (a new address on every request) still gets the log-in
lockout after 5 failures and still meets the invite limit per address."""

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client

from core import ratelimits
from matchmaking.rooms.actions import REDEEM_RATES
from tests import services
from tests.factories import make_user

pytestmark = pytest.mark.slow

PASSWORD = "a sturdy pass 42"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """A cookie-keeping HTTP client that does not follow redirects and sends
    a forged X-Forwarded-For of its choosing."""

    def __init__(self, base_url: str, session: str | None = None, headers: dict | None = None):
        self.base_url = base_url
        self.headers = headers or {}
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect, urllib.request.ProxyHandler({}))
        self.session = session

    def request(self, path: str, data: dict | None = None, forged: str | None = None) -> tuple[int, str]:
        headers = dict(self.headers, **({"X-Forwarded-For": forged} if forged else {}))
        if self.session:  # with a Cookie header of its own, urllib adds none from the jar
            cookies = [f"{c.name}={c.value}" for c in self.jar]
            headers["Cookie"] = "; ".join([*cookies, f"{settings.SESSION_COOKIE_NAME}={self.session}"])
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(self.base_url + path, data=body, headers=headers)
        try:
            with self.opener.open(req, timeout=15) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def csrf_token(self, path: str) -> str:
        status, text = self.request(path)
        assert status == 200, (path, status)
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text).group(1)


def forged_addresses():
    """A new documentation-range address for every request."""
    n = 0
    while True:
        n += 1
        yield f"198.51.{n // 250}.{n % 250 + 1}"


def assert_guessing_locks_out(base_url: str, headers: dict | None = None) -> None:
    make_user("victim")
    guesser = Browser(base_url, headers=headers)
    token = guesser.csrf_token("/login/")
    forged = forged_addresses()

    def attempt(password):
        return guesser.request("/login/", {"csrfmiddlewaretoken": token, "username": "victim",
                                           "password": password}, next(forged))

    for i in range(4):
        assert attempt(f"wrong guess {i}")[0] == 200
    status, text = attempt("wrong guess 5")
    assert status == 429 and "Too many log-in attempts" in text
    assert attempt(PASSWORD)[0] == 429  # even the right password, from "another" address
    # One count, for the address the server (or the proxy) really saw.
    assert list(AccessAttempt.objects.values_list("username", "ip_address")) == [("victim", "127.0.0.1")]


def assert_invite_limit_counts_the_real_address(base_url: str, headers: dict | None = None) -> None:
    """REDEEM_RATES: 30 redemptions per address in 10 minutes (and 10 per
    user): four users spread 31 attempts, each under their own limit."""
    assert REDEEM_RATES == (("10/10minute", "user"), ("30/10minute", "ip"))
    ratelimits.reset()
    forged = forged_addresses()
    path = "/rooms/join/" + "x" * 22 + "/"
    statuses = []
    try:
        for n in range(4):
            client = Client()
            client.force_login(make_user(f"joiner{n}"))
            joiner = Browser(base_url, client.cookies[settings.SESSION_COOKIE_NAME].value, headers)
            token = joiner.csrf_token("/rooms/new/")  # the join page of a bad link has no form
            for _ in range(8 if n < 3 else 7):
                statuses.append(joiner.request(path, {"csrfmiddlewaretoken": token}, next(forged))[0])
    finally:
        ratelimits.reset()  # the count is per address: later tests redeem from 127.0.0.1 too
    assert statuses == [400] * 30 + [429]  # an unknown invite, then too many attempts


@pytest.fixture
def nginx():
    if not Path(services.NGINX).exists():
        pytest.skip(f"nginx is not installed ({services.NGINX}): apt-get install nginx")
    return services.NGINX


@pytest.fixture
def behind_nginx_and_direct(nginx, transactional_db, django_db_blocker):
    """The first web process of deploy/Procfile with TRUSTED_PROXY_COUNT=1 and
    its TRUSTED_PROXY_SECRET, behind nginx with deploy/nginx.conf.template;
    yields (nginx's base URL, the web process's own base URL)."""
    port = services.free_port()
    with django_db_blocker.unblock():
        web, direct = services.start_daphne("web1", port, argv=services.procfile_argv("web1", port),
                                            **services.behind_proxy())
    proxy = None
    try:
        proxy, url = services.start_nginx([port])
        yield url, direct
    finally:
        if proxy is not None:
            proxy.stop()
        web.stop()


@pytest.fixture
def without_proxy(transactional_db, django_db_blocker):
    """The first web process of deploy/Procfile with no proxy configured
    (TRUSTED_PROXY_COUNT=0), reached directly; yields its base URL."""
    port = services.free_port()
    with django_db_blocker.unblock():
        web, url = services.start_daphne("web1", port, argv=services.procfile_argv("web1", port),
                                         TRUSTED_PROXY_COUNT="0")
    yield url
    web.stop()


@pytest.fixture
def behind_nginx(behind_nginx_and_direct):
    return behind_nginx_and_direct[0]


def test_behind_nginx_a_forged_forwarded_for_escapes_neither_the_lockout_nor_the_invite_limit(behind_nginx):
    assert_guessing_locks_out(behind_nginx)
    assert_invite_limit_counts_the_real_address(behind_nginx)


def request_id_of(base_url: str, headers: dict) -> str:
    """The X-Request-ID the site answers a request for its home page with."""
    request = urllib.request.Request(base_url + "/", headers=headers)
    with urllib.request.urlopen(request, timeout=15) as response:
        return response.headers["X-Request-ID"]


def test_behind_nginx_a_client_that_skips_nginx_is_seen_at_its_own_address(behind_nginx_and_direct):
    """A client on the machine that talks to the web process's port itself,
    with an X-Forwarded-For of its own making (and a guessed proxy secret),
    is counted at the address it connects from. Nor does its X-Request-ID
    count, through nginx (which replaces it with its own $request_id) or
    past it (core/request_ids.py)."""
    via_nginx, direct = behind_nginx_and_direct
    guess = {"X-Parlour-Proxy": "test-proxy-secret-0123456789abcdef"}
    assert_guessing_locks_out(direct, guess)
    assert_invite_limit_counts_the_real_address(direct, guess)
    forged = {"X-Request-ID": "a-request-id-the-client-chose"}
    for base_url, headers in ((via_nginx, forged), (direct, dict(guess, **forged))):
        assert re.fullmatch(r"[0-9a-f]{32}", request_id_of(base_url, headers))


def test_without_a_proxy_a_forged_forwarded_for_is_ignored(without_proxy):
    assert_guessing_locks_out(without_proxy)
    assert_invite_limit_counts_the_real_address(without_proxy)
