"""fred.evaluation.statistics: the Wilcoxon signed-rank p-value against the enumeration of its null distribution and
against the normal approximation written out here, Holm's adjustment against hand values and the step-down
procedure, the standard error by hand, and the table's family of paired comparisons against hand-computed exact
p-values.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from fred.evaluation.statistics import LEVEL, compare_paired, holm, mean_and_standard_error, signed_rank


def _enumerated_p(d) -> Fraction:
    """Two-sided p-value of the signed-rank statistic by enumerating the 2^n sign patterns of the midranks of the
    non-zero |d| (doubled, so integers): P(|W+ - E W+| >= observed), rational."""
    d = [x for x in d if x != 0]
    doubled = [int(round(2 * r)) for r in stats.rankdata(np.abs(d))]
    total = sum(doubled)
    observed = abs(2 * sum(r for r, x in zip(doubled, d) if x > 0) - total)
    hits = sum(abs(2 * sum(r for r, s in zip(doubled, signs) if s) - total) >= observed
               for signs in itertools.product((0, 1), repeat=len(d)))
    return Fraction(hits, 2 ** len(d))


@given(st.lists(st.integers(-40, 40).filter(bool), min_size=1, max_size=11, unique_by=abs))
def test_signed_rank_is_the_exact_null_distribution_without_ties(d):
    """Distinct non-zero differences, n <= 11: the p-value is the exact one, by enumeration of all 2^n signs. Catches
    a one-sided p-value, a statistic on the wrong ranks, or the normal approximation used on small samples."""
    assert_allclose(signed_rank(d)["p_value"], float(_enumerated_p(d)), rtol=1e-12)


@given(st.lists(st.sampled_from([-3, -2, -1, 0, 1, 2, 3]), min_size=1, max_size=13).filter(any))
def test_signed_rank_with_ties_and_zeros_is_the_permutation_distribution(d):
    """Ties and zeros, at most 13 non-zero: the p-value is the exact permutation one (all sign flips of the midranks,
    zeros dropped). Catches zeros kept in the ranking, or integer ranks instead of midranks."""
    assert_allclose(signed_rank(d)["p_value"], float(_enumerated_p(d)), rtol=1e-12)


def test_zeros_are_dropped_before_scipy_chooses_its_method():
    """97 zeros and 3 positive differences: only the 8 sign patterns of the three count, p = 2/8 exactly. With the
    zeros handed to scipy, 100 values make it use the normal approximation (p about 0.11), smaller than any p-value
    three documents allow. Catches the zeros left in."""
    r = signed_rank([0.0] * 97 + [0.1, 0.2, 0.3])
    assert (r["p_value"], r["n_nonzero"], r["w_plus"], r["w_minus"]) == (0.25, 3, 6.0, 0.0)


def test_signed_rank_normal_approximation_with_ties_by_hand():
    """60 differences with ties (values 1..5, some negative): z from E W+ = n(n+1)/4 and Var W+ = n(n+1)(2n+1)/24 -
    sum(t^3 - t)/48 over the tie groups t, p = 2 Phi(-|z|), written out here. Catches a missing tie correction or a
    continuity correction."""
    d = np.array([(1 + i % 5) * (-1 if i % 7 == 0 else 1) for i in range(60)], dtype=float)
    n = d.size
    ranks = stats.rankdata(np.abs(d))
    w_plus = ranks[d > 0].sum()
    ties = np.unique(np.abs(d), return_counts=True)[1]
    var = n * (n + 1) * (2 * n + 1) / 24 - (ties ** 3 - ties).sum() / 48
    z = (w_plus - n * (n + 1) / 4) / math.sqrt(var)
    assert_allclose(signed_rank(d)["p_value"], 2 * stats.norm.sf(abs(z)), rtol=1e-10)


def test_no_difference_gives_p_one():
    """Identical explanations on every document: no evidence either way. Catches a NaN p-value (scipy's) that would
    compare false with alpha and hide the pair."""
    assert signed_rank([0.0] * 10) == {"p_value": 1.0, "w_plus": 0.0, "w_minus": 0.0, "n_nonzero": 0}


def test_holm_by_hand():
    """Hand values. p = (0.01, 0.02, 0.03): sorted multipliers 3, 2, 1 give 0.03, 0.04, 0.03, and the running
    maximum makes the last 0.04. p = (0.5, 0.4): 2 * 0.4 = 0.8, then max(0.8, 0.5) = 0.8. A p-value times m above 1 is
    1. Catches a missing running maximum, Bonferroni in place of Holm, or an uncapped value."""
    assert_allclose(holm([0.01, 0.02, 0.03]), [0.03, 0.04, 0.04], rtol=1e-12)
    assert_allclose(holm([0.5, 0.4]), [0.8, 0.8], rtol=1e-12)
    assert holm([0.6, 0.9]) == [1.0, 1.0]
    assert holm([]) == []
    with pytest.raises(ValueError, match="p_values"):
        holm([0.1, 1.5])


@given(st.lists(st.floats(0, 1), min_size=1, max_size=8), st.sampled_from([0.001, 0.01, 0.05, 0.2]))
def test_holm_rejects_what_the_step_down_procedure_rejects(p, alpha):
    """Holm (1979) as a procedure: sort, reject while p_(i) <= alpha / (m - i + 1), stop at the first that is not.
    The adjusted p-values at most alpha must be exactly those. Catches an adjustment that is not Holm's."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    rejected = set()
    for i, k in enumerate(order):
        if p[k] > alpha / (len(p) - i):
            break
        rejected.add(k)
    assert {i for i, a in enumerate(holm(p)) if a <= alpha} == rejected


def test_standard_error_by_hand():
    """[1, 2, 3]: mean 2, sample standard deviation 1 (ddof = 1), standard error 1 / sqrt(3); NaNs are left out;
    one value has no standard error, none has no mean. Catches the population deviation (ddof = 0, the paper's
    tables), a missing sqrt(n), or NaNs counted."""
    mean, se, n = mean_and_standard_error([1.0, np.nan, 2.0, 3.0])
    assert (mean, n) == (2.0, 3)
    assert_allclose(se, 1 / math.sqrt(3), rtol=1e-15)
    assert math.isnan(mean_and_standard_error([4.0])[1]) and mean_and_standard_error([4.0])[0] == 4.0
    assert math.isnan(mean_and_standard_error([np.nan])[0]) and mean_and_standard_error([])[2] == 0


def _values(columns: dict[str, dict[str, list[float]]]) -> dict:
    """``values[explainer][column][doc]`` from lists indexed by document."""
    return {e: {c: dict(enumerate(v)) for c, v in cols.items()} for e, cols in columns.items()}


def test_compare_paired_direction_and_family_by_hand():
    """The reference below the other explainer on each of 8 documents, on a column where higher is better and on one
    where lower is: each raw p = 2/2^8 exactly (all signs one way), Holm over the 2 tests of the family gives 1/64 for
    both; the other explainer is better on the first column, the reference on the second. Catches the direction read
    backwards, tests not adjusted as one family, or a one-sided p-value."""
    ref = [0.1 * i for i in range(8)]
    other = [v + 0.05 * (i + 1) for i, v in enumerate(ref)]
    values = _values({"fred": {"up": ref, "down": ref}, "lime": {"up": other, "down": other}})
    up, down = compare_paired(values, "fred", [("up", True), ("down", False)])
    assert (up.other, up.column, down.column) == ("lime", "up", "down")
    assert (up.better, down.better, up.winner, down.winner) == ("lime", "fred", "lime", "fred")
    assert_allclose([up.p_raw, down.p_raw], [2 / 2**8] * 2, rtol=1e-12)
    assert_allclose([up.p_holm, down.p_holm], [1 / 64] * 2, rtol=1e-12)
    assert up.n_documents == 8 and up.n_nonzero == 8 and up.significant and LEVEL == 0.05


def test_compare_paired_pairs_only_finite_documents_and_adjusts_across_explainers():
    """Three other explainers, 6 documents each shifted by +1, +2, +3, the reference NaN on document 0: 5 pairs per
    test, raw p = 2/2^5 = 1/16 each, Holm over 3 tests makes each 3/16 (not significant although every document
    points one way). A fourth explainer equal to the reference: every difference zero, p = 1, no better one.
    Catches NaN documents paired (scipy would return NaN), explainers adjusted separately, or a tie given a
    winner."""
    base = [np.nan, 1.0, 2.0, 3.0, 4.0, 5.0]
    values = _values({"fred": {"t": base}, "a": {"t": [v + 1 for v in base]}, "b": {"t": [v + 2 for v in base]},
                      "c": {"t": [v + 3 for v in base]}})
    tests = compare_paired(values, "fred", [("t", False)])
    assert [t.other for t in tests] == ["a", "b", "c"]
    assert [t.n_documents for t in tests] == [5, 5, 5] and all(t.better == "fred" for t in tests)
    assert_allclose([t.p_raw for t in tests], [1 / 16] * 3, rtol=1e-12)
    assert_allclose([t.p_holm for t in tests], [3 / 16] * 3, rtol=1e-12)
    assert not any(t.significant for t in tests)
    (same,) = compare_paired(_values({"fred": {"t": base}, "twin": {"t": base}}), "fred", [("t", True)])
    assert (same.p_raw, same.better, same.winner, same.n_nonzero) == (1.0, None, None, 0)


def test_compare_paired_refuses_an_absent_reference():
    """Catches a table silently without tests when the reference explainer did not run."""
    with pytest.raises(ValueError, match="^reference must be one of"):
        compare_paired(_values({"lime": {"t": [1.0]}}), "fred", [("t", True)])
