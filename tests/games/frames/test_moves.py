"""The match page's move list over a live match (games.frames): the
lines a snapshot shows, numbered by turn, are the same whether read fresh
from the whole record or extended from what earlier frames and snapshots
of the same process kept; the frames' lines are the record's lines."""

from __future__ import annotations

import random

import pytest

from games import actions, push
from games.engine import get_rules
from games.frames import contexts, moves
from games.models import Match, Move
from tests.factories import make_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_push(monkeypatch):
    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)


def snapshot(match):
    seats = list(match.seats.select_related("user"))
    ctx = contexts.public_context(match, seats)
    got = moves.move_list(match, ctx)
    return [(t.number, [line.text for line in t.lines]) for t in got["turns"]]


@pytest.mark.parametrize("kind", ["ludo", "roundabout", "rondo"])
def test_snapshots_kept_and_extended_match_a_fresh_read(kind):
    rules = get_rules(kind)
    match = make_match(kind, seats=("human", "human", "human") if kind != "rondo" else ("human", "human"))
    users = {s.index: s.user for s in match.seats.select_related("user")}
    rng = random.Random(5)
    seen_version = match.version
    for step in range(150):
        m = Match.objects.get(pk=match.pk)
        if m.is_over:
            break
        state = rules.load(m.state)
        seat = rules.to_move(state)
        actions.play_move(m.public_id, users[seat], str(rng.choice(rules.legal_moves(state))), m.version)
        m = Match.objects.get(pk=match.pk)
        new = list(Move.objects.filter(match=m, version_after__gt=seen_version).order_by("ply"))
        seen_version = m.version
        seats = list(m.seats.select_related("user"))
        frame = moves.new_lines(m, contexts.public_context(m, seats), new)
        assert [line.ply for line in frame["lines"]] == sorted(line.ply for line in frame["lines"])
        if step % 7 == 0:
            kept = snapshot(m)
            moves._tails.clear()
            assert snapshot(m) == kept
