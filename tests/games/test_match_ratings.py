"""Ratings on the match page of a ranked match (README "Ranked play"):
each seat's rating beside its name ("?" while provisional), and when the
match ends every seat's rating change, on the page, in the pushed frame and
on the replay once it reaches the end. Read once per match, not per move."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Rating
from games import push
from games.frames import contexts, render
from games.models import Move
from tests.factories import ludo_state, make_match, make_user, play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_push(monkeypatch):
    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)


def near_end(**kw):
    state = ludo_state(pieces=[[56, 56, 56, 50], [56, 56, 56, 50]])
    return make_match(seats=("human", "human"), state=state, **kw)


def seat_texts(html: str) -> list[str]:
    start = html.index('id="seats"')
    return " ".join(html[start : html.index("</ol>", start)].split()).split("<li")[1:]


def test_a_ranked_match_shows_each_seat_s_rating_beside_its_name(client):
    ada, bo = make_user("ada"), make_user("bo")
    Rating.objects.create(user=ada, kind="ludo", rating=1612.4, games=25, peak=1650)
    match = near_end(users=[ada, bo], rated=True)
    seats = seat_texts(client.get(f"/m/{match.public_id}/").content.decode())
    assert "ada" in seats[0] and '<span class="rating" title="Rating">1612</span>' in seats[0]
    assert "bo" in seats[1] and '<span class="rating" title="Rating (provisional)">1500?</span>' in seats[1]


def test_a_casual_match_shows_no_ratings(client):
    ada = make_user("ada")
    Rating.objects.create(user=ada, kind="ludo", rating=1612.4, games=25, peak=1650)
    match = near_end(users=[ada, make_user("bo")])
    html = client.get(f"/m/{match.public_id}/").content.decode()
    assert 'class="rating"' not in html and "1612" not in html


def test_at_the_end_every_seat_s_rating_change_is_on_the_page_the_frame_and_the_replay(client):
    match = play_to_the_end(near_end(users=[make_user("ada"), make_user("bo")], rated=True))
    changes = {c.user.username: c for c in match.rating_changes.select_related("user")}
    assert len(changes) == 2
    html = client.get(f"/m/{match.public_id}/").content.decode()
    for name, c in changes.items():
        delta = round(c.after) - round(c.before)
        sign = f"+{delta}" if delta >= 0 else f"\u2212{-delta}"
        line = f"<li>{name}: {round(c.before)}? → {round(c.after)}? <strong>({sign})</strong></li>"
        assert line in html, line
        assert f"({sign})" in next(t for t in seat_texts(html) if f">{name}<" in t)
    seats = list(match.seats.select_related("user"))
    frame = render.public_frame(contexts.public_context(match, seats))
    assert 'class="rating-changes"' in frame and frame.count('class="rating-change"') == 2
    total = Move.objects.filter(match=match).count()
    start = client.get(f"/m/{match.public_id}/replay/").content.decode()
    end = client.get(f"/m/{match.public_id}/replay/?ply={total}").content.decode()
    assert 'class="rating-change"' not in start and "1500?" in start  # the result waits for the end
    assert end.count('class="rating-change"') == 2


def test_the_ratings_are_read_once_per_match_not_on_every_move():
    match = near_end(users=[make_user("ada"), make_user("bo")], rated=True)
    seats = list(match.seats.select_related("user"))
    contexts.public_context(match, seats)
    with CaptureQueriesContext(connection) as queries:
        ctx = contexts.public_context(match, seats)
    assert len(queries) == 0
    assert [r["rating"].before for r in ctx["seat_rows"]] == ["1500?", "1500?"]
