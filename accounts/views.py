"""Sign-up, password change and reset (log in/out use Django's views; the
public profile, which shows matches, is ``games.views_profile.profile``).

A password change or reset closes the user's open sockets of every other
session (``accounts.sockets.password_changed``; log-out closes its own
session's, ``accounts.sockets.logged_out``).

Both are rate-limited (README "Decisions": sign-up and password-reset
limits; sign-up also limits its failed attempts, a budget of their own per
client address) through ``core.ratelimits`` (the ``limits`` library over Redis,
so every server process shares the counts): past a limit the page answers
429 and says so, and nothing is created or sent.
"""

import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts import languages, sockets, tasks, timezones
from accounts.forms import ConfirmedPasswordResetForm, SignUpForm
from accounts.models import User
from core import ratelimits
from core.proxy import client_ip

log = logging.getLogger(__name__)


#: What the rate-limited page says, one whole sentence per limit (word order differs by language).
TOO_MANY = {
    "signup-failed": gettext_lazy("There have been too many sign-up attempts from your network for now, so "
                                  "nothing was done. Wait an hour, then try again."),
    "signup": gettext_lazy("There have been too many new accounts from your network for now, so nothing "
                           "was done. Wait an hour, then try again."),
    "reset-ip": gettext_lazy("There have been too many password reset emails from your network for now, "
                             "so nothing was done. Wait an hour, then try again."),
    "reset-email": gettext_lazy("There have been too many password reset emails to that address for now, "
                                "so nothing was done. Wait an hour, then try again."),
    "email-change": gettext_lazy("There have been too many e-mail changes and confirmation links for your "
                                 "account for now, so nothing was done. Wait an hour, then try again."),
}


def rate_limited(request, limit: str, status: int = 429):
    """The page that says ``limit`` (a key of ``TOO_MANY``: "signup",
    "reset-ip", ...) is over its limit for now (HTTP 429)."""
    return render(request, "accounts/rate_limited.html", {"what": TOO_MANY[limit]}, status=status)


@require_http_methods(["GET", "POST"])
def signup(request):
    """The sign-up form; a new account is logged in, its address is mailed a
    confirmation link (``accounts.tasks.queue_address_mail``), and it is
    shown the "check your mail" page, which leads on where it was going
    (``next``: a path on this site, as the log-in page passes it on, e.g. a
    room's invite link). The answer is the same whether or not another
    account has the address (docs/features.md "Confirming your e-mail")."""
    going = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(going or "home")
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if request.method != "POST":
        return render(request, "accounts/signup.html", {"form": form, "next": going})
    # Every attempt counts: one that creates nothing (a form's errors, such as
    # a taken username) against a budget of its own per client address
    # (README "Decisions"), larger than the sign-ups'. Over it, the form is
    # not even checked. An email another account has is no error at all.
    address = client_ip(request) or "?"
    if not ratelimits.allows(settings.PARLOUR_SIGNUP_FAILED_RATE, "signup-failed", address):
        return rate_limited(request, "signup-failed")
    if form.is_valid():
        # Counted only for a sign-up that would create an account: typos cost nothing here.
        if not ratelimits.hit(settings.PARLOUR_SIGNUP_RATE, "signup", address):
            # Refused, so it created nothing: it counts as a failed attempt too,
            # or a full sign-up limit would answer "no account has this username" for free.
            ratelimits.hit(settings.PARLOUR_SIGNUP_FAILED_RATE, "signup-failed", address)
            return rate_limited(request, "signup")
        try:
            with transaction.atomic():
                user = form.save()
                tasks.queue_address_mail(user)
        except IntegrityError:
            # Two sign-ups with the same name at the same instant: the unique
            # constraint settles it, and the loser gets the form's error.
            form.add_error("username", _("That username is taken."))
        else:
            # The same answer whether or not another account has the address
            # (no oracle): the mail to it tells its owner.
            login(request, user, backend="accounts.backends.ParlourBackend")
            messages.success(request, _("Welcome to Parlour, %(name)s!") % {"name": user.username})
            sent = reverse("email_sent")
            return redirect(f"{sent}?{urlencode({'next': going})}" if going else sent)
    # Counted before the errors are shown: of attempts racing past the check
    # above, those the count refuses show nothing.
    if not ratelimits.hit(settings.PARLOUR_SIGNUP_FAILED_RATE, "signup-failed", address):
        return rate_limited(request, "signup-failed")
    return render(request, "accounts/signup.html", {"form": form, "next": going}, status=400)


def _safe_next(request) -> str:
    """``next`` of the request (the form's, else the address's) when it is a
    URL of this site (Django's ``url_has_allowed_host_and_scheme``: never
    ``//evil.example`` or another scheme), else ""."""
    going = request.POST.get("next") or request.GET.get("next") or ""
    if going and url_has_allowed_host_and_scheme(going, allowed_hosts={request.get_host()},
                                                 require_https=request.is_secure()):
        return going
    return ""


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset form, limited per client address and per email address
    (whether or not an account has it, so the limit tells nothing about who
    has an account): a script can neither mail many inboxes nor flood one.
    Only confirmed addresses get the mail (``ConfirmedPasswordResetForm``),
    sent by a worker (``accounts.tasks.send_password_reset``)."""

    form_class = ConfirmedPasswordResetForm

    def form_valid(self, form):
        email = form.cleaned_data["email"].strip().lower()
        address = client_ip(self.request) or "?"
        if not ratelimits.hit(settings.PARLOUR_PASSWORD_RESET_RATE, "reset-ip", address):
            return rate_limited(self.request, "reset-ip")
        if not ratelimits.hit(settings.PARLOUR_PASSWORD_RESET_EMAIL_RATE, "reset-email", email):
            return rate_limited(self.request, "reset-email")
        # The accounts are looked up and mailed by a worker (accounts.tasks), not
        # here: the answer takes the same time whether or not an account has the
        # address. A broker that cannot be reached loses this mail (logged);
        # the person asks again.
        templates = {"subject_template_name": self.subject_template_name,
                     "email_template_name": self.email_template_name,
                     "html_email_template_name": self.html_email_template_name}
        try:
            tasks.send_password_reset.delay(form.cleaned_data["email"], self.request.get_host(),
                                            self.request.is_secure(), templates, languages.current())
        except Exception:  # noqa: BLE001 - the answer says the same; the log says why
            log.exception("password reset mail not queued")
        return redirect(self.get_success_url())


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change (which keeps this session signed in, under
    a new key, and ends the others); then every open socket of the user's
    other sessions closes with 4002, and this session's sockets stay."""

    def form_valid(self, form):
        old_key = self.request.session.session_key
        response = super().form_valid(form)
        sockets.password_changed(form.user.pk, old_key, self.request.session.session_key)
        return response


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's new-password form of a reset link (no session is kept: each
    of the user's sessions must log in again); then every open socket of the
    user closes with 4002."""

    def form_valid(self, form):
        response = super().form_valid(form)
        sockets.password_changed(form.user.pk)
        return response


@require_POST
def set_time_zone(request):
    """POST ``time_zone`` (an IANA name, as the browser reports it): keep it on
    the signed-in person's profile, and in a cookie for a visitor (README
    "Times"). 204; 400 for anything that is not a known zone, and nothing
    changes then. static/js/times.js sends it when the browser's zone differs
    from the one the page was rendered in."""
    zone = timezones.valid_zone(request.POST.get("time_zone"))
    if zone is None:
        return HttpResponse(_("Not a time zone."), status=400, content_type="text/plain")
    if request.user.is_authenticated and request.user.time_zone != zone:
        User.objects.filter(pk=request.user.pk).update(time_zone=zone)
    response = HttpResponse(status=204)
    response.set_cookie(timezones.COOKIE, zone, max_age=timezones.COOKIE_MAX_AGE, samesite="Lax",
                        secure=request.is_secure())
    return response
