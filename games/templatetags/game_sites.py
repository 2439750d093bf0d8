"""What the shared templates ask a game's ``GameSite`` (games/sites.py), so that
they never name a game or test one game's view keys.

``{{ game|to_move_phrase:view }}``: what the seat to move must do, in the status's
"<name> to <phrase>." (``GameSite.to_move_phrase``; ``game`` a GameSite, ``view``
an engine view).

``{% game_stylesheets kind %}``: a ``<link rel="stylesheet">`` for each of game
``kind``'s own stylesheets (``GameSite.stylesheets``), for the head of every page
that draws its board; raises ``UnknownGameError`` for an unregistered game.

``{% games_in_words %}``: the registered games' names, each in ``<strong>``, as
one phrase ("<strong>Ludo</strong>, <strong>Roundabout</strong> and
<strong>Rondo</strong>"), in the site's order (the home page's lead).

``{% game_credits as credits %}``: (title, text) of each registered game that
credits its designers (``GameSite.credit``), in the site's order (the about page).
"""

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from games import sites

register = template.Library()


@register.filter
def to_move_phrase(game: sites.GameSite, view: dict) -> str:
    return game.to_move_phrase(view)


@register.simple_tag
def game_stylesheets(kind: str) -> str:
    return format_html_join("", '<link rel="stylesheet" href="{}">',
                            ((static(sheet),) for sheet in sites.get_site(kind).stylesheets))


@register.simple_tag
def games_in_words() -> str:
    names = [format_html("<strong>{}</strong>", site.name) for site in map(sites.get_site, sites.kinds())]
    return mark_safe(get_text_list(names, _("and")))


@register.simple_tag
def game_credits() -> list[tuple[str, str]]:
    return [(site.credit_name or site.name, site.credit)
            for site in map(sites.get_site, sites.kinds()) if site.credit]
