"""Lemma 1's closed forms (analytic/lemma1.py): the limit of the empirical drop equals the referee's exact drop,
its delta-method variance equals the gradient form in exact rationals, and the Hoeffding bound equals two
tails inverted by root finding.

FRED's Monte Carlo drops against these closed forms: tests/claims/test_lemma1.py.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from numpy.testing import assert_allclose
from scipy import optimize

from analytic import drop_asymptotic_variance, exact_drop, hoeffding_drop_bound, lemma1_limit
from proofs_checks.strategies import black_box_tables, probabilities
from tests._helpers import drops_by_enumeration


@given(black_box_tables(max_tokens=5), probabilities())
def test_lemma1_limit_equals_referee_drop(table, p):
    """Catches a wrong P(c not in x) = p^|c| or a conditional mean mixed up with a joint one: against the
    referee's exact drop and against the tests' own pattern-by-pattern enumeration (tests/_helpers.py), which
    shares no code (pattern weights included) with analytic."""
    b = int(np.log2(len(table)))
    _, enumerated = drops_by_enumeration(lambda z: float(table[sum(bit << i for i, bit in enumerate(z))]), b, p)
    for r in range(1, b + 1):
        for s in itertools.combinations(range(b), r):
            assert_allclose(lemma1_limit(table, s, p), exact_drop(table, s, p), rtol=1e-12, atol=1e-12)
            assert_allclose(lemma1_limit(table, s, p), enumerated[s], rtol=1e-12, atol=1e-12, err_msg=f"c={s} p={p}")


@given(black_box_tables(max_tokens=4), probabilities())
def test_delta_method_variance_matches_gradient_form(table, p):
    """Catches a wrong influence function: compares with g' Sigma g for h(a, b, c) = a - b / c of
    (mean f, mean fI, mean I), computed in exact rational arithmetic (the gradient form cancels
    catastrophically in floats when p^|c| is small), tolerance 1e-9 relative plus 1e-12 max(1, |f|)^2 / p^|c|
    absolute (the scale of sigma^2), for sigma^2 = 0 on a constant f."""
    b = int(np.log2(len(table)))
    q = Fraction(p)
    w = [q ** bin(code).count("1") * (1 - q) ** (b - bin(code).count("1")) for code in range(2**b)]
    f = [Fraction(float(v)) for v in table]
    for r in range(1, b + 1):
        full = (1 << r) - 1
        z = [(fi, fi * ((code & full) == full), Fraction((code & full) == full)) for code, fi in enumerate(f)]
        mean = [sum(wi * zi[k] for wi, zi in zip(w, z)) for k in range(3)]
        g = (1, -1 / mean[2], mean[1] / mean[2] ** 2)
        exact = sum(wi * sum(gk * (zi[k] - mean[k]) for k, gk in enumerate(g)) ** 2 for wi, zi in zip(w, z))
        assert_allclose(drop_asymptotic_variance(table, tuple(range(r)), p), float(exact), rtol=1e-9,
                        atol=1e-12 * max(1.0, float(np.max(np.abs(table)))) ** 2 / p**r,
                        err_msg=f"table={table.tolist()} p={p} c={tuple(range(r))}")


def hoeffding_radius(value_range: float, n: int, delta: float) -> float:
    """Solve 2 exp(-2 n t^2 / R^2) = delta for t by root finding (Hoeffding's two-sided tail, inverted)."""
    return optimize.brentq(lambda t: 2 * np.exp(-2 * n * t**2 / value_range**2) - delta, 0.0, value_range, xtol=1e-15)


@pytest.mark.parametrize("value_range, n, n_c, delta1, delta2", [(1.0, 200, 50, 0.5, 0.5), (3.0, 5, 7, 0.01, 0.2),
                                                                  (0.5, 10_000, 13, 1e-6, 1e-3)])
def test_hoeffding_bound_is_the_sum_of_two_inverted_tails(value_range, n, n_c, delta1, delta2):
    """Catches any slip in the bound's formula (constants, n and n_c or the deltas swapped)."""
    expected = hoeffding_radius(value_range, n, delta1) + hoeffding_radius(value_range, n_c, delta2)
    assert_allclose(hoeffding_drop_bound(value_range, n, n_c, delta1, delta2), expected, rtol=1e-12)


def test_hoeffding_bound_accepts_its_boundary_arguments():
    """Catches refusing R = 0 or a single row: both are valid (a constant f has no error)."""
    assert hoeffding_drop_bound(0.0, 1, 1, 0.5, 0.5) == 0.0
    assert_allclose(hoeffding_drop_bound(1.0, 1, 1, 2 / np.e, 2 / np.e), 2 * np.sqrt(0.5), rtol=1e-12)


@pytest.mark.parametrize("args", [(-1e-9, 5, 5, 0.1, 0.1), (1.0, 0, 5, 0.1, 0.1), (1.0, 5, 0, 0.1, 0.1),
                                  (1.0, 5, 5, 0.0, 0.1), (1.0, 5, 5, 1.0, 0.1), (1.0, 5, 5, 0.1, 0.0),
                                  (1.0, 5, 5, 0.1, 1.0)])
def test_hoeffding_bound_refuses_each_bad_argument(args):
    """Catches a validation that needs two violations at once or admits delta = 0 or 1."""
    with pytest.raises(ValueError, match="deltas in"):
        hoeffding_drop_bound(*args)


@pytest.mark.parametrize("positions", [[], [3], [0, 3], [4]])
def test_lemma1_refuses_empty_or_out_of_range_candidates(positions):
    """Catches a candidate check that accepts the empty set or positions >= b (silently all-False coverage)."""
    table = np.arange(8.0)  # b = 3
    with pytest.raises(ValueError, match=r"^positions must be a non-empty subset of \[0, 3\)"):
        lemma1_limit(table, positions, 0.5)
    with pytest.raises(ValueError, match=r"^positions must be a non-empty subset of \[0, 3\)"):
        drop_asymptotic_variance(table, positions, 0.5)
