"""Claim lemma2 (proofs_checks/claims/lemma2.py, verdict holds-under-conditions): the paper's n is the p = 1/2
case; fred.sample_size is the minimal n for any p (Lemma 2 in general form); the guarantee is per candidate,
not for all candidates at once.

Exact checks use rational arithmetic (the float inputs' exact binary values);
Monte Carlo checks use Clopper-Pearson intervals at a stated delta.
The closed forms themselves: tests/analytic/test_lemma2.py.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from analytic import coverage, joint_coverage, sample_size_numeric, sample_size_rational, sample_size_sym
from fred import sample_size
from fred.sampling import MaskSampler
from tests._helpers import clopper_pearson


def test_lemma2_paper_n_is_too_small_for_p_below_half():
    """Lemma 2 with 1/2**l_max used at p = 0.05 (l_max = 1, alpha = 0.95): n = 5 rows cover a token with
    probability 1 - 0.95**5 = 0.226 < 0.95. Catches a report that calls the p = 1/2 formula general."""
    n = math.ceil(math.log(0.05) / math.log(1 - 0.5))
    assert n == 5
    assert 1 - (1 - Fraction(1, 20)) ** 5 == Fraction(723901, 3200000) < Fraction(95, 100)


def test_lemma2_all_candidates_at_once_by_brute_force():
    """Section 2.3's joint reading fails: b = 2, l_max = 1, p = 1/2, n = 5. Enumerating all 2**10 designs
    (5 rows x 2 positions), both positions are perturbed somewhere with probability 961/1024 < 0.95."""
    good = sum(
        all(any(design[2 * r + j] for r in range(5)) for j in range(2))
        for design in itertools.product([0, 1], repeat=10)
    )
    assert Fraction(good, 1024) == Fraction(961, 1024) < Fraction(95, 100)


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


def test_sample_size_is_minimal_at_exact_boundaries():
    """Regression: sample_size(0.99, 0.9, 1) returned 3 because 2*log(0.1) rounds above log(0.01); two rows
    already give coverage 1 - 0.1**2 >= 0.99 for the binary floats 0.9 and 0.99 (found by the lemma2 claim)."""
    from fractions import Fraction

    assert sample_size(0.99, 0.9, 1) == 2
    assert 1 - (1 - Fraction(0.9)) ** 2 >= Fraction(0.99)
    assert sample_size(0.75, 0.5, 1) == 2  # (1/2)**2 == 1 - 0.75 exactly: ">=" must accept equality
    assert sample_size(0.95, max_len=10) == 3067  # the paper's n ~ 3000
    # Exact boundaries where 50-digit logarithms get the sign of the gap wrong (about +1e-50): only the exact
    # rational comparison returns n rather than n + 1. alpha = 1 - (1 - p^l)^n exactly in binary.
    for alpha, size, p, n in [(0.9921875, 1, 0.5, 7), (0.7626953125, 2, 0.5, 5), (0.487091064453125, 3, 0.5, 5)]:
        assert 1 - (1 - Fraction(p) ** size) ** n == Fraction(alpha)
        assert sample_size(alpha, p, size) == n, (alpha, size, p)
