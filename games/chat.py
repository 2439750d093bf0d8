"""Preset chat for rooms and matches (the Ludo rule text "Game settings and
rooms": only preset messages and emoji, no free text).

The server accepts a message only as an id from :data:`PRESETS` and shows
the text it maps to; anything else is refused. Each person may send
:data:`CHAT_RATE` messages (per process, in memory, like the WebSocket flood
limit in games.consumers). Chat is live only: nothing is stored.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import gettext, gettext_lazy, gettext_noop
from limits import parse as parse_rate
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter

from core.errors import Refused

#: id -> text, in the order the chat panel offers them: phrases, then emoji.
#: In English, as the API gives them (docs/api.md); people read them in their
#: language (``preset_text``, ``PHRASES``).
PRESETS: dict[str, str] = {
    "good_luck": gettext_noop("Good luck"),
    "nice_move": gettext_noop("Nice move"),
    "well_played": gettext_noop("Well played"),
    "oops": gettext_noop("Oops"),
    "thanks": gettext_noop("Thanks"),
    "good_game": gettext_noop("Good game"),
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
#: What screen readers say for each emoji preset.
_EMOJI_LABELS = {
    "smile": gettext_noop("smile"), "laugh": gettext_noop("laugh"), "wow": gettext_noop("wow"),
    "sad": gettext_noop("sad"), "thumbs_up": gettext_noop("thumbs up"), "clap": gettext_noop("clap"),
    "party": gettext_noop("party"), "fire": gettext_noop("fire"), "heart": gettext_noop("heart"),
    "thinking": gettext_noop("thinking"), "dice": gettext_noop("dice"), "wave": gettext_noop("wave"),
}
#: (id, text in the active language) of the phrase presets.
PHRASES = [(k, gettext_lazy(v)) for k, v in PRESETS.items() if k not in _EMOJI_LABELS]
#: (id, emoji, spoken label in the active language) of the emoji presets.
EMOJI = [(k, v, gettext_lazy(_EMOJI_LABELS[k])) for k, v in PRESETS.items() if k in _EMOJI_LABELS]

#: At most this many chat messages per person (any room or match), moving window.
CHAT_RATE = "5/10second"

_limiter = MovingWindowRateLimiter(MemoryStorage())


class ChatRefused(Refused, ValueError):
    """A chat message that is not a preset id, or one too many; ``message`` is for the sender."""


def preset_text(message_id) -> str:
    """The text of preset ``message_id`` in the active language; raises
    ChatRefused for anything that is not exactly one of the ids in PRESETS
    (free text included)."""
    if not isinstance(message_id, str) or message_id not in PRESETS:
        raise ChatRefused(gettext("Only the preset messages can be sent."))
    text = PRESETS[message_id]
    return text if message_id in _EMOJI_LABELS else gettext(text)


async def check_chat(user, message_id) -> str:
    """Validate one chat message from ``user`` (signed in) and count it
    against CHAT_RATE; returns its text. Raises ChatRefused (nothing counted
    for a message that is not a preset)."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise ChatRefused(gettext("Log in to chat."))
    text = preset_text(message_id)
    if not await _limiter.hit(parse_rate(CHAT_RATE), "chat", str(user.pk)):
        raise ChatRefused(gettext("You are sending messages too fast; wait a few seconds."))
    return text


def chat_line(name: str, message_id: str) -> str:
    """One chat line as an htmx out-of-band append to ``#chat-log`` (HTML)."""
    return render_to_string(
        "games/chat.html#chat_frame", {"name": name, "text": preset_text(message_id)}
    )


async def reset_limits() -> None:
    """Forget every count (tests only)."""
    await _limiter.storage.reset()
