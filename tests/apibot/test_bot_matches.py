"""The API bot (tests/apibot/bot.py: the standard library, nothing of the
project) plays whole matches over HTTP through a real daphne, the Celery
worker that plays the computer seats, and Redis (docs/api.md). The test's
set-up makes the bot account and its token with accounts.tokens in the same
database; everything after that goes through the API."""

import ast
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from accounts import tokens
from games.models import Match, Move
from tests import services
from tests.apibot.bot import ApiBot, ApiError
from tests.factories import make_user
from tests.hidden import rondo_shown_json

BOT = Path(__file__).with_name("bot.py")
GAMES = ("ludo", "roundabout", "rondo")
#: The project's own packages: the bot imports none of them.
PROJECT = {p.name for p in services.ROOT.iterdir() if (p / "__init__.py").exists() or p.name == "manage.py"}


def bot_account(name: str | None = None, scopes=("read", "play")):
    """A bot account and a token of it: (user, token text)."""
    user = tokens.make_bot(make_user(name))
    user.email_confirmed = True
    user.save(update_fields=["email_confirmed"])
    _, text = tokens.make_token(user, "test bot", scopes)
    return user, text


def drawing_first(line: dict) -> str:
    """A Rondo bot's choice that ends matches sooner: draw when it may (the
    bag empties faster), else end its chain, else the first legal move."""
    moves = line["legal_moves"]
    return next((m for m in moves if m.startswith("draw")), None) \
        or next((m for m in moves if m == "end"), moves[0])


def test_the_bot_imports_nothing_of_the_project():
    tree = ast.parse(BOT.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "a relative import"
            imported.add(node.module.split(".")[0])
    assert PROJECT >= {"accounts", "games", "api", "config", "core"}
    assert not imported & PROJECT, imported & PROJECT
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported - set(sys.stdlib_module_names)


def assert_played(bot: ApiBot, match_id: str, end: dict, seat: int = 0) -> Match:
    """The match ended with a result, and the bot's accepted moves are the
    seat's changes in the record."""
    assert end["type"] == "end" and end["status"] == "finished", end
    match = Match.objects.get(public_id=match_id)
    assert match.status == Match.Status.FINISHED and match.end_reason == "finished"
    assert sorted(match.seats.values_list("rank", flat=True))[0] == 1
    changes = (Move.objects.filter(match=match, actor=Move.Actor.SEAT, seat=seat)
               .values("version_after").distinct().count())
    assert bot.counts["moves"] == changes > 0, (bot.counts, changes)
    return match


def play_in_threads(games: dict, timeout: float = 240) -> dict:
    """Run ``games`` (name -> a function that plays one match and returns
    what to check) at once, each in a thread: {name: (result, seconds)}.
    Raises the first failure, named."""
    results, errors = {}, {}

    def run(name, fn):
        started = time.monotonic()
        try:
            results[name] = (fn(), time.monotonic() - started)
        except BaseException as e:  # noqa: BLE001 - raised below with its game's name
            errors[name] = e

    threads = [threading.Thread(target=run, args=item, daemon=True) for item in games.items()]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    for name, error in errors.items():
        raise AssertionError(f"{name}: {error!r}") from error
    missing = set(games) - set(results)
    assert not missing, f"not over within {timeout} s: {missing}"
    return results


def check_rondo_lines(lines: list[dict], seat: int | None) -> int:
    """Rondo stream lines as seat ``seat`` (None: a spectator) received
    them, read by the hidden-information test's JSON reader
    (tests/hidden.rondo_shown_json): before the end, no rack but the seat's
    own, no face-down colour but of its own tiles, never the bag. Returns
    how many of its own secrets they showed."""
    own = 0
    for line in lines:
        if line["type"] != "state" or line["status"] != Match.Status.ACTIVE:
            continue
        assert line["seat"] == seat
        assert seat is not None or not line["legal_moves"], "a spectator is given legal moves"
        tiles = line["view"]["tiles"]
        for fact in rondo_shown_json(line):
            mine = (fact[0] == "rack" and fact[1] == seat) or (
                fact[0] == "face_down" and seat is not None and tiles[fact[1]]["owner"] == seat)
            assert mine, f"version {line['version']}: seat {seat} is shown {fact}"
            own += 1
    return own


@pytest.mark.slow
def test_the_bot_plays_a_whole_match_of_each_game_against_the_computer(live_server_url, celery_worker):
    """Three bots, one a game, each starting a two-seat match against an easy
    computer (POST /api/match/computer) and playing it to its result; the
    three at once, so the test takes as long as its longest match (Ludo).
    The Rondo match is also streamed by a spectator (another account's read
    token); what the bot's and the spectator's streams sent is read for
    secrets as the hidden-information test reads every audience."""
    bots = {game: ApiBot(live_server_url, bot_account()[1], seed=3) for game in GAMES}
    bots["rondo"].kept = []
    _, read_token = tokens.make_token(make_user(), "spectator", ["read"])
    watched: list[dict] = []

    def playing(game):
        def play():
            match_id = bots[game].computer_match(game, players=2, turn_seconds=60)
            if game == "rondo":
                watching = threading.Thread(target=lambda: watched.extend(
                    ApiBot(live_server_url, read_token).stream(match_id)), daemon=True)
                watching.start()
            end = bots[game].play(match_id)
            if game == "rondo":
                watching.join(30)
            return match_id, end
        return play

    results = play_in_threads({game: playing(game) for game in GAMES})
    for game, ((match_id, end), seconds) in results.items():
        match = assert_played(bots[game], match_id, end)
        assert match.kind == game and match.seats.get(index=1).computer_level
        print(f"{game}: {bots[game].counts}, {match.version} versions, {seconds:.1f} s")
    assert check_rondo_lines(bots["rondo"].kept, 0) > 0  # the reader reads these lines
    rondo_match = Match.objects.get(public_id=results["rondo"][0][0])
    assert watched[-1]["type"] == "end" and watched[-2]["version"] == rondo_match.version
    assert check_rondo_lines(watched, None) == 0


@pytest.mark.slow
def test_a_stale_version_is_refused_and_the_bot_plays_on(live_server_url, celery_worker):
    """A move sent against an old version is refused as stale_version with the
    current version, nothing changed; the bot's next line lets it move."""
    _, token = bot_account()
    bot = ApiBot(live_server_url, token, seed=5)
    match_id = bot.computer_match("rondo", players=2, turn_seconds=60)
    first = next(line for line in bot.stream(match_id) if line.get("legal_moves"))
    with pytest.raises(ApiError) as refused:
        bot.move(match_id, first["legal_moves"][0], first["version"] - 1)
    assert refused.value.status == 409 and refused.value.code == "stale_version"
    assert refused.value.body["version"] == first["version"]
    assert Match.objects.get(public_id=match_id).version == first["version"]
    bot.move(match_id, first["legal_moves"][0], first["version"])
    assert Match.objects.get(public_id=match_id).version > first["version"]


EXAMPLE_BOT = services.ROOT / "api" / "templates" / "api" / "parlour_bot.py"


@pytest.mark.slow
def test_the_api_page_s_example_bot_plays_a_whole_match(live_server_url, celery_worker):
    """The /api/ page's complete example bot, run as it is as a subprocess: it
    accepts a challenge from another bot and plays the match to its end."""
    example, example_token = bot_account()
    challenger, token = bot_account()
    bot = ApiBot(live_server_url, token, choose=drawing_first)
    env = dict(os.environ, PARLOUR_TOKEN=example_token)
    log = services.LOG_DIR / "example-bot.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, str(EXAMPLE_BOT), live_server_url], env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        services.wait_for(lambda: proc.poll() is None, 10, what="the example bot to start")
        # The example bot's events stream lists open challenges on connecting,
        # so a challenge sent before it listens is not missed.
        challenge = bot.challenge(example.username, "rondo", 60)
        match_id = None
        for event in bot.events():  # live matches come first as match_start lines
            if event.get("type") == "match_start":
                match_id = event["match"]["id"]
                break
            assert proc.poll() is None, log.read_text()
        seat = next(s for s in bot.stream(match_id) if s.get("type") == "state")["seat"]
        end = bot.play(match_id)
        match = assert_played(bot, match_id, end, seat=seat)
        assert match.seats.get(user=example).rank in (1, 2)
        assert challenge["id"]
        print(f"the example bot's match: {match.version} versions; {bot.counts}")
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_bot_waits_as_retry_after_says_and_sends_again():
    """Against a stand-in server: a 429 with Retry-After is waited out and the
    same request sent again; the token goes in the Authorization header only."""
    import http.server

    seen = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers["Content-Length"]))
            seen.append((self.path, self.headers["Authorization"], body))
            limited = len(seen) == 1
            answer = b'{"error": {"code": "rate_limited"}}' if limited else b'{"version": 8}'
            self.send_response(429 if limited else 200)
            if limited:
                self.send_header("Retry-After", "0")
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    try:
        bot = ApiBot(f"http://127.0.0.1:{server.server_port}", "plr_secret")
        assert bot.move("abc", "roll", 7) == {"version": 8}
    finally:
        server.shutdown()
        server.server_close()
    assert bot.counts["rate_limited"] == 1
    assert [path for path, _, _ in seen] == ["/api/match/abc/move"] * 2
    assert all(auth == "Bearer plr_secret" for _, auth, _ in seen)
    assert seen[0][2] == seen[1][2] == b'{"move": "roll", "version": 7}'
