"""A short arena of dice race (a dozen rolls a match) from
open to podium against a real daphne, a real Celery worker and Celery beat
(the arena wave), every seat driven by WebSocket clients. Four players join
over HTTP and hold the arena socket; each follows its "your match is ready"
frame to the match socket and rolls whenever it is their turn. Tables form
again as matches end, for as long as the arena runs (its last 30 seconds:
the window opens before the test starts, README "Arenas").

Checked throughout: nobody is ever seated in two running matches. At the
end: nothing was paired after the close, every match was scored exactly
once and by the arena's rules, each player's points are the sum of their
results, the arena finishes once its last match has ended, and the page and
every arena socket show the final podium. Few matches repeat the one before
(two who just met wait for the next wave, when the other table has ended)."""

import json
import re
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from websockets.sync.client import connect

from arenas import scoring
from arenas.models import Arena, ArenaMatch, ArenaPlayer, ArenaResult
from games.models import Match
from tests import services
from tests.factories import make_user

SETTINGS = {"DJANGO_SETTINGS_MODULE": "tests.dicerace.settings"}
LEFT = timedelta(seconds=30)  # of the arena's window when the test starts

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


class Racer:
    """One player: a signed-in HTTP client, the arena socket, and the match
    socket of the match the arena socket last sent them to."""

    def __init__(self, base, arena, name):
        self.user = make_user(name)
        self.http = Client()
        self.http.force_login(self.user)
        cookie = self.http.cookies[settings.SESSION_COOKIE_NAME].value
        self.headers = [("Cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}")]
        self.base, self.arena = base, arena
        self.arena_frames: list[str] = []
        self.sent_to: list[str] = []  # public ids, in the order the arena socket sent them
        self.match_ws = None
        self.rolled: set[tuple[str, int]] = set()

    def open(self, path):
        return connect(self.base.replace("http://", "ws://") + path, origin=self.base,
                       additional_headers=self.headers, proxy=None, open_timeout=15).__enter__()

    def join(self):
        self.arena_ws = self.open(f"/ws/arena/{self.arena.pk}/")
        response = self.http.post(reverse("arena_join", args=[self.arena.pk]))
        assert response.status_code in (200, 302), response.content.decode()[:300]

    def read_arena(self):
        """Take every arena frame waiting; follow a redirect to its match."""
        while True:
            try:
                frame = self.arena_ws.recv(timeout=0)
            except TimeoutError:
                return
            self.arena_frames.append(frame)
            for public_id in re.findall(r'id="arena-redirect"[^>]*data-href="/m/(\w+)/"', frame):
                if public_id not in self.sent_to:
                    self.sent_to.append(public_id)
                    if self.match_ws is not None:
                        self.match_ws.close()
                    self.match_ws = self.open(f"/ws/match/{public_id}/")

    def drain_match(self):
        if self.match_ws is None:
            return
        while True:
            try:
                self.match_ws.recv(timeout=0)
            except TimeoutError:
                return
            except Exception:  # the match ended and its socket closed
                self.match_ws = None
                return

    def play(self):
        """Roll in the match they were sent to, when it is their turn."""
        if self.match_ws is None or not self.sent_to:
            return
        match = Match.objects.filter(public_id=self.sent_to[-1]).first()
        if match is None or match.status != Match.Status.ACTIVE:
            return
        seat = match.seats.get(user=self.user).index
        key = (match.public_id, match.version)
        if match.state["phase"] == "roll" and match.state["turn"] == seat and key not in self.rolled:
            self.match_ws.send(json.dumps({"move": "roll", "version": str(match.version)}))
            self.rolled.add(key)

    def close(self):
        for ws in (self.match_ws, getattr(self, "arena_ws", None)):
            if ws is not None:
                ws.close()


def test_a_dice_race_arena_from_open_to_podium_driven_by_websocket_clients(dicerace, transactional_db):
    daphne, base = services.start_daphne("daphne-arena", wait=False, **SETTINGS)
    services.purge_task_queues()
    worker = services.start_celery_worker("celery-worker-arena", wait=False, **SETTINGS)
    beat = services.start_celery_beat("celery-beat-arena", **SETTINGS)
    racers = []
    try:
        services.wait_ready(daphne, worker)  # started side by side
        arena = Arena.objects.create(
            name="Dice race sprint", kind=dicerace, seats=2, turn_seconds=30, minutes=5,
            starts_at=timezone.now() + LEFT - timedelta(minutes=5), rated=False)
        racers = [Racer(base, arena, f"racer{i}") for i in range(4)]
        for racer in racers:
            racer.join()
        assert ArenaPlayer.objects.filter(arena=arena).count() == 4

        deadline = time.monotonic() + LEFT.total_seconds() + 120
        while Arena.objects.get(pk=arena.pk).finished_at is None:
            assert time.monotonic() < deadline, "the arena did not finish"
            for racer in racers:
                racer.read_arena()
                racer.drain_match()
                racer.play()
            # Never two running matches for one player.
            for racer in racers:
                running = Match.objects.filter(seats__user=racer.user, status=Match.Status.ACTIVE).count()
                assert running <= 1, f"{racer.user} is in {running} matches at once"
            time.sleep(0.05)

        arena = Arena.objects.get(pk=arena.pk)
        matches = list(ArenaMatch.objects.filter(arena=arena).select_related("match"))
        assert len(matches) >= 4, f"only {len(matches)} tables in the arena's last {LEFT}"
        opponents = {m.match.public_id: set(m.match.seats.values_list("user_id", flat=True)) for m in matches}
        # Two who just met wait for the wave rather than meet again at once; the wave seats
        # them together only when the other table is still playing (before: most matches
        # were repeats, each table pairing itself again as it ended).
        again = sum(opponents[a] == opponents[b]
                    for r in racers for a, b in zip(r.sent_to, r.sent_to[1:], strict=False))
        followed = sum(len(r.sent_to) - 1 for r in racers)
        assert again * 4 <= followed, f"{again} of {followed} next matches were against the same opponent"
        # Nothing paired after the close; everything ended before the finish.
        assert arena.closed_at is not None and arena.closed_at >= arena.ends_at
        assert all(m.match.created_at <= arena.closed_at for m in matches)
        assert all(m.match.status == Match.Status.FINISHED and m.scored for m in matches)
        assert all(m.match.finished_at <= arena.finished_at for m in matches)
        # Each match sent its two players there, and was scored once: 2 for the
        # winner (doubled on a streak), 0 for the other.
        for m in matches:
            seated = set(m.match.seats.values_list("user_id", flat=True))
            assert {r.user.pk for r in racers if m.match.public_id in r.sent_to} == seated
            assert ArenaResult.objects.filter(arena_match=m).count() == 2
        for player in ArenaPlayer.objects.filter(arena=arena):
            results = list(player.results.order_by("ended_at", "pk"))
            expected = scoring.score([scoring.Result(r.rank, r.seats, r.shared, r.forfeit, r.void)
                                      for r in results])
            assert [r.points for r in results] == list(expected.points)
            assert (player.points, player.wins) == (expected.total, expected.wins)
        # The podium, final, on the page and on every arena socket.
        players = ArenaPlayer.objects.filter(arena=arena).select_related("user")
        never = timezone.now() + timedelta(days=1)
        top = [p.user.username for p in sorted(players, key=lambda p: (
            -p.points, -p.wins, p.reached_at or never, p.user.username))][:3]
        page = racers[0].http.get(reverse("arena", args=[arena.pk])).content.decode()
        podium = re.search(r'<ol class="arena-podium" aria-label="Podium">(.*?)</ol>', page, re.S)
        assert podium, "no final podium on the page"
        assert [name for name in top if name in podium.group(1)] == top
        for racer in racers:
            until = time.monotonic() + 15
            while not any('aria-label="Podium"' in f for f in racer.arena_frames):
                assert time.monotonic() < until, f"{racer.user}'s arena socket never showed the podium"
                racer.read_arena()
                time.sleep(0.05)
    finally:
        for racer in racers:
            racer.close()
        beat.stop()
        worker.stop()
        daphne.stop()
