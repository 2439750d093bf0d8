"""core.prepared: the move path's queries, compiled once, give what the ORM gives."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core import prepared
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


def test_the_django_internals_the_prepared_queries_read_are_where_they_were():
    """Django is pinned to one minor (pyproject.toml) because core/prepared.py
    reads its SQL compiler's internals; an upgrade that moves one fails here,
    naming it."""
    from games.actions.core import _LOCK, _SEATS

    problems = prepared.internals_problems()
    for query in (_LOCK, _SEATS):
        queryset = query.build(*query.sample)
        compiler = queryset.query.get_compiler(using="default")
        with transaction.atomic():  # SELECT ... FOR UPDATE compiles only inside one (PostgreSQL)
            compiler.as_sql()
        problems += prepared.internals_problems(queryset, compiler)
    assert not problems, "core/prepared.py reads Django internals that moved:\n" + "\n".join(problems)


def _instance_state(obj):
    """Everything a loaded instance holds: field values, what is deferred, and
    the related objects select_related attached (recursively)."""
    related = {name: _instance_state(value) for name, value in obj._state.fields_cache.items()
               if value is not None}
    values = {k: v for k, v in obj.__dict__.items() if k != "_state"}
    return values, sorted(obj.get_deferred_fields()), related, obj._state.db, obj._state.adding


def test_each_prepared_select_runs_the_orms_own_sql_and_loads_the_same_instances():
    """Every prepared SELECT of the move path against the ORM's own queryset:
    the same SQL text and parameters, and instances identical in every value,
    deferred field and related object."""
    from games.actions.core import _LOCK, _SEATS

    match = make_match(seats=("human", "human", "normal"))
    match.deadline = timezone.now() + timedelta(seconds=30)
    match.save()
    for query, arg in ((_LOCK, match.public_id), (_SEATS, match.pk)):
        with transaction.atomic():
            with CaptureQueriesContext(connection) as mine:
                got = query.fetch(arg)
            with CaptureQueriesContext(connection) as orms:
                want = list(query.build(arg))
        assert [q["sql"] for q in mine] == [q["sql"] for q in orms], "the prepared SQL is not the ORM's"
        assert got and [_instance_state(o) for o in got] == [_instance_state(o) for o in want]


def _row(model, pk):
    return model.objects.filter(pk=pk).values().get()


def test_update_row_and_insert_rows_write_what_the_orms_update_and_bulk_create_write():
    """update_row against QuerySet.update and insert_rows against bulk_create,
    on twin rows: the stored rows come out identical in every column."""
    from games.actions.core import _MATCH_CHANGES

    mine, theirs = make_match(), make_match()
    before = {m.pk: _row(Match, m.pk) for m in (mine, theirs)}
    now = timezone.now()
    same = {"status": Match.Status.FINISHED, "state": {"nested": [1, "two", None]}, "ply_count": 7,
            "deadline": now + timedelta(seconds=12), "deadline_task_at": None, "computer_due_at": None,
            "seat_to_move": 1, "paused_remaining": 3.5, "end_reason": "twin", "started_at": now,
            "finished_at": now, "updated_at": now}
    for match in (mine, theirs):
        for name, value in same.items():
            setattr(match, name, value)
        match.version += 1
    assert prepared.update_row(mine, _MATCH_CHANGES, "version", mine.version - 1) == 1
    assert Match.objects.filter(pk=theirs.pk, version=theirs.version - 1).update(
        **{name: getattr(theirs, name) for name in _MATCH_CHANGES}) == 1
    columns = {Match._meta.get_field(name).attname for name in _MATCH_CHANGES}
    for match in (mine, theirs):
        row = _row(Match, match.pk)
        assert {k: v for k, v in row.items() if k not in columns} == \
            {k: v for k, v in before[match.pk].items() if k not in columns}  # nothing else written
    a, b = _row(Match, mine.pk), _row(Match, theirs.pk)
    assert {k: a[k] for k in columns} == {k: b[k] for k in columns}

    def moves(match):
        return [Move(match=match, ply=500 + i, actor=Move.Actor.SEAT, seat=i % 2, notation=f"n{i}",
                     version_after=match.version) for i in range(3)]

    prepared.insert_rows(moves(mine))
    Move.objects.bulk_create(moves(theirs))
    differ = {"id", "match_id", "created_at"}
    a = list(Move.objects.filter(match=mine, ply__gte=500).order_by("ply").values())
    b = list(Move.objects.filter(match=theirs, ply__gte=500).order_by("ply").values())
    assert len(a) == 3 and [{k: v for k, v in r.items() if k not in differ} for r in a] == \
        [{k: v for k, v in r.items() if k not in differ} for r in b]
