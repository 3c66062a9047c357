"""The cache of :func:`analytic.selection.selection_distribution` (the claims ask for the same distributions once per
explainer they check): it returns what the computation returns, tells exact from float arguments of equal value,
hands each caller its own dict and refuses bad arguments as the computation does."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from analytic import linear_table, linear_table_rational
from analytic.selection import _cached_distribution, _selection_distribution, selection_distribution
from fred_constants import TIE_RTOL

CASES = [
    (linear_table_rational([F(23, 20), F(17, 20)]), 3, F(1, 2), F(3, 20), 1, "mean"),
    (linear_table_rational([F(1, 20), F(1, 20)]), 4, F(1, 2), F(3, 20), 2, "mean"),
    (linear_table([0.5, 0.1, -0.2]), 3, 0.5, 0.15, 2, "mean"),
    (np.asarray(linear_table([0.5, 0.1])), 5, 0.3, 0.5, 2, "original"),
]


@pytest.mark.parametrize("table, n, p, eps, max_len, baseline", CASES)
def test_cached_distribution_is_the_computed_one(table, n, p, eps, max_len, baseline):
    """Catches a cache returning another argument list's distribution or a changed computation."""
    expected = _selection_distribution(table, n, p, eps, max_len, baseline=baseline, tie_rtol=TIE_RTOL)
    for _ in range(2):  # the miss, then the hit
        got = selection_distribution(table, n, p, eps, max_len, baseline=baseline)
        assert got == expected
        assert [type(v) for v in got.values()] == [type(v) for v in expected.values()]


def test_exact_and_float_arguments_of_equal_value_are_different_keys():
    """Catches a key by value only: F(1, 2) == 0.5 with equal hashes, but rational and float arithmetic give
    different results (exact ties, Fraction probabilities)."""
    exact = linear_table_rational([F(1, 20), F(1, 20)])
    floats = [float(f) for f in exact]
    for order in ((exact, F(1, 2), F(3, 20)), (floats, 0.5, 0.15)), ((floats, 0.5, 0.15), (exact, F(1, 2), F(3, 20))):
        for table, p, eps in order:
            got = selection_distribution(table, 4, p, eps, 2)
            assert got == _selection_distribution(table, 4, p, eps, 2, baseline="mean", tie_rtol=TIE_RTOL)
            assert {type(v) for v in got.values()} == ({F} if table is exact else {float})


def test_each_call_gets_its_own_dict_and_the_second_call_is_a_hit():
    """Catches a caller's change to the result leaking into the next caller's, and a cache that never hits."""
    table = linear_table_rational([F(3, 10), F(1, 10)], F(1, 2))
    first = selection_distribution(table, 3, F(1, 2), F(3, 20), 2)
    expected = dict(first)
    first.clear()
    hits = _cached_distribution.cache_info().hits
    assert selection_distribution(list(table), 3, F(1, 2), F(3, 20), 2) == expected
    assert _cached_distribution.cache_info().hits == hits + 1


def test_bad_arguments_are_refused_as_without_the_cache():
    """Catches the cache swallowing or changing an error (unhashable and non-sequence arguments included)."""
    table = linear_table([0.5, 0.1])
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        selection_distribution(table, 0, 0.5, 0.15, 2)
    with pytest.raises(TypeError, match="n must be an integer"):
        selection_distribution(table, [3], 0.5, 0.15, 2)
    with pytest.raises(ValueError, match="table must"):
        selection_distribution([0.1, 0.2, 0.3], 3, 0.5, 0.15, 2)
    with pytest.raises(TypeError):
        selection_distribution(0.5, 3, 0.5, 0.15, 2)
    assert selection_distribution(iter(table), 3, 0.5, 0.15, 2) == selection_distribution(table, 3, 0.5, 0.15, 2)


def test_the_cache_is_bounded():
    """Catches an unbounded cache (the claims ask for a few argument lists, but property-based tests ask for ever new
    ones, and each entry is a distribution over the selections): after more distinct argument lists than any
    reasonable bound, the cache holds fewer entries than were asked for, and the latest is still a hit."""
    _cached_distribution.cache_clear()
    asked = 1500
    for k in range(asked):
        selection_distribution([F(1), F(k, asked)], 1, F(1, 2), F(3, 20), 1)
    info = _cached_distribution.cache_info()
    assert 0 < info.currsize < asked
    selection_distribution([F(1), F(asked - 1, asked)], 1, F(1, 2), F(3, 20), 1)
    assert _cached_distribution.cache_info().hits == info.hits + 1
    _cached_distribution.cache_clear()
