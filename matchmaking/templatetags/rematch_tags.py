"""``{% rematch_panel match seat %}``: what a finished match offers one of its
players next (rematch, the room's lobby: README "Playing again").

A tag, so the match page's partials (``games``) need no import of matchmaking.
"""

from django import template
from django.template.loader import render_to_string

from matchmaking import rematch_fragments

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
