"""Ranked queue views: join, leave, and the no-JavaScript check-in.

The queue panel itself sits on the play page (``{% queue_panel %}`` from
``templatetags/queue_tags.py``). Views parse, call one action, redirect
(STYLE habit 3); with JavaScript the panel is live over ``/ws/queue/``.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from games.errors import Refused
from matchmaking import actions


def _play_panel():
    return redirect(reverse("play") + "#queue")


@login_required
@require_POST
def queue_join(request):
    """POST ``queue`` ("ludo-2"), or ``kind`` and ``players``: join that
    ranked queue (leaving any other)."""
    kind, players = request.POST.get("kind"), request.POST.get("players")
    if "queue" in request.POST:
        kind, _, players = request.POST["queue"].rpartition("-")
    try:
        entry = actions.join_queue(request.user, kind, players)
    except Refused as e:
        messages.error(request, e.message)
        return _play_panel()
    if entry.match_id:
        return redirect("match", public_id=entry.match.public_id)
    return _play_panel()


@login_required
@require_POST
def queue_leave(request):
    actions.leave_queue(request.user)
    return _play_panel()


@login_required
@require_safe
def queue_check(request):
    """Where a queue page without JavaScript refreshes to: the match once
    paired, else back to the panel (the visit counts as a sign of life)."""
    entry = actions.mark_seen(request.user)
    if entry is not None and entry.match_id and not entry.match.is_over:
        return redirect("match", public_id=entry.match.public_id)
    return _play_panel()
