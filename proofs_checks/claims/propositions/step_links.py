"""The links of the extension prop1-step-link and the ordering lemma on them (claim ``prop1-step-link``'s machinery).

f = link(Z), Z = sum_i a_i K_i + lambda_0 the linear score of Eq. (6): the links (non-decreasing ones, ties possible,
and strictly increasing ones, all exact on Fractions), f's table on the 2^b patterns, and where the ordering of the
proof's step s2 fails on one model (:func:`order_violations`). No explainer is involved.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from typing import Sequence

from analytic import all_drops_rational, is_top_set, linear_table_rational, top_positions

from ...verdicts.results import hypotheses

#: Where the search's scores lie (b <= 4, weights and intercept in [-3, 3]): |Z| <= 15; links are checked
#: non-decreasing on this range, in steps of 1/4 (the search's denominators).
SCORE_RANGE = [Fraction(k, 4) for k in range(-64, 65)]


def step_gt(z):
    return Fraction(int(z > 0))


#: Non-decreasing links (ties possible) and strictly increasing ones, all exact on Fractions.
PERCEPTRON = "step z > 0 (perceptron)"
NON_DECREASING = {PERCEPTRON: step_gt, "step z >= 0": lambda z: Fraction(int(z >= 0)),
                  "clip(z, 0, 1)": lambda z: min(max(z, Fraction(0)), Fraction(1))}
STRICT = {"z^3 + z": lambda z: z**3 + z, "z + 1{z > 0}": lambda z: z + int(z > 0)}
LINKS, LINEAR = {**NON_DECREASING, **STRICT}, "f = Z (Eq. (6))"  # LINEAR: the linear score itself, Prop. 1's f


def link_table(a, l0, link) -> list:
    """f = link(Z) on the 2^b patterns (bit i set: position i perturbed, K_i = 0)."""
    return [link(z) for z in linear_table_rational(a, l0)]


@functools.lru_cache(maxsize=None)
def perceptron_table(a: tuple, l0) -> tuple:
    """1{Z > 0} on the 2^b patterns; cached because the grid asks for each model once per eps."""
    return tuple(step_gt(z) for z in linear_table_rational(a, l0))


def ordering_hypotheses(ps: Sequence[Fraction], links: Sequence[str]) -> dict:
    """The hypotheses of the ordering lemma (proof steps s2-p4) on a search domain: every p in (0, 1) and every link
    non-decreasing (checked on :data:`SCORE_RANGE`, where the search's scores lie)."""
    return hypotheses(
        p_in_open_unit_interval=all(0 < p < 1 for p in ps),
        links_non_decreasing=all(LINKS[name](x) <= LINKS[name](y) for name in links
                                 for x, y in zip(SCORE_RANGE, SCORE_RANGE[1:])),
    )


def order_violations(a: Sequence[Fraction], l0: Fraction, p: Fraction, link_name: str,
                     drops: dict | None = None) -> list[dict]:
    """Where the ordering of s2 fails on one model (exact drops, computed unless given): a top-weight set not
    of largest drop at its size, a_i > a_j with Delta_i < Delta_j; for a strictly increasing link also a non-top
    set whose drop is not strictly below the top set's, or a_i > a_j with Delta_i <= Delta_j."""
    strict = link_name in STRICT
    if drops is None:
        _, drops = all_drops_rational(link_table(a, l0, LINKS[link_name]), p)
    bad = []
    for size in range(1, len(a) + 1):
        top = drops[top_positions(a, size)]
        for s in itertools.combinations(range(len(a)), size):
            if drops[s] > top or (strict and not is_top_set(a, s, tol=0) and drops[s] >= top):
                bad.append({"size": size, "set": list(s), "drop": str(drops[s]), "top_drop": str(top)})
    for i, j in itertools.permutations(range(len(a)), 2):
        if a[i] > a[j] and (drops[(i,)] < drops[(j,)] or (strict and drops[(i,)] == drops[(j,)])):
            bad.append({"i": i, "j": j, "drop_i": str(drops[(i,)]), "drop_j": str(drops[(j,)])})
    return bad
