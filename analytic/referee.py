"""Exact FRED by enumerating all 2^b mask patterns: the referee, written without importing ``fred``.

A pattern is an integer code whose bit i is set when position i is perturbed;
it has probability p^k (1 - p)^(b - k) with k perturbed positions. A table of f
holds f(pattern) for codes 0 .. 2^b - 1 (code 0 is the original document).
For every position set S at once, superset sums (a zeta transform over bits,
O(b 2^b)) give

    P(S perturbed) = sum_{code >= S} w,    E[f 1{S perturbed}] = sum_{code >= S} w f,

hence the exact drop of Eq. (1), E[f] - E[f 1{S}] / P(S), for all S.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from fred_constants import BASELINES, MASK_TOKEN, TIE_RTOL

from .patterns import (
    check_b,
    check_max_len,
    check_table,
    code_of,
    pattern_weights,
    popcounts,
    positions_of,
    superset_sums,
    table_b,
)
from .search import SearchOutcome, best_of_size, is_rational, search_on_drops, tie_tolerance


def linear_table(position_weights, intercept: float = 0.0) -> np.ndarray:
    """Table of f = lambda_0 + sum of a_i over kept positions (linear model with mask = removal).

    >>> linear_table([1.0, 10.0], 0.5).tolist()
    [11.5, 10.5, 1.5, 0.5]
    """
    kept = np.zeros(1)
    for a in np.asarray(position_weights, float):
        kept = np.concatenate([kept + a, kept])
    return kept + intercept


def masked_texts(tokens: Sequence[str], mask_token: str = MASK_TOKEN) -> list[str]:
    """The 2^b texts, code order: position i replaced by ``mask_token`` when bit i is set."""
    b = check_b(len(tokens))
    return [" ".join(mask_token if code >> i & 1 else t for i, t in enumerate(tokens)) for code in range(2**b)]


def table_from_classifier(classifier_fn: Callable, tokens: Sequence[str], mask_token: str = MASK_TOKEN,
                          label: int | None = None) -> np.ndarray:
    """Table of a black box on texts: column ``label`` (default argmax on the original) of its scores."""
    scores = np.asarray(classifier_fn(masked_texts(tokens, mask_token)), dtype=float)
    if scores.ndim == 1:
        if label is not None:
            raise ValueError("label must be None for a 1-d (regression) output")
        return scores
    column = int(np.argmax(scores[0])) if label is None else label
    return scores[:, column]


def table_classifier(tokens: Sequence[str], table, mask_token: str = MASK_TOKEN, n_classes: int = 0) -> Callable:
    """Black box on texts that looks f up in ``table`` (the inverse of :func:`table_from_classifier`).

    Position i counts as perturbed when its token equals ``mask_token``. With
    ``n_classes == 0`` it returns f as (n,); with 2 it returns [1 - f, f].
    """
    table, b = check_table(table)
    if len(tokens) != b:
        raise ValueError(f"table has 2**{b} entries but tokens has {len(tokens)} positions")

    def classify(texts: Sequence[str]) -> np.ndarray:
        codes = [sum(1 << i for i, t in enumerate(text.split()) if t == mask_token) for text in texts]
        f = table[np.asarray(codes, dtype=np.int64)]
        return np.column_stack([1.0 - f, f]) if n_classes == 2 else f

    return classify


def expected_prediction(table, p: float) -> float:
    """Exact E[f] = sum_code w f.

    >>> expected_prediction([1.0, 0.0, 0.0, 0.0], 0.5)
    0.25
    """
    table, b = check_table(table)
    return float(pattern_weights(b, p) @ table)


def exact_drop(table, positions: Sequence[int], p: float, *, baseline: str = "mean") -> float:
    """Exact drop of a position set: baseline value - E[f 1{S perturbed}] / P(S perturbed).

    The baseline value is E[f] (baseline "mean") or f(original) (baseline "original").

    >>> exact_drop([1.0, 0.0, 0.0, 0.0], [0], 0.5)
    0.25
    """
    table, b = check_table(table)
    w = pattern_weights(b, p)
    s = code_of(positions)
    if s >= 2**b:
        raise ValueError(f"positions must lie in [0, {b}), got {list(positions)}")
    rows = (np.arange(2**b) & s) == s
    conditional = float(w[rows] @ table[rows] / w[rows].sum())
    return _baseline_value(table, w, baseline) - conditional


def _baseline_value(table: np.ndarray, w: np.ndarray, baseline: str) -> float:
    """E[f] (baseline "mean") or f(xi) (baseline "original"): the value drops are measured from."""
    if baseline == "mean":
        return float(w @ table)
    if baseline == "original":
        return float(table[0])
    raise ValueError(f"baseline must be one of {BASELINES}, got {baseline!r}")


def all_drops(table, p: float, *, baseline: str = "mean") -> np.ndarray:
    """Exact drop of every position set, indexed by code (entry 0 is the empty set)."""
    table, b = check_table(table)
    w = pattern_weights(b, p)
    return _baseline_value(table, w, baseline) - superset_sums(w * table) / superset_sums(w)


@dataclass(frozen=True, eq=False)
class ExactExplanation:
    """The exact explanation of a table: the search's outcome on the exact drops (Eqs. 1-2, Algorithm 1) and what
    the explanation reports beside it, named as in :class:`fred.Explanation`.

    ``search`` is the :class:`analytic.search.SearchOutcome` (``best_ids``, ``drop``, ``found``, ``threshold``,
    ``solutions``, ``size`` and ``best_drop_by_size`` are read from it); ``importances`` the singleton drops
    (Eq. 5); ``drops`` every drop: an array indexed by pattern code in floating point, a dict keyed by sorted
    position tuple in rational arithmetic (:func:`all_drops`, :func:`all_drops_rational`).
    """

    search: SearchOutcome
    importances: np.ndarray | tuple
    mean_prediction: object
    original_prediction: object
    drops: object

    @property
    def best_ids(self) -> tuple[int, ...]:
        """The selected positions (Eq. 2's solution the search returns)."""
        return self.search.best_ids

    @property
    def drop(self):
        """The exact drop of the selection."""
        return self.search.drop

    @property
    def found(self) -> bool:
        """Whether a candidate reaches the threshold."""
        return self.search.found

    @property
    def threshold(self):
        """The threshold eps times the baseline value."""
        return self.search.threshold

    @property
    def solutions(self) -> tuple[tuple[int, ...], ...]:
        """Every solution of Eq. (2): the sets of the minimal size whose drop meets the threshold."""
        return self.search.solutions

    @property
    def size(self) -> int | None:
        """The minimal size of Eq. (2), None when no set of size <= max_len meets the threshold."""
        return self.search.size

    @property
    def best_drop_by_size(self) -> np.ndarray:
        """The best drop of each size the search walked (floats; objects in rational arithmetic)."""
        values = self.search.best_drop_by_size
        return np.array(values, dtype=object if is_rational(values) and values else float)


def exact_explain(table, p, eps, max_len: int, *, baseline: str = "mean", tie_rtol: float = TIE_RTOL,
                  tokens: Sequence[str] | None = None, mask_token: str = MASK_TOKEN, label: int | None = None,
                  drops: tuple | None = None) -> ExactExplanation:
    """Algorithm 1 on the exact drops of every position set of size 1..min(max_len, b): the one search
    (:func:`analytic.search.search_on_drops`) on :func:`all_drops`.

    ``table`` is f over the 2^b codes, or a black box on texts; then ``tokens`` (and ``mask_token``, ``label``)
    give the document, see :func:`table_from_classifier`. A table of rational numbers (``Fraction``, ``int``, sympy)
    with an exact ``p`` is explained in rational arithmetic (:func:`all_drops_rational`, exact ties); anything else
    in floating point, ties within ``tie_rtol * max(1, max|f|)`` (:func:`analytic.search.tie_tolerance`).
    ``drops`` may pass ``all_drops_rational(table, p, baseline=baseline)`` computed once for several eps. ``eps``
    may be 0 (every non-negative drop meets the threshold), a case outside the paper's (0, 1] that claims study.

    The smallest size whose best drop meets ``eps * E[f]`` (``eps * f(xi)`` for baseline "original") returns its
    best candidate (largest drop, ties to the lexicographically smallest sorted tuple); else the best over all
    sizes with ``found=False``.

    >>> r = exact_explain(linear_table([1.0, 3.0, 2.0]), 0.5, 0.75, 3)
    >>> r.best_ids, r.drop, r.threshold, r.found
    ((1, 2), 2.5, 2.25, True)
    >>> from fractions import Fraction as F
    >>> r = exact_explain(linear_table_rational([F(1), F(1, 2)]), F(1, 2), F(15, 100), 2)
    >>> r.size, r.solutions, r.best_ids, r.threshold
    (1, ((0,), (1,)), (0,), Fraction(9, 80))
    """
    if callable(table):
        if tokens is None:
            raise ValueError("tokens must be given when table is a classifier")
        table = table_from_classifier(table, tokens, mask_token, label)
    if not 0 <= eps <= 1:  # eps = 0 (threshold 0) is outside the paper's (0, 1], and claims study it as such
        raise ValueError(f"eps must lie in [0, 1], got {eps!r}")
    check_max_len(max_len)
    values = list(table)
    if is_rational(values) and is_rational([p]):
        if not 0 < p < 1:
            raise ValueError(f"p must lie in (0, 1), got {p!r}")
        value, by_set = all_drops_rational(values, p, baseline=baseline) if drops is None else drops
        b = table_b(values)
        by_code = {code_of(s): d for s, d in by_set.items()}
        mean = value if baseline == "mean" else expected_prediction_rational(values, p)
        outcome = search_on_drops(by_code, b, eps * value, max_len)
        return ExactExplanation(outcome, tuple(by_code[1 << i] for i in range(b)), mean, values[0], by_set)
    table, b = check_table(table)
    w = pattern_weights(b, p)
    all_ = all_drops(table, p, baseline=baseline)
    outcome = search_on_drops(all_, b, eps * _baseline_value(table, w, baseline), max_len,
                              tol=tie_tolerance(table, tie_rtol))
    return ExactExplanation(outcome, all_[[1 << i for i in range(b)]], float(w @ table), float(table[0]), all_)


def best_drop_of_size(table, p: float, size: int, *, baseline: str = "mean") -> tuple[float, list[tuple[int, ...]]]:
    """Largest exact drop among position sets of one size, and all sets attaining it up to the search's tie
    tolerance (:func:`analytic.search.tie_tolerance`)."""
    table, b = check_table(table)
    top, sets = best_of_size(all_drops(table, p, baseline=baseline), b, size, tie_tolerance(table))
    return float(top), sets


def scaled_drops(tables: np.ndarray) -> np.ndarray:
    """2^b drop(S) = sum(t) - 2^|S| sum_{x contains S} t[x] for each row t (code order), exactly in int64: the
    drop of Eq. (1) at p = 1/2 with baseline E[f] = sum(t) / 2^b, times 2^b (column 0 is 0).

    >>> scaled_drops([[1, 0, 0, 0]]).tolist()
    [[0, 1, 1, 1]]
    """
    tables = np.asarray(tables, np.int64)
    b = table_b(tables, "tables", batch=True)
    sup = tables.copy()
    for i in range(b):  # superset sums, one bit at a time
        view = sup.reshape(len(sup), -1, 2, 2**i)
        view[:, :, 0, :] += view[:, :, 1, :]
    return tables.sum(1)[:, None] - (1 << popcounts(b))[None, :] * sup


# --------------------------------------------------------------------------- the referee in rational arithmetic
# The same enumeration of the 2^b patterns in the arithmetic of the inputs: rational for ``fractions.Fraction``
# tables and p, exact symbolic for sympy numbers (then sympy decides each comparison). This is what confirms a
# counterexample without floating point.


def linear_table_rational(position_weights: Sequence, intercept=0) -> list:
    """:func:`linear_table` in the arithmetic of the inputs: f = lambda_0 + sum of a_i over the kept positions.

    >>> from fractions import Fraction
    >>> linear_table_rational([Fraction(1), Fraction(1, 2)], Fraction(-1, 4))
    [Fraction(5, 4), Fraction(1, 4), Fraction(3, 4), Fraction(-1, 4)]
    """
    a = list(position_weights)
    return [intercept + sum(a[i] for i in range(len(a)) if not code >> i & 1) for code in range(2 ** len(a))]


def _rational_weights(table: Sequence, p) -> tuple[list, int]:
    """p^k (1 - p)^(b - k) of every code, in the arithmetic of p, and b; checks that ``table`` has 2^b entries."""
    b = table_b(table)
    return [p ** bin(code).count("1") * (1 - p) ** (b - bin(code).count("1")) for code in range(2**b)], b


def expected_prediction_rational(table: Sequence, p):
    """:func:`expected_prediction` in the arithmetic of ``table`` and ``p``.

    >>> from fractions import Fraction as F
    >>> expected_prediction_rational([F(1), F(0), F(0), F(0)], F(1, 2))
    Fraction(1, 4)
    """
    weight, _ = _rational_weights(table, p)
    return sum(w * f for w, f in zip(weight, table))


def all_drops_rational(table: Sequence, p, *, baseline: str = "mean") -> tuple[object, dict[tuple[int, ...], object]]:
    """The baseline value (E[f] or f(original)) and the drop of every non-empty position set, keyed by its sorted
    positions, in the arithmetic of ``table`` and ``p`` (superset sums over the 2^b patterns, as :func:`all_drops`).

    >>> from fractions import Fraction as F
    >>> mean, drops = all_drops_rational(linear_table_rational([F(1), F(1, 2)]), F(1, 2))
    >>> mean, drops[(0,)], drops[(1,)], drops[(0, 1)]
    (Fraction(3, 4), Fraction(1, 2), Fraction(1, 4), Fraction(3, 4))
    """
    table = list(table)
    if baseline not in ("mean", "original"):
        raise ValueError(f"baseline must be 'mean' or 'original', got {baseline!r}")
    weight, b = _rational_weights(table, p)
    value = [w * f for w, f in zip(weight, table)]
    for i in range(b):  # superset sums: entry S becomes the sum over the codes containing S
        for code in range(2**b):
            if not code >> i & 1:
                weight[code] += weight[code | 1 << i]
                value[code] += value[code | 1 << i]
    baseline_value = value[0] if baseline == "mean" else table[0]  # weight[0] sums every pattern: 1
    return baseline_value, {positions_of(code): baseline_value - value[code] / weight[code] for code in range(1, 2**b)}
