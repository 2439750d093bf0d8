"""Board themes: cosmetic backdrops behind the board (docs/rules.md "Board themes",
"Map backdrop"). A theme never changes the rules.

``plain`` is the classic board. A game declares its own themes (its
``GameSite.themes``): a map theme draws a real region behind the game's square
board, in the board's own units (``Theme.size``), from Natural Earth country
boundaries (public domain), vendored as
``static/vendor/world-atlas/countries-50m.json`` (the world-atlas 2.0.2 npm
package, ISC): nothing is fetched at run time. A board's path is schematic,
not road distances (the Ludo rule text). A theme's name is its backdrop's
address, so it names one theme site-wide: the first game declaring it wins.

A backdrop is one SVG document per theme, rendered once per process and
served at ``/boards/<theme>.svg``; the board refers to it with an ``<image>``,
so a pushed board frame grows by one element, not by the map.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import sites

PLAIN = "plain"
MAP_DATA = settings.BASE_DIR / "static" / "vendor" / "world-atlas" / "countries-50m.json"
#: The credit the data asks for, shown on the board under every map backdrop.
MAP_CREDIT = "Map: Made with Natural Earth (public domain), via world-atlas"
#: The same credit on the board, in the viewer's language (the backdrop file keeps MAP_CREDIT).
MAP_CREDIT_SHOWN = gettext_lazy("Map: Made with Natural Earth (public domain), via world-atlas")


@dataclass(frozen=True)
class Theme:
    """A board theme. A game offers the plain board and the themes its
    folder's ``site.py`` declares (``GameSite.themes``). ``centre``:
    (longitude, latitude) in degrees; ``span``: degrees of latitude from the
    top edge to the bottom edge of the square board; ``size``: the side of that
    board's viewBox, in its own units (a map theme's backdrop is drawn in them,
    Ludo's 15 grid cells)."""

    name: str
    label: str
    centre: tuple[float, float] | None = None
    span: float = 0.0
    size: int = 0

    @property
    def is_map(self) -> bool:
        return self.centre is not None

    @property
    def credit(self) -> str:
        return MAP_CREDIT_SHOWN if self.is_map else ""


PLAIN_THEME = Theme(PLAIN, gettext_lazy("Plain board"))


def offered(kind: str) -> tuple[Theme, ...]:
    """The themes game ``kind`` offers: the plain board, then its own.
    Raises ``UnknownGameError`` for an unregistered game."""
    return (PLAIN_THEME, *sites.get_site(kind).themes)


def all_themes() -> dict[str, Theme]:
    """Every theme some registered game offers, by name (the plain board first)."""
    found = {PLAIN: PLAIN_THEME}
    for kind in sites.kinds():
        for theme in sites.get_site(kind).themes:
            found.setdefault(theme.name, theme)
    return found


def choices(kind: str | None = None) -> list[tuple[str, str]]:
    """(name, label) of the themes offered for ``kind`` (all themes if None)."""
    found = all_themes().values() if kind is None else offered(kind)
    return [(t.name, t.label) for t in found]


def get(name: str) -> Theme:
    """The theme called ``name``; unknown names give the plain board."""
    return all_themes().get(name) or PLAIN_THEME


def check(name: str, kind: str) -> str:
    """``name`` if it is a theme offered for ``kind``; raises ValueError otherwise."""
    if kind not in sites.kinds() or name not in {t.name for t in offered(kind)}:
        raise ValueError(f"{name!r} is not a board theme for {kind}.")
    return name


def help_text() -> str:
    """The forms' note under the theme choice: which games have map backdrops."""
    mapped = [site.name for site in map(sites.get_site, sites.kinds()) if any(t.is_map for t in site.themes)]
    if not mapped:
        return _("The board's rules never change.")
    games = get_text_list(mapped, _("and"))
    return _("Map backdrops are for %(games)s; the board's rules never change.") % {"games": games}


# -- drawing a map backdrop -----------------------------------------------------

_MIN_STEP = 1 / 375  # of the board's side: closer points are dropped (about 1.5 px on a 36rem board)


@cache
def _topology() -> dict:
    with open(MAP_DATA, encoding="utf-8") as f:
        return json.load(f)


@cache
def _arcs() -> tuple[tuple[tuple[float, float], ...], ...]:
    """Every arc of the topology as (longitude, latitude) points (TopoJSON
    arcs are quantised and delta-encoded)."""
    topo = _topology()
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x += dx
            y += dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(tuple(points))
    return tuple(arcs)


def _ring(indexes, arcs) -> list[tuple[float, float]]:
    points: list[tuple[float, float]] = []
    for i in indexes:
        arc = arcs[i] if i >= 0 else arcs[~i][::-1]
        points.extend(arc[1:] if points else arc)
    return points


def _path(rings, project, size: int) -> str:
    parts = []
    step, margin = _MIN_STEP * size, size / 15
    for ring in rings:
        kept = []
        for lon, lat in ring:
            x, y = project(lon, lat)
            if kept and abs(x - kept[-1][0]) < step and abs(y - kept[-1][1]) < step:
                continue
            kept.append((x, y))
        if len(kept) < 3:
            continue
        xs, ys = [p[0] for p in kept], [p[1] for p in kept]
        if max(xs) < -margin or min(xs) > size + margin or max(ys) < -margin or min(ys) > size + margin:
            continue  # wholly off the board
        parts.append("M" + "L".join(f"{x:.2f} {y:.2f}" for x, y in kept) + "Z")
    return "".join(parts)


def _stroke(size: int) -> str:
    """The coast lines' width: .03 of Ludo's 15 units, in the board's own units."""
    return f"{size * .002:g}".removeprefix("0")


@cache
def backdrop_svg(name: str) -> str:
    """The backdrop of map theme ``name`` as a standalone SVG document
    (viewBox 0 0 size size, the theme's board's own units): sea, then each
    country whose outline reaches the board, in an equirectangular
    projection centred on the theme's centre. Raises KeyError for an unknown
    or plain theme (or a map theme without a board size). Rendered once per process."""
    theme = all_themes()[name]
    if not theme.is_map or theme.size <= 0:
        raise KeyError(name)
    lon0, lat0 = theme.centre
    size = theme.size
    scale = size / theme.span  # board units per degree of latitude
    stretch = math.cos(math.radians(lat0))

    def project(lon, lat):
        return size / 2 + (lon - lon0) * stretch * scale, size / 2 - (lat - lat0) * scale

    arcs = _arcs()
    paths = []
    for geometry in _topology()["objects"]["countries"]["geometries"]:
        polygons = geometry.get("arcs") or []
        if geometry.get("type") == "Polygon":
            polygons = [polygons]
        rings = [_ring(ring, arcs) for polygon in polygons for ring in polygon]
        d = _path(rings, project, size)
        if d:
            paths.append(d)
    body = "".join(f'<path d="{d}"/>' for d in paths)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="600" height="600">'
        f"<title>{theme.label} ({MAP_CREDIT})</title>"
        f'<rect width="{size}" height="{size}" fill="#cfe3ee"/>'
        f'<g fill="#e7e0c9" stroke="#9c8f6a" stroke-width="{_stroke(size)}" stroke-linejoin="round" '
        f'fill-rule="evenodd">{body}</g></svg>'
    )
