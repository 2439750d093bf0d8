"""The mail settings page and the one-click unsubscribe link (docs/features.md,
"E-mail when it is your turn").

The unsubscribe link needs no log-in: its signed token names the account and
the kind (``notifications.mail``). A GET shows a page with a button (mail
scanners follow links, so a GET never changes anything); a POST switches the
kind off, whether from that button or from a mail program's one-click
unsubscribe (RFC 8058: ``List-Unsubscribe=One-Click`` in the body, no
cookies, hence no CSRF token: the signed token is the proof). A forged,
expired or altered link, or one for another account than the one signed in,
gets a page that says so (HTTP 400) and changes nothing.
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notifications import mail
from notifications.models import KIND_HELP, KINDS, MailSettings


class MailSettingsForm(forms.ModelForm):
    class Meta:
        model = MailSettings
        fields = ["your_turn", "reminders", "results"]
        labels = KINDS
        help_texts = KIND_HELP


@login_required
@require_http_methods(["GET", "POST"])
def mail_settings(request):
    """Switch each kind of mail on or off; shows the address mail goes to,
    and whether it bounced."""
    instance = mail.settings_of(request.user.pk)
    form = MailSettingsForm(request.POST if request.method == "POST" else None, instance=instance)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your mail settings are saved."))
        return redirect("mail_settings")
    return render(request, "notifications/mail_settings.html", {
        "form": form, "bounced": instance.bounced(request.user.email), "mail_settings": instance},
        status=400 if form.errors else 200)


@csrf_exempt  # a mail program's one-click POST carries no cookie; the signed token is the proof
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """GET: what the link would switch off, and a button. POST: switch it off."""
    try:
        user, kind = mail.read_unsubscribe_token(token)
    except mail.BadUnsubscribeLink as e:
        return render(request, "notifications/unsubscribe.html", {"error": str(e)}, status=400)
    if request.user.is_authenticated and request.user.pk != user.pk:
        return render(request, "notifications/unsubscribe.html", {
            "error": _("This unsubscribe link is for another account than the one signed in here, so "
                       "nothing was changed. Sign out to use it, or change your own mail settings.")},
            status=400)
    context = {"kind": kind, "kind_label": KINDS[kind], "kind_help": KIND_HELP[kind], "address": user.email}
    if request.method == "POST":
        mail.switch_off(user, kind)
        context["done"] = True
    return render(request, "notifications/unsubscribe.html", context)
