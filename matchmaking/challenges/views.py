"""Challenge pages and forms (README "Playing again").

Plain forms that work without JavaScript; each calls one action
(``matchmaking.challenges.actions``). A challenge's page (``/challenges/<id>/``) is
for its two players only (404 for anyone else, as for none). With htmx it
asks for its state every 2 s while open, and is sent to the match
(``HX-Redirect``) once it is accepted; the play page's list of challenges
to you asks every 5 s. Those answers differ on ``HX-Request`` and say so
(``Vary``).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from core.errors import Refused
from matchmaking.challenges import actions

PARTS = "matchmaking/challenges.html#"


@login_required
@require_POST
def challenge_new(request, username):
    try:
        challenge = actions.do_challenge(
            request.user, username, request.POST.get("kind", ""), request.POST.get("turn_seconds", ""),
            is_public=request.POST.get("private") != "on", rated=request.POST.get("rated"))
    except Refused as e:
        messages.error(request, e.message)
        return redirect("profile", username=username)
    return redirect("challenge", challenge_id=challenge.pk)


def _log_in_first(request):
    """Someone logged out (a session that ended while the page polled): to
    the log-in page, htmx included (``HX-Redirect``, not a swapped page)."""
    url = f"{reverse('login')}?next={request.path}"
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@require_safe
def challenge_page(request, challenge_id):
    if not request.user.is_authenticated:
        return _log_in_first(request)
    try:
        challenge = actions.visible_challenge(challenge_id, request.user)
    except Refused as e:
        return render(request, "matchmaking/challenge.html", {"missing": e.message}, status=404)
    ctx = {"challenge": challenge, "mine": challenge.challenger_id == request.user.pk}
    if request.htmx:
        if challenge.status == challenge.Status.ACCEPTED and challenge.match_id:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = reverse("match", args=[challenge.match.public_id])
        else:
            response = render(request, PARTS + "state", ctx)
    else:
        response = render(request, "matchmaking/challenge.html", ctx)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _answer(request, challenge_id, action, *args):
    try:
        return action(challenge_id, request.user, *args)
    except Refused as e:
        messages.error(request, e.message)
        return None


@login_required
@require_POST
def challenge_accept(request, challenge_id):
    challenge = _answer(request, challenge_id, actions.do_answer, True)
    if challenge is not None and challenge.match_id:
        return redirect("match", public_id=challenge.match.public_id)
    return _after(request, challenge_id)


@login_required
@require_POST
def challenge_decline(request, challenge_id):
    if _answer(request, challenge_id, actions.do_answer, False):
        messages.success(request, _("Challenge declined."))
    return _after(request, challenge_id)


@login_required
@require_POST
def challenge_cancel(request, challenge_id):
    if _answer(request, challenge_id, actions.do_cancel):
        messages.success(request, _("Challenge withdrawn."))
    return _after(request, challenge_id)


def _after(request, challenge_id):
    """Back where the form was (the play page, a profile), else the challenge's page."""
    back = request.POST.get("next", "")
    if back in (reverse("play"), reverse("profile", args=[request.user.username])):
        return redirect(back)
    return redirect("challenge", challenge_id=challenge_id)


@login_required
@require_POST
def challenge_settings(request):
    actions.do_set_takes_challenges(request.user, request.POST.get("accepts") == "on")
    messages.success(request, _("Saved: you take challenges.") if request.POST.get("accepts") == "on"
                     else _("Saved: nobody can challenge you now."))
    return redirect("profile", username=request.user.username)


@require_safe
def challenges_incoming(request):
    """The play page's list of open challenges to you (htmx asks for it every
    5 s); logged out, an empty list that asks no more."""
    signed_in = request.user.is_authenticated
    response = render(request, PARTS + "incoming", {
        "incoming": actions.incoming(request.user) if signed_in else [], "next": reverse("play"),
        "poll": signed_in})
    patch_vary_headers(response, ["HX-Request"])
    return response
