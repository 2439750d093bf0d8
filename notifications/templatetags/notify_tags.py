"""``{% notify_region %}``: the toast region of every page of a signed-in
user (templates/base.html), which static/js/notify.js fills from the user
socket (README "Notifications"); nothing for anyone else.

It carries what the script needs as data attributes, so no inline script is
needed (the Content Security Policy allows none): the socket's path, the
close codes after which it does not reconnect (accounts/close_codes.py: not
signed in, signed out, banned, no route, flooding, frame too large, over the
cap), the one after which it retries later, the ban's fallback text, and the
code and text of a socket whose session ended (logged out, or the password
changed elsewhere). It is
``hx-preserve``d: a page swapped in by htmx keeps the socket's toasts.
"""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

from accounts import close_codes as codes

register = template.Library()

STOP_CODES = (codes.CLOSE_NOT_ALLOWED, codes.CLOSE_SIGNED_OUT, codes.CLOSE_BANNED, codes.CLOSE_NOT_FOUND,
              codes.CLOSE_FLOODING, codes.CLOSE_TOO_LARGE, codes.CLOSE_TOO_MANY_SOCKETS)


@register.simple_tag(takes_context=True)
def notify_region(context):
    """The region's HTML: ``<aside id="notify" data-ws data-stop-codes
    data-try-again data-banned data-signed-out-code data-signed-out>`` holding a polite live region
    (``#notify-said``, what is announced) and the toast list (``#toasts``)."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return ""
    return format_html(
        '<aside id="notify" class="notify" aria-label="{}" hx-preserve="true" '
        'data-ws="/ws/notify/" data-stop-codes="{}" data-try-again="{}" data-banned="{}" '
        'data-signed-out-code="{}" data-signed-out="{}">'
        '<p id="notify-said" class="visually-hidden" role="status" aria-live="polite"></p>'
        '<ul id="toasts" class="toasts"></ul></aside>',
        _("Notifications"), ",".join(str(c) for c in STOP_CODES), codes.CLOSE_TRY_AGAIN,
        codes.REFUSALS["match"][codes.CLOSE_BANNED], codes.CLOSE_SIGNED_OUT,
        codes.REFUSALS["match"][codes.CLOSE_SIGNED_OUT])
