"""``{% bot_badge user %}``: the BOT mark beside a bot account's name
(docs/api.md "Bot accounts"), empty for anyone else. ``BADGE`` is the same
markup for Python that writes names itself (the match page's seats list).
Reads ``user.is_bot`` only: the caller's user row is already loaded, so the
mark costs no query."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

register = template.Library()

#: The mark: its text is read out as is; the title says what it means (in
#: English; ``badge()`` is the same in the active language).
BADGE = '<span class="bot-badge" title="Bot account">BOT</span>'


def badge() -> str:
    """``BADGE`` with its title in the active language ("BOT" stays: a mark)."""
    return format_html('<span class="bot-badge" title="{}">BOT</span>', _("Bot account"))


def is_bot(user) -> bool:
    """True for a bot account's row, or ``True`` itself (a list that knows
    only names and which are bots); None, a visitor or a computer seat: False."""
    return user is True or bool(getattr(user, "is_bot", False))


@register.simple_tag
def bot_badge(user) -> str:
    """``BADGE`` for a bot account (or ``True``), "" otherwise."""
    return badge() if is_bot(user) else ""


@register.filter
def among(value, names) -> bool:
    """``value in names``, for ``{% bot_badge name|among:results.bots %}``."""
    return value in names
