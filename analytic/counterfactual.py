"""Counterfactuals of FRED on a linear score (section 2.4): the minimal flipping set and how often FRED finds it.

The model. A binary classifier whose class-1 log-odds (or any score thresholded at 0) is linear in the kept
positions,

    s(x) = lambda_0 + sum over kept positions i of a_i,

e.g. a LogisticRegression on ``TfidfVectorizer(norm=None)`` (Eq. 6): a_i = lambda_{w_i} v_{w_i} per occurrence
(:meth:`analytic.LinearTfidfModel.position_weights`), and masking a position removes its word when the mask token
is out of vocabulary. FRED's predicted class of a sample is the argmax of its scores; on ``predict_proba`` =
[1 - sigma(s), sigma(s)] numpy's argmax takes the first column on a tie, so

    class(s) = 1 if s > 0 else 0          (s = 0, sigma = 1/2, is class 0).

In floating point a score within rounding of 0 may be classed differently; with rational inputs every function
here is exact.

The minimal flipping set. Let s be the document's score, c its class, and u_i = a_i if c = 1 else -a_i (the
signed weight: how much removing position i pushes towards the other class). Removing the set S gives the score
s - sum_S a_i, so S flips the class iff

    sum_S u_i >= |s|   (c = 1: the new score is <= 0),      sum_S u_i > |s|   (c = 0: the new score is > 0).

Both conditions are monotone in T = sum_S u_i. Let U_k be the sum of the k largest u_i. For every S of size k,
sum_S u_i <= U_k (the j-th largest u of S is at most the j-th largest u overall, for j = 1..k). Hence some set of
size k flips iff U_k passes, and the minimal number of removals is

    k* = min{k >= 1 : U_k passes}      (greedy: remove the largest u_i first until the class flips),

None when no k passes (removing the positions of positive u_i, which maximises T, does not flip). The greedy set
(the k* largest u_i, ties to the lower position) flips; other sets of size k* may flip too: M of them in all.

How often FRED's counterfactual is minimal. FRED's mask sampler draws n i.i.d. rows, each position perturbed
with probability p, so a row is one given set S of size k with probability p^k (1 - p)^(b - k). The counterfactual
FRED reports first (:meth:`fred.Explanation.counterfactuals`) is a sampled row of another class with the fewest
perturbed positions, the earliest in sampling order among those. No row with fewer than k* perturbed positions
flips (definition of k*), so that row has k* positions iff some row is one of the M minimal flipping sets, an
event of probability q = M p^k* (1 - p)^(b - k*) per row:

    P(FRED's first counterfactual is minimal) = 1 - (1 - q)^n.

Given that, the first such row is each of the M minimal sets with the same probability (the M sets are equally
likely and the rows are i.i.d.), so it is the greedy set with probability 1/M. More generally, with Q_j the
probability that a row is a flipping set of size j, the first counterfactual has j positions with probability
(1 - sum_{i<j} Q_i)^n - (1 - sum_{i<=j} Q_i)^n, and there is none with probability (1 - sum_j Q_j)^n.

Arguments follow the project's order: what is explained (``a``, ``intercept``, a number of rows ``n``), then
``p``; every sum is computed in the arithmetic of the inputs (``Fraction`` in, ``Fraction`` out).
"""

from __future__ import annotations

import math
import numbers
from typing import Iterator, Sequence

from .lemma2 import _rational, coverage_sym, sample_size_rational

#: Largest document whose flipping sets of every size are enumerated (2**22 position sets).
MAX_TOKENS = 22


def _check_real(value, name: str):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a finite real number, got {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    return value


def _check_linear(a: Sequence, intercept) -> tuple[list, object]:
    if isinstance(a, (str, bytes)) or not hasattr(a, "__len__"):
        raise TypeError(f"a must be a sequence of finite real numbers (one weight per position), got "
                        f"{type(a).__name__}")
    a = [_check_real(x, "a") for x in a]
    if not a:
        raise ValueError("a must hold at least one position weight (b >= 1), got an empty sequence")
    return a, _check_real(intercept, "intercept")


def _check_p(p):
    if isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise TypeError(f"p must be a real number in (0, 1), got {type(p).__name__}")
    if not 0 < p < 1:
        raise ValueError(f"p must lie in (0, 1), got {p!r}")
    return p


def _check_n(n) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"n must be an integer >= 1 (a number of rows), got {type(n).__name__}")
    if n < 1:
        raise ValueError(f"n must be an integer >= 1 (a number of rows), got {n!r}")
    return int(n)


def predicted_class(score) -> int:
    """FRED's class of a score: the argmax of [1 - sigma(s), sigma(s)], first column on a tie.

    >>> predicted_class(0.25), predicted_class(0), predicted_class(-1)
    (1, 0, 0)
    """
    return 1 if score > 0 else 0


def _signed(a: list, intercept) -> tuple[list, object, bool]:
    """Signed weights u, the threshold |s| and whether reaching it is enough (class 1) or it must be exceeded."""
    score = intercept + sum(a)
    if predicted_class(score) == 1:
        return a, score, True
    return [-x for x in a], -score, False


def _passes(total, threshold, inclusive: bool) -> bool:
    return total >= threshold if inclusive else total > threshold


def _greedy(a: list, intercept) -> tuple[list[int], int | None]:
    """Positions in decreasing signed weight (ties to the lower position) and k* (None when nothing flips)."""
    u, threshold, inclusive = _signed(a, intercept)
    order = sorted(range(len(u)), key=lambda i: (-u[i], i))
    total = 0
    for k, i in enumerate(order, start=1):
        total += u[i]
        if _passes(total, threshold, inclusive):
            return order, k
    return order, None


def minimal_flip_size(a: Sequence, intercept) -> int | None:
    """k*: the fewest positions whose removal changes the class; greedy by the largest signed weight.

    Parameters
    ----------
    a : weight a_i of each position (b >= 1), e.g. lambda_{w_i} v_{w_i} for TF-IDF of Definition 1.
    intercept : lambda_0.

    Returns
    -------
    The smallest k with U_k (the sum of the k largest signed weights) past the boundary, or None when no set of
    positions flips the class.

    >>> minimal_flip_size([3, 1, 1], -2)        # s = 3: removing the 3 gives s = 0, class 0
    1
    >>> minimal_flip_size([1, 1, 1], -1)        # s = 2: two removals reach s = 0
    2
    >>> minimal_flip_size([-1, -1], 1)          # s = -1, class 0: only removing both gives s = 1 > 0
    2
    >>> minimal_flip_size([1, 1], 1) is None    # s = 3; removing everything leaves s = 1
    True
    """
    return _greedy(*_check_linear(a, intercept))[1]


def greedy_flip_positions(a: Sequence, intercept) -> tuple[int, ...] | None:
    """The greedy minimal flipping set: the k* positions of largest signed weight, ties to the lower position.

    >>> greedy_flip_positions([1, 3, 1, 2], -5)   # s = 2: removing the 3 gives s = -1
    (1,)
    >>> greedy_flip_positions([-1, 2, -3], 1)     # s = -1, class 0: remove the most negative first
    (2,)
    """
    order, size = _greedy(*_check_linear(a, intercept))
    return None if size is None else tuple(sorted(order[:size]))


def flip_sets(a: Sequence, intercept, size: int) -> Iterator[tuple[int, ...]]:
    """Every set of ``size`` positions whose removal changes the class (sorted positions, in no fixed order).

    Branch and bound over the positions in decreasing signed weight: a branch stops as soon as even its best
    completion (the next largest weights) does not flip, so the work grows with the number of sets returned.

    >>> sorted(flip_sets([3, 1, 1], -2.5, 1)), sorted(flip_sets([3, 1, 1], -2.5, 2))   # s = 5/2
    ([(0,)], [(0, 1), (0, 2)])
    """
    a, intercept = _check_linear(a, intercept)
    b = len(a)
    if isinstance(size, bool) or not isinstance(size, numbers.Integral):
        raise TypeError(f"size must be an integer in [1, {b}], got {type(size).__name__}")
    if not 1 <= size <= b:
        raise ValueError(f"size must be an integer in [1, {b}] (the number of positions), got {size!r}")
    u, threshold, inclusive = _signed(a, intercept)
    order, _ = _greedy(a, intercept)

    def walk(start: int, chosen: tuple[int, ...], total) -> Iterator[tuple[int, ...]]:
        left = size - len(chosen)
        if left == 0:
            if _passes(total, threshold, inclusive):
                yield tuple(sorted(chosen))
            return
        if b - start < left or not _passes(total + sum(u[j] for j in order[start:start + left]), threshold,
                                           inclusive):
            return
        yield from walk(start + 1, chosen + (order[start],), total + u[order[start]])
        yield from walk(start + 1, chosen, total)

    return walk(0, (), 0)


def minimal_flip_sets(a: Sequence, intercept) -> tuple[tuple[int, ...], ...]:
    """All M flipping sets of the minimal size k*, sorted; empty when no set flips.

    >>> minimal_flip_sets([1, 1], -1.5)     # s = 1/2: either word alone flips (and both together)
    ((0,), (1,))
    >>> minimal_flip_sets([1, 1], 1)
    ()
    """
    size = minimal_flip_size(a, intercept)
    return () if size is None else tuple(sorted(flip_sets(a, intercept, size)))


def minimal_flip_probability_sym(count, size, b, n, p):
    """1 - (1 - M p^k (1 - p)^(b - k))^n for M = ``count`` sets of k = ``size`` positions in a b-token document.

    Plain arithmetic: symbolic for sympy arguments, rational for ``Fraction`` ones. It is Lemma 2's coverage of one
    row pattern (:func:`analytic.coverage_sym` with size 1) at the per-row probability q = M p^k (1 - p)^(b - k).

    >>> import sympy as sp
    >>> sp.factor(minimal_flip_probability_sym(2, 1, 2, 1, sp.Symbol("p")))
    -2*p*(p - 1)
    >>> from fractions import Fraction
    >>> minimal_flip_probability_sym(2, 1, 2, 11, Fraction(1, 2))
    Fraction(2047, 2048)
    """
    return coverage_sym(n, count * p**size * (1 - p) ** (b - size), 1)


def minimal_flip_row_probability(a: Sequence, intercept, p):
    """q = M p^k* (1 - p)^(b - k*): the probability that one mask-sampler row is a minimal flipping set (0 if none).

    >>> from fractions import Fraction
    >>> minimal_flip_row_probability([1, 1], -1.5, Fraction(1, 2))
    Fraction(1, 2)
    """
    p = _check_p(p)
    sets = minimal_flip_sets(a, intercept)
    if not sets:
        return 0 * p
    size, b = len(sets[0]), len(a)
    return len(sets) * p**size * (1 - p) ** (b - size)


def minimal_flip_probability(a: Sequence, intercept, n: int, p):
    """P(the first counterfactual FRED reports from n mask-sampler rows has k* perturbed positions) = 1 - (1 - q)^n.

    0 when no set of positions flips the class (FRED then reports no counterfactual).

    >>> from fractions import Fraction
    >>> minimal_flip_probability([1, 1], -1.5, 11, Fraction(1, 2))
    Fraction(2047, 2048)
    >>> minimal_flip_probability([2, -1, 0], -0.5, 3, Fraction(1, 2))   # q = 1/8
    Fraction(169, 512)
    """
    n = _check_n(n)
    return coverage_sym(n, minimal_flip_row_probability(a, intercept, p), 1)


def first_counterfactual_size_distribution(a: Sequence, intercept, n: int, p) -> dict:
    """Distribution of the number of perturbed positions of FRED's first counterfactual from n rows.

    Keys are sizes j (those with a flipping set) and None (no sampled row flips, no counterfactual); values are
    (1 - sum_{i<j} Q_i)^n - (1 - sum_{i<=j} Q_i)^n and (1 - sum_j Q_j)^n, Q_j = (number of flipping sets of size
    j) p^j (1 - p)^(b - j). Enumerates the flipping sets of every size (b <= 22).

    >>> from fractions import Fraction
    >>> first_counterfactual_size_distribution([1, 1], -1.5, 1, Fraction(1, 2))
    {1: Fraction(1, 2), 2: Fraction(1, 4), None: Fraction(1, 4)}
    """
    a, intercept = _check_linear(a, intercept)
    n, p = _check_n(n), _check_p(p)
    b = len(a)
    if b > MAX_TOKENS:
        raise ValueError(f"a must have at most {MAX_TOKENS} positions to enumerate every flipping set, got {b}")
    out, missed = {}, 1 - 0 * p  # 1 in the arithmetic of p: P(a row is none of the flipping sets seen so far)
    for size in range(1, b + 1):
        count = sum(1 for _ in flip_sets(a, intercept, size))
        if count:
            row = count * p**size * (1 - p) ** (b - size)
            out[size] = missed**n - (missed - row) ** n
            missed -= row
    out[None] = missed**n
    return out


def counterfactual_sample_size(a: Sequence, intercept, alpha, p) -> int | None:
    """Smallest n with P(FRED's first counterfactual is minimal) >= alpha, i.e. (1 - q)^n <= 1 - alpha, exactly.

    Computed in rational arithmetic (floats are read as their decimal strings, as
    :func:`analytic.sample_size_rational`); None when no set of positions flips the class.

    >>> counterfactual_sample_size([1, 1], -1.5, 0.95, 0.5)    # q = 1/2: (1/2)^5 <= 1/20 < (1/2)^4
    5
    >>> counterfactual_sample_size([2, -1, 0], -0.5, 0.95, 0.5)  # q = 1/8
    23
    """
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"alpha must be a real number in (0, 1), got {type(alpha).__name__}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    q = minimal_flip_row_probability(a, intercept, _rational(_check_p(p)))
    return None if q == 0 else sample_size_rational(alpha, q, 1)
