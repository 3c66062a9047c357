"""Claim prop2-shortcut (proofs_checks/claims/prop2_shortcut.py, verdict fails, corrected statement argued): every
step's status pinned, and each finding reproduced by an independent computation: a brute-force enumeration of the
2^b mask patterns with ``Fraction`` weights written here (not the claim module's superset sums, not the closed
forms of analytic/prop2_shortcut.py), and FRED's exact sampler.

The closed forms of analytic/prop2_shortcut.py: tests/analytic/test_prop2_shortcut.py.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from numpy.testing import assert_allclose

from analytic import shortcut_minimal_size
from fred import Fred
from proofs_checks.claims import prop2_shortcut as claim
from tests._helpers import drops_by_enumeration

HALF = Fraction(1, 2)

EXPECTED = {
    "prop2-shortcut.s1-counterexample": ("statement", "counterexample", "fails"),
    "prop2-shortcut.s2-non-unique": ("statement", "counterexample", "fails"),
    "prop2-shortcut.pp1-absence-probability": ("paper-proof", "symbolic", "fails"),
    "prop2-shortcut.pp2-hessian": ("paper-proof", "symbolic", "fails"),
    "prop2-shortcut.pp3-conclusion": ("paper-proof", "exhaustive", "fails"),
    "prop2-shortcut.p1-independence": ("proof", "argument", "argued"),
    "prop2-shortcut.p2-conditional": ("proof", "exhaustive", "holds"),
    "prop2-shortcut.p3-full-word": ("proof", "symbolic", "holds"),
    "prop2-shortcut.p4-concavity": ("proof", "symbolic", "holds"),
    "prop2-shortcut.p5-vertices": ("proof", "argument", "argued"),
    "prop2-shortcut.p6-best-vertex": ("proof", "symbolic", "holds"),
    "prop2-shortcut.p7-threshold": ("proof", "symbolic", "holds"),
    "prop2-shortcut.c1-fred-mean": ("correction", "exhaustive", "holds"),
    "prop2-shortcut.c2-fred-original": ("correction", "exhaustive", "holds"),
    "prop2-shortcut.c3-rational-referee": ("correction", "exhaustive", "holds"),
}


@pytest.fixture(scope="module")
def result():
    return claim.check()


def test_every_step_status_role_and_evidence_is_pinned(result):
    """Catches a step whose computation changed outcome, a step added or dropped, or a role or evidence changed."""
    assert {s.id: (s.role, s.evidence, s.status) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.corrected_status, result.verdict) == (
        "statement", "fails", "argued", "fails")


# --------------------------------------------------------------------------- independent brute force
def document(m, n_other=0):
    """Word w_j repeated m_j times, then n_other words outside J (the order does not change any count)."""
    words = tuple(f"w{j + 1}" for j in range(len(m)))
    return [w for w, k in zip(words, m) for _ in range(k)] + [f"o{i}" for i in range(n_other)], words


def brute_force(m, p: Fraction, eps: Fraction, *, baseline="mean", n_other=0):
    """Eq. (2) by plain enumeration: for every position set S and every pattern z (1 = perturbed), Fraction sums
    of P(S perturbed) and E[f 1{S perturbed}]. Returns (l*, {counts over J of the solutions: their drops})."""
    tokens, words = document(m, n_other)
    b = len(tokens)
    reference, drops = drops_by_enumeration(
        lambda z: Fraction(int(all(any(t == w and not zi for t, zi in zip(tokens, z)) for w in words))), b, p,
        baseline=baseline)  # with "original", the reference is f(xi) = 1: every word of J occurs
    for size in range(1, b + 1):
        solutions = {}
        for s in itertools.combinations(range(b), size):
            drop = drops[s]
            if drop >= eps * reference:
                counts = tuple(sum(tokens[i] == w for i in s) for w in words)
                solutions[counts] = max(drop, solutions.get(counts, drop))
        if solutions:
            return size, solutions
    raise AssertionError("size m_1 always reaches the threshold")


def fred_counts(m, p, eps, *, baseline="mean", max_len=10):
    tokens, words = document(m)
    clf = lambda texts: np.array([float(all(w in t.split() for w in words)) for t in texts])  # noqa: E731
    exp = Fred(clf, sampler="exact", baseline=baseline).explain(" ".join(tokens), p=p, eps=eps, max_len=max_len)
    return tuple(sum(tokens[i] == w for i in exp.best_ids) for w in words), exp


def test_prop2_stops_before_all_occurrences():
    """Prop. 2 claims c*_1 = m_1 = 2 on "w w" with f = 1{w present}; at p = 1/2, eps = 0.15 one occurrence
    already drops E[f] = 3/4 to 1/2 (drop 1/4 >= 0.15 * 3/4), so FRED returns one occurrence. Catches a FRED
    that follows Prop. 2 (both occurrences) at eps = 0.15, or stops at one occurrence when eps > 1/3."""
    clf = lambda texts: np.array([float("w" in t.split()) for t in texts])  # noqa: E731
    exp = Fred(clf, sampler="exact").explain("w w", p=0.5, eps=0.15)
    assert exp.found and len(exp.best_ids) == 1
    assert_allclose([exp.drop, exp.threshold], [0.25, 0.15 * 0.75], rtol=1e-12)
    exp = Fred(clf, sampler="exact").explain("w w", p=0.5, eps=0.4)  # eps > 1/3: the claim holds
    assert len(exp.best_ids) == 2


def test_counterexample_is_exact_and_minimal(result):
    """Catches a counterexample that is not one in exact arithmetic, or not the smallest: fewer tokens first, then
    smaller multiplicities, then p and eps in the listed order. Everything before m = (2,), p = 1/2, eps = 3/20
    is m = (1,) (one token), where l* = 1 = m_1 for every p and eps."""
    ce = result.counterexample
    assert (ce["document"], ce["multiplicities"], ce["p"], ce["eps"]) == ("w1 w1", [2], "1/2", "3/20")
    assert ce["fred_best"] == ["w1"]
    size, solutions = brute_force((2,), HALF, Fraction(3, 20))
    assert size == 1 and solutions == {(1,): Fraction(1, 4)}  # 3/4 - 1/2 >= (3/20)(3/4) = 9/80
    assert (ce["largest_drop"], ce["threshold"]) == ("1/4", "9/80")
    for p, eps in itertools.product(claim.SEARCH_PS, claim.SEARCH_EPSS):
        assert brute_force((1,), p, eps)[0] == 1
    assert ce["smaller_cases_checked"] == len(claim.SEARCH_PS) * len(claim.SEARCH_EPSS)


def test_correction_1_solution_of_eq2_is_not_unique(result):
    """Catches 'the solution of Eq. (2)' read as unique, and FRED returning a solution other than the largest
    drop: m = (2, 3), p = 1/2, eps = 1/10 has the solutions (1, 0) (drop 7/32) and (0, 1) (drop 3/32 >= 21/320),
    the second breaking c*_j = 0 for j >= 2; FRED returns (1, 0). The minimal such case (3 tokens) is m = (1, 2),
    p = 1/2, eps = 3/20, where FRED's answer agrees with the claim; at eps = 2/5 on m = (2, 3), l* = m_1 = 2 and
    (2, 0), (1, 1), (0, 2) all solve Eq. (2)."""
    size, solutions = brute_force((2, 3), HALF, Fraction(1, 10))
    assert size == 1 and solutions == {(1, 0): Fraction(7, 32), (0, 1): Fraction(3, 32)}
    assert fred_counts((2, 3), 0.5, 0.1)[0] == (1, 0)
    size, solutions = brute_force((1, 2), HALF, Fraction(3, 20))
    assert size == 1 and set(solutions) == {(1, 0), (0, 1)}
    assert fred_counts((1, 2), 0.5, 0.15)[0] == (1, 0)
    size, solutions = brute_force((2, 3), HALF, Fraction(2, 5))
    assert size == 2 and set(solutions) == {(2, 0), (1, 1), (0, 2)}
    assert max(solutions, key=solutions.get) == (2, 0) and fred_counts((2, 3), 0.5, 0.4)[0] == (2, 0)
    # the report's minimal case; everything smaller (m = (1,), (2,)) has one word, hence one count vector per size
    step = next(s for s in result.steps if s.id == "prop2-shortcut.s2-non-unique")
    ce = step.values["counterexample"]
    assert (ce["multiplicities"], ce["p"], ce["eps"], ce["solutions"]) == ([1, 2], "1/2", "3/20", [[0, 1], [1, 0]])
    for m, p, eps in itertools.product(((1,), (2,)), claim.SEARCH_PS, claim.SEARCH_EPSS):
        assert len(brute_force(m, p, eps)[1]) == 1
    assert step.values["smaller_cases_checked"] == 2 * len(claim.SEARCH_PS) * len(claim.SEARCH_EPSS)
    assert "FRED returns" in result.corrected and "(1, 0) and (0, 1)" in result.corrected


@pytest.mark.parametrize("m, p, eps, mean_size, original_size", [
    ((2, 3), HALF, HALF, 2, 1),               # mean: 1/2 > (1/2)(3/4); original: (1/2)(7/8) = 7/16 <= 1/2
    ((2, 3), HALF, Fraction(9, 16), 2, 1),    # original at equality: 7/16 = 1 - 9/16
    ((2, 3), HALF, Fraction(5, 8), 2, 2),     # original: 7/16 > 3/8
    ((2,), Fraction(1, 3), Fraction(3, 10), 2, 1),  # mean: 2/3 > (7/10)(8/9); original: 2/3 <= 7/10
    ((2,), Fraction(1, 3), Fraction(1, 5), 1, 1),
    ((3, 4), Fraction(7, 10), Fraction(1, 2), 2, 1),
])
def test_correction_2_original_baseline_closed_form(m, p, eps, mean_size, original_size):
    """Catches the paper's l* used with the released code's threshold eps f(xi): with f(xi) = 1,
    l* = min{l : (1 - p^(m_1 - l)) prod_{j >= 2} (1 - p^(m_j)) <= 1 - eps}, which differs from the mean baseline's
    l*. Brute force here, Fred(baseline="original", sampler="exact") and the closed form agree."""
    assert brute_force(m, p, eps)[0] == mean_size
    assert brute_force(m, p, eps, baseline="original")[0] == original_size
    assert shortcut_minimal_size(m, p, eps) == mean_size
    assert shortcut_minimal_size(m, p, eps, baseline="original") == original_size
    if eps != Fraction(9, 16):  # FRED's float threshold at an exact equality is decided by its tie tolerance
        for baseline, size in (("mean", mean_size), ("original", original_size)):
            counts, exp = fred_counts(m, float(p), float(eps), baseline=baseline)
            assert counts == (size,) + (0,) * (len(m) - 1) and exp.found


def test_correction_2_fred_original_reaches_equality_threshold():
    """Catches a strict comparison in FRED's original baseline at an exact tie: m = (2, 3), p = 1/2, eps = 9/16
    (a binary fraction, exact in floats): one occurrence of w1 drops f from 1 to 7/16, i.e. by exactly 9/16."""
    counts, exp = fred_counts((2, 3), 0.5, 0.5625, baseline="original")
    assert counts == (1, 0) and exp.found
    assert_allclose([exp.drop, exp.threshold], [0.5625, 0.5625], rtol=1e-12)


def test_correction_3_assumptions_are_stated(result):
    """Catches a shortcut result reported without its assumptions: f(xi) = 1, the baseline, l_max >= m_1."""
    for text in (result.conditions, result.corrected):
        assert "f(xi) = 1" in text and "'mean'" in text and "'original'" in text
    assert "l_max >= m_1" in result.conditions and "l_max >= m_1" in result.corrected
    assert result.counterexample["l_max"] == 10 >= result.counterexample["multiplicities"][0]


def test_corrected_statement_on_a_small_family_by_brute_force():
    """Catches a corrected statement that only FRED satisfies: on every m with at most 4 tokens (strictly
    increasing), p in {1/2, 3/10}, eps in {3/20, 1/2, 1} and both baselines, the brute force's largest-drop
    solution is (l*, 0, ..., 0) on the least frequent word, with l* <= m_1, and l* is analytic's closed form
    (shortcut_minimal_size, which the claim's steps use)."""
    family = [(1,), (2,), (3,), (1, 2), (4,), (1, 3)]
    for m, p, eps, baseline in itertools.product(family, (HALF, Fraction(3, 10)),
                                                 (Fraction(3, 20), HALF, Fraction(1)), ("mean", "original")):
        size, solutions = brute_force(m, p, eps, baseline=baseline)
        assert shortcut_minimal_size(m, p, eps, baseline=baseline) == size, (m, p, eps, baseline)
        best = max(solutions.values())
        assert [c for c, d in solutions.items() if d == best] == [(size,) + (0,) * (len(m) - 1)]
        assert size <= m[0]
