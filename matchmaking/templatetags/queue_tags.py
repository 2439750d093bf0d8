"""``{% queue_panel %}``: the ranked queue panel of the play page, and
``{% ranked_choices kind %}``: a game card's ranked buttons, live and
turn-based (the player's turn-based wait in that game, or its join form).

Tags, so the play page (a ``games`` view) needs no import of matchmaking.
"""

from django import template
from django.contrib import messages

from games import sites, time_controls
from matchmaking.queue import actions, turn_based

register = template.Library()


@register.inclusion_tag("matchmaking/queue_panel.html", takes_context=True)
def queue_panel(context, notices=False):
    """The panel for the request's user: their waiting numbers, the match they
    were paired into, or (a suspended or inactive account) why they cannot
    queue; nothing for someone who is not waiting. ``notices``: the panel
    shows the request's messages too (and so takes them), for the panel
    alone that htmx swaps in (matchmaking/queue/views.py)."""
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
            "may_queue": actions.can_queue(user), "csrf_token": context.get("csrf_token"),
            "htmx": bool(getattr(request, "htmx", False)),
            "notices": list(messages.get_messages(request)) if notices and request is not None else []}


def _counts(context) -> dict[str, int]:
    # One count query per page however many cards ask (the page's render context).
    cache = context.render_context
    if "ranked_waiting_counts" not in cache:
        cache["ranked_waiting_counts"] = actions.waiting_counts()
    return cache["ranked_waiting_counts"]


def _turn_based(context, user) -> tuple[dict, dict]:
    # The page's turn-based counts and the player's own entries: two queries per page.
    cache = context.render_context
    if "turn_based" not in cache:
        cache["turn_based"] = (turn_based.waiting_counts(), turn_based.waiting_for(user))
    return cache["turn_based"]


@register.inclusion_tag("matchmaking/queue_panel.html#choices", takes_context=True)
def ranked_choices(context, kind):
    """A game card's ranked part: one button per queue of ``kind`` with how
    many wait in it now, the player's own queue marked; a log-in link for a
    visitor; the refusal for an account that may not queue. The counts are
    the page's two queries (``actions.waiting_counts``)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    counts = _counts(context)
    buttons = [{"queue": q, "waiting": counts.get(q.key, 0)} for q in actions.queues() if q.kind == kind]
    signed_in = user is not None and user.is_authenticated
    tb_counts, tb_mine = _turn_based(context, user) if signed_in else ({}, {})
    return {"user": user, "buttons": buttons, "game": sites.name(kind), "may_queue": actions.can_queue(user),
            "csrf_token": context.get("csrf_token"), "kind": kind,
            "turn_based": {
                "waiting": tb_mine.get(kind),
                "counts": [{"players": p, "days": d, "n": n} for p, d, n in tb_counts.get(kind, [])],
                "days": time_controls.TURN_BASED_DAYS, "default_days": turn_based.DEFAULT_DAYS,
            }}
