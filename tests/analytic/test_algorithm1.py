"""analytic.algorithm1: Algorithm 1 transcribed literally, and the rule that says what it returns, against hand
computations and a brute force written here (its own drops from tests/_helpers.drops_by_enumeration, its own
selection by sorting), including each documented quirk of the pseudo-code."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytic import all_drops_rational
from analytic.algorithm1 import algorithm1_literal, algorithm1_rule, pattern_rows
from tests._helpers import drops_by_enumeration

HALF = F(1, 2)
EPS = F(3, 20)


def _expected(drops: dict, b: int, threshold, max_len: int):
    """The pseudo-code's outcome by brute force: after size k, Delta_best is the largest of 0 and every drop of
    sizes <= k; best is the candidate enumerated last among those holding it (None if none does); the first k
    with Delta_best >= threshold returns. Candidates missing from ``drops`` have no drop and are skipped."""
    order = [c for k in range(1, min(max_len, b) + 1) for c in itertools.combinations(range(b), k) if c in drops]
    for k in range(1, min(max_len, b) + 1):
        seen = [(index, c) for index, c in enumerate(order) if len(c) <= k]
        best_value = max([F(0)] + [drops[c] for _, c in seen])
        holders = [(index, c) for index, c in seen if drops[c] == best_value]
        best = max(holders)[1] if holders else None
        if best_value >= threshold:
            return best, k
    return best, None


def _table(b: int, values) -> list:
    return [values[code] for code in range(2**b)]


def test_a_tie_goes_to_the_last_candidate_enumerated():
    """f = 1 on the document only (b = 2, p = 1/2): by hand E[f] = 1/4 and each word's drop is 1/4 - 0 = 1/4,
    threshold 3/80. Catches '>' in place of '>=' (the first candidate would be kept) or another enumeration order."""
    r = algorithm1_literal(pattern_rows(2), [F(1), F(0), F(0), F(0)], EPS, 10)
    assert (r.best, r.returned_at, r.best_drop, r.mean, r.threshold) == ((1,), 1, F(1, 4), F(1, 4), F(3, 80))
    assert r.scores == (F(1, 4), F(1, 4))


def test_when_every_drop_is_negative_nothing_is_selected():
    """f = (0, 1) on (document, word masked): E[f] = 1/2, the drop is 1/2 - 1 = -1/2 < 0 = the initial
    Delta_best, so best is never assigned and the final 'return best' returns None. Catches a Delta_best
    initialised to -infinity or to the first drop (as fred's search does)."""
    r = algorithm1_literal(pattern_rows(1), [F(0), F(1)], EPS, 10)
    assert (r.best, r.returned_at, r.best_drop, r.scores) == (None, None, 0, (F(-1, 2),))


def test_a_nonpositive_mean_returns_at_size_one_even_with_nothing_selected():
    """f = (-4, -3): E[f] = -7/2, threshold -21/40 <= 0, drop -1/2 >= -21/40 makes {0} a solution of Eq. (2),
    but -1/2 < 0 = Delta_best, and Delta_best = 0 >= -21/40 returns best = None after size 1. Catches a threshold
    test that compares the best candidate's drop rather than Delta_best."""
    r = algorithm1_literal(pattern_rows(1), [F(-4), F(-3)], EPS, 10)
    assert (r.best, r.returned_at, r.threshold) == (None, 1, F(-21, 40))


def test_delta_best_is_kept_across_sizes():
    """f = (1, 0, 1, 1), eps = 1: by hand E[f] = 3/4; drops {0}: 3/4 - 1/2 = 1/4, {1}: 3/4 - 1 = -1/4, {0, 1}:
    3/4 - 1 = -1/4; threshold 3/4 is never met, so the size-1 best survives size 2. Catches a Delta_best reset
    at each size (it would return (0, 1))."""
    r = algorithm1_literal(pattern_rows(2), [F(1), F(0), F(1), F(1)], F(1), 10)
    assert (r.best, r.returned_at, r.best_drop) == ((0,), None, F(1, 4))


def test_a_tie_across_sizes_goes_to_the_later_size():
    """f constant 1: every drop is 0 < threshold eps; 0 >= Delta_best = 0 at every candidate, so the last one,
    of the largest size, is returned. Catches ties to the earlier size (fred's rule)."""
    r = algorithm1_literal(pattern_rows(2), [F(1)] * 4, EPS, 10)
    assert (r.best, r.returned_at) == ((0, 1), None)


def test_plain_averages_on_sample_rows_and_an_uncovered_candidate_is_skipped():
    """Rows (perturbed positions) {0}, {0}, {}: f = 0, 0, 3, so fhat = 1 and d = 1, 1, -2. Word 0 is absent from
    rows 0 and 1: drop (1 + 1)/2 = 1 >= eps fhat = 1. Word 1 and the pair are absent from no row: no drop, skipped.
    Catches averaging over the rows where the word is present, or a crash on n_c = 0."""
    r = algorithm1_literal([(True, False), (True, False), (False, False)], [F(0), F(0), F(3)], F(1), 10)
    assert (r.best, r.returned_at, r.best_drop, r.scores, r.mean) == ((0,), 1, F(1), (F(1), None), F(1))


def test_max_len_beyond_b_changes_nothing():
    """Sizes past b have no candidates: the outcome at l_max = 7 is the one at l_max = b. Catches an error on an
    empty get_candidates."""
    table = [F(1), F(1), F(1), F(1)]
    assert algorithm1_literal(pattern_rows(2), table, EPS, 7) == algorithm1_literal(pattern_rows(2), table, EPS, 2)


VALUES = st.sampled_from([F(-1), F(-1, 2), F(0), F(1, 2), F(1), F(2)])


@given(st.integers(1, 3).flatmap(lambda b: st.tuples(st.just(b), st.lists(VALUES, min_size=2**b, max_size=2**b))),
       st.sampled_from([F(3, 20), F(1, 2), F(1)]), st.integers(1, 4))
def test_literal_and_rule_against_brute_force_on_exact_rows(case, eps, max_len):
    """On the 2^b patterns at p = 1/2 the pseudo-code's averages are the exact drops (drops_by_enumeration, written
    without analytic); the literal function and analytic.algorithm1_rule both return the brute-force outcome.
    Catches a literal function that drifts from the pseudo-code, or a rule that misstates it."""
    b, values = case
    table = _table(b, values)
    mean, drops = drops_by_enumeration(lambda z: table[sum(1 << i for i, zi in enumerate(z) if zi)], b, HALF)
    expected = _expected(drops, b, eps * mean, max_len)
    r = algorithm1_literal(pattern_rows(b), table, eps, max_len)
    assert (r.best, r.returned_at) == expected
    assert r.mean == mean
    _, analytic_drops = all_drops_rational(table, HALF)
    assert algorithm1_rule(analytic_drops, eps * mean, max_len) == expected


@given(st.integers(1, 3).flatmap(lambda b: st.lists(st.tuples(*[st.booleans()] * b), min_size=1, max_size=6)),
       st.data())
def test_literal_against_brute_force_on_monte_carlo_rows(rows, data):
    """Arbitrary sample rows (some candidates covered by no row): drops by plain averaging written here, then the
    brute-force selection over the defined candidates. Catches a wrong row filter or a skipped candidate that
    still updates best."""
    b = len(rows[0])
    f = data.draw(st.lists(VALUES, min_size=len(rows), max_size=len(rows)))
    mean = sum(f) / len(f)
    drops = {}
    for k in range(1, b + 1):
        for c in itertools.combinations(range(b), k):
            absent = [mean - v for row, v in zip(rows, f) if all(row[i] for i in c)]
            if absent:
                drops[c] = sum(absent) / len(absent)
    expected = _expected(drops, b, EPS * mean, 10)
    r = algorithm1_literal(rows, f, EPS, 10)
    assert (r.best, r.returned_at) == expected


@pytest.mark.parametrize("kwargs, error, word", [
    ({"eps": F(0)}, ValueError, "eps"), ({"eps": 1.5}, ValueError, "eps"), ({"eps": True}, TypeError, "eps"),
    ({"max_len": 0}, ValueError, "max_len"), ({"max_len": 1.5}, TypeError, "max_len"),
    ({"f": [F(1)]}, ValueError, "f must"), ({"perturbed": []}, ValueError, "perturbed"),
])
def test_bad_input_names_the_parameter(kwargs, error, word):
    """Catches a silent wrong answer on eps outside (0, 1], a non-integer max_len, or rows and predictions of
    different lengths."""
    args = {"perturbed": pattern_rows(1), "f": [F(1), F(0)], "eps": EPS, "max_len": 2, **kwargs}
    with pytest.raises(error, match=word):
        algorithm1_literal(**args)


def test_pattern_rows_and_rule_refuse_bad_input():
    """Catches pattern_rows accepting b = 0 or a float, and the rule accepting max_len = 0."""
    with pytest.raises(ValueError, match="number of tokens b"):
        pattern_rows(0)
    with pytest.raises(TypeError, match="number of tokens b"):
        pattern_rows(2.0)
    with pytest.raises(ValueError, match="max_len"):
        algorithm1_rule({(0,): F(0)}, F(0), 0)
