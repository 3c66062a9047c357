"""Claim prop2-shortcut (proofs_checks/claims/propositions/prop2_shortcut.py, verdict fails on the headline reading eq2,
holds (argued) on the smallest-flip reading, corrected statement argued): every step's status and reading pinned, and
each finding reproduced by an independent computation: a brute-force enumeration of the 2^b mask patterns with
``Fraction`` weights written here (not the claim module's superset sums, not the closed forms of
analytic/prop2_shortcut.py), and FRED's exact sampler.

The closed forms of analytic/prop2_shortcut.py: tests/analytic/test_prop2_shortcut.py.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from numpy.testing import assert_allclose

from analytic import shortcut_minimal_size
from fred import Fred
from proofs_checks.claims.propositions import prop2_shortcut as claim
from proofs_checks.verdicts.results import ClaimResult
from tests._helpers import drops_by_enumeration

HALF = Fraction(1, 2)

EXPECTED = {
    "prop2-shortcut.s1-counterexample": ("statement", "counterexample", "fails", "eq2"),
    "prop2-shortcut.s3-least-frequent-word": ("statement", "exhaustive", "holds", "eq2"),
    "prop2-shortcut.s2-non-unique": ("statement", "counterexample", "fails", "every-solution"),
    "prop2-shortcut.r1-smallest-flip": ("statement", "exhaustive", "holds", "smallest-flip"),
    "prop2-shortcut.r2-smallest-flip": ("proof", "argument", "argued", "smallest-flip"),
    "prop2-shortcut.pp1-absence-probability": ("paper-proof", "symbolic", "holds", None),
    "prop2-shortcut.pp2-hessian": ("paper-proof", "symbolic", "fails", None),
    "prop2-shortcut.pp3-conclusion": ("paper-proof", "exhaustive", "fails", None),
    "prop2-shortcut.p1-independence": ("proof", "argument", "argued", "eq2"),
    "prop2-shortcut.p2-conditional": ("proof", "exhaustive", "holds", "eq2"),
    "prop2-shortcut.p3-full-word": ("proof", "symbolic", "holds", "eq2"),
    "prop2-shortcut.p4-concavity": ("proof", "symbolic", "holds", "eq2"),
    "prop2-shortcut.p5-vertices": ("proof", "argument", "argued", "eq2"),
    "prop2-shortcut.p6-best-vertex": ("proof", "symbolic", "holds", "eq2"),
    "prop2-shortcut.p7-threshold": ("proof", "symbolic", "holds", "eq2"),
    "prop2-shortcut.c1-fred-mean": ("correction", "exhaustive", "holds", None),
    "prop2-shortcut.c2-fred-original": ("correction", "exhaustive", "holds", None),
    "prop2-shortcut.c3-rational-referee": ("correction", "exhaustive", "holds", None),
}


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(claim.CLAIM)  # the session's one run of the claim (tests/conftest.py)


def step(result, name):
    return next(s for s in result.steps if s.id == f"prop2-shortcut.{name}")


def test_every_step_status_role_and_evidence_is_pinned(result):
    """Catches a step whose computation changed outcome, a step added or dropped, or a role, evidence or reading
    changed."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.corrected_status) == ("statement", "fails", "argued")


def test_readings_and_their_verdicts(result):
    """The headline is Eq. (2)'s reading (c* the notation of line 255), it fails on step s1 alone; 'every solution'
    is stronger and fails; the smallest-flip reading of lines 538-540 holds (argued). Catches step s2 (several
    solutions of Eq. (2)) deciding the headline, the headline chosen by which reading holds, or the smallest-flip
    reading missing."""
    assert [(r.id, r.role) for r in result.readings] == [
        ("eq2", "headline"), ("every-solution", "stronger"), ("smallest-flip", "alternative")]
    assert {r.id: result.reading_status(r.id) for r in result.readings} == {
        "eq2": "fails", "every-solution": "fails", "smallest-flip": "argued"}
    headline_tests = [s.id for s in result.steps if s.role == "statement" and s.reading in (None, "eq2")]
    assert headline_tests == ["prop2-shortcut.s1-counterexample", "prop2-shortcut.s3-least-frequent-word"]
    assert any("resulting optimal candidate" in q.text for q in result.headline.why)


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


# --------------------------------------------------------------------------- issue 26: readings and hypotheses
def presence_table(tokens, words):
    """f on every pattern code (bit i = position i masked), from the tokens: 1 iff every word of J is left."""
    b = len(tokens)
    return [int(all(any(t == w and not code >> i & 1 for i, t in enumerate(tokens)) for w in words))
            for code in range(1 << b)]


def test_counterexamples_satisfy_the_hypotheses(result):
    """Catches a counterexample outside Prop. 2's hypotheses, or a hypotheses predicate that says yes to anything:
    the record of "w1 w1" and of the two-word case m = (2, 3) ('w1 w2 w1 w2 w2', where m_1 < m_2 is not vacuous) is
    recomputed here from the document's text, the minimal one is at the paper's defaults (p = 1/2, the proof's p,
    eps = 0.15, l_max = 10), and cases that break a hypothesis are refused."""
    for ce in (result.counterexample, step(result, "s1-counterexample").values["two_words"],
               step(result, "s2-non-unique").values["counterexample"]):
        tokens, words = ce["document"].split(), ce["J"]
        counts = [tokens.count(w) for w in words]
        assert ce["hypotheses"] == {
            "increasing_multiplicities": counts == sorted(set(counts)), "J_in_document": min(counts) >= 1,
            "J_every_distinct_word": sorted(set(tokens)) == sorted(words),
            "classified_positive": presence_table(tokens, words)[0] == 1, "mask_token_not_in_J": "UNK" not in words,
            "p_in_0_1": 0 < Fraction(ce["p"]) < 1, "eps_in_0_1": 0 < Fraction(ce["eps"]) <= 1}
        assert ce["satisfies_hypotheses"] is True
    assert result.counterexample["paper_defaults"] and (result.counterexample["p"], result.counterexample["eps"],
                                                        result.counterexample["l_max"]) == ("1/2", "3/20", 10)
    two = step(result, "s1-counterexample").values["two_words"]
    size, solutions = brute_force((2, 3), HALF, Fraction(3, 20))
    assert (two["multiplicities"], two["p"], two["eps"]) == ([2, 3], "1/2", "3/20")
    assert size == 1 and max(solutions, key=solutions.get) == (1, 0) and solutions[(1, 0)] == Fraction(7, 32)
    outside = {"increasing_multiplicities": claim.statement_hypotheses((3, 2), HALF, Fraction(3, 20)),
               "J_every_distinct_word": claim.statement_hypotheses((2,), HALF, Fraction(3, 20), n_other=1),
               "eps_in_0_1": claim.statement_hypotheses((2,), HALF, Fraction(0))}
    for condition, record in outside.items():
        assert not record["satisfies_hypotheses"] and not record["hypotheses"][condition], condition


def test_smallest_flip_reading_by_brute_force(result):
    """Lines 538-540 read as 'the smallest set whose removal changes the classification': on every document with
    strictly increasing m (at most 5 tokens, 0 or 1 word outside J, words in the order w1.., o0), the model's value
    on every masked text (written here) makes the occurrences of w1 the only smallest flipping set. With m = (2, 2)
    (outside the hypotheses) there are two, so the strict order matters. Catches a step r1 that does not check
    uniqueness, or checks FRED's Eq. (2) answer instead of the flipping sets."""
    def smallest(m, n_other):
        tokens, words = document(m, n_other)
        f = presence_table(tokens, words)
        flips = [code for code in range(1, len(f)) if f[code] == 0]
        size = min(bin(code).count("1") for code in flips)
        return [code for code in flips if bin(code).count("1") == size], tokens
    family = [m for n in range(1, 6) for k in range(1, n + 1) for m in itertools.combinations(range(1, n + 1), k)
              if sum(m) == n]
    for m, n_other in itertools.product(family, (0, 1)):
        codes, tokens = smallest(m, n_other)
        assert codes == [sum(1 << i for i, t in enumerate(tokens) if t == "w1")], (m, n_other)
    assert step(result, "r1-smallest-flip").values["documents"] == 2 * len(family)
    assert len(smallest((2, 2), 0)[0]) == 2


def test_the_claim_fails_for_m1_2_to_11_at_the_paper_defaults(result):
    """At p = 1/2, eps = 0.15, l_max = 10 on a one-word document of m_1 tokens, Eq. (2)'s size l* by enumeration
    (every pattern equally likely at p = 1/2, so integer counts; by symmetry one set per size): FRED's c*_1 =
    min(l*, 10) differs from min(m_1, 10) exactly for m_1 = 2..11; they agree for m_1 = 1 (l* = m_1) and for
    m_1 = 12..15 only through the cap l_max = 10. The note says exactly that, not 'the typical case'. Catches a scope
    computed with the wrong threshold, the l_max cap ignored, or a scope worded beyond what was computed (the second
    reviewer's finding)."""
    fails, l_star = [], {}
    for m1 in range(1, 16):
        patterns = range(1 << m1)
        present = [code != (1 << m1) - 1 for code in patterns]  # f = 1 unless every occurrence is masked
        mean = Fraction(sum(present), 1 << m1)
        for size in range(1, m1 + 1):
            mask = (1 << size) - 1
            rows = [code for code in patterns if code & mask == mask]
            if mean - Fraction(sum(present[c] for c in rows), len(rows)) >= Fraction(3, 20) * mean:
                break
        l_star[m1] = size
        if min(size, 10) != min(m1, 10):
            fails.append(m1)
    assert fails == list(range(2, 12))
    s1 = step(result, "s1-counterexample")
    scope = s1.values["scope_at_defaults"]
    assert scope["claim_fails_for_m1"] == fails and scope["claim_holds_for_m1"] == [1, 12, 13, 14, 15]
    assert scope["l_star_equals_m1"] == [m1 for m1 in l_star if l_star[m1] == m1] == [1]
    assert scope["agree_only_through_the_cap"] == [12, 13, 14, 15]
    assert "typical" not in s1.note and "for every m_1 in [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]" in s1.note


@pytest.mark.parametrize("m", [(1,), (1, 2), (1, 3), (1, 2, 3)])
def test_the_claim_holds_when_the_least_frequent_word_occurs_once(m):
    """m_1 = 1 at the paper's defaults (p = 1/2, eps = 0.15): the brute force's largest-drop solutions have counts
    (1, 0, ..., 0), Prop. 2's c*, whatever the other multiplicities. Catches a scope that counts m_1 = 1 among the
    failures, or a failure that depends on m_2, ..., m_k under the paper's threshold."""
    size, solutions = brute_force(m, HALF, Fraction(3, 20))
    best = max(solutions.values())
    assert size == 1 and [c for c, d in solutions.items() if d == best] == [(1,) + (0,) * (len(m) - 1)]


def test_the_largest_drop_solution_is_unique_only_as_a_count_vector(result):
    """'w1 w1' at p = 1/2, eps = 3/20 (the counterexample): each of the two positions alone drops E[f] = 3/4 to 1/2,
    so the position sets {0} and {1} tie with drop 1/4 and both have counts (1,); C(m_1, l*) = C(2, 1) = 2 sets.
    Catches a corrected statement that calls the largest-drop solution unique ('the one with the largest drop')
    rather than its count vector (the second reviewer's finding)."""
    _, drops = drops_by_enumeration(lambda z: Fraction(int(not all(z))), 2, HALF)
    assert drops[(0,)] == drops[(1,)] == Fraction(1, 4) and math.comb(2, 1) == 2
    assert "unique as a count vector only" in result.corrected
    assert "the one with the largest drop" not in result.corrected
    assert "count vector" in result.headline.meaning


def test_pp1_is_a_notation_mismatch_and_does_not_decide(result):
    """The proof's P(M_j = 0 | c) = (1-p)^(m_j - c_j) (line 1036) is exact with p the probability of keeping a
    token, the convention of lines 1015-1016; line 1044 switches to p^(m_j - c_j) at p = 1/2, where the two agree.
    Enumerated here at p = 1/3 and 1/2 for k = 1..4 remaining occurrences. Catches pp1 reported as a wrong
    probability, or any paper-proof step counted in a verdict."""
    for p, k in itertools.product((Fraction(1, 3), HALF), range(1, 5)):
        absent = sum(math.prod(p if kept else 1 - p for kept in z) for z in itertools.product((0, 1), repeat=k)
                     if not any(z))
        assert absent == (1 - p) ** k and (absent == p**k) == (p == HALF)
    pp1 = step(result, "pp1-absence-probability")
    assert pp1.status == "holds" and pp1.values["keep_convention_exact_k_1_to_5"]
    assert pp1.values["difference_with_section_2_p_at_1_3_by_k"]["1"] == "1/3"
    unchanged = [s for s in result.steps if s.role != "paper-proof"]
    assert ClaimResult(result.id, result.kind, result.statement, result.conditions, result.counterexample,
                       tuple(unchanged), result.corrected, result.source, result.readings).status == "fails"


def test_the_classifier_fred_is_given_is_the_shortcut_model_text_by_text():
    """The classifier handed to FRED (claim.shortcut_case: predict_proba answered from a table of the document's
    masked texts) against f computed here from its definition (1 iff every word of J is a token of the text), on
    every document of the corrected statement's family: the masked texts shuffled, texts outside the table (tokens
    dropped or lowercased, as another explainer may render them) mixed in, and one text alone. Catches a table row
    given to the wrong text, a mixed batch assembled out of order, or a caller's write reaching the shared table
    (the next explainer would see it)."""
    rng = np.random.default_rng(0)
    for m, n_other in itertools.product(claim.MULTIPLICITIES, claim.N_OTHER):
        tokens, words, _, classifier = claim.shortcut_case(m, n_other)
        masked = {" ".join("UNK" if code >> i & 1 else t for i, t in enumerate(tokens))
                  for code in range(1 << len(tokens))}
        outside = [" ".join(tokens[1:]), " ".join(tokens).upper(), " ".join(tokens[::-1]) + " x"]
        texts = list(rng.permutation(sorted(masked) + outside))
        for batch in (texts, [t for t in texts if t in masked], texts[:1], outside[:1]):
            f = np.array([float(all(w in t.split() for w in words)) for t in batch])
            got = classifier(batch)
            assert got.dtype == np.float64 and np.array_equal(got, np.column_stack([1 - f, f]))
            got[:] = -1.0
        assert np.array_equal(classifier(texts[:1]), claim.shortcut_case(m, n_other)[3](texts[:1]))
        assert classifier(texts[:1]).min() >= 0


def test_the_headline_says_the_count_fails_and_the_word_holds(result):
    """Issue 40 item 5: the headline gives the true half its credit. Catches a headline that says only 'fails'
    while the word it names is right, a part checked by the wrong step, or the word part passed without the proof
    (its verdict is the rule's on s3 and the argued proof p1-p7: 'holds (argued)'). The expected words are typed
    here from the paper's line 535."""
    count, word = "the count min{m_1, l_max}", "the word (the least frequent one alone)"
    assert result.verdict == f"fails in part: {count} fails; {word} holds (argued)"
    assert {s.id.split(".")[1]: s.part for s in result.steps if s.part} == {
        "s1-counterexample": count, "s3-least-frequent-word": word}
    assert result.to_dict()["parts"] == [{"part": count, "status": "fails", "verdict": "fails"},
                                         {"part": word, "status": "argued", "verdict": "holds (argued)"}]


def test_the_word_part_by_brute_force(result):
    """Catches step s3 passing a case where Eq. (2)'s largest-drop solution removes another word than the least
    frequent one: by plain enumeration (brute_force, not the claim's referee) on the multiplicities with sum <= 5,
    at p = 1/2 and every eps of the search, the largest-drop count vectors of size l* put nothing on w_2, ..., w_k
    and the count on w_1 is l*; and the claim's step saw every case of its search space."""
    for m in [(1,), (2,), (3,), (1, 2), (1, 3), (2, 3), (1, 4), (1, 2, 3)]:
        for eps in (Fraction(3, 20), Fraction(1, 20), Fraction(3, 10), Fraction(1, 2), Fraction(1)):
            size, solutions = brute_force(m, HALF, eps)
            top = max(solutions.values())
            best = [c for c, d in solutions.items() if d == top]
            assert all(c[0] == size and not any(c[1:]) for c in best), (m, eps, best)
    # strictly increasing m with sum <= 5: (1), (2), (3), (4), (5), (1, 2), (1, 3), (1, 4), (2, 3); 5 p, 5 eps
    seen = step(result, "s3-least-frequent-word").values
    assert (seen["cases"], seen["violation_count"], seen["cases_outside_hypotheses"]) == (9 * 5 * 5, 0, [])
