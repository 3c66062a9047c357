"""Algorithm 1 of the paper (section 2.4) transcribed literally, and the rule that says what it returns.

The pseudo-code, line by line (``Delta`` a drop, ``fhat`` the average prediction)::

    initialize Delta_best = 0
    x = generate_sample(xi, p, n);  fhat = average(f(x));  d(x) = fhat - f(x)
    for size = 1 .. l_max:
        for c in get_candidates(xi, size):
            Delta_c = average of d(x) over the samples where c is absent
            if size = 1: s_c = Delta_c
            if Delta_c >= Delta_best: Delta_best = Delta_c; best = c
        if Delta_best >= eps * fhat: return best
    return best

What the transcription has to assume, because the paper does not say it:

* ``get_candidates`` enumerates the position sets of one size in ``itertools.combinations`` order (increasing
  sorted position tuples); the pseudo-code does not fix an order, and ``>=`` makes the result depend on it;
* ``best`` is ``None`` until first assigned (the pseudo-code never initialises it);
* a candidate that no sample perturbs entirely (n_c = 0) has no average and is skipped, as ``NaN >= Delta_best``
  would be;
* averages are plain means over the rows, as written (the empirical drop of Eq. 3); with the 2^b patterns as rows
  at p = 1/2 (equally likely) they are the exact drops of Eq. (1), in the arithmetic of ``f`` (``Fraction``
  values give rational drops), and the first threshold test that succeeds at a positive threshold answers Eq. (2);
* sizes run to ``l_max`` even past b, where ``get_candidates`` is empty and nothing changes.

Four consequences (:func:`algorithm1_rule` states them as one rule, checked against the transcription):
``Delta_best`` starts at 0, so when every drop is negative nothing is ever selected; it is never reset across
sizes, so a later size replaces ``best`` only with a drop at least as large; ``>=`` hands a tie to the last
candidate enumerated (and to the later size); and when ``fhat <= 0`` the threshold ``eps * fhat <= 0`` is met by
the initial 0 after size 1, whatever was selected.
"""

from __future__ import annotations

import itertools
import numbers
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from .patterns import check_b, check_max_len, table_b
from .referee import scaled_drops


@dataclass(frozen=True)
class LiteralOutcome:
    """What Algorithm 1 as written returns, and its state when it returned.

    ``best`` is the returned candidate (sorted positions) or None; ``returned_at`` is the size whose threshold
    test returned it, None when the loop ran out (the final ``return best``); ``best_drop`` is Delta_best then;
    ``scores`` are the s_c of the singletons (None where undefined); ``mean`` is fhat and ``threshold``
    eps * fhat.
    """

    best: tuple[int, ...] | None
    returned_at: int | None
    best_drop: object
    scores: tuple
    mean: object
    threshold: object


def _check_eps(eps) -> None:
    if isinstance(eps, bool) or not isinstance(eps, numbers.Real):
        raise TypeError(f"eps must be a real number in (0, 1], got {type(eps).__name__}")
    if not 0 < eps <= 1:
        raise ValueError(f"eps must lie in (0, 1], got {eps!r}")



def pattern_rows(b: int) -> list[tuple[bool, ...]]:
    """The 2^b perturbation patterns as rows, in code order (row k perturbs position i iff bit i of k is set).

    >>> pattern_rows(2)
    [(False, False), (True, False), (False, True), (True, True)]

    Raises TypeError or ValueError unless b is an integer in [1, 22] (the referee's largest document).
    """
    b = check_b(b)
    return [tuple(bool(code >> i & 1) for i in range(b)) for code in range(2**b)]


def algorithm1_literal(perturbed: Sequence[Sequence[bool]], f: Sequence, eps, max_len: int) -> LiteralOutcome:
    """Algorithm 1 exactly as printed, on sample rows ``perturbed`` (n x b, True = position perturbed) and the
    predictions ``f`` (n,) of those rows; see the module docstring for the assumptions.

    Parameters
    ----------
    perturbed : n rows of b booleans; row r perturbs position i iff ``perturbed[r][i]``.
    f : n predictions, in any arithmetic (``Fraction`` for rational drops).
    eps : the fraction of fhat the drop must reach, in (0, 1].
    max_len : l_max, an integer >= 1.

    Examples
    --------
    Two tied words (f = 1 only on the document, p = 1/2, the four patterns as rows): both drops are 1/4 and the
    tie goes to the last candidate enumerated.

    >>> from fractions import Fraction as F
    >>> r = algorithm1_literal(pattern_rows(2), [F(1), F(0), F(0), F(0)], F(3, 20), 10)
    >>> r.best, r.returned_at, r.best_drop, r.threshold
    ((1,), 1, Fraction(1, 4), Fraction(3, 80))

    Every drop negative (removing the word raises f): nothing is ever selected.

    >>> algorithm1_literal(pattern_rows(1), [F(0), F(1)], F(3, 20), 10).best is None
    True
    """
    rows = [tuple(bool(z) for z in row) for row in perturbed]
    f = list(f)
    if not rows or len({len(r) for r in rows}) != 1 or not rows[0]:
        raise ValueError("perturbed must be a non-empty list of rows of equal length b >= 1")
    if len(f) != len(rows):
        raise ValueError(f"f must hold one prediction per row: {len(rows)} rows, got {len(f)} values")
    _check_eps(eps)
    check_max_len(max_len)
    b = len(rows[0])
    mean = sum(f) / len(f)
    d = [mean - v for v in f]
    threshold = eps * mean
    delta_best, best = 0, None
    scores: list = [None] * b
    for size in range(1, max_len + 1):
        for c in itertools.combinations(range(b), size):
            absent = [d[r] for r, row in enumerate(rows) if all(row[i] for i in c)]
            if not absent:
                continue
            delta_c = sum(absent) / len(absent)
            if size == 1:
                scores[c[0]] = delta_c
            if delta_c >= delta_best:
                delta_best, best = delta_c, c
        if delta_best >= threshold:
            return LiteralOutcome(best, size, delta_best, tuple(scores), mean, threshold)
    return LiteralOutcome(best, None, delta_best, tuple(scores), mean, threshold)


def algorithm1_rule(drops: Mapping[tuple[int, ...], object], threshold, max_len: int) -> tuple:
    """What :func:`algorithm1_literal` returns, from the drop of every candidate: ``(best, returned_at)``.

    With M_k = max(0, largest drop of the sizes <= k) (the running Delta_best, which starts at 0 and is never
    reset), Algorithm 1 returns at the first size k <= min(l_max, b) with M_k >= threshold, else at the end
    (``returned_at`` None) with k = min(l_max, b); it returns the last candidate, in enumeration order (sizes
    increasing, ``itertools.combinations`` within a size), whose drop equals M_k, or None when M_k = 0 is no
    candidate's drop (every drop so far negative). If the threshold is positive, the size k that returns is the
    smallest size whose largest drop reaches it, and ``best`` is the last candidate of largest drop of that
    size: a solution of Eq. (2). If the threshold is <= 0, k = 1.

    ``drops`` maps every non-empty sorted position tuple of sizes 1..min(l_max, b) to its drop (e.g. the exact
    drops of :func:`analytic.referee.all_drops_rational`); b is the largest position + 1.

    >>> from fractions import Fraction as F
    >>> algorithm1_rule({(0,): F(1, 4), (1,): F(1, 4), (0, 1): F(1, 4)}, F(1, 2), 2)   # ties to the later size
    ((0, 1), None)
    """
    check_max_len(max_len)
    b = 1 + max((max(s) for s in drops), default=-1)
    if b < 1:
        raise ValueError("drops must hold at least one non-empty position set")
    order = [c for size in range(1, min(max_len, b) + 1) for c in itertools.combinations(range(b), size)]
    top = 0
    for k in range(1, min(max_len, b) + 1):
        top = max([top] + [drops[c] for c in order if len(c) == k])
        if top >= threshold:
            break
    else:
        k = None
    seen = order if k is None else [c for c in order if len(c) <= k]
    best = next((c for c in reversed(seen) if drops[c] == top), None)
    return best, k


def algorithm1_literal_batch(tables, eps, max_len: int) -> dict:
    """:func:`algorithm1_literal` on the 2^b patterns as rows (p = 1/2, exact drops), for many integer tables at
    once, and Eq. (2)'s minimal size: integer arithmetic on 2^b times the drops (:func:`analytic.referee.scaled_drops`).

    Returns per row (``tables`` is (R, 2^b), code order): ``best`` the code Algorithm 1 returns (-1 for None),
    ``returned_at`` the size whose threshold test returned (0: the final ``return best``), ``eq2_size`` the
    smallest size <= min(l_max, b) with a drop >= eps E[f] (0: none), ``is_solution`` whether ``best`` is a
    solution of Eq. (2), ``largest_drop`` whether it also has the largest drop of that size, and ``mean_sign``
    the sign of E[f]. ``eps`` is a Fraction.

    >>> from fractions import Fraction as F
    >>> r = algorithm1_literal_batch([[-4, -3]], F(3, 20), 10)
    >>> int(r["best"][0]), int(r["returned_at"][0]), int(r["eq2_size"][0]), bool(r["is_solution"][0])
    (-1, 1, 1, False)
    """
    _check_eps(eps)
    check_max_len(max_len)
    tables = np.asarray(tables, np.int64)
    n, b = len(tables), table_b(tables, "tables", batch=True)
    drops = scaled_drops(tables)
    threshold = eps.numerator * tables.sum(1)  # compared with eps.denominator * 2^b drop
    sizes = np.array([bin(c).count("1") for c in range(2**b)])
    best, best_drop = np.full(n, -1), np.zeros(n, np.int64)
    returned_at, live = np.zeros(n, int), np.ones(n, bool)
    for size in range(1, min(max_len, b) + 1):
        for c in itertools.combinations(range(b), size):  # get_candidates' order (assumed)
            code = sum(1 << i for i in c)
            take = live & (drops[:, code] >= best_drop)  # 'if Delta_c >= Delta_best'
            best_drop = np.where(take, drops[:, code], best_drop)
            best = np.where(take, code, best)
        stop = live & (eps.denominator * best_drop >= threshold)
        returned_at[stop] = size
        live &= ~stop
    eq2_size, top = np.zeros(n, int), np.zeros(n, np.int64)
    for size in range(min(max_len, b), 0, -1):
        size_top = drops[:, sizes == size].max(1)
        reach = eps.denominator * size_top >= threshold
        eq2_size = np.where(reach, size, eq2_size)
        top = np.where(reach, size_top, top)
    chosen = drops[np.arange(n), np.maximum(best, 0)]
    is_solution = (best >= 0) & (eq2_size > 0) & (sizes[np.maximum(best, 0)] == eq2_size) \
        & (eps.denominator * chosen >= threshold)
    return {"best": best, "returned_at": returned_at, "eq2_size": eq2_size, "is_solution": is_solution,
            "largest_drop": is_solution & (chosen == top), "mean_sign": np.sign(tables.sum(1))}
