"""Lost database connections (README "Decisions": a database that ends its
connections).

PostgreSQL ends a server's connections when it restarts, fails over, or an
operator runs ``pg_terminate_backend``; a connection pool (DATABASE_POOL=1)
still holds them and would hand them out dead. Two defences:

- ``check_pooled_connection``: the pool's ``check`` (``OPTIONS["pool"]``,
  config/settings.py). psycopg_pool runs it on every connection it hands out
  and replaces one that fails; as one dead connection means the server
  probably ended them all, a failure also drains the pool.
- ``retry_if_connection_lost``: runs a transaction once more, whole, on a
  fresh connection when its connection was lost before its commit; one lost
  during or after its commit (it may have been saved) or twice raises
  ``ConnectionLost``, which callers turn into a clear refusal.

And one way to tell, anywhere later, that an error was a lost connection
(``connection_lost``): every new connection gets an execute wrapper
(``_mark_lost``, connected to ``connection_created`` here) that marks a
statement's error when the statement's own connection is closed after it.
The error may be handled in another thread than the statement's (Django
runs a view's exception handling in a worker thread of its own, whose
connection is not the view's), so the mark travels with the error.

Nothing here imports models: settings import this module.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import suppress

from django.utils.translation import gettext as _

log = logging.getLogger(__name__)


class ConnectionLost(Exception):
    """The database connection was lost and the transaction was not retried.

    ``outcome_known``: True when nothing was committed (the connection was
    lost before the commit, or could not be made); False when it was lost
    during or after the commit, which the database may have applied. ``message``
    says so to the person who asked (their page then shows the current
    state). ``__cause__`` is the database error."""

    def __init__(self, outcome_known: bool):
        super().__init__("lost the database connection" + ("" if outcome_known else " at or after a commit"))
        self.outcome_known = outcome_known
        self.message = (  # in the language active where it is raised (the request's, the socket's)
            _("The server lost its connection to the database, so nothing was changed. Try again.")
            if outcome_known else
            _("The server lost its connection to the database while saving; "
              "the page shows whether it was saved.")
        )


def check_pooled_connection(conn) -> None:
    """psycopg_pool's ``check`` callback: return if ``conn`` (a psycopg
    ``Connection`` about to be handed out) works, else raise (the pool then
    discards it and hands out another).

    Runs ``ConnectionPool.check_connection`` (an empty query: one round trip).
    On a failure the rest of the pool is drained (``ConnectionPool.drain``:
    idle connections closed and replaced, connections in use replaced when
    returned) rather than tried one by one: psycopg_pool waits a growing
    back-off before each further check of one request (none, then 1 s, 2 s,
    4 s...), so a pool of ten dead connections would keep a request waiting
    past the pool's 10 s timeout."""
    from psycopg_pool import ConnectionPool

    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        pool = getattr(conn, "_pool", None)  # set while the pool hands it out
        if pool is not None and hasattr(pool, "drain"):  # psycopg_pool >= 3.3
            log.warning("database connection found dead; draining the pool %r", pool.name)
            pool.drain()
        raise


def _is_closed(raw) -> bool:
    """True when the driver connection ``raw`` is closed (psycopg's
    ``Connection.closed``: lost or ended); False for drivers without it."""
    return bool(getattr(raw, "closed", False))


#: SQLSTATE classes of a lost connection: 08 connection exception; 57P01-57P03
#: admin shutdown, crash shutdown, cannot connect now (the server ending it).
_LOST_SQLSTATES = ("08", "57P0")


def _chain(error: BaseException | None):
    """``error``, then the error it was raised from or while handling, and so on."""
    seen = set()
    while error is not None and id(error) not in seen:
        yield error
        seen.add(id(error))
        error = error.__cause__ or error.__context__


def _lost_in_driver(error: BaseException | None) -> bool:
    """True when ``error`` was raised from a psycopg ``OperationalError`` that
    means the connection is gone: one the client raised itself (no SQLSTATE:
    "connection socket closed", "server closed the connection unexpectedly"),
    which it can raise before it marks the connection closed, or one of
    ``_LOST_SQLSTATES``."""
    try:
        import psycopg
    except ImportError:
        return False
    for e in _chain(error):
        if isinstance(e, psycopg.OperationalError):
            return e.sqlstate is None or e.sqlstate.startswith(_LOST_SQLSTATES)
    return False


def _lost(raw, error: BaseException | None) -> bool:
    """True when ``error``, raised by a statement on driver connection
    ``raw``, means that connection is gone."""
    return _is_closed(raw) or _lost_in_driver(error)


class _Watch:
    """An execute wrapper (Django "Database instrumentation") that notes the
    driver connection the statements ran on, the error a statement raised,
    and whether anything may have been committed: a write outside a
    transaction (autocommit) as it is sent, a transaction once it committed
    (an ``on_commit`` hook registered at its first statement, so it runs
    before the transaction's own after-commit effects)."""

    def __init__(self):
        self.raw = None
        self.error = None
        self.committed = False
        self._hooked = False

    def _commit_happened(self) -> None:
        self.committed = True

    def __call__(self, execute, sql, params, many, context):
        connection = context["connection"]
        self.raw = connection.connection
        if connection.in_atomic_block:
            if not self._hooked:
                connection.on_commit(self._commit_happened)
                self._hooked = True
        elif sql.lstrip()[:6].upper() != "SELECT":
            self.committed = True  # autocommit: it may commit even if its reply is lost
        try:
            return execute(sql, params, many, context)
        except Exception as e:
            self.error = e
            raise


def retry_if_connection_lost[T](call: Callable[[], T], using: str = "default") -> T:
    """Return ``call()``, which must run one transaction on database
    ``using`` (and at most reads outside it), and not inside an atomic block
    of the caller's: it is retried whole.

    When a statement of it fails because the connection was lost before
    anything was committed, the connection is dropped and ``call()`` runs
    once more on a fresh one (the pool checks it: ``check_pooled_connection``).
    Raises ``ConnectionLost`` with ``outcome_known`` False when the connection
    was lost during or after the commit: the transaction may have been
    applied, so it is never run twice; with ``outcome_known`` True when it
    was lost again on the second run or no connection could be made (nothing
    was applied). Any other error propagates unchanged. On SQLite (a file:
    its connection is never lost) it only calls ``call()``."""
    from django.db import DatabaseError, OperationalError, connections

    connection = connections[using]
    if connection.in_atomic_block or connection.vendor == "sqlite":
        return call()  # inside a larger transaction it is never retried alone
    for attempt in (1, 2):
        watch = _Watch()
        try:
            with connection.execute_wrapper(watch):
                return call()
        except DatabaseError as e:
            if watch.raw is None:
                # No statement reached the database: it could not be reached.
                if isinstance(e, OperationalError):
                    raise ConnectionLost(outcome_known=True) from e
                raise
            if not _lost(watch.raw, e):
                raise
            _drop(connection)  # the next use, here or after, gets a fresh one
            if watch.committed or watch.error is None or not _raised_while_handling(e, watch.error):
                # Lost during the commit (every statement had succeeded) or
                # after it.
                raise ConnectionLost(outcome_known=False) from e
            if attempt == 2 or e is not watch.error:
                # Lost again, or no new connection could be made after it.
                raise ConnectionLost(outcome_known=True) from e
            log.warning("database connection lost in a transaction (%s); running it once more", e)
    raise AssertionError("unreachable")


#: The attribute ``_mark_lost`` sets (True) on a statement's error when the
#: statement's connection was closed after it.
LOST_MARK = "parlour_connection_lost"


def _mark_lost(execute, sql, params, many, context):
    """An execute wrapper on every connection (``_watch_new_connection``):
    runs the statement; when it raises and its connection's socket is closed
    (the database ended it) or the driver says it is gone (``_lost``), marks
    the error with ``LOST_MARK``."""
    try:
        return execute(sql, params, many, context)
    except Exception as e:
        if _lost(context["connection"].connection, e):
            setattr(e, LOST_MARK, True)
        raise


def _watch_new_connection(sender, connection, **kwargs) -> None:
    """``connection_created`` receiver: give ``connection`` (a Django
    database wrapper, made again for each pooled connection it takes) the
    ``_mark_lost`` wrapper once. Not on SQLite, whose file is never lost."""
    if connection.vendor != "sqlite" and _mark_lost not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, _mark_lost)


def _install() -> None:
    from django.db.backends.signals import connection_created

    connection_created.connect(_watch_new_connection, dispatch_uid="core.database.mark_lost")


_install()


def _marked_lost(error: BaseException | None) -> bool:
    """True when ``error``, or an error it was raised from or while handling,
    carries ``LOST_MARK``."""
    return any(getattr(e, LOST_MARK, False) for e in _chain(error))


def connection_lost(error: BaseException | None, using: str = "default") -> bool:
    """Whether ``error`` (an exception, or None) is the database ending the
    connection of database ``using``: a ``ConnectionLost``; an error of a
    statement whose connection was closed after it (``LOST_MARK``), in
    whichever thread it ran; or a Django ``OperationalError``/``InterfaceError``
    while this thread's connection's socket is closed (a lost connect or
    commit). False on SQLite, whose file is never lost."""
    from django.db import InterfaceError, OperationalError, connections

    if isinstance(error, ConnectionLost) or _marked_lost(error):
        return True
    if not isinstance(error, (OperationalError, InterfaceError)):
        return False
    connection = connections[using]
    if connection.vendor == "sqlite":
        return False
    raw = connection.connection
    return raw is None or _lost(raw, error)


def drop_connection(using: str = "default") -> None:
    """Close database ``using``'s connection, so the next use gets a fresh one."""
    from django.db import connections

    _drop(connections[using])


def _drop(connection) -> None:
    """Close Django's ``connection`` (a pooled one goes back to its pool,
    which discards it when broken)."""
    from django.db import DatabaseError

    with suppress(DatabaseError):
        connection.close()


def _raised_while_handling(exc: BaseException, cause: BaseException) -> bool:
    """True when ``exc`` is ``cause`` or was raised while handling it."""
    while exc is not None:
        if exc is cause:
            return True
        exc = exc.__context__
    return False
