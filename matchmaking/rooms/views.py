"""Room pages: create, lobby, the host's lobby forms, and invite links.

Views parse, call one action (``matchmaking.rooms.actions``), render or redirect
(STYLE habit 3); every form posts and works without JavaScript. The lobby
page is live over ``/ws/room/<code>/`` (consumers.py).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core import proxy
from core.errors import Refused
from games import chat, sites
from matchmaking.models import RoomMember
from matchmaking.rooms import actions
from matchmaking.rooms.forms import RoomForm
from matchmaking.rooms.fragments import lobby_context, member_context

NEW_INVITE_SESSION_KEY = "room_new_invite"


@login_required
@require_http_methods(["GET", "POST"])
def room_new(request):
    # ?kind=<game> (a play page card's link) chooses that game to begin with.
    kind = request.GET.get("kind")
    form = RoomForm(request.POST if request.method == "POST" else None,
                    initial={"kind": kind} if kind in sites.kinds() else None)
    if request.method == "POST" and form.is_valid():
        s = form.room_settings
        try:
            room = actions.do_create_room(
                request.user, s["kind"], s["seat_count"], s["computers"], turn_seconds=s["turn_seconds"],
                idle_limit=s["idle_limit"], options=s["options"], theme=s["theme"])
        except Refused as e:
            form.add_error(None, e.message)
        else:
            return redirect("room", code=room.code)
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "matchmaking/room_new.html", {"form": form}, status=status)


#: What anyone outside a room is told about it, whether or not it exists
#: (page, lobby forms and socket alike: README "Private rooms"), so a room
#: code cannot be probed.
NO_SUCH_ROOM = gettext_noop("There is no such room, or you are not in it: to join a room you need an "
                            "invite link from its host.")  # translated where shown


@require_safe
def room_page(request, code):
    try:
        room = actions.room_for_member(code, request.user)
    except Refused:
        return render(request, "matchmaking/room_private.html", {"message": _(NO_SUCH_ROOM)}, status=404)
    ctx = member_context(lobby_context(room), request.user)
    ctx.update(new_invite=request.session.pop(NEW_INVITE_SESSION_KEY, None),
               chat_phrases=chat.PHRASES, chat_emoji=chat.EMOJI)
    return render(request, "matchmaking/room.html", ctx)


def _act(request, code, action, *args):
    try:
        result = action(code, request.user, *args)
    except Refused as e:
        # Someone outside the room learns no more from a form than from the page.
        outside = isinstance(e, actions.RoomNotFound) or not actions.is_member_of(code, request.user)
        messages.error(request, _(NO_SUCH_ROOM) if outside else e.message)
        return None
    return result if result is not None else True


@login_required
@require_POST
def room_invite(request, code):
    result = _act(request, code, actions.do_create_invite)
    if result:
        _invite, token = result
        request.session[NEW_INVITE_SESSION_KEY] = request.build_absolute_uri(
            reverse("room_join", kwargs={"token": token}))
    return redirect("room", code=code)


@login_required
@require_POST
def room_revoke(request, code, invite_id):
    if _act(request, code, actions.do_revoke_invite, invite_id):
        messages.success(request, _("Invite revoked."))
    return redirect("room", code=code)


@login_required
@require_POST
def room_remove(request, code):
    _act(request, code, actions.do_remove_player, request.POST.get("user"))
    return redirect("room", code=code)


@login_required
@require_POST
def room_computer(request, code):
    _act(request, code, actions.do_set_computer, request.POST.get("seat"), request.POST.get("level", ""))
    return redirect("room", code=code)


@login_required
@require_POST
def room_start(request, code):
    match = _act(request, code, actions.do_start_room)
    if match:
        return redirect("match", public_id=match.public_id)
    return redirect("room", code=code)


@login_required
@require_POST
def room_leave(request, code):
    if _act(request, code, actions.do_leave_room):
        messages.success(request, _("You left the room."))
        return redirect("play")
    return redirect("room", code=code)


@require_http_methods(["GET", "POST"])
def room_join(request, token):
    """GET: the invite's page, signed in or not: which game and whose room a
    valid link seats one in (``rooms.invite_preview``; an invalid one gets the
    refusal redeeming gives, and only a valid link tells anything), with a Join
    button, or log-in and sign-up links that come back here. POST (signed in):
    redeem the invite."""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        try:
            room = actions.do_redeem_invite(token, request.user, ip=proxy.client_ip(request))
        except Refused as e:
            status = 429 if isinstance(e, actions.TooManyAttempts) else 400
            return render(request, "matchmaking/room_join.html", {"error": e.message}, status=status)
        return redirect("room", code=room.code)
    try:
        preview = actions.invite_preview(token, ip=proxy.client_ip(request))
    except actions.TooManyAttempts as e:
        return render(request, "matchmaking/room_join.html", {"error": e.message}, status=429)
    if preview is None:
        return render(request, "matchmaking/room_join.html", {"error": _(actions.INVITE_REFUSED)}, status=404)
    return render(request, "matchmaking/room_join.html", {
        "preview": preview, "game": sites.name(preview.kind), "next": request.path})


def members_of(room):
    """Active members, longest-seated first (for templates and tests)."""
    return list(RoomMember.objects.filter(room=room, status=RoomMember.Status.ACTIVE).select_related("user"))
