"""The language menu's form (docs/i18n.md "Choosing a language")."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, HttpResponseRedirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import languages
from accounts.models import User


@require_POST
def set_language(request):
    """POST ``language`` (a code of settings.LANGUAGES), and optionally
    ``next`` (a path of this site; else the Referer, the page the menu was
    on): keep the language on the signed-in person's account, and
    in Django's language cookie for everyone (a visitor's choice, and the
    signed-out pages of a person on this browser); then back to ``next``
    (the home page when it is missing or another site's), in the new language.
    400 for a language the site does not have; nothing changes then. URLs
    carry no language, so ``next`` is the same page."""
    code = languages.valid(request.POST.get("language"))
    if code is None:
        return HttpResponse(_("Parlour has no such language."), status=400,
                            content_type="text/plain; charset=utf-8")
    target = request.POST.get("next") or request.headers.get("Referer") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = "/"
    if request.user.is_authenticated and request.user.language != code:
        User.objects.filter(pk=request.user.pk).update(language=code)
    translation.activate(code)
    request.LANGUAGE_CODE = code
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, code, max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE or request.is_secure(),
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY, samesite=settings.LANGUAGE_COOKIE_SAMESITE or "Lax",
    )
    return response
