"""Preset chat for rooms and matches (the Ludo rule text "Game settings and
rooms": only preset messages and emoji, no free text).

The server accepts a message only as an id from :data:`PRESETS` and shows
the text it maps to; anything else is refused. Each person may send
:data:`CHAT_RATE` messages (per process, in memory, like the WebSocket flood
limit in games.consumers). Chat is live only: nothing is stored.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from limits import parse as parse_rate
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter

from core.errors import Refused

#: id -> text, in the order the chat panel offers them: phrases, then emoji.
PRESETS: dict[str, str] = {
    "good_luck": "Good luck",
    "nice_move": "Nice move",
    "well_played": "Well played",
    "oops": "Oops",
    "thanks": "Thanks",
    "good_game": "Good game",
    "smile": "😀",
    "laugh": "😂",
    "wow": "😮",
    "sad": "😢",
    "thumbs_up": "👍",
    "clap": "👏",
    "party": "🎉",
    "fire": "🔥",
    "heart": "❤️",
    "thinking": "🤔",
    "dice": "🎲",
    "wave": "👋",
}
PHRASES = [(k, v) for k, v in PRESETS.items() if k.isascii() and v.isascii()]
#: (id, emoji, spoken label) of the emoji presets.
EMOJI = [(k, v, k.replace("_", " ")) for k, v in PRESETS.items() if not v.isascii()]

#: At most this many chat messages per person (any room or match), moving window.
CHAT_RATE = "5/10second"

_limiter = MovingWindowRateLimiter(MemoryStorage())


class ChatRefused(Refused, ValueError):
    """A chat message that is not a preset id, or one too many; ``message`` is for the sender."""


def preset_text(message_id) -> str:
    """The text of preset ``message_id``; raises ChatRefused for anything
    that is not exactly one of the ids in PRESETS (free text included)."""
    if not isinstance(message_id, str) or message_id not in PRESETS:
        raise ChatRefused("Only the preset messages can be sent.")
    return PRESETS[message_id]


async def check_chat(user, message_id) -> str:
    """Validate one chat message from ``user`` (signed in) and count it
    against CHAT_RATE; returns its text. Raises ChatRefused (nothing counted
    for a message that is not a preset)."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise ChatRefused("Log in to chat.")
    text = preset_text(message_id)
    if not await _limiter.hit(parse_rate(CHAT_RATE), "chat", str(user.pk)):
        raise ChatRefused("You are sending messages too fast; wait a few seconds.")
    return text


def chat_line(name: str, message_id: str) -> str:
    """One chat line as an htmx out-of-band append to ``#chat-log`` (HTML)."""
    return render_to_string(
        "games/chat.html#chat_frame", {"name": name, "text": preset_text(message_id)}
    )


async def reset_limits() -> None:
    """Forget every count (tests only)."""
    await _limiter.storage.reset()
