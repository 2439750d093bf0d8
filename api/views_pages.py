"""The API's page for people, ``/api/`` (what it is, tokens, each endpoint
with curl, errors, limits, a complete Python bot), and the bot's file,
``/api/parlour_bot.py``, the very file the page shows (docs/api.md)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.html import format_html_join
from django.views.decorators.http import require_safe

from api import limits, streams
from games import chat
from games.models import ComputerLevel

BOT_FILE = Path(__file__).parent / "templates" / "api" / "parlour_bot.py"


@cache
def bot_source() -> str:
    """The example bot's source (40 lines, the standard library only)."""
    return BOT_FILE.read_text()


@require_safe
def index(request):
    return render(request, "api/index.html", {
        "bot": bot_source(), "site": request.build_absolute_uri("/").rstrip("/"),
        "presets": list(chat.PRESETS), "preset_list": _code_list(chat.PRESETS),
        "level_list": _code_list(ComputerLevel.values),
        "move_rate": limits.MOVE_RATE, "call_rate": limits.CALL_RATE,
        "streams_per_token": limits.STREAMS_PER_TOKEN, "keepalive": streams.KEEPALIVE_SECONDS,
    })


def _code_list(values) -> str:
    """``<code>a</code>, <code>b</code>``: names the page's sentences list (the
    sentences are translated, the names are the API's own)."""
    return format_html_join(", ", "<code>{}</code>", ((v,) for v in values))


@require_safe
def bot(request):
    response = HttpResponse(bot_source(), content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="parlour_bot.py"'
    return response
