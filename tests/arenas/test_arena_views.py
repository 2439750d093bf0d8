"""The arena pages and forms (README "Arenas"): the list and an arena's page
for anyone, 404 for a bad id, the join form's refusals as a message (never a
500), and the admin's schedule form for staff."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from arenas.models import Arena, ArenaPlayer, ArenaSchedule
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _arena(**kw):
    fields = {"name": "Rondo evening", "kind": "rondo", "seats": 3, "minutes": 60,
              "starts_at": timezone.now() + timedelta(hours=1)}
    fields.update(kw)
    return Arena.objects.create(**fields)


def test_the_list_and_the_page_for_anyone_and_404_for_no_such_arena():
    arena = _arena()
    client = Client()
    page = client.get("/arenas/")
    assert page.status_code == 200 and "Rondo evening" in page.text and "Upcoming" in page.text
    page = client.get(f"/arenas/{arena.pk}/")
    assert page.status_code == 200 and "3 per table" in page.text and "Log in" in page.text
    for bad in ("999999", "0"):
        assert client.get(f"/arenas/{bad}/").status_code == 404
    assert client.get("/arenas/x/").status_code == 404


def test_joining_twice_or_a_finished_arena_is_refused_with_a_message():
    arena = _arena()
    ann = make_user("ann")
    client = Client()
    client.force_login(ann)
    assert client.post(f"/arenas/{arena.pk}/join/").status_code == 302
    again = client.post(f"/arenas/{arena.pk}/join/", follow=True)
    assert "already in this arena" in again.text
    assert ArenaPlayer.objects.filter(user=ann).count() == 1
    done = _arena(starts_at=timezone.now() - timedelta(hours=3), finished_at=timezone.now())
    refused = client.post(f"/arenas/{done.pk}/join/", follow=True)
    assert "This arena has ended." in refused.text
    assert not ArenaPlayer.objects.filter(arena=done).exists()
    assert client.get(f"/arenas/{arena.pk}/join/").status_code == 405
    assert client.post("/arenas/424242/withdraw/").status_code == 404
    assert Client().post(f"/arenas/{arena.pk}/join/").status_code == 302  # to the log-in page
    assert ArenaPlayer.objects.filter(arena=arena).count() == 1


def test_staff_schedule_a_recurring_arena_in_the_admin():
    boss = make_user("boss")
    boss.is_staff = boss.is_superuser = True
    boss.save()
    client = Client()
    client.force_login(boss)
    assert client.get("/admin/arenas/arenaschedule/add/").status_code == 200
    start = timezone.now() + timedelta(minutes=5)
    form = {"name": "Ludo 4-player hourly", "kind": "ludo", "seats": 4, "turn_seconds": 60, "minutes": 30,
            "rated": "on", "rated_from_players": 4, "rated_meetings": 3, "max_players": "",
            "first_start_0": start.strftime("%Y-%m-%d"), "first_start_1": start.strftime("%H:%M:%S"),
            "every_minutes": 60, "active": "on"}
    bad = client.post("/admin/arenas/arenaschedule/add/", {**form, "every_minutes": 10})
    assert bad.status_code == 200 and not ArenaSchedule.objects.exists()  # shorter than the arena itself
    assert client.post("/admin/arenas/arenaschedule/add/", form).status_code == 302
    schedule = ArenaSchedule.objects.get()
    assert schedule.created_by == boss and schedule.seats == 4
    # Moved by 15 minutes: the announced arenas nobody joined are made again, not doubled.
    from arenas import actions

    actions.create_due()
    joined = Arena.objects.filter(schedule=schedule).order_by("starts_at").last()
    ArenaPlayer.objects.create(arena=joined, user=make_user("keen"), joined_at=timezone.now(), rating=1500)
    later = start + timedelta(minutes=15)
    moved = {**form, "first_start_0": later.strftime("%Y-%m-%d"), "first_start_1": later.strftime("%H:%M:%S")}
    assert client.post(f"/admin/arenas/arenaschedule/{schedule.pk}/change/", moved).status_code == 302
    actions.create_due()
    starts = sorted(a.starts_at.replace(microsecond=0) for a in Arena.objects.filter(schedule=schedule))
    kept = joined.starts_at.replace(microsecond=0)
    assert kept in starts  # joined: it stands
    assert all(s == kept or (s - later.replace(microsecond=0)) % timedelta(minutes=60) == timedelta(0)
               for s in starts)


def test_a_flood_of_joins_and_withdrawals_is_refused_and_changes_nothing():
    from arenas.views import ENTRY_RATE, FLOODED
    from core import ratelimits

    ratelimits.reset()
    try:
        arena = _arena()
        ann = make_user("ann")
        client = Client()
        client.force_login(ann)
        allowed = int(ENTRY_RATE.split("/")[0])
        for i in range(allowed):
            step = "join" if i % 2 == 0 else "withdraw"
            page = client.post(f"/arenas/{arena.pk}/{step}/", follow=True)
            assert FLOODED not in page.text
        status = ArenaPlayer.objects.get(arena=arena, user=ann).status  # withdrawn: the last was one
        page = client.post(f"/arenas/{arena.pk}/join/", follow=True)
        assert page.status_code == 200 and FLOODED in page.text
        assert ArenaPlayer.objects.get(arena=arena, user=ann).status == status == ArenaPlayer.Status.WITHDRAWN
        # Someone else is not held back by ann's flood.
        bob = Client()
        bob.force_login(make_user("bob"))
        assert FLOODED not in bob.post(f"/arenas/{arena.pk}/join/", follow=True).text
        assert ArenaPlayer.objects.filter(arena=arena, status=ArenaPlayer.Status.ACTIVE).count() == 1
    finally:
        ratelimits.reset()


def _crowd(n, **kw):
    """A running arena of ``n`` players named p001.. in rank order (p001 first)."""
    from accounts.models import User

    arena = _arena(starts_at=timezone.now() - timedelta(minutes=5), **kw)
    users = User.objects.bulk_create(User(username=f"p{i:03d}", email=f"p{i}@example.com", password="!")
                                     for i in range(1, n + 1))
    ArenaPlayer.objects.bulk_create(
        ArenaPlayer(arena=arena, user=u, joined_at=timezone.now(), rating=1500, points=n + 1 - i, wins=0,
                    reached_at=timezone.now(), sequence=str(n + 1 - i))
        for i, u in enumerate(users, 1))
    return arena, users


def _ranks(html):
    import re

    return [int(r) for r in re.findall(r'<td class="rank">(\d+)</td>', html)]


def test_a_large_arena_shows_the_first_hundred_and_the_viewers_own_row_below():
    arena, users = _crowd(150)
    client = Client()
    client.force_login(users[139])  # 140th
    page = client.get(f"/arenas/{arena.pk}/")
    assert page.status_code == 200
    assert _ranks(page.text) == [*range(1, 101), 140]
    me = ArenaPlayer.objects.get(arena=arena, user=users[139])
    assert f'data-me="arena-row-{me.pk}"' in page.text and "data-live" in page.text
    assert 'class="arena-gap"' in page.text and "is-me" in page.text
    assert "… and 50 more players." in page.text
    assert f'href="/arenas/{arena.pk}/?page=2"' in page.text and 'aria-current="page">1<' in page.text
    # Signed out, or within the hundred: no own row, no gap.
    assert _ranks(Client().get(f"/arenas/{arena.pk}/").text) == list(range(1, 101))
    client.force_login(users[9])
    page = client.get(f"/arenas/{arena.pk}/").text
    assert _ranks(page) == list(range(1, 101)) and 'class="arena-gap"' not in page
    # The second page: places 101 to 150, as loaded (not live), linking back.
    page = client.get(f"/arenas/{arena.pk}/?page=2").text
    assert _ranks(page) == list(range(101, 151))
    assert "data-live" not in page and "Places 101 to 150 of 150." in page
    assert f'href="/arenas/{arena.pk}/">1</a>' in page and f'/ws/arena/{arena.pk}/?page=2"' in page


def test_bad_page_numbers_give_the_first_page_or_404_never_500():
    arena, _users = _crowd(150)
    client = Client()
    for junk in ("", "x", "0", "-1", "1.5", "2abc", "%00", "9" * 5000):
        page = client.get(f"/arenas/{arena.pk}/?page={junk}")
        assert page.status_code == 200 and _ranks(page.text)[:1] == [1], junk
    for beyond in ("3", "99999999999999999999999"):
        assert client.get(f"/arenas/{arena.pk}/?page={beyond}").status_code == 404
    empty = _arena()
    assert client.get(f"/arenas/{empty.pk}/?page=1").status_code == 200  # an empty table has its one page
    assert client.get(f"/arenas/{empty.pk}/?page=2").status_code == 404


def test_the_page_reads_a_bounded_number_of_queries_whatever_the_crowd(django_assert_max_num_queries):
    arena, users = _crowd(150)
    client = Client()
    client.force_login(users[139])
    client.get(f"/arenas/{arena.pk}/")
    with django_assert_max_num_queries(25):
        assert client.get(f"/arenas/{arena.pk}/").status_code == 200


def test_an_arena_match_over_offers_the_way_back_to_the_arena_and_no_rematch():
    from arenas import actions
    from games import actions as game_actions
    from games.models import Match
    from matchmaking.rematch import actions as rematch

    arena = _arena(kind="ludo", seats=2, starts_at=timezone.now() - timedelta(minutes=1))
    ann, bob = make_user("ann"), make_user("bob")
    for u in (ann, bob):
        actions.join(u, arena.pk)
    actions.pair_arena(arena.pk)
    match = Match.objects.get(arena_match__arena=arena)
    game_actions.leave_match(match.public_id, bob)
    client = Client()
    client.force_login(ann)
    page = client.get(f"/m/{match.public_id}/").text
    back = f'<a href="/arenas/{arena.pk}/" id="back-to-event" class="button">Back to Rondo evening</a>'
    assert back in page
    assert "Offer a rematch" not in page
    with pytest.raises(rematch.RematchRefused, match="no rematch"):
        rematch.do_offer(match.public_id, ann)


def test_the_admin_lists_filter_arenas_by_the_games_display_names():
    boss = make_user("boss")
    boss.is_staff = boss.is_superuser = True
    boss.save()
    _arena()
    client = Client()
    client.force_login(boss)
    for path in ("/admin/arenas/arena/", "/admin/arenas/arenaschedule/"):
        page = client.get(path).text
        assert 'href="?kind__exact=rondo">Rondo</a>' in page, path


def test_a_finished_arenas_podium_and_own_score_count_points_in_words():
    """"1 point", never "1 points" (the podium and the viewer's own score)."""
    arena, users = _crowd(3, finished_at=timezone.now(), closed_at=timezone.now())
    ArenaPlayer.objects.filter(user=users[2]).update(points=0)
    client = Client()
    client.force_login(users[1])  # p002: 2 - 1 = 1 point
    ArenaPlayer.objects.filter(user=users[1]).update(points=1)
    page = client.get(f"/arenas/{arena.pk}/").text
    assert "You scored <strong>1</strong> point." in page
    assert "<strong>1</strong> point</li>" in page and "<strong>3</strong> points</li>" in page
    assert "1</strong> points" not in page
