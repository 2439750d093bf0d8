"""``{% your_matches_section %}``: the "Your matches" section of the home and
play pages (games/your_matches.py; README "Notifications"), for a signed-in
user; nothing for anyone else. static/js/notify.js keeps it live over the
user socket (the panel's ``data-panel``). ``{% your_turn_badge %}``: the
count of turn-based matches waiting for the user, beside Play in every
page's header (``data-count``, kept live by notify.js too)."""

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games import your_matches

register = template.Library()


@register.simple_tag(takes_context=True)
def your_matches_section(context):
    """The section's HTML (templates/games/your_matches.html), or "" when signed out."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return ""
    rows = your_matches.panel_rows(user)
    return render_to_string("games/your_matches.html", {
        "groups": {g: mark_safe("".join(r)) for g, r in rows.items()},  # noqa: S308 - format_html rows
        "your_turn": len(rows[your_matches.TURN]),
        "panel": your_matches.PANEL,
    }, request=context.get("request"))


def _your_turn(context) -> int | None:
    """The count, read once per request however many headers show it; None signed out."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return None
    request = context.get("request")
    n = getattr(request, "_parlour_your_turn", None)
    if n is None:
        n = your_matches.your_turn_count(user.pk)
        if request is not None:
            request._parlour_your_turn = n
    return n


@register.simple_tag(takes_context=True)
def your_turn_badge(context):
    """``<span class="nav-count" data-count="your-turn">3</span>`` (hidden at 0;
    the words around the number are for screen readers), or "" signed out."""
    n = _your_turn(context)
    if n is None:
        return ""
    return format_html(
        '<span class="nav-count" data-count="{}" title="{}"{}>'
        # The number last, so the words read right for any count ("…: 1", "…: 3").
        '<span class="visually-hidden">{}</span>'
        '<span class="nav-count-n">{}</span></span>',
        your_matches.COUNT, _("Your turn in turn-based matches"), "" if n else mark_safe(" hidden"),
        # Translators: read by screen readers between "Your matches" and the number.
        _(": turn-based matches where it is your turn: "), n)
