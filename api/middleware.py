"""The API speaks English to code (docs/api.md, docs/i18n.md): its error
messages are part of the contract, whatever a client's Accept-Language or
its account's language say. The API's page (/api/) and the example bot are
for people and follow their language."""

from django.utils import translation

#: The paths under /api/ that people read.
PAGES = frozenset({"/api/", "/api/parlour_bot.py"})


class EnglishApiMiddleware:
    """Activates English for the API's calls. Sits after the middleware that
    choose the request's language (LocaleMiddleware, the account's)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if path.startswith("/api/") and path not in PAGES:
            translation.activate("en")
            request.LANGUAGE_CODE = "en"
        return self.get_response(request)
