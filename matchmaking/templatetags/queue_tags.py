"""``{% queue_panel %}``: the ranked queue panel of the play page.

A tag, so the play page (a ``games`` view) needs no import of matchmaking.
"""

from django import template

from matchmaking import actions

register = template.Library()


@register.inclusion_tag("matchmaking/queue_panel.html", takes_context=True)
def queue_panel(context):
    """The panel for the request's user: the join form, their waiting
    numbers, or the match they were paired into."""
    request = context.get("request")
    user = getattr(request, "user", None)
    entry = status = None
    if user is not None and user.is_authenticated:
        entry = actions.mark_seen(user)
        if entry is not None and entry.match_id is None:
            status = actions.queue_status(entry)
        elif entry is not None and entry.match.is_over:
            entry = None
    return {"request": request, "user": user, "entry": entry, "status": status,
            "queues": actions.queues(), "csrf_token": context.get("csrf_token")}
