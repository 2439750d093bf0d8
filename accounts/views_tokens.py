"""The token settings page: make and revoke personal API tokens, and become
a bot account (``accounts.tokens``; docs/api.md "Tokens", "Bot accounts";
docs/features.md "Bot accounts and API tokens").

A new token's text is shown once, on the answer to the POST that made it,
rendered from that POST (never a redirect: the text would have to travel in
a URL or a session) with ``Cache-Control: no-store``. It is never logged,
never put in a message, never in a URL.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts import tokens
from accounts.models import ApiToken

#: What a GET on a POST-only address answers (405, the page with this line).
USE_THE_BUTTONS = gettext_lazy("That address only takes the page's buttons: nothing was changed.")


def _page(request, *, error=None, name="", scopes=(), status=200):
    user = request.user
    context = {
        "tokens": ApiToken.objects.filter(user=user, revoked_at=None).order_by("-created_at", "-pk"),
        "error": error, "name": name, "chosen": set(scopes),
        "max_tokens": tokens.MAX_TOKENS, "can_become_bot": tokens.can_become_bot(user),
    }
    response = render(request, "accounts/tokens.html", context, status=status)
    if status == 405:
        response["Allow"] = "POST"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def tokens_page(request):
    """GET: the live tokens, the form that makes one, and (for a person with
    no rated match) the way to become a bot. POST ``name`` and ``scopes``
    (``read``, ``play``; repeated) makes a token and answers with its text,
    once, uncached; a refusal answers 400 with the reason, and nothing changes."""
    if request.method != "POST":
        return _page(request)
    name, scopes = request.POST.get("name", ""), request.POST.getlist("scopes")
    try:
        token, text = tokens.make_token(request.user, name, scopes)
    except tokens.TokenRefused as e:
        return _page(request, error=e.message, name=name[:40], scopes=scopes, status=400)
    response = render(request, "accounts/token_made.html", {"token": token, "text": text})
    add_never_cache_headers(response)  # no-store: the text is in no cache, no back-button copy
    return response


@login_required
@require_http_methods(["GET", "POST"])
def token_revoke(request):
    """POST ``token`` (an id of the user's own token) revokes it: its
    streams close. Another account's token, or none, answers 400; a GET 405."""
    if request.method != "POST":
        return _page(request, error=USE_THE_BUTTONS, status=405)
    try:
        token = tokens.revoke(request.user, request.POST.get("token"))
    except tokens.TokenRefused as e:
        return _page(request, error=e.message, status=400)
    messages.success(request, _("Token “%(name)s” (%(prefix)s…) revoked: programs using it are refused "
                                "from now on.") % {"name": token.name, "prefix": token.prefix})
    return redirect("api_tokens")


@login_required
@require_http_methods(["GET", "POST"])
def become_bot(request):
    """GET: what a bot account is, and the confirmation form (the password,
    as closing an account asks). POST ``password`` makes the account a bot,
    for good (``tokens.make_bot``); a wrong password, a bot already or an
    account with a rated match answers 400 with the reason, nothing changed."""
    user = request.user
    error = None
    if request.method == "POST":
        if not user.check_password(request.POST.get("password", "")):
            error = _("That is not your password; nothing was changed.")
        else:
            try:
                tokens.make_bot(user)
            except tokens.TokenRefused as e:
                error = e.message
            else:
                messages.success(request, _("Your account is a bot account now: make it a token with the "
                                            "play scope."))
                return redirect("api_tokens")
    return render(request, "accounts/become_bot.html",
                  {"error": error, "can_become_bot": tokens.can_become_bot(user)},
                  status=400 if error else 200)
