"""History, profile, leaderboard, replay and export pages (README "Ranked play")."""

import json

import pytest

from accounts.models import Rating
from games.models import Move, RatingChange
from tests.factories import ludo_state, make_match, make_user, play_to_the_end


@pytest.fixture(autouse=True)
def no_effects(monkeypatch):
    from games import push, tasks

    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


def near_win(players=2):
    return ludo_state(players, phase="move", die=1, pieces=[[56, 56, 56, 55]] + [[-1] * 4] * (players - 1))


def played_out(**kw):
    """A two-player match played to its end through the actions, dice and all
    (each seat's last piece needs an exact 6 from progress 50)."""
    return play_to_the_end(make_match(seats=("human", "human"),
                                      state=ludo_state(pieces=[[56, 56, 56, 50], [56, 56, 56, 50]]), **kw))


@pytest.mark.django_db
class TestHistory:
    def test_filters_by_game_type_result_and_opponent(self, client):
        me, ann, bob = make_user("me"), make_user("ann"), make_user("bob")
        won = make_match(seats=("human", "human"), users=[me, ann], state=near_win(), rated=True)
        lost = make_match(seats=("human", "human"), users=[bob, me], state=near_win())
        live = make_match(seats=("human", "easy"), users=[me], state=ludo_state())

        def listed(query=""):
            html = client.get(f"/u/me/matches/{query}").content.decode()
            return {m.public_id for m in (won, lost, live) if f'data-match="{m.public_id}"' in html}

        assert listed() == {won.public_id, lost.public_id, live.public_id}
        assert listed("?rated=rated") == {won.public_id}
        assert listed("?rated=casual") == {lost.public_id, live.public_id}
        assert listed("?result=won") == {won.public_id}
        assert listed("?result=lost") == {lost.public_id}
        assert listed("?result=unranked") == {live.public_id}
        assert listed("?opponent=BOB") == {lost.public_id}
        assert listed("?kind=ludo&opponent=ann&result=won") == {won.public_id}
        assert listed("?kind=rondo") == set()

    def test_bad_filters_are_explained_and_ignored(self, client):
        make_user("me")
        response = client.get("/u/me/matches/?kind=chess&opponent=nobody&before=zz")
        assert response.status_code == 400
        html = response.content.decode()
        assert "Select a valid choice" in html and "There is no player called" in html

    def test_pages_of_25_newest_first_with_older_and_newer_links(self, client):
        import re

        me = make_user("me")
        matches = [make_match(seats=("human", "easy"), users=[me], state=near_win()) for _ in range(30)]
        html = client.get("/u/me/matches/?kind=ludo").content.decode()
        assert html.count("data-match=") == 25 and "Newer" not in html
        assert f'data-match="{matches[-1].public_id}"' in html
        assert f'data-match="{matches[0].public_id}"' not in html
        older = re.search(r'href="\?([^"]*before=\d+)"', html)[1].replace("&amp;", "&")
        assert "kind=ludo" in older  # the filters carry over
        html = client.get(f"/u/me/matches/?{older}").content.decode()
        assert html.count("data-match=") == 5 and f'data-match="{matches[0].public_id}"' in html
        assert "Older" not in html
        newer = re.search(r'href="\?([^"]*after=\d+)"', html)[1].replace("&amp;", "&")
        html = client.get(f"/u/me/matches/?{newer}").content.decode()
        assert html.count("data-match=") == 25 and f'data-match="{matches[-1].public_id}"' in html
        assert client.get("/u/me/matches/?before=zz&after=-4").status_code == 200

    def test_filters_and_pages_through_htmx_get_the_results_alone(self, client):
        import re

        me = make_user("me")
        for _ in range(27):
            make_match(seats=("human", "easy"), users=[me], state=near_win())
        hx = {"HX-Request": "true"}
        response = client.get("/u/me/matches/?kind=ludo", headers=hx)
        html = response.content.decode()
        assert response.status_code == 200 and "HX-Request" in response["Vary"]
        assert "<html" not in html and 'class="history-filter"' not in html
        assert html.count('id="history-results"') == 1 and html.count("data-match=") == 25
        older = re.search(r'hx-get="\?([^"]*before=\d+)"', html)[1].replace("&amp;", "&")
        html = client.get(f"/u/me/matches/?{older}", headers=hx).content.decode()
        assert html.count("data-match=") == 2 and "<html" not in html
        bad = client.get("/u/me/matches/?opponent=nobody&kind=chess", headers=hx)
        text = bad.content.decode()
        assert bad.status_code == 200 and "Ignored:" in text and "There is no player called" in text
        assert text.count("data-match=") == 25  # the bad filters ignored
        assert client.get("/u/me/matches/?opponent=nobody").status_code == 400  # the page says it too
        for whole in ({"HX-History-Restore-Request": "true"}, {"HX-Boosted": "true"}):
            assert "<html" in client.get("/u/me/matches/", headers={**hx, **whole}).text

    def test_private_matches_only_for_their_members(self, client):
        me, friend, stranger = make_user("me"), make_user("friend"), make_user("stranger")
        private = make_match(seats=("human", "human"), users=[me, friend], state=near_win(), is_public=False)
        pid = private.public_id
        for viewer, visible in ((None, False), (stranger, False), (friend, True), (me, True)):
            client.logout()
            if viewer:
                client.force_login(viewer)
            assert (f'data-match="{pid}"' in client.get("/u/me/matches/").content.decode()) is visible
            assert (client.get(f"/m/{pid}/replay/").status_code == 200) is visible
            assert (client.get(f"/m/{pid}/export.json").status_code == 200) is visible

    def test_my_matches_goes_to_my_history(self, client):
        me = make_user("me")
        assert client.get("/matches/").url.startswith("/login/")
        client.force_login(me)
        assert client.get("/matches/").url == "/u/me/matches/"


@pytest.mark.django_db
class TestProfileAndLeaderboard:
    def test_profile_shows_ratings_a_chart_point_per_rated_match_and_recent_matches(self, client):
        me = make_user("me")
        for _ in range(3):
            make_match(seats=("human", "human"), users=[me], state=near_win(), rated=True)
        html = client.get("/u/ME/").content.decode()
        r = Rating.objects.get(user=me, kind="ludo")
        assert r.display.endswith("?") and f"{r.display} <small>(provisional)</small>" in html
        assert html.count('class="chart-dot"') == 3
        assert "<svg" in html and "rating over 3 rated matches: from 1500 to" in html
        assert html.count("data-match=") == 3
        assert client.get("/u/nobody/").status_code == 404

    def test_leaderboard_lists_the_top_100_established_ratings_then_the_provisional_ones(self, client):
        for i in range(105):
            Rating.objects.create(user=make_user(f"p{i:03}"), kind="ludo", rating=1000 + i, games=20, peak=0)
        Rating.objects.create(user=make_user("newcomer"), kind="ludo", rating=3000, games=19, peak=3000)
        Rating.objects.create(user=make_user("novice"), kind="ludo", rating=1400, games=1, peak=1500)
        Rating.objects.create(user=make_user("voided"), kind="ludo", rating=1500, games=0, peak=1500)
        html = client.get("/leaderboard/ludo/").content.decode()
        assert html.count('<td class="rating">') == 100
        assert html.index("p104") < html.index("p103") and "p004" not in html and "p005" in html
        # Below every established rating however high theirs, marked, best first; none without a rated match.
        assert html.index("p005") < html.index("Provisional: fewer than 20") < html.index("newcomer")
        assert html.index("newcomer") < html.index("novice") and "voided" not in html
        assert html.count("<tr data-provisional>") == 2
        assert '<td class="rating provisional">3000?</td>' in html

    def test_a_young_leaderboard_shows_its_provisional_players(self, client):
        Rating.objects.create(user=make_user("first"), kind="rondo", rating=1520, games=1, peak=1520)
        html = client.get("/leaderboard/rondo/").content.decode()
        assert "Nobody has played 20 rated matches of Rondo yet." in html and "first" in html
        assert "1520?" in html
        assert "Nobody has played a rated match of Roundabout yet." in client.get(
            "/leaderboard/roundabout/").content.decode()
        assert client.get("/leaderboard/").url == "/leaderboard/ludo/"
        assert client.get("/leaderboard/chess/").status_code == 404

    def test_banned_players_leave_the_leaderboard_while_the_ban_lasts(self, client):
        from datetime import timedelta

        from django.utils import timezone

        for name, rating in (("cheat", 2000), ("honest", 1600), ("served", 1700)):
            Rating.objects.create(user=make_user(name), kind="ludo", rating=rating, games=20, peak=rating)
        User = Rating._meta.get_field("user").related_model
        User.objects.filter(username="cheat").update(banned_until=timezone.now() + timedelta(days=7))
        User.objects.filter(username="served").update(banned_until=timezone.now() - timedelta(days=1))
        html = client.get("/leaderboard/ludo/").content.decode()
        assert "cheat" not in html
        assert html.index("served") < html.index("honest")  # a suspension that ended counts again
        assert Rating.objects.get(user__username="cheat").rating == 2000  # kept, only not listed


@pytest.mark.django_db
class TestReplayAndExport:
    def test_places_show_only_when_the_replay_reaches_the_end(self, client):
        match = played_out()
        total = Move.objects.filter(match=match).count()
        assert sorted(match.seats.values_list("rank", flat=True)) == [1, 2]
        start = client.get(f"/m/{match.public_id}/replay/").content.decode()
        before_end = client.get(f"/m/{match.public_id}/replay/?ply={total - 1}").content.decode()
        end = client.get(f"/m/{match.public_id}/replay/?ply={total}").content.decode()
        assert 'class="rank"' not in start and 'class="rank"' not in before_end
        assert "Place 1" in end and "Place 2" in end

    def test_each_ply_rebuilds_the_board_from_the_record(self, client):
        match = played_out()
        moves = list(Move.objects.filter(match=match).order_by("ply"))
        total = len(moves)
        html = client.get(f"/m/{match.public_id}/replay/").content.decode()
        assert f"Ply 0 of {total}" in html and "The starting position." in html
        assert 'id="replay-prev"' in html and 'aria-disabled="true"' in html
        assert 'id="board"' in html and 'href="?ply=1"' in html
        die_at = next(m.ply for m in moves if m.notation.startswith("d"))
        html = client.get(f"/m/{match.public_id}/replay/?ply={die_at + 1}").content.decode()
        assert f"rolled {moves[die_at].notation[1:]}" in html
        assert f"Last roll: {moves[die_at].notation[1:]}" in html  # the die as the board shows it
        html = client.get(f"/m/{match.public_id}/replay/?ply={total + 50}").content.decode()
        assert f"Ply {total} of {total}" in html
        assert client.get(f"/m/{match.public_id}/replay/?ply=abc").status_code == 200

    def test_an_htmx_step_gets_only_the_out_of_band_parts_and_the_response_varies_on_it(self, client):
        match = played_out()
        url = f"/m/{match.public_id}/replay/?ply=3"
        page = client.get(url)
        step = client.get(url, headers={"HX-Request": "true"})
        assert "HX-Request" in page["Vary"] and "HX-Request" in step["Vary"]
        html = step.content.decode()
        assert "<html" not in html and "fairness" not in html and "replay-record" not in html
        for part in ('id="replay-nav"', 'id="replay-move"', 'id="board"', 'id="seats"', 'id="dice"'):
            assert html.count(part) == 1, part
            assert html.split(part)[1].split(">")[0].count('hx-swap-oob="true"') == 1, part
        assert "Ply 3 of" in html
        restore = client.get(url, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
        assert "<html" in restore.content.decode()  # htmx's history cache missed: the whole page
        live = make_match(seats=("human", "human"), state=ludo_state())
        moved = client.get(f"/m/{live.public_id}/replay/", headers={"HX-Request": "true"})
        assert moved["HX-Redirect"] == f"/m/{live.public_id}/"

    def test_the_fairness_panel_recomputes_every_chance_outcome(self, client):
        from games import replays

        match = played_out()
        chance = Move.objects.filter(match=match, actor="chance").count()
        html = client.get(f"/m/{match.public_id}/replay/").content.decode()
        assert match.seed_hash in html and match.seed in html
        assert f"Every chance outcome matches the revealed seed ({chance} checked)." in html
        die = Move.objects.filter(match=match, notation__startswith="d").first()
        Move.objects.filter(pk=die.pk).update(notation="d6" if die.notation != "d6" else "d1")
        # No action writes to an ended match's record; one changed by hand in the
        # database is read again when the server restarts (README "Replays").
        replays.forget()
        html = client.get(f"/m/{match.public_id}/replay/").content.decode()
        assert f"Mismatch at ply {die.ply}" in html

    def test_a_live_match_has_no_replay_and_no_export(self, client):
        match = make_match(seats=("human", "human"), state=ludo_state())
        assert client.get(f"/m/{match.public_id}/replay/").url == f"/m/{match.public_id}/"
        assert client.get(f"/m/{match.public_id}/export.json").status_code == 404
        assert client.get("/m/nosuchmatch/replay/").status_code == 404

    def test_export_holds_seed_options_players_moves_and_result(self, client):
        match = played_out(rated=True)
        response = client.get(f"/m/{match.public_id}/export.json")
        assert response["Content-Type"] == "application/json"
        assert "attachment" in response["Content-Disposition"]
        data = json.loads(response.content)
        assert data["seed"] == match.seed and data["seed_commitment"] == match.seed_hash
        assert data["options"] == match.options and data["rated"] is True
        assert [p["username"] for p in data["players"]] == [s.user.username for s in match.seats.all()]
        assert sorted(data["result"]["ranks"]) == [1, 2]
        record = [m["move"] for m in data["moves"]]
        assert record == list(
            Move.objects.filter(match=match).order_by("ply").values_list("notation", flat=True))
        changes = {c.user.username: c for c in RatingChange.objects.filter(match=match)}
        assert all(p["rating_after"] == changes[p["username"]].after for p in data["players"])
        from games.engine import fair

        assert fair.verify_record("ludo", data["seed"], data["id"], data["start_state"], record,
                                  data["seed_commitment"]).ok


def test_a_rated_match_that_ended_without_a_rating_is_listed_as_not_rated():
    """The history's tag follows the rating, not only the match's flag: a rated match
    that ended with no change for the seat (a player left before every seat had moved,
    or a moderator aborted it) reads "not rated" (before, "rated")."""
    from games.history import HistoryRow
    from games.models import Match

    ended = Match(kind="ludo", rated=True, status=Match.Status.FINISHED)
    live = Match(kind="ludo", rated=True, status=Match.Status.ACTIVE)
    casual = Match(kind="ludo", rated=False, status=Match.Status.FINISHED)
    assert HistoryRow(ended, None, [], None).rating_tag == "not rated"
    assert HistoryRow(ended, None, [], object()).rating_tag == "rated"
    assert HistoryRow(live, None, [], None).rating_tag == "rated"
    assert HistoryRow(casual, None, [], None).rating_tag == "casual"
    assert HistoryRow(ended, None, [], None, voided=True).rating_tag == "voided"
