"""Close your account, and download your data (``accounts.closing``,
``accounts.data``; docs/features.md "Closing your account and your data")."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

from accounts import closing, data
from accounts.tasks import export_data


@login_required
@require_http_methods(["GET", "POST"])
def close_page(request):
    """GET: what closing keeps and deletes, and the password field. POST
    ``password`` closes the account and logs out; a wrong password answers
    400 with the reason, and nothing changes."""
    error = None
    if request.method == "POST":
        try:
            closing.close_account(request.user, request.POST.get("password", ""))
        except closing.CloseError as e:
            error = str(e)
        else:
            logout(request)
            messages.success(request, _("Your account is closed. Thank you for playing."))
            return redirect("home")
    return render(request, "accounts/close.html", {"error": error, "reserved_days": closing.RESERVED_DAYS},
                  status=400 if error else 200)


@login_required
@require_http_methods(["GET", "POST"])
def data_page(request):
    """GET: what the file holds. POST: the file itself for an account with
    few matches; for a larger one, a Celery task makes it and mails a link."""
    if request.method == "POST":
        user = request.user
        if data.is_large(user):
            export_data.delay(user.pk)
            messages.success(request, ngettext(
                "Your file is being made: a link to it will be mailed to %(email)s "
                "and will work for %(days)d day.",
                "Your file is being made: a link to it will be mailed to %(email)s "
                "and will work for %(days)d days.",
                data.LINK_DAYS) % {"email": user.email, "days": data.LINK_DAYS})
            return redirect("data_page")
        return _file(data.dumps(data.build(user)))
    return render(request, "accounts/data.html", {"link_days": data.LINK_DAYS,
                                                  "direct_matches": data.DIRECT_MATCHES})


@login_required
@require_safe
def data_download(request, token):
    """A mailed link's file, for its owner only; a forged, foreign or expired
    link answers 404 or 410 with the reason."""
    try:
        export = data.read_link(token, request.user)
    except data.LinkError as e:
        status = 410 if e.gone else 404
        return render(request, "accounts/data_link.html", {"error": str(e)}, status=status)
    return _file(export.content, export.created_at)


def _file(content: str, made=None) -> HttpResponse:
    response = HttpResponse(content, content_type="application/json; charset=utf-8")
    stamp = (made or timezone.now()).strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="parlour-data-{stamp}.json"'
    response["Cache-Control"] = "private, no-store"
    return response
