"""The statistics of "The dice in numbers" (docs/features.md), in pure Python:
the standard library only, no Django, no scipy (the tests check every
function here against ``scipy.stats``, an independent implementation).

- ``chi2_sf(x, dof)``: P(X >= x) for X chi-square with an integer number of
  degrees of freedom, from the closed form (below);
- ``chi_square(observed, probabilities)``: Pearson's goodness-of-fit
  statistic, its degrees of freedom and p-value;
- ``z_score(total, n, mean, variance)``: how many standard deviations a sum
  of ``n`` independent draws lies from its expected value;
- ``normal_sf(z)``: P(Z >= z) for a standard normal Z.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["chi2_sf", "chi_square", "normal_sf", "z_score"]


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= ``x``) for X chi-square with ``dof`` (a positive integer)
    degrees of freedom: the p-value of a chi-square statistic ``x``.

    With y = x / 2, the survival function has a finite closed form
    (Abramowitz and Stegun 26.4.4 and 26.4.5):

    - ``dof`` even: e^-y * sum_{i=0}^{dof/2 - 1} y^i / i!
    - ``dof`` odd:  erfc(sqrt(y)) + e^-y * sum_{i=1}^{(dof-1)/2} y^(i - 1/2) / Gamma(i + 1/2)

    Each term is the one before times y / i (even) or y / (i + 1/2) (odd),
    so no factorial or power is formed on its own. 1.0 for ``x`` <= 0.
    Raises ``ValueError`` when ``dof`` is not a positive integer.
    """
    if type(dof) is not int or dof < 1:
        raise ValueError(f"degrees of freedom must be a positive integer, not {dof!r}")
    if x <= 0:
        return 1.0
    y = x / 2.0
    if dof % 2 == 0:
        term = total = math.exp(-y)
        for i in range(1, dof // 2):
            term *= y / i
            total += term
    else:
        total = math.erfc(math.sqrt(y))
        if dof > 1:
            term = math.exp(-y) * math.sqrt(y) / math.gamma(1.5)
            total += term
            for i in range(2, (dof + 1) // 2):
                term *= y / (i - 0.5)
                total += term
    return min(1.0, max(0.0, total))


def chi_square(observed: Sequence[int], probabilities: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's goodness-of-fit test of ``observed`` counts against the
    ``probabilities`` of each cell (summing to 1): (statistic, degrees of
    freedom, p-value), where statistic = sum (O - E)^2 / E with E = n * p,
    degrees of freedom = cells - 1 and the p-value is ``chi2_sf``.

    Raises ``ValueError`` for lengths that differ, fewer than two cells, a
    probability that is not positive, or no observations at all.
    """
    if len(observed) != len(probabilities) or len(observed) < 2:
        raise ValueError("observed and probabilities need the same length, at least 2")
    if any(p <= 0 for p in probabilities):
        raise ValueError("every probability must be positive")
    n = sum(observed)
    if n <= 0:
        raise ValueError("no observations")
    statistic = sum((o - n * p) ** 2 / (n * p) for o, p in zip(observed, probabilities, strict=True))
    dof = len(observed) - 1
    return statistic, dof, chi2_sf(statistic, dof)


def z_score(total: float, n: int, mean: float, variance: float) -> float | None:
    """(``total`` - ``n`` * ``mean``) / sqrt(``n`` * ``variance``): how far the
    sum of ``n`` independent draws, each of that mean and variance, lies from
    its expected value, in standard deviations. None when ``n`` is 0."""
    if n <= 0:
        return None
    return (total - n * mean) / math.sqrt(n * variance)


def normal_sf(z: float) -> float:
    """P(Z >= ``z``) for a standard normal Z: erfc(z / sqrt 2) / 2."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))
