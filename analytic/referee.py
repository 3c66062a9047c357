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

import itertools
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

#: Largest document enumerated (2**22 patterns, a few dozen MB per array).
MAX_TOKENS = 22


def _check_b(b: int) -> int:
    if isinstance(b, bool) or not isinstance(b, (int, np.integer)):
        raise TypeError(f"the number of tokens b must be an integer in [1, {MAX_TOKENS}], got {type(b).__name__}")
    if not 1 <= b <= MAX_TOKENS:
        raise ValueError(f"the number of tokens b must be an integer in [1, {MAX_TOKENS}], got {b!r}")
    return int(b)


def _check_table(table) -> tuple[np.ndarray, int]:
    table = np.asarray(table, dtype=float)
    b = int(table.size).bit_length() - 1
    if table.ndim != 1 or table.size != 2**b or b < 1:
        raise ValueError(f"table must be a 1-d array of length 2**b (b >= 1), got shape {table.shape}")
    return table, _check_b(b)


def pattern_weights(b: int, p: float) -> np.ndarray:
    """Probability of each code: p^k (1 - p)^(b - k), built one position at a time.

    >>> pattern_weights(2, 0.25).tolist()
    [0.5625, 0.1875, 0.1875, 0.0625]
    """
    b = _check_b(b)
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must lie in (0, 1), got {p!r}")
    w = np.ones(1)
    for _ in range(b):  # position i becomes bit i: the upper half has it perturbed
        w = np.concatenate([w * (1.0 - p), w * p])
    return w


def popcounts(b: int) -> np.ndarray:
    """Number of perturbed positions of each code."""
    k = np.zeros(1, dtype=np.int64)
    for _ in range(_check_b(b)):
        k = np.concatenate([k, k + 1])
    return k


def code_of(positions: Sequence[int]) -> int:
    """Code of a position set: sum of 2^i.

    >>> code_of([0, 2])
    5
    """
    positions = {int(i) for i in positions}
    if any(i < 0 for i in positions):
        raise ValueError(f"positions must be non-negative integers, got {sorted(positions)}")
    return sum(1 << i for i in positions)


def positions_of(code: int) -> tuple[int, ...]:
    """Sorted positions of a code."""
    return tuple(i for i in range(int(code).bit_length()) if code >> i & 1)


def superset_sums(values: np.ndarray) -> np.ndarray:
    """s[S] = sum over codes T containing S of values[T] (zeta transform over bits)."""
    s = np.array(values, dtype=float)
    b = s.size.bit_length() - 1
    for i in range(b):
        view = s.reshape(-1, 2, 2**i)  # axis 1 is bit i
        view[:, 0, :] += view[:, 1, :]
    return s


def linear_table(position_weights, intercept: float = 0.0) -> np.ndarray:
    """Table of f = lambda_0 + sum of a_i over kept positions (linear model with mask = removal).

    >>> linear_table([1.0, 10.0], 0.5).tolist()
    [11.5, 10.5, 1.5, 0.5]
    """
    kept = np.zeros(1)
    for a in np.asarray(position_weights, float):
        kept = np.concatenate([kept + a, kept])
    return kept + intercept


def masked_texts(tokens: Sequence[str], mask_token: str = "UNK") -> list[str]:
    """The 2^b texts, code order: position i replaced by ``mask_token`` when bit i is set."""
    b = _check_b(len(tokens))
    return [" ".join(mask_token if code >> i & 1 else t for i, t in enumerate(tokens)) for code in range(2**b)]


def table_from_classifier(classifier_fn: Callable, tokens: Sequence[str], mask_token: str = "UNK",
                          label: int | None = None) -> np.ndarray:
    """Table of a black box on texts: column ``label`` (default argmax on the original) of its scores."""
    scores = np.asarray(classifier_fn(masked_texts(tokens, mask_token)), dtype=float)
    if scores.ndim == 1:
        if label is not None:
            raise ValueError("label must be None for a 1-d (regression) output")
        return scores
    column = int(np.argmax(scores[0])) if label is None else label
    return scores[:, column]


def table_classifier(tokens: Sequence[str], table, mask_token: str = "UNK", n_classes: int = 0) -> Callable:
    """Black box on texts that looks f up in ``table`` (the inverse of :func:`table_from_classifier`).

    Position i counts as perturbed when its token equals ``mask_token``. With
    ``n_classes == 0`` it returns f as (n,); with 2 it returns [1 - f, f].
    """
    table, b = _check_table(table)
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
    table, b = _check_table(table)
    return float(pattern_weights(b, p) @ table)


def exact_drop(table, positions: Sequence[int], p: float, *, baseline: str = "mean") -> float:
    """Exact drop of a position set: reference - E[f 1{S perturbed}] / P(S perturbed).

    The reference is E[f] (baseline "mean") or f(original) (baseline "original").

    >>> exact_drop([1.0, 0.0, 0.0, 0.0], [0], 0.5)
    0.25
    """
    table, b = _check_table(table)
    w = pattern_weights(b, p)
    s = code_of(positions)
    if s >= 2**b:
        raise ValueError(f"positions must lie in [0, {b}), got {list(positions)}")
    rows = (np.arange(2**b) & s) == s
    conditional = float(w[rows] @ table[rows] / w[rows].sum())
    return _reference(table, w, baseline) - conditional


def _reference(table: np.ndarray, w: np.ndarray, baseline: str) -> float:
    if baseline == "mean":
        return float(w @ table)
    if baseline == "original":
        return float(table[0])
    raise ValueError(f"baseline must be 'mean' or 'original', got {baseline!r}")


def all_drops(table, p: float, *, baseline: str = "mean") -> np.ndarray:
    """Exact drop of every position set, indexed by code (entry 0 is the empty set)."""
    table, b = _check_table(table)
    w = pattern_weights(b, p)
    return _reference(table, w, baseline) - superset_sums(w * table) / superset_sums(w)


@dataclass(frozen=True)
class ExactExplanation:
    """Exact outcome of Algorithm 1 (Eqs. 1-2) on a table."""

    best_ids: tuple[int, ...]
    drop: float
    threshold: float
    found: bool
    importances: np.ndarray
    mean_prediction: float
    original_prediction: float
    best_drop_by_size: np.ndarray


def exact_explain(table, p: float, eps: float, max_len: int, *, baseline: str = "mean", tie_rtol: float = 1e-12,
                  tokens: Sequence[str] | None = None, mask_token: str = "UNK",
                  label: int | None = None) -> ExactExplanation:
    """Algorithm 1 by brute force over every position set of size 1..min(max_len, b).

    ``table`` is f over the 2^b codes, or a black box on texts; then ``tokens``
    (and ``mask_token``, ``label``) give the document, see :func:`table_from_classifier`.

    Returns the smallest size whose best drop is ``>= eps * reference``; the
    best candidate of a size has the largest drop, drops within
    ``tie_rtol * max(1, max|f|)`` of it being ties won by the lexicographically
    smallest sorted position tuple. When no size qualifies, the best over all
    sizes (ties to the smaller size) with ``found=False``.

    >>> r = exact_explain(linear_table([1.0, 3.0, 2.0]), 0.5, 0.75, 3)
    >>> r.best_ids, r.drop, r.threshold, r.found
    ((1, 2), 2.5, 2.25, True)
    """
    if callable(table):
        if tokens is None:
            raise ValueError("tokens must be given when table is a classifier")
        table = table_from_classifier(table, tokens, mask_token, label)
    table, b = _check_table(table)
    if not 0.0 < eps <= 1.0:
        raise ValueError(f"eps must lie in (0, 1], got {eps!r}")
    if isinstance(max_len, bool) or not isinstance(max_len, (int, np.integer)):
        raise TypeError(f"max_len must be an integer >= 1, got {type(max_len).__name__}")
    if max_len < 1:
        raise ValueError(f"max_len must be an integer >= 1, got {max_len!r}")
    w = pattern_weights(b, p)
    reference = _reference(table, w, baseline)
    drops = all_drops(table, p, baseline=baseline)
    size_of = popcounts(b)
    tol = tie_rtol * max(1.0, float(np.max(np.abs(table))))
    threshold = eps * reference
    winners = []
    for size in range(1, min(max_len, b) + 1):
        codes = np.flatnonzero(size_of == size)
        top = drops[codes].max()
        tied = codes[drops[codes] >= top - tol]
        winners.append((min(positions_of(int(c)) for c in tied), float(top)))
        if top >= threshold:
            break
    best_by_size = np.array([d for _, d in winners])
    if best_by_size[-1] >= threshold:
        ids, drop, found = winners[-1][0], winners[-1][1], True
    else:
        first = int(np.flatnonzero(best_by_size >= best_by_size.max() - tol)[0])
        ids, drop, found = winners[first][0], winners[first][1], False
    return ExactExplanation(ids, drop, threshold, found, drops[[1 << i for i in range(b)]], float(w @ table),
                            float(table[0]), best_by_size)


def best_drop_of_size(table, p: float, size: int, *, baseline: str = "mean") -> tuple[float, list[tuple[int, ...]]]:
    """Largest exact drop among position sets of one size, and all sets attaining it within 1e-12."""
    table, b = _check_table(table)
    drops = all_drops(table, p, baseline=baseline)
    sets = list(itertools.combinations(range(b), size))
    values = np.array([drops[code_of(s)] for s in sets])
    top = values.max()
    return float(top), [s for s, v in zip(sets, values) if v >= top - 1e-12]


# --------------------------------------------------------------------------- the referee in exact arithmetic
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
    b = len(table).bit_length() - 1
    if len(table) != 2**b or b < 1:
        raise ValueError(f"table must have 2**b entries (b >= 1), got {len(table)}")
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
    """The reference (E[f] or f(original)) and the drop of every non-empty position set, keyed by its sorted
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
    reference = value[0] if baseline == "mean" else table[0]  # weight[0] sums every pattern: 1
    return reference, {positions_of(code): reference - value[code] / weight[code] for code in range(1, 2**b)}


@dataclass(frozen=True)
class Eq2Solutions:
    """Every solution of Eq. (2) on one document, in exact arithmetic.

    ``solutions`` are all position sets of the minimal size ``size`` whose drop reaches ``threshold = eps *
    reference`` (Eq. 2 as written: any minimiser); ``fred_choice`` is the one Algorithm 1 returns, the largest
    drop among them, ties to the lexicographically smallest sorted tuple. ``size`` is None (and both are empty)
    when no set of size <= max_len reaches the threshold.
    """

    mean: object
    original: object
    threshold: object
    size: int | None
    solutions: tuple[tuple[int, ...], ...]
    fred_choice: tuple[int, ...]
    drops: dict


def eq2_solutions(table: Sequence, p, eps, max_len: int, *, baseline: str = "mean",
                  drops: tuple | None = None) -> Eq2Solutions:
    """All minimisers of Eq. (2) and FRED's choice among them, from :func:`all_drops_rational`.

    ``drops`` may pass ``all_drops_rational(table, p, baseline=baseline)`` computed once for several eps.

    >>> from fractions import Fraction as F
    >>> r = eq2_solutions(linear_table_rational([F(1), F(1, 2)]), F(1, 2), F(15, 100), 2)
    >>> r.size, r.solutions, r.fred_choice, r.threshold
    (1, ((0,), (1,)), (0,), Fraction(9, 80))
    """
    table = list(table)
    reference, drops = all_drops_rational(table, p, baseline=baseline) if drops is None else drops
    mean = reference if baseline == "mean" else expected_prediction_rational(table, p)
    threshold = eps * reference
    for size in range(1, min(max_len, len(table).bit_length() - 1) + 1):
        sets = [s for s in drops if len(s) == size and bool(drops[s] >= threshold)]
        if sets:
            top = max(drops[s] for s in sets)
            choice = min(s for s in sets if not bool(drops[s] < top))
            return Eq2Solutions(mean, table[0], threshold, size, tuple(sorted(sets)), choice, drops)
    return Eq2Solutions(mean, table[0], threshold, None, (), (), drops)
