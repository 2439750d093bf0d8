"""``{% close_codes %}``: the WebSocket refusal texts of every page
(``accounts.close_codes.REFUSALS``) as a JSON data block,
``<script type="application/json" id="close-codes">``.

A data block, not a script: browsers do not run it, so the Content
Security Policy (``script-src 'self'``, config/settings.py) allows it.
"""

from django import template
from django.utils.html import json_script

from accounts.close_codes import REFUSALS

register = template.Library()


@register.simple_tag(name="close_codes")
def close_codes_block():
    """The data block: ``{"match": {"4003": "You are banned...", ...}, "room": ..., "queue": ...}``
    (JSON object keys are strings)."""
    return json_script(REFUSALS, "close-codes")
