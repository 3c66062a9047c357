"""Claim lemma2-joint (proofs_checks/claims/lemmas/lemma2_joint.py, verdict holds): section 2.3's "for each c in C, n_c >= 1
with probability higher than alpha (see Lemma 2)". Headline reading, per candidate (the sentence's own "i.e."
clause and the lemma it cites): holds. Stronger reading, all candidates at once: fails at alpha = 0.95 for b > l_max
(minimal: b = 2, l_max = 1, 961/1024), holds for b <= l_max (the whole document covers every candidate). Stronger
reading, C over all sizes (line 241): fails (minimal: the pair of a 2-token document at l_max = 1, 781/1024).

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
def result(reference_runs):
    return reference_runs.result("lemma2-joint")  # the session's one run of the claim (tests/conftest.py)


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


def test_lemma2_joint_step_statuses_readings_and_verdicts(result):
    """Pins every step (role, evidence, reading, status), the readings and their verdicts: catches the joint
    reading's failure deciding the headline (the fresh-context review's objection: the sentence's 'i.e.' clause is
    per candidate), the joint counterexample disappearing, the paper-defaults bound reaching alpha, the b <= l_max
    check failing, or the argued step being reported as proved."""
    got = {s.id: (s.role, s.evidence, s.reading, s.status) for s in result.steps}
    per, joint = "per-candidate", "joint"
    assert got == {
        "lemma2-joint.s1-per-candidate-coverage": ("statement", "exhaustive", per, "holds"),
        "lemma2-joint.s2-row-probability": ("proof", "symbolic", per, "holds"),
        "lemma2-joint.s3-binomial-identity": ("proof", "symbolic", per, "holds"),
        "lemma2-joint.s4-solve-for-n": ("proof", "symbolic", per, "holds"),
        "lemma2-joint.s5-smaller-candidates": ("proof", "symbolic", per, "holds"),
        "lemma2-joint.s6-joint-minimal-counterexample": ("statement", "counterexample", joint, "fails"),
        "lemma2-joint.s7-joint-paper-defaults": ("statement", "exhaustive", joint, "fails"),
        "lemma2-joint.s8-whole-document-is-enough": ("proof", "argument", joint, "argued"),
        "lemma2-joint.s9-whole-document-exact": ("statement", "exhaustive", joint, "holds"),
        "lemma2-joint.s10-all-sizes-counterexample": ("statement", "counterexample", "all-sizes", "fails"),
    }
    assert [(r.id, r.role) for r in result.readings] == [(per, "headline"), (joint, "stronger"),
                                                          ("all-sizes", "stronger")]
    assert {r.id: result.reading_status(r.id) for r in result.readings} == {
        per: "holds", joint: "fails", "all-sizes": "fails"}
    assert (result.kind, result.status, result.verdict, result.corrected, result.counterexample) == (
        "statement", "holds", "holds", None, None)


def test_lemma2_joint_headline_is_chosen_by_the_sentences_i_e_clause(result):
    """The headline reading is justified by the sentence's own words: its 'why' quotes the 'i.e.' clause of line 362,
    in which 'for each c' comes before 'with probability higher than alpha', and Lemma 2's 'for any candidate c'
    (line 366); the stronger reading quotes only line 274's forward note. Catches the headline chosen by which
    reading fails (or holds) rather than by the quoted words."""
    headline = result.headline
    clause = next(q for q in headline.why if q.line == 362).text
    assert "i.e." in clause and clause.index("for each") < clause.index("with probability higher than")
    assert {q.line for q in headline.why} == {362, 366, 1001}
    assert [q.line for r in result.readings if r.role == "stronger" for q in r.why] == [274, 241]


def test_lemma2_joint_per_candidate_step_uses_the_papers_n(result):
    """The headline's exhaustive step covers alpha in {0.5, ..., 0.999}, l_max = 1..12, every size l <= l_max (546
    cases), each inside the hypotheses. Checked here on the definition in Fractions: each n it used covers a
    size-l_max candidate ((1 - 2**-l_max)**n <= 1 - alpha) and n - 1 does not. Catches the per-candidate reading
    checked with another n than the paper's, or over cases outside the hypotheses."""
    values = _values(result, "s1-per-candidate-coverage")
    assert values["cases"] == 546 and values["violations"] == [] and values["cases_outside_hypotheses"] == []
    for key, n in values["n_paper"].items():
        alpha, l_max = (Fraction(part.split("=")[1]) for part in key.split(", "))
        miss = 1 - Fraction(1, 2 ** int(l_max))
        assert miss**n <= 1 - alpha < miss ** (n - 1), key


def test_lemma2_joint_minimal_counterexample_by_brute_force(result):
    """The counterexample: b = 2 tokens, l_max = 1, p = 1/2, alpha = 0.95, the paper's n = 5. Counting all 2**10
    designs, both tokens are perturbed somewhere with probability 961/1024 = 0.9385 < 0.95 (each alone 31/32).
    Minimal: the only shorter documents have b = 1, where the single candidate is the document, covered with
    probability 1 - 2**-n >= alpha. Catches a joint coverage confused with the per-candidate one."""
    values = _values(result, "s6-joint-minimal-counterexample")
    ce = values["found"]
    assert (ce["b"], ce["l_max"], ce["n"], ce["p"], ce["alpha"]) == (2, 1, 5, 0.5, 0.95)
    # inside the hypotheses (p = 1/2, the paper's n, candidates of size <= l_max): a counterexample to the joint
    # reading, and not to the per-candidate one (31/32 >= 0.95)
    assert ce["satisfies_hypotheses"] is True and values["satisfies_hypotheses"] is True
    assert all(ce["hypotheses"].values()) and ce["hypotheses"]["candidates_of_size_1_to_l_max"]
    joint = joint_by_designs(2, 5, 1)
    assert joint == Fraction(961, 1024) == Fraction(ce["joint_coverage"]) < Fraction(19, 20)
    assert Fraction(ce["per_candidate_coverage"]) == Fraction(31, 32) >= Fraction(19, 20)
    for l_max, n in ((1, 5), (2, 11), (3, 23), (4, 47)):  # b = 1: the paper's n for l_max, covering {0}
        assert 1 - Fraction(1, 2) ** n >= Fraction(19, 20) > 1 - (1 - Fraction(1, 2**l_max)) ** (n - 1)
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
def test_lemma2_joint_whole_document_by_brute_force(b, l_max, alpha):
    """The joint reading where it holds: for b <= l_max and the paper's n (smallest n with 1 - (1 - 2**-l_max)**n >= alpha, found
    here by counting up), counting all designs, every candidate is covered with probability exactly
    1 - (1 - 2**-b)**n, which is >= alpha. Catches a correction that still counts proper subsets separately, and
    analytic's row-by-row joint coverage (the claim's step s9) disagreeing with the count."""
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

    values = _values(result, "s7-joint-paper-defaults")
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
    """Section 2.3's sentence, read jointly (the stronger reading), fails: b = 2, l_max = 1, p = 1/2, n = 5. Enumerating all 2**10 designs
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


def test_lemma2_joint_reading_fails_at_the_papers_alpha_not_at_every_alpha(result):
    """Regression: 'the joint reading fails whenever b > l_max' is false in general. At alpha = 1/5, l_max = 1 the
    lemma's n is 1 (ceil(log(4/5) / log(1/2)) = ceil(0.32)), and one row covers both tokens of a 2-token document
    with probability 1/4 >= 1/5 (counting the 4 rows). At alpha = 0.95 it fails (961/1024). Catches the claim's
    wording stating the failure for every alpha, which only the searched family at alpha = 0.95 supports."""
    n = next(k for k in range(1, 10) if Fraction(1, 2) ** k <= Fraction(4, 5))
    assert n == 1 and joint_by_designs(2, n, 1) == Fraction(1, 4) >= Fraction(1, 5)
    assert "at alpha = 0.95" in result.conditions and "whenever" not in result.conditions
    joint = next(r for r in result.readings if r.id == "joint")
    assert "At alpha = 0.95" in joint.meaning and "whenever" not in joint.meaning


def test_lemma2_joint_all_sizes_reading_is_reported_and_fails(result):
    """R2A, objection 1: C read literally over all sizes (line 241) is listed as a stronger reading that fails, not
    set aside in the text. By hand: at b = 2, l_max = 1, n = 5 (alpha = 0.95) the pair is covered exactly when some
    row perturbs both tokens, which also covers each token, so counting all 2**10 designs for every set of size
    <= 2 gives 1 - (3/4)**5 = 781/1024 < 0.95; no smaller case exists (b = 1 has no candidate longer than l_max).
    At the defaults a size-11 candidate is covered with 1 - (1 - 2**-11)**3067 = 0.7764 (50-digit mpmath).
    Catches the reading dropped again, a counterexample outside its hypotheses, or its numbers drifting."""
    import mpmath

    values = _values(result, "s10-all-sizes-counterexample")
    found = values["found"]
    assert (found["b"], found["l_max"], found["size"], found["n"]) == (2, 1, 2, 5)
    assert Fraction(found["coverage"]) == joint_by_designs(2, 5, 2) == 1 - Fraction(3, 4) ** 5 == Fraction(781, 1024)
    assert found["satisfies_hypotheses"] and values["satisfies_hypotheses"] and found["hypotheses"] == {
        "p_is_one_half": True, "alpha_in_open_unit_interval": True, "l_max_at_least_1": True,
        "n_is_the_papers": True, "candidate_of_the_document": True}
    assert values["failing_exactly_when_size_above_l_max"] and values["failing_cases"] == sum(
        size > l_max for b in range(1, 6) for l_max in range(1, 5) for size in range(1, b + 1))
    with mpmath.workdps(50):
        want = -mpmath.expm1(3067 * mpmath.log1p(-mpmath.mpf(2) ** -11))
    assert f"{float(want):.4f}" == "0.7764" and "0.7764 < 0.95" in result.conditions
    assert abs(values["paper_defaults"]["coverage_float"] - float(want)) < 1e-12
    assert "not a fair reading" not in result.conditions and "line 1001" in result.conditions


def test_lemma2_joint_strict_higher_than_alpha(result):
    """R2A, objection 2: line 362 says 'higher than alpha' (strict), Lemma 2 '>='. On s1's family they differ only
    where the coverage 1 - (1 - 2**-l)**n equals alpha; found here by brute force over the family (the smallest n
    reaching alpha, counted up exactly from just below the float estimate): alpha = 1/2 with l_max = l = 1, n = 1
    and alpha = 3/4 with l_max = l = 1, n = 2.
    At alpha = 19/20 equality would need 20 (2**l - 1)**n = 2**(l n), impossible as 5 divides the left side only.
    Catches a strict check that reports equality as a failure at the default alpha, or a note that hides it."""
    equal = []
    for alpha in ("0.5", "0.75", "0.8", "0.9", "0.95", "0.99", "0.999"):
        a = Fraction(alpha)
        for l_max in range(1, 13):
            miss = 1 - Fraction(1, 2**l_max)
            n = max(1, math.floor(math.log(1 - float(a)) / math.log(float(miss))) - 1)
            while miss**n > 1 - a:  # the smallest n reaching alpha, decided exactly
                n += 1
            assert n == 1 or miss ** (n - 1) > 1 - a
            for size in range(1, l_max + 1):
                if 1 - (1 - Fraction(1, 2**size)) ** n == a:
                    equal.append((alpha, l_max, size, n))
                if alpha == "0.95":
                    assert 20 * (2**size - 1) ** n != 2 ** (size * n)
    assert equal == [("0.5", 1, 1, 1), ("0.75", 1, 1, 2)]
    strict = _values(result, "s1-per-candidate-coverage")["strictly_higher"]
    assert [(c["alpha"], c["l_max"], c["size"], c["n"]) for c in strict["cases_with_coverage_equal_to_alpha"]] == equal
    assert strict["every_coverage_dyadic"] and not strict["alpha_0_95_dyadic"]
    note = next(s.note for s in result.steps if s.id == "lemma2-joint.s1-per-candidate-coverage")
    assert "Lemma 2's '>='" in note and "'higher than' (line 362) is strict" in note
