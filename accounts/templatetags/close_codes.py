"""``{% close_codes "match" %}``: what a page says when the server refuses
its socket (``accounts.close_codes.REFUSALS`` for that page: "match",
"room" or "queue") as a JSON data block,
``<script type="application/json" id="close-codes">``, which
static/js/parlour.js reads.

Only the pages that open a socket render it (their templates' scripts
block). A data block, not a script: browsers do not run it, so the
Content Security Policy (``script-src 'self'``, config/settings.py) allows it.
"""

from django import template
from django.utils.html import json_script

from accounts.close_codes import CLOSE_TRY_AGAIN, REFUSALS

register = template.Library()


@register.simple_tag(name="close_codes")
def close_codes_block(page: str):
    """The data block of ``page``: ``{"refusals": {"4003": "You are banned
    from playing.", ...}, "try_again": 4013}`` (refusal close code -> text,
    JSON object keys are strings; the code after which the page reconnects).
    Raises KeyError for a page that is not in the table."""
    return json_script({"refusals": REFUSALS[page], "try_again": CLOSE_TRY_AGAIN}, "close-codes")
