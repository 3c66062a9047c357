"""The statistics of the evaluation tables: mean with standard error, and paired Wilcoxon signed-rank tests of
one explainer against each other one over the same documents, Holm-corrected.

**The test.** ``scipy.stats.wilcoxon`` on the non-zero differences d = x - y, ``alternative="two-sided"``,
``zero_method="wilcox"``, ``method="auto"`` (:func:`signed_rank`):

* two-sided, with the direction read from the signed ranks (W+ against W-), because a table needs decisions both
  ways (an explainer significantly better on one metric and significantly worse on another); a two-sided test at
  level alpha with its direction read off is a one-sided test at level alpha/2 for each direction;
* the documents whose two values are equal are dropped (Wilcoxon's own convention, ``"wilcox"``): two explainers
  often return the same explanation (LIME and SHAP take FRED's size k), which says nothing about which one is
  better, and the classical test conditions on the documents where they differ (``n_nonzero``). They are dropped
  here, before scipy, because scipy chooses its method on the length of what it is given: with the zeros in, 100
  documents of which 3 differ would get the normal approximation, whose p-value can fall below the smallest one 3
  sign flips allow;
* ``"auto"`` on the non-zero differences: the exact null distribution of W+ for at most 50 untied differences, all
  2^n sign flips of the midranks for at most 13 differences with ties, and otherwise the normal approximation with
  scipy's tie correction and no continuity correction.

When every difference is zero there is no evidence either way: p = 1.

**Multiplicity.** The tests of one table (every metric, the reference explainer against every other one) form one
family; :func:`holm` adjusts their p-values (Holm's step-down), so the probability that any difference marked
significant in the table is a false alarm is at most the level (:data:`LEVEL`, 0.05).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from fred_constants import LEVEL


def signed_rank(d: ArrayLike) -> dict:
    """Wilcoxon signed-rank test of the differences ``d`` (module docstring: two-sided, zeros dropped, exact or
    normal p-value): the p-value, W+ and W- (sums of the ranks of |d| over the positive and the negative non-zero
    differences, midranks for ties) and the number of non-zero differences.

    >>> r = signed_rank([1.0, 2.0, 3.0, -0.5, 0.0])
    >>> r["w_plus"], r["w_minus"], r["n_nonzero"], r["p_value"]
    (9.0, 1.0, 4, 0.25)
    """
    d = np.asarray(d, dtype=float)
    nonzero = d[d != 0]
    ranks = stats.rankdata(np.abs(nonzero))
    w_plus, w_minus = float(ranks[nonzero > 0].sum()), float(ranks[nonzero < 0].sum())
    if nonzero.size == 0:
        p = 1.0
    else:
        p = float(stats.wilcoxon(nonzero, zero_method="wilcox", alternative="two-sided", method="auto").pvalue)
    return {"p_value": p, "w_plus": w_plus, "w_minus": w_minus, "n_nonzero": int(nonzero.size)}


def holm(p_values: Iterable[float]) -> list[float]:
    """Holm's step-down adjustment: with the m p-values sorted p_(1) <= ... <= p_(m), the adjusted p_(i) is
    max_{j <= i} min(1, (m - j + 1) p_(j)); rejecting the hypotheses whose adjusted p-value is at most alpha keeps
    the family-wise error rate at most alpha (Holm 1979). Returned in the input order.

    >>> holm([0.01, 0.04, 0.03, 0.005])
    [0.03, 0.06, 0.06, 0.02]
    """
    p = [float(v) for v in p_values]
    if any(not 0 <= v <= 1 for v in p):
        raise ValueError(f"p_values must be in [0, 1], got {p}")
    m, adjusted, running = len(p), [0.0] * len(p), 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: p[i])):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def mean_and_standard_error(values: ArrayLike) -> tuple[float, float, int]:
    """Mean, standard error s / sqrt(n) (s the sample standard deviation, ddof = 1) and n of the finite values;
    NaN where undefined (no value; one value for the standard error).

    >>> mean_and_standard_error([1.0, 2.0, 3.0, float("nan")])
    (2.0, 0.5773502691896258, 3)
    """
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if x.size == 0:
        return math.nan, math.nan, 0
    se = float(np.std(x, ddof=1) / math.sqrt(x.size)) if x.size > 1 else math.nan
    return float(np.mean(x)), se, int(x.size)


@dataclass(frozen=True)
class Comparison:
    """The reference explainer against ``other`` on ``column``, paired by document; ``better`` is the explainer
    the signed ranks favour (None on a tie), ``p_holm`` the p-value adjusted over the table's family."""

    reference: str
    other: str
    column: str
    n_documents: int
    n_nonzero: int
    w_plus: float
    w_minus: float
    p_raw: float
    p_holm: float
    better: str | None
    level: float = LEVEL

    @property
    def significant(self) -> bool:
        """Whether the Holm-adjusted p-value is at most the family-wise level."""
        return self.p_holm <= self.level

    @property
    def winner(self) -> str | None:
        """``better`` when the adjusted difference is significant, else None."""
        return self.better if self.significant else None


def compare_paired(values: Mapping[str, Mapping[str, Mapping[int, float]]], reference: str,
                   columns: Sequence[tuple[str, bool]], level: float = LEVEL) -> list[Comparison]:
    """Signed-rank tests of ``reference`` against every other explainer of ``values`` on every column, as one
    Holm family.

    Parameters
    ----------
    values : ``values[explainer][column][doc]``, the per-document value (NaN where undefined).
    reference : the explainer compared with every other one.
    columns : ``(column, higher_is_better)`` pairs; a column is tested on the documents where both explainers
        have a finite value, d = reference - other.
    level : family-wise error rate of the ``significant`` marks.

    Raises
    ------
    ValueError
        If ``reference`` is not in ``values``.
    """
    if reference not in values:
        raise ValueError(f"reference must be one of {sorted(values)}, got {reference!r}")
    pending = []
    for other in (e for e in values if e != reference):
        for column, higher_is_better in columns:
            a, b = values[reference][column], values[other][column]
            docs = sorted(d for d in a.keys() & b.keys() if math.isfinite(a[d]) and math.isfinite(b[d]))
            r = signed_rank([a[d] - b[d] for d in docs])
            if r["w_plus"] == r["w_minus"]:
                better = None
            else:
                higher = reference if r["w_plus"] > r["w_minus"] else other
                better = higher if higher_is_better else (other if higher == reference else reference)
            pending.append((other, column, len(docs), r, better))
    adjusted = holm([r["p_value"] for *_, r, _ in pending])
    return [Comparison(reference, other, column, n, r["n_nonzero"], r["w_plus"], r["w_minus"], r["p_value"], p,
                       better, level)
            for (other, column, n, r, better), p in zip(pending, adjusted)]
