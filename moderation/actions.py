"""Moderation actions (README "Moderation"): ban, unban, abort, void,
revoke an invite, decide a report. The admin (moderation/admin.py) parses
and calls these; nothing else writes the ban fields or AuditLog rows.

Moderation sits above the other apps (a ban forfeits seats and empties
queues and rooms): it calls ``games.actions`` for matches, ``games.rating``
to take a void's ratings back, and ``matchmaking`` for queues, rooms and
invites. Each action runs in one transaction and records one AuditLog row
per user it touches; effects on sockets leave after commit.

Raises ``ModerationError`` (``message`` is safe to show) and changes nothing
when refused.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts import languages, sockets, timezones
from accounts.models import BAN_FOREVER, User
from arenas import actions as arena_actions
from core.errors import Refused
from games import actions, rating
from games.models import Match, RatingVoid, Seat
from matchmaking.models import RoomMember
from matchmaking.queue import actions as queue_actions
from matchmaking.rematch import actions as rematch
from matchmaking.rooms import actions as rooms
from moderation.models import AuditLog, Report
from notifications import notify

log = logging.getLogger(__name__)

#: Match.end_reason of a match a moderator aborted (the status line says so).
ABORT_REASON = "moderator"


class ModerationError(Refused):
    """A refused moderation action; ``message`` is safe to show. Nothing changed."""


def record(actor, action: str, *, target_user=None, target: str = "", reason: str = "") -> AuditLog:
    """Add one AuditLog row (inside the caller's transaction)."""
    return AuditLog.objects.create(
        actor=actor, action=action, target_user=target_user, target=target[:200], reason=reason
    )


def _reason(reason) -> str:
    text = (reason or "").strip()
    if not text:
        raise ModerationError(_("A reason is required."))
    return text[:2000]


# -- bans ----------------------------------------------------------------------


def ban_user(moderator, user: User, until: datetime | None, reason: str, *, now=None) -> list[str]:
    """Ban ``user`` until ``until`` (an aware datetime; None: for good, stored
    as BAN_FOREVER) for ``reason`` (required).

    In one transaction: the ban fields, an AuditLog row, every live seat of
    the user counted as left through ``games.actions.leave_match``
    (docs/rules.md "Leaving": a banned player's seats count as left, so in a
    ranked match they rank below every seat that stayed), and the user taken out of
    any ranked queue and any room lobby. After commit every open socket of
    the user closes with 4003 (accounts.sockets), and every page they have
    open shows the reason at once (a sticky note, notifications.notify). The login refusal and the
    session cut-off follow from ``User.is_banned`` (accounts.backends,
    accounts.middleware).

    Returns the public ids of the matches the user was made to leave.
    Raises ModerationError: no reason, a past date, the moderator themself,
    a superuser banned by someone who is not one.
    """
    reason = _reason(reason)
    now = now or timezone.now()
    until = until or BAN_FOREVER
    if until <= now:
        raise ModerationError(_("The end of a suspension must be in the future."))
    if moderator is not None and moderator.pk == user.pk:
        raise ModerationError(_("You cannot ban yourself."))
    if user.is_superuser and not getattr(moderator, "is_superuser", False):
        raise ModerationError(_("Only a superuser can ban a superuser."))
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        locked.banned_until, locked.ban_reason = until, reason[:500]
        locked.save(update_fields=["banned_until", "ban_reason"])
        user.banned_until, user.ban_reason = locked.banned_until, locked.ban_reason
        left = _leave_live_matches(locked)
        _leave_matchmaking(locked)
        # In UTC whatever zone the moderator's form read the date in (README "Times").
        span = "for good" if until >= BAN_FOREVER else f"until {until.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
        record(moderator, AuditLog.Action.BAN, target_user=locked,
               target=f"user {locked.username} ({span})", reason=reason)
        user_id = locked.pk
        transaction.on_commit(lambda: sockets.close_user_sockets(user_id))
        # Every page the user has open says why at once (README "Notifications").
        # The note is for this person alone: in their own time zone (README "Times")
        # and language.
        with languages.speaking(locked):
            if until >= BAN_FOREVER:
                said = (_("A moderator has banned your account. Reason: %(reason)s")
                        % {"reason": locked.ban_reason})
            else:
                zone = timezones.valid_zone(locked.time_zone) or "UTC"
                local = until.astimezone(timezones.get_zone(zone))
                said = (_("A moderator has suspended your account until %(end)s (%(zone)s). "
                          "Reason: %(reason)s")
                        % {"end": date_format(local, "d F Y, H:i"), "zone": zone,
                           "reason": locked.ban_reason})
        notify.notify(user_id, "moderation", said, reverse("login"), sticky=True, ends_session=True)
    log.info("user %s banned %s by %s; left %s matches",
             user.pk, span, getattr(moderator, "pk", None), len(left))
    return left


def unban_user(moderator, user: User, reason: str) -> None:
    """Lift ``user``'s ban (or suspension): they may log in and play again.
    Records an AuditLog row. Raises ModerationError (no reason, not banned)."""
    reason = _reason(reason)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.banned_until is None:
            raise ModerationError(_("%(name)s is not banned.") % {"name": locked.username})
        locked.banned_until, locked.ban_reason = None, ""
        locked.save(update_fields=["banned_until", "ban_reason"])
        user.banned_until, user.ban_reason = None, ""
        record(moderator, AuditLog.Action.UNBAN, target_user=locked, target=f"user {locked.username}",
               reason=reason)


def _leave_live_matches(user: User) -> list[str]:
    """Count every live seat of ``user`` as left (their pieces leave, the
    others go on; a ranked match then rates them as the leaver)."""
    public_ids = list(
        Seat.objects.filter(
            user=user, status=Seat.Status.PLAYING,
            match__status__in=[Match.Status.ACTIVE, Match.Status.PAUSED],
        ).values_list("match__public_id", flat=True)
    )
    left = []
    for public_id in public_ids:
        try:
            actions.leave_match(public_id, user)
        except actions.ActionError as e:  # ended meanwhile: nothing to leave
            log.info("ban: %s not left: %s", public_id, e.code)
        else:
            left.append(public_id)
    return left


def _leave_matchmaking(user: User) -> None:
    """Out of any ranked queue and every room lobby the user is in."""
    queue_actions.leave_queue(user)
    codes = RoomMember.objects.filter(user=user, status=RoomMember.Status.ACTIVE).values_list(
        "room__code", flat=True
    )
    for code in list(codes):
        try:
            # Not told as a leaver (4001): the ban closes every socket of theirs with 4003.
            rooms.do_leave_room(code, user, close_sockets=False)
        except rooms.RoomError as e:
            log.info("ban: room %s not left: %s", code, e.code)


# -- matches -----------------------------------------------------------------


def abort_match(moderator, public_id: str, reason: str) -> Match:
    """End a live (or paused) match with no result and no rating change,
    through ``games.actions.abort_match``; its players see "Match aborted"
    (pushed after commit). Records an AuditLog row per human player.
    Raises ModerationError (no reason, not live)."""
    reason = _reason(reason)
    with transaction.atomic():
        try:
            match = actions.abort_match(public_id, ABORT_REASON)
        except actions.ActionError as e:
            raise ModerationError(_("Match %(id)s cannot be aborted: %(refusal)s")
                                  % {"id": public_id, "refusal": e.message}) from None
        _record_per_player(moderator, AuditLog.Action.ABORT, match, reason)
    return match


def void_match(moderator, public_id: str, reason: str) -> list[RatingVoid]:
    """Void a finished rated match: take its rating changes back
    (``games.rating.void_ratings``; README "Moderation", Void).

    For each player with a RatingChange from the match, in one transaction:
    their *current* rating minus the match's recorded delta (floor 100;
    matches played since keep their own deltas), one rated game fewer (so
    the provisional count follows), the peak recomputed from the remaining
    history (``games.rating.replayed_peak``), a RatingVoid row (before and
    after of rating, games and peak) and an AuditLog row.

    The match keeps its status and result; its RatingChange rows stay as the
    record of what was taken back. Returns the RatingVoid rows. Raises
    ModerationError: no reason, no such match, not finished, not rated,
    already voided.
    """
    reason = _reason(reason)
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(public_id=str(public_id)[:16]).first()
        if match is None:
            raise ModerationError(_("There is no such match."))
        if match.status != Match.Status.FINISHED:
            raise ModerationError(_("Match %(id)s has not finished; abort a live match instead.")
                                  % {"id": match.public_id})
        if not match.rated or not match.rating_changes.exists():
            raise ModerationError(_("Match %(id)s was not rated, so there is nothing to void.")
                                  % {"id": match.public_id})
        if RatingVoid.objects.filter(match=match).exists():
            raise ModerationError(_("Match %(id)s is already void.") % {"id": match.public_id})
        voids = rating.void_ratings(match, moderator, reason)
        arena_actions.void_match_results(match)  # an arena match's points go too (README "Arenas")
        rematch.rating_taken_back(match)  # an open rematch offer is no longer rated
        for v in voids:
            record(moderator, AuditLog.Action.VOID, target_user=User(pk=v.user_id),
                   target=f"match {match.public_id} (rating {v.rating_before:.0f} -> {v.rating_after:.0f})",
                   reason=reason)
    return voids


def disqualify_arena_player(moderator, player_id: int, reason: str):
    """Disqualify an arena player (README "Arenas", Moderation): their points
    go, they are not paired again there and may not rejoin it; audit-logged.
    Raises ModerationError: no reason, no such player, already disqualified."""
    reason = _reason(reason)
    with transaction.atomic():
        try:
            player = arena_actions.disqualify(player_id)
        except arena_actions.ArenaError as e:
            raise ModerationError(e.message) from None
        record(moderator, AuditLog.Action.DISQUALIFY, target_user=player.user,
               target=f"arena {player.arena_id} ({player.arena.name})", reason=reason)
    return player


def _record_per_player(moderator, action: str, match: Match, reason: str) -> None:
    users = [s.user for s in match.seats.select_related("user") if s.user_id]
    for user in users or [None]:
        record(moderator, action, target_user=user, target=f"match {match.public_id}", reason=reason)


# -- rooms and reports ---------------------------------------------------------


def revoke_invite(moderator, invite, reason: str) -> bool:
    """Revoke a room invite that is still unused (used, expired or revoked
    ones stay as they are) through ``matchmaking.rooms.actions.revoke_invite_as_staff``,
    which bumps the room's version and pushes its lobby after commit.
    Records an AuditLog row. Returns whether the invite was revoked; raises
    ModerationError (no reason)."""
    reason = _reason(reason)
    with transaction.atomic():
        room = rooms.revoke_invite_as_staff(invite.pk)
        if room is None:
            return False
        record(moderator, AuditLog.Action.REVOKE_INVITE, target_user=invite.created_by,
               target=f"invite {invite.pk} to room {room.code}", reason=reason)
    return True


def decide_report(moderator, report: Report, status: str, reason: str = "") -> Report:
    """Move a report to ``status`` (reviewing, actioned, dismissed; open to
    reopen) and record it. The reporter sees the new status on their profile.
    Raises ModerationError for an unknown status or an unchanged one."""
    if status not in Report.Status.values:
        raise ModerationError(_("%(status)s is not a report status.") % {"status": repr(status)})
    with transaction.atomic():
        locked = Report.objects.select_for_update().get(pk=report.pk)
        if locked.status == status:
            raise ModerationError(_("Report %(id)s is already %(status)s.")
                                  % {"id": locked.pk, "status": str(locked.get_status_display()).lower()})
        locked.status = status
        locked.decided_by = moderator
        locked.decided_at = timezone.now()
        locked.save(update_fields=["status", "decided_by", "decided_at"])
        label = Report.Status(status).label.lower()
        record(moderator, AuditLog.Action.REPORT, target_user=locked.reported_user,
               target=f"report {locked.pk} on match {locked.match.public_id}: {label}",
               reason=(reason or "").strip())
    report.status, report.decided_by, report.decided_at = locked.status, moderator, locked.decided_at
    return locked


# -- reading -------------------------------------------------------------------

#: How many of each the admin's user page lists.
RECORD_ROWS = 20


def user_record(user: User) -> dict:
    """What the admin's user page shows besides the form: ``seats`` (their
    latest Seat rows with matches), ``reports_received``, ``reports_made``,
    ``audit`` (AuditLog rows about them), newest first, RECORD_ROWS each."""
    return {
        "seats": list(Seat.objects.filter(user=user).select_related("match")
                      .order_by("-joined_at")[:RECORD_ROWS]),
        "reports_received": list(Report.objects.filter(reported_user=user)
                                 .select_related("match", "reporter")[:RECORD_ROWS]),
        "reports_made": list(Report.objects.filter(reporter=user)
                             .select_related("match", "reported_user")[:RECORD_ROWS]),
        "audit": list(AuditLog.objects.filter(target_user=user).select_related("actor")[:RECORD_ROWS]),
    }
