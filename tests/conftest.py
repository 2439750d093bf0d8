"""Fixtures shared by the whole suite.

The session starts its own embedded redis-server (unless REDIS_URL points at
one); tests that need real processes ask for ``live_server_url`` (daphne) or
``celery_worker`` and are marked ``slow``.
"""

import os

import pytest
from django.conf import settings
from hypothesis import HealthCheck
from hypothesis import settings as hsettings

from tests import services

hsettings.register_profile("dev", max_examples=100, deadline=None)
hsettings.register_profile(
    "ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hsettings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="session", autouse=True)
def redis_server():
    """The test Redis: the embedded server on var/test/run-<pid>/redis.sock, or $REDIS_URL."""
    from config import embedded_redis

    if os.environ.get("REDIS_URL"):
        embedded_redis.wait_until_up(settings.REDIS_URL)
        yield settings.REDIS_URL
        return
    proc = embedded_redis.start(settings.EMBEDDED_REDIS_SOCKET)
    yield settings.REDIS_URL
    proc.terminate()
    proc.wait(10)


def pytest_sessionfinish(session, exitstatus):
    """Remove this session's folder (test database, Redis socket, service logs)
    when everything passed; keep it to read the logs otherwise."""
    import shutil

    if exitstatus == 0 and getattr(settings, "TEST_VAR_DIR", None):
        shutil.rmtree(settings.TEST_VAR_DIR, ignore_errors=True)


@pytest.fixture(scope="session")
def daphne_server(django_db_setup, django_db_blocker):
    """One daphne process for the session, serving the test database; yields its base URL."""
    with django_db_blocker.unblock():
        svc, url = services.start_daphne()
    yield url
    svc.stop()


@pytest.fixture
def live_server_url(daphne_server, transactional_db):
    """Base URL of the real ASGI server; the test's data is committed so daphne sees it."""
    return daphne_server


@pytest.fixture
def celery_beat(transactional_db):
    """Celery beat (the deadline sweeper) as a real process."""
    svc = services.start_celery_beat()
    yield svc
    svc.stop()


@pytest.fixture(scope="session")
def _shared_celery_worker_session():
    yield
    services.stop_shared_worker()


@pytest.fixture
def celery_worker(_shared_celery_worker_session, transactional_db):
    """A real Celery worker process on the test Redis and the test database:
    the test session's shared one (tests/services.py), started when none runs;
    starting one per test cost 3-10 s a test on a loaded machine. Before the
    test its queues are empty; after it, before the test's data is flushed,
    the test's tasks are settled (services.settle_worker), so none can fire in
    a later test that reuses a match id. A test that kills its worker or reads
    its log asks for ``own_celery_worker``."""
    svc = services.shared_celery_worker()
    services.purge_task_queues()
    services.consume(svc)
    yield svc
    services.settle_worker(svc)


@pytest.fixture(autouse=True)
def _no_language_left_behind():
    """Django's test client runs a request's middleware in the test's own
    thread, and LocaleMiddleware leaves that request's language active: a
    later test rendering a frame or a mail would read it (docs/i18n.md).
    Each test starts, and ends, in the site's default language."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_shared_worker_beside_several_processes(request):
    """Tests marked resilience start their own processes (workers among them,
    some under supervisord): the shared worker would take their tasks."""
    if request.node.get_closest_marker("resilience") is not None:
        services.stop_shared_worker()


@pytest.fixture
def own_celery_worker(transactional_db):
    """A Celery worker process of the test's own, stopped after it."""
    services.purge_task_queues()
    svc = services.start_celery_worker()
    yield svc
    svc.stop()


def pytest_addoption(parser):
    parser.addoption(
        "--database-tests-only", action="store_true",
        help="deselect the tests that cannot reach the database (no django_db mark, no database "
             "fixture) and are not marked resilience: .ci/run's PostgreSQL pass, where they would "
             "repeat pass 1 exactly")
    parser.addoption(
        "--not-in-postgresql-pass", action="store_true",
        help="deselect the tests .ci/run's PostgreSQL pass runs (those that reach the database and are "
             "not marked slow, or are marked resilience): its SQLite pass, so that no test runs twice")


#: Fixtures that give a test the database (pytest-django blocks it otherwise).
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
                     "django_db_setup", "live_server"}


def reaches_the_database(item) -> bool:
    """Whether a test can touch the database: without pytest-django's mark or
    one of DATABASE_FIXTURES any query raises, so its outcome is the same on
    every backend. Tests marked resilience (several or broken processes) count
    as reaching it."""
    return (item.get_closest_marker("django_db") is not None
            or item.get_closest_marker("resilience") is not None
            or not DATABASE_FIXTURES.isdisjoint(getattr(item, "fixturenames", ())))


def pytest_collection_modifyitems(config, items):
    """Browser tests (tests/e2e/, and any marked e2e elsewhere, e.g. a test-only
    game's) last: Playwright's sync API leaves an event loop in the main thread,
    which code under test that uses async_to_sync must not meet.
    With --database-tests-only, the tests that cannot reach the database are
    deselected; with --not-in-postgresql-pass, those that pass runs."""
    if config.getoption("--database-tests-only"):
        kept = [item for item in items if reaches_the_database(item)]
        config.hook.pytest_deselected(items=[item for item in items if not reaches_the_database(item)])
        items[:] = kept
    if config.getoption("--not-in-postgresql-pass"):
        def in_postgresql_pass(item) -> bool:  # .ci/run: -m "not slow or resilience" --database-tests-only
            marked = item.get_closest_marker
            return reaches_the_database(item) and (marked("slow") is None or marked("resilience") is not None)

        config.hook.pytest_deselected(items=[item for item in items if in_postgresql_pass(item)])
        items[:] = [item for item in items if not in_postgresql_pass(item)]
    items.sort(key=lambda item: ("/tests/e2e/" in str(item.fspath)
                                 or item.get_closest_marker("e2e") is not None))
