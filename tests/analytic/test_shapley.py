"""SHAP exactly (analytic/shapley.py): Shapley values against the permutation definition, Owen values (what
shap's partition explainer computes) against the ordering definition, both against the additive closed form,
and shap's evaluation budget against counts derived by hand.

shap itself is compared with :func:`analytic.shapley.owen_values` in ``tools/baseline_limits.py``, not here: its
first call compiles numba code for 20-40 s, far beyond a unit test's budget.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytic import linear_table_rational
from analytic.shapley import (
    additive_shapley,
    owen_values,
    owen_values_by_orderings,
    partition_evaluations,
    shapley_values,
)


@st.composite
def exact_tables(draw, min_tokens: int = 1, max_tokens: int = 5):
    b = draw(st.integers(min_tokens, max_tokens))
    return [Fraction(draw(st.integers(-4, 4)), draw(st.integers(1, 3))) for _ in range(2**b)]


@st.composite
def binary_trees(draw, b: int):
    """A random binary tree over b positions as a linkage matrix: merge two random current nodes at a time."""
    nodes, rows = list(range(b)), []
    for r in range(b - 1):
        left, right = draw(st.permutations(nodes))[:2]
        nodes = [x for x in nodes if x not in (left, right)] + [b + r]
        rows.append([left, right])
    return rows


def shapley_by_permutations(table):
    """phi_i = mean over all b! orderings of v(before + i) - v(before): the definition, no coalition weights."""
    b = len(table).bit_length() - 1
    full = 2**b - 1
    totals = [Fraction(0)] * b
    for order in itertools.permutations(range(b)):
        kept = 0
        for i in order:
            totals[i] += table[full ^ (kept | 1 << i)] - table[full ^ kept]
            kept |= 1 << i
    return tuple(t / math.factorial(b) for t in totals)


@given(exact_tables())
def test_shapley_equals_permutation_definition(table):
    """Catches wrong coalition weights |S|! (b - |S| - 1)! / b!, a kept/masked bit read backwards or a wrong base
    value: exact Shapley values against the mean over all orderings, in Fractions."""
    result = shapley_values(table)
    assert result.values == shapley_by_permutations(table)
    assert result.base_value == table[-1]


@given(st.data())
def test_owen_recursion_equals_ordering_definition(data):
    """Catches a wrong context in the partition recursion (the sibling not added, the weight not halved, children
    swapped): shap's recursion against the mean over orderings that keep every subtree consecutive, in Fractions,
    on random binary trees."""
    table = data.draw(exact_tables(min_tokens=2, max_tokens=5))
    b = len(table).bit_length() - 1
    tree = data.draw(binary_trees(b))
    assert owen_values(table, tree).values == owen_values_by_orderings(table, tree).values


@given(st.data())
def test_additive_closed_form_and_efficiency(data):
    """Catches a Shapley or Owen value that is not the token's own contribution on an additive model, or values
    that do not sum to v(all) - v(empty): f = lambda_0 + sum A_i z_i in exact rationals."""
    b = data.draw(st.integers(2, 5))
    weights = [Fraction(data.draw(st.integers(-5, 5)), 4) for _ in range(b)]
    table = linear_table_rational(weights, Fraction(1, 3))
    tree = data.draw(binary_trees(b))
    assert shapley_values(table).values == additive_shapley(weights)
    assert owen_values(table, tree).values == additive_shapley(weights)
    random_table = data.draw(exact_tables(min_tokens=b, max_tokens=b))
    for result in (shapley_values(random_table), owen_values(random_table, tree)):
        assert sum(result.values) == random_table[0] - random_table[-1]


def test_owen_differs_from_shapley_minimal_case():
    """Catches treating shap's partition values as Shapley values: the smallest game where they differ, b = 3,
    v = 1 iff all three tokens are kept, tree ((0, 1), 2). By hand: Shapley gives 1/3 each (symmetry); the
    partition splits 1 between the pair and token 2 at the root (1/2 each), then 1/4 to each of the pair."""
    table = [Fraction(1)] + [Fraction(0)] * 7
    assert shapley_values(table).values == (Fraction(1, 3),) * 3
    assert owen_values(table, [[0, 1], [3, 2]]).values == (Fraction(1, 4), Fraction(1, 4), Fraction(1, 2))


def test_float_tables_match_exact_tables():
    """Catches a float path that differs from the Fraction path (the two dtypes of the same computation)."""
    rng = np.random.default_rng(3)
    table = rng.integers(-8, 8, size=32)
    exact = [Fraction(int(x)) for x in table]
    tree = [[0, 1], [2, 3], [5, 6], [4, 7]]
    for method, args in ((shapley_values, ()), (owen_values, (tree,))):
        floats = method(table.astype(float), *args).values
        assert np.allclose(floats, [float(x) for x in method(exact, *args).values])


@pytest.mark.parametrize("b", [2, 3, 6, 9])
def test_partition_budget_of_a_caterpillar(b):
    """Catches a wrong evaluation count (depths off by one, the 2 extra calls forgotten): a caterpillar tree
    (((0, 1), 2), ...) has one internal node per depth 0 .. b - 2, so 2 + 2 (2^(b-1) - 1) = 2^b evaluations."""
    tree = [[0, 1]] + [[b + r - 1, r + 1] for r in range(1, b - 1)]
    assert partition_evaluations(tree, b) == 2**b


@pytest.mark.parametrize("levels", [1, 2, 3])
def test_partition_budget_of_a_balanced_tree(levels):
    """Catches the same on a balanced tree of 2^L leaves: 2^l nodes at depth l, each seen in 2^l contexts, so
    2 + 2 sum_{l < L} 4^l = 2 + 2 (4^L - 1) / 3 evaluations."""
    b = 2**levels
    rows, current, nxt = [], list(range(b)), b
    while len(current) > 1:
        merged = []
        for left, right in zip(current[::2], current[1::2]):
            rows.append([left, right])
            merged.append(nxt)
            nxt += 1
        current = merged
    assert partition_evaluations(rows, b) == 2 + 2 * (4**levels - 1) // 3


def test_invalid_arguments_name_the_parameter():
    """Catches silent acceptance of a table of the wrong length or shape (exact or float), or a linkage that is not a
    binary tree."""
    with pytest.raises(ValueError, match="table"):
        shapley_values([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="table"):
        shapley_values([Fraction(1), Fraction(0), Fraction(0)])
    with pytest.raises(ValueError, match="table"):
        shapley_values(1.0)  # a scalar: once a TypeError that named nothing
    with pytest.raises(ValueError, match="table"):
        owen_values([[0.0, 1.0], [2.0, 3.0]], [[0, 1]])
    with pytest.raises(ValueError, match="linkage"):
        owen_values([0.0] * 8, [[0, 1]])
    with pytest.raises(ValueError, match="linkage"):
        owen_values([0.0] * 8, [[0, 1], [0, 2]])
    with pytest.raises(ValueError, match="b must be <= 8"):
        owen_values_by_orderings([0.0] * 2**9, [[0, 1]] * 8)
