"""The time control in the history, the leaderboards' filter and the export
(games/history.py, games/views_profile.py, games/views_history.py;
docs/decisions.md "The turn-based ranked queue")."""

import json

import pytest

from accounts.models import Rating
from games import time_controls
from games.models import RatingChange, RatingVoid
from tests.factories import ludo_state, make_match, make_user, play_to_the_end

DAYS_3 = 3 * time_controls.DAY


@pytest.fixture(autouse=True)
def no_effects(monkeypatch):
    from games import push, tasks

    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


def played_out(users, **kw):
    """A two-player Ludo match of ``users`` played to its end (see tests/games/test_history.py)."""
    return play_to_the_end(make_match(seats=("human", "human"), users=users,
                                      state=ludo_state(pieces=[[56, 56, 56, 50], [56, 56, 56, 50]]), **kw))


@pytest.mark.django_db
class TestHistory:
    def test_each_row_names_its_time_control_and_the_filter_picks_one(self, client):
        me, ann = make_user("me"), make_user("ann")
        live = make_match(seats=("human", "human"), users=[me, ann], state=ludo_state())
        slow = make_match(seats=("human", "human"), users=[me, ann], state=ludo_state(), turn_seconds=DAYS_3)

        def listed(query=""):
            html = client.get(f"/u/me/matches/{query}").content.decode()
            return {m.public_id for m in (live, slow) if f'data-match="{m.public_id}"' in html}, html

        rows, html = listed()
        assert rows == {live.public_id, slow.public_id}
        assert '<span class="tag time-control" title="3 days a decision">turn-based</span>' in html
        assert f'<span class="tag time-control" title="{live.turn_seconds} s a decision">live</span>' in html
        assert listed("?control=turn-based")[0] == {slow.public_id}
        assert listed("?control=live")[0] == {live.public_id}

    def test_a_bad_time_control_filter_is_explained_and_ignored(self, client):
        make_user("me")
        response = client.get("/u/me/matches/?control=slow")
        assert response.status_code == 400 and "Select a valid choice" in response.content.decode()


@pytest.mark.django_db
class TestLeaderboard:
    @pytest.fixture
    def board(self):
        """ann played live and turn-based, bob live only, cat turn-based only
        (one voided of two), dan a turn-based match voided: one Ludo rating each."""
        ann, bob, cat, dan = (make_user(n) for n in ("ann", "bob", "cat", "dan"))
        for user, rating in ((ann, 1700), (bob, 1650), (cat, 1600), (dan, 1550)):
            Rating.objects.create(user=user, kind="ludo", rating=rating, games=30, peak=rating)

        def rated(user, turn_seconds=None, void=False):
            match = make_match(seats=("human", "easy"), users=[user], state=ludo_state(), start=False,
                               rated=True, **({"turn_seconds": turn_seconds} if turn_seconds else {}))
            RatingChange.objects.create(match=match, user=user, kind="ludo",
                                        before=1500, after=1510, delta=10)
            if void:
                RatingVoid.objects.create(match=match, user=user, kind="ludo", delta=10,
                                          rating_before=1510, rating_after=1500, games_before=31,
                                          games_after=30, peak_before=1510, peak_after=1510, reason="test")

        rated(ann), rated(ann, DAYS_3), rated(ann, DAYS_3)
        rated(bob)
        rated(cat, DAYS_3), rated(cat, DAYS_3, void=True)
        rated(dan, DAYS_3, void=True)

    @staticmethod
    def rows(client, query=""):
        html = client.get(f"/leaderboard/ludo/{query}").content.decode()
        body = html[html.index("<tbody>"):]
        names = [n for n in ("ann", "bob", "cat", "dan") if f'href="/u/{n}/"' in body]
        return sorted(names, key=lambda n: body.index(f'href="/u/{n}/"')), html

    def test_all_lists_everyone_by_their_one_rating(self, client, board):
        names, html = self.rows(client)
        assert names == ["ann", "bob", "cat", "dan"]
        assert 'aria-current="page">All<' in html and "Of them" not in html

    def test_turn_based_lists_who_played_it_with_their_counted_matches(self, client, board):
        names, html = self.rows(client, "?control=turn-based")
        assert names == ["ann", "cat"]  # dan's only one was voided
        assert '<th scope="col">Of them turn-based</th>' in html
        assert html.count('<td class="control-games">2</td>') == 1  # ann
        assert html.count('<td class="control-games">1</td>') == 1  # cat: one voided
        assert '<td class="rating">1700</td>' in html  # the rating itself, not a second one

    def test_live_lists_who_played_it(self, client, board):
        names, html = self.rows(client, "?control=live")
        assert names == ["ann", "bob"]
        assert 'href="/leaderboard/rondo/?control=live"' in html  # the game tabs keep the filter

    def test_a_bad_filter_is_named_and_the_whole_board_shown(self, client, board):
        response = client.get("/leaderboard/ludo/?control=blitz")
        assert response.status_code == 400
        assert "There is no such time control" in response.content.decode()
        assert self.rows(client, "?control=blitz")[0] == ["ann", "bob", "cat", "dan"]


@pytest.mark.django_db
def test_the_export_names_the_time_control(client):
    ann, bob = make_user(), make_user()
    slow = played_out([ann, bob], turn_seconds=DAYS_3)
    data = json.loads(client.get(f"/m/{slow.public_id}/export.json").content)
    assert data["turn_seconds"] == DAYS_3
    assert data["time_control"] == {"kind": "turn-based", "per_decision": "3 days", "pgn": "1/259200"}
    live = played_out([ann, bob])
    data = json.loads(client.get(f"/m/{live.public_id}/export.json").content)
    assert data["time_control"]["kind"] == "live"
    assert data["time_control"]["per_decision"] == f"{live.turn_seconds} s"
