"""Lemma 1: the limit of the empirical drop, its delta-method variance and a finite-sample bound.

With n i.i.d. samples, I = 1{c perturbed}, pi = P(I = 1) = p^|c|, mu = E[f] and
mu_c = E[f | I = 1], the empirical drop of Eq. (3),

    hat Delta = (1/n) sum_i f_i - (1/n_c) sum_{i : I_i = 1} f_i,

converges in probability to Delta = mu - E[f I]/pi (Lemma 1). Its influence
function is psi = (f - mu) - I (f - mu_c)/pi, so sqrt(n)(hat Delta - Delta) is
asymptotically N(0, sigma^2) with sigma^2 = E[psi^2]: the error is of order
sigma / sqrt(n), and sigma^2 grows like 1/pi, i.e. error ~ 1/sqrt(n p^|c|).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from .patterns import check_table, code_of, pattern_weights


def _covered(b: int, positions: Sequence[int]) -> np.ndarray:
    s = code_of(positions)
    if s == 0 or s >= 2**b:
        raise ValueError(f"positions must be a non-empty subset of [0, {b}), got {list(positions)}")
    return (np.arange(2**b) & s) == s


def empirical_drop(f, perturbed, positions: Sequence[int]) -> tuple[float | None, int]:
    """Eq. (3) written out, and n_c: mean of f over all rows minus its mean over the rows perturbing ``positions``.

    ``f`` holds the model's value on each row, ``perturbed[i, j]`` whether row i perturbs position j. The
    drop is undefined (None) when no row perturbs every position of the candidate (n_c = 0).

    >>> empirical_drop([1.0, 0.0, 0.5], np.array([[False], [True], [True]]), [0])
    (0.25, 2)
    """
    f = np.asarray(f, dtype=float)
    rows = np.asarray(perturbed, dtype=bool)[:, list(positions)].all(axis=1)
    n_c = int(rows.sum())
    return (None, 0) if n_c == 0 else (float(f.mean() - f[rows].mean()), n_c)


def lemma1_limit(table, positions: Sequence[int], p: float) -> float:
    """mu - E[f 1{c perturbed}] / p^|c|, with expectations over all 2^b patterns.

    >>> lemma1_limit([1.0, 0.0, 0.0, 0.0], [0, 1], 0.5)
    0.25
    """
    table, b = check_table(table)
    w = pattern_weights(b, p)
    indicator = _covered(b, positions)
    return float(w @ table - (w * indicator) @ table / p ** len(set(positions)))


def drop_asymptotic_variance(table, positions: Sequence[int], p: float) -> float:
    """sigma^2 = E[(f - mu - I (f - mu_c)/pi)^2], so Var(hat Delta) ~ sigma^2 / n.

    >>> drop_asymptotic_variance([1.0, 0.0], [0], 0.5)   # f = 1{not perturbed}
    0.25
    """
    table, b = check_table(table)
    w = pattern_weights(b, p)
    indicator = _covered(b, positions)
    pi = float(w @ indicator)
    mu = float(w @ table)
    mu_c = float((w * indicator) @ table / pi)
    psi = table - mu - indicator * (table - mu_c) / pi
    return float(w @ psi**2)


def hoeffding_drop_bound(value_range: float, n: int, n_c: int, delta1: float, delta2: float) -> float:
    """R sqrt(log(2/d1)/(2n)) + R sqrt(log(2/d2)/(2 n_c)): |hat Delta - Delta| is below it w.p. >= 1 - d1 - d2.

    The first term bounds the mean of all n rows (Hoeffding); the second bounds
    the mean of the n_c covered rows, which given n_c are i.i.d. from the law of
    f given I = 1 (Hoeffding conditionally on n_c, hence also unconditionally).
    R is the range of f (max - min over the patterns).

    >>> round(hoeffding_drop_bound(1.0, 200, 50, 0.5, 0.5), 6)
    0.176612
    """
    if value_range < 0 or n < 1 or n_c < 1 or not (0 < delta1 < 1 and 0 < delta2 < 1):
        raise ValueError(f"need value_range >= 0, n >= 1, n_c >= 1, deltas in (0, 1); got "
                         f"{value_range}, {n}, {n_c}, {delta1}, {delta2}")
    return value_range * (math.sqrt(math.log(2 / delta1) / (2 * n)) + math.sqrt(math.log(2 / delta2) / (2 * n_c)))
