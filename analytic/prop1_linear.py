"""Closed forms of FRED on the linear model f(z) = lambda^T phi(z) + lambda_0 (Eq. 6, Prop. 1).

With mask = removal, word j of multiplicity m_j contributes a_j = lambda_j v_j per
kept occurrence; each occurrence is kept with probability 1 - p, independently.
Hence

    E[f] = (1 - p) sum_j a_j m_j + lambda_0,

and, given that c_j occurrences of word j are perturbed (the candidate), the
other m_j - c_j are kept with probability 1 - p, so the drop of Eq. (1) is

    Delta_c = E[f] - E[f | c perturbed] = (1 - p) sum_j a_j c_j.

The proof of Prop. 1 (appendix) writes ``p sum_j a_j c_j`` (it uses
E[M_j] = p m_j, the probability of *perturbing*): equal only at p = 1/2; see
:func:`linear_drop_as_written`. The ordering conclusion of Prop. 1 is
unaffected since 1 - p > 0. Every function works per word (multiplicities
``m``) or per position (``m`` all ones, ``a`` the position weights a_i).
"""

from __future__ import annotations

import itertools
from typing import Sequence

import numpy as np
import sympy as sp

from .referee import linear_table_rational

#: Position weights lambda_j v_j equal up to this are ties (Prop. 1 assumes them strictly ordered; a float model
#: fitted by scikit-learn gives equal words weights equal to ~1e-15, far inside it).
VALUE_TOL = 1e-9


def kept_count_sym(m: int, count: int, p=None) -> sp.Expr:
    """E[M_j | ``count`` of the m_j occurrences perturbed]: the other m_j - count are each kept w.p. 1 - p.

    Enumerates the 2^(m_j - count) patterns of the other occurrences, so it checks
    E[M_j | c_j] = (1 - p)(m_j - c_j) without assuming it.

    >>> kept_count_sym(3, 1)
    2 - 2*p
    """
    p = sp.Symbol("p") if p is None else p
    total = 0
    for z in itertools.product([0, 1], repeat=m - count):  # 1 = perturbed
        weight = sp.Mul(*[p if zi else 1 - p for zi in z])
        total += weight * sum(1 - zi for zi in z)
    return sp.expand(total)


def linear_expected_prediction_sym(a: Sequence, m: Sequence, intercept, p) -> sp.Expr:
    """Sympy E[f] = (1 - p) sum_j a_j m_j + lambda_0 (symbols or numbers).

    >>> p, a1, a2, l0 = sp.symbols("p a1 a2 lambda0")
    >>> linear_expected_prediction_sym([a1, a2], [2, 1], l0, p)
    lambda0 + (1 - p)*(2*a1 + a2)
    """
    return (1 - p) * sum(sp.sympify(aj) * mj for aj, mj in zip(a, m)) + intercept


def linear_drop_sym(a: Sequence, counts: Sequence, p) -> sp.Expr:
    """Sympy drop Delta_c = (1 - p) sum_j a_j c_j of the candidate with ``counts`` c.

    >>> p = sp.Symbol("p")
    >>> linear_drop_sym([3, -1], [1, 1], p)
    2 - 2*p
    """
    return sp.expand((1 - p) * sum(sp.sympify(aj) * cj for aj, cj in zip(a, counts)))


def linear_expected_prediction(a, m, intercept: float, p: float) -> float:
    """Numpy twin of :func:`linear_expected_prediction_sym`.

    >>> linear_expected_prediction([1.0, 2.0], [2, 1], 0.5, 0.25)
    3.5
    """
    return float((1.0 - p) * np.dot(np.asarray(a, float), np.asarray(m, float)) + intercept)


def linear_drop(a, counts, p: float) -> float:
    """Numpy twin of :func:`linear_drop_sym`: (1 - p) sum_j a_j c_j.

    >>> linear_drop([1.0, 2.0], [1, 1], 0.25)
    2.25
    """
    return float((1.0 - p) * np.dot(np.asarray(a, float), np.asarray(counts, float)))


def linear_drop_as_written(a, counts, p: float) -> float:
    """The drop as the proof of Prop. 1 writes it, p sum_j a_j c_j (wrong unless p = 1/2).

    >>> linear_drop_as_written([1.0, 2.0], [1, 1], 0.25)
    0.75
    """
    return float(p * np.dot(np.asarray(a, float), np.asarray(counts, float)))


def linear_optimal_counts(a, m, size: int) -> np.ndarray:
    """Counts c of the largest-drop candidate of a given size: greedy by a_j (Prop. 1).

    Words are filled up to their multiplicity in decreasing a_j; among equal
    a_j the lower word index goes first (the tie rule of :func:`top_positions`).
    Any candidate of that size with the same multiset of a-values has the same
    drop (ties are exact).

    >>> linear_optimal_counts([1.0, 3.0, 2.0], [2, 1, 2], 2).tolist()
    [0, 1, 1]
    """
    a = np.asarray(a, float)
    m = np.asarray(m, int)
    if not 0 <= size <= int(m.sum()):
        raise ValueError(f"size must lie in [0, {int(m.sum())}], got {size}")
    c = np.zeros_like(m)
    left = size
    for j in _by_weight(a):  # the tie rule of top_positions
        c[j] = min(m[j], left)
        left -= c[j]
    return c


def linear_optimal_positions(a_pos, size: int) -> tuple[int, ...]:
    """Largest-drop position set of a given size; ties to the lexicographically smallest sorted tuple.

    >>> linear_optimal_positions([1.0, 2.0, 2.0, 0.0], 2)
    (1, 2)
    >>> linear_optimal_positions([2.0, 1.0, 2.0, 2.0], 2)
    (0, 2)
    """
    counts = linear_optimal_counts(a_pos, np.ones(len(a_pos), int), size)
    return tuple(int(i) for i in np.flatnonzero(counts))


def _by_weight(a) -> list[int]:
    """The positions of ``a`` by decreasing weight, equal weights by increasing position: the one tie rule."""
    return sorted(range(len(a)), key=lambda i: (-a[i], i))


def top_positions(a, size: int) -> tuple[int, ...]:
    """The top set of ``size``: the positions of the ``size`` largest weights of ``a``, in increasing order, in the
    arithmetic of ``a`` (Fractions compare exactly). This is the one definition of Prop. 1 (ii)'s top set.

    Tie rule: among equal weights the smaller position is taken first, so the top set of a size is one set (the
    greedy candidate of :func:`linear_optimal_counts` fills words in the same order); every set tied with it, the
    same weights as a multiset, is a top set too for :func:`is_top_set`.

    >>> top_positions([1, 3, 2], 2)
    (1, 2)
    >>> top_positions([0.5, 0.1, 0.5], 1), top_positions([2, 1, 2, 2], 2)  # ties: the smaller positions
    ((0,), (0, 2))
    """
    return tuple(sorted(_by_weight(a)[:size]))


def is_top_set(a, positions, tol: float = VALUE_TOL) -> bool:
    """Whether ``positions`` is a top set: it carries the weights of ``top_positions(a, len(positions))``
    (:func:`top_positions`) as a multiset, each within ``tol`` of its rank's, i.e. it is that set or tied with it
    (Prop. 1 (ii)'s shape of a best candidate). With ``tol > 0`` the weights are compared as floats (NaN ranked as numpy sorts it); ``tol = 0``
    compares them in their own arithmetic (Fractions: exactly).

    >>> is_top_set([0.5, 0.1, 0.5], (2,)), is_top_set([0.5, 0.1, 0.4], (1, 2))
    (True, False)
    >>> a = [2, 1, 2, 2]
    >>> is_top_set(a, top_positions(a, 2), tol=0), is_top_set(a, (2, 3), tol=0), is_top_set(a, (1, 2), tol=0)
    (True, True, False)
    >>> from fractions import Fraction as F
    >>> is_top_set([F(1, 3), F(1, 3) - F(1, 10**30)], (1,), tol=0), is_top_set([F(1, 3), F(1, 3)], (1,), tol=0)
    (False, True)
    """
    if tol:
        a = np.asarray(a, float)
        chosen = np.sort(a[list(positions)])[::-1]
        top = np.sort(a)[::-1][: len(chosen)]
        return bool(np.all(np.abs(chosen - top) <= tol))
    return sorted((a[i] for i in positions), reverse=True) == sorted(a, reverse=True)[: len(positions)]


def linear_best_drops(a, m, p: float, max_len: int) -> np.ndarray:
    """Largest drop of each size l = 1..min(max_len, sum m): (1 - p) times the sum of the l largest a's.

    >>> linear_best_drops([1.0, -2.0, 3.0], [1, 1, 1], 0.5, 5).tolist()
    [1.5, 2.0, 1.0]
    """
    values = np.sort(np.repeat(np.asarray(a, float), np.asarray(m, int)))[::-1]
    return (1.0 - p) * np.cumsum(values[: min(max_len, len(values))])


def linear_minimal_size(a, m, intercept: float, p: float, eps: float, max_len: int, *,
                        baseline: str = "mean") -> int | None:
    """Smallest l <= max_len whose best drop reaches eps * (baseline value); None if none does.

    The baseline value is E[f] with baseline "mean" (Eq. 2) and f(xi) = sum_j a_j m_j + lambda_0
    with baseline "original": that baseline's drop is the "mean" drop plus f(xi) - E[f].

    >>> linear_minimal_size([1.0, 1.0, 1.0], [1, 1, 1], 0.0, 0.5, 0.5, 3)
    2
    >>> linear_minimal_size([1.0, -5.0], [1, 1], 5.0, 0.5, 0.9, 2) is None
    True
    >>> linear_minimal_size([1.0, 1.0, 1.0], [1, 1, 1], 0.0, 0.5, 0.5, 3, baseline="original")
    1
    """
    mean = linear_expected_prediction(a, m, intercept, p)
    if baseline == "mean":
        ref = mean
    elif baseline == "original":
        ref = float(np.dot(np.asarray(a, float), np.asarray(m, float)) + intercept)
    else:
        raise ValueError(f"baseline must be 'mean' or 'original', got {baseline!r}")
    drops = linear_best_drops(a, m, p, max_len) + (ref - mean)
    hits = np.flatnonzero(drops >= eps * ref)
    return int(hits[0]) + 1 if len(hits) else None


def logistic_table_sym(position_weights: Sequence, intercept=0) -> list:
    """sigma(lambda_0 + sum of a_i over kept positions) for every code, as exact sympy numbers.

    >>> logistic_table_sym([sp.log(3)], 0)
    [3/4, 1/2]
    """
    return [sp.nsimplify(1) / (1 + sp.exp(-sp.sympify(z))) for z in linear_table_rational(
        [sp.sympify(x) for x in position_weights], sp.sympify(intercept))]
