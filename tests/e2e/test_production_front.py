"""Production's front, for real (docs/operations.md, "From a bare Debian
machine to HTTPS"): ``collectstatic`` with STATIC_MANIFEST=1 into a temporary
STATIC_ROOT, a certificate made now, deploy/nginx-production.conf.template
rendered by ``python -m config.deploy nginx`` (and checked by its ``nginx -t``)
on free ports, a real nginx in front of a real uvicorn (the production server)
with DEBUG off, the https redirect and secure cookies on.

- every import of every collected module names a hashed file that exists,
  and a page's scripts and stylesheets are hashed names;
- plain HTTP redirects (301) to HTTPS, but for certbot's challenges;
- a page over TLS (verified against the certificate) answers 200;
- nginx serves a hashed static file with a year's immutable cache, an
  unhashed one with five minutes', text compressed;
- a match socket opens through TLS (wss) with the site's origin and gets its
  snapshot; a page of another origin is refused;
- in Chromium, the match page loads every module of its graph from nginx,
  hashed names only, and goes Live over wss.

In tests/e2e/ (``slow`` and ``e2e``: it starts real processes and a browser):
CI runs it once, in its SQLite pass.
"""

import gzip
import http.client
import json
import os
import posixpath
import re
import ssl
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from config import deploy, servers
from tests import services
from tests.e2e.test_live_play import in_thread
from tests.factories import ludo_state, make_match

pytestmark = [pytest.mark.slow]
IMMUTABLE = "public, max-age=31536000, immutable"

ROOT = Path(__file__).resolve().parents[2]
HASHED = re.compile(r"\.[0-9a-f]{12}\.[A-Za-z0-9]+$")
#: A module specifier after ``from``, after ``import`` (side-effect import) or
#: in ``import(...)``; comments, strings and template literals are matched
#: first so that the words inside them do not count.
_JS_TOKENS = re.compile(
    r"/\*.*?\*/|//[^\n]*|`(?:[^`\\]|\\.)*`"
    r"|(?<![\w$.])(?:from\s*|import\s*(?:\(\s*)?)([\"'])(?P<spec>[^\"'\n]*)\1"
    r"|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'",
    re.DOTALL,
)


def module_specifiers(source: str) -> list[str]:
    """Every module specifier in ``source`` (static imports, ``export ...
    from``, side-effect imports, dynamic ``import("...")``)."""
    return [m["spec"] for m in _JS_TOKENS.finditer(source) if m["spec"] is not None]


@pytest.fixture(scope="module")
def static_root(tmp_path_factory) -> Path:
    """STATIC_ROOT filled by ``manage.py collectstatic --noinput`` with
    STATIC_MANIFEST=1, as production runs it from a clean checkout."""
    root = tmp_path_factory.mktemp("static-root")
    env = {**os.environ, "STATIC_MANIFEST": "1", "STATIC_ROOT": str(root)}
    r = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return root


def test_the_module_scanner_finds_every_kind_of_import():
    source = """import { a } from "./a.js";\nimport * as b from '../b.js';\nimport "./c.js";
export { d } from "./d.js";\nexport * from "/static/e.js";\nconst f = await import("./f.js");
import {\n  g,\n  h,\n} from "./gh.js";\n// import x from "./no.js"\n/* import y from "./no.js" */
const s = "import z from './no.js'"; const t = `from "./no.js"`; Array.from("no");"""
    assert module_specifiers(source) == ["./a.js", "../b.js", "./c.js", "./d.js", "/static/e.js", "./f.js",
                                         "./gh.js"]


def test_every_import_in_the_collected_modules_names_a_hashed_file_that_exists(static_root):
    """Each hashed .js file collectstatic wrote (the ones {% static %} names):
    every specifier is a relative or /static/ path (no bare names: the site
    has no import map), and it resolves to a hashed name in the manifest
    whose file exists. The page's own modules are among them."""
    manifest = json.loads((static_root / "staticfiles.json").read_text())["paths"]
    hashed = set(manifest.values())
    modules = [name for name in hashed if name.endswith(".js")]
    for name in ("js/match.js", "js/board.js", "js/notify.js", "js/rondo.js"):
        assert name in manifest, name
    checked = 0
    for name in modules:
        for spec in module_specifiers((static_root / name).read_text()):
            assert spec.startswith(("./", "../", "/")), (name, spec)
            if spec.startswith("/"):
                assert spec.startswith(f"/{settings.STATIC_URL}"), (name, spec)
                target = spec[len(settings.STATIC_URL) + 1:]
            else:
                target = posixpath.normpath(posixpath.join(posixpath.dirname(name), spec))
            assert HASHED.search(target) and target in hashed, (name, spec, target)
            assert (static_root / target).is_file(), (name, spec)
            checked += 1
    assert checked >= 40  # the match page's modules import one another


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[Path, Path]:
    """A self-signed certificate for localhost, made now; (certificate, key)."""
    where = tmp_path_factory.mktemp("tls")
    cert, key = where / "fullchain.pem", where / "privkey.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost"], check=True, capture_output=True, timeout=60)
    return cert, key


class Front:
    def __init__(self, https_port: int, http_port: int, cert: Path, acme: Path):
        self.https_port, self.http_port, self.acme = https_port, http_port, acme
        self.origin = f"https://localhost:{https_port}"
        self.tls = ssl.create_default_context(cafile=str(cert))

    def get(self, path: str, *, tls: bool = True, **headers) -> http.client.HTTPResponse:
        """GET ``path`` from nginx (over TLS, the certificate verified); redirects not followed."""
        if tls:
            conn = http.client.HTTPSConnection("localhost", self.https_port, context=self.tls, timeout=20)
        else:
            conn = http.client.HTTPConnection("localhost", self.http_port, timeout=20)
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.body = response.read()
        conn.close()
        return response


@pytest.fixture(scope="module")
def front(static_root, certificate, django_db_setup, django_db_blocker, tmp_path_factory):
    """uvicorn with the production settings (STATIC_MANIFEST on, https
    redirect, secure cookies, one trusted proxy) behind production's nginx,
    rendered by the renderer's command, listening on 127.0.0.1."""
    var = tmp_path_factory.mktemp("nginx")
    acme = var / "acme"
    (acme / ".well-known" / "acme-challenge").mkdir(parents=True)
    web_port, https_port, http_port = services.free_port(), services.free_port(), services.free_port()
    production = {"STATIC_MANIFEST": "1", "STATIC_ROOT": str(static_root), "SECURE_SSL_REDIRECT": "1",
                  "SESSION_COOKIE_SECURE": "1", "CSRF_COOKIE_SECURE": "1", "SECURE_HSTS_SECONDS": "3600",
                  **services.behind_proxy()}
    with django_db_blocker.unblock():
        # It answers /healthz on its own port over plain HTTP (SECURE_REDIRECT_EXEMPT),
        # which start_daphne waits for.
        web, _ = services.start_daphne("uvicorn-front", web_port,
                                       argv=servers.production_argv("127.0.0.1", web_port), **production)
        env = services.service_env(
            **production, SERVER_NAME="localhost", TLS_CERTIFICATE=str(certificate[0]),
            TLS_CERTIFICATE_KEY=str(certificate[1]), WEB_UPSTREAMS=f"127.0.0.1:{web_port}",
            NGINX_LISTEN="127.0.0.1", NGINX_HTTPS_PORT=str(https_port), NGINX_HTTP_PORT=str(http_port),
            ACME_WEBROOT=str(acme), NGINX_ACCESS_LOG=str(var / "access.log"))
    site = var / "parlour.conf"
    r = subprocess.run([sys.executable, "-m", "config.deploy", "nginx", "--output", str(site)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "nginx -t: passed" in r.stderr, r.stderr
    conf = deploy.standalone_config(site, var)
    # One process (no master), as make cluster runs it: it reads STATIC_ROOT as
    # this test's user, where a worker would be nobody.
    proxy = services.Service("nginx-front", [services.NGINX, "-e", str(var / "error.log"), "-c", str(conf),
                                             "-g", "daemon off; master_process off;"], dict(os.environ))
    served = Front(https_port, http_port, certificate[0], acme)
    served.web_port, served.access_log = web_port, var / "access.log"

    def up():
        if not proxy.alive():
            raise AssertionError(f"nginx exited:\n{proxy.log()}")
        try:
            return served.get("/healthz").status == 200
        except OSError:
            return False

    try:
        services.wait_for(up, 20, what="nginx over TLS")
        yield served
    finally:
        proxy.stop()
        web.stop()


def test_plain_http_redirects_to_https_but_for_certbots_challenges(front):
    response = front.get("/m/abc/?x=1", tls=False, Host="localhost")
    assert response.status == 301
    assert response.getheader("Location") == f"https://localhost:{front.https_port}/m/abc/?x=1"
    (front.acme / ".well-known" / "acme-challenge" / "token-1").write_text("token-1.thumbprint")
    challenge = front.get("/.well-known/acme-challenge/token-1", tls=False, Host="localhost")
    assert (challenge.status, challenge.body) == (200, b"token-1.thumbprint")


def test_a_match_over_tls_with_hashed_static_files_from_nginx_and_its_socket_through_wss(
        front, transactional_db):
    """The match page over TLS (200, not a redirect loop: the site believes
    nginx's X-Forwarded-Proto), its scripts and stylesheets hashed names that
    nginx serves with a year's immutable cache; an unhashed copy gets five
    minutes; a module comes gzipped when asked; the match socket opens over
    wss with the page's origin and sends the snapshot, and not with another."""
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state())
    player = match.seats.get(index=0).user
    client = Client()
    client.force_login(player)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"

    page = front.get(f"/m/{match.public_id}/", Cookie=cookie)
    assert page.status == 200, page.body[:500]
    # The request id the site used (its log lines, its 500 page) is the one
    # nginx made and wrote in its access line for this request.
    request_id = page.getheader("X-Request-ID")
    assert re.fullmatch(r"[0-9a-f]{32}", request_id or ""), request_id
    requested = f'"GET /m/{match.public_id}/ HTTP/1.1" 200'

    def access_line():
        lines = front.access_log.read_text().splitlines() if front.access_log.exists() else []
        return next((entry for entry in lines if requested in entry), None)

    line = services.wait_for(access_line, 5, what="nginx's access line for the match page")
    assert line.endswith(f"id={request_id}"), line
    # A secret a client put in a URL's query string (an API token) is not logged:
    # the access line holds the path alone (docs/api.md "Tokens").
    leaked = front.get("/api/account?token=plr_never_in_a_log")
    assert leaked.status == 401
    requested = '"GET /api/account HTTP/1.1" 401'
    services.wait_for(access_line, 5, what="nginx's access line for the API call")
    assert "plr_never_in_a_log" not in front.access_log.read_text()
    assert "max-age=3600" in page.getheader("Strict-Transport-Security")
    html = page.body.decode()
    modules = re.findall(r'<script src="([^"]+)" type="module">', html)
    assets = modules + re.findall(r'<link rel="stylesheet" href="([^"]+)"', html) + re.findall(
        r'<script src="([^"]+)" defer>', html)
    assert any("/js/match." in src for src in modules) and any("/js/notify." in src for src in modules)
    for url in assets:
        assert url.startswith("/static/") and HASHED.search(url), url
        asset = front.get(url)
        assert asset.status == 200, url
        assert asset.getheader("Cache-Control") == IMMUTABLE, url
    match_js = next(src for src in modules if "/js/match." in src)
    assert front.get(match_js).getheader("Content-Type").startswith("application/javascript")
    zipped = front.get(match_js, **{"Accept-Encoding": "gzip"})
    assert zipped.getheader("Content-Encoding") == "gzip"
    assert gzip.decompress(zipped.body) == front.get(match_js).body

    unhashed = front.get("/static/js/match.js")
    assert unhashed.status == 200 and unhashed.getheader("Cache-Control") == "public, max-age=300"
    assert unhashed.getheader("X-Content-Type-Options") == "nosniff"
    # A proxy that passes /static/ on (one without the files) gets them from
    # WhiteNoise, out of STATIC_ROOT, hashed names cached for good too.
    direct = http.client.HTTPConnection("127.0.0.1", front.web_port, timeout=20)
    direct.request("GET", match_js, headers={"X-Forwarded-Proto": "https",
                                             "X-Parlour-Proxy": services.PROXY_SECRET})
    passed_on = direct.getresponse()
    assert passed_on.status == 200 and passed_on.read() == front.get(match_js).body
    assert "immutable" in passed_on.getheader("Cache-Control")
    direct.close()

    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    url = f"wss://localhost:{front.https_port}/ws/match/{match.public_id}/"
    with connect(url, origin=front.origin, additional_headers=[("Cookie", cookie)], ssl=front.tls,
                 proxy=None, open_timeout=10) as ws:
        snapshot = ws.recv(timeout=10)
    assert f'data-version="{match.version}"' in snapshot
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin=f"http://localhost:{front.https_port}", additional_headers=[("Cookie", cookie)],
                ssl=front.tls, proxy=None, open_timeout=10)
    assert refused.value.response.status_code == 403


def test_in_chromium_the_match_page_loads_its_hashed_module_graph_from_nginx_and_goes_live(
        front, browser, transactional_db):
    """A player's Chromium over TLS: every script the page runs, the modules
    its modules import among them, is a hashed name nginx served with the
    year's cache; nothing failed to load, no Content-Security-Policy
    violation, and the page says Live with its snapshot in (the socket over wss)."""
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state())
    client = Client()
    client.force_login(match.seats.get(index=0).user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    # The server sees the new match: wait for that state, not for time (once, in this
    # test's first twenty runs, on SQLite on a loaded machine, the page's first answer
    # was a 404; not reproduced in the next fourteen).
    services.wait_for(lambda: front.get(f"/m/{match.public_id}/",
                                        Cookie=f"{settings.SESSION_COOKIE_NAME}={session}").status == 200,
                      10, what="the match page over TLS")
    context = browser.new_context(ignore_https_errors=True)  # the certificate is self-signed
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": front.origin, "secure": True,
                          "value": session}])
    page = context.new_page()
    scripts, failed, csp = [], [], []
    page.on("response", lambda r: scripts.append((r.url, r.status, r.headers.get("cache-control")))
            if r.request.resource_type == "script" else None)
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{front.origin}/m/{match.public_id}/")
    expect(page.locator("#connection-status")).to_have_text("Live", timeout=20_000)
    page.wait_for_selector("#match[data-synced]", state="attached")
    assert not failed and not csp
    paths = [urlsplit(url).path for url, _, _ in scripts]
    for name in ("js/match.", "js/match/clock.", "js/board.", "js/board/draw.", "js/parlour.", "js/socket."):
        assert any(path.startswith(f"/static/{name}") for path in paths), name
    for url, status, cache in scripts:
        assert (status, cache) == (200, IMMUTABLE) and HASHED.search(urlsplit(url).path), url
    context.close()
