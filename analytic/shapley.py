"""SHAP on text, exactly: Shapley values of the masking game and the Owen values its partition explainer computes.

The game. Player i is position i; a coalition S is the set of kept positions, every other position replaced by
the mask token, and v(S) = f of that text: ``table[code]`` with the bits of ``code`` the masked positions (the
module :mod:`analytic.patterns`' convention). The base value is v(empty) = ``table[-1]``, f of the all-mask text,
which is what ``shap.maskers.Text`` with a ``mask_token`` (the evaluation: ``"UNK "``, no collapsing) gives.

Which quantity the evaluation gets. ``shap.Explainer(f, shap.maskers.Text(...))`` is a ``PartitionExplainer``
(shap 0.51.0, ``explainers/_partition.py``): it does not compute Shapley values but, on the binary tree the Text
masker builds over the tokens (``masker.clustering(text)``, a scipy-style linkage matrix), the recursion::

    node N with context C (kept set outside N), weight w; children L, R:
        recurse on (L, C, w/2), (R, C, w/2), (L, C + R, w/2), (R, C + L, w/2);
    leaf i with context C, weight w: phi_i += w (v(C + i) - v(C)),

started at the root with C = empty, w = 1 (``fixed_context=None``, its default). At each node the two children
share v(C + N) - v(C) as the two-player Shapley value does; the result is the Owen value of the nested coalition
structure the tree defines (Owen, 1977; Winter's levels, 1989): the average marginal contribution over the
orderings in which every subtree's positions come consecutively. It equals the Shapley value when f is additive
(both give phi_i = A_i, the position's own contribution, for f = lambda_0 + sum_i A_i z_i) and in general differs
from it. shap computes it exactly only when its budget covers the whole tree: 2 sum over internal nodes of
2^depth evaluations, plus 2 (``max_evals`` defaults to 500); past the budget it leaves what remains on the
internal nodes and splits it by leaf counts, which :func:`partition_evaluations` lets a caller rule out.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .patterns import check_b, check_table, popcounts, table_b

#: ``PartitionExplainer``'s default ``max_evals`` ("auto" becomes 500).
PARTITION_MAX_EVALS = 500


@dataclass(frozen=True)
class ShapValues:
    """Per-position values and the base value v(empty); ``values`` sum to v(all) - v(empty) (efficiency)."""

    values: tuple
    base_value: object

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"values": [float(x) for x in self.values], "base_value": float(self.base_value)}


def _game(table) -> tuple[np.ndarray, int]:
    """The table and b: an object array when it holds Fractions (exact arithmetic), else the float array of
    :func:`~analytic.patterns.check_table`; ValueError naming the table unless it is 1-d of length 2^b (b >= 1)."""
    if any(isinstance(x, Fraction) for x in np.ravel(table)):
        exact = np.asarray(table, dtype=object)
        return exact, table_b(exact)
    return check_table(table)


def shapley_values(table) -> ShapValues:
    """Exact Shapley values of the masking game, by enumeration of all coalitions.

    phi_i = sum_{S not containing i} |S|! (b - |S| - 1)! / b! (v(S + i) - v(S)). Fractions in give Fractions out.

    >>> from fractions import Fraction as F
    >>> shapley_values([F(1), F(0), F(0), F(0)]).values   # v = 1 iff both kept: split equally
    (Fraction(1, 2), Fraction(1, 2))
    """
    v, b = _game(table)
    exact = v.dtype == object
    codes = np.arange(2**b)
    kept = b - popcounts(b)
    # one weight per coalition size, computed once, not once per coalition and player
    by_size = [Fraction(math.factorial(s) * math.factorial(b - s - 1), math.factorial(b)) for s in range(b)]
    if not exact:
        by_size = [float(w) for w in by_size]
    values = []
    for i in range(b):
        without = codes[codes >> i & 1 == 1]  # coalitions S (kept sets) not containing i
        values.append(sum(by_size[kept[code]] * (v[code ^ 1 << i] - v[code]) for code in without))
    return ShapValues(tuple(values), v[-1])


def _tree(linkage, b: int) -> list[tuple[int, int]]:
    """Children (left, right) of each internal node b + r of a scipy-style linkage matrix; ValueError if it is
    not a binary tree over the b positions."""
    rows = np.asarray(linkage)
    if rows.ndim != 2 or rows.shape[0] != b - 1 or rows.shape[1] < 2:
        raise ValueError(f"linkage must have b - 1 = {b - 1} rows of (left, right, ...), got shape {rows.shape}")
    children = [(int(r[0]), int(r[1])) for r in rows]
    seen = sorted(c for pair in children for c in pair)
    if seen != list(range(2 * b - 2)) or any(max(pair) >= b + r for r, pair in enumerate(children)):
        raise ValueError("linkage must be a binary tree: every node 0 .. 2b-3 a child once, of a later node")
    return children


def _leaves(node: int, b: int, children: list) -> int:
    """Bit mask of the positions under ``node``."""
    if node < b:
        return 1 << node
    left, right = children[node - b]
    return _leaves(left, b, children) | _leaves(right, b, children)


def owen_values(table, linkage) -> ShapValues:
    """Exact Owen values of the masking game on a binary tree: what shap's ``PartitionExplainer`` computes.

    The recursion of the module docstring, on the exact table (Fractions in give Fractions out).

    Parameters
    ----------
    table : 2^b values v (code = masked positions).
    linkage : (b - 1, >= 2) array; row r joins nodes ``linkage[r, 0]`` and ``linkage[r, 1]`` into node b + r
        (positions are nodes 0 .. b - 1), as in scipy and in ``shap.maskers.Text.clustering``.

    >>> from fractions import Fraction as F
    >>> v = [F(1), F(0), F(0), F(0), F(0), F(0), F(0), F(0)]   # v = 1 iff all three kept
    >>> owen_values(v, [[0, 1], [3, 2]]).values   # ((0, 1), 2): the pair gets 1/2 at the root, 1/4 each
    (Fraction(1, 4), Fraction(1, 4), Fraction(1, 2))
    """
    v, b = _game(table)
    full = 2**b - 1
    if b == 1:
        return ShapValues((v[0] - v[1],), v[-1])
    children = _tree(linkage, b)
    masks = [_leaves(node, b, children) for node in range(2 * b - 1)]
    half = Fraction(1, 2) if v.dtype == object else 0.5
    values = [0 * v[0]] * b

    def value(kept: int):
        return v[full ^ kept]

    def recurse(node: int, context: int, weight) -> None:
        if node < b:
            values[node] += weight * (value(context | masks[node]) - value(context))
            return
        left, right = children[node - b]
        for child, other in ((left, right), (right, left)):
            recurse(child, context, weight * half)
            recurse(child, context | masks[other], weight * half)

    recurse(2 * b - 2, 0, 1)
    return ShapValues(tuple(values), v[-1])


def owen_values_by_orderings(table, linkage) -> ShapValues:
    """Owen values as the mean marginal contribution over the orderings that keep every subtree consecutive
    (the definition, by brute force over all b! orderings: b <= 8). A second computation of :func:`owen_values`.

    >>> from fractions import Fraction as F
    >>> owen_values_by_orderings([F(1), F(0), F(0), F(0), F(0), F(0), F(0), F(0)], [[0, 1], [3, 2]]).values
    (Fraction(1, 4), Fraction(1, 4), Fraction(1, 2))
    """
    v, b = _game(table)
    if b > 8:
        raise ValueError(f"owen_values_by_orderings enumerates b! orderings: b must be <= 8, got {b}")
    full = 2**b - 1
    children = _tree(linkage, b) if b > 1 else []
    groups = [_leaves(node, b, children) for node in range(b, 2 * b - 1)]
    totals = [0 * v[0]] * b
    count = 0
    for order in itertools.permutations(range(b)):
        prefix_masks, mask = [], 0
        for i in order:
            mask |= 1 << i
            prefix_masks.append(mask)
        # a group is consecutive iff its positions in the ordering span exactly its size
        rank = {i: r for r, i in enumerate(order)}
        if any(max(rank[i] for i in range(b) if g >> i & 1) - min(rank[i] for i in range(b) if g >> i & 1) + 1
               != g.bit_count() for g in groups):
            continue
        count += 1
        before = 0
        for i, mask in zip(order, prefix_masks):
            totals[i] += v[full ^ mask] - v[full ^ before]
            before = mask
    scale = Fraction(1, count) if v.dtype == object else 1.0 / count
    return ShapValues(tuple(t * scale for t in totals), v[-1])


def partition_evaluations(linkage, b: int) -> int:
    """Model evaluations shap's ``PartitionExplainer`` needs to explore the whole tree: 2 + 2 sum 2^depth over
    internal nodes (the root at depth 0). Its values are exactly :func:`owen_values` iff this is <= ``max_evals``.

    >>> partition_evaluations([[0, 1], [3, 2]], 3)   # root: 2 evaluations; node 3 in 2 contexts: 4 more
    8
    """
    b = check_b(b)
    if b == 1:
        return 2
    children = _tree(linkage, b)
    total, frontier = 0, [(2 * b - 2, 0)]
    while frontier:
        node, depth = frontier.pop()
        if node >= b:
            total += 2 * 2**depth
            frontier.extend((child, depth + 1) for child in children[node - b])
    return 2 + total


def additive_shapley(weights) -> tuple:
    """Closed form on an additive game v(S) = lambda_0 + sum_{i in S} A_i: Shapley = Owen = (A_1, ..., A_b).

    Each marginal contribution v(S + i) - v(S) is A_i, and every weighting of them (the Shapley weights, the
    tree's) sums to 1.

    >>> additive_shapley([0.5, -1.0])
    (0.5, -1.0)
    """
    weights = tuple(weights)
    check_b(len(weights))
    return weights
