"""The one Clopper-Pearson interval of the checking side (the kit's tolerances, the claims' Monte Carlo steps).

The interval is defined by beta quantiles (Clopper and Pearson, 1934): for ``k`` successes in ``n`` trials, the
lower limit is the ``delta / 2`` quantile of Beta(k, n - k + 1) (0 when k = 0) and the upper limit the
``1 - delta / 2`` quantile of Beta(k + 1, n - k) (1 when k = n); each covers the success probability with
probability >= 1 - delta. ``scipy.stats.binomtest(...).proportion_ci(method="exact")`` finds the same limits by
root-finding, equal up to its tolerance; the test suite keeps that second method on purpose as the independent
computation it compares this one with (``tests/_helpers.clopper_pearson``).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

__all__ = ["clopper_pearson"]


def clopper_pearson(successes, trials: int, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """Exact (Clopper-Pearson) binomial intervals, elementwise over ``successes``: each covers its success
    probability with probability >= 1 - delta. The beta quantiles are the interval's definition.

    >>> low, high = clopper_pearson([0, 5, 10], 10, 0.05)
    >>> np.round(low, 4).tolist(), np.round(high, 4).tolist()
    ([0.0, 0.1871, 0.6915], [0.3085, 0.8129, 1.0])
    >>> [float(x) for x in clopper_pearson(0, 1, 0.05)]
    [0.0, 0.975]
    """
    k = np.asarray(successes, dtype=float)
    low = np.where(k > 0, stats.beta.ppf(delta / 2, k, trials - k + 1), 0.0)
    high = np.where(k < trials, stats.beta.ppf(1 - delta / 2, k + 1, trials - k), 1.0)
    return low, high
