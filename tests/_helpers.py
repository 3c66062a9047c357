"""Helpers shared by test modules of several folders (import them; never copy them into a test file)."""

from __future__ import annotations

from hypothesis import settings
from scipy import stats

#: A quarter of the profile's examples (at least 5), for strategies that fit scikit-learn models.
SLOW = settings(max_examples=max(5, settings.default.max_examples // 4))


def clopper_pearson(successes: int, trials: int, delta: float) -> tuple[float, float]:
    """Exact binomial interval with coverage >= 1 - delta."""
    ci = stats.binomtest(successes, trials).proportion_ci(confidence_level=1 - delta, method="exact")
    return ci.low, ci.high
