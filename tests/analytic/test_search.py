"""The one search on given drops (analytic/search.py): against a brute force written here, against the batch
form, and against the reference explainer at the threshold, where the copies it replaced disagreed (issue 27)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from analytic import exact_explain, search_batch, search_on_drops, table_classifier, tie_tolerance
from analytic.referee import scaled_drops
from analytic.selection import exact_selection
from fred import Fred


def _brute_force(drops: dict, b: int, threshold, max_len: int):
    """Algorithm 1 on exact drops, spelled out: every set of each size, the first size whose largest drop reaches
    the threshold, the largest drop then the smallest tuple; else the running best (strictly larger replaces)."""
    best = None
    for size in range(1, min(max_len, b) + 1):
        sets = [s for s in itertools.combinations(range(b), size) if s in drops]
        if not sets:
            break
        top = max(drops[s] for s in sets)
        winner = min(s for s in sets if drops[s] == top)
        if top >= threshold:
            return winner, True, tuple(sorted(s for s in sets if drops[s] >= threshold))
        if best is None or top > best[1]:
            best = (winner, top)
    return (best[0] if best else ()), False, ()


@st.composite
def exact_drops(draw):
    """Small-integer Fraction drops over b <= 4 tokens, some candidates undefined (no sample perturbs them)."""
    b = draw(st.integers(1, 4))
    drops = {}
    for code in range(1, 2**b):
        if draw(st.booleans()) or bin(code).count("1") == 1:
            drops[tuple(i for i in range(b) if code >> i & 1)] = Fraction(draw(st.integers(-4, 8)), 4)
    return b, drops


@given(exact_drops(), st.integers(-2, 8), st.integers(1, 4))
def test_exhaustive_search_is_the_brute_force(case, threshold, max_len):
    """Catches a wrong stopping size, a tie going to another tuple than the smallest, an undefined candidate
    taken as a drop of 0, and a fallback that is not the running best: against the brute force above, in exact
    arithmetic (tol = 0), with ties and undefined candidates in play."""
    b, drops = case
    by_code = {sum(1 << i for i in s): d for s, d in drops.items()}
    got = search_on_drops(by_code, b, Fraction(threshold, 4), max_len)
    assert (got.best_ids, got.found, got.solutions) == _brute_force(drops, b, Fraction(threshold, 4), max_len)


@given(st.lists(st.integers(0, 3), min_size=8, max_size=8), st.sampled_from([Fraction(3, 20), Fraction(1, 2)]))
def test_batch_search_is_the_one_search(table, eps):
    """Catches the vectorised integer search (the box scans) departing from search_on_drops on a tie-free table:
    same code and found flag for Algorithm 1 (exhaustive) and for the distinct-set width-4 beam."""
    tables = np.array([table])
    drops = scaled_drops(tables)
    out = search_batch(drops, eps.numerator * tables.sum(1), scale=eps.denominator)
    assume(not out["tie"][0])  # on a tie the batch reports it instead of breaking it (its docstring)
    threshold = eps * int(tables.sum())
    by_code = {c: int(drops[0, c]) for c in range(1, 8)}
    for name, width in (("a", None), ("b", 4)):
        one = search_on_drops(by_code, 3, threshold, 3, width=width)
        if out[f"{name}_found"][0]:
            assert one.found and sum(1 << i for i in one.best_ids) == out[f"{name}_code"][0], (name, table, one)
        else:
            assert not one.found, (name, table, one)


def test_a_drop_rounding_puts_below_the_threshold_meets_it():
    """The regression of issue 27: on f = (0, 8.7e-247) over the two patterns of one token, p = 1/2, eps = 1,
    max_len = 1, the drop of {0} is E[f] - f(perturbed) = -E[f], which misses eps E[f] by 8.7e-247, far inside
    the tie tolerance 1e-12. The referee compared without the tolerance (not found) while the selection module
    and FRED compare with it (found). One rule now: all three say found, the reference explainer included."""
    table = np.array([0.0, 8.7e-247])
    referee = exact_explain(table, 0.5, 1.0, 1)
    fred = Fred(table_classifier(["w"], table), sampler="exact").explain("w", p=0.5, eps=1.0, max_len=1)
    assert referee.found and exact_selection(table, 0.5, 1.0, 1) == ((0,), True)
    assert fred.found and tuple(fred.best_ids) == referee.best_ids


def test_ties_are_exact_in_rational_arithmetic_and_scaled_in_floats():
    """Catches a tolerance applied to rational drops (two drops 10^-30 apart tied, the smaller tuple winning) and a
    float tolerance not scaled by max |f| (at |f| ~ 2e6 two drops 1e-7 apart differ only by rounding and must tie,
    while 1e-5 apart, far above 1e-12 * 2e6, they must not): read off the choice the search makes."""
    rational = {1: Fraction(1), 2: Fraction(1) + Fraction(1, 10**30)}
    assert search_on_drops(rational, 2, Fraction(0), 1, tol=tie_tolerance(list(rational.values()))).best_ids == (1,)
    for gap, winner in ((1e-7, (0,)), (1e-5, (1,))):
        drops = {1: 2.0e6, 2: 2.0e6 + gap}
        assert search_on_drops(drops, 2, 0.0, 1, tol=tie_tolerance(list(drops.values()))).best_ids == winner, gap


def test_batch_search_takes_b_from_the_rows_even_when_there_are_none():
    """Catches the batch's b read from a row that is not there (an empty batch is a valid input: no tables, no
    outcomes) and a row length that is no power of two taken for a smaller b."""
    out = search_batch(np.zeros((0, 8), np.int64), np.zeros(0, np.int64))
    assert {k: v.shape for k, v in out.items()} == dict.fromkeys(("a_code", "b_code", "a_found", "b_found", "tie"),
                                                                 (0,))
    with pytest.raises(ValueError, match=r"drops must be a 2-d array of rows of length 2\*\*b"):
        search_batch(np.zeros((1, 6), np.int64), np.zeros(1, np.int64))


@given(exact_drops(), st.integers(-2, 8), st.integers(1, 4), st.integers(1, 3), st.booleans())
def test_beam_extends_each_kept_candidate_by_the_positions_outside_it(case, threshold, max_len, width, duplicates):
    """Catches a beam whose next candidates are not the kept ones each grown by one position outside them (all
    positions, or the singletons best first with extend_top), undefined sets kept, or a set reached twice listed
    once with duplicates: against the beam spelled out here on the search's own cuts."""
    b, drops = case
    by_code = {sum(1 << i for i in s): d for s, d in drops.items()}
    for extend_top in (None, 1, 2):
        got = search_on_drops(by_code, b, Fraction(threshold, 4), max_len, width=width, extend_top=extend_top,
                              duplicates=duplicates)
        singles = sorted(((j,) for j in range(b) if (j,) in drops), key=lambda s: (-drops[s], s))
        order = [j for (j,) in singles] if extend_top is not None else list(range(b))
        cands, counts = singles, []
        for size in range(1, min(max_len, b) + 1):
            if not cands:
                break
            counts.append(len(cands))
            if size == min(max_len, b) or any(drops[c] >= Fraction(threshold, 4) for c in cands):
                break
            keep = sorted(cands, key=lambda s: (-drops[s], s))[:width]  # the best first, ties to the smaller tuple
            grown = [tuple(sorted(k + (j,))) for k in keep for j in [j for j in order if j not in k][:extend_top]]
            grown = [c for c in grown if c in drops]
            cands = grown if duplicates else sorted(set(grown))
        assert got.n_candidates == tuple(counts), (extend_top, got)
