"""Claim sampling-absence (proofs_checks/claims/lemmas/sampling_absence.py, verdict holds (argued)): section 2.2's
note (line 274) "the sampling scheme ensures that, with high probability, for each candidate, there is at least one
sample in which the candidate is not present". Headline reading per-candidate, as line 362 restates the note (each
candidate of size <= l_max absent somewhere with probability >= alpha: Lemma 2): holds (argued). Stronger readings:
every size up to b (fails: 0.776 at b = 11), all candidates of size <= l_max at once ('joint', fails: minimal b = 2,
l_max = 1, 961/1024; 11 tokens at the defaults: 0.790, at the released n = 5000: 0.9450; holds for b <= l_max),
0.99: fails; 1 - 1/b: fails beyond l_max; the limit in n: holds (argued).

Every probability is recomputed here independently of the claim's code path: by enumerating every design (n rows
of b bits, equally likely at p = 1/2), by a dynamic programme over the rows (b = l_max + 1, 60-digit mpmath), by
Monte Carlo of FRED's own sampler (statistical, delta = 1e-6), and the document lengths from the CSV files by pandas.
The tests of the joint coverage moved here from tests/claims/test_lemma2_joint.py with the reading.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from numpy.testing import assert_allclose

from analytic import coverage, joint_coverage, joint_coverage_all_sizes
from fred import sample_size
from fred.sampling import MaskSampler
from proofs_checks.statistics.seeds import statistical_seed
from tests._helpers import clopper_pearson, joint_by_designs


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result("sampling-absence")  # the session's one run of the claim (tests/conftest.py)


def _values(result, step: str) -> dict:
    return next(s.values for s in result.steps if s.id == f"sampling-absence.{step}")


def test_step_statuses_readings_and_verdicts(result):
    """Pins every step (role, evidence, reading, status), the readings and their verdicts. Catches the stronger joint
    reading (or the all-sizes one) deciding the headline, the weaker limit in n or the 0.99 or 1 - 1/b thresholds
    deciding it, a non-rejection of FRED's sampler reported as a confirmation, a counterexample to a stronger reading
    shown as the claim's, or the correction's exact checks failing."""
    got = {s.id.split(".")[1]: (s.role, s.evidence, s.reading, s.status) for s in result.steps}
    a, strict, by_b, grows, each = "joint", "above-0.99", "one-minus-one-over-b", "grows-with-n", "per-candidate"
    sizes = "per-candidate-all-sizes"
    assert got == {
        "s8-per-candidate": ("statement", "exhaustive", each, "holds"),
        "p5-lemma-2": ("proof", "argument", each, "argued"),
        "s9-all-sizes": ("statement", "exhaustive", sizes, "fails"),
        "s1-minimal-counterexample": ("statement", "counterexample", a, "fails"),
        "s2-paper-defaults": ("statement", "exhaustive", a, "fails"),
        "s10-released-n": ("statement", "exhaustive", a, "fails"),
        "s3-fred-sampler": ("statement", "statistical", a, "fails"),
        "s4-experiment-documents": ("statement", "exhaustive", a, "fails"),
        "s5-above-0-99": ("statement", "exhaustive", strict, "fails"),
        "s6-one-minus-one-over-b": ("statement", "exhaustive", by_b, "fails"),
        "s7-grows-with-n": ("statement", "exhaustive", grows, "holds"),
        "p1-union-bound": ("proof", "argument", grows, "argued"),
        "p2-longer-is-harder": ("proof", "argument", a, "argued"),
        "p3-monotone-small-cases": ("proof", "exhaustive", a, "holds"),
        "p4-whole-document-is-enough": ("proof", "argument", a, "argued"),
        "c1-whole-document-exact": ("correction", "exhaustive", None, "holds"),
        "c2-union-bound-n": ("correction", "exhaustive", None, "holds"),
    }
    assert [(r.id, r.role) for r in result.readings] == [(each, "headline"), (sizes, "stronger"), (a, "stronger"),
                                                          (strict, "stronger"), (by_b, "alternative"),
                                                          (grows, "weaker")]
    assert {r.id: result.reading_status(r.id) for r in result.readings} == {
        each: "argued", sizes: "fails", a: "fails", strict: "fails", by_b: "fails", grows: "argued"}
    assert (result.kind, result.status, result.verdict, result.corrected_status) == (
        "statement", "argued", "holds (argued)", "argued")
    assert result.counterexample is None  # the joint reading's case lives in step s1, the headline holding
    assert _values(result, "s1-minimal-counterexample")["found"]["b"] == 2


def test_headline_is_the_papers_own_restatement(result):
    """The headline reading quotes line 362 (section 2.3 restates the note per candidate: 'for each c in C, n_c >= 1
    with probability higher than alpha (see Lemma 2)'), line 372 (alpha = 0.95, Lemma 2's level) and line 366
    (Lemma 2's candidates of size <= l_max). Catches a headline chosen by which reading fails (the joint one, which
    the paper's own restatement does not support) or one without the l_max restriction."""
    why = {q.line: q.text for q in result.headline.why}
    assert set(why) == {362, 366, 372}
    assert r"$n_\candidate \geq 1$ with probability higher than $\alpha$" in why[362]
    assert r"As \say{high probability,} we set by default $\alpha = 0.95$" in why[372]
    assert r"size smaller or equal than $\length_{max}$" in why[366]


def test_longest_document_second_moment_bound(result):
    """Catches step s4 presenting the loose disjoint-block upper bound (0.4404 at b = 168) as the value: the
    second-moment bound at b = 168, n = 3067 is about 0.0022, recomputed here by summing the pairs of size-10
    candidates by overlap (60-digit mpmath), and s4 reports it as an upper bound."""
    s4 = _values(result, "s4-experiment-documents")
    with mpmath.workdps(60):
        q, b = mpmath.mpf(2) ** -10, 168
        sets = math.comb(b, 10)
        ex = sets * (1 - q) ** 3067
        ex2 = sum(sets * math.comb(10, i) * math.comb(b - 10, 10 - i) * (1 - 2 * q + mpmath.mpf(2) ** (i - 20))
                  ** 3067 for i in range(11))
        bound = float((ex2 - ex**2) / ex**2)
    assert s4["longest_b"] == b and abs(s4["longest_second_moment_upper_bound"] - bound) <= 1e-9 * bound
    assert 0.0021 < bound < 0.0023 and abs(s4["longest_block_upper_bound"] - 0.4404) < 1e-4
    note = next(s.note for s in result.steps if s.id.endswith("s4-experiment-documents"))
    assert "at most 0.0022" in note and "as low as" not in note


def test_released_n_by_a_dynamic_programme(result):
    """Catches the joint failure said to vanish at the released code's n_sample = 5000 (the default of
    explain_instance in the authors' fred/explainer.py): at b = 11, p = 1/2 the dynamic programme over the 5000
    rows (no closed form, no inclusion-exclusion) gives 0.9450 < 0.95, as step s10 reports."""
    s10 = _values(result, "s10-released-n")
    with mpmath.workdps(40):
        want = float(_joint_by_rows(11, 5000, mpmath.mpf(1) / 2))
    assert s10["n"] == 5000 and abs(s10["joint_coverage_float"] - want) < 1e-12
    assert 0.9449 < want < 0.9451


def test_all_sizes_by_hand(result):
    """Catches the per-candidate check applied to sizes beyond l_max without failing: the whole 11-token document
    at n = 3067 is covered with probability 1 - (1 - 2^-11)^3067 = 0.7764 < 0.95 (mpmath), and every one of the
    163 documents longer than 10 tokens misses alpha for its whole-document candidate."""
    s9 = _values(result, "s9-all-sizes")
    with mpmath.workdps(40):
        want = float(1 - (1 - mpmath.mpf(2) ** -11) ** 3067)
    assert abs(s9["b_11_whole_document_float"] - want) < 1e-12 and 0.776 < want < 0.777
    assert s9["documents_below_alpha"] == 163 and len(s9["lengths_below_alpha"]) == s9["lengths_above_l_max"]


def _joint_by_rows(b: int, n: int, p: mpmath.mpf) -> mpmath.mpf:
    """b = l_max + 1: a row covers the complement of j iff it leaves at most j unperturbed. A dynamic programme over
    the rows on (some row perturbed everything, the number of distinct positions j some row left alone by itself):
    the event is 'an all-perturbed row, or every j collected'. No inclusion-exclusion."""
    whole, one, rest = p**b, p ** (b - 1) * (1 - p), None
    rest = 1 - whole - b * one
    state = [mpmath.mpf(1)] + [mpmath.mpf(0)] * b  # state[k]: no all-perturbed row yet, k positions collected
    done = mpmath.mpf(0)
    for _ in range(n):
        nxt = [mpmath.mpf(0)] * (b + 1)
        for k, mass in enumerate(state):
            done += mass * whole
            nxt[k] += mass * (rest + k * one)
            if k < b:
                nxt[k + 1] += mass * (b - k) * one
        state = nxt
    return done + state[b]


def test_eleven_tokens_at_the_defaults_by_a_dynamic_programme(result):
    """Catches a wrong exact value at the paper's defaults (b = 11, l_max = 10, n = 3067, p = 1/2): a dynamic
    programme over the 3067 rows (60 digits) gives 0.79021, the claim's step s2 says the same, and it is < 0.95;
    the same programme at the union-bound n = 5521 of step c2 gives >= 0.95."""
    with mpmath.workdps(60):
        at_n = _joint_by_rows(11, 3067, mpmath.mpf(1) / 2)
        at_union = _joint_by_rows(11, 5521, mpmath.mpf(1) / 2)
    assert abs(float(at_n) - _values(result, "s2-paper-defaults")["b_11_exact_float"]) < 1e-12
    assert f"{float(at_n):.5f}" == "0.79021" and at_n < 0.95 <= at_union
    c2 = _values(result, "c2-union-bound-n")
    assert c2["n_union_bound"] == 5521 and abs(float(at_union) - c2["at_n_union_bound_float"]) < 1e-12


def test_union_bound_n_by_hand(result):
    """Catches a wrong union-bound n: the smallest n with C(b, 10) (1 - 2^-10)^n <= 0.05, found here with 50-digit
    logarithms, is 5521 at b = 11 and the claim's value at the longest document; at b <= 10 (one candidate of size
    b, the whole document) it is Lemma 2's own n."""
    values = _values(result, "s7-grows-with-n")["n_union_bound"]

    def smallest(b):
        size = min(10, b)
        with mpmath.workdps(50):
            n = int(mpmath.ceil(mpmath.log(mpmath.mpf(1) / 20 / math.comb(b, size))
                                / mpmath.log(1 - mpmath.mpf(2) ** -size)))
        return n

    for b in map(int, values):
        assert values[str(b)] == smallest(b), b
        if b <= 10:
            assert values[str(b)] == sample_size(0.95, 0.5, b)
    assert values["11"] == 5521


@pytest.mark.statistical
def test_fred_sampler_matches_the_exact_value():
    """Catches an exact value that is not FRED's sampler's probability (e.g. a closed form for another scheme, or
    rows drawn with another p): 2000 designs of fred.sampling.MaskSampler at b = 11, n = 3067 (seed
    statistical_seed(2741)), counted here by checking every size-10 candidate against every row; the Clopper-Pearson
    interval at delta = 1e-6 contains the dynamic programme's 0.79021; and at b = 3, n = 5, size 2 (Fractions by
    every design) likewise."""
    rng = np.random.default_rng(statistical_seed(2741))
    sampler = MaskSampler()
    for b, n, size, exact, sims in ((11, 3067, 10, 0.7902098899, 2000),
                                    (3, 5, 2, float(joint_coverage(3, 5, Fraction(1, 2), 2)), 4000)):
        hits = 0
        for _ in range(sims):
            rows = sampler.draw(b, 0.5, n, rng).perturbed
            hits += all(rows[:, list(c)].all(axis=1).any() for c in itertools.combinations(range(b), size))
        low, high = clopper_pearson(hits, sims, 1e-6)
        assert low <= exact <= high, (b, hits, sims, exact)


def test_experiment_documents_from_the_csv_files(result):
    """Catches the wrong documents or lengths: pandas reads n_tokens of results/*_p0.5_eps0.15*.csv, one length per
    (dataset, test_index); 266 documents, 103 of at most 10 tokens (each at Lemma 2's n for b reaches 0.95:
    1 - (1 - 2^-b)^n >= 0.95 exactly) and 163 longer; the claim's step s4 counts the same."""
    import glob

    import pandas as pd

    frames = []
    for path in glob.glob("results/*_p0.5_eps0.15*.csv"):
        frame = pd.read_csv(path, usecols=["test_index", "n_tokens"])
        frame["dataset"] = path.split("/")[-1].split("_")[0]
        frames.append(frame)
    lengths = pd.concat(frames).drop_duplicates(["dataset", "test_index"])["n_tokens"]
    assert len(lengths) == 266 and (lengths <= 10).sum() == 103 and (lengths > 10).sum() == 163
    for b in set(lengths[lengths <= 10]):
        n = sample_size(0.95, 0.5, int(b))
        assert 1 - (1 - Fraction(1, 2**int(b))) ** n >= Fraction(19, 20)
    s4 = _values(result, "s4-experiment-documents")
    assert (s4["documents"], s4["reached"], s4["missed"], s4["undecided"]) == (266, 103, 163, 0)
    assert _values(result, "s5-above-0-99")["reached"] == 0
    assert (_values(result, "s6-one-minus-one-over-b")["missed"], _values(result, "s6-one-minus-one-over-b")[
        "shortest_missing_b"]) == (163, 11)


def test_fred_sampler_step_rejects(result):
    """Catches the statistical step reporting a non-rejection as a verdict: its interval (recomputed with
    tests/_helpers' Clopper-Pearson at 1e-6) lies below 0.95, so 'probability >= 0.95' is rejected, and it contains
    the exact value."""
    s3 = _values(result, "s3-fred-sampler")
    low, high = clopper_pearson(s3["all_absent_somewhere"], s3["sims"], 1e-6)
    assert math.isclose(high, s3["interval"][1], abs_tol=1e-9) and high < 0.95 and s3["rejects"] is True
    assert low <= 0.7902098899 <= high and s3["interval_contains_exact"] is True



def test_minimal_counterexample_by_brute_force(result):
    """The counterexample: b = 2 tokens, l_max = 1, p = 1/2, alpha = 0.95, the paper's n = 5. Counting all 2**10
    designs, both tokens are perturbed somewhere with probability 961/1024 = 0.9385 < 0.95 (each alone 31/32).
    Minimal: the only shorter documents have b = 1, where the single candidate is the document, covered with
    probability 1 - 2**-n >= alpha. Catches a joint coverage confused with the per-candidate one."""
    values = _values(result, "s1-minimal-counterexample")
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
def test_fails_whenever_a_candidate_is_not_the_document(b, l_max, n):
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
def test_whole_document_by_brute_force(b, l_max, alpha):
    """The headline where it holds: for b <= l_max and the paper's n (smallest n with 1 - (1 - 2**-l_max)**n >=
    alpha, found here by counting up), counting all designs, every candidate is covered with probability exactly
    1 - (1 - 2**-b)**n, which is >= alpha. Catches a correction that still counts proper subsets separately, and
    analytic's row-by-row joint coverage (the claim's step c1) disagreeing with the count."""
    a = Fraction(alpha)
    n = 1
    while 1 - (1 - Fraction(1, 2**l_max)) ** n < a:
        n += 1
    joint = joint_by_designs(b, n, l_max)
    assert joint == 1 - (1 - Fraction(1, 2**b)) ** n >= a
    assert joint_coverage_all_sizes(b, n, Fraction(1, 2), l_max) == joint


def test_paper_defaults_far_below_alpha(result):
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


def test_all_candidates_at_once_by_brute_force():
    """Line 274's note, read at alpha (the headline), fails: b = 2, l_max = 1, p = 1/2, n = 5. Enumerating all
    2**10 designs (5 rows x 2 positions), both positions are perturbed somewhere with probability 961/1024 < 0.95.
    Catches
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


def test_fails_at_the_papers_alpha_not_at_every_alpha(result):
    """Regression: 'the joint reading fails whenever b > l_max' is false in general. At alpha = 1/5, l_max = 1 the
    lemma's n is 1 (ceil(log(4/5) / log(1/2)) = ceil(0.32)), and one row covers both tokens of a 2-token document
    with probability 1/4 >= 1/5 (counting the 4 rows). At alpha = 0.95 it fails (961/1024). Catches the claim's
    wording stating the failure for every alpha, which only the searched family at alpha = 0.95 supports."""
    n = next(k for k in range(1, 10) if Fraction(1, 2) ** k <= Fraction(4, 5))
    assert n == 1 and joint_by_designs(2, n, 1) == Fraction(1, 4) >= Fraction(1, 5)
    assert "alpha = 0.95" in result.conditions and "whenever" not in result.conditions
    assert "alpha = 0.95" in result.headline.meaning and "whenever" not in result.headline.meaning


def test_each_candidate_alone_by_hand(result):
    """Catches the per-candidate reading checked at another n or missing a size: for b = 2, 5, 11 and 168, at
    fred.sample_size(0.95, 0.5, min(10, b)), every size l <= min(10, b) has 1 - (1 - 2^-l)^n >= 19/20 in Fractions;
    the step saw one (b, l) pair per size of every experiment length, none below alpha."""
    for b in (2, 5, 11, 168):
        n = sample_size(0.95, 0.5, min(10, b))
        assert all(1 - (1 - Fraction(1, 2**size)) ** n >= Fraction(19, 20) for size in range(1, min(10, b) + 1))
    s8 = _values(result, "s8-per-candidate")
    lengths = _values(result, "s4-experiment-documents")["by_length"]
    assert s8["below_alpha"] == [] and s8["pairs"] == sum(min(10, r["b"]) for r in lengths)
    assert all(s8["n_by_b"][str(r["b"])] == sample_size(0.95, 0.5, min(10, r["b"])) for r in lengths)


def test_joint_reading_is_said_to_be_line_274s_literal_scope(result):
    """Catches the joint reading called 'a stronger reading this project adds' where it is line 274's literal scope:
    read from the .tex itself, 'with high probability' comes before 'for each candidate' on line 274 (so the
    probability bears on the whole clause), and line 362 glosses it per candidate with 'i.e.'; the statement says
    so and keeps the headline on the gloss, the roles unchanged."""
    from proofs_checks.verdicts.quotes import paper_lines

    lines = paper_lines()
    note, gloss = lines[273], lines[361]
    assert note.index("with high probability") < note.index("for each candidate")
    glossed = gloss.index(r"\emph{i.e.}")
    assert gloss.index(r"for each $\candidate", glossed) < gloss.index("with probability higher than", glossed)
    assert "This project adds" not in result.statement and "this project adds" not in result.conditions
    assert "line 274's literal scope" in result.statement and "'i.e.' gloss of line 362" in result.statement
    assert {r.id: r.role for r in result.readings}["joint"] == "stronger"
    assert result.headline.id == "per-candidate"
