"""Home, About, the health check and the base template."""

import json
import re

import pytest
from django.test import override_settings

from accounts.close_codes import CLOSE_TRY_AGAIN, REFUSALS
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def test_home_says_what_the_site_offers(client):
    resp = client.get("/")
    assert resp.status_code == 200
    body = resp.content.decode()
    for game in ("Ludo", "Roundabout", "Rondo"):
        assert game in body
    assert "htmx-2.0.11.min.js" in body and "htmx-ext-ws-2.0.4.min.js" in body
    assert 'hx-headers=\'{"X-CSRFToken": "' in body


def test_about_page_credits_every_designer_and_says_recreational_only(client):
    body = client.get("/about/").content.decode()
    for credit in ("Mohammad Asif", "Otero Games", "Reiner Knizia", "Schmidt Spiele",
                   "OpenStreetMap contributors", "OpenFreeMap", "OpenMapTiles"):
        assert credit in body
    assert "recreational play only" in body


def test_static_files_are_served(client):
    resp = client.get("/static/vendor/htmx-2.0.11.min.js")
    assert resp.status_code == 200


def test_healthz_ok_when_database_and_redis_answer(client):
    resp = client.get("/healthz")
    assert resp.status_code == 200
    assert resp.json() == {"database": "ok", "redis": "ok"}


def test_healthz_503_when_redis_is_down(client, tmp_path):
    with override_settings(REDIS_URL=f"unix://{tmp_path}/nothing.sock"):
        resp = client.get("/healthz")
    assert resp.status_code == 503
    assert resp.json() == {"database": "ok", "redis": "error"}


def test_unknown_url_is_a_404_page(client):
    resp = client.get("/no/such/page/")
    assert resp.status_code == 404
    assert b"Not found" in resp.content


def test_admin_login_page(client):
    assert client.get("/admin/login/").status_code == 200


def test_security_headers_and_a_content_security_policy(client):
    resp = client.get("/")
    csp = resp["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp
    assert resp["X-Content-Type-Options"] == "nosniff"
    assert resp["X-Frame-Options"] == "DENY"
    assert resp["Referrer-Policy"] == "same-origin"


def test_pages_with_a_socket_carry_their_close_codes_as_data_not_as_a_script(client):
    """The pages' scripts read the refusal texts from a JSON data block, which
    the CSP allows (a data block is never run), not from copies of their own;
    pages without a socket carry none."""
    match = make_match()
    for url, page in [(f"/m/{match.public_id}/", "match"), ("/play/", "queue")]:
        html = client.get(url).content.decode()
        found = re.search(r'<script id="close-codes" type="application/json">(.*?)</script>', html, re.S)
        assert found, url
        assert json.loads(found.group(1)) == {
            "refusals": {str(code): text for code, text in REFUSALS[page].items()},
            "try_again": CLOSE_TRY_AGAIN,
        }
        # Every other script on the page is a file of the site's own.
        inline = re.findall(r"<script(?![^>]*src=)[^>]*>", html)
        assert inline == ['<script id="close-codes" type="application/json">'], url
    assert 'id="close-codes"' not in client.get("/").content.decode()


def _described_by_missing(html: str) -> list[str]:
    """The ids that a field's aria-describedby names and the page does not hold."""
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    named = [i for v in re.findall(r'aria-describedby="([^"]*)"', html) for i in v.split()]
    return [i for i in named if i not in ids]


def test_every_fields_description_and_error_is_on_the_page(client):
    """Django points each field at its help text and its errors
    (aria-describedby, aria-invalid): the pages give them those ids."""
    from tests.factories import make_user

    pages = [client.get("/signup/"), client.post("/signup/", {"username": "", "password1": "x"}),
             client.post("/login/", {"username": "nobody", "password": "x"})]
    user = make_user()
    client.force_login(user)
    pages += [client.get("/play/"), client.post("/password/change/", {"old_password": "x"})]
    for page in pages:
        html = page.content.decode()
        assert _described_by_missing(html) == [], page.request["PATH_INFO"]
        # Every page here but the log-in (whose error is the form's, not a field's) describes a field.
        assert "aria-describedby" in html or page.request["PATH_INFO"] == "/login/"
    bad = pages[1].content.decode()
    assert 'aria-invalid="true"' in bad and re.search(r'<ul class="errorlist" id="id_username_error"', bad)
