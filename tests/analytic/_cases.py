"""Tolerances and helpers shared by the closed-form tests of several analytic modules.

Tolerances: values are O(10); enumeration sums at most 2^8 products, so
1e-12 relative / 1e-12 absolute is ~1e3 ulps of headroom.
"""

from __future__ import annotations

import itertools
from collections import Counter

import sympy as sp

RTOL = ATOL = 1e-12
P = sp.Symbol("p", positive=True)


def first_occurrences(tokens, word_counts: dict) -> list[int]:
    """Positions of the first c_w occurrences of each word w (a candidate given as word counts)."""
    out, seen = [], Counter()
    for i, t in enumerate(tokens):
        if seen[t] < word_counts.get(t, 0):
            out.append(i)
            seen[t] += 1
    return out


def count_vectors(m):
    return itertools.product(*[range(k + 1) for k in m])
