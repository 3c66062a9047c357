"""Claim lemma2-joint (proofs_checks/claims/lemma2_joint.py, verdict fails; corrected: holds (argued)): section
2.3's "for each c in C, n_c >= 1 with probability higher than alpha", read as all candidates at once, fails for
b > l_max; for b <= l_max it holds, the whole document being a candidate that covers all others.

The joint coverages are recomputed here by enumerating every design (n rows of b bits, all equally likely at
p = 1/2), independently of both methods of analytic.lemma2 the claim uses.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from numpy.testing import assert_allclose

from analytic import coverage, joint_coverage, joint_coverage_all_sizes
from fred import sample_size


@pytest.fixture(scope="module")
def result():
    from proofs_checks.claims import lemma2_joint

    return lemma2_joint.check()


def _values(result, step: str) -> dict:
    return next(s.values for s in result.steps if s.id == f"lemma2-joint.{step}")


def joint_by_designs(b: int, n: int, max_len: int) -> Fraction:
    """P(every non-empty set of <= max_len of the b positions is perturbed in some row) at p = 1/2, by counting
    the 2**(n b) equally likely designs (row r is bits r*b .. r*b + b - 1 of the design's number)."""
    if n * b > 20:
        raise ValueError("too many designs")
    designs = np.arange(2 ** (n * b), dtype=np.int64)
    rows = [(designs >> (r * b)) & (2**b - 1) for r in range(n)]
    ok = np.ones(designs.size, dtype=bool)
    for size in range(1, min(max_len, b) + 1):
        for subset in itertools.combinations(range(b), size):
            code = sum(1 << i for i in subset)
            ok &= np.logical_or.reduce([(row & code) == code for row in rows])
    return Fraction(int(ok.sum()), 2 ** (n * b))


def test_lemma2_joint_step_statuses_and_verdict(result):
    """Pins every step (role, evidence, status) and both verdicts: catches the counterexample disappearing, the
    paper-defaults bound reaching alpha, the b <= l_max correction failing, or the argued step being reported as
    proved (the corrected verdict must stay 'argued' while s3 is a human argument)."""
    got = {s.id: (s.role, s.evidence, s.status) for s in result.steps}
    assert got == {
        "lemma2-joint.s1-minimal-counterexample": ("statement", "counterexample", "fails"),
        "lemma2-joint.s2-paper-defaults": ("statement", "exhaustive", "fails"),
        "lemma2-joint.s3-whole-document-is-enough": ("proof", "argument", "argued"),
        "lemma2-joint.s4-whole-document-covered": ("proof", "symbolic", "holds"),
        "lemma2-joint.s5-whole-document-exact": ("correction", "exhaustive", "holds"),
    }
    assert (result.kind, result.status, result.verdict, result.corrected_status) == (
        "statement", "fails", "fails", "argued")


def test_lemma2_joint_minimal_counterexample_by_brute_force(result):
    """The counterexample: b = 2 tokens, l_max = 1, p = 1/2, alpha = 0.95, the paper's n = 5. Counting all 2**10
    designs, both tokens are perturbed somewhere with probability 961/1024 = 0.9385 < 0.95 (each alone 31/32).
    Minimal: the only shorter documents have b = 1, where the single candidate is the document, covered with
    probability 1 - 2**-n >= alpha. Catches a joint coverage confused with the per-candidate one."""
    ce = result.counterexample
    assert (ce["b"], ce["l_max"], ce["n"], ce["p"], ce["alpha"]) == (2, 1, 5, 0.5, 0.95)
    joint = joint_by_designs(2, 5, 1)
    assert joint == Fraction(961, 1024) == Fraction(ce["joint_coverage"]) < Fraction(19, 20)
    assert Fraction(ce["per_candidate_coverage"]) == Fraction(31, 32) >= Fraction(19, 20)
    for l_max, n in ((1, 5), (2, 11), (3, 23), (4, 47)):  # b = 1: the paper's n for l_max, covering {0}
        assert 1 - Fraction(1, 2) ** n >= Fraction(19, 20) > 1 - (1 - Fraction(1, 2**l_max)) ** (n - 1)
    values = _values(result, "s1-minimal-counterexample")
    assert values["confirmed"] and values["minimal"] and values["smaller_cases_checked"] == 4
    assert values["fails_exactly_when_l_max_below_b"] and values["failing_cases"] == 10
    # the counts, from the stated grid: the cases before (b, l_max) = (2, 1) are b = 1 with every l_max (the loop
    # above), and the failing ones are those with l_max < b (each then has a candidate that is not the document)
    assert values["smaller_cases_checked"] == len(values["l_max"])
    assert values["failing_cases"] == sum(l < b for b in values["b"] for l in values["l_max"])


@pytest.mark.parametrize("b, l_max, n", [(3, 1, 5), (3, 2, 6), (4, 1, 5), (2, 1, 8)])
def test_lemma2_joint_fails_whenever_a_candidate_is_not_the_document(b, l_max, n):
    """Catches a joint coverage that ignores some candidates: for b > l_max, counting designs, the probability
    that all candidates are covered is strictly below each one's 1 - (1 - 2**-l_max)**n (b = 3, l_max = 1, n = 5
    gives (31/32)**3 = 0.909); analytic's inclusion-exclusion and row-by-row methods (the claim's) must give the
    counted value exactly."""
    joint = joint_by_designs(b, n, l_max)
    assert joint_coverage(b, n, Fraction(1, 2), l_max) == joint == joint_coverage_all_sizes(b, n, Fraction(1, 2), l_max)
    assert joint < 1 - (1 - Fraction(1, 2**l_max)) ** n
    if (b, l_max, n) == (3, 1, 5):
        assert joint == Fraction(31, 32) ** 3


@pytest.mark.parametrize("b, l_max, alpha", [(1, 1, "0.95"), (1, 2, "0.9"), (1, 4, "0.5"), (2, 2, "0.5"),
                                             (2, 2, "0.8"), (2, 2, "0.9"), (2, 3, "0.5"), (3, 3, "0.5")])
def test_lemma2_joint_whole_document_correction_by_brute_force(b, l_max, alpha):
    """The correction: for b <= l_max and the paper's n (smallest n with 1 - (1 - 2**-l_max)**n >= alpha, found
    here by counting up), counting all designs, every candidate is covered with probability exactly
    1 - (1 - 2**-b)**n, which is >= alpha. Catches a correction that still counts proper subsets separately, and
    analytic's row-by-row joint coverage (the claim's step s5) disagreeing with the count."""
    a = Fraction(alpha)
    n = 1
    while 1 - (1 - Fraction(1, 2**l_max)) ** n < a:
        n += 1
    joint = joint_by_designs(b, n, l_max)
    assert joint == 1 - (1 - Fraction(1, 2**b)) ** n >= a
    assert joint_coverage_all_sizes(b, n, Fraction(1, 2), l_max) == joint


def test_lemma2_joint_paper_defaults_far_below_alpha(result):
    """At the paper's defaults (alpha = 0.95, l_max = 10, n = 3067) the second-moment upper bound on the joint
    coverage is about 0.49 (b = 15), 0.14 (b = 20), 0.0026 (b = 150). Recomputed here from E X and E X^2 of the
    number X of uncovered size-10 candidates, summed directly over pairs of candidates by their overlap i (a pair
    is missed by a row with probability 1 - 2 q + 2**-(20 - i), q = 2**-10), with 60-digit mpmath. Catches a
    bound above alpha (the step would then hold) or a wrong pair count."""
    import mpmath

    values = _values(result, "s2-paper-defaults")
    with mpmath.workdps(60):
        for b, want in ((15, 0.4896454), (20, 0.1428291), (150, 0.0025801)):
            q = mpmath.mpf(2) ** -10
            sets = math.comb(b, 10)
            ex = sets * (1 - q) ** 3067
            ex2 = sum(sets * math.comb(10, i) * math.comb(b - 10, 10 - i) * (1 - 2 * q + mpmath.mpf(2) ** (i - 20))
                      ** 3067 for i in range(11))
            bound = float((ex2 - ex**2) / ex**2)
            assert abs(values["upper_bound"][str(b)] - bound) <= 1e-12 * bound, b
            assert abs(bound - want) < 1e-6 and bound < 0.95


# --------------------------------------------------------------------------- moved from test_lemma2.py


def test_lemma2_all_candidates_at_once_by_brute_force():
    """Section 2.3's joint reading fails: b = 2, l_max = 1, p = 1/2, n = 5. Enumerating all 2**10 designs
    (5 rows x 2 positions), both positions are perturbed somewhere with probability 961/1024 < 0.95. Catches
    analytic's joint coverage (inclusion-exclusion, row by row) disagreeing with this count at fred's n."""
    good = sum(
        all(any(design[2 * r + j] for r in range(5)) for j in range(2))
        for design in itertools.product([0, 1], repeat=10)
    )
    assert Fraction(good, 1024) == Fraction(961, 1024) < Fraction(95, 100)
    n = sample_size(0.95, 0.5, 1)
    assert joint_coverage(2, n, Fraction(1, 2), 1) == Fraction(good, 1024) == joint_coverage_all_sizes(
        2, n, Fraction(1, 2), 1)


def test_joint_coverage_falls_below_alpha():
    """Catches a joint coverage computed as the per-candidate one (the lemma's 1 - (1 - p^l)^n): b=2, l=1, n=5
    gives (31/32)^2 = 0.9385 < 0.95, by independence of the two positions."""
    n = sample_size(0.95, 0.5, 1)
    joint = joint_coverage(2, n, 0.5, 1)
    assert n == 5
    assert_allclose(joint, (31 / 32) ** 2, rtol=1e-12)
    assert joint < 0.95 <= float(coverage(n, 0.5, 1))
    n2 = sample_size(0.95, max_len=2)
    row_by_row = joint_coverage_all_sizes(4, n2, Fraction(1, 2), 2)  # the other exact method, in Fractions
    assert n2 == 11 and row_by_row < Fraction(81, 100)  # 0.8068
    assert_allclose(joint_coverage(4, n2, 0.5, 2), float(row_by_row), rtol=1e-12)
