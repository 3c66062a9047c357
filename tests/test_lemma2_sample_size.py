"""Triangulation 4: Lemma 2 -- sample size, per-candidate and joint coverage.

Exact checks use rational arithmetic (the float inputs' exact binary values);
Monte Carlo checks use Clopper-Pearson intervals at a stated delta.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from analytic import (
    binomial_identity_sym,
    coverage,
    coverage_sym,
    joint_coverage_bounds,
    joint_coverage,
    joint_coverage_monte_carlo,
    sample_size_rational,
    sample_size_numeric,
    sample_size_sym,
)
from fred import sample_size
from fred.sampling import MaskSampler


def clopper_pearson(successes: int, trials: int, delta: float) -> tuple[float, float]:
    """Exact binomial interval with coverage >= 1 - delta."""
    ci = stats.binomtest(successes, trials).proportion_ci(confidence_level=1 - delta, method="exact")
    return ci.low, ci.high


@given(st.floats(0.5, 0.999), st.integers(1, 10), st.integers(1, 15).map(lambda k: k / 16))
def test_fred_sample_size_is_minimal(alpha, max_len, p):
    """Catches an off-by-one (n - 1 already enough, or n not enough) in fred.sample_size for any p."""
    assume(sample_size_numeric(alpha, p, max_len) <= 20_000)
    exact_alpha, exact_p = Fraction(alpha), Fraction(p)  # the floats' exact values
    miss = 1 - exact_p**max_len
    ratio = math.log1p(-alpha) / math.log1p(-(p**max_len))
    assume(abs(ratio - round(ratio)) > 1e-9)  # float logs cannot decide an exact boundary
    n = sample_size(alpha, p, max_len)
    assert n == sample_size_rational(exact_alpha, exact_p, max_len), f"alpha={alpha} l={max_len} p={p}"
    assert 1 - miss**n >= exact_alpha, f"n={n} does not reach alpha={alpha} (l={max_len}, p={p})"
    assert n == 1 or 1 - miss ** (n - 1) < exact_alpha, f"n-1={n - 1} already reaches alpha={alpha}"


def test_sample_size_paper_value_and_sympy():
    """Catches a drift from the paper's n ~ 3000 (alpha = 0.95, l_max = 10, p = 1/2): exactly 3067."""
    assert sample_size(0.95, max_len=10) == 3067 == sample_size_rational(Fraction(19, 20), Fraction(1, 2), 10)
    assert sample_size_sym(sp.Rational(19, 20), sp.Rational(1, 2), 10) == 3067


@pytest.mark.parametrize("n", range(1, 16))
def test_binomial_identity_symbolic_in_q(n):
    """Catches a wrong identity sum_{k>=1} C(n,k) q^k (1-q)^(n-k) = 1 - (1-q)^n (proof of Lemma 2), q symbolic."""
    assert binomial_identity_sym(n) == 0


def test_binomial_identity_symbolic_in_n_and_q():
    """The identity with n and q both symbolic; sympy proves it for q <= 1/2 (its Piecewise), as recorded here."""
    n = sp.Symbol("n", integer=True, positive=True)
    q, k = sp.Symbol("q"), sp.Symbol("k", integer=True)
    total = sp.summation(sp.binomial(n, k) * q**k * (1 - q) ** (n - k), (k, 1, n))
    diff = sp.simplify(total - (1 - (1 - q) ** n))
    assert diff.subs(q, sp.Rational(1, 3)) == 0 and diff.subs(q, sp.Rational(1, 2)) == 0


@given(st.integers(1, 200), st.integers(1, 6), st.integers(1, 15).map(lambda k: k / 16))
def test_coverage_sympy_numpy_agree(n, size, p):
    """Catches a wrong numpy twin (log1p/expm1 form) of 1 - (1 - p^l)^n."""
    assert_allclose(coverage(n, p, size), float(coverage_sym(n, sp.Rational(Fraction(p)), size)), rtol=1e-12)


@pytest.mark.statistical
@pytest.mark.parametrize("size, p, n", [(1, 0.5, 5), (3, 0.5, 20), (2, 0.3, 30), (4, 0.7, 3)])
def test_simulated_coverage_matches_formula(size, p, n):
    """Catches fred's mask sampler perturbing with the wrong probability (e.g. 1 - p) or non-independently.

    20_000 simulated designs of n rows from fred's MaskSampler (seed 12345 + n);
    the fraction covering positions 0..l-1 must lie in the Clopper-Pearson
    interval at delta = 1e-6 must contain 1 - (1 - p^l)^n.
    """
    trials, b = 20_000, size + 2
    rng = np.random.default_rng(12345 + n)
    rows = MaskSampler().draw(b, p, trials * n, rng).perturbed.reshape(trials, n, b)
    hits = int(rows[:, :, :size].all(axis=2).any(axis=1).sum())
    low, high = clopper_pearson(hits, trials, 1e-6)
    expected = float(coverage(n, p, size))
    assert low <= expected <= high, f"l={size} p={p} n={n}: {hits}/{trials}, CI [{low:.4f}, {high:.4f}], formula {expected:.4f}"


def test_joint_coverage_falls_below_alpha():
    """Records the gap between the lemma (one candidate) and all candidates at once: b=2, l=1, n=5 gives 0.9385 < 0.95."""
    n = sample_size(0.95, 0.5, 1)
    joint = joint_coverage(2, n, 0.5, 1)
    assert n == 5
    assert_allclose(joint, (31 / 32) ** 2, rtol=1e-12)
    assert joint < 0.95 <= float(coverage(n, 0.5, 1))
    assert joint_coverage(4, sample_size(0.95, max_len=2), 0.5, 2) < 0.81  # 0.8068 with n = 11


@pytest.mark.parametrize("b, size, n, p", [(2, 1, 5, 0.5), (3, 2, 12, 0.5), (4, 2, 11, 0.5), (4, 3, 20, 0.6)])
def test_joint_coverage_within_bonferroni_bounds(b, size, n, p):
    """Catches a sign or family error in the inclusion-exclusion: it must lie between the Bonferroni bounds."""
    low, high = joint_coverage_bounds(b, n, p, size)
    joint = joint_coverage(b, n, p, size)
    assert low - 1e-12 <= joint <= high + 1e-12, f"b={b} l={size} n={n} p={p}: {low} <= {joint} <= {high}"


@pytest.mark.statistical
@pytest.mark.parametrize("b, size, n, p", [(3, 2, 12, 0.5), (4, 2, 11, 0.5)])
def test_joint_coverage_monte_carlo_matches_exact(b, size, n, p):
    """Catches a wrong exact joint coverage (or simulator): 20_000 simulations, seed 7, Clopper-Pearson at delta = 1e-6."""
    trials = 20_000
    estimate = joint_coverage_monte_carlo(b, n, p, size, n_sims=trials, rng=7)
    low, high = clopper_pearson(round(estimate * trials), trials, 1e-6)
    exact = joint_coverage(b, n, p, size)
    assert low <= exact <= high, f"b={b} l={size} n={n} p={p}: MC {estimate} CI [{low}, {high}] exact {exact}"


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
def test_sample_size_numeric_default_p_is_one_half(alpha, size):
    """Catches a wrong default p or a floor above 1: compared with the brute-force loop at p = 1/2."""
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
    assert joint_coverage_monte_carlo(2, 500, 0.5, 1, n_sims=5_000, rng=3) == 1.0


def test_sample_size_rational_reads_floats_as_decimals():
    """Catches floats read as their binary values: alpha = 0.0396 = 1 - (1 - 0.02)^2 exactly in decimals, so
    n = 2; the binary floats 0.0396 and 0.02 put the boundary on the other side (n = 3)."""
    assert sample_size_rational(0.0396, 0.02, 1) == 2
    assert sample_size_rational(Fraction(0.0396), Fraction(0.02), 1) == 3
