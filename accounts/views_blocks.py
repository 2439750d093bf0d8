"""The block list (``accounts.blocks``; docs/features.md "Blocking a player"):
the players you blocked, each with Unblock; the Block button of a profile
posts here too."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import blocks, sockets
from accounts.views import _safe_next


@login_required
@require_http_methods(["GET", "POST"])
def blocked_page(request):
    """GET: the players you blocked, newest first. POST ``block`` or
    ``unblock`` (a username) blocks or unblocks them, then goes to ``next``
    (a path on this site: the profile the button was on) or back here. A
    refused one (yourself, no such player, a closed account, twice, not
    blocked) answers 400 with the reason, and nothing changes."""
    user = request.user
    error = None
    if request.method == "POST":
        try:
            if "unblock" in request.POST:
                target = blocks.do_unblock(user, request.POST["unblock"])
                messages.success(request, _("You unblocked %(name)s.") % {"name": target.username})
            else:
                block = blocks.do_block(user, request.POST.get("block"))
                messages.success(request, _("You blocked %(name)s.") % {"name": block.blocked.username})
        except blocks.BlockRefused as e:
            error = e.message
        else:
            user_id = user.pk
            transaction.on_commit(lambda: sockets.blocks_changed(user_id))
            return redirect(_safe_next(request) or "blocked_players")
    return render(request, "accounts/blocked.html", {"blocks": blocks.blocked_list(user), "error": error},
                  status=400 if error else 200)
