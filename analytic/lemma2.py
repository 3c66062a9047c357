"""Lemma 2 for any p: sample size, per-candidate coverage, and joint coverage of all candidates.

A candidate of size l is entirely perturbed in one row with probability
q = p^l, so at least one of n i.i.d. rows covers it with probability

    1 - (1 - q)^n = sum_{k=1}^n C(n, k) q^k (1 - q)^(n - k),

and the smallest n reaching alpha is ceil(log(1 - alpha) / log(1 - p^l)). The
lemma (and FRED's default n) is about one candidate at a time. The probability
that *every* candidate of size <= l_max of a b-token document is covered at
once is smaller: e.g. b = 2, l_max = 1, p = 1/2, alpha = 0.95 gives n = 5 and a
joint coverage (1 - 2^-5)^2 = 0.9385 < 0.95. For b >= l_max a row covering a
set covers its subsets, so covering all size-l_max sets covers all smaller ones.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from .patterns import code_of


def _rational(x) -> Fraction:
    return Fraction(str(x)) if isinstance(x, float) else Fraction(x)


def sample_size_rational(alpha, p, max_len: int) -> int:
    """Smallest n with (1 - p^l)^n <= 1 - alpha, in rational arithmetic.

    Floats are read as their decimal strings (0.95 -> 19/20).

    >>> sample_size_rational(0.95, Fraction(1, 2), 10), sample_size_rational(0.95, 0.5, 1)
    (3067, 5)
    """
    alpha, p = _rational(alpha), _rational(p)
    miss = 1 - p**max_len
    guess = int(sp.ceiling(sp.log(sp.Rational(1 - alpha)) / sp.log(sp.Rational(miss))).evalf(50))
    n = max(1, guess)
    while n > 1 and miss ** (n - 1) <= 1 - alpha:
        n -= 1
    while miss**n > 1 - alpha:
        n += 1
    return n


def sample_size_sym(alpha, p, max_len) -> sp.Expr:
    """Sympy ceiling(log(1 - alpha) / log(1 - p^l)) (symbols allowed).

    >>> sample_size_sym(sp.Rational(19, 20), sp.Rational(1, 2), 10)
    3067
    """
    return sp.ceiling(sp.log(1 - alpha) / sp.log(1 - p**max_len))


def sample_size_numeric(alpha: float, p: float, max_len: int) -> int:
    """Floating-point twin ceil(log1p(-alpha) / log1p(-p^l)) (may be one off where the quotient is an integer).

    >>> sample_size_numeric(0.95, 0.5, 10)
    3067
    """
    return max(1, math.ceil(math.log1p(-alpha) / math.log1p(-(p**max_len))))


def coverage_sym(n, p, size):
    """1 - (1 - p^l)^n: one candidate of size l is covered by some of n rows.

    Plain arithmetic, so it is symbolic for sympy arguments and rational for ``Fraction`` ones.

    >>> coverage_sym(5, sp.Rational(1, 2), 1)
    31/32
    >>> coverage_sym(5, Fraction(1, 2), 1)
    Fraction(31, 32)
    """
    return 1 - (1 - p**size) ** n


def coverage(n, p, size) -> np.ndarray | float:
    """Numpy twin of :func:`coverage_sym`: -expm1(n log1p(-p^l)).

    >>> float(coverage(5, 0.5, 1))
    0.96875
    """
    return -np.expm1(np.asarray(n, float) * np.log1p(-np.asarray(p, float) ** np.asarray(size, float)))


def binomial_identity_sym(n: int, q=None) -> sp.Expr:
    """sum_{k=1}^n C(n,k) q^k (1-q)^(n-k) - (1 - (1-q)^n), expanded (zero: the proof's identity).

    >>> binomial_identity_sym(7)
    0
    """
    q = sp.Symbol("q") if q is None else q
    k = sp.Symbol("k", integer=True)
    total = sp.summation(sp.binomial(n, k) * q**k * (1 - q) ** (n - k), (k, 1, n))
    return sp.expand(total - (1 - (1 - q) ** n))


def _targets(b: int, max_len: int) -> np.ndarray:
    if not 1 <= max_len <= b:
        raise ValueError(f"max_len must lie in [1, b={b}], got {max_len}")
    return np.array([code_of(s) for s in itertools.combinations(range(b), max_len)], dtype=np.int64)


def joint_coverage(b: int, n: int, p, max_len: int):
    """P(every position set of size <= max_len is perturbed in some of n rows), by inclusion-exclusion.

    Sum over families F of size-max_len sets of (-1)^|F| (1 - P(a row covers a set of F))^n,
    with P(a row covers ...) summed over all 2^b patterns; at most 16 target sets
    (C(b, max_len) <= 16). Rational when p is a ``Fraction``.

    >>> round(joint_coverage(2, 5, 0.5, 1), 6)   # (31/32)^2
    0.938477
    >>> joint_coverage(2, 5, Fraction(1, 2), 1)
    Fraction(961, 1024)
    """
    targets = [int(t) for t in _targets(b, max_len)]
    if len(targets) > 16:
        raise ValueError(f"inclusion-exclusion over {len(targets)} target sets is too large (at most 16)")
    weights = [p ** bin(c).count("1") * (1 - p) ** (b - bin(c).count("1")) for c in range(2**b)]
    hits = [[c & t == t for t in targets] for c in range(2**b)]  # pattern c covers target t
    total = 0
    for r in range(len(targets) + 1):
        for family in itertools.combinations(range(len(targets)), r):
            u = sum(w for w, row in zip(weights, hits) if any(row[j] for j in family))
            total += (-1) ** r * (1 - u) ** n
    return total


def joint_coverage_one_out(b: int, n: int, p):
    """P(every set of b - 1 of the b positions is perturbed in some of n rows): joint coverage at max_len = b - 1,
    in closed form, for any b (no enumeration of the 2^b patterns).

    The b target sets are the complements of one position j; a row covers the complement of j iff it perturbs
    every position but (possibly) j, so a row covers some target of a family of r >= 1 of them with probability
    u_r = p^b + r p^(b-1) (1 - p) (and u_0 = 0), and by inclusion-exclusion over the families (C(b, r) of size r)

        P = 1 + sum_{r=1}^{b} (-1)^r C(b, r) (1 - u_r)^n.

    Rational when p is a ``Fraction``.

    >>> joint_coverage_one_out(2, 5, Fraction(1, 2)) == joint_coverage(2, 5, Fraction(1, 2), 1)
    True
    """
    if b < 2:
        raise ValueError(f"b must be >= 2 (a target set of b - 1 >= 1 positions), got {b}")
    return 1 + sum((-1) ** r * math.comb(b, r) * (1 - p**b - r * p ** (b - 1) * (1 - p)) ** n
                   for r in range(1, b + 1))


def joint_coverage_blocks(b: int, n: int, p, max_len: int):
    """An upper bound on the joint coverage of the size-max_len sets of a b-token document: the probability that the
    floor(b / max_len) disjoint blocks of max_len consecutive positions are each perturbed in some of n rows,

        (1 - (1 - p^max_len)^n)^floor(b / max_len),

    exact because disjoint blocks read disjoint, independent coordinates of the rows; covering every set covers the
    blocks, hence the bound. Rational when p is a ``Fraction``.

    >>> joint_coverage_blocks(4, 5, Fraction(1, 2), 2) == (1 - Fraction(3, 4) ** 5) ** 2
    True
    """
    if not 1 <= max_len <= b:
        raise ValueError(f"max_len must lie in [1, b={b}], got {max_len}")
    return (1 - (1 - p**max_len) ** n) ** (b // max_len)


def joint_coverage_monte_carlo(b: int, n: int, p: float, max_len: int, *, n_sims: int, rng) -> float:
    """Fraction of ``n_sims`` simulated designs of n rows covering every set of size <= max_len."""
    rng = np.random.default_rng(rng)
    targets = _targets(b, max_len)
    weights = 1 << np.arange(b)
    hits = 0
    chunk = max(1, 2_000_000 // max(1, n * len(targets)))
    for start in range(0, n_sims, chunk):
        m = min(chunk, n_sims - start)
        codes = (rng.random((m, n, b)) < p) @ weights
        covered = ((codes[:, :, None] & targets) == targets).any(axis=1)
        hits += int(covered.all(axis=1).sum())
    return hits / n_sims


def joint_coverage_bounds(b: int, n: int, p: float, max_len: int) -> tuple[float, float]:
    """Bonferroni bounds (max(0, 1 - T (1 - p^l)^n), 1 - (1 - p^l)^n) with T = C(b, l) target sets.

    >>> [round(x, 6) for x in joint_coverage_bounds(2, 5, 0.5, 1)]
    [0.9375, 0.96875]
    """
    miss = (1 - p**max_len) ** n
    return max(0.0, 1 - math.comb(b, max_len) * miss), 1 - miss


def joint_coverage_upper_bound(b: int, n: int, p: float, max_len: int) -> float:
    """Chebyshev (second moment) upper bound on P(all size-max_len candidates covered).

    X = number of uncovered size-l sets; P(X = 0) <= Var X / (E X)^2. Two sets
    with |A & B| = i are both missed by a row with probability 1 - 2 p^l + p^(2l - i).
    Computed with 80-digit arithmetic because Var X is a small difference of huge terms.

    >>> joint_coverage_upper_bound(2, 5, 0.5, 1) >= joint_coverage(2, 5, 0.5, 1)
    True
    """
    with mpmath.workdps(80):
        q = mpmath.mpf(p) ** max_len
        n_sets = mpmath.mpf(math.comb(b, max_len))
        ex = n_sets * (1 - q) ** n
        ex2 = mpmath.mpf(0)
        for i in range(0, max_len + 1):
            pairs = n_sets * math.comb(max_len, i) * math.comb(b - max_len, max_len - i)
            ex2 += pairs * (1 - 2 * q + mpmath.mpf(p) ** (2 * max_len - i)) ** n
        return float(min(1, (ex2 - ex**2) / ex**2)) if ex > 0 else 1.0


def covers(alpha, n: int, p, max_len: int) -> bool:
    """Whether (1 - p^l)^n <= 1 - alpha, decided exactly for the exact values of alpha and p.

    Floats are read as their binary values (``Fraction(0.95)``); Fractions as they are. In rational arithmetic for n <= 400; above, n log(1 - p^l) - log(1 - alpha) is
    enclosed in a 400-bit interval (mpmath's interval arithmetic, outward rounding) and the sign
    is read off the interval when it excludes 0, otherwise decided in rational arithmetic.

    >>> covers(0.95, 5, 0.5, 1), covers(0.95, 4, 0.5, 1)
    (True, False)
    >>> covers(Fraction(3, 4), 2, Fraction(1, 2), 1)   # equality counts as covered
    True
    """
    alpha, p = Fraction(alpha), Fraction(p)
    if n <= 400:
        return coverage_sym(n, p, max_len) >= alpha
    iv = mpmath.iv
    saved = iv.prec
    try:
        iv.prec = 400
        q = (iv.mpf(p.numerator) / p.denominator) ** max_len
        gap = n * iv.log(1 - q) - iv.log(1 - iv.mpf(alpha.numerator) / alpha.denominator)
        if gap.b < 0:  # the whole enclosure is negative: (1 - q)^n < 1 - alpha
            return True
        if gap.a > 0:
            return False
    finally:
        iv.prec = saved
    return coverage_sym(n, p, max_len) >= alpha


def _all_targets(b: int, max_len: int) -> list[int]:
    """Codes of the non-empty position sets of size <= max_len of a b-token document."""
    if not 1 <= b or not 1 <= max_len:
        raise ValueError(f"b and max_len must be >= 1, got b={b}, max_len={max_len}")
    return [code_of(s) for r in range(1, min(max_len, b) + 1) for s in itertools.combinations(range(b), r)]


def joint_candidate_sizes(b: int, max_len: int) -> list[int]:
    """Sizes of the candidates :func:`joint_coverage_all_sizes` quantifies over (every non-empty position set of
    size <= max_len of a b-token document), so that a caller can check them against a statement's hypotheses.

    >>> joint_candidate_sizes(3, 2)
    [1, 1, 1, 2, 2, 2]
    """
    return [bin(t).count("1") for t in _all_targets(b, max_len)]


def joint_coverage_all_sizes(b: int, n: int, p, max_len: int):
    """P(every non-empty position set of size <= max_len is perturbed in some of n rows), any max_len >= 1.

    Computed row by row, without inclusion-exclusion: the state after k rows is the set of candidates
    already covered (a bitmask over the candidates), and one row with pattern ``code`` adds every
    candidate contained in ``code``; the distribution of the state is propagated through n rows.
    Unlike :func:`joint_coverage`, ``max_len`` may exceed b (then the candidates are all non-empty
    subsets of the document). Rational when p is a ``Fraction``. At most 31 candidates (b <= 5).

    >>> joint_coverage_all_sizes(2, 5, Fraction(1, 2), 1)
    Fraction(961, 1024)
    >>> joint_coverage_all_sizes(2, 3, Fraction(1, 2), 4) == 1 - (1 - Fraction(1, 4)) ** 3   # the whole document
    True
    """
    targets = _all_targets(b, max_len)
    if len(targets) > 31:
        raise ValueError(f"{len(targets)} candidates: too many states for the row-by-row computation (at most 31)")
    row = {}  # covered-candidates mask of one row -> probability of the row's patterns giving that mask
    for code in range(2**b):
        k = bin(code).count("1")
        mask = sum(1 << j for j, t in enumerate(targets) if code & t == t)
        row[mask] = row.get(mask, 0) + p**k * (1 - p) ** (b - k)
    scale = 1
    if isinstance(p, Fraction):  # integer weights over a common denominator: exact and much faster
        scale = math.lcm(*(Fraction(w).denominator for w in row.values()))
        row = {mask: int(w * scale) for mask, w in row.items()}
    state = {0: 1}
    for _ in range(n):
        nxt: dict[int, object] = {}
        for covered, prob in state.items():
            for mask, w in row.items():
                key = covered | mask
                nxt[key] = nxt.get(key, 0) + prob * w
        state = nxt
    full = state.get((1 << len(targets)) - 1, 0)
    return Fraction(full, scale**n) if isinstance(p, Fraction) else float(full)
