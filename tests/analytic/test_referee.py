"""The exact referee of analytic/referee.py (all 2^b perturbation patterns, Eqs. 1-2, Algorithm 1) against
plain loops written here.

Tolerances: see tests/analytic/_cases.py (1e-12 relative / 1e-12 absolute).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from analytic import (
    all_drops,
    best_drop_of_size,
    code_of,
    exact_drop,
    exact_explain,
    expected_prediction,
    linear_table,
    masked_texts,
    pattern_weights,
    table_classifier,
    table_from_classifier,
)
from analytic.referee import popcounts
from proofs_checks.strategies import black_box_tables, documents, probabilities
from tests.analytic._cases import ATOL, RTOL


def naive_drop(table, p, positions):
    """Pattern-by-pattern loop, independent of the vectorised referee."""
    b = int(np.log2(len(table)))
    tot = num = den = 0.0
    for bits in itertools.product([0, 1], repeat=b):
        code = sum(bit << i for i, bit in enumerate(bits))
        w = math.prod(p if bit else 1 - p for bit in bits)
        tot += w * table[code]
        if all(bits[i] for i in positions):
            num += w * table[code]
            den += w
    return tot - num / den


@given(black_box_tables(max_tokens=4), probabilities())
def test_referee_vectorised_drops_match_naive_loop(table, p):
    """Catches a bit-order or zeta-transform bug in the referee: all_drops / exact_drop vs a plain loop."""
    b = int(np.log2(len(table)))
    drops = all_drops(table, p)
    for r in range(1, b + 1):
        for s in itertools.combinations(range(b), r):
            expected = naive_drop(table, p, s)
            assert_allclose(drops[code_of(s)], expected, rtol=RTOL, atol=ATOL, err_msg=f"S={s} p={p}")
            assert_allclose(exact_drop(table, s, p), expected, rtol=RTOL, atol=ATOL, err_msg=f"S={s} p={p}")


def test_referee_weights_b20_sum_to_one():
    """Catches a weight-construction bug at the largest size FRED enumerates (b = 20)."""
    w = pattern_weights(20, 0.3)
    assert w.shape == (2**20,)
    assert_allclose(w.sum(), 1.0, rtol=1e-12)
    assert_allclose(w[(1 << 20) - 1], 0.3**20, rtol=1e-12)
    table = linear_table(np.arange(20.0), 1.0)
    assert_allclose(expected_prediction(table, 0.3), 1.0 + 0.7 * np.arange(20.0).sum(), rtol=1e-12)


@given(documents(max_tokens=5), st.data())
def test_table_classifier_roundtrip(tokens, data):
    """Catches a mismatch between the text rendering and the code order of the referee."""
    table = data.draw(black_box_tables(len(tokens), len(tokens), integer=False))
    got = table_from_classifier(table_classifier(tokens, table, n_classes=2), tokens, label=1)
    assert_allclose(got, table, rtol=0, atol=0)


@pytest.mark.parametrize("b, exc, got", [(True, TypeError, "bool"), (2.0, TypeError, "float"), (0, ValueError, "0"),
                                         (23, ValueError, "23")])
def test_referee_refuses_a_bad_number_of_tokens(b, exc, got):
    """Catches a size check that lets booleans, floats, 0 or more than 22 tokens through, or that raises
    ValueError for a wrong type (TypeError, as fred does)."""
    with pytest.raises(exc) as info:
        pattern_weights(b, 0.5)
    assert str(info.value) == f"the number of tokens b must be an integer in [1, 22], got {got}"


def test_best_drop_of_size_returns_only_the_maximisers():
    """Catches a loose tie tolerance in best_drop_of_size: drops 0.5, 1.0 and 1.5 tie with nothing."""
    assert best_drop_of_size(linear_table([1.0, 2.0, 3.0]), 0.5, 1) == (1.5, [(2,)])
    assert best_drop_of_size(linear_table([1.0, 1.0, 3.0]), 0.5, 2) == (2.0, [(0, 2), (1, 2)])


def test_referee_accepts_its_largest_size():
    """Catches an off-by-one in the size limit: b = 22 (the documented maximum) is enumerated."""
    assert popcounts(22)[-1] == 22


@pytest.mark.parametrize("p", [0.0, 1.0, 1.5])
def test_referee_refuses_p_outside_the_open_interval(p):
    """Catches p = 0, p = 1 (degenerate designs) or p > 1 accepted by the referee."""
    with pytest.raises(ValueError, match=r"^p must lie in \(0, 1\)"):
        pattern_weights(2, p)


@pytest.mark.parametrize("table", [np.zeros((2, 2)), np.zeros(3), np.zeros(1)])
def test_referee_refuses_tables_that_are_not_2_to_the_b(table):
    """Catches a table check that needs two faults at once: 2-d, not a power of two, or b = 0."""
    with pytest.raises(ValueError, match=r"^table must be a 1-d array of length 2\*\*b"):
        expected_prediction(table, 0.5)


def test_referee_exact_drop_refuses_positions_outside_the_document():
    """Catches position b accepted (its bit lies outside every code, so the candidate is never perturbed)."""
    with pytest.raises(ValueError, match=r"^positions must lie in \[0, 3\)"):
        exact_drop(np.arange(8.0), [3], 0.5)


def test_referee_text_helpers_defaults():
    """Catches a wrong default mask token, label or output shape in the text <-> table helpers."""
    assert masked_texts(["a", "b"]) == ["a b", "UNK b", "a UNK", "UNK UNK"]
    lookup = table_classifier(["a", "b"], [0.0, 1.0, 2.0, 3.0])
    assert lookup(["a b", "UNK UNK", "a UNK"]).tolist() == [0.0, 3.0, 2.0]
    pair = table_classifier(["a", "b"], [0.0, 1.0, 2.0, 3.0], n_classes=2)
    assert pair(["UNK b"]).tolist() == [[0.0, 1.0]]

    def clf(texts):  # class 0 wins on the original text, class 1 once anything is masked with "MASK"
        return np.array([[0.2, 0.8] if "MASK" in t.split() else [0.6, 0.4] for t in texts])

    assert table_from_classifier(clf, ["a", "b"], mask_token="MASK").tolist() == [0.6, 0.2, 0.2, 0.2]
    exact = exact_explain(lambda texts: clf([t.replace("UNK", "MASK") for t in texts])[:, 0], 0.5, 0.25, 2, tokens=["a", "b"])
    assert (exact.best_ids, exact.found, exact.original_prediction) == ((0,), True, 0.6)
    # the label reaches the table: column 1, and the argmax is taken on the original text (row 0), not row 1
    assert table_from_classifier(clf, ["a", "b"], mask_token="MASK", label=1).tolist() == [0.4, 0.8, 0.8, 0.8]
    flipped = exact_explain(lambda texts: clf([t.replace("UNK", "MASK") for t in texts]), 0.5, 0.25, 2, tokens=["a", "b"], label=1)
    assert flipped.original_prediction == 0.4

    def leaning_one(texts):  # class 1 wins on the original text, class 0 once anything is masked
        return clf(texts)[:, ::-1]

    assert table_from_classifier(leaning_one, ["a", "b"], mask_token="MASK").tolist() == [0.6, 0.2, 0.2, 0.2]


@pytest.mark.parametrize("kwargs, exc, message", [
    ({"eps": -0.1}, ValueError, "eps must lie in [0, 1], got -0.1"),
    ({"eps": 1.5}, ValueError, "eps must lie in [0, 1], got 1.5"),
    ({"max_len": 0}, ValueError, "max_len must be an integer >= 1, got 0"),
    ({"max_len": True}, TypeError, "max_len must be an integer >= 1, got bool"),
    ({"max_len": 2.5}, TypeError, "max_len must be an integer >= 1, got float"),
])
def test_referee_explain_refuses_bad_eps_and_max_len(kwargs, exc, message):
    """Catches argument checks that need two faults at once, admit eps = 0 or eps > 1, or raise ValueError for a
    wrong type (fred raises TypeError for ``max_len=2.5``; the referee must agree)."""
    args = {"p": 0.5, "eps": 0.5, "max_len": 2, **kwargs}
    with pytest.raises(exc) as info:
        exact_explain(linear_table([1.0, 2.0]), **args)
    assert str(info.value) == message


def test_referee_tie_tolerance_scales_with_the_largest_prediction():
    """Catches a tie tolerance divided by max|f| or floored at 2: dyadic drops 2^-31 apart tie when max|f| ~ 2e4
    (tolerance 2e-8), and drops 2^-39 apart do not tie when max|f| < 1 (tolerance 1e-12)."""
    big = exact_explain(linear_table([1e4, 1e4 + 2**-30]), 0.5, 0.01, 1)
    assert big.best_ids == (0,)  # a tie, won by the smaller position although position 1's drop is larger
    small = exact_explain(linear_table([0.25, 0.25 + 2**-38]), 0.5, 0.01, 1)
    assert small.best_ids == (1,)


def test_referee_with_zero_tolerance_still_breaks_exact_ties():
    """Catches strict comparisons that drop exact ties when tie_rtol = 0 (found and not-found branches)."""
    found = exact_explain(linear_table([1.0, 1.0]), 0.5, 0.1, 2, tie_rtol=0.0)
    assert (found.best_ids, found.found) == ((0,), True)
    unreachable = exact_explain(linear_table([1.0, 1.0], 10.0), 0.5, 1.0, 2, tie_rtol=0.0)
    assert (unreachable.best_ids, unreachable.found) == ((0, 1), False)


def test_referee_counts_a_drop_equal_to_the_threshold():
    """Catches ``top > threshold``: a = (1, 3), p = 1/2 gives E[f] = 2 and a size-1 drop 1.5 = 0.75 E[f] exactly."""
    exact = exact_explain(linear_table([1.0, 3.0]), 0.5, 0.75, 2)
    assert (exact.best_ids, exact.drop, exact.threshold, exact.found) == ((1,), 1.5, 1.5, True)


# --------------------------------------------------------------------------- edges mutation testing found
# Each test below was written for a mutant that survived the hypothesis tests above: boundaries
# the strategies rarely hit (eps = 1, size 0, max_len = l*, exact ties), defaults and argument checks.


def test_best_drop_of_size_honours_the_original_baseline():
    """Catches the baseline argument not being passed on: 'original' shifts every drop by f(xi) - E[f]."""
    table = np.array([2.0, 0.0, 1.0, 0.0])  # f(original) = 2, E[f] at p = 1/2 is 3/4
    mean_best, mean_sets = best_drop_of_size(table, 0.5, 1)
    orig_best, orig_sets = best_drop_of_size(table, 0.5, 1, baseline="original")
    assert orig_sets == mean_sets
    assert_allclose(orig_best - mean_best, 2.0 - 0.75, rtol=RTOL)
    assert_allclose(orig_best, naive_drop(table, 0.5, [0]) + 1.25, rtol=RTOL)
