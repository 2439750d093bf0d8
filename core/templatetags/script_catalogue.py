"""{% script_catalogue %}: the URL of the scripts' catalogue for the page's language
(core/script_catalogue.py; base.html loads it before the scripts)."""

from django import template
from django.utils import translation

from core import script_catalogue as catalogue

register = template.Library()


@register.simple_tag
def script_catalogue() -> str:
    return catalogue.url(translation.get_language() or "en")
