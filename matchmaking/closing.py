"""What matchmaking does when an account closes (``accounts.closing``) and
what it adds to an account's data file (``accounts.data``)."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from matchmaking.challenges.actions import takes_challenges
from matchmaking.models import Challenge, ChallengePreference, QueueEntry, RoomMember, TurnBasedEntry
from matchmaking.rooms import actions as rooms


def on_account_closing(sender, user, **kwargs) -> None:
    """``user`` leaves the live and turn-based queues and every room it is in
    (as the host, the role passes on; a room left empty closes); its open
    challenges, made or received, are withdrawn; its challenge setting goes."""
    QueueEntry.objects.filter(user=user).delete()
    TurnBasedEntry.objects.filter(user=user).delete()
    Challenge.objects.filter(Q(challenger=user) | Q(challenged=user), status=Challenge.Status.OPEN).update(
        status=Challenge.Status.CANCELLED, answered_at=timezone.now())
    ChallengePreference.objects.filter(user=user).delete()
    rooms_in = RoomMember.objects.filter(user=user, status=RoomMember.Status.ACTIVE)
    for code in list(rooms_in.values_list("room__code", flat=True)):
        # Not told as a leaver (4001): closing closes every socket of theirs itself.
        rooms.do_leave_room(code, user, close_sockets=False)


def collect_data(sender, user, **kwargs) -> dict:
    return {"challenges": {"takes_challenges": takes_challenges(user)}}
