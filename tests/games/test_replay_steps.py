"""Replay steps are cheap and visitors are limited (README "Replays"): what a
replay needs is read from an ended match's record once per process and kept
(games.replays), each step replays at most a keyframe's worth of plies, and a
visitor without an account past the budget of their address gets 429."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core import ratelimits
from games import marks, record, replays
from games.engine import CHANCE, fair, get_rules
from games.models import Match, Move, Seat
from tests.factories import make_user

pytestmark = pytest.mark.django_db

STEP = {"HX-Request": "true"}


def recorded(kind: str = "ludo", players: int = 2, seed: int = 1, bad_ply: int | None = None) -> Match:
    """A finished match between computers, played out by the engine (random
    legal moves from ``seed``; the dice drawn from the match's own seed, as
    live play draws them) and stored as the actions store one. ``bad_ply``:
    that ply's notation replaced by one the engine refuses."""
    rules = get_rules(kind)
    secret = seed.to_bytes(32, "big")
    public_id = f"rec{kind[:3]}{seed}{bad_ply or ''}"
    rng = random.Random(seed)
    start = state = rules.new_match(players)
    moves = []
    while (who := rules.to_move(state)) is not None:
        if who == CHANCE:
            moves.append(("chance", None, fair.fair_outcome(rules, state, secret, public_id)))
        else:
            forced = rules.forced_move(state)
            moves.append(("server", who, forced) if forced is not None
                         else ("seat", who, rng.choice(rules.legal_moves(state))))
        state = rules.play(state, moves[-1][2])
    outcome, view = rules.outcome(state), rules.view(state, None)
    match = Match.objects.create(
        public_id=public_id, kind=kind, status="finished", seed=secret.hex(),
        seed_hash=fair.commitment(secret), start_state=rules.dump(start), state=rules.dump(state),
        version=len(moves), ply_count=len(moves),
        end_reason=outcome.reason, started_at=timezone.now(), finished_at=timezone.now())
    Seat.objects.bulk_create(Seat(match=match, index=i, colour=view["seats"][i]["colour"],
                                  computer_level="easy", rank=outcome.ranks[i]) for i in range(players))
    Move.objects.bulk_create(
        Move(match=match, ply=i, actor=actor, seat=seat, version_after=i + 1,
             notation="p9" if i == bad_ply else str(move)) for i, (actor, seat, move) in enumerate(moves))
    return match


@pytest.fixture(autouse=True)
def fresh():
    replays.forget()
    ratelimits.reset()
    yield
    replays.forget()
    ratelimits.reset()


def test_steps_after_the_first_read_no_record_and_check_the_dice_once(client, monkeypatch):
    match = recorded()
    total = match.ply_count
    rules = get_rules("ludo")
    checks, plays = [], []
    verify, play = fair.verify_record, rules.play
    monkeypatch.setattr(fair, "verify_record", lambda *a, **k: checks.append(1) or verify(*a, **k))
    monkeypatch.setattr(rules, "play", lambda *a: plays.append(1) or play(*a))
    first = client.get(f"/m/{match.public_id}/replay/?ply=5").content.decode()
    assert f"Ply 5 of {total}" in first and "Every chance outcome matches the revealed seed" in first
    assert checks == [1]
    for ply in (total - 3, total // 2, 1, total):
        plays.clear()
        with CaptureQueriesContext(connection) as queries:
            html = client.get(f"/m/{match.public_id}/replay/?ply={ply}", headers=STEP).content.decode()
        assert f"Ply {ply} of {total}" in html
        assert not [q for q in queries if "games_move" in q["sql"]]  # the record is kept, not read again
        assert len(plays) < 2 * replays.KEYFRAME_PLIES  # to the ply from its keyframe (and for its marks)
    page = client.get(f"/m/{match.public_id}/replay/?ply={total}").content.decode()
    assert "Every chance outcome matches the revealed seed" in page and checks == [1]


def test_the_kept_record_list_marks_the_line_of_the_position(client):
    match = recorded(seed=6)
    moves = list(Move.objects.filter(match=match).order_by("ply"))
    line_plies = {line.ply for line in record.describe_record("ludo", moves, {}, get_rules("ludo").load(
        match.start_state))}
    for ply in (0, 1, 2, 3, 17, 40, match.ply_count):
        html = client.get(f"/m/{match.public_id}/replay/?ply={ply}").content.decode()
        marked = re.findall(r'data-ply="(\d+)" aria-current="step"', html)
        # The last line at or before the ply (a line may stand for a roll and the move it forced).
        want = max((p + 1 for p in line_plies if p < ply), default=0)
        assert marked and {int(m) for m in marked} == {want}, ply
        assert html.count(f'href="?ply={want}" data-ply="{want}" aria-current="step"') == len(marked)


@pytest.mark.parametrize("bad_ply", [None, 70])
def test_a_kept_replay_gives_every_position_and_its_marks_as_the_record_replayed_afresh(monkeypatch, bad_ply):
    monkeypatch.setattr(replays, "KEYFRAME_PLIES", 5)
    match = recorded(seed=2, bad_ply=bad_ply)
    moves = list(Move.objects.filter(match=match).order_by("ply"))
    rules = get_rules("ludo")
    kept = replays.get(match)
    assert (kept.error is None) is (bad_ply is None)
    for ply in [*range(0, 12), *range(63, 78), *range(12, len(moves) + 1, 9), len(moves)]:
        got, want = kept.position(ply), record.position_at(match, moves, ply)
        assert rules.dump(got.state) == rules.dump(want.state), ply
        assert (got.error, got.left) == (want.error, want.left), ply
        assert kept.marks(match, ply, got.state) == marks.at(match, moves, ply, want.state), ply


def test_a_record_that_grows_is_read_again_and_kept_replays_are_bounded_by_plies(monkeypatch):
    match = recorded(seed=3)
    kept = replays.get(match)
    assert replays.get(match) is kept
    Move.objects.filter(match=match, ply=match.ply_count - 1).delete()
    Match.objects.filter(pk=match.pk).update(ply_count=match.ply_count - 1, version=match.version + 1)
    match.refresh_from_db()
    shorter = replays.get(match)
    assert shorter is not kept and shorter.total == kept.total - 1
    monkeypatch.setattr(replays, "PLIES_KEPT", kept.total + 10)
    other = recorded(seed=4)
    replays.get(other)
    assert replays.is_kept(other) and not replays.is_kept(match)  # the least recently used went


def test_visitors_past_their_address_s_budget_get_429_and_players_are_not_limited(client, settings):
    match = recorded(seed=5)
    url = f"/m/{match.public_id}/replay/"
    # The first request reads the record: one more per BUILD_COST_PLIES plies of it.
    build = 1 + match.ply_count // replays.BUILD_COST_PLIES
    assert build > 1
    settings.PARLOUR_REPLAY_VISITOR_RATE = f"{2 * build + 2}/minute"
    statuses = [client.get(f"{url}?ply={n}", headers=STEP).status_code for n in range(build + 4)]
    assert statuses == [200] * (build + 3) + [429]
    page = client.get(f"{url}?ply=9")
    assert page.status_code == 429 and 1 <= int(page["Retry-After"]) <= 60
    text = page.content.decode()
    assert "Too many replay requests" in text and "log in" in text and f'href="{url}?ply=9"' in text
    step = client.get(f"{url}?ply=9", headers=STEP)
    assert step.status_code == 429 and step["HX-Redirect"] == f"{url}?ply=9"  # to the page that says why
    assert client.get(f"{url}?ply=9", REMOTE_ADDR="203.0.113.9").status_code == 200  # its own budget
    client.force_login(make_user("ada"))
    assert all(client.get(f"{url}?ply={n}", headers=STEP).status_code == 200 for n in range(8))


def test_a_record_longer_than_a_visitor_s_budget_still_replays(client, settings):
    match = recorded(seed=7)
    assert 1 + match.ply_count // replays.BUILD_COST_PLIES > 4
    settings.PARLOUR_REPLAY_VISITOR_RATE = "4/minute"
    statuses = [client.get(f"/m/{match.public_id}/replay/?ply={n}").status_code for n in range(4)]
    assert statuses == [200, 200, 200, 429]  # reading it counted half the budget
