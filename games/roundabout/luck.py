"""Roundabout's dice in numbers (docs/features.md "The dice in numbers"):
the two dice of a seat's roll count for the roller, whoever plays them (the
Golden Rule hands on the roll, not the luck); the roll-off's single dice,
which only pick who starts, count for no one. Faces are the 36 ordered pairs,
first die major, as the fair draw numbers them (docs/rules.md "Provably fair
randomness"); the profile's test is over the 21 unordered pairs.

Its words are lazy translations (read when the page is rendered, in its
language); nothing else here needs Django."""

from __future__ import annotations

from django.utils.translation import gettext_lazy, pgettext_lazy

from games.luck import Column, LuckRules

_PAIRS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
_FAIR = (1 / 36,) * 36
_DOUBLES = tuple(i for i, (a, b) in enumerate(_PAIRS) if a == b)


def _step(state, move):
    if move.kind != "dice":
        return None
    return state.turn, (move.die - 1) * 6 + move.second - 1, _FAIR


def _columns(counts: list[int], expected: list[float]) -> list[Column]:
    n = sum(counts)
    doubles = sum(counts[i] for i in _DOUBLES)
    # No line break inside "2-2 ×3": a non-breaking hyphen and space.
    which = ", ".join(f"{_PAIRS[i][0]}\u2011{_PAIRS[i][1]}\u00a0×{counts[i]}" for i in _DOUBLES if counts[i])
    mean = sum(c * (a + b) for c, (a, b) in zip(counts, _PAIRS, strict=True)) / n if n else None
    return [
        Column("doubles", pgettext_lazy("dice", "Doubles"), doubles, n / 6, detail=which),
        Column("mean", gettext_lazy("Mean roll"), mean, 7.0 if n else None),
    ]


def _unordered() -> tuple[tuple[str, tuple[int, ...]], ...]:
    out = []
    for a in range(1, 7):
        for b in range(a, 7):
            faces = {(a - 1) * 6 + b - 1, (b - 1) * 6 + a - 1}
            out.append((f"{a}-{b}", tuple(sorted(faces))))
    return tuple(out)


LUCK = LuckRules(
    faces=tuple(f"{a}-{b}" for a, b in _PAIRS),
    step=_step,
    columns=_columns,
    pips=tuple(a + b for a, b in _PAIRS),
    bins=_unordered(),
    # Translators: completes "The verdict is Pearson's chi-square test of …" on the luck page.
    test_words=gettext_lazy("how often each of the 21 pairs (1-1, 1-2, … 6-6, either order) came up, "
                            "against 1 in 36 for a double and 2 in 36 for any other pair"),
)
