"""The vectorised search bookkeeping (issue 17) against plain-Python references written here.

``fred.search`` keeps candidates as arrays and ``fred.drops.DesignDrops`` converts
the design once and restricts products to covered rows; the references below
use tuples, dictionaries and the row loop of ``test_explainer_search.brute_force_drop``.
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from fred.drops import DesignDrops
from fred.search import search_candidates
from tests.fred.test_explainer_search import brute_force_drop

DROP_RTOL = 1e-12  # both sides sum the same floats in different orders
TIE_TOL = 1e-12


def reference_beam(perturbed, weights, d, threshold, max_len, width, tie_tol):
    """Beam search with lists and dicts: rank best first (largest drop; drops within tie_tol of the best
    left are ties, won by the smallest position tuple), extend the ``width`` best by every other position,
    a set reached twice keeping its first entry. Returns (best_ids, drop, found, n_evaluated)."""
    b = perturbed.shape[1]

    def ranked(level):
        left, order = dict(level), []
        while left:
            top = max(left.values())
            order.append(min(s for s, v in left.items() if top - v <= tie_tol))
            del left[order[-1]]
        return order

    level = {}
    for j in range(b):
        v = brute_force_drop(perturbed, weights, d, (j,))
        if v is not None:
            level[(j,)] = v
    best, evaluated = None, 0
    for size in range(1, min(max_len, b) + 1):
        if not level:
            break
        evaluated += len(level)
        top = ranked(level)[0]
        if level[top] >= threshold - tie_tol:
            return top, level[top], True, evaluated
        if best is None or level[top] - best[1] > tie_tol:
            best = (top, level[top])
        if size == min(max_len, b):
            break
        extended = {}
        for prefix in ranked(level)[:width]:
            for j in range(b):
                if j not in prefix:
                    cand = tuple(sorted(prefix + (j,)))
                    v = brute_force_drop(perturbed, weights, d, cand)
                    if v is not None:
                        extended.setdefault(cand, v)
        level = extended
    return (best[0], best[1], False, evaluated) if best else ((), None, False, evaluated)


@st.composite
def designs(draw):
    """A random design with per-row drops taking 1 to 4 values in quarters (exact ties are frequent, and
    with one value every candidate ties) and a threshold."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    b = draw(st.integers(1, 8))
    n = draw(st.integers(1, 60))
    perturbed = rng.random((n, b)) < draw(st.floats(0.2, 0.9))
    d = rng.integers(-1, draw(st.integers(0, 3)), size=n) / 4.0
    threshold = draw(st.sampled_from([-0.5, 0.0, 0.25, 0.5, 1.0, 9.0]))
    return perturbed, np.full(n, 1.0 / n), d, threshold


@given(designs(), st.integers(1, 8), st.integers(1, 5))
def test_vectorised_beam_equals_the_list_based_beam(design, max_len, width):
    """Catches array bookkeeping that differs from the list-based beam: ties broken by array order instead
    of by position tuple, a beam that keeps a duplicate of a set reached from two prefixes (it then
    counts it twice in n_evaluated and may keep it twice in the next beam), extensions by a position
    already in the prefix, or candidates lost when building the next size."""
    perturbed, weights, d, threshold = design
    got = search_candidates(perturbed, weights, d, threshold, max_len, "beam", width, TIE_TOL)
    ids, drop, found, evaluated = reference_beam(perturbed, weights, d, threshold, max_len, width, TIE_TOL)
    context = f"design={design} max_len={max_len} width={width}"
    assert (got.best_ids, got.found, got.n_evaluated) == (ids, found, evaluated), context
    assert all(isinstance(i, int) for i in got.best_ids), context
    if drop is None:
        assert got.drop is None, context
    else:
        assert_allclose(got.drop, drop, rtol=DROP_RTOL, atol=1e-15, err_msg=context)


@given(st.integers(0, 2**32 - 1), st.integers(2, 200), st.integers(1, 7), st.floats(0.05, 0.95),
       st.integers(0, 6), st.integers(1, 5))
def test_design_drops_equal_the_row_loop_for_every_prefix_size(seed, n, b, p, k, n_prefixes):
    """Catches a product restricted to the wrong rows (the covered-row shortcut taken when k positions
    cover at most half the rows), prefixes misaligned with their rows, and wrong undefined entries."""
    k = min(k, b)
    rng = np.random.default_rng(seed)
    perturbed = rng.random((n, b)) < p
    weights = rng.random(n) + 0.5
    d = rng.normal(size=n)
    prefixes = np.array([np.sort(rng.choice(b, k, replace=False)) for _ in range(n_prefixes)],
                        dtype=np.intp).reshape(n_prefixes, k)
    drops, defined = DesignDrops(perturbed, weights, d).extension_drops(prefixes)
    for r, prefix in enumerate(prefixes):
        for j in range(b):
            want = brute_force_drop(perturbed, weights, d, tuple(sorted(set(prefix) | {j})))
            assert defined[r, j] == (want is not None), (seed, r, j)
            if want is not None:
                assert_allclose(drops[r, j], want, rtol=DROP_RTOL, atol=1e-14)


def test_both_product_branches_are_exercised():
    """The shortcut gathers the covered rows only when they are at most half: pin one case on each side,
    so the property test above is known to reach both (catches a threshold that never or always fires)."""
    perturbed = np.array(list(itertools.product([False, True], repeat=4)))  # each prefix of size k covers n/2**k
    n = len(perturbed)
    weights, d = np.full(n, 1.0 / n), np.arange(n, dtype=float)
    design = DesignDrops(perturbed, weights, d)
    for prefixes in (np.array([[0]]), np.array([[0], [1]]), np.array([[0, 1]])):  # covers 8, 12, 4 of 16 rows
        drops, defined = design.extension_drops(prefixes)
        for r, prefix in enumerate(prefixes):
            for j in range(4):
                want = brute_force_drop(perturbed, weights, d, tuple(sorted(set(prefix) | {j})))
                assert defined[r, j] and abs(drops[r, j] - want) <= 1e-12
