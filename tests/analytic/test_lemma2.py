"""Lemma 2's closed forms (analytic/lemma2.py): sample size, per-candidate and joint coverage.

Exact checks use rational arithmetic (the float inputs' exact binary values);
Monte Carlo checks use Clopper-Pearson intervals at a stated delta.
fred.sample_size and FRED's sampler against the lemma: tests/claims/test_lemma2.py.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from analytic.lemma2 import joint_coverage_blocks, joint_coverage_one_out
from analytic import (
    binomial_identity_sym,
    coverage,
    coverage_sym,
    covers,
    joint_coverage,
    joint_coverage_all_sizes,
    joint_coverage_bounds,
    joint_coverage_monte_carlo,
    joint_coverage_upper_bound,
    sample_size_numeric,
    sample_size_rational,
)
from proofs_checks.statistics.seeds import statistical_seed
from tests._helpers import clopper_pearson


@pytest.mark.parametrize("n", range(1, 16))
def test_binomial_identity_symbolic_in_q(n):
    """Catches a wrong identity sum_{k>=1} C(n,k) q^k (1-q)^(n-k) = 1 - (1-q)^n (proof of Lemma 2), q symbolic."""
    assert binomial_identity_sym(n) == 0


def test_binomial_identity_symbolic_in_n_and_q():
    """Catches the proof's binomial identity holding only for the n checked one by one above (n <= 15): with n
    and q both symbolic, sympy proves it for q <= 1/2 (its Piecewise), as recorded here."""
    n = sp.Symbol("n", integer=True, positive=True)
    q, k = sp.Symbol("q"), sp.Symbol("k", integer=True)
    total = sp.summation(sp.binomial(n, k) * q**k * (1 - q) ** (n - k), (k, 1, n))
    diff = sp.simplify(total - (1 - (1 - q) ** n))
    assert diff.subs(q, sp.Rational(1, 3)) == 0 and diff.subs(q, sp.Rational(1, 2)) == 0


@given(st.integers(1, 200), st.integers(1, 6), st.integers(1, 15).map(lambda k: k / 16))
def test_coverage_sympy_numpy_agree(n, size, p):
    """Catches a wrong numpy twin (log1p/expm1 form) of 1 - (1 - p^l)^n: against the sympy form and against
    1 - (1 - p^l)^n in Fractions here (p = k/16 is exact in binary)."""
    exact = 1 - (1 - Fraction(p) ** size) ** n
    assert_allclose(coverage(n, p, size), float(coverage_sym(n, sp.Rational(Fraction(p)), size)), rtol=1e-12)
    assert_allclose(coverage(n, p, size), float(exact), rtol=1e-12)

@pytest.mark.parametrize("b, size, n, p", [(2, 1, 5, 0.5), (3, 2, 12, 0.5), (4, 2, 11, 0.5), (4, 3, 20, 0.6)])
def test_joint_coverage_within_bonferroni_bounds(b, size, n, p):
    """Catches a sign or family error in the inclusion-exclusion: it must lie between the Bonferroni bounds
    max(0, 1 - C(b, l) (1 - p^l)^n) and 1 - (1 - p^l)^n, computed here in Fractions (and joint_coverage_bounds
    must return them)."""
    miss = (1 - Fraction(p) ** size) ** n
    low, high = max(Fraction(0), 1 - math.comb(b, size) * miss), 1 - miss
    assert_allclose(joint_coverage_bounds(b, n, p, size), [float(low), float(high)], rtol=1e-12, atol=1e-15)
    joint = joint_coverage(b, n, p, size)
    assert low - 1e-12 <= joint <= high + 1e-12, f"b={b} l={size} n={n} p={p}: {low} <= {joint} <= {high}"


@pytest.mark.statistical
@pytest.mark.parametrize("b, size, n, p", [(3, 2, 12, 0.5), (4, 2, 11, 0.5)])
def test_joint_coverage_monte_carlo_matches_exact(b, size, n, p):
    """Catches a wrong exact joint coverage (or simulator): 20_000 simulations, seed statistical_seed(7), Clopper-Pearson at delta = 1e-6."""
    trials = 20_000
    estimate = joint_coverage_monte_carlo(b, n, p, size, n_sims=trials, rng=statistical_seed(7))
    low, high = clopper_pearson(round(estimate * trials), trials, 1e-6)
    exact = joint_coverage(b, n, p, size)
    assert low <= exact <= high, f"b={b} l={size} n={n} p={p}: MC {estimate} CI [{low}, {high}] exact {exact}"


def test_covers_agrees_with_fractions_on_both_branches_and_at_exact_boundaries():
    """Catches covers deciding in floats (wrong at exact boundaries), '>' for '>=', alpha and p read as decimals
    instead of their binary values, or its 80-digit branch for n > 400 with the inequality reversed or a wrong
    logarithm: compared with 1 - (1 - p^l)^n >= alpha computed here in Fractions of the floats' binary values,
    for n around the boundary and around 400."""
    grid = [(0.95, 0.5, 10), (0.99, 0.3, 5), (0.5, 0.25, 5), (0.96, 0.5, 7), (0.9, 0.9, 1), (0.8, 0.7, 3),
            (0.999, 0.1, 2),
            (0.0396, 0.02, 1)]  # 0.0396 = 1 - 0.98^2 in decimals: n = 2 would cover; in binary n = 2 does not
    checked_above_400 = 0
    for alpha, p, max_len in grid:
        n0 = math.ceil(math.log1p(-alpha) / math.log1p(-(p**max_len)))  # only picks the n to check
        for n in sorted({n0 - 2, n0 - 1, n0, n0 + 1, n0 + 2, 399, 400, 401, 402} - {0, -1}):
            want = 1 - (1 - Fraction(p) ** max_len) ** n >= Fraction(alpha)
            assert covers(alpha, n, p, max_len) == want, (alpha, n, p, max_len, want)
            checked_above_400 += n > 400
    assert checked_above_400 >= 20
    # alpha = 1 - (1 - p^l)^n exactly in binary: covered with equality at n, not at n - 1 nor one ulp above alpha
    for alpha, n, p, max_len in [(0.75, 2, 0.5, 1), (0.9921875, 7, 0.5, 1), (0.7626953125, 5, 0.5, 2),
                                 (0.487091064453125, 5, 0.5, 3)]:
        assert 1 - (1 - Fraction(p) ** max_len) ** n == Fraction(alpha)
        assert covers(alpha, n, p, max_len), (alpha, n, p, max_len)
        assert not covers(alpha, n - 1, p, max_len), (alpha, n - 1, p, max_len)
        assert not covers(float(np.nextafter(alpha, 1.0)), n, p, max_len), (alpha, n, p, max_len)


def test_coverage_sym_of_fractions_is_the_exact_fraction():
    """Catches coverage_sym leaving exact arithmetic on Fraction input (a float or sympy result, p^l for p^n),
    or a wrong formula: the result must be the Fraction 1 - (1 - p^l)^n, built here by repeated multiplication."""
    for n, p, size in [(5, Fraction(1, 2), 1), (3, Fraction(1, 3), 2), (7, Fraction(9, 10), 3), (1, Fraction(2, 5), 4),
                       (40, Fraction(1, 20), 1), (12, Fraction(3, 4), 5)]:
        q = Fraction(1)
        for _ in range(size):
            q *= p
        miss = Fraction(1)
        for _ in range(n):
            miss *= 1 - q
        got = coverage_sym(n, p, size)
        assert isinstance(got, Fraction) and got == 1 - miss, (n, p, size, got)


def test_joint_coverage_upper_bound_is_above_the_exact_joint_coverage():
    """Catches a second-moment bound that is not an upper bound (a wrong pair count C(l, i) C(b - l, l - i) or a
    wrong pair miss probability 1 - 2 p^l + p^(2l - i) makes it too small) or that is not clipped at 1: on
    every b <= 5, l <= b, it must lie between the exact joint coverage (inclusion-exclusion in Fractions)
    and 1."""
    for b in range(1, 6):
        for max_len in range(1, b + 1):
            for n in (1, 2, 5, 11, 30):
                for p in (Fraction(1, 4), Fraction(1, 2), Fraction(7, 10)):
                    bound = joint_coverage_upper_bound(b, n, float(p), max_len)
                    exact = joint_coverage(b, n, p, max_len)
                    assert exact <= Fraction(bound) <= 1, (b, max_len, n, p, bound, float(exact))


@pytest.mark.parametrize("n, p", [(1, Fraction(1, 2)), (2, Fraction(1, 5)), (3, Fraction(1, 10)), (5, Fraction(1, 2))])
def test_joint_coverage_upper_bound_on_two_singletons_by_hand(n, p):
    """Catches a wrong second moment on the smallest case (Var X read as E X^2, or a pair miss probability
    without the p^(2l - i) term), and a missing clip: b = 2, l = 1, the targets {0} and {1}. By hand, with
    m = (1 - p)^n: E X = 2m, E X^2 = E X + 2 (1 - p)^(2n) (both singletons missed: no row perturbs either),
    so the bound is min(1, Var X / (E X)^2); the last case exceeds 1 (31/2) and is clipped."""
    m = (1 - p) ** n
    ex = 2 * m
    ex2 = ex + 2 * ((1 - p) ** 2) ** n
    want = min(Fraction(1), (ex2 - ex**2) / ex**2)
    assert_allclose(joint_coverage_upper_bound(2, n, float(p), 1), float(want), rtol=1e-12)


# --------------------------------------------------------------------------- edges mutation testing found


def smallest_n_by_loop(alpha: Fraction, size: int, p: Fraction) -> int:
    """Brute force: count n up until (1 - p^l)^n <= 1 - alpha, in exact rationals."""
    n, miss = 1, 1 - p**size
    while miss**n > 1 - alpha:
        n += 1
    return n


@pytest.mark.parametrize("size, p", [(1, Fraction(1, 2)), (2, Fraction(1, 3)), (3, Fraction(3, 4))])
@pytest.mark.parametrize("k", [1, 2, 3, 8])
def test_sample_size_rational_on_exact_boundaries(size, p, k):
    """Catches ``>=`` for ``>`` in the final search: with 1 - alpha = (1 - p^l)^k exactly, n = k (not k + 1)."""
    alpha = 1 - (1 - p**size) ** k
    assert sample_size_rational(alpha, p, size) == k == smallest_n_by_loop(alpha, size, p)


@pytest.mark.parametrize("alpha, size", [(0.25, 1), (0.5, 1), (0.9, 2), (0.95, 3), (0.99, 5)])
def test_sample_size_numeric_at_one_half_matches_the_loop(alpha, size):
    """Catches a floor above 1 or p and max_len swapped (p is no longer defaulted: the argument order is
    (alpha, p, max_len) everywhere): compared with the brute-force loop at p = 1/2."""
    assert sample_size_numeric(alpha, 0.5, size) == smallest_n_by_loop(Fraction(str(alpha)), size, Fraction(1, 2))


@pytest.mark.parametrize("b", [1, 2, 3])
def test_joint_coverage_with_one_target_is_per_candidate_coverage(b):
    """Catches refusing max_len = b: the only target is the whole document, covered w.p. 1 - (1 - p^b)^n."""
    p, n = Fraction(2, 5), 4
    assert joint_coverage(b, n, p, b) == 1 - (1 - p**b) ** n
    for bad in (0, b + 1):
        with pytest.raises(ValueError, match="max_len must lie in"):
            joint_coverage(b, n, p, bad)


def test_joint_coverage_refuses_more_than_16_targets():
    """Catches a bound that lets the 2^T inclusion-exclusion run on 17 targets (it would not finish)."""
    with pytest.raises(ValueError, match="17 target sets"):
        joint_coverage(17, 5, 0.5, 1)


@pytest.mark.parametrize("n", [2, 3, 10])  # n >= 2 keeps the lower bound above its clip at 0
def test_bonferroni_bounds_are_tight_on_two_singletons(n):
    """Catches a wrong bound formula: for b = 2, l = 1 the gaps are exactly (1-p)^(2n) and (1-p)^n - (1-p)^(2n)."""
    p = Fraction(1, 3)
    low, high = joint_coverage_bounds(2, n, p, 1)
    joint = joint_coverage(2, n, p, 1)
    assert joint == (1 - (1 - p) ** n) ** 2  # two independent singletons, each covered w.p. 1 - (1 - p)^n
    assert joint - low == (1 - p) ** (2 * n)
    assert high - joint == (1 - p) ** n - (1 - p) ** (2 * n)


def test_joint_coverage_monte_carlo_is_reproducible_from_its_seed():
    """Catches a simulator that ignores the seed it is given (same seed twice must agree; a simulator drawing
    fresh entropy passes only if two estimates out of 20_000 designs coincide, probability about 0.004)."""
    runs = [joint_coverage_monte_carlo(3, 6, 0.5, 2, n_sims=20_000, rng=seed) for seed in (11, 11, 12)]
    assert runs[0] == runs[1] != runs[2]


@pytest.mark.statistical
def test_joint_coverage_monte_carlo_counts_every_simulation_across_chunks():
    """Catches lost or double-counted simulations between chunks (5000 designs, chunks of 2000).

    b = 2, l = 1, n = 500, p = 1/2: a design misses a target w.p. <= 2 * 2^-500, so all 5000
    designs cover (false alarm <= 1e4 * 2^-500 < 1e-140) and the estimate must be exactly 1.
    """
    assert joint_coverage_monte_carlo(2, 500, 0.5, 1, n_sims=5_000, rng=statistical_seed(3)) == 1.0


def test_sample_size_rational_reads_floats_as_decimals():
    """Catches floats read as their binary values: alpha = 0.0396 = 1 - (1 - 0.02)^2 exactly in decimals, so
    n = 2; the binary floats 0.0396 and 0.02 put the boundary on the other side (n = 3)."""
    assert sample_size_rational(0.0396, 0.02, 1) == 2
    assert sample_size_rational(Fraction(0.0396), Fraction(0.02), 1) == 3


# --------------------------------------------------------------------------- joint_coverage_all_sizes, covers


def joint_by_enumerating_designs(b: int, n: int, p: Fraction, max_len: int) -> Fraction:
    """Brute force: every design of n rows (each a b-bit pattern), its probability in Fractions, and whether every
    non-empty position set of size <= max_len is inside some row."""
    targets = [sum(1 << i for i in s) for r in range(1, min(max_len, b) + 1)
               for s in itertools.combinations(range(b), r)]
    weight = [p ** bin(c).count("1") * (1 - p) ** (b - bin(c).count("1")) for c in range(2**b)]
    total = Fraction(0)
    for design in itertools.product(range(2**b), repeat=n):
        if all(any(row & t == t for row in design) for t in targets):
            w = Fraction(1)
            for row in design:
                w *= weight[row]
            total += w
    return total



@pytest.mark.parametrize("b, n, max_len", [(1, 3, 1), (1, 2, 4), (2, 3, 1), (2, 4, 2), (2, 3, 5), (3, 2, 1),
                                           (3, 3, 2), (3, 2, 3), (3, 2, 6), (4, 2, 2)])
@pytest.mark.parametrize("p", [Fraction(1, 2), Fraction(1, 3), Fraction(4, 5)])
def test_joint_coverage_all_sizes_against_every_design(b, n, max_len, p):
    """Catches a wrong row-by-row propagation (a row adding candidates it does not contain, a lost state, the
    common-denominator scaling applied n - 1 times) or candidates of size < max_len left out: compared with the
    sum over all (2^b)^n designs in Fractions, including max_len > b (all subsets of the document)."""
    assert joint_coverage_all_sizes(b, n, p, max_len) == joint_by_enumerating_designs(b, n, p, max_len)


def test_joint_coverage_all_sizes_agrees_with_inclusion_exclusion_and_floats():
    """Catches a disagreement between the two exact methods for max_len <= b (a size-max_len set's subsets are
    covered with it), and a float path that differs from the rational one."""
    for b in range(1, 5):
        for max_len in range(1, b + 1):
            for n in (1, 4, 9):
                p = Fraction(3, 10)
                exact = joint_coverage_all_sizes(b, n, p, max_len)
                assert exact == joint_coverage(b, n, p, max_len), (b, max_len, n)
                assert_allclose(joint_coverage_all_sizes(b, n, 0.3, max_len), float(exact), rtol=1e-12)
    assert joint_coverage_all_sizes(3, 4, Fraction(1, 2), 3) == 1 - (1 - Fraction(1, 8)) ** 4


def test_joint_coverage_all_sizes_refuses_bad_arguments():
    """Catches an unbounded state space (b = 6 has 63 candidates) and max_len or b below 1 accepted."""
    with pytest.raises(ValueError, match="too many states"):
        joint_coverage_all_sizes(6, 2, Fraction(1, 2), 6)
    for b, max_len in ((0, 1), (2, 0)):
        with pytest.raises(ValueError, match="must be >= 1"):
            joint_coverage_all_sizes(b, 2, Fraction(1, 2), max_len)


def test_covers_interval_branch_agrees_with_fractions_around_every_boundary():
    """Catches covers deciding in floats, '>' for '>=', floats read as decimals instead of their binary
    values, or its interval branch (n > 400) with the sign read the wrong way: compared with
    1 - (1 - p^l)^n >= alpha in Fractions of the exact inputs, around each boundary and around n = 400."""
    grid = [(0.95, 0.5, 10), (0.99, 0.3, 5), (0.5, 0.25, 5), (0.96, 0.5, 7), (0.9, 0.9, 1), (0.999, 0.1, 2),
            (0.0396, 0.02, 1), (Fraction(19, 20), Fraction(1, 10), 3)]
    above_400 = 0
    for alpha, p, max_len in grid:
        n0 = math.ceil(math.log1p(-float(alpha)) / math.log1p(-(float(p) ** max_len)))  # only picks the n to check
        for n in sorted({n0 - 2, n0 - 1, n0, n0 + 1, n0 + 2, 399, 400, 401, 402} - {0, -1}):
            want = 1 - (1 - Fraction(p) ** max_len) ** n >= Fraction(alpha)
            assert covers(alpha, n, p, max_len) == want, (alpha, n, p, max_len, want)
            above_400 += n > 400
    assert above_400 >= 20
    # alpha = 1 - (1 - p^l)^n exactly, with n > 400: the interval contains 0 and the rational fallback decides
    p, max_len, n = Fraction(1, 2), 9, 401
    alpha = 1 - (1 - p**max_len) ** n
    assert covers(alpha, n, p, max_len) and not covers(alpha, n - 1, p, max_len)
    assert not covers(alpha + Fraction(1, 10**200), n, p, max_len)


def _all_covered_by_designs(b: int, n: int, p: Fraction, size: int) -> Fraction:
    """P(every size-``size`` position set is perturbed in some of n rows), by summing over all (2^b)^n designs:
    the tests' own enumeration, with no inclusion-exclusion and no row-by-row state."""
    targets = [sum(1 << i for i in s) for s in itertools.combinations(range(b), size)]
    weight = {c: p ** bin(c).count("1") * (1 - p) ** (b - bin(c).count("1")) for c in range(2**b)}
    total = Fraction(0)
    for design in itertools.product(range(2**b), repeat=n):
        if all(any(c & t == t for c in design) for t in targets):
            total += math.prod(weight[c] for c in design)
    return total


@pytest.mark.parametrize("b, n, p", [(2, 1, Fraction(1, 2)), (2, 3, Fraction(1, 2)), (3, 2, Fraction(1, 2)),
                                     (3, 3, Fraction(1, 3)), (4, 2, Fraction(2, 3))])
def test_joint_coverage_one_out_against_every_design(b, n, p):
    """Catches a wrong closed form for the b - 1 sets (a wrong u_r: e.g. forgetting the row that perturbs all b
    positions, or a sign): it equals the sum over every design of n rows, and the inclusion-exclusion over the
    patterns (joint_coverage) and the row-by-row distribution (joint_coverage_all_sizes) agree with it."""
    value = joint_coverage_one_out(b, n, p)
    assert value == _all_covered_by_designs(b, n, p, b - 1)
    assert value == joint_coverage(b, n, p, b - 1) == joint_coverage_all_sizes(b, n, p, b - 1)


@pytest.mark.parametrize("b, size", [(2, 1), (3, 1), (4, 2), (4, 1), (5, 2), (5, 3)])
def test_joint_coverage_blocks_is_an_upper_bound_and_exact_for_disjoint_blocks(b, size):
    """Catches a block bound below the joint coverage (it would hide a failure) or a wrong block count: at p = 1/2,
    n = 1..4, the bound is >= the row-by-row joint coverage, and equals the probability, by enumeration of the
    designs, that the floor(b/size) disjoint blocks are all covered."""
    p = Fraction(1, 2)
    blocks = [sum(1 << i for i in range(k * size, (k + 1) * size)) for k in range(b // size)]
    for n in range(1, 5 if b <= 4 else 3):
        bound = joint_coverage_blocks(b, n, p, size)
        assert bound >= joint_coverage_all_sizes(b, n, p, size)
        weight = {c: p ** bin(c).count("1") * (1 - p) ** (b - bin(c).count("1")) for c in range(2**b)}
        by_designs = sum(math.prod(weight[c] for c in design) for design in itertools.product(range(2**b), repeat=n)
                         if all(any(c & t == t for c in design) for t in blocks))
        assert bound == by_designs
