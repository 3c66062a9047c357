"""What the kit accepts (``proofs_checks.kit.tolerances``) and the black boxes it explains, against independent
computations: rational enumeration (``tests._helpers.drops_by_enumeration``), analytic's Eq. (3) and scipy."""

from __future__ import annotations

import inspect
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import optimize, stats

from analytic import empirical_drop, table_classifier
from fred_constants import EPS, MAX_LEN, P_EXACT, P
from proofs_checks.kit.black_boxes import (
    BASELINE_SPLIT,
    BASELINE_SPLIT_EPS,
    LABEL_SPLIT,
    LINEAR,
    Spy,
    beam_counterexample,
    lenient_classifier,
    position_classifier,
    read_patterns,
)
from proofs_checks.kit.checks import DELTA, N_MONTE_CARLO, N_STATISTICAL
from proofs_checks.kit.tolerances import (
    _hoeffding_tolerance,
    admissible,
    decided_size,
    exact_tolerance,
    hoeffding_tolerance,
)
from proofs_checks.statistics.intervals import clopper_pearson
from proofs_checks.statistics.seeds import statistical_seed
from tests._helpers import drops_by_enumeration


def _subsets(b: int, max_len: int):
    return [c for k in range(0, min(max_len, b) + 1) for c in itertools.combinations(range(b), k)]


def _accepted_by_algorithm1(values, b, p, eps, max_len):
    """Every output Algorithm 1 can give on the exact drops, by rational enumeration: {(selection, found)}.

    Ties between drops may go any way; a best drop exactly equal to the threshold may stop the search or not, and
    a largest drop exactly 0 may leave no selection (Algorithm 1's running best starts at 0), since an explainer
    summing floats sees such equalities up to rounding.
    """
    baseline_value, drops = drops_by_enumeration(lambda z: values[sum(1 << i for i in range(b) if z[i])], b, p)
    threshold, top = eps * baseline_value, min(max_len, b)
    out = set()
    for size in range(1, top + 1):
        best = max(d for c, d in drops.items() if len(c) == size)
        if best >= threshold:
            out |= {(c, True) for c, d in drops.items() if len(c) == size and d == best}
        if best > threshold:
            return out
    best = max(d for c, d in drops.items() if len(c) <= top)
    out |= {(c, False) for c, d in drops.items() if len(c) <= top and d == best}
    return out | ({((), False)} if best <= 0 else set())


@given(st.integers(1, 3).flatmap(lambda b: st.tuples(st.just(b), st.lists(st.integers(-2, 3), min_size=2**b,
                                                                           max_size=2**b))),
       st.sampled_from([Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)]),
       st.integers(1, 8).map(lambda k: Fraction(k, 8)), st.integers(1, 4))
def test_exact_admissibility_is_algorithm1_with_any_tie_breaking(table, p, eps, max_len):
    """With exact drops, ``admissible`` accepts exactly the outputs of Algorithm 1 under some tie-breaking
    (rational enumeration, integer tables with many ties): catches an off-by-one size, a strict threshold, a tie
    wrongly refused, a wrong not-found fallback and a wrong rule for Algorithm 1's empty answer."""
    b, values = table
    floats = np.array(values, dtype=float)
    want = _accepted_by_algorithm1(values, b, p, eps, max_len)
    tol = exact_tolerance(floats, min(max_len, b))
    for found in (True, False):
        got = {(c, found) for c in _subsets(b, b) if
               admissible(floats, float(p), float(eps), max_len, c, found, tol) is None}
        assert got == {w for w in want if w[1] == found}
    unknown = {c for c in _subsets(b, b) if admissible(floats, float(p), float(eps), max_len, c, None, tol) is None}
    assert unknown == {c for c, _ in want}


def test_admissibility_refuses_what_is_not_a_set_of_positions():
    """Repeated, out-of-range and non-integer positions are reasons, not crashes."""
    table = np.arange(4.0)
    tol = exact_tolerance(table, 2)
    assert "repeats" in admissible(table, 0.5, 0.5, 2, (0, 0), None, tol)
    assert "outside [0, 2)" in admissible(table, 0.5, 0.5, 2, (2,), None, tol)
    assert "non-integer" in admissible(table, 0.5, 0.5, 2, (0.5,), None, tol)


@pytest.mark.statistical
def test_hoeffding_tolerance_covers_every_monte_carlo_drop():
    """The Monte Carlo tolerance bounds the error of every candidate's empirical drop (Eq. 3, computed by
    analytic.empirical_drop, not the kit): 40 independent designs of n = 2000 rows on the 5-token table, each
    granted delta = 1e-6 / 40, so the test's false-alarm probability is <= 1e-6; seed statistical_seed(7)."""
    box = beam_counterexample()
    rng = np.random.default_rng(statistical_seed(7))
    reps, n, p = 40, 2000, 0.5
    exact = {c: _rational_drop(box.table, c, p) for c in _subsets(box.b, box.b) if c}
    worst = 0.0
    for _ in range(reps):
        rows = rng.random((n, box.b)) < p
        f = box.table[(rows * (1 << np.arange(box.b))).sum(axis=1)]
        tol = hoeffding_tolerance(box.table, n, p, box.b, 1e-6 / reps)
        for c, d in exact.items():
            estimate, n_c = empirical_drop(f, rows, c)
            if n_c and np.isfinite(tol.of_size(len(c))):
                assert abs(estimate - d) <= tol.of_size(len(c))
                worst = max(worst, abs(estimate - d) / tol.of_size(len(c)))
    assert worst > 0.05  # the bound is not vacuous by orders of magnitude


def _rational_drop(table, candidate, p) -> float:
    b = int(len(table)).bit_length() - 1
    _, drops = drops_by_enumeration(lambda z: Fraction(table[sum(1 << i for i in range(b) if z[i])]), b, Fraction(p))
    return float(drops[tuple(candidate)])


@pytest.mark.parametrize("box, label, eps, n, baseline, size", [
    (LINEAR, 1, 0.2, N_STATISTICAL, "mean", 1), (LINEAR, 1, 0.5, N_STATISTICAL, "mean", 2),
    (BASELINE_SPLIT, 1, BASELINE_SPLIT_EPS, N_MONTE_CARLO, "mean", 2),
    (BASELINE_SPLIT, 1, BASELINE_SPLIT_EPS, N_MONTE_CARLO, "original", 1),
    (beam_counterexample(), 1, EPS, N_STATISTICAL, "mean", 4), (LABEL_SPLIT, 0, EPS, N_MONTE_CARLO, "mean", 1)])
def test_the_fixed_inputs_decide_the_size_under_monte_carlo_tolerance(box, label, eps, n, baseline, size):
    """The kit's fixed inputs have margins above their Monte Carlo tolerance (else the Lemma 1, threshold and
    exhaustiveness checks would accept wrong answers): the size is decided, and only Algorithm 1's answers (by
    rational enumeration) are admissible."""
    table = box.column(label)
    tol = hoeffding_tolerance(table, n, P, box.b, DELTA)
    assert decided_size(table, P, eps, MAX_LEN, tol, baseline=baseline) == size
    f = {z: Fraction(table[sum(1 << i for i in range(box.b) if z[i])]) for z in itertools.product((0, 1),
                                                                                                    repeat=box.b)}
    _, drops = drops_by_enumeration(f.__getitem__, box.b, P_EXACT, baseline=baseline)
    best = max(d for c, d in drops.items() if len(c) == size)
    want = {c for c, d in drops.items() if len(c) == size and d == best}
    got = {c for c in _subsets(box.b, box.b)
           if admissible(table, P, eps, MAX_LEN, c, None, tol, baseline=baseline) is None}
    assert got == want


def test_baseline_split_numbers_in_its_comment():
    """BASELINE_SPLIT's comment: drops 1/4 and 1/2 against eps E[f] = 5/16, and f(xi) - E[f | one perturbed] =
    3/4 against eps f(xi) = 5/8 (rational enumeration)."""
    f = lambda z: Fraction(2 - sum(z), 2)  # noqa: E731 - half the kept count
    mean, drops = drops_by_enumeration(f, 2, Fraction(1, 2))
    assert (drops[(0,)], drops[(0, 1)], Fraction(5, 8) * mean) == (Fraction(1, 4), Fraction(1, 2), Fraction(5, 16))
    original, drops = drops_by_enumeration(f, 2, Fraction(1, 2), baseline="original")
    assert (drops[(0,)], Fraction(5, 8) * original) == (Fraction(3, 4), Fraction(5, 8))
    assert BASELINE_SPLIT_EPS == 0.625 and np.array_equal(BASELINE_SPLIT.table, [1.0, 0.5, 0.5, 0.0])


#: scipy.stats.binomtest's exact interval solves binom.sf(k - 1, n, x) = delta / 2 and binom.cdf(k, n, x) = delta / 2
#: with scipy.optimize.brentq at its default tolerances, whose documented guarantee is that the computed root x0
#: satisfies |x - x0| <= xtol + rtol |x0| (read from brentq's signature: 2e-12 and 4 ulp at the time of writing).
_BRENTQ = inspect.signature(optimize.brentq).parameters
BRENTQ_XTOL, BRENTQ_RTOL = _BRENTQ["xtol"].default, _BRENTQ["rtol"].default
#: The kit's stats.beta.ppf is Boost's ibeta_inv computed in double (scipy's policy promote_double<false>), whose
#: accuracy Boost states as that of the forward incomplete beta; Boost's own tests accept a peak relative error of
#: 10 000 eps for it without a wider type (boostorg/math test/test_ibeta_inv.cpp, expected_results). The forward
#: error of binom.sf/cdf (a few eps relative) moves brentq's root by as little relative: on these intervals
#: delta / (x |d binom.sf / dx|) <= 1.003 (k <= n = 400, delta in {1e-2, 1e-6}).
IBETA_INV_RTOL = 10_000 * np.finfo(float).eps


def _methods_agree(kit_root: float, scipy_root: float) -> bool:
    """Two correct computations of one interval end lie within the sum of their stated accuracies."""
    bound = BRENTQ_XTOL + BRENTQ_RTOL * abs(scipy_root) + IBETA_INV_RTOL * abs(kit_root)
    return abs(kit_root - scipy_root) <= bound


@given(st.lists(st.integers(0, 400), min_size=1, max_size=4), st.sampled_from([1e-2, 1e-6]))
def test_clopper_pearson_equals_scipys_exact_interval(successes, delta):
    """The vectorised beta-quantile intervals equal scipy.stats.binomtest's exact (Clopper-Pearson) ones up to the
    two methods' stated accuracy (a few 1e-12): catches a delta not halved, swapped beta parameters and an end
    not pinned at 0 or 1 (all off by far more)."""
    low, high = clopper_pearson(successes, 400, delta)
    for k, lo, hi in zip(successes, low, high):
        ci = stats.binomtest(k, 400).proportion_ci(confidence_level=1 - delta, method="exact")
        assert _methods_agree(float(lo), ci.low) and _methods_agree(float(hi), ci.high), (k, lo, ci.low, hi, ci.high)


def test_position_classifier_reads_any_mask_and_refuses_lost_positions():
    """The kit's black box agrees with analytic.table_classifier for the mask 'UNK', reads any other replacement
    as perturbed, and refuses a text that lost a position (else an explainer deleting tokens would be scored)."""
    tokens = ["a", "b", "c"]
    table = np.arange(8.0) / 8
    texts = ["a b c", "UNK b c", "a UNK UNK", "UNK UNK UNK"]
    assert np.array_equal(position_classifier(tokens, table)(texts),
                          table_classifier(tokens, table, n_classes=2)(texts))
    assert np.array_equal(position_classifier(tokens, table, "regression")(["[M] b x"]), [table[0b101]])
    with pytest.raises(AssertionError, match="2 tokens"):
        position_classifier(tokens, table)(["a b"])


def test_read_patterns_and_the_spy():
    """Rows are every call but the document alone; patterns mark changed positions, replacements are collected,
    and texts with another number of tokens are listed."""
    spy = Spy(lenient_classifier(["a", "b"]))
    spy(["a b"])
    spy(["a b", "UNK b", "a"])
    assert spy.rows("a b") == ["a b", "UNK b", "a"] and len(spy.texts()) == 4
    rows, replacements, broken = read_patterns(spy.rows("a b"), ["a", "b"])
    assert rows.tolist() == [[False, False], [True, False], [False, False]]
    assert replacements == {"UNK"} and broken == ["a"]
    assert spy.classifier_fn(["a x"])[0].tolist() == [0.5, 0.5]


@given(st.lists(st.lists(st.sampled_from(["a", "b", "UNK", "x"]), max_size=4).map(" ".join), max_size=12),
       st.lists(st.sampled_from(["a", "b"]), min_size=1, max_size=3))
def test_read_patterns_reads_each_text_position_by_position(texts, tokens):
    """read_patterns reads each distinct text once and maps it back to every row: against a plain reading of each
    text, catches a row given another distinct text's pattern, replacements collected from a text that lost
    positions, and replacements that are numpy strings instead of the str the messages print."""
    rows, replacements, broken = read_patterns(texts, tokens)
    want_rows, want_replacements, want_broken = [], set(), []
    for text in texts:
        got = text.split()
        if len(got) != len(tokens):
            want_broken.append(text)
            want_rows.append([False] * len(tokens))
            continue
        want_rows.append([g != t for g, t in zip(got, tokens)])
        want_replacements |= {g for g, t in zip(got, tokens) if g != t}
    assert rows.dtype == bool and rows.shape == (len(texts), len(tokens)) and rows.tolist() == want_rows
    assert replacements == want_replacements and {type(r) for r in replacements} <= {str}
    assert broken == want_broken


def test_hoeffding_tolerance_is_cached_per_table():
    """The tolerance is memoised (analytic.exact_cache): two tables with the same n, p, sizes and delta but
    different ranges, asked in either order, several times and as a list, must each get the tolerance computed cold
    (the cache emptied first). Catches a cache key that leaves out the table (the second table would get the
    first's tolerance) and a cached answer that is not the function's own."""
    n, delta = 1000, 1e-3
    tables = [np.array([0.0, 0.25, 0.5, 1.0]), np.array([0.0, 0.125, 0.25, 0.5])]
    cold = []
    for table in tables:
        _hoeffding_tolerance.cache_clear()
        cold.append(hoeffding_tolerance(table, n, 0.5, 2, delta))
    assert cold[0].mean != cold[1].mean  # else the test could not see a key that leaves out the table
    _hoeffding_tolerance.cache_clear()
    for i in (0, 1, 1, 0, 0, 1):
        assert hoeffding_tolerance(tables[i], n, 0.5, 2, delta) == cold[i]
        assert hoeffding_tolerance(list(tables[i]), n, 0.5, 2, delta) == cold[i]
