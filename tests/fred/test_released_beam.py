"""``search="released-beam"``, the beam of the authors' released code, against a list-based reference written here
from its description (``fred.search`` module docstring) and against hand-derived outcomes.

The description: each of the ``width`` kept candidates is extended only by the 10 positions outside it of
largest singleton drop, and a set reached from two kept candidates is kept once per candidate (it may fill two
places of the next beam). Everything else (threshold, ties, best across sizes) is as in fred's beam.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from fred import Fred
from fred.search import search_candidates
from tests.fred.test_explainer_search import brute_force_drop

TIE_TOL = 1e-12
EXTENSIONS = 10  # the released code's max_missing_per_candidate, restated here rather than imported


def _ranked(entries, tie_tol):
    """Entries (set, drop), best first: largest drop, drops within tie_tol of the best left tie and go to the
    smallest position tuple, then to the earlier entry (a set listed twice keeps both places)."""
    left, order = list(entries), []
    while left:
        top = max(v for _, v in left)
        pick = min(range(len(left)), key=lambda i: (top - left[i][1] > tie_tol, left[i][0], i))
        order.append(left.pop(pick))
    return order


def reference_released_beam(perturbed, weights, d, threshold, max_len, width, tie_tol):
    """The released beam with lists: returns (best_ids, drop, found, n_evaluated)."""
    b = perturbed.shape[1]
    level = [((j,), v) for j in range(b) if (v := brute_force_drop(perturbed, weights, d, (j,))) is not None]
    singles = [s[0] for s, _ in _ranked(level, tie_tol)]
    best, evaluated = None, 0
    for size in range(1, min(max_len, b) + 1):
        if not level:
            break
        evaluated += len(level)
        top, value = _ranked(level, tie_tol)[0]
        if value >= threshold - tie_tol:
            return top, value, True, evaluated
        if best is None or value - best[1] > tie_tol:
            best = (top, value)
        if size == min(max_len, b):
            break
        extended = []
        for prefix, _ in _ranked(level, tie_tol)[:width]:
            for j in [j for j in singles if j not in prefix][:EXTENSIONS]:
                cand = tuple(sorted(prefix + (j,)))
                v = brute_force_drop(perturbed, weights, d, cand)
                if v is not None:
                    extended.append((cand, v))
        level = extended
    return (best[0], best[1], False, evaluated) if best else ((), None, False, evaluated)


@st.composite
def designs(draw):
    """Up to 14 positions (so that 10 extensions leave some out), per-row drops in quarters (exact ties are
    frequent), some positions possibly never perturbed."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    b = draw(st.integers(1, 14))
    n = draw(st.integers(1, 60))
    perturbed = rng.random((n, b)) < draw(st.floats(0.2, 0.9))
    d = rng.integers(-1, draw(st.integers(0, 3)), size=n) / 4.0
    threshold = draw(st.sampled_from([-0.5, 0.0, 0.25, 0.5, 1.0, 9.0]))
    return perturbed, np.full(n, 1.0 / n), d, threshold


@given(designs(), st.integers(1, 6), st.integers(1, 5))
def test_released_beam_equals_the_list_based_reference(design, max_len, width):
    """Catches extensions by every position (not the 10 of largest singleton drop outside the prefix), the 10
    taken among all positions before removing the prefix's own, duplicates merged (fred's beam rule) or counted
    once in n_evaluated, a singleton order whose exact ties are not broken by position, and undefined positions
    taking extension places."""
    perturbed, weights, d, threshold = design
    got = search_candidates(perturbed, weights, d, threshold, max_len, "released-beam", width, TIE_TOL)
    ids, drop, found, evaluated = reference_released_beam(perturbed, weights, d, threshold, max_len, width, TIE_TOL)
    context = f"design={design} max_len={max_len} width={width}"
    assert (got.best_ids, got.found, got.n_evaluated, got.strategy) == (ids, found, evaluated, "released-beam"), context
    if drop is None:
        assert got.drop is None, context
    else:
        assert_allclose(got.drop, drop, rtol=1e-12, atol=1e-15, err_msg=context)


@pytest.mark.parametrize("b, max_len, released, beam", [
    (5, 3, 5 + 4 * 4 + 4 * 3, None),  # 4 prefixes x 4 outside, then 4 x 3: duplicates counted
    (13, 2, 13 + 4 * 10, 13 + (78 - 36)),  # 12 outside each prefix, 10 taken; the beam: C(13,2) - C(9,2) pairs
])
def test_candidate_counts_by_hand(b, max_len, released, beam):
    """Every pattern of b positions once, an unreachable threshold: the released beam evaluates b singletons,
    then 4 x min(10, b - k) sets per size k, whatever the drops (hand counts in the parameters); fred's beam at
    b = 13 evaluates the 42 distinct pairs holding one of the 4 kept singletons. Catches duplicates merged and the
    10-position limit ignored."""
    perturbed = np.array(list(itertools.product([False, True], repeat=b)))
    rng = np.random.default_rng(0)
    d = rng.normal(size=len(perturbed))
    weights = np.full(len(perturbed), 1.0 / len(perturbed))
    got = search_candidates(perturbed, weights, d, 1e9, max_len, "released-beam", 4, TIE_TOL)
    assert got.n_evaluated == released and not got.found
    if beam is not None:
        assert search_candidates(perturbed, weights, d, 1e9, max_len, "beam", 4, TIE_TOL).n_evaluated == beam


def test_singleton_order_ties_within_tolerance_go_to_the_smaller_position():
    """12 positions, one row each except position 11 (three rows: 0.2, -0.4 and 1.1, the last also perturbing
    position 0): singleton drops t0 (1 + 1.1) / 2 = 1.05, t1..t9 0.5, t10 0.3 and t11 0.3, which floats compute
    one ulp above 0.3 (checked, so the test bites). Within the tolerance t10 and t11 tie, so t10 comes first and
    {0} is extended by t1..t10: no pair reaches the threshold 1.08 (the only defined pair with t0 is {0, 11},
    drop 1.1) and the answer is {0}, not found. Catches a singleton order by exact float comparison, which
    would put t11 tenth and return {0, 11}."""
    b, rows, d = 12, [], []
    for positions, value in [((0,), 1.0), ((0, 11), 1.1), *[((j,), 0.5) for j in range(1, 10)], ((10,), 0.3),
                             ((11,), 0.2), ((11,), -0.4)]:
        rows.append(np.isin(np.arange(b), positions))
        d.append(value)
    perturbed, weights, d = np.array(rows), np.ones(len(rows)), np.array(d)
    got = search_candidates(perturbed, weights, d, 1.08, 10, "released-beam", 4, TIE_TOL)
    assert 0 < got.importances[11] - got.importances[10] <= TIE_TOL, got.importances
    assert (got.best_ids, got.found) == ((0,), False)
    assert search_candidates(perturbed, weights, d, 1.08, 10, "beam", 4, TIE_TOL).best_ids == (0, 11)


def _interaction_model(texts):
    """f = 10 - sum_i a_i z_i - 4 z_0 z_11 on tokens t0..t11 (z_i = 1 when t_i is masked), a_0 = 1, a_1..a_10 =
    0.1, a_11 = -2: a regression output."""
    a = np.array([1.0] + [0.1] * 10 + [-2.0])
    z = np.array([[tok == "UNK" for tok in t.split()] for t in texts], dtype=float)
    return 10.0 - z @ a - 4.0 * z[:, 0] * z[:, 11]


def test_ten_position_limit_changes_the_explanation_by_hand():
    """Exact drops at p = 1/2, baseline f(xi) = 10, eps = 0.3 (threshold 3). With sum a_i = 0, drop(S) =
    (1/2) sum_{i in S} a_i + 4 P(z_0 = z_11 = 1 | S): singletons 2.5 (t0), 1.05 (t1..t10), 1.0 (t11); pairs
    {0, 11} 3.5, {0, j} 2.55, others at most 1.1. Fred's beam keeps {0} and extends it by t11: {0, 11} at size 2.
    The released beam extends {0} by t1..t10 only (t11 has the smallest singleton drop), keeps {0,1} twice and
    {0,2} twice, and finds {0, 1, 11} = (1/2)(1 + 0.1 - 2) + 4 = 3.55 at size 3 (tied with {0, 2, 11}, smaller
    tuple). Catches a released beam that extends by every position, or one that is not reachable from Fred."""
    text = " ".join(f"t{i}" for i in range(12))

    def explain(search):
        return Fred(_interaction_model, sampler="exact", baseline="original", search=search).explain(
            text, label=None, p=0.5, eps=0.3)

    beam, released, exhaustive = explain("beam"), explain("released-beam"), explain("exhaustive")
    assert (beam.best_ids, beam.found, exhaustive.best_ids) == ((0, 11), True, (0, 11))
    assert (released.best_ids, released.found, released.search) == ((0, 1, 11), True, "released-beam")
    assert_allclose([beam.drop, released.drop, released.threshold], [3.5, 3.55, 3.0], rtol=1e-12)


def test_unknown_search_lists_the_released_beam():
    """Catches the new choice missing from the constructor's check (refused) or from its message."""
    with pytest.raises(ValueError) as info:
        Fred(_interaction_model, search="released")
    assert str(info.value) == ("search must be one of ('auto', 'exhaustive', 'beam', 'released-beam'), "
                               "got 'released'")
