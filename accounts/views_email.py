"""The e-mail pages (docs/features.md "Confirming your e-mail"): "check
your mail" after sign-up, the account's address (change it, with the
password; have the link sent again), and the confirmation link's page (a GET
asks, a POST confirms: a mail scanner that opens links confirms nothing).

No oracle: what these pages answer never depends on whether another account
has the address; the mail to the address says so (``accounts.tasks``). Every
change and every "send it again" counts against PARLOUR_EMAIL_CHANGE_RATE
per account.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import confirmation, tasks
from accounts.forms import EmailChangeForm
from accounts.views import _safe_next, rate_limited
from core import ratelimits


@login_required
@require_http_methods(["GET"])
def email_sent(request):
    """After sign-up: the link is on its way (whatever the address)."""
    return render(request, "accounts/email_sent.html",
                  {"next": _safe_next(request), "days": settings.PARLOUR_EMAIL_CONFIRM_DAYS})


@login_required
@require_http_methods(["GET", "POST"])
def email_change(request):
    """The account's address; POST ``email`` and ``password`` to change it,
    or ``resend`` to have the waiting address's link sent again."""
    user = request.user
    form = EmailChangeForm(user, request.POST if request.method == "POST" and "resend" not in request.POST
                           else None)
    if request.method == "POST":
        if not ratelimits.hit(settings.PARLOUR_EMAIL_CHANGE_RATE, "email-change", user.pk):
            return rate_limited(request, "email-change")
        if "resend" in request.POST:
            if tasks.queue_address_mail(user):
                messages.success(request, _("We sent a new link to %(address)s.")
                                 % {"address": confirmation.waiting_address(user)})
            else:
                messages.info(request, _("Your address is confirmed: there is nothing to send."))
            return redirect("email_change")
        if form.is_valid():
            if confirmation.do_change_email(user, form.cleaned_data["email"]):
                tasks.queue_address_mail(user)
                messages.success(request, _("We sent a link to %(address)s: the address is yours once you "
                                            "click it.") % {"address": confirmation.waiting_address(user)})
            else:
                messages.info(request, _("That is your address already."))
            return redirect("email_change")
    return render(request, "accounts/email.html",
                  {"form": form, "waiting": confirmation.waiting_address(user)},
                  status=400 if form.is_bound else 200)


@require_http_methods(["GET", "POST"])
def email_confirm(request, token):
    """A GET shows what the link confirms, with a button; the POST confirms.
    A forged, expired, used or replaced link (or an address another account
    confirmed first) answers 400 with the reason, and changes nothing."""
    try:
        if request.method == "POST":
            user = confirmation.confirm(token)
            return render(request, "accounts/email_confirm.html", {"done": True, "address": user.email,
                                                                   "account": user})
        account, address = confirmation.read_token(token)
    except confirmation.BadConfirmationLink as e:
        return render(request, "accounts/email_confirm.html", {"error": str(e)}, status=400)
    return render(request, "accounts/email_confirm.html", {"address": address, "account": account})
