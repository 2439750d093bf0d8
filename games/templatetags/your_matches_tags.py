"""``{% your_matches %}``: the "Your matches" section of the home and play
pages (games/your_matches.py; README "Notifications"), for a signed-in
user; nothing for anyone else. static/js/notify.js keeps it live over the
user socket (the list's ``data-panel``)."""

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from games import your_matches

register = template.Library()


@register.simple_tag(takes_context=True)
def your_matches_section(context):
    """The section's HTML (templates/games/your_matches.html), or "" when signed out."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return ""
    return render_to_string("games/your_matches.html", {
        "rows": mark_safe(your_matches.panel_html(user)),  # noqa: S308 - format_html rows
        "panel": your_matches.PANEL,
    }, request=context.get("request"))
