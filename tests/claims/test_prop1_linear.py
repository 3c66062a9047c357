"""Claim prop1-linear (proofs_checks/claims/propositions/prop1_linear.py): Proposition 1 holds (argued) on its headline
reading, FRED's choice ((ii) speaks of "the algorithm", line 494). "The solution" of Eq. (2) read as any minimiser is
reported beside it: (ii) fails whenever two sets of the minimal size reach the threshold (also for a confidence score in
[0, 1] with f(xi) > 1/2); (i), the literal subject of its words, holds (argued) for a confidence score in [0, 1] (the
section's premise, lines 449-452) and fails for the real-valued score of Eq. (6) exactly when E[f] < 0 < f(xi) and a
negative word has (1 - p) a_i >= eps E[f]. The proof is right for every p with its p read as the keep probability (the
appendix's use); the one slip in the algebra of lines 1015-1017 is p (m_i - 1) (line 1016); paper-proof steps decide
nothing.

Each finding is reproduced here by an independent computation: the 2^b mask patterns are enumerated in this file
with ``fractions.Fraction`` weights (no ``analytic`` code), Algorithm 1 as printed is transcribed here, and
FRED(sampler="exact") is run on the same linear black box. The closed forms of analytic/prop1_linear.py:
tests/analytic/test_prop1_linear.py.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
import sympy as sp
from numpy.testing import assert_allclose

from fred import Fred
from tests._helpers import drops_by_enumeration


def _linear_clf(weights):
    """Black box on texts: lambda_0 + sum of the weights of the kept positions (a masked position reads 'UNK')."""
    a, l0 = [float(x) for x in weights[0]], float(weights[1])
    return lambda texts: np.array([l0 + sum(w for w, t in zip(a, text.split()) if t != "UNK") for text in texts])


def _enumerate(a, l0, p):
    """(f(xi), E[f], drop of every non-empty position set) of the linear model, by enumeration in Fractions."""
    def f(z):
        return l0 + sum(a[i] for i in range(len(a)) if not z[i])

    mean, drops = drops_by_enumeration(f, len(a), p)
    return f((0,) * len(a)), mean, drops


def _solutions(drops, threshold, max_len):
    """Every minimiser of Eq. (2): the sets of the smallest size whose drop reaches the threshold."""
    for size in range(1, max_len + 1):
        sets = [s for s, d in drops.items() if len(s) == size and d >= threshold]
        if sets:
            return sets
    return []


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result("prop1-linear")  # the session's one run of the claim (tests/conftest.py)


def test_prop1_linear_step_statuses_and_verdict(result):
    """Pins every step with its reading: a check that silently turns 'fails' into 'holds', a paper-proof step
    deciding the verdict, or a stronger reading's failure becoming the headline changes this table. The headline
    (FRED's choice) is argued (p3 is a written exchange argument); both every-solution readings fail."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == {
        "prop1-linear.s1-expected-multiplicity": ("paper-proof", "symbolic", "holds", None),
        "prop1-linear.s2-conditional-multiplicity": ("paper-proof", "symbolic", "fails", None),
        "prop1-linear.s3-drop-formula": ("paper-proof", "symbolic", "holds", None),
        "prop1-linear.s4-same-p-as-the-main-text": ("paper-proof", "symbolic", "fails", None),
        "prop1-linear.s5-third-equality-as-written": ("paper-proof", "symbolic", "fails", None),
        "prop1-linear.s6-line-1015-unconditional-expectation": ("paper-proof", "symbolic", "fails", None),
        "prop1-linear.p1-kept-multiplicity": ("proof", "symbolic", "holds", None),
        "prop1-linear.p2-drop-formula": ("proof", "symbolic", "holds", None),
        "prop1-linear.p3-top-set": ("proof", "argument", "argued", None),
        "prop1-linear.p4-removal": ("proof", "symbolic", "holds", None),
        "prop1-linear.p5-size-one": ("proof", "symbolic", "holds", None),
        "prop1-linear.st1-fred-choice-grid": ("statement", "exhaustive", "holds", "fred-choice"),
        "prop1-linear.st2-fred-choice-family": ("statement", "exhaustive", "holds", "fred-choice"),
        "prop1-linear.st3-minimal-size": ("statement", "exhaustive", "holds", "fred-choice"),
        "prop1-linear.st4-fred-choice-on-the-counterexamples": ("statement", "exhaustive", "holds", "fred-choice"),
        "prop1-linear.st5-ii-every-solution": ("statement", "counterexample", "fails", "every-solution-ii"),
        "prop1-linear.st6-ii-every-solution-confidence-score": ("statement", "counterexample", "fails",
                                                                "every-solution-ii"),
        "prop1-linear.st7-ii-family-every-solution": ("statement", "exhaustive", "fails", "every-solution-ii"),
        "prop1-linear.st8-i-every-solution": ("statement", "counterexample", "fails", "every-solution-i"),
        "prop1-linear.st9-i-every-solution-confidence-score": ("statement", "exhaustive", "holds",
                                                               "every-solution-i-confidence-score"),
        "prop1-linear.st10-positive-words-only": ("statement", "exhaustive", "holds", "fred-choice-positive"),
    }
    assert (result.kind, result.status, result.verdict, result.corrected, result.counterexample) == (
        "statement", "argued", "holds (argued)", None, None)
    assert [(r.id, r.role, result.reading_status(r.id)) for r in result.readings] == [
        ("fred-choice", "headline", "argued"), ("fred-choice-positive", "stronger", "argued"),
        ("every-solution-i", "stronger", "fails"),
        ("every-solution-i-confidence-score", "alternative", "argued"), ("every-solution-ii", "stronger", "fails")]
    steps = {s.id: s for s in result.steps}
    grid = steps["prop1-linear.st1-fred-choice-grid"].values
    assert grid["within_hypotheses"] > 4000 and grid["fred_choice_negative_outside_sharp_condition"] == 0
    assert steps["prop1-linear.st2-fred-choice-family"].values["outside_violations_meet_the_sharp_condition"]
    for step in ("prop1-linear.st5-ii-every-solution", "prop1-linear.st8-i-every-solution"):  # minimal by a scan
        assert steps[step].values["smaller_points_checked"] > 0
    assert '"p_exact": "1/4"' in steps["prop1-linear.s3-drop-formula"].note
    assert '"exact_drop_rational": "3/4"' in steps["prop1-linear.s3-drop-formula"].note
    assert '"keep_probability_drop_rational": "3/4"' in steps["prop1-linear.s3-drop-formula"].note


def test_the_headline_reading_is_chosen_by_the_words_of_the_algorithm(result):
    """Catches a headline chosen by which reading holds rather than by the paper's words: the headline quotes
    (ii)'s "the algorithm starts including" (line 494) and FRED's paraphrase (line 497); the every-solution readings
    quote "the solution to Eq. (2)", and the (ii) one the whole of line 494 (a quote cut before (ii) hid the clause
    it reads). The two (i) readings quote the premise each rests on: Eq. (6)'s sign (line 489) or the section's
    confidence score (lines 449, 452)."""
    why = {r.id: " ".join(q.text for q in r.why) for r in result.readings}
    assert "the algorithm starts including" in why["fred-choice"] and "FRED retains only words" in why["fred-choice"]
    assert all("the solution to Eq." in why[r] for r in ("every-solution-i", "every-solution-i-confidence-score",
                                                         "every-solution-ii"))
    assert "(ii) the algorithm starts including" in why["every-solution-ii"]
    assert "is greater than zero" in why["every-solution-i"] and "confidence score" not in why["every-solution-i"]
    assert {449, 452, 233} <= {q.line for r in result.readings if r.id == "every-solution-i-confidence-score"
                               for q in r.why}
    assert {q.line for r in result.readings for q in r.why} <= {q.line for q in result.source}


def _hypotheses_of(a, l0, p, eps):
    """Prop. 1's hypotheses computed here: distinct weights, f(xi) > 0, and some set of size <= b meets Eq. (2)."""
    f_xi, mean, drops = _enumerate(a, l0, p)
    return {"strictly_decreasing_weights": len(set(a)) == len(a), "classified_positive": f_xi > 0,
            "eq2_has_a_solution": bool(_solutions(drops, eps * mean, len(a)))}


def test_counterexamples_satisfy_the_hypotheses_of_the_reading_they_refute(result):
    """Catches a counterexample outside Prop. 1's hypotheses (e.g. f(xi) <= 0 or tied weights) passed off as one,
    and a hypotheses record that is not the predicate computed on the case: each record equals this file's own
    computation. The (i) counterexample leaves [0, 1] (E[f] < 0); the confidence-score one does not and has
    f(xi) > 1/2, positive as a confidence score (a case with f(xi) in (0, 1/2] mixed two premises)."""
    steps = {s.id: s for s in result.steps}
    premises = {}
    for name in ("st5-ii-every-solution", "st6-ii-every-solution-confidence-score", "st8-i-every-solution"):
        v = steps[f"prop1-linear.{name}"].values
        a, l0, p, eps = tuple(F(x) for x in v["position_weights"]), F(v["intercept"]), F(v["p"]), F(v["eps"])
        assert v["satisfies_hypotheses"] is True and v["hypotheses"] == _hypotheses_of(a, l0, p, eps), name
        table = [l0 + sum(a[i] for i in range(len(a)) if not z[i]) for z in itertools.product((0, 1), repeat=len(a))]
        premises[name] = (v["section_premises"]["outputs_in_unit_interval"], all(0 <= x <= 1 for x in table),
                          v["section_premises"]["positive_as_confidence_score"], table[0] > F(1, 2))
    assert premises == {"st5-ii-every-solution": (False, False, True, True),
                        "st6-ii-every-solution-confidence-score": (True, True, True, True),
                        "st8-i-every-solution": (False, False, False, False)}


def test_the_hypotheses_predicate_computes_each_condition():
    """Catches a predicate that returns constants: tied weights, f(xi) <= 0 and an infeasible Eq. (2) each turn
    their own condition off (and only it)."""
    from proofs_checks.claims.propositions.prop1_linear import statement_hypotheses

    half, eps = F(1, 2), F(3, 20)
    assert statement_hypotheses((F(1), F(1, 2)), F(0), half, eps)["satisfies_hypotheses"]
    tied = statement_hypotheses((F(1), F(1)), F(0), half, eps)["hypotheses"]
    negative = statement_hypotheses((F(1), F(1, 2)), F(-2), half, eps)["hypotheses"]
    infeasible = statement_hypotheses((F(1), F(1, 2)), F(100), half, F(1))["hypotheses"]
    assert [k for k, ok in tied.items() if not ok] == ["strictly_decreasing_weights"]
    assert [k for k, ok in negative.items() if not ok] == ["classified_positive"]
    assert [k for k, ok in infeasible.items() if not ok] == ["eq2_has_a_solution"]


def test_fred_drop_follows_the_proofs_formula_with_p_the_keep_probability():
    """The proof's Delta_c = p sum lambda_j idf_j c_j, with the main text's p (the perturbation probability) on "w"
    with weight 1, p = 0.25: the exact drop is E[f] - E[f | w removed] = 0.75 - 0 = 0.75, the formula with p read
    as the keep probability 0.75, not 0.25. Catches fred's exact drop following the proof's p read as the main
    text's p instead of 1 - p."""
    clf = lambda texts: np.array([float(t == "w") for t in texts])  # noqa: E731
    exp = Fred(clf, sampler="exact").explain("w", p=0.25, eps=1.0)
    assert_allclose(exp.importances, [0.75], rtol=1e-12)
    assert not np.isclose(exp.importances[0], 0.25)


def test_eq2_has_two_solutions_and_the_second_violates_ii():
    """Regression for the stronger reading every-solution-ii: a = (1, 1/2), lambda_0 = 0, p = 1/2, eps = 0.15. Exactly,
    E[f] = 3/4, threshold 9/80, single-word drops 1/2 and 1/4: both words alone solve Eq. (2), so the solution
    {w2} is not 'the word of higher lambda_j v_j first'. FRED(sampler="exact") picks the largest drop, {w1}.
    Catches a check that reads Eq. (2) as having a unique solution, or a FRED that returns any solution."""
    a, l0, p, eps = (F(1), F(1, 2)), F(0), F(1, 2), F(15, 100)
    f_xi, mean, drops = _enumerate(a, l0, p)
    assert (f_xi, mean, eps * mean) == (F(3, 2), F(3, 4), F(9, 80))
    assert drops == {(0,): F(1, 2), (1,): F(1, 4), (0, 1): F(3, 4)}  # (1 - p) sum of the removed weights
    assert _solutions(drops, eps * mean, 2) == [(0,), (1,)]
    exp = Fred(_linear_clf((a, l0)), sampler="exact").explain("w1 w2", p=0.5, eps=0.15, max_len=2)
    assert exp.best == ("w1",) and exp.found
    assert_allclose(exp.drop, float(max(drops[(0,)], drops[(1,)])), rtol=1e-12)


def test_negative_word_alone_solves_eq2_when_the_mean_is_negative():
    """Regression for the stronger reading every-solution-i, under the section's assumption f(xi) > 0: a = (1, -1/100),
    lambda_0 = -89/100, p = 1/2: f(xi) = 1/10 but E[f] = -79/200 < 0, so the threshold eps E[f] = -237/4000 is
    negative and the negative word's drop -1/200 reaches it: {w2} is a solution. FRED still picks {w1}.
    Some outputs are negative (f = -9/10 with w1 removed), so f is no confidence score in [0, 1]. Catches a claim
    that conditions (i) for an arbitrary solution on f(xi) > 0 instead of E[f] >= 0."""
    a, l0, p, eps = (F(1), F(-1, 100)), F(-89, 100), F(1, 2), F(15, 100)
    f_xi, mean, drops = _enumerate(a, l0, p)
    assert (f_xi, mean, eps * mean) == (F(1, 10), F(-79, 200), F(-237, 4000))
    assert drops == {(0,): F(1, 2), (1,): F(-1, 200), (0, 1): F(99, 200)}
    assert _solutions(drops, eps * mean, 2) == [(0,), (1,)]
    exp = Fred(_linear_clf((a, l0)), sampler="exact").explain("w1 w2", p=0.5, eps=0.15, max_len=2)
    assert exp.best == ("w1",) and exp.found  # the largest drop, 1/2
    assert_allclose(exp.drop, 0.5, rtol=1e-12)


WEIGHTS = (F(1), F(1, 2), F(-1, 100), F(-1), F(0))
INTERCEPTS = (F(0), F(-89, 100), F(1), F(-1))
PS = (F(1, 2), F(1, 10), F(9, 10))
EPSS = (F(15, 100), F(1, 20), F(1))


def test_ii_fails_for_every_solution_also_for_a_confidence_score(result):
    """Regression for every-solution-ii inside the confidence-score premise (lines 233, 451-452) at the paper's
    p = 1/2, eps = 0.15: a = (1/2, 1/10), lambda_0 = 0 has outputs {0, 1/10, 1/2, 3/5}, f(xi) = 3/5 > 1/2 (positive
    as a confidence score), E[f] = 3/10, threshold 9/200 and single-word drops 1/4 and 1/20, so both words alone
    solve Eq. (2); {w2} is not the top word. FRED picks {w1}. The reviewer's (2/5, 3/10) (f(xi) = 7/10) fails the
    same way. Catches a claim that blames (ii)'s failure on scores outside [0, 1] (only (i)'s failure needs them),
    and the previous case (1/10, 1/5), whose f(xi) = 3/10 is positive only by Eq. (6)'s zero boundary."""
    for a, solutions in (((F(1, 2), F(1, 10)), [(0,), (1,)]), ((F(2, 5), F(3, 10)), [(0,), (1,)])):
        f_xi, mean, drops = _enumerate(a, F(0), F(1, 2))
        outputs = {sum(a[i] for i in range(2) if not z[i]) for z in itertools.product((0, 1), repeat=2)}
        assert all(0 <= x <= 1 for x in outputs) and f_xi > F(1, 2)
        assert _solutions(drops, F(15, 100) * mean, 2) == solutions
    f_xi, mean, drops = _enumerate((F(1, 2), F(1, 10)), F(0), F(1, 2))
    assert (f_xi, mean, F(15, 100) * mean, drops[(0,)], drops[(1,)]) == (F(3, 5), F(3, 10), F(9, 200), F(1, 4),
                                                                          F(1, 20))
    exp = Fred(_linear_clf(((F(1, 2), F(1, 10)), F(0))), sampler="exact").explain("w1 w2", p=0.5, eps=0.15, max_len=2)
    assert exp.best == ("w1",) and exp.found
    assert _enumerate((F(1, 10), F(1, 5)), F(0), F(1, 2))[0] == F(3, 10)  # the old case: not > 1/2
    got = next(s for s in result.steps if s.id == "prop1-linear.st6-ii-every-solution-confidence-score").values
    assert (got["position_weights"], got["intercept"], got["f_xi"], got["solutions_violating_ii"]) == (
        ["1/2", "1/10"], "0", "3/5", [["w2"]])


def _algorithm1_as_printed(drops, threshold, b, l_max=None):
    """Algorithm 1 (lines 405-424) transcribed on exact drops: Delta_best starts at 0 and is never reset, a candidate
    replaces best when its drop is >= Delta_best, candidates of a size in itertools.combinations order, and the
    algorithm returns after the first size whose Delta_best reaches the threshold, or after size l_max (b when
    None)."""
    delta_best, best = 0, None
    for size in range(1, (l_max or b) + 1):
        for c in itertools.combinations(range(b), size):
            if drops[c] >= delta_best:
                delta_best, best = drops[c], c
        if delta_best >= threshold:
            return best
    return best


def test_readings_by_brute_force_in_rationals():
    """Each reading on every small model (b <= 3 distinct weights, all orders), exactly, inside Prop. 1's
    hypotheses (f(xi) > 0, a solution exists):
    headline: FRED's choice, the largest drop among the solutions, is the top-l* set, has no negative word, is what
    Algorithm 1 as printed returns and what Fred(sampler="exact") returns, and l* = min{l : (1 - p) (sum of the l
    largest a) >= eps E[f]};
    every-solution-ii fails exactly where Eq. (2) has several solutions;
    every-solution-i fails exactly where E[f] < 0 and some negative word has (1 - p) a_i >= eps E[f], never when
    every output is in [0, 1].
    Catches a FRED that picks a non-maximal solution, a misstated boundary of either every-solution reading, and
    the proof's p read as the main text's in l*."""
    checked = fails_ii = fails_i = 0
    for b in (1, 2, 3):
        for a in itertools.permutations(WEIGHTS, b):
            for l0, p in itertools.product(INTERCEPTS, PS):
                f_xi, mean, drops = _enumerate(a, l0, p)
                table = [l0 + sum(a[i] for i in range(b) if not z[i]) for z in itertools.product((0, 1), repeat=b)]
                for eps in EPSS:
                    sols = _solutions(drops, eps * mean, b)
                    ordered = sorted(a, reverse=True)
                    l_star = next((n for n in range(1, b + 1) if (1 - p) * sum(ordered[:n]) >= eps * mean), None)
                    exp = Fred(_linear_clf((a, l0)), sampler="exact").explain(
                        " ".join(f"w{i + 1}" for i in range(b)), p=float(p), eps=float(eps), max_len=b)
                    if not sols:
                        assert l_star is None and not exp.found
                        continue
                    assert all(len(s) == l_star for s in sols), (a, l0, p, eps)
                    if f_xi <= 0:
                        continue
                    checked += 1
                    top = max(drops[s] for s in sols)
                    choice = [s for s in sols if drops[s] == top]
                    assert len(choice) == 1  # distinct weights: no tie for the largest drop
                    choice = choice[0]
                    top_set = tuple(sorted(sorted(range(b), key=lambda i: -a[i])[:len(choice)]))
                    assert choice == top_set and all(a[i] >= 0 for i in choice), (a, l0, p, eps)
                    assert _algorithm1_as_printed(drops, eps * mean, b) == choice, (a, l0, p, eps)
                    assert exp.found and exp.best_ids == choice, (a, l0, p, eps)
                    not_top = any(s != top_set for s in sols)
                    assert not_top == (len(sols) > 1), (a, l0, p, eps)
                    negative = any(a[i] < 0 for s in sols for i in s)
                    assert not negative or (mean < 0 and not all(0 <= x <= 1 for x in table)), (a, l0, p, eps)
                    sharp = mean < 0 and any(x < 0 and (1 - p) * x >= eps * mean for x in a)
                    assert negative == sharp, (a, l0, p, eps)
                    fails_ii += not_top
                    fails_i += negative
    assert checked > 1000 and fails_ii > 0 and fails_i > 0


def test_i_holds_for_every_solution_on_confidence_scores(result):
    """The reading every-solution-i-confidence-score, recomputed here: on every model of the claim's confidence-score
    grid (its weights and intercepts, b <= 3 distinct weights in decreasing order, every output in [0, 1]) at every
    grid p and eps, no solution of Eq. (2) contains a negative word, although many documents have one; the counts
    equal the claim's step st9. Catches a (i) failure hidden in the [0, 1] premise, a grid with no negative weight
    (which would make the check vacuous, as on the main grid), and a step that miscounts."""
    v = next(s for s in result.steps if s.id == "prop1-linear.st9-i-every-solution-confidence-score").values
    weights, intercepts = [F(x) for x in v["weights"]], [F(x) for x in v["intercepts"]]
    counts = {"within_hypotheses": 0, "with_a_negative_word": 0, "some_solution_negative": 0}
    for b in (1, 2, 3):
        for chosen in itertools.combinations(weights, b):
            a = tuple(sorted(chosen, reverse=True))
            for l0 in intercepts:
                table = [l0 + sum(a[i] for i in range(b) if not z[i]) for z in itertools.product((0, 1), repeat=b)]
                if not all(0 <= x <= 1 for x in table):
                    continue
                for p in (F(x) for x in v["ps"]):
                    f_xi, mean, drops = _enumerate(a, l0, p)
                    for eps in (F(x) for x in v["epss"]):
                        sols = _solutions(drops, eps * mean, b)
                        if f_xi > 0 and sols:
                            counts["within_hypotheses"] += 1
                            counts["with_a_negative_word"] += any(x < 0 for x in a)
                            counts["some_solution_negative"] += any(a[i] < 0 for s in sols for i in s)
    assert counts == {k: v[k] for k in counts}
    assert counts["some_solution_negative"] == 0 and counts["with_a_negative_word"] > 100


def test_the_proof_is_right_for_every_p_read_as_the_keep_probability(result):
    """The appendix's p is the keep probability (the main text's 1 - p): with q = 1 - p kept per occurrence,
    E[M_j] = q m_j (line 1015), E[M_i | c_i perturbed] = q (m_i - c_i) (line 1016's tag), which is the line's
    q (m_i - 1) only at c_i = 1, and P(M_j = 0 | c) = (1 - q)^(m_j - c_j) (line 1036), each enumerated here in sympy;
    read with the main text's p, E[M_j] = p m_j fails. Catches paper-proof steps that read the appendix's p as the
    main text's (s1, s3 'fail' again), and a slip located anywhere but p (m_i - 1)."""
    q, p = sp.symbols("q p")  # q: keep probability; p: the main text's perturbation probability, q = 1 - p
    for m in range(1, 5):
        for c in range(m + 1):
            rest = list(itertools.product((0, 1), repeat=m - c))  # 1 = kept, with probability q
            weight = [sp.Mul(*[q if k else 1 - q for k in z]) for z in rest]
            kept = sp.expand(sum(w * sum(z) for w, z in zip(weight, rest)))
            none = sp.expand(sum(w for w, z in zip(weight, rest) if not any(z)))
            assert sp.expand(kept - q * (m - c)) == 0 and sp.expand(none - (1 - q) ** (m - c)) == 0
            if c >= 1:
                assert (sp.expand(kept - q * (m - 1)) == 0) == (c == 1), (m, c)
            else:  # E[M_j] = p m_j with the main text's p is wrong
                assert sp.expand(kept.subs(q, 1 - p) - p * m) != 0
    m_i, c_i = sp.symbols("m_i c_i")  # line 1017's per-word term q c_i comes from the tag, not from the line
    assert sp.expand(q * m_i - q * (m_i - c_i) - q * c_i) == 0 and sp.expand(q * m_i - q * (m_i - 1) - q * c_i) != 0
    steps = {s.id: s for s in result.steps}
    assert steps["prop1-linear.s2-conditional-multiplicity"].values["line_1017_follows_from"] == ["tag"]
    assert steps["prop1-linear.s2-conditional-multiplicity"].values["equal_at"]["line_equal_p_as_keep"] == [
        [m, 1] for m in range(1, 5)]
    assert steps["prop1-linear.s4-same-p-as-the-main-text"].values["right_for_every_p_as_keep_probability"] == {
        "expected_multiplicity_1015": True, "tag_1016": True, "drop_1017": True, "zero_probability_1036": True}


def test_algorithm1_as_printed_stops_at_l_max(result):
    """When the minimal size exceeds l_max = 10 (line 402), Algorithm 1 as printed returns the top-10 set, which
    misses the threshold: 12 words of weights 1 - k/100, lambda_0 = 0, p = 1/2, eps = 1, threshold E[f] = 567/100,
    top-10 drop 191/40 (drops (1 - p) sum a, as the brute force above confirms for b <= 3). Catches "Algorithm 1
    as printed returns FRED's choice" stated without l* <= l_max, and a step reporting other values."""
    a, p = [1 - F(k, 100) for k in range(12)], F(1, 2)
    drops = {s: (1 - p) * sum(a[i] for i in s) for k in range(1, 11) for s in itertools.combinations(range(12), k)}
    threshold = (1 - p) * sum(a)
    best = _algorithm1_as_printed(drops, threshold, 12, l_max=10)
    assert (threshold, best, drops[best]) == (F(567, 100), tuple(range(10)), F(191, 40))
    got = next(s for s in result.steps if s.id == "prop1-linear.st1-fred-choice-grid").values["beyond_l_max"]
    assert (got["minimal_size"], got["algorithm1_returns"], got["its_drop"], got["meets_threshold"]) == (
        12, list(range(10)), "191/40", False)


def test_line_1012_third_equality_as_printed_is_off_by_p_sum_a(result):
    """Line 1012's E[lambda^T phi(xi)] - E_c[lambda^T phi(x)] with phi(xi) the explained document, computed here in
    Fractions on a = (1, 1/2, -1/4), lambda_0 = 1/3, p = 1/4 by this file's own enumeration: it exceeds the drop of
    every set by f(xi) - E[f] = p sum a = 5/16, while line 1013's expectation over the random document is the
    drop. Catches s5 reading phi(xi) as the random phi(x) (then 'holds'), or a residual of the wrong size."""
    a, l0, p = (F(1), F(1, 2), F(-1, 4)), F(1, 3), F(1, 4)
    f_xi, mean, drops = _enumerate(a, l0, p)
    for s, drop in drops.items():
        printed = (f_xi - l0) - ((mean - drop) - l0)  # E_c[f] = E[f] - drop
        assert printed - drop == p * sum(a) == F(5, 16), s
    seen = {s.id: s for s in result.steps}["prop1-linear.s5-third-equality-as-written"].values
    assert (seen["sets"], seen["printed_differs_from_drop"], seen["residual_is_p_sum_a_main_text_p"],
            seen["line_1013_equals_drop"]) == (11, 11, 11, 11)


def test_line_1015_with_the_unconditional_expectation_is_zero(result):
    """Line 1015 with E[M_i] as printed, by hand on one word of multiplicity 2 with c = 1, q the keep probability:
    q*2 - E[M] = 2q - 2q = 0 whatever c, while the drop (enumerated here over the 4 patterns) is q*a, which the
    conditional E_c[M] = q (2 - 1) gives. Catches s6 taking the bracket's E as conditional (then 'holds') or
    counting configurations where the printed line depends on c."""
    q, a = sp.symbols("q a")
    patterns = list(itertools.product((0, 1), repeat=2))  # 1 = kept, with probability q
    weight = {z: sp.Mul(*[q if k else 1 - q for k in z]) for z in patterns}
    mean = sp.expand(sum(weight[z] * a * sum(z) for z in patterns))
    given = sp.expand(sum(weight[z] * a * sum(z) for z in patterns if not z[0]) / (1 - q))  # first occurrence out
    drop = sp.expand(mean - given)
    assert sp.simplify(drop - q * a) == 0
    assert sp.expand(a * q * 2 - mean) == 0  # printed: sum a p m - a E[M], with E[M] = 2q
    assert sp.expand(a * q * 2 - a * q * (2 - 1) - drop) == 0  # with E_c[M] = q (m - c)
    seen = {s.id: s for s in result.steps}["prop1-linear.s6-line-1015-unconditional-expectation"].values
    assert seen["printed_zero_p_as_keep"] == seen["configurations"] == seen["conditional_equals_drop"]["keep"] == 24
    assert seen["printed_equals_drop"] == {"keep": 0, "perturb": 0}


def test_fred_keeps_no_word_of_weight_zero_though_a_solution_may(result):
    """Line 497 (st10) on a = (1, 0), lambda_0 = -89/100, p = 1/2, eps = 3/20, exact by this file's enumeration:
    f(xi) = 11/100 > 0, E[f] = -39/100 < 0, so {w2} (weight 0, drop 0) solves Eq. (2) beside {w1} (drop 1/2), and
    FRED(sampler='exact') takes {w1}. Then every 2- and 3-word document with weights from {1, 1/2, 0, -1} and
    lambda_0 in {0, -89/100, 1}: FRED's choice (largest drop at the minimal size, found here) has no weight <= 0
    whenever f(xi) > 0 and a solution exists. Catches st10 counting a zero-weight solution as FRED's choice, or a
    grid without a zero weight (the step then checks nothing new)."""
    a, l0, p, eps = (F(1), F(0)), F(-89, 100), F(1, 2), F(3, 20)
    f_xi, mean, drops = _enumerate(a, l0, p)
    assert (f_xi, mean) == (F(11, 100), F(-39, 100)) and _solutions(drops, eps * mean, 2) == [(0,), (1,)]
    exp = Fred(_linear_clf((a, l0)), sampler="exact").explain("w1 w2", p=0.5, eps=0.15, max_len=2)
    assert exp.best == ("w1",) and exp.found
    for b in (2, 3):
        for a in itertools.permutations((F(1), F(1, 2), F(0), F(-1)), b):
            for l0 in (F(0), F(-89, 100), F(1)):
                f_xi, mean, drops = _enumerate(a, l0, p)
                sols = _solutions(drops, eps * mean, b)
                if f_xi > 0 and sols:
                    assert all(a[i] > 0 for i in max(sols, key=drops.get)), (a, l0)
    seen = {s.id: s for s in result.steps}["prop1-linear.st10-positive-words-only"].values
    assert "0" in seen["weights"] and seen["fred_choice_nonpositive"] == 0
    assert seen["zero_weight_word"] > 0 and seen["some_solution_has_a_zero_weight_word"] > 0


def test_the_proof_lines_the_paper_proof_steps_check_are_quoted(result):
    """Lines 1012-1015 (s5, s6) and line 497 (st10's reading) are quoted. Catches a paper-proof step whose line is
    missing from SOURCE (the claim map would show it unchecked), or a reading quoting other words than 497's."""
    assert {497, 1012, 1013, 1014, 1015} <= {q.line for q in result.source}
    why = {r.id: [q.line for q in r.why] for r in result.readings}
    assert why["fred-choice-positive"] == [497]
