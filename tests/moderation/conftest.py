"""Moderation test fixtures: a superuser, a moderator (staff in the
"Moderators" group the data migration creates), a player; no pushes or
Celery tasks for database-only tests."""

import pytest
from django.contrib.auth.models import Group

from accounts.models import User
from core import ratelimits

PASSWORD = "a sturdy pass 42"


@pytest.fixture
def no_effects(monkeypatch):
    from games import push, tasks

    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)
    ratelimits.reset()


def moderators_group() -> Group:
    """The group the data migration made; rebuilt from the migration's list
    when a transactional test has flushed the tables."""
    from importlib import import_module

    from django.contrib.auth.models import Permission

    migration = import_module("games.migrations.0005_moderators_group")
    group, created = Group.objects.get_or_create(name=migration.GROUP)
    if created:  # the migration's labels are as of then: the audit log and reports moved to moderation
        group.permissions.set([Permission.objects.get(content_type__app_label__in=(app, "moderation"),
                                                      codename=codename)
                               for app, codename in migration.PERMISSIONS])
    return group


@pytest.fixture
def moderator(db):
    user = User.objects.create_user("mod", "mod@example.com", PASSWORD, is_staff=True)
    user.groups.add(moderators_group())
    return user


@pytest.fixture
def superuser(db):
    return User.objects.create_superuser("root", "root@example.com", PASSWORD)


@pytest.fixture
def mod_client(client, moderator):
    client.force_login(moderator)
    return client
