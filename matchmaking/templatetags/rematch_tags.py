"""``{% rematch_panel match seat %}``: what a finished match offers one of its
players next (rematch, the room's lobby: README "Playing again").
``{% after_leaving match seat %}``: what a player who left a match still being
played (or was idled out of it) sees in place of its controls.

A tag, so the match page's partials (``games``) need no import of matchmaking.
"""

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from matchmaking import together
from matchmaking.rematch import fragments as rematch_fragments

register = template.Library()


@register.simple_tag(takes_context=True)
def rematch_panel(context, match, seat):
    """The ``#rematch`` panel of ``match`` (over) for ``seat`` (a Seat row of
    a human); "" for a computer seat. Forms carry the page's CSRF token when
    there is a request (a pushed frame's get it from the page's script)."""
    if not seat.user_id:
        return ""
    ctx = rematch_fragments.panel_context(match, seat.user_id)
    return render_to_string(rematch_fragments.PANEL, ctx, request=context.get("request"))


@register.simple_tag
def after_leaving(match, seat):
    """``<p id="after-leaving">`` for ``seat`` (a human's, no longer playing,
    in a match still being played): that it goes on without them, and the
    way on: back to the room's lobby when it is a room's match, else the
    play page. Escaped: the room's code is the only value, and it is ours."""
    room = together.room_of(match) if not match.is_public else None
    if seat.status == "left":
        gone = _("You left this match: it goes on without you, and you can watch it here.")
    else:
        gone = _("You were idled out of this match: it goes on without you, and you can watch it here.")
    if room is not None:
        link = format_html('<a href="{}" id="after-leaving-link">{}</a>',
                           reverse("room", args=[room.code]), _("Back to the room"))
    else:
        link = format_html('<a href="{}" id="after-leaving-link">{}</a>', reverse("play"),
                           _("Play another match"))
    return format_html('<p id="after-leaving" class="after-leaving" role="status">{} {}</p>', gone, link)
