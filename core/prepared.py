"""The move path's queries, compiled once (docs/benchmarks.md, "Third round of cuts").

Every action reads its match and seats and writes the match row and its new
Move rows. Built by the ORM on each call, those queries cost about ten times
what the database spends running them (on SQLite: ~0.5 ms to compile and
load a match row that takes 50 us to fetch). Here the ORM still writes the
SQL, the column list, and the conversions (so they follow the models and the
database backend), but once per thread and database, not once per call:

- ``PreparedSelect``: a queryset shape (filter, ``defer``/``only``,
  ``select_related``, ``select_for_update``) compiled to SQL once; each call
  runs it with new parameters and builds model instances the way Django's
  ``ModelIterable`` does (``Model.from_db``, backend converters, related
  populators).
- ``update_row`` and ``insert_rows``: an UPDATE of named columns guarded by
  the primary key and a version, and a multi-row INSERT, with each value
  prepared by its field (``Field.get_db_prep_save``) as ``QuerySet.update``
  and ``bulk_create`` do.

Everything runs on the thread's own connection, inside the caller's
transaction, through Django's cursor (so query logging, execute wrappers and
``CaptureQueriesContext`` see these queries like any other).

It reads Django's SQL compiler internals, which are not a public API and
changed in 6.1; pyproject.toml pins the Django minor for that reason.
``internals_problems`` lists every internal it reads that is missing or has
changed shape, and compiling a query raises ``DjangoInternalsMoved`` naming
it, so an upgrade fails loudly instead of loading wrong rows
(tests/core/test_prepared.py also compares each query with the ORM's own).
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Sequence

import django
from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import RelatedPopulator, get_related_populators
from django.db.models.sql.compiler import SQLCompiler


class DjangoInternalsMoved(RuntimeError):
    """A Django internal that this module reads is gone or changed shape
    (after a Django upgrade); the message names each one."""


def _parameters(func) -> list[str]:
    return list(inspect.signature(func).parameters)


def internals_problems(queryset: QuerySet | None = None, compiler: SQLCompiler | None = None) -> list[str]:
    """The Django internals this module reads that are missing or changed,
    one line each naming the internal (empty when all are as expected).

    Without arguments it checks the classes and functions; given a
    ``queryset`` and its ``compiler`` after ``as_sql()``, also what they hold
    (``select``, ``klass_info``, ``col_count``, ``_fetch_mode``)."""
    problems = []
    version = f"(Django {django.get_version()})"
    for name in ("as_sql", "get_converters", "apply_converters"):
        if not callable(getattr(SQLCompiler, name, None)):
            problems.append(f"django.db.models.sql.compiler.SQLCompiler.{name} is gone {version}")
    expected = {
        "django.db.models.query.get_related_populators": (get_related_populators,
                                                           ["klass_info", "select", "db", "fetch_mode"]),
        "django.db.models.Model.from_db": (Model.from_db.__func__, ["cls", "db", "field_names", "values"]),
        "django.db.models.query.RelatedPopulator.populate": (RelatedPopulator.populate,
                                                              ["self", "row", "from_obj"]),
    }
    for name, (func, params) in expected.items():
        got = _parameters(func)
        if got[: len(params)] != params:
            problems.append(f"{name} takes {got}, not {params} {version}")
    if "fetch_mode" not in _parameters(Model.from_db.__func__):
        problems.append(f"django.db.models.Model.from_db takes no fetch_mode {version}")
    if queryset is not None:
        if not hasattr(queryset, "_fetch_mode"):
            problems.append(f"django.db.models.QuerySet._fetch_mode is gone {version}")
    if compiler is not None:
        klass_info = getattr(compiler, "klass_info", None)
        if not isinstance(klass_info, dict) or not {"model", "select_fields"} <= klass_info.keys():
            shape = sorted(klass_info) if isinstance(klass_info, dict) else type(klass_info).__name__
            problems.append(f"SQLCompiler.klass_info holds {shape}, not 'model' and 'select_fields' "
                            f"{version}")
        select = getattr(compiler, "select", None)
        if not isinstance(select, list) or not all(isinstance(s, tuple) and len(s) == 3 for s in select):
            problems.append(f"SQLCompiler.select is not a list of (expression, sql, alias) {version}")
        elif isinstance(klass_info, dict) and not all(
            hasattr(getattr(select[i][0], "target", None), "attname")
            for i in klass_info.get("select_fields", ())
        ):
            problems.append(f"SQLCompiler.select's model columns have no .target.attname {version}")
        if not isinstance(getattr(compiler, "col_count", None), int):
            problems.append(f"SQLCompiler.col_count is not an int {version}")
    return problems


def _require_internals(queryset=None, compiler=None) -> None:
    problems = internals_problems(queryset, compiler)
    if problems:
        raise DjangoInternalsMoved("core/prepared.py reads Django internals that moved: "
                                   + "; ".join(problems))


class PreparedSelect:
    """A SELECT built by ``build(*sample)`` (a QuerySet), compiled once per
    thread and database alias, then run by ``fetch(*params)``.

    ``build`` must put its arguments into the SQL as the query's parameters,
    in order (e.g. ``lambda pid: Match.objects.filter(public_id=pid)``); this
    is checked when compiling (``sample`` are stand-in values of the right
    types). ``fetch`` returns a list of model instances, with the related
    objects of ``select_related`` attached, the deferred fields deferred, and
    no query on the ORM's side beyond the one SELECT. Raises whatever the
    database raises (e.g. ``OperationalError``), and ``DjangoInternalsMoved``
    when compiling finds a Django internal it reads changed."""

    def __init__(self, build: Callable[..., QuerySet], *sample):
        self.build = build
        self.sample = sample
        self._local = threading.local()

    def _compiled(self, alias: str):
        cache = getattr(self._local, "by_alias", None)
        if cache is None:
            cache = self._local.by_alias = {}
        if alias not in cache:
            _require_internals()
            queryset = self.build(*self.sample)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            _require_internals(queryset, compiler)
            if tuple(params) != tuple(self.sample):
                raise ValueError(f"query parameters {params!r} are not the arguments "
                                 f"{self.sample!r} in order")
            select, klass_info = compiler.select, compiler.klass_info
            fields = klass_info["select_fields"]
            start, end = fields[0], fields[-1] + 1
            cache[alias] = (
                sql,
                compiler,
                compiler.get_converters([s[0] for s in select[: compiler.col_count]]),
                klass_info["model"],
                [f[0].target.attname for f in select[start:end]],
                (start, end),
                get_related_populators(klass_info, select, alias, queryset._fetch_mode),
                queryset._fetch_mode,
            )
        return cache[alias]

    def fetch(self, *params, using: str = "default") -> list[Model]:
        sql, compiler, converters, model, attnames, (start, end), populators, mode = self._compiled(using)
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if converters:
            rows = compiler.apply_converters(rows, converters)
        objects = []
        for row in rows:
            obj = model.from_db(using, attnames, row[start:end], fetch_mode=mode)
            for populator in populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects


def update_row(obj: Model, fields: Sequence[str], guard: str, expected, using: str = "default") -> int:
    """``UPDATE <table> SET <fields> = obj's values WHERE pk = obj.pk AND
    <guard> = expected``; returns the number of rows updated (0 or 1).

    The values are ``obj``'s attributes as they are now, prepared by their
    fields (``get_db_prep_save``), as ``QuerySet.update`` would; no
    ``pre_save`` hook runs (set ``auto_now`` fields yourself)."""
    connection = connections[using]
    opts = obj._meta
    quote = connection.ops.quote_name
    columns = [opts.get_field(name) for name in fields]
    guard_field = opts.get_field(guard)
    sql = "UPDATE {} SET {} WHERE {} = %s AND {} = %s".format(
        quote(opts.db_table),
        ", ".join(f"{quote(f.column)} = %s" for f in columns),
        quote(opts.pk.column),
        quote(guard_field.column),
    )
    params = [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in columns]
    params += [opts.pk.get_db_prep_value(obj.pk, connection),
               guard_field.get_db_prep_value(expected, connection)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def insert_rows(objs: Sequence[Model], using: str = "default") -> None:
    """Insert ``objs`` (new instances of one model, auto primary key) in one
    multi-row INSERT. Fields' ``pre_save`` runs (``auto_now_add``); the new
    primary keys are not read back, and no signals are sent (as with
    ``bulk_create``)."""
    if not objs:
        return
    connection = connections[using]
    opts = objs[0]._meta
    quote = connection.ops.quote_name
    fields = [f for f in opts.concrete_fields if not f.primary_key]
    row = "({})".format(", ".join(["%s"] * len(fields)))
    sql = "INSERT INTO {} ({}) VALUES {}".format(
        quote(opts.db_table), ", ".join(quote(f.column) for f in fields), ", ".join([row] * len(objs))
    )
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    for obj in objs:
        obj._state.adding = False
        obj._state.db = using
