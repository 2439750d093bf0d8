"""The rematch forms of a finished match's page (README "Playing again").

Plain posts that work without JavaScript: each calls one action
(``matchmaking.rematch.actions``) and goes to the match that follows, or back to the
finished match, whose panel shows where the offer stands.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from core.errors import Refused
from games.models import Match
from matchmaking.rematch import actions


def _back(public_id):
    return redirect("match", public_id=public_id)


def _follow(offer, public_id):
    """To the new match once the offer made one, else back to the old match."""
    if offer.new_match_id:
        return redirect("match", public_id=offer.new_match.public_id)
    return _back(public_id)


@login_required
@require_POST
def rematch_offer(request, public_id):
    """Against computers: start the same settings at once. Between humans:
    offer a rematch (or accept the open one)."""
    computers = Match.objects.filter(public_id=public_id, seats__user__isnull=True).exists()
    try:
        if computers:
            new = actions.do_rematch_computers(public_id, request.user)
            return redirect("match", public_id=new.public_id)
        offer = actions.do_offer(public_id, request.user)
    except Refused as e:
        messages.error(request, e.message)
        return _back(public_id)
    return _follow(offer, public_id)


@login_required
@require_POST
def rematch_accept(request, public_id):
    try:
        offer = actions.do_answer(public_id, request.user, True)
    except Refused as e:
        messages.error(request, e.message)
        return _back(public_id)
    return _follow(offer, public_id)


@login_required
@require_POST
def rematch_decline(request, public_id):
    try:
        actions.do_answer(public_id, request.user, False)
    except Refused as e:
        messages.error(request, e.message)
    return _back(public_id)
