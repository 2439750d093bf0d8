"""A person in a real Chromium plays a whole match against a bot that plays
over the API (tests/apibot/bot.py, HTTP to the same daphne: its event stream,
the challenge's accept, the match stream, a POST per move; docs/api.md).

The person challenges the bot from its profile, as they would any player;
the bot, listening on its event stream, accepts; the challenge's page takes
the person to the match, where they act on the board until the result
(tests/e2e/test_full_matches.play_to_the_result). CI plays Rondo: it is the
shortest whole match on the board (Ludo's from its first roll took 250 s of
a loaded CI run, and a challenge starts a match from its first roll), and
the bot draws instead of placing when it may, which empties the bag sooner
(the match ends with the round in which the bag runs out). Ludo and
Roundabout are played the same way by the ``long`` tests (``make test-long``),
which CI leaves out for their minutes."""

import re
import threading

import pytest
from playwright.sync_api import expect

from games.models import Match, Move
from matchmaking.models import Challenge
from tests.apibot.bot import ApiBot
from tests.apibot.test_bot_matches import bot_account, drawing_first
from tests.e2e.test_full_matches import LIMIT_SECONDS, play_to_the_result
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.factories import make_user


def _challenge_and_play(page, live_server_url, game: str, bot_name: str, choose=None):
    """The person (signed in on ``page``) challenges a new bot to ``game`` from its
    profile; the bot accepts from its event stream and plays over the API while the
    person acts on the board to the result. (person, bot user, bot, match, acts)."""
    person = in_thread(make_user, f"ada_{game}")
    bot_user, token = in_thread(bot_account, bot_name)
    bot = ApiBot(live_server_url, token, choose=choose)
    outcome: dict = {}

    def serve():
        try:
            outcome["ended"] = bot.serve(matches=1)
        except BaseException as e:  # noqa: BLE001 - the test reports it
            outcome["error"] = e

    serving = threading.Thread(target=serve, daemon=True)
    serving.start()

    log_in(page.context, person, live_server_url)
    page.goto(f"{live_server_url}/u/{bot_user.username}/")
    page.get_by_label("Game").select_option(game)
    page.get_by_label("Time per decision").select_option("60")
    page.get_by_role("button", name="Send the challenge").click()
    # The bot accepts from its event stream. The challenge's page takes the person to the
    # match while it waits (htmx); one the bot had already accepted says so with a link.
    page.wait_for_function("""() => location.pathname.startsWith('/m/')
        || !!document.querySelector('main [role=status] a[href^="/m/"]')""", timeout=20_000)
    if not page.url.startswith(f"{live_server_url}/m/"):
        page.get_by_role("link", name="Go to the match").click()
    expect(page).to_have_url(re.compile(re.escape(live_server_url) + r"/m/\w+/$"))
    challenge = Challenge.objects.get(challenger=person)
    match = Match.objects.get(pk=challenge.match_id)
    assert page.url.endswith(f"/m/{match.public_id}/")
    live(page)
    page.wait_for_selector("#match[data-synced]", state="attached")

    acts = play_to_the_result(page, match)
    expect(page.locator("#status")).to_contain_text("Match over.")
    serving.join(30)
    assert not serving.is_alive(), "the bot did not see the match end"
    assert "error" not in outcome, outcome.get("error")
    [end] = outcome["ended"]
    assert end["status"] == "finished"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.end_reason == "finished"
    bot_seat = match.seats.get(user=bot_user).index
    assert bot.counts["moves"] == (Move.objects.filter(match=match, actor="seat", seat=bot_seat)
                                   .values("version_after").distinct().count()) > 0
    return person, bot_user, bot, match, acts


@pytest.mark.timeout(LIMIT_SECONDS + 120)
def test_a_person_challenges_a_bot_and_plays_a_whole_rondo_match_against_it(page, live_server_url,
                                                                             csp_violations):
    person, _bot_user, _bot, match, acts = _challenge_and_play(page, live_server_url, "rondo", "rondobot",
                                                               choose=drawing_first)
    person_seat = match.seats.get(user=person).index
    person_moves = Move.objects.filter(match=match, actor="seat", seat=person_seat)
    assert person_moves.filter(notation__startswith="place").exists()
    assert acts["send"] > 0, acts
    assert csp_violations == []


@pytest.mark.long
@pytest.mark.timeout(LIMIT_SECONDS + 120)
@pytest.mark.parametrize("game", ["ludo", "roundabout"])
def test_a_person_plays_a_whole_ludo_or_roundabout_match_against_a_bot(page, live_server_url, csp_violations,
                                                                        game):
    """As the Rondo test, from the first roll to the result: minutes each, so not in
    CI (``long``: ``make test-long``)."""
    person, _bot_user, _bot, match, acts = _challenge_and_play(page, live_server_url, game, f"{game}bot")
    person_seat = match.seats.get(user=person).index
    assert Move.objects.filter(match=match, actor="seat", seat=person_seat).exists()
    assert acts["roll"] > 0, acts
    assert csp_violations == []
