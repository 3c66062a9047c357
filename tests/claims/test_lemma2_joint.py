"""Claim lemma2-joint (proofs_checks/claims/lemmas/lemma2_joint.py, verdict holds): section 2.3's "for each c in C, n_c >= 1
with probability higher than alpha (see Lemma 2)". Headline reading, per candidate (the sentence's own "i.e."
clause and the lemma it cites): holds. Stronger reading, C over all sizes (line 241): fails (minimal: the pair of a
2-token document at l_max = 1, 781/1024). All candidates at once is line 274's note, claim sampling-absence
(tests/claims/test_sampling_absence.py, where the joint reading's tests moved).

The joint coverages are recomputed here by enumerating every design (n rows of b bits, all equally likely at
p = 1/2), independently of both methods of analytic.lemma2 the claim uses.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from tests._helpers import joint_by_designs


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result("lemma2-joint")  # the session's one run of the claim (tests/conftest.py)


def _values(result, step: str) -> dict:
    return next(s.values for s in result.steps if s.id == f"lemma2-joint.{step}")



def test_lemma2_joint_step_statuses_readings_and_verdicts(result):
    """Pins every step (role, evidence, reading, status), the readings and their verdicts: catches a stronger
    reading's failure deciding the headline (the fresh-context review's objection: the sentence's 'i.e.' clause is
    per candidate), or the joint reading kept here beside its own claim sampling-absence (a duplicate)."""
    got = {s.id: (s.role, s.evidence, s.reading, s.status) for s in result.steps}
    per = "per-candidate"
    assert got == {
        "lemma2-joint.s1-per-candidate-coverage": ("statement", "exhaustive", per, "holds"),
        "lemma2-joint.s2-row-probability": ("proof", "symbolic", per, "holds"),
        "lemma2-joint.s3-binomial-identity": ("proof", "symbolic", per, "holds"),
        "lemma2-joint.s4-solve-for-n": ("proof", "symbolic", per, "holds"),
        "lemma2-joint.s5-smaller-candidates": ("proof", "symbolic", per, "holds"),
        "lemma2-joint.s10-all-sizes-counterexample": ("statement", "counterexample", "all-sizes", "fails"),
    }
    assert [(r.id, r.role) for r in result.readings] == [(per, "headline"), ("all-sizes", "stronger")]
    assert {r.id: result.reading_status(r.id) for r in result.readings} == {per: "holds", "all-sizes": "fails"}
    assert 274 not in {q.line for q in result.source}
    assert (result.kind, result.status, result.verdict, result.corrected, result.counterexample) == (
        "statement", "holds", "holds", None, None)


def test_lemma2_joint_headline_is_chosen_by_the_sentences_i_e_clause(result):
    """The headline reading is justified by the sentence's own words: its 'why' quotes the 'i.e.' clause of line 362,
    in which 'for each c' comes before 'with probability higher than alpha', and Lemma 2's 'for any candidate c'
    (line 366); the stronger reading quotes line 241. Catches the headline chosen by which reading fails (or holds)
    rather than by the quoted words."""
    headline = result.headline
    clause = next(q for q in headline.why if q.line == 362).text
    assert "i.e." in clause and clause.index("for each") < clause.index("with probability higher than")
    assert {q.line for q in headline.why} == {362, 366, 1001}
    assert [q.line for r in result.readings if r.role == "stronger" for q in r.why] == [241]


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


# --------------------------------------------------------------------------- moved from test_lemma2.py


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
