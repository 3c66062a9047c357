"""Algorithm 1 as implemented in ``fred`` against brute force written here, independently.

The brute force enumerates every position subset with ``itertools.combinations``
and averages the per-row drops with a plain Python loop over rows.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from fred import Fred
from fred.search import count_candidates, search_candidates

DROP_RTOL = 1e-12  # both sides sum the same few hundred floats in different orders


def brute_force_drop(perturbed, weights, d, subset):
    num = den = 0.0
    for row in range(perturbed.shape[0]):
        if all(perturbed[row, j] for j in subset):
            num += weights[row] * d[row]
            den += weights[row]
    return None if den == 0 else num / den


def brute_force_search(perturbed, weights, d, threshold, max_len, tie_tol):
    """Algorithm 1 over all subsets, ties to the lexicographically smallest subset, best kept across sizes."""
    b = perturbed.shape[1]
    overall = None
    for size in range(1, min(max_len, b) + 1):
        scored = [(s, brute_force_drop(perturbed, weights, d, s)) for s in itertools.combinations(range(b), size)]
        scored = [(s, v) for s, v in scored if v is not None]
        if not scored:
            break
        top = max(v for _, v in scored)
        best = min((s for s, v in scored if top - v <= tie_tol), key=lambda s: s)
        if top >= threshold - tie_tol:
            return best, top, True
        if overall is None or top - overall[1] > tie_tol:
            overall = (best, top)
    return (overall[0], overall[1], False) if overall else ((), None, False)


@st.composite
def designs(draw):
    """A random perturbation design with per-row drops: the search's whole input."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    b = draw(st.integers(1, 6))
    n = draw(st.integers(1, 40))
    p = draw(st.floats(0.1, 0.9))
    perturbed = rng.random((n, b)) < p
    # few distinct values make exact ties frequent, which exercises tie-breaking
    d = rng.integers(-3, 4, size=n) / 4.0
    weights = np.full(n, 1.0 / n)
    threshold = draw(st.sampled_from([-0.5, 0.0, 0.25, 0.5, 1.0, 2.0]))
    max_len = draw(st.integers(1, 6))
    return perturbed, weights, d, threshold, max_len


@given(designs())
def test_exhaustive_search_equals_brute_force(design):
    """Catches wrong covered-row masks, a size loop that stops too late or too early, `>` for `>=`,
    tie-breaking that depends on evaluation order, and best-over-sizes bookkeeping errors."""
    perturbed, weights, d, threshold, max_len = design
    got = search_candidates(perturbed, weights, d, threshold, max_len, "exhaustive", 4, 1e-12)
    ids, drop, found = brute_force_search(perturbed, weights, d, threshold, max_len, 1e-12)
    assert got.best_ids == ids, f"design={design}"
    assert got.found == found
    if drop is None:
        assert got.drop is None
    else:
        assert_allclose(got.drop, drop, rtol=DROP_RTOL, atol=1e-15)
    singles = [brute_force_drop(perturbed, weights, d, (j,)) for j in range(perturbed.shape[1])]
    expected = np.array([np.nan if s is None else s for s in singles])
    assert_allclose(got.importances, expected, rtol=DROP_RTOL, atol=1e-15, equal_nan=True)


@given(designs())
def test_beam_with_full_width_equals_exhaustive(design):
    """A beam as wide as the number of candidates explores every subset: a beam that loses or duplicates
    candidates, or ranks them differently from the exhaustive search, fails here."""
    perturbed, weights, d, threshold, max_len = design
    exhaustive = search_candidates(perturbed, weights, d, threshold, max_len, "exhaustive", 4, 1e-12)
    beam = search_candidates(perturbed, weights, d, threshold, max_len, "beam", 2 ** perturbed.shape[1], 1e-12)
    assert beam.best_ids == exhaustive.best_ids
    assert beam.found == exhaustive.found


def additive_classifier(weights: dict[str, float], intercept: float):
    """f(z) = intercept + sum of the weights of the words present: drops are additive over positions."""

    def classifier_fn(texts):
        return np.array([intercept + sum(weights.get(w, 0.0) for w in t.split()) for t in texts])

    return classifier_fn


@given(
    st.lists(st.floats(-2, 2, allow_nan=False).filter(lambda x: abs(x) > 1e-3), min_size=1, max_size=8, unique=True),
    st.floats(0.05, 0.95),
    st.floats(0.01, 1.0),
    st.integers(1, 8),
)
def test_beam_equals_exhaustive_when_drops_are_additive(coefs, p, eps, max_len):
    """With additive drops the best set of size l+1 extends the best set of size l, so a beam of width 1
    is exact; a beam that extends the wrong candidates or mis-scores extensions fails."""
    words = [f"w{i}" for i in range(len(coefs))]
    clf = additive_classifier(dict(zip(words, coefs)), 5.0)
    text = " ".join(words)
    ex = Fred(clf, sampler="exact", search="exhaustive").explain(text, p=p, eps=eps, max_len=max_len)
    bm = Fred(clf, sampler="exact", search="beam", beam_width=1).explain(text, p=p, eps=eps, max_len=max_len)
    assert ex.best_ids == bm.best_ids and ex.found == bm.found
    assert_allclose(bm.drop, ex.drop, rtol=1e-12)


def test_exhaustive_refuses_over_budget_and_auto_switches_to_beam():
    """A silent exhaustive run over a huge candidate set would hang; auto must pick beam instead."""
    clf = additive_classifier({"a": 1.0}, 0.0)
    text = " ".join(["a"] * 12)
    assert count_candidates(12, 10) > 100
    with pytest.raises(ValueError, match="beam"):
        Fred(clf, search="exhaustive", max_candidates=100).explain(text, n_samples=50)
    exp = Fred(clf, search="auto", max_candidates=100, random_state=0).explain(text, n_samples=50)
    assert exp.search == "beam"
    assert Fred(clf, random_state=0).explain("a a", n_samples=50).search == "exhaustive"


def test_count_candidates_is_the_binomial_sum():
    """Catches an off-by-one in the size range of the budget."""
    assert count_candidates(5, 2) == 5 + 10
    assert count_candidates(3, 10) == 7


def test_beam_keeps_distinct_candidates_best_first():
    """Found by mutmut: a beam that re-picks the same best candidate (skip set ignored) degenerates to width 1."""
    from fred.search import _beam

    cands = [(0,), (1,), (2,), (3,)]
    drops = np.array([0.1, 0.3, 0.2, 0.3])
    assert _beam(cands, drops, 1e-12, 3) == [1, 3, 2]  # tie 0.3/0.3 to the smaller tuple, then 0.2
    assert _beam(cands, drops, 1e-12, 10) == [1, 3, 2, 0]


def test_ties_go_to_the_smallest_position_tuple_not_to_list_order():
    """Found by mutmut: tie-breaking by list index instead of by position tuple passed every test, because
    exhaustive candidates happen to be listed in lexicographic order; beam candidates are not."""
    from fred.search import _best_index

    assert _best_index([(1, 2), (0, 3), (0, 4)], np.array([0.5, 0.5, 0.1]), 1e-12) == 1


def test_exhaustive_budget_is_inclusive():
    """Found by mutmut: `<` for `<=` in the budget went unnoticed; a search exactly at the budget is allowed."""
    clf = additive_classifier({"a": 1.0}, 0.0)
    budget = count_candidates(3, 10)
    assert Fred(clf, search="exhaustive", max_candidates=budget).explain("a b c", n_samples=20).search == "exhaustive"
    assert Fred(clf, search="auto", max_candidates=budget).explain("a b c", n_samples=20).search == "exhaustive"
    assert Fred(clf, search="auto", max_candidates=budget - 1).explain("a b c", n_samples=20).search == "beam"


def full_design(b: int):
    """All 2^b patterns with equal weights: every candidate is defined."""
    codes = np.arange(2**b)
    return ((codes[:, None] >> np.arange(b)) & 1).astype(bool), np.full(2**b, 1.0 / 2**b)


def brute_force_beam_count(perturbed, weights, d, max_len, width):
    """Distinct candidates a width-w beam evaluates when no size meets the threshold (no ties in d)."""
    b = perturbed.shape[1]
    level = [frozenset([j]) for j in range(b)]
    total = len(level)
    for _ in range(1, min(max_len, b)):
        kept = sorted(level, key=lambda s: -brute_force_drop(perturbed, weights, d, sorted(s)))[:width]
        level = list({s | {j} for s in kept for j in range(b) if j not in s})
        total += len(level)
    return total


@pytest.mark.parametrize("b, max_len", [(5, 3), (6, 6)])
def test_search_reports_its_strategy_and_counts_each_candidate_once(b, max_len):
    """Catches a wrong or missing strategy / n_evaluated in SearchResult, duplicate or repeated-position
    candidates in the extension step, and an exhaustive search that runs as a beam (or the reverse)."""
    perturbed, weights = full_design(b)
    d = np.random.default_rng(b).normal(size=len(weights))  # continuous: no ties
    unreachable = 1e9
    ex = search_candidates(perturbed, weights, d, unreachable, max_len, "exhaustive", 2, 1e-12)
    assert (ex.strategy, ex.found, ex.n_evaluated) == ("exhaustive", False, count_candidates(b, max_len))
    bm = search_candidates(perturbed, weights, d, unreachable, max_len, "beam", 2, 1e-12)
    assert (bm.strategy, bm.found) == ("beam", False)
    assert bm.n_evaluated == brute_force_beam_count(perturbed, weights, d, max_len, 2)
    for strategy in ("exhaustive", "beam"):
        hit = search_candidates(perturbed, weights, d, -unreachable, max_len, strategy, 2, 1e-12)
        assert (hit.strategy, hit.found, hit.n_evaluated) == (strategy, True, b)
        none = search_candidates(np.zeros((3, b), bool), np.full(3, 1 / 3), d[:3], 0.0, max_len, strategy, 2, 1e-12)
        assert (none.strategy, none.best_ids, none.drop, none.found, none.n_evaluated) == (strategy, (), None, False, 0)
