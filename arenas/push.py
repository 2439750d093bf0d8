"""The only caller of the channel layer for arenas (STYLE habits 4 and 6).

Called after commit. Frames are htmx out-of-band elements for the arena page
(``templates/arenas/arena.html``): standings rows that changed (each with
its true rank and place; the page's script puts each in its place by its
sort token and keeps the first page's rows), the line under the table (how
many more players), the arena's header (phase, counts, podium) when it
changed phase or its count changed, and a player's "your match is ready"
redirect, to that player's group.

Each group message is ``{"type": EVENT, "html": ...}`` plus what the
consumer (consumers.py) needs to decide what its own socket gets:
``table`` (True: the first page's table; sockets on a later page skip it),
``places`` (``[player id, user id, place]`` of each pushed row), ``users``
(the users whose own entry changed: their sockets add their own block) and
``phase`` (True: the arena changed phase; every socket adds its own block).

Languages (docs/i18n.md, "Lobby and arenas"): anyone may watch an arena,
signed in or not, so the pusher cannot know which languages its sockets
read. The group frames are rendered once in each of the site's languages
(the data looked up once) and sent to the arena's group of that language,
which each socket joins (``matchmaking.languages.of_scope``); a player's
own frames are rendered in their account's language.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from core.push import send_all
from matchmaking.languages import by_language

EVENT = "arena.frame"  # consumers handle it as ``arena_frame``
PARTS = "arenas/arena.html#"


def arena_group(arena_id: int, language: str = settings.LANGUAGE_CODE) -> str:
    """The group of every socket watching arena ``arena_id`` in ``language``."""
    suffix = "" if language == settings.LANGUAGE_CODE else f".lang.{language}"
    return f"arena.{int(arena_id)}{suffix}"


def site_languages() -> list[str]:
    """Every language an arena's group frames are rendered in (settings.LANGUAGES)."""
    return [code for code, _name in settings.LANGUAGES]


def arena_user_group(arena_id: int, user_id: int) -> str:
    """The group of one player's sockets on arena ``arena_id``."""
    return f"arena.{int(arena_id)}.user.{int(user_id)}"


def rows_frame(rows) -> str:
    """The standings rows ``rows`` (``standings.Row``) as out-of-band swaps."""
    return "".join(render_to_string(PARTS + "row", {"row": r, "oob": True}) for r in rows)


def redirect_frame(public_id: str) -> str:
    return render_to_string(PARTS + "redirect", {"public_id": public_id, "oob": True})


def header_frame(arena, context: dict | None = None) -> str:
    """The arena's header; ``context``: ``standings.header_context`` (looked up when None)."""
    from django.utils import timezone

    from arenas import standings

    if context is None:
        context = standings.header_context(arena, timezone.now())
    return render_to_string(PARTS + "header", {"oob": True, **context})


def foot_frame(arena, context: dict) -> str:
    """The line under the table of ``arena`` ("and N more players", the page
    links) for ``standings.foot_context``."""
    return render_to_string(PARTS + "foot", {"oob": True, "arena": arena, **context})


def me_frame(context: dict) -> str:
    """The viewer's own block for ``standings.me_context``. Its forms carry no
    CSRF token (no request): the page's script adds the page's own."""
    return render_to_string(PARTS + "me", {"oob": True, **context})


def rows_events(arena, player_ids, *, header: bool = False) -> list[dict]:
    """The group messages for the changed rows of ``player_ids`` (and, with
    ``header``, the header and the line under the table), unsent, in the
    active language."""
    return _render_rows_events(arena, _rows_data(arena, player_ids, header))


def _rows_data(arena, player_ids, header: bool) -> dict:
    """What ``rows_events`` renders, looked up once for every language."""
    from django.utils import timezone

    from arenas import standings

    data = {"rows": standings.some_rows(arena, player_ids)}
    if header:
        data["header"] = standings.header_context(arena, timezone.now())
        data["foot"] = standings.foot_context(standings.count(arena))
    return data


def _render_rows_events(arena, data: dict) -> list[dict]:
    # Separate messages: table rows parse only in a fragment that starts with
    # one (the HTML parser drops a <tr> that follows a <section>).
    events = []
    if "header" in data:
        events.append({"html": header_frame(arena, data["header"])})
        events.append({"html": foot_frame(arena, data["foot"]), "table": True})
    rows = data["rows"]
    if rows:
        events.append({"html": rows_frame(rows), "table": True,
                       "places": [[r.player.pk, r.player.user_id, r.pos] for r in rows],
                       "users": [r.player.user_id for r in rows]})
    return events


def standings_rows(arena_id: int, player_ids=None, *, header: bool = False) -> None:
    """Push the rows of ``player_ids`` (None: the arena changed phase, see
    ``arena_changed``; ``header``: the header and the count under the table
    too) to the arena's watchers. Their own blocks follow from their sockets."""
    from django.utils import timezone

    from arenas import standings
    from arenas.models import Arena

    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        return
    messages = []
    if player_ids is None:
        context = standings.header_context(arena, timezone.now())
        for language in site_languages():
            with translation.override(language):
                messages.append((arena_group(arena_id, language),
                                 {"html": header_frame(arena, context), "phase": True}))
    else:
        data = _rows_data(arena, player_ids, header)
        for language in site_languages():
            with translation.override(language):
                messages += [(arena_group(arena_id, language), e) for e in _render_rows_events(arena, data)]
    if messages:
        async_to_sync(_send_all)(messages)


def arena_changed(arena_id: int) -> None:
    """The arena opened, closed or finished: its header, and every socket's
    own block (its buttons change with the phase). Rows are unchanged by a
    phase change; those that changed with it (a last match scored) are pushed
    by the change itself."""
    standings_rows(arena_id, None)


def paired(arena_id: int, user_ids: list[int], public_id: str) -> None:
    """Send each paired player's arena pages to match ``public_id`` (in each one's language)."""
    messages = []
    for language, users in by_language(user_ids).items():
        with translation.override(language):
            html = redirect_frame(public_id)
        messages += [(arena_user_group(arena_id, u), {"html": html}) for u in users]
    async_to_sync(_send_all)(messages)


async def _send_all(messages: list[tuple[str, dict]]) -> None:
    """Each (group, event fields) as an arena frame, through ``core.push.send_all``."""
    await send_all([(group, {"type": EVENT, **event}) for group, event in messages])
