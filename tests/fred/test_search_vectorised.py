"""The vectorised search bookkeeping (issue 17) against plain-Python references written here.

``fred.search`` keeps candidates as arrays and ``fred.drops.DesignDrops`` converts
the design once and restricts products to covered rows; the references below
use tuples, dictionaries and the row loop of ``test_explainer_search.brute_force_drop``.
"""

from __future__ import annotations

import itertools
import threading
from types import SimpleNamespace

import numpy as np
import pytest
import threadpoolctl
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from fred import drops
from fred import search as search_module
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


def _blas_threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpoolctl.threadpool_info() if lib["user_api"] == "blas"]


@pytest.mark.parametrize("n, b, search, limited_from", [(8, 3, "beam", None), (4096, 12, "beam", 0),
                                                       (3000, 40, "beam", 0), (1000, 9, "exhaustive", 2)],
                         ids=["exact-b3", "exact-b12", "monte-carlo-b40", "exhaustive-b9-from-pairs"])
def test_blas_is_limited_to_one_thread_exactly_when_a_product_could_use_threads(monkeypatch, n, b, search,
                                                                                   limited_from):
    """BLAS runs on one thread from the first product of a search that reaches the thresholds of BLAS's own
    threading (OpenBLAS's, drops._OPENBLAS_ONE_THREAD: for the singletons' matrix-vector products and for the
    prefixes' matrix products) to the end of the search, and is left alone on a small design; afterwards the threads
    are restored. Seen between the products, when each size's best candidate is chosen. Catches a large search run
    with BLAS threads (300 times slower on a busy machine) and a small one paying for setting and restoring the
    limit (a tenth of a small exact explanation)."""
    before = _blas_threads()
    if not before or max(before) == 1:
        pytest.skip("BLAS already runs on one thread here: nothing to tell apart")
    if drops._one_thread_below() != drops._OPENBLAS_ONE_THREAD:
        pytest.skip("a BLAS other than OpenBLAS is loaded: every product is limited (the next test)")
    assert (n * b >= drops._OPENBLAS_ONE_THREAD[0]) == (limited_from == 0)  # the singletons' product decides
    seen = _threads_between_products(monkeypatch, n, b, search)  # the exhaustive search chooses once per size
    assert len(seen) >= 3 and seen == [before if limited_from is None or i < limited_from else [1] * len(before)
                                       for i in range(len(seen))], seen
    assert _blas_threads() == before


def _threads_between_products(monkeypatch, n: int, b: int, search: str) -> list[list[int]]:
    """BLAS's threads seen whenever the search picks a best candidate (sizes 1 to 4, random rows)."""
    seen = []
    best_index = search_module._best_index
    monkeypatch.setattr(search_module, "_best_index", lambda *args, **kw: seen.append(_blas_threads()) or
                        best_index(*args, **kw))
    rng = np.random.default_rng(n + b)
    perturbed = rng.random((n, b)) < 0.5
    search_candidates(perturbed, np.full(n, 1.0 / n), rng.normal(size=n), np.inf, 4, search, 2, 1e-12)
    return seen


def test_with_another_blas_every_search_is_limited_and_the_library_is_read_from_threadpoolctl(monkeypatch):
    """OpenBLAS's thresholds are used only when threadpoolctl lists nothing but OpenBLAS (read through a fake
    controller listing given libraries); otherwise (MKL, BLIS may thread small products, and a product's last bits
    can depend on its threads) even the smallest search runs on one thread. Catches the thresholds applied to any
    library, or when any one is OpenBLAS, and wrong thresholds."""
    def read(*apis):
        fake = SimpleNamespace(select=lambda user_api: SimpleNamespace(
            lib_controllers=[SimpleNamespace(internal_api=api) for api in apis]))
        drops._one_thread_below.cache_clear()
        with monkeypatch.context() as patch:
            patch.setattr(drops, "_blas_controller", lambda: fake)
            return drops._one_thread_below()

    try:
        assert read("openblas", "openblas") == (2304 * 4, 65536 * 4)  # OpenBLAS's gemv and gemm thresholds
        assert read("openblas", "mkl") == (0, 0)  # beside MKL: its thresholds are unknown
        assert read("blis") == (0, 0)
    finally:
        drops._one_thread_below.cache_clear()
    before = _blas_threads()
    if not before or max(before) == 1:
        pytest.skip("BLAS already runs on one thread here: nothing to tell apart")
    monkeypatch.setattr(drops, "_one_thread_below", lambda: (0, 0))
    seen = _threads_between_products(monkeypatch, 8, 3, "beam")
    assert len(seen) >= 3 and seen == [[1] * len(before)] * len(seen), seen
    assert _blas_threads() == before


def test_nested_blocks_of_two_designs_keep_the_limit_until_the_outermost_ends():
    """A design's single_threaded block opened inside another's, the inner one limiting first: BLAS stays on one
    thread until the outer block ends, then gets its threads back. Catches the limit owned by the design that set
    it (restored when the inner block ends, while the outer one's products still run, and set again for the rest of
    the process when the outer one restores what it saw)."""
    before = _blas_threads()
    if not before or max(before) == 1:
        pytest.skip("BLAS already runs on one thread here: nothing to tell apart")
    rng = np.random.default_rng(0)
    outer, inner = (DesignDrops(rng.random((4096, 12)) < 0.5, np.full(4096, 1 / 4096), rng.normal(size=4096))
                    for _ in range(2))
    singletons = np.zeros((1, 0), dtype=np.intp)  # a 4096 x 12 matrix-vector product: limited under OpenBLAS too
    seen = []
    with outer.single_threaded():
        with inner.single_threaded():
            inner.extension_drops(singletons)
            seen.append(_blas_threads())
            outer.extension_drops(singletons)
        seen.append(_blas_threads())
    seen.append(_blas_threads())
    one = [1] * len(before)
    assert seen == [one, one, before]


def test_a_block_ended_in_another_thread_is_over_for_the_thread_that_opened_it():
    """A block held by a generator and closed in another thread ends the block of the thread that opened it, which
    can open a new one (and limit BLAS again). Catches block state read from whichever thread ends the block: the
    opening thread would stay 'inside a block' for good, and never limit BLAS again. (Where the closing thread
    restores BLAS's threads is threadpoolctl's and OpenBLAS's business: here, only for itself; the threads are set
    back at the end.)"""
    before = _blas_threads()
    rng = np.random.default_rng(1)
    design = DesignDrops(rng.random((4096, 12)) < 0.5, np.full(4096, 1 / 4096), rng.normal(size=4096))

    def held():
        with design.single_threaded():
            yield design.extension_drops(np.zeros((1, 0), dtype=np.intp))

    block = held()
    try:
        next(block)
        assert drops._block().limits is not None
        closer = threading.Thread(target=block.close)
        closer.start()
        closer.join()
        assert drops._block().limits is None and not drops._block().limited
    finally:
        if before:
            threadpoolctl.threadpool_limits(limits=max(before), user_api="blas")
