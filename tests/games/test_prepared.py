"""games.prepared: the move path's queries, compiled once, give what the ORM gives."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import prepared
from games.models import Match, Move, Seat
from tests.factories import make_match

pytestmark = pytest.mark.django_db(transaction=True)

SEAT_FIELDS = (*(f.name for f in Seat._meta.concrete_fields), "user__username", "user__banned_until")


def _fields(obj, names):
    return {n: getattr(obj, n) for n in names}


def test_a_prepared_select_loads_what_the_orm_loads():
    match = make_match(seats=("human", "human", "normal"))
    match.deadline = timezone.now() + timedelta(seconds=30)
    match.save()
    lock = prepared.PreparedSelect(
        lambda pid: Match.objects.select_for_update().defer("start_state").filter(public_id=pid), "x")
    seats = prepared.PreparedSelect(
        lambda mid: Seat.objects.filter(match_id=mid).select_related("user").only(*SEAT_FIELDS), 1)

    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            got = lock.fetch(match.public_id)
            got_seats = seats.fetch(match.pk)
        assert len(queries) == 2  # the two SELECTs, seen by Django's query log
        again = lock.fetch(match.public_id)  # compiled once, run again with new rows
    assert lock.fetch("nosuchmatch") == []

    orm = Match.objects.defer("start_state").get(public_id=match.public_id)
    names = [f.attname for f in Match._meta.concrete_fields if f.name != "start_state"]
    assert len(got) == 1 and _fields(got[0], names) == _fields(orm, names)
    assert again[0].pk == orm.pk
    assert got[0].deadline == match.deadline  # a datetime, converted by the backend
    assert isinstance(got[0].state, dict)  # JSON, decoded by its field
    assert "start_state" in got[0].get_deferred_fields()

    orm_seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    assert [s.index for s in got_seats] == [0, 1, 2]
    for mine, theirs in zip(got_seats, orm_seats, strict=True):
        assert _fields(mine, ["pk", "index", "user_id", "computer_level", "status", "rank"]) == \
            _fields(theirs, ["pk", "index", "user_id", "computer_level", "status", "rank"])
        if theirs.user_id:
            with CaptureQueriesContext(connection) as queries:
                assert mine.user.username == theirs.user.username  # select_related: no query
            assert not queries


def test_a_prepared_select_refuses_a_query_whose_parameters_are_not_its_arguments():
    odd = prepared.PreparedSelect(lambda pid: Match.objects.filter(public_id=pid, version=3), "x")
    with pytest.raises(ValueError, match="not the arguments"):
        odd.fetch("abc")


def test_update_row_is_guarded_by_the_version_and_insert_rows_writes_every_row():
    match = make_match()
    old = match.version
    match.version = old + 1
    match.end_reason = "guarded"
    match.deadline = timezone.now()
    assert prepared.update_row(match, ("version", "end_reason", "deadline"), "version", old + 5) == 0
    assert Match.objects.get(pk=match.pk).version == old  # wrong guard: nothing changed
    assert prepared.update_row(match, ("version", "end_reason", "deadline"), "version", old) == 1
    fresh = Match.objects.get(pk=match.pk)
    assert (fresh.version, fresh.end_reason, fresh.deadline) == (old + 1, "guarded", match.deadline)

    first = Move.objects.filter(match=match).count()
    rows = [Move(match=match, ply=1000 + i, actor=Move.Actor.SERVER, seat=None, notation=f"x{i}",
                 version_after=old + 1) for i in range(3)]
    prepared.insert_rows(rows)
    stored = list(Move.objects.filter(match=match, ply__gte=1000).order_by("ply"))
    assert [m.notation for m in stored] == ["x0", "x1", "x2"]
    assert all(m.created_at is not None for m in stored)  # auto_now_add ran
    assert Move.objects.filter(match=match).count() == first + 3
