"""core/database.py against a real PostgreSQL server that ends the test's
own connection (``pg_terminate_backend(pg_backend_pid())``) at a chosen
point of a transaction. The pooled daphne cases are in
tests/resilience/test_pg_connections.py."""

import pytest
from django.db import IntegrityError, connection, transaction

from accounts.models import User
from core.database import ConnectionLost, retry_if_connection_lost

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL (DATABASE_URL=postgres://...): it ends a database server's "
           "connection, which SQLite does not have")


def _end_my_connection() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")


def _writer(name: str, end_on: set[int], where: str = "in"):
    """A call that creates user ``name`` in one transaction and ends its own
    connection on the attempts in ``end_on`` (1-based), ``in`` the
    transaction or ``after`` its commit; ``calls`` counts the attempts."""
    def call():
        call.calls += 1
        with transaction.atomic():
            User.objects.create_user(name, f"{name}@example.com", "a sturdy pass 42")
            if where == "in" and call.calls in end_on:
                _end_my_connection()
        if where == "after" and call.calls in end_on:
            _end_my_connection()
        return call.calls
    call.calls = 0
    return call


@pytest.mark.django_db(transaction=True)
def test_a_transaction_whose_connection_is_lost_before_its_commit_runs_once_more_whole():
    call = _writer("lost-once", {1})
    assert retry_if_connection_lost(call) == 2
    assert User.objects.filter(username="lost-once").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_transaction_lost_twice_raises_connection_lost_and_applies_nothing():
    call = _writer("lost-twice", {1, 2})
    with pytest.raises(ConnectionLost) as e:
        retry_if_connection_lost(call)
    assert e.value.outcome_known and "nothing was changed" in e.value.message
    assert call.calls == 2
    assert not User.objects.filter(username="lost-twice").exists()


@pytest.mark.django_db(transaction=True)
def test_a_connection_lost_after_the_commit_is_never_run_again():
    call = _writer("lost-after", {1}, where="after")
    with pytest.raises(ConnectionLost) as e:
        retry_if_connection_lost(call)
    assert not e.value.outcome_known and "whether it was saved" in e.value.message
    assert call.calls == 1
    assert User.objects.filter(username="lost-after").count() == 1


@pytest.mark.django_db(transaction=True)
def test_other_database_errors_are_not_retried():
    User.objects.create_user("taken", "taken@example.com", "a sturdy pass 42")
    call = _writer("taken", set())
    with pytest.raises(IntegrityError):
        retry_if_connection_lost(call)
    assert call.calls == 1


@pytest.mark.django_db(transaction=True)
def test_inside_a_larger_transaction_nothing_is_retried():
    call = _writer("nested", {1})
    with pytest.raises(Exception) as e, transaction.atomic():
        retry_if_connection_lost(call)
    assert not isinstance(e.value, ConnectionLost)
    assert call.calls == 1
    assert not User.objects.filter(username="nested").exists()
