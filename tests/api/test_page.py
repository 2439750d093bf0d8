"""The API's page (``/api/``) and its bot: the page shows the very file it
offers for download, a bot of at most 40 lines using the standard library only."""

import ast
import sys

import pytest

from api import views_pages

pytestmark = pytest.mark.django_db


def test_the_page_documents_every_call_and_shows_the_downloadable_bot(client):
    page = client.get("/api/")
    assert page.status_code == 200
    html = page.content.decode()
    for path in ("/api/stream/events", "/api/match/&lt;id&gt;/stream", "/api/match/&lt;id&gt;/move",
                 "/api/match/computer", "/leave", "/chat", "/rematch", "/api/challenge/",
                 "/export", "/api/account/matches", "rate_limited", "Retry-After", "/account/tokens/"):
        assert path in html, path
    download = client.get("/api/parlour_bot.py")
    assert download.status_code == 200 and "attachment" in download["Content-Disposition"]
    source = download.content.decode()
    assert source == views_pages.BOT_FILE.read_text()
    assert "Authorization" in html and "def play(match):" in html  # shown on the page
    assert 'href="/api/"' in client.get("/about/").content.decode()  # linked from the footer


def test_the_bot_is_forty_lines_of_the_standard_library():
    source = views_pages.BOT_FILE.read_text()
    assert len(source.splitlines()) <= 40
    imported = {alias.name.split(".")[0] for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(ast.parse(source))
                 if isinstance(node, ast.ImportFrom)}
    assert imported <= sys.stdlib_module_names


def test_the_page_s_example_move_is_ludo_notation_and_each_game_s_notation_is_linked(client):
    html = client.get("/api/").content.decode()
    for kind in ("ludo", "roundabout", "rondo"):
        assert f'href="/rules/{kind}/#notation"' in html, kind
    assert '"move 2"' not in html and '"move": "p2"' in html.replace("&quot;", '"')


def test_the_page_in_german_keeps_its_code_as_it_is(client):
    """The prose is translated; paths, codes, the JSON and the bot are the API's own words."""
    html = client.get("/api/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    english = client.get("/api/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h2 id=\"tokens\">Tokens und Berechtigungen</h2>" in html and "Ein vollständiger Bot" in html
    assert "zu viele Anfragen" in html and "<code>rate_limited</code>" in html
    assert "<code>easy</code>, <code>normal</code>, <code>strong</code>" in html
    for sample in ("Authorization: Bearer plr_...", "def play(match):", '{"version": 13}'):
        assert sample in html and sample in english
