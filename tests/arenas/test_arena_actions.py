"""Arenas through their actions (README "Arenas"): joining and its refusals,
pairing free players into matches, scoring a match once when it ends, the
close and the podium, disqualification and voids."""

from datetime import timedelta

import pytest
from django.utils import timezone

from arenas import actions, standings
from arenas.models import Arena, ArenaMatch, ArenaPlayer, ArenaResult, ArenaSchedule
from games import actions as game_actions
from games.models import Match
from matchmaking.models import QueueEntry
from matchmaking.queue import actions as queue_actions
from moderation import actions as moderation
from tests.factories import every_seat_moves, make_user

pytestmark = pytest.mark.django_db


def make_arena(**kw) -> Arena:
    now = timezone.now()
    fields = {"name": "Ludo duel", "kind": "ludo", "seats": 2, "turn_seconds": 30, "minutes": 30,
              "starts_at": now - timedelta(minutes=1), "rated": True, "rated_from_players": 2}
    fields.update(kw)
    return Arena.objects.create(**fields)


def arena_match_of(user) -> Match:
    return Match.objects.get(seats__user=user, arena_match__isnull=False, status=Match.Status.ACTIVE)


def test_joining_a_running_arena_pairs_two_free_players_into_a_rated_public_match():
    arena = make_arena()
    ann, bob = make_user("ann"), make_user("bob")
    actions.join(ann, arena.pk)
    assert not Match.objects.exists()  # one free player: no table
    actions.join(bob, arena.pk)
    actions.pair_arena(arena.pk)
    match = arena_match_of(ann)
    assert {s.user for s in match.seats.all()} == {ann, bob}
    assert match.rated and match.is_public and match.turn_seconds == 30
    assert ArenaPlayer.objects.filter(arena=arena, free_since__isnull=True).count() == 2
    assert actions.pair_arena(arena.pk) == []  # both busy now


def test_join_refusals_change_nothing():
    arena = make_arena(max_players=2)
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    actions.join(ann, arena.pk)
    with pytest.raises(actions.ArenaError, match="already in this arena"):
        actions.join(ann, arena.pk)
    actions.join(bob, arena.pk)
    with pytest.raises(actions.ArenaError, match="full"):
        actions.join(cat, arena.pk)
    for bad in ("x", None, "99999", -1):
        with pytest.raises(actions.ArenaError, match="no such arena"):
            actions.join(cat, bad)
    ended = make_arena(starts_at=timezone.now() - timedelta(hours=2))
    with pytest.raises(actions.ArenaError, match="ended"):
        actions.join(cat, ended.pk)
    cat.banned_until = timezone.now() + timedelta(days=1)
    cat.save()
    with pytest.raises(actions.ArenaError, match="cannot join"):
        actions.join(cat, make_arena().pk)
    assert ArenaPlayer.objects.filter(user=cat).count() == 0
    assert ArenaPlayer.objects.filter(arena=arena).count() == 2


def test_an_upcoming_arena_takes_joins_but_pairs_nobody_until_it_starts():
    arena = make_arena(starts_at=timezone.now() + timedelta(minutes=10))
    for name in ("ann", "bob"):
        actions.join(make_user(name), arena.pk)
    assert actions.pair_arena(arena.pk) == []
    assert actions.pair_arena(arena.pk, now=timezone.now() + timedelta(minutes=11))


def test_a_finished_match_scores_once_frees_both_and_pauses_the_leaver():
    arena = make_arena()
    ann, bob = make_user("ann"), make_user("bob")
    actions.join(ann, arena.pk)
    actions.join(bob, arena.pk)
    actions.pair_arena(arena.pk)
    match = arena_match_of(ann)
    every_seat_moves(match)
    game_actions.leave_match(match.public_id, bob)  # ann wins; bob forfeits
    a, b = ArenaPlayer.objects.get(user=ann), ArenaPlayer.objects.get(user=bob)
    assert (a.points, a.wins, a.sequence) == (2, 1, "2")
    assert (b.points, b.status, b.sequence) == (0, ArenaPlayer.Status.PAUSED, "0")
    assert "left" in b.paused_reason
    assert a.free_since is not None and b.free_since is not None
    assert a.last_opponents == [bob.pk]
    assert ArenaMatch.objects.get(match=match).scored
    assert ArenaResult.objects.filter(arena_match__match=match).count() == 2
    # Another end signal for the same match scores nothing more.
    from games import signals

    signals.match_ended.send(sender=Match, match=Match.objects.get(pk=match.pk),
                             seats=list(match.seats.all()))
    assert ArenaResult.objects.filter(arena_match__match=match).count() == 2
    assert ArenaPlayer.objects.get(user=ann).points == 2
    # The paused player is not paired until they resume.
    assert actions.pair_arena(arena.pk) == []
    actions.resume(bob, arena.pk)
    assert actions.pair_arena(arena.pk)


def test_an_aborted_match_scores_nothing_and_frees_its_players():
    arena = make_arena()
    ann, bob = make_user("ann"), make_user("bob")
    actions.join(ann, arena.pk)
    actions.join(bob, arena.pk)
    actions.pair_arena(arena.pk)
    match = arena_match_of(ann)
    game_actions.abort_match(match.public_id)
    assert not ArenaResult.objects.exists()
    assert ArenaPlayer.objects.filter(free_since__isnull=False, status="active").count() == 2


def test_pairing_leaves_the_ranked_queue_and_skips_players_busy_elsewhere():
    arena = make_arena()
    ann, bob, cat, dan = (make_user(n) for n in ("ann", "bob", "cat", "dan"))
    queue_actions.join_queue(ann, "ludo", 4)
    for u in (ann, bob, cat, dan):
        actions.join(u, arena.pk)
    game_actions.start_match(game_actions.create_match(
        "ludo", [game_actions.SeatSpec(user=cat), game_actions.SeatSpec(computer_level="easy")]).public_id)
    actions.pair_arena(arena.pk)
    assert not QueueEntry.objects.filter(user=ann).exists()
    seated = set(Match.objects.filter(arena_match__isnull=False).values_list("seats__user", flat=True))
    assert cat.pk not in seated and len(seated) == 2


def test_withdraw_and_pause_keep_a_player_out_of_pairing_and_rejoin_keeps_points():
    arena = make_arena()
    ann, bob = make_user("ann"), make_user("bob")
    actions.join(ann, arena.pk)
    actions.join(bob, arena.pk)
    actions.withdraw(bob, arena.pk)
    assert actions.pair_arena(arena.pk) == []
    actions.join(bob, arena.pk)  # back
    actions.pause(ann, arena.pk)
    assert actions.pair_arena(arena.pk) == []
    with pytest.raises(actions.ArenaError, match="not paused"):
        actions.resume(bob, arena.pk)
    actions.resume(ann, arena.pk)
    assert actions.pair_arena(arena.pk)


def test_the_close_stops_pairing_and_the_podium_is_provisional_until_the_last_match_ends():
    # Ten minutes a turn: on a loaded machine the 30 s of make_arena ran out before
    # the second match was played (a late move times the turn out: CI, once).
    arena = make_arena(turn_seconds=600)
    ann, bob, cat, dan = (make_user(n) for n in ("ann", "bob", "cat", "dan"))
    for u in (ann, bob, cat, dan):
        actions.join(u, arena.pk)
    actions.pair_arena(arena.pk)
    first, second = (arena_match_of(u) for u in (ann, cat))
    first_loser = next(s.user for s in first.seats.all() if s.user != ann)
    every_seat_moves(first)
    game_actions.leave_match(first.public_id, first_loser)
    after_end = timezone.now() + timedelta(minutes=31)
    actions.close_due(after_end)
    arena.refresh_from_db()
    assert arena.phase(after_end) == "closing"
    assert actions.pair_arena(arena.pk, after_end) == []
    header = standings.header_context(arena, after_end)
    assert header["provisional"] and header["podium"][0].player.user == ann
    second_loser = next(s.user for s in second.seats.all() if s.user != cat)
    every_seat_moves(second)
    game_actions.leave_match(second.public_id, second_loser)  # ends after the close: still counts
    arena.refresh_from_db()
    assert arena.finished_at is not None and arena.phase(after_end) == "finished"
    assert ArenaPlayer.objects.get(user=cat).points == 2
    assert [r.player.user.username for r in standings.rows(arena)][:2] == sorted(["ann", "cat"])


def test_a_schedule_makes_its_next_arena_once():
    now = timezone.now()
    staff = make_user("staff")
    ArenaSchedule.objects.create(name="Ludo hourly", kind="ludo", seats=4, minutes=30, every_minutes=60,
                                 first_start=now - timedelta(hours=5, minutes=10), created_by=staff)
    made = actions.create_due(now)
    assert actions.create_due(now) == []
    starts = sorted(a.starts_at for a in made)
    assert starts[0] == now - timedelta(minutes=10)
    assert all(a.seats == 4 and a.name == "Ludo hourly" for a in made)
    assert len(made) == 3  # the one running now and the next two within 120 minutes


def test_disqualify_removes_points_and_is_audited_and_void_takes_points_back():
    arena = make_arena()
    ann, bob, mod = make_user("ann"), make_user("bob"), make_user("mod")
    actions.join(ann, arena.pk)
    actions.join(bob, arena.pk)
    actions.pair_arena(arena.pk)
    match = every_seat_moves(arena_match_of(ann))  # rated: a leave before that aborts the rating
    game_actions.leave_match(match.public_id, bob)
    moderation.void_match(mod, match.public_id, "collusion")
    a = ArenaPlayer.objects.get(user=ann)
    assert (a.points, a.sequence) == (0, "")
    assert ArenaResult.objects.filter(void=True).count() == 2
    player = moderation.disqualify_arena_player(mod, a.pk, "cheating")
    assert player.status == ArenaPlayer.Status.DISQUALIFIED
    from moderation.models import AuditLog

    assert AuditLog.objects.filter(action="disqualify", target_user=ann).exists()
    with pytest.raises(moderation.ModerationError):
        moderation.disqualify_arena_player(mod, a.pk, "again")
    with pytest.raises(actions.ArenaError, match="disqualified"):
        actions.join(ann, arena.pk)
    assert standings.rows(arena)[-1].rank is None


def test_a_finished_arena_names_itself_in_history_replay_and_export_and_its_podium_is_on_profiles():
    from django.test import Client

    arena = make_arena(name="Ludo sprint")
    ann, bob, cat, dan = (make_user(n) for n in ("ann", "bob", "cat", "dan"))
    for u in (ann, bob, cat, dan):
        actions.join(u, arena.pk)
    actions.pair_arena(arena.pk)
    # The tables are the pairing's (ties between equal ratings fall in the query's order):
    # ann's match, and the other one, whose winner is ``rival``.
    first = arena_match_of(ann)
    second = Match.objects.exclude(pk=first.pk).get(arena_match__arena=arena, status=Match.Status.ACTIVE)
    rival = second.seats.get(index=0).user
    assert first.event == "Ludo sprint" and first.event_url == f"/arenas/{arena.pk}/"
    every_seat_moves(first)
    game_actions.leave_match(first.public_id, next(s.user for s in first.seats.all() if s.user != ann))
    actions.close_due(timezone.now() + timedelta(minutes=31))
    assert set(ArenaPlayer.objects.values_list("final_rank", flat=True)) == {None}  # not finished yet
    every_seat_moves(second)
    game_actions.leave_match(second.public_id, next(s.user for s in second.seats.all() if s.user != rival))
    arena.refresh_from_db()
    assert arena.finished_at is not None
    ranks = {p.user.username: p.final_rank for p in ArenaPlayer.objects.select_related("user")}
    assert sorted(ranks.values()) == [1, 2, 3, 4] and {ranks["ann"], ranks[rival.username]} == {1, 2}

    client = Client()
    history = client.get(f"/u/{ann.username}/matches/").text
    assert f'<a class="event" href="/arenas/{arena.pk}/">Ludo sprint</a>' in history
    assert "Ludo sprint" in client.get(f"/m/{first.public_id}/replay/").text
    assert client.get(f"/m/{first.public_id}/export.json").json()["event"] == "Ludo sprint"
    profile = client.get(f"/u/{ann.username}/").text
    assert ("Podium finishes: 1, 1 of them first." if ranks["ann"] == 1 else "Podium finishes: 1.") in profile
    assert f"{ranks['ann']}{'st' if ranks['ann'] == 1 else 'nd'} of 4" in profile
    loser = next(u for u in (bob, cat, dan) if u != rival and ranks[u.username] == 4)
    profile = client.get(f"/u/{loser.username}/").text
    assert "No podium finish yet." in profile and "4th of 4" in profile
    assert "Arenas" not in client.get(f"/u/{make_user('eve').username}/").text.split("Recent matches")[1]

    # A disqualification after the finish moves everyone below up a place.
    mod = make_user("mod")
    winner = next(u for u in (ann, rival) if ranks[u.username] == 1)
    moderation.disqualify_arena_player(mod, ArenaPlayer.objects.get(user=winner).pk, "cheating")
    after = {p.user.username: p.final_rank for p in ArenaPlayer.objects.select_related("user")}
    assert after[winner.username] is None and sorted(r for r in after.values() if r) == [1, 2, 3]
    assert "Disqualified" in client.get(f"/u/{winner.username}/").text


def two_who_just_met(arena):
    """ann and bob of ``arena``, free again after a match against each other
    (bob left it, then resumed); the pairing a match end sends holds them."""
    ann, bob = make_user("ann"), make_user("bob")
    for u in (ann, bob):
        actions.join(u, arena.pk)
    actions.pair_arena(arena.pk)
    game_actions.leave_match(arena_match_of(ann).public_id, bob)
    actions.resume(bob, arena.pk)  # the leaver was paused
    assert ArenaPlayer.objects.get(user=ann).last_opponents == [bob.pk]
    assert actions.pair_arena(arena.pk, hold_repeats=True) == []
    return ann, bob


def test_after_a_match_end_two_who_just_met_wait_for_the_wave_which_pairs_them_if_nobody_else_is_free():
    arena = make_arena()
    ann, bob = two_who_just_met(arena)
    assert ArenaPlayer.objects.filter(free_since__isnull=False).count() == 2
    cat, dan = make_user("cat"), make_user("dan")
    for u in (cat, dan):
        actions.join(u, arena.pk)  # with others free, nobody meets their last opponent
    started = actions.pair_arena(arena.pk, hold_repeats=True)
    assert len(started) == 2
    for match in started:
        assert {s.user for s in match.seats.all()} != {ann, bob}


def test_the_wave_pairs_a_repeat_when_the_pool_allows_nothing_else():
    arena = make_arena()
    ann, bob = two_who_just_met(arena)
    (again,) = actions.pair_arena(arena.pk)  # the wave's call
    assert {s.user for s in again.seats.all()} == {ann, bob}


def test_an_arena_closed_with_no_match_running_is_finished_with_its_places():
    arena = make_arena()
    ann, bob = make_user("ann"), make_user("bob")
    for u in (ann, bob):
        actions.join(u, arena.pk)
    actions.pair_arena(arena.pk)
    game_actions.leave_match(arena_match_of(ann).public_id, bob)
    actions.close_due(timezone.now() + timedelta(minutes=31))
    arena.refresh_from_db()
    assert arena.finished_at is not None
    assert {p.user.username: p.final_rank for p in ArenaPlayer.objects.select_related("user")} == {
        "ann": 1, "bob": 2}


def test_a_leave_before_the_leavers_first_move_scores_nothing_for_the_others():
    arena = make_arena()
    ann, bob = make_user("ann"), make_user("bob")
    for u in (ann, bob):
        actions.join(u, arena.pk)
    actions.pair_arena(arena.pk)
    match = arena_match_of(ann)
    game_actions.leave_match(match.public_id, bob)  # before any move of bob's: no game for ann
    a, b = (ArenaPlayer.objects.get(user=u) for u in (ann, bob))
    assert (a.points, a.wins, b.points) == (0, 0, 0)
    assert ArenaResult.objects.get(player=a).void and ArenaResult.objects.get(player=b).forfeit
    assert b.status == ArenaPlayer.Status.PAUSED and b.paused_reason == "you left your last match"
    # Nobody had moved: the leave aborts the match's rating too (docs/rules.md "Leaving").
    assert Match.objects.get(pk=match.pk).rating_changes.count() == 0


def test_after_the_close_an_entry_no_longer_changes():
    arena = make_arena()
    ann = make_user("ann")
    actions.join(ann, arena.pk)
    actions.close_due(timezone.now() + timedelta(minutes=31))
    for change in (actions.withdraw, actions.pause, actions.resume):
        with pytest.raises(actions.ArenaError):
            change(ann, arena.pk)
    assert ArenaPlayer.objects.get(user=ann).status == ArenaPlayer.Status.ACTIVE


def test_the_admin_offers_the_games_as_a_list_and_keeps_ludo_at_its_fixed_turn_time():
    from django.core.exceptions import ValidationError

    staff = make_user("boss")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    from django.test import Client

    client = Client()
    client.force_login(staff)
    page = client.get("/admin/arenas/arena/add/").text
    assert '<select name="kind"' in page and '<option value="ludo">Ludo</option>' in page
    with pytest.raises(ValidationError, match="Ludo always has 60 s turns"):
        Arena(name="Fast Ludo", kind="ludo", seats=2, turn_seconds=20, minutes=30,
              starts_at=timezone.now()).full_clean()
    Arena(name="Fast Rondo", kind="rondo", seats=2, turn_seconds=20, minutes=30,
          starts_at=timezone.now()).full_clean()
    assert "Arena matches" in client.get(f"/admin/arenas/arena/{make_arena().pk}/change/").text
