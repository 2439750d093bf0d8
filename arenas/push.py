"""The only caller of the channel layer for arenas (STYLE habits 4 and 6).

Called after commit. Frames are htmx out-of-band elements for the arena page
(``templates/arenas/arena.html``): standings rows that changed (the page's
script puts each in its place by its sort token and renumbers), the arena's
header (phase, counts, podium) when it changed phase, and a player's "your
match is ready" redirect, to that player's group.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.template.loader import render_to_string

EVENT = "arena.frame"  # consumers handle it as ``arena_frame``
PARTS = "arenas/arena.html#"


def arena_group(arena_id: int) -> str:
    """The group of every socket watching arena ``arena_id``."""
    return f"arena.{int(arena_id)}"


def arena_user_group(arena_id: int, user_id: int) -> str:
    """The group of one player's sockets on arena ``arena_id``."""
    return f"arena.{int(arena_id)}.user.{int(user_id)}"


def rows_frame(rows) -> str:
    """The standings rows ``rows`` (``standings.Row``) as out-of-band swaps."""
    return "".join(render_to_string(PARTS + "row", {"row": r, "oob": True}) for r in rows)


def redirect_frame(public_id: str) -> str:
    return render_to_string(PARTS + "redirect", {"public_id": public_id, "oob": True})


def standings_rows(arena_id: int, player_ids=None, *, header: bool = False) -> None:
    """Push the rows of ``player_ids`` (None: the header and every row, e.g.
    after a phase change; ``header``: the header too) to the arena's watchers."""
    from arenas import standings
    from arenas.models import Arena

    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        return
    # Separate frames: table rows parse only in a fragment that starts with
    # one (the HTML parser drops a <tr> that follows a <section>).
    if player_ids is None:
        frames = [header_frame(arena), rows_frame(standings.rows(arena))]
    else:
        frames = [header_frame(arena)] if header else []
        frames.append(rows_frame(standings.some_rows(arena, player_ids)))
    messages = [(arena_group(arena_id), html) for html in frames if html]
    if messages:
        async_to_sync(_send_all)(messages)


def header_frame(arena) -> str:
    from django.utils import timezone

    from arenas import standings

    context = standings.header_context(arena, timezone.now())
    return render_to_string(PARTS + "header", {"oob": True, **context})


def arena_changed(arena_id: int) -> None:
    """The arena opened, closed or finished: its header and every row."""
    standings_rows(arena_id, None)


def paired(arena_id: int, user_ids: list[int], public_id: str) -> None:
    """Send each paired player's arena pages to match ``public_id``."""
    html = redirect_frame(public_id)
    async_to_sync(_send_all)([(arena_user_group(arena_id, u), html) for u in user_ids])


async def _send_all(messages: list[tuple[str, str]]) -> None:
    layer = get_channel_layer()
    for group, html in messages:
        await layer.group_send(group, {"type": EVENT, "html": html})
