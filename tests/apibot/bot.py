"""A bot that plays on Parlour through its bot and board API, written only
against the documented contract (docs/api.md) and the standard library: it
imports nothing of the project, so it is the program an outsider would write.

``ApiBot(base_url, token)``:

- ``events()``: the account's event stream (``GET /api/stream/events``), one
  dict a line;
- ``accept(challenge_id)``, ``challenge(username, ...)``, ``computer_match(...)``;
- ``stream(match_id)``: the match's stream as this account sees it;
- ``play(match_id)``: reads the match's stream and, whenever a state line
  names moves for its seat (``legal_moves``), chooses one (``choose``) and
  POSTs it with the line's version. A ``stale_version`` refusal is answered
  by the next state line (a newer version is on its way): the bot chooses
  again then. Returns the ``end`` line.
- ``serve(matches)``: the events loop of a bot that waits to be challenged:
  accepts every challenge and plays every match that starts, each in a
  thread, until ``matches`` have ended.

Every call honours ``429 rate_limited``: it waits ``Retry-After`` seconds
and sends again. The token travels in the ``Authorization`` header only.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import urllib.parse


def _json(raw: bytes, status: int):
    """An answer's JSON; a body that is not JSON (a proxy's error page) as an error object."""
    try:
        return json.loads(raw) if raw else {}
    except ValueError:
        return {"error": {"code": f"http_{status}", "message": raw[:200].decode(errors="replace")}}


class ApiError(Exception):
    """A JSON error answer of the API: ``status``, ``code``, ``body`` (the error object)."""

    def __init__(self, status: int, body: dict):
        self.status = status
        self.body = body.get("error", body) if isinstance(body, dict) else {"message": str(body)}
        self.code = self.body.get("code", "")
        super().__init__(f"{status} {self.code}: {self.body.get('message', '')}")


class ApiBot:
    """One bot account's client. ``choose(line) -> move`` picks from a state
    line's ``legal_moves`` (default: a seeded random choice). ``timeout``: seconds a
    call or a stream may stay silent (streams send a keep-alive line every 20 s)."""

    #: 429s in a row before a call gives up.
    MAX_WAITS = 20

    def __init__(self, base_url: str, token: str, *, choose=None, seed: int = 0, timeout: float = 60):
        parts = urllib.parse.urlsplit(base_url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.token = token
        self.timeout = timeout
        self.rng = random.Random(seed)
        self.choose = choose or (lambda line: self.rng.choice(line["legal_moves"]))
        #: What happened, for the caller: moves sent, stale refusals, 429 waits.
        self.counts = {"moves": 0, "stale": 0, "rate_limited": 0, "lines": 0}
        #: Every line ``play`` read, when the caller sets it to a list.
        self.kept: list[dict] | None = None
        self.round_trips: list[float] = []  # seconds from a move's answer to the next state line

    # -- HTTP ------------------------------------------------------------------------

    def _connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)

    def _headers(self, body: bytes | None) -> dict:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        return headers

    def call(self, method: str, path: str, body=None):
        """``method`` ``path`` with ``body`` as JSON; the answer's JSON. Waits
        out 429s (``Retry-After``). Raises ``ApiError`` for any other refusal."""
        data = None if body is None else json.dumps(body).encode()
        for _ in range(self.MAX_WAITS):
            conn = self._connection()
            try:
                conn.request(method, path, body=data, headers=self._headers(data))
                response = conn.getresponse()
                raw = response.read()
                status, retry_after = response.status, response.getheader("Retry-After")
            finally:
                conn.close()
            answer = _json(raw, status)
            if status == 429:
                self._wait(retry_after)
                continue
            if status >= 400:
                raise ApiError(status, answer)
            return answer
        raise ApiError(429, {"error": {"code": "rate_limited", "message": "still limited"}})

    def _wait(self, retry_after) -> None:
        self.counts["rate_limited"] += 1
        try:
            seconds = float(retry_after)
        except (TypeError, ValueError):
            seconds = 1.0
        time.sleep(max(0.0, seconds))

    def lines(self, path: str):
        """The NDJSON stream at ``path``: one dict per line, keep-alive lines
        skipped, until the server closes it. A 429 is waited out; another
        refusal raises ``ApiError``."""
        for _ in range(self.MAX_WAITS):
            conn = self._connection()
            conn.request("GET", path, headers=self._headers(None) | {"Accept": "application/x-ndjson"})
            response = conn.getresponse()
            if response.status == 429:
                retry_after = response.getheader("Retry-After")
                response.read()
                conn.close()
                self._wait(retry_after)
                continue
            if response.status >= 400:
                raw = response.read()
                conn.close()
                raise ApiError(response.status, _json(raw, response.status))
            try:
                while line := response.readline():
                    if line.strip():
                        yield json.loads(line)
            finally:
                conn.close()
            return
        raise ApiError(429, {"error": {"code": "rate_limited", "message": "still limited"}})

    # -- the calls of docs/api.md ----------------------------------------------------

    def account(self) -> dict:
        return self.call("GET", "/api/account")

    def events(self):
        return self.lines("/api/stream/events")

    def stream(self, match_id: str):
        return self.lines(f"/api/match/{match_id}/stream")

    def move(self, match_id: str, move, version: int) -> dict:
        return self.call("POST", f"/api/match/{match_id}/move", {"move": move, "version": version})

    def accept(self, challenge_id) -> dict:
        return self.call("POST", f"/api/challenge/{challenge_id}/accept")

    def challenge(self, username: str, game: str, turn_seconds: int, *, rated: bool = False,
                  options: dict | None = None) -> dict:
        body = {"game": game, "rated": rated, "turn_seconds": turn_seconds, "options": options or {}}
        return self.call("POST", f"/api/challenge/{username}", body)

    def computer_match(self, game: str, players: int = 2, turn_seconds: int = 60) -> str:
        """Start a match against the computer players; its id."""
        return self.call("POST", "/api/match/computer",
                         {"game": game, "players": players, "turn_seconds": turn_seconds})["match"]

    # -- playing -----------------------------------------------------------------------

    def play(self, match_id: str) -> dict:
        """Play ``match_id`` to its end from its stream; the ``end`` line."""
        sent_at: float | None = None
        for line in self.stream(match_id):
            self.counts["lines"] += 1
            if self.kept is not None:
                self.kept.append(line)
            if line.get("type") == "end":
                return line
            if line.get("type") != "state":
                continue  # chat, and whatever a later version of the API adds
            if sent_at is not None:
                self.round_trips.append(time.monotonic() - sent_at)
                sent_at = None
            if not line.get("legal_moves") or line.get("status") not in (None, "live", "active"):
                continue
            try:
                self.move(match_id, self.choose(line), line["version"])
            except ApiError as refused:
                if refused.code in ("stale_version", "not_your_turn"):
                    self.counts["stale"] += 1  # a newer state line is on its way: choose from it
                    continue
                raise
            self.counts["moves"] += 1
            sent_at = time.monotonic()
        raise ApiError(0, {"error": {"code": "stream_closed",
                                     "message": f"{match_id}'s stream closed before its end"}})

    def serve(self, matches: int = 1) -> list[dict]:
        """Accept every challenge and play every match that starts, each in a
        thread, until ``matches`` matches have ended; their ``end`` lines."""
        ended: list[dict] = []
        errors: list[BaseException] = []
        threads: dict[str, threading.Thread] = {}

        def play(match_id):
            try:
                ended.append(self.play(match_id))
            except BaseException as e:  # noqa: BLE001 - handed to the caller below
                errors.append(e)

        for event in self.events():
            if event.get("type") == "challenge":
                try:
                    self.accept(event["challenge"]["id"])
                except ApiError as refused:
                    if refused.status != 409:  # gone meanwhile: withdrawn, lapsed
                        raise
            elif event.get("type") == "match_start" and event["match"]["id"] not in threads:
                threads[event["match"]["id"]] = thread = threading.Thread(
                    target=play, args=(event["match"]["id"],), daemon=True)
                thread.start()
            elif event.get("type") == "match_finish":
                match_id = event["match"]["id"]
                if match_id in threads:
                    threads[match_id].join(self.timeout)
                if len(ended) + len(errors) >= matches:
                    break
        if errors:
            raise errors[0]
        return ended
