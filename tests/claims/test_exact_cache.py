"""The cache of the claims' explainer-independent side (analytic/exact_cache.py) and every function cached
with it: keyed by every argument and its type, and no caller can change what the next one reads.

Each cached function is checked the same way: after a call with one set of arguments, a call with another must
give what the uncached function (``__wrapped__``) gives for it, and the two answers must differ (so the pair
really tells a key that drops or merges an argument). The claims' outputs themselves are checked against
independent computations by their own test files; these tests are about the cache alone.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from analytic.exact_cache import exact_cache, frozen, typed_key
from proofs_checks.cases import linear_conclusions
from proofs_checks.claims.propositions import prop1_cases, prop1_logistic, prop1_step_link
from proofs_checks.models.family import cases

F = Fraction


def _same(x, y) -> bool:
    """Deep equality of cached answers (arrays element-wise, NaN equal to NaN)."""
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        return np.array_equal(np.asarray(x), np.asarray(y), equal_nan=True)
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_same(x[k], y[k]) for k in x)
    if isinstance(x, (tuple, list)) and isinstance(y, (tuple, list)):
        return type(x) is type(y) and len(x) == len(y) and all(_same(u, v) for u, v in zip(x, y))
    return type(x) is type(y) and x == y


def test_typed_key_tells_equal_values_of_other_types_apart():
    """Catches a key by value alone: 1, 1.0, Fraction(1), np.float64(1) and True are equal with equal hashes, and
    a tuple holding one or the other would share a cache entry (a float answer served to an exact call)."""
    values = [1, 1.0, F(1), np.float64(1.0), True]
    assert len({typed_key(v) for v in values}) == len(values)
    assert len({typed_key((v, 2)) for v in values}) == len(values)
    assert len({typed_key(((v,), 2)) for v in values}) == len(values)
    assert typed_key((1, (F(1, 2), 0.5))) == typed_key((1, (F(2, 4), 0.5)))  # equal and of one type: one entry


def test_exact_cache_keys_by_type_and_keyword():
    """Catches an exact_cache whose key ignores the type of an argument (inside a tuple too) or a keyword
    argument: each call must get the answer of its own arguments, and a repeated call the cached one."""
    calls = []

    @exact_cache
    def kinds(x, *, scale=1):
        calls.append((x, scale))
        return type(x).__name__, type(x[0]).__name__ if isinstance(x, tuple) else None, scale

    assert kinds(1) == ("int", None, 1)
    assert kinds(1.0) == ("float", None, 1)
    assert kinds(F(1)) == ("Fraction", None, 1)
    assert kinds((1,)) == ("tuple", "int", 1)
    assert kinds((1.0,)) == ("tuple", "float", 1)
    assert kinds(1, scale=2) == ("int", None, 2)
    assert kinds(1) == ("int", None, 1) and len(calls) == 6  # the repeated call came from the cache
    assert kinds.cache_info().hits == 1


def test_exact_cache_with_copy_gives_each_caller_its_own_value():
    """Catches a cached dict or list handed out twice: a caller that changes its copy would change what every
    later claim run reads."""

    @exact_cache(copy=True)
    def record():
        return {"solutions": [[0], [1]]}

    first = record()
    first["solutions"].append([2])
    first["new"] = 1
    assert record() == {"solutions": [[0], [1]]}


def test_frozen_arrays_refuse_writes():
    """Catches a cached array that a caller could write to (frozen must make a read-only copy)."""
    source = np.arange(3.0)
    out = frozen(source)
    with pytest.raises(ValueError):
        out[0] = 5.0
    source[0] = 7.0
    assert out[0] == 0.0  # a copy: the source changing later does not reach the cache


def _case(kind: str, k: int):
    return cases(kind)[k]


#: (cached function, first arguments, second arguments): the two calls must give different answers.
A, B = (F(1), F(-1, 2)), (F(2), F(1))
CACHED = [
    pytest.param(prop1_logistic._float_solutions, (A, F(0), F(1, 2), F(15, 100)), (A, F(0), F(9, 10), F(15, 100)),
                 id="prop1_logistic._float_solutions-p"),
    pytest.param(prop1_logistic._float_solutions, (B, F(-1), F(1, 2), F(1, 20)), (B, F(-1), F(1, 2), F(1)),
                 id="prop1_logistic._float_solutions-eps"),
    pytest.param(prop1_logistic._linear_size, (B, F(0), F(1, 2), F(1, 20)), (B, F(0), F(1, 2), F(1)),
                 id="prop1_logistic._linear_size-eps"),
    pytest.param(prop1_logistic._exact_record, (B, F(0), F(1, 2), F(15, 100)), (B, F(1), F(1, 2), F(15, 100)),
                 id="prop1_logistic._exact_record-intercept"),
    pytest.param(prop1_cases._confirmed, (B, F(0), F(1, 2), F(15, 100)), (B, F(0), F(1, 2), F(1)),
                 id="prop1_cases._confirmed-eps"),
    pytest.param(prop1_step_link._exact_side, (B, F(0), F(1, 2), F(3, 20), prop1_step_link.LINEAR, 2),
                 (B, F(0), F(1, 2), F(3, 20), prop1_step_link.PERCEPTRON, 2), id="prop1_step_link._exact_side-link"),
    pytest.param(prop1_step_link._exact_side, (B, F(0), F(1, 2), F(1), prop1_step_link.PERCEPTRON, 1),
                 (B, F(0), F(1, 2), F(1), prop1_step_link.PERCEPTRON, 2), id="prop1_step_link._exact_side-l_max"),
    pytest.param(prop1_step_link._minimal, ("implementation",), ("printed",), id="prop1_step_link._minimal-rule"),
]


@pytest.mark.parametrize("cached, first, second", CACHED)
def test_each_cache_answers_its_own_arguments(cached, first, second):
    """Catches a cached claim function whose key drops or merges an argument: after the first call, the second
    must give the uncached function's answer for its own arguments, which differs from the first's."""
    answer = cached(*first)
    assert _same(cached(*second), cached.__wrapped__(*second))
    assert not _same(answer, cached(*second))
    assert _same(cached(*first), answer)


def test_grid_search_answers_its_own_reading(monkeypatch):
    """Catches prop1_cases._grid_search keyed without the reading: (i) and (ii) break at different grid points.
    The hypothesis search is replaced by a scan of the two-token grid (the key is under test, not the search), and
    the cache is emptied before and after so that no other test reads the stand-in's answers."""

    def first_breaking(breaks):
        point = next((pt for pt in linear_conclusions.grid_points(2) if breaks(pt)), None)
        return {"point": point, "smaller_points_checked": 0, "minimal": True}

    monkeypatch.setattr(prop1_cases, "minimal_grid_counterexample", first_breaking)
    prop1_cases._grid_search.cache_clear()
    try:
        first = prop1_cases._grid_search("(i)")
        assert _same(prop1_cases._grid_search("(ii)"), prop1_cases._grid_search.__wrapped__("(ii)"))
        assert first[0] is not None and first != prop1_cases._grid_search("(ii)")
    finally:
        prop1_cases._grid_search.cache_clear()


def test_enumerated_family_side_answers_its_own_case_and_p():
    """Catches linear_conclusions._enumerated keyed without the case, p or the eps grid: each call must give the
    uncached answer for its own arguments."""
    enumerated = linear_conclusions._enumerated
    calls = [(_case("ridge-raw", 0), 0.5, (0.15,)), (_case("ridge-raw", 1), 0.5, (0.15,)),
             (_case("ridge-raw", 0), 0.1, (0.15,)), (_case("ridge-raw", 0), 0.5, (0.15, 1.0))]
    answers = [enumerated(*c) for c in calls]
    for c, answer in zip(calls, answers):
        assert _same(enumerated(*c), enumerated.__wrapped__(*c))
        assert _same(answer, enumerated.__wrapped__(*c))
    assert all(not _same(answers[0], other) for other in answers[1:])
