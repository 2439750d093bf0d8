"""{% script_catalogue %}: the script element of the scripts' catalogue for the page's
language (core/script_catalogue.py; base.html puts it before every other script). None
for English: the scripts' own words are English (static/js/i18n.js falls back to them),
so an English page makes no request for a catalogue with nothing in it."""

from django import template
from django.conf import settings
from django.utils import translation
from django.utils.html import format_html

from core import script_catalogue as catalogue

register = template.Library()


@register.simple_tag
def script_catalogue() -> str:
    language = translation.get_language() or settings.LANGUAGE_CODE
    if language.split("-")[0] == "en":
        return ""
    return format_html('<script src="{}" defer></script>', catalogue.url(language))
