"""A Parlour bot: accepts every challenge, plays the first legal move. Standard library only.
Run: PARLOUR_TOKEN=plr_... python3 parlour_bot.py https://parlour.example [a game to play the computer]"""
import json, os, sys, threading, time, urllib.request  # noqa: E401, I001 (a short example)

SITE = sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://localhost:8000"
HEADERS = {"Authorization": "Bearer " + os.environ["PARLOUR_TOKEN"], "Content-Type": "application/json"}


def call(path, body=None):  # GET without a body, else POST it as JSON
    try:
        return urllib.request.urlopen(urllib.request.Request(
            SITE + path, None if body is None else json.dumps(body).encode(), HEADERS))
    except urllib.request.HTTPError as error:
        if error.code == 429:  # too fast: wait as told, then ask again
            time.sleep(int(error.headers["Retry-After"]))
            return call(path, body)
        print(path, error.code, error.read().decode(), file=sys.stderr)  # e.g. stale: a new line follows
        return error


def lines(path):  # an NDJSON stream, one object at a time (keep-alive lines skipped)
    with call(path) as stream:
        yield from (json.loads(raw) for raw in stream if raw.strip())


def play(match):
    for line in lines(f"/api/match/{match}/stream"):
        if line.get("type") == "state" and line["legal_moves"]:
            call(f"/api/match/{match}/move", {"move": line["legal_moves"][0], "version": line["version"]})


if __name__ == "__main__":
    if len(sys.argv) > 2:  # start a match against the computer players first
        call("/api/match/computer", {"game": sys.argv[2]})
    for event in lines("/api/stream/events"):
        if event.get("type") == "challenge":
            call(f"/api/challenge/{event['challenge']['id']}/accept", {})
        elif event.get("type") == "match_start":
            threading.Thread(target=play, args=(event["match"]["id"],)).start()
