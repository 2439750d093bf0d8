"""The only caller of the channel layer for rematch panels (STYLE habits 4
and 6). Called after commit: each human seat of the match gets its own
``#rematch`` panel (fragments.py: it names the viewer) in its seat
group, as a match frame without a version (static/js/match.js swaps it as
it comes, like a chat line). Each panel in its player's language
(``accounts.languages``: their account's)."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.utils import translation

from accounts import languages
from core.push import send_all
from games import push as match_push
from games.models import Match
from matchmaking.rematch import fragments


def offer_changed(match_id: int) -> None:
    """Push the panel of match row ``match_id`` to each of its human seats."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return
    seats = match.seats.filter(user__isnull=False).values_list("index", "user_id", "user__language")
    messages = []
    for index, user_id, language in seats:
        with translation.override(languages.valid(language) or "en"):
            messages.append((match_push.seat_group(match.public_id, index),
                             fragments.panel(match, user_id, live=True)))
    async_to_sync(_send_all)(messages)


async def _send_all(messages: list[tuple[str, str]]) -> None:
    """Each (group, html) as a match frame without a version, through ``core.push.send_all``."""
    await send_all([(group, {"type": match_push.EVENT, "version": None, "html": html})
                    for group, html in messages])
