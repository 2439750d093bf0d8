"""Admin actions that ask for a reason on an intermediate page before
calling one ``moderation.actions`` action per selected object (README
"Moderation"); moderation/admin.py gives them to the user, match, invite and
report admins.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import Refused

ACTION_TEMPLATE = "admin/moderation_action.html"


class ReasonForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), max_length=2000,
        label=gettext_lazy("Reason"), help_text=gettext_lazy("Required. Kept in the audit log."),
    )


def run_with_form(modeladmin, request, queryset, *, title: str, form_class, perform,
                  done: Callable[[int], str], intro: str = ""):
    """An admin action with an intermediate page: show ``form_class`` (with
    a required reason) for the selected objects; once it is posted valid,
    call ``perform(obj, cleaned_data)`` for each (a refusal, a
    ``core.errors.Refused`` such as ModerationError, is shown as a warning
    for that object, the others go on) and report ``done(n)`` ("3 users
    banned": an ``ngettext``, the count in the moderator's language). Returns
    the page, or None to go back to the list."""
    form = form_class(request.POST if "apply" in request.POST else None)
    if "apply" in request.POST and form.is_valid():
        count = 0
        for obj in queryset:
            try:
                result = perform(obj, form.cleaned_data)
            except Refused as e:
                said = _("%(object)s: %(refusal)s") % {"object": obj, "refusal": e.message}
                modeladmin.message_user(request, said, messages.WARNING)
            else:
                if result is not False:
                    count += 1
                else:
                    said = _("%(object)s: nothing to do.") % {"object": obj}
                    modeladmin.message_user(request, said, messages.WARNING)
        if count:
            modeladmin.message_user(request, done(count), messages.SUCCESS)
        return None
    opts = modeladmin.model._meta
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "intro": intro,
        "objects": list(queryset),
        "form": form,
        "opts": opts,
        "action": request.POST.get("action", ""),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "media": modeladmin.media + form.media,
    }
    return TemplateResponse(request, ACTION_TEMPLATE, context)
