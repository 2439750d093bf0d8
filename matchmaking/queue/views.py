"""Ranked queue views: join, leave, the no-JavaScript check-in, and the panel
alone; and the turn-based queues' join and leave (plain forms on each game's
card, docs/features.md "The turn-based ranked queue").

The queue panel itself sits on the play page (``{% queue_panel %}`` from
``templatetags/queue_tags.py``). Views parse, call one action, redirect
(STYLE habit 3); with JavaScript the panel is live over ``/ws/queue/``, and the
join and leave forms post through htmx (``request.htmx``), which gets the panel
alone to swap in place, or an ``HX-Redirect`` to the match when the join paired
the player at once (README "Ranked play"). Responses vary on HX-Request.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from core.errors import Refused
from games import sites
from matchmaking.queue import actions, turn_based


def _play_panel(request):
    """After a queue action: the panel alone for htmx, else the play page at the panel."""
    if request.htmx:
        return render(request, "matchmaking/queue_panel_alone.html")
    return redirect(reverse("play") + "#queue")


def _to_match(request, public_id: str):
    url = reverse("match", args=[public_id])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def queue_join(request):
    """POST ``queue`` ("ludo-2"), or ``kind`` and ``players``: join that
    ranked queue (leaving any other)."""
    kind, players = request.POST.get("kind"), request.POST.get("players")
    if "queue" in request.POST:
        kind, _dash, players = request.POST["queue"].rpartition("-")
    try:
        entry = actions.join_queue(request.user, kind, players)
    except Refused as e:
        messages.error(request, e.message)
        return _play_panel(request)
    if entry.match_id:
        return _to_match(request, entry.match.public_id)
    return _play_panel(request)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def queue_leave(request):
    actions.leave_queue(request.user)
    return _play_panel(request)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def queue_leave_match(request):
    """POST ``match``: leave that unfinished match of yours, which keeps you
    from being paired (the panel's "Leave it"), and be paired at once if a
    table is there; with htmx the page, and so the queue, stays: it gets the
    panel alone, which says "your match is ready" when it is, and queue.js
    goes there once (as the socket's own redirect frame may say the same)."""
    try:
        match = actions.leave_held_match(request.user, request.POST.get("match", "")[:16])
    except Refused as e:
        messages.error(request, e.message)
        return _play_panel(request)
    if match is not None and not request.htmx:
        return redirect("match", public_id=match.public_id)
    return _play_panel(request)


@login_required
@require_safe
def queue_check(request):
    """Where a queue page without JavaScript refreshes to: the match once
    paired, else back to the panel (the visit counts as a sign of life)."""
    entry = actions.mark_seen(request.user)
    if entry is not None and entry.match_id and not entry.match.is_over:
        return redirect("match", public_id=entry.match.public_id)
    return redirect(reverse("play") + "#queue")


def _to_card(kind) -> str:
    """The play page at game ``kind``'s card (its turn-based part), or at the top."""
    url = reverse("play")
    return url + (f"#game-{kind}" if kind in sites.kinds() else "")


@login_required
@require_POST
def turn_based_join(request):
    """POST ``kind``, ``players`` and ``days``: join that turn-based ranked
    queue (docs/features.md "The turn-based ranked queue"); to the match if
    pairing seated the player at once, else back to the game's card, which
    shows the wait. A plain form: nothing here is live, the wait is hours."""
    kind = request.POST.get("kind", "")
    try:
        match = turn_based.join_turn_based(request.user, kind, request.POST.get("players"),
                                           request.POST.get("days"))
    except Refused as e:
        messages.error(request, e.message)
        return redirect(_to_card(kind))
    if match is not None:
        return redirect("match", public_id=match.public_id)
    messages.success(request, _("You are in the turn-based queue. We tell you when your match is ready; "
                                "you may close this page."))
    return redirect(_to_card(kind))


@login_required
@require_POST
def turn_based_leave(request):
    """POST ``kind``: leave that game's turn-based queue (nothing if not in it)."""
    kind = request.POST.get("kind", "")
    if turn_based.leave_turn_based(request.user, kind):
        messages.info(request, _("You left the turn-based queue."))
    return redirect(_to_card(kind))


@require_safe
@vary_on_headers("HX-Request")
def queue_panel(request):
    """The panel alone, for anyone (htmx; anything else goes to the play page):
    what static/js/queue.js swaps in when its socket was refused as banned,
    so the panel says why (the suspension and its reason, the log-out's
    message) instead of a time waited."""
    return _play_panel(request)
