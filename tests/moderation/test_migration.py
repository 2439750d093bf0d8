"""Moving AuditLog and Report from the games app to moderation: the rows,
their tables, content types and permissions, and the Moderators group's
rights all survive (moderation/migrations/0001_initial.py)."""

import importlib

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from moderation.models import AuditLog, Report
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db(transaction=True)

MOVE = ("games", "0007_moderation_models_moved")


def _group_rights():
    group = Group.objects.get(name="Moderators")
    return sorted(group.permissions.values_list("content_type__app_label", "content_type__model", "codename"))


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor.migrate(targets).apps


def test_a_database_from_before_the_move_keeps_every_row_and_the_moderators_keep_their_rights():
    a, b, moderator = make_user("alice"), make_user("bob"), make_user("mod")
    match = make_match(seats=("human", "human"), users=(a, b))
    seat = match.seats.get(user=a)
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    before_move = [p for p in executor.loader.graph.node_map[MOVE].parents if p[0] == "games"]
    try:
        old = _migrate([*before_move, ("moderation", None)])
        # The group as its data migration makes it (an earlier test's flush may have emptied the table).
        importlib.import_module("games.migrations.0005_moderators_group").create_group(old, None)
        rights_before = _group_rights()
        assert ("games", "auditlog", "ban_user") in rights_before
        OldAuditLog, OldReport = old.get_model("games", "AuditLog"), old.get_model("games", "Report")
        log = OldAuditLog.objects.create(actor_id=moderator.pk, action="ban", target_user_id=a.pk,
                                         target="user alice", reason="spam")
        report = OldReport.objects.create(reporter_id=b.pk, match_id=match.pk, seat_id=seat.pk,
                                          reported_user_id=a.pk, reason="abuse", note="rude")
        _migrate(leaves)
    finally:
        _migrate(leaves)

    moved_log, moved_report = AuditLog.objects.get(pk=log.pk), Report.objects.get(pk=report.pk)
    assert (moved_log.actor, moved_log.target_user, moved_log.reason) == (moderator, a, "spam")
    assert (moved_report.reporter, moved_report.seat, moved_report.note) == (b, seat, "rude")
    assert list(match.reports.all()) == [moved_report]
    # Later migrations add rights (moderation 0003: arenas); the moved ones are all kept.
    later = {(app, code) for app, code in
             importlib.import_module("moderation.migrations.0003_moderators_disqualify").PERMISSIONS}
    rights_after = [r for r in _group_rights() if (r[0], r[2]) not in later]
    relabel = {"auditlog": "moderation", "report": "moderation"}
    assert rights_after == sorted((relabel.get(model, app), model, code)
                                  for app, model, code in rights_before)
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name="Moderators"))
    moderator = type(moderator).objects.get(pk=moderator.pk)
    assert moderator.has_perm("moderation.ban_user") and not moderator.has_perm("games.ban_user")
