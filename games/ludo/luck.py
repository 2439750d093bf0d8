"""Ludo's dice in numbers (docs/features.md "The dice in numbers"): every die
a seat's roll brings (``d1``..``d6`` after its ``roll``) counts for that seat;
the chance step that picks who starts counts for no one."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.luck import Column, LuckRules

_FAIR = (1 / 6,) * 6


def _step(state, move):
    if move.kind != "die":
        return None
    return state.turn, move.value - 1, _FAIR


def _columns(counts: list[int], expected: list[float]) -> list[Column]:
    n = sum(counts)
    mean = sum(c * face for face, c in enumerate(counts, 1)) / n if n else None
    return [
        Column("sixes", _("Sixes"), counts[5], n / 6),
        Column("mean", _("Mean roll"), mean, 3.5 if n else None),
    ]


LUCK = LuckRules(
    faces=("1", "2", "3", "4", "5", "6"),
    step=_step,
    columns=_columns,
    pips=(1, 2, 3, 4, 5, 6),
    bins=tuple((str(f), (f - 1,)) for f in range(1, 7)),
    unit=pgettext_lazy("ludo dice in numbers", "roll"),
    units=pgettext_lazy("ludo dice in numbers", "rolls"),
    # Translators: ends "The verdict is Pearson's chi-square test of …".
    test_words=gettext_lazy("how often each face 1 to 6 came up, against one time in six each"),
)
