"""config/celery.py mends kombu's Redis ``Channel.close`` (README "Decisions",
Redis restarts); tests/resilience/test_faults.py proves it with a real worker
and a real Redis restart. These check, fast, that what it relies on is where
it was and that the mend is in place."""

from kombu.transport import redis as kombu_redis

from config import celery as celery_config


def test_the_kombu_internals_the_redis_close_fix_relies_on_are_where_they_were():
    """kombu is pinned to one minor (pyproject.toml) because the fix wraps
    its Redis Channel.close; an upgrade that moves what it relies on fails
    here, naming the internal."""
    problems = celery_config.internals_problems()
    assert not problems, "config/celery.py relies on kombu internals that moved:\n" + "\n".join(problems)


def test_kombu_still_needs_the_fix():
    """kombu's own close stops on a connection error from the pending BRPOP
    read; once it goes on by itself, remove the fix from config/celery.py."""
    close = kombu_redis.Channel.close.__wrapped__
    assert "connection_errors" not in close.__code__.co_names, (
        "kombu's Redis Channel.close now handles connection errors: the fix in config/celery.py can go")


def test_every_process_that_loads_the_celery_app_has_the_fix():
    assert getattr(kombu_redis.Channel.close, "_parlour_patched", False)
    assert kombu_redis.Channel.close.__wrapped__.__module__ == "kombu.transport.redis"
