"""The real server's status line names its status: the API's refusals (422,
429) are read by people in logs and by HTTP libraries that show the reason
phrase, and daphne took it from a table that lacked them ("Unknown Status")."""

import contextlib
import http.client
import json
import urllib.parse
from http import HTTPStatus

import pytest

from tests.apibot.bot import ApiBot
from tests.apibot.test_bot_matches import bot_account


@pytest.mark.slow
def test_a_refused_move_s_status_line_names_its_status(live_server_url, celery_worker):
    _, token = bot_account()
    bot = ApiBot(live_server_url, token)
    match_id = bot.computer_match("ludo", players=2, turn_seconds=60)
    with contextlib.closing(bot.stream(match_id)) as lines:  # the stream ends once read
        mine = next(line for line in lines if line.get("legal_moves"))  # the bot's decision
    parts = urllib.parse.urlsplit(live_server_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    body = json.dumps({"move": "no such move", "version": mine["version"]}).encode()
    try:
        conn.request("POST", f"/api/match/{match_id}/move", body=body,
                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        response = conn.getresponse()
        answer = json.loads(response.read())
    finally:
        conn.close()
    assert response.status == 422, answer
    assert response.reason == HTTPStatus(422).phrase  # "Unprocessable Content", not "Unknown Status"
