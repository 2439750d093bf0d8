"""``{% howto_pictures "ludo" %}``: the pictures of a game's one-screen "How to
play" (games/howto.py), drawn by the game's own board code."""

from django import template

from games import howto

register = template.Library()


@register.simple_tag
def howto_pictures(kind: str):
    return howto.pictures(kind)
