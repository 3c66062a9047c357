"""Claim lemma1-selection (proofs_checks/claims/lemmas/lemma1_selection.py): ours, a corollary the paper states only as a
motivation (line 286). Headline (positive margins): the candidate FRED selects with n mask rows converges to its
exact choice, holds (argued). Stronger readings fail at zero margins: 'exact' (the same positions and found flag for
every table) on a tie and on a drop equal to the threshold, 'solution' (the returned positions solve Eq. (2)) on a
drop equal to the threshold with a larger candidate above it.

The counterexamples are recomputed here by hand (Eq. 3 written out over every design, rational arithmetic), and
FRED's agreement is measured against them and against the bound. The bound itself: tests/analytic/test_selection.py.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from analytic import linear_table, table_classifier, table_from_classifier
from analytic.selection import agreement_bound, agreement_probability
from fred import Fred
from proofs_checks.cases.selection import SelectionCase, bound_test
from proofs_checks.statistics.seeds import statistical_seed
from tests._helpers import clopper_pearson, drops_by_enumeration

#: False-alarm probability of each statistical test (union bound over the intervals it checks).
DELTA = 1e-6
HALF, EPS = Fraction(1, 2), Fraction(3, 20)


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result("lemma1-selection")  # the session's one run of the claim (tests/conftest.py)


def _values(result, step: str) -> dict:
    return next(s.values for s in result.steps if s.id == f"lemma1-selection.{step}")


def test_lemma1_selection_step_statuses_readings_and_verdict(result):
    """Pins every step, its reading and the verdicts: catches the project's corollary reported as a failed claim of
    the paper (kind 'corollary', labelled ours; headline 'margins' holds (argued)), a stronger reading whose
    counterexample disappears, FRED's measured agreement rejected against the bound or left undecided, a run inside
    the bound's event that disagrees, a sympy step that stops proving, or the argued concentration step reported as
    proved. Also pins the census of zero margins on the family (a regression pin: 12 of 30 logistic documents, all
    ties between occurrences of a repeated word; 19 of 30 tree documents, 13 of them with f constant)."""
    got = {s.id: (s.role, s.reading, s.evidence, s.status) for s in result.steps}
    assert got == {
        "lemma1-selection.s1-bound-below-exact": ("statement", "margins", "exhaustive", "holds"),
        "lemma1-selection.s2-fitted-models": ("statement", "margins", "statistical", "holds"),
        "lemma1-selection.p1-event-implies-agreement": ("proof", "margins", "exhaustive", "holds"),
        "lemma1-selection.p2-concentration": ("proof", "margins", "argument", "argued"),
        "lemma1-selection.p3-binomial": ("proof", "margins", "symbolic", "holds"),
        "lemma1-selection.p4-bound-tends-to-1": ("proof", "margins", "symbolic", "holds"),
        "lemma1-selection.st1-tie": ("statement", "exact", "counterexample", "fails"),
        "lemma1-selection.st2-threshold": ("statement", "exact", "counterexample", "fails"),
        "lemma1-selection.st3-threshold-escape": ("statement", "solution", "counterexample", "fails"),
    }
    assert (result.kind, result.ours, result.status, result.verdict, result.corrected) == (
        "corollary", True, "argued", "holds (argued)", None)
    assert {r.id: (r.role, result.reading_status(r.id)) for r in result.readings} == {
        "margins": ("headline", "argued"), "solution": ("stronger", "fails"), "exact": ("stronger", "fails")}
    assert result.counterexample is None  # the headline holds; the stronger readings' cases are in their steps
    fitted = _values(result, "s2-fitted-models")
    assert fitted["event_runs"] > 0 and fitted["event_runs_disagreeing"] == 0 and fitted["exact_matches_referee"]
    assert fitted["status_counts"]["confirmed"] >= 1 and fitted["status_counts"]["rejected"] == 0
    # Only confirmed points count (R2A, objection 2): the others are listed as inconclusive, none is evidence.
    assert len(fitted["confirmed_points"]) == fitted["status_counts"]["confirmed"] == 3
    assert len(fitted["inconclusive_points"]) == sum(fitted["status_counts"][k] for k in (
        "undecided", "unconfirmable", "vacuous")) == 21
    census = fitted["zero_margin_census"]
    assert {k: v for k, v in census.items() if k != "tree_tie"} == {
        "logistic-raw": {"documents": 30, "zero_margin": 12, "constant_f": 0, "only_repeated_word_ties": 12,
                         "other": 0},
        "tree": {"documents": 30, "zero_margin": 19, "constant_f": 13, "only_repeated_word_ties": 4, "other": 2}}
    assert _values(result, "s1-bound-below-exact")["violations"] == []


def test_paper_default_n_is_measured_and_labelled(result):
    """Catches 'FRED's default n' presented as the paper's (R1-lemma1, objection 5): the paper fixes l_max = 10
    (line 373), so its n is ceil(log 0.05 / log(1 - 2^-10)) = 3067 whatever b, recomputed here; this
    implementation's default takes l_max = min(max_len, b). Every positive-margin document is measured at 3067 too."""
    paper_n = math.ceil(math.log(0.05) / math.log(1 - 2.0**-10))
    fitted = _values(result, "s2-fitted-models")
    assert paper_n == 3067 == fitted["paper_n"]
    documents = {(r["case"], r["document"]) for r in fitted["points"]}
    assert {(r["case"], r["document"]) for r in fitted["points"] if r["n"] == paper_n} == documents
    for r in fitted["points"]:
        b = len(r["document"].split())
        assert r["n_paper"] == math.ceil(math.log(0.05) / math.log(1 - 2.0**-b))
    note = next(s.note for s in result.steps if s.id == "lemma1-selection.s2-fitted-models")
    assert "FRED's default n" not in note and "the paper's default n = 3067" in note


def test_bound_test_confirms_rejects_and_says_when_it_cannot():
    """Catches a non-rejection reported as support (R1-lemma1 on minilm-selection s2): with 300 runs and delta =
    1e-6 over 5 points, Clopper-Pearson limits (tests/_helpers, scipy's binomtest) say a bound of 0 is vacuous, 0.5
    is confirmed by 300/300 and rejected by 100/300, 0.55 is undecided by 170/300, and 0.99 exceeds the largest
    lower limit 300 runs can give, so it cannot be confirmed. A step with no confirmed and no rejected point is
    inconclusive; one confirmed point with an undecided one is evidence (the undecided one is reported)."""
    agreements, bounds = [300, 300, 100, 170, 300], [0.0, 0.5, 0.5, 0.55, 0.99]
    per = 1e-6 / len(bounds)
    ceiling = clopper_pearson(300, 300, per)[0]
    assert 0.5 < ceiling < 0.99 and clopper_pearson(100, 300, per)[1] < 0.5
    low, high = clopper_pearson(170, 300, per)
    assert low < 0.55 < high
    holds, conclusive, values = bound_test(agreements, bounds, 300, 1e-6)
    assert values["point_status"] == ["vacuous", "confirmed", "rejected", "undecided", "unconfirmable"]
    assert (holds, conclusive) == (False, True)  # a rejection is conclusive
    holds, conclusive, _ = bound_test([300, 170, 300], [0.0, 0.55, 0.99], 300, 1e-6)
    assert (holds, conclusive) == (True, False)  # undecided and unconfirmable only: no evidence either way
    holds, conclusive, values = bound_test([300, 170], [0.5, 0.55], 300, 1e-6)
    assert (holds, conclusive, values["point_status"]) == (True, True, ["confirmed", "undecided"])
    holds, conclusive, _ = bound_test([300, 300], [0.0, 0.99], 300, 1e-6)
    assert (holds, conclusive) == (True, False)  # nothing could be confirmed


def _choice_by_hand(f_rows: list, rows: list, threshold_share) -> tuple[tuple[int, ...], bool]:
    """FRED's choice on a two-token design, Eq. (3) written out: hat m = mean f, hat Delta_c = hat m - mean of f
    over the rows perturbing c; the first size whose best defined drop reaches eps hat m wins (ties to the
    smaller tuple); else the best over sizes, a later size winning only when strictly larger."""
    mean = sum(f_rows) / len(f_rows)
    best = None
    for size in (1, 2):
        drops = {}
        for c in itertools.combinations((0, 1), size):
            covered = [f for f, z in zip(f_rows, rows) if all(z[i] for i in c)]
            if covered:
                drops[c] = mean - sum(covered) / len(covered)
        if not drops:
            break
        top = max(drops.values())
        winner = min(c for c in drops if drops[c] == top)
        if top >= threshold_share * mean:
            return winner, True
        if best is None or top > best[1]:
            best = (winner, top)
    return (() if best is None else best[0]), False


def _hand_distribution(f, n: int) -> dict:
    """FRED's choice over all 4^n equally likely designs of n rows on two tokens (p = 1/2), as counts."""
    counts: dict = {}
    for design in itertools.product(itertools.product((0, 1), repeat=2), repeat=n):
        choice = _choice_by_hand([f(z) for z in design], list(design), EPS)
        counts[choice] = counts.get(choice, 0) + 1
    return counts


def test_tie_counterexample_by_hand(result):
    """The minimal tie: f = (a kept + b kept)/40 on "a b", p = 1/2, eps = 3/20. Both tokens drop E[f] = 1/40 by
    1/80 (tests/_helpers enumeration, rational), above the threshold 3/800, so Fred(exact) returns {a} by its tie
    rule. Over the 4^3 equally likely designs of n = 3 rows, Eq. (3) by hand returns {a} with found in exactly 37
    of them (37/64) and {b} in 18; a size-1 position set (a solution of Eq. (2)) in 63 (only the design perturbing
    nothing returns none). Catches a report whose tie or agreement is not FRED's, or a tie reported as breaking
    reading 'solution'; f stays in [0, 1] (the case satisfies the hypotheses)."""
    cx = _values(result, "st1-tie")["counterexample"]
    assert (cx["document"], cx["position_weights"], cx["intercept"]) == ("a b", ["1/40", "1/40"], "0")
    assert cx["satisfies_hypotheses"] and _values(result, "st1-tie")["satisfies_hypotheses"]
    f = lambda z: Fraction(2 - z[0] - z[1], 40)  # noqa: E731
    mean, drops = drops_by_enumeration(f, 2, HALF)
    assert mean == Fraction(1, 40) and drops[(0,)] == drops[(1,)] == Fraction(1, 80) > EPS * mean
    assert cx["exact_drops"] == {"a": "1/80", "b": "1/80", "a b": "1/40"} and cx["threshold"] == "3/800"
    counts = _hand_distribution(f, 3)
    assert counts[((0,), True)] == 37 and counts[((1,), True)] == 18
    assert sum(v for (c, _), v in counts.items() if len(c) == 1) == 63
    assert Fraction(cx["agreement"]["3"]) == Fraction(37, 64) and cx["returns_a_solution"]["3"] == 63 / 64
    assert cx["other_choices"]["3"]["[1] found=True"] == "9/32"
    assert Fraction(cx["agreement"]["11"]) == Fraction(2505185, 4194304)
    tie_mass = _values(result, "st1-tie")["P_drops_tie_and_reach_threshold_float"]
    assert tie_mass["3"] > tie_mass["11"] > tie_mass["44"] > 0 and abs(cx["agreement_float"]["44"] - 0.5) < 0.05
    assert cx["returns_a_solution"]["44"] > 0.9999


def _algorithm1_as_printed(f_rows: list, rows: list, strict: bool) -> tuple[tuple[int, ...] | None, bool]:
    """Algorithm 1 as printed (lines 405-424) on a two-token design: Delta_best starts at 0, a candidate replaces
    best when its drop is >= Delta_best (> when ``strict``), candidates no row perturbs are skipped, and a size
    returns best (found) when Delta_best >= eps hat m."""
    mean = sum(f_rows) / len(f_rows)
    best, best_drop = None, Fraction(0)
    for size in (1, 2):
        for c in itertools.combinations((0, 1), size):
            covered = [f for f, z in zip(f_rows, rows) if all(z[i] for i in c)]
            if covered:
                drop = mean - sum(covered) / len(covered)
                if drop > best_drop or (not strict and drop == best_drop):
                    best, best_drop = c, drop
        if best is not None and best_drop >= EPS * mean:
            return best, True
    return best, False


def test_tie_labels_and_conventions_by_hand(result):
    """R2A, objections 3 and 4. Over the 4^3 designs of n = 3 rows on the minimal tie, by hand: the empirical drops
    of 'a' and 'b' are both defined and equal in 25 (P(tie) = 25/64), and also reach eps hat m in 19; 37 - 18 = 19:
    agreement - P(the other token, found) is P(tie and reach), not P(tie). The conventions: Algorithm 1 as printed
    ('>=' against the initial Delta_best = 0, the last tied candidate kept) returns 'b' with found in 37 designs,
    this implementation's 37/64 by symmetry; a strict '>' against that 0 returns 'a' with found in 36 (9/16): the
    design perturbing both tokens in every row (f = 0 throughout) is lost. Catches the old label 'P(the empirical
    drops tie)' and a convention statement that the numbers do not bear out."""
    values = _values(result, "st1-tie")
    f = lambda z: Fraction(2 - z[0] - z[1], 40)  # noqa: E731
    tie = reach = printed = strict = 0
    for design in itertools.product(itertools.product((0, 1), repeat=2), repeat=3):
        f_rows = [f(z) for z in design]
        mean = sum(f_rows) / 3
        drops = [mean - sum(v for v, z in zip(f_rows, design) if z[i]) / sum(z[i] for z in design)
                 if any(z[i] for z in design) else None for i in (0, 1)]
        if drops[0] is not None and drops[0] == drops[1]:
            tie += 1
            reach += drops[0] >= EPS * mean
        printed += _algorithm1_as_printed(f_rows, list(design), strict=False) == ((1,), True)
        strict += _algorithm1_as_printed(f_rows, list(design), strict=True) == ((0,), True)
    assert (tie, reach, printed, strict) == (25, 19, 37, 36)
    assert Fraction(values["P_drops_tie"]["3"]) == Fraction(25, 64)
    assert Fraction(values["P_drops_tie_and_reach_threshold"]["3"]) == Fraction(19, 64) == Fraction(37 - 18, 64)
    assert values["excess_equals_tie_and_reach"] and values["P_every_row_f_zero"]["3"] == "1/64"
    assert Fraction(values["agreement_if_strict_against_initial_0"]["3"]) == Fraction(9, 16)
    ties = values["P_drops_tie_float"]
    assert ties["3"] > ties["11"] > ties["44"] > 0 and abs(ties["11"] - 0.20333) < 1e-5
    note = next(s.note for s in result.steps if s.id == "lemma1-selection.st1-tie")
    assert "P(the empirical drops tie and reach the threshold)" in note and "strictly" in note
    assert "n_c = 0" in result.conditions and "Delta_best = 0" in result.conditions


def test_strict_orders_of_props_1_and_2_do_not_exclude_zero_margins(result):
    """R2A, objection 1: the headline's old reason ('strict orders, which exclude ties at the top', lines 493,
    530) was false. By hand (tests/_helpers enumeration, rational): inside Prop. 1's hypotheses, 'a a b' with
    lambda idf 2/9 > 2/27 and intercept 13/27 (f in [13/27, 1]) drops E[f] = 20/27 by 1/9 for each 'a', exactly
    eps E[f]: a tie at the top on the threshold; inside Prop. 2's, 'a a b b b' (m_a = 2 < m_b = 3) with
    f = 1{a in x} 1{b in x} drops it by 7/32 for each 'a', above 63/640: a tie at the top. The headline now quotes
    'the optimal candidate' (line 255) and line 286, and calls the margin condition this project's. Catches the
    false justification coming back, or the examples leaving the propositions' hypotheses."""
    mean, drops = drops_by_enumeration(lambda z: Fraction(13, 27) + Fraction(2, 9) * (2 - z[0] - z[1])
                                       + Fraction(2, 27) * (1 - z[2]), 3, HALF)
    assert mean == Fraction(20, 27) and drops[(0,)] == drops[(1,)] == EPS * mean == Fraction(1, 9) > drops[(2,)]
    mean2, drops2 = drops_by_enumeration(lambda z: Fraction(int(not (z[0] and z[1]) and not (z[2] and z[3] and z[4]))),
                                         5, HALF)
    assert drops2[(0,)] == drops2[(1,)] == Fraction(7, 32) > EPS * mean2 == Fraction(63, 640)
    assert max(d for s, d in drops2.items() if len(s) == 1) == Fraction(7, 32)
    cases = _values(result, "st1-tie")["proposition_cases"]
    one, two = cases["prop1_line_493"], cases["prop2_line_530"]
    assert one["satisfies_hypotheses"] and two["satisfies_hypotheses"]
    assert one["tied_at_top"] == [[0], [1]] and one["on_threshold"] == [[0], [1]] and one["threshold"] == "1/9"
    assert two["tied_at_top"] == [[0], [1]] and two["on_threshold"] == [] and two["threshold"] == "63/640"
    headline = result.headline
    assert {q.line for q in headline.why} == {255, 286}
    assert "this project's assumption" in headline.meaning and "which exclude ties" not in headline.meaning


def test_threshold_counterexample_by_hand(result):
    """The minimal drop on the threshold: f = 17/40 + 3/20 kept on "a", p = 1/2, eps = 3/20: E[f] = 1/2, drop
    3/40 = eps E[f]. With N of the n rows perturbing a, hat m = 17/40 + 3/20 (1 - N/n) and hat Delta = 3/20
    (1 - N/n), so hat Delta >= eps hat m iff N <= n/2: agreement = P(1 <= N <= n/2), N ~ Bin(n, 1/2), which is
    1/2 - 2^-n for odd n; the position itself is returned whenever N >= 1 (only the found flag differs). Minimal:
    b = 1 is the shortest document, and on the grid (a/40, c/40) the drop a/80 equals (3/20)(c/40 + a/80) first at
    a = 6, c = 17 (17 a = 6 c). Catches a report whose equality or agreement is wrong, a non-minimal grid point, or
    an f outside [0, 1] (the old grid's 23/20)."""
    cx = _values(result, "st2-threshold")["counterexample"]
    assert (cx["document"], cx["position_weights"], cx["intercept"]) == ("a", ["3/20"], "17/40")
    assert (cx["mean_prediction"], cx["threshold"], cx["exact_drops"]["a"]) == ("1/2", "3/40", "3/40")
    assert cx["f_by_pattern_code"] == ["23/40", "17/40"] and cx["satisfies_hypotheses"]
    for n, value in cx["agreement"].items():
        n = int(n)
        assert Fraction(value) == sum(Fraction(math.comb(n, k), 2**n) for k in range(1, n // 2 + 1))
        assert cx["returns_a_solution"][str(n)] == 1 - 2.0**-n
    assert cx["agreement"] == {"1": "0", "5": "15/32", "20": "616665/1048576"}
    # R2A, objection 5: only the found flag differs; the positions agree iff some row perturbs the token
    assert cx["positions_agree"] == {n: 1 - 2.0 ** -int(n) for n in cx["agreement"]}
    first = next((a, c) for a in range(1, 11) for c in range(21)
                 if Fraction(a, 80) == EPS * (Fraction(c, 40) + Fraction(a, 80)))
    assert first == (6, 17)
    values = _values(result, "st2-threshold")
    assert values["closed_form_matches_enumeration_n_1_to_40"] and values["odd_n_formula_holds"]


def _escapes(a0: int, a1: int, c: int) -> bool:
    """The escape property by hand on f = (c + a0 kept_0 + a1 kept_1)/40 (tests/_helpers enumeration): Eq. (2)'s
    smallest size has exactly one solution, whose drop equals eps E[f], and the pair's drop is above it."""
    f = lambda z: Fraction(c + a0 * (1 - z[0]) + a1 * (1 - z[1]), 40)  # noqa: E731
    mean, drops = drops_by_enumeration(f, 2, HALF)
    threshold = EPS * mean
    singles = [s for s in ((0,), (1,)) if drops[s] >= threshold]
    return len(singles) == 1 and drops[singles[0]] == threshold and drops[(0, 1)] > threshold


def test_threshold_escape_counterexample_by_hand(result):
    """The minimal escape: f = (8 + a kept + 3 b kept)/40 on "a b", p = 1/2, eps = 3/20: E[f] = 1/4, threshold
    3/80 = the drop of {b}, the only solution of Eq. (2); {a} drops 1/80 and the pair 1/20. Over the 4^3 designs of
    n = 3 rows, Eq. (3) by hand returns {b} in 31 (all with found or as the fallback): P(a solution) = 31/64, and the
    claim's enumeration agrees on every choice. Minimal: b = 1 has one candidate, and no earlier grid point (a_0,
    a_1, c) has the property (checked by hand). The limit 1/2 rests on the statistic (1 - eps) hat m - hat m_b
    having mean 0 and positive variance: recomputed here by the delta method on the multinomial pattern
    frequencies (sympy gradient, covariance diag(w) - w w^T), independently of the claim's influence function.
    Catches a report in which reading 'solution' fails on a case that does not escape, or survives one that does."""
    cx = _values(result, "st3-threshold-escape")["counterexample"]
    assert (cx["document"], cx["position_weights"], cx["intercept"]) == ("a b", ["1/40", "3/40"], "1/5")
    assert cx["satisfies_hypotheses"] and cx["exact_choice"] == [1] and cx["threshold"] == "3/80"
    assert cx["exact_drops"] == {"a": "1/80", "b": "3/80", "a b": "1/20"}
    grid = list(itertools.product(range(1, 11), range(1, 11), range(21)))
    assert next(t for t in grid if _escapes(*t)) == (1, 3, 8)
    f = lambda z: Fraction(8 + (1 - z[0]) + 3 * (1 - z[1]), 40)  # noqa: E731
    counts = _hand_distribution(f, 3)
    assert sum(v for (c, _), v in counts.items() if c == (1,)) == 31
    assert cx["returns_a_solution"]["3"] == 31 / 64
    claimed = {**{k: Fraction(v) for k, v in cx["other_choices"]["3"].items()},
               f"{cx['exact_choice']} found=True": Fraction(cx["agreement"]["3"])}
    assert claimed == {f"{list(c)} found={fd}": Fraction(v, 64) for (c, fd), v in counts.items()}
    assert all(v < 0.75 for v in cx["returns_a_solution"].values())
    assert cx["other_choices"]["44"]["[0, 1] found=True"] and float(Fraction(
        cx["other_choices"]["44"]["[0, 1] found=True"])) > 0.45
    q = sp.symbols("q0:4")  # pattern frequencies, code = bits (1 = perturbed)
    values = [f(((code >> 0) & 1, (code >> 1) & 1)) for code in range(4)]
    mean = sum(qi * v for qi, v in zip(q, values))
    mean_b = (q[2] * values[2] + q[3] * values[3]) / (q[2] + q[3])
    statistic = (1 - EPS) * mean - mean_b
    w = [sp.Rational(1, 4)] * 4
    at = dict(zip(q, w))
    assert statistic.subs(at) == 0
    gradient = sp.Matrix([sp.diff(statistic, qi).subs(at) for qi in q])
    covariance = sp.diag(*w) - sp.Matrix(w) * sp.Matrix(w).T
    sigma2 = (gradient.T * covariance * gradient)[0]
    assert sigma2 > 0 and sp.Rational(_values(result, "st3-threshold-escape")["stop_statistic_variance"]) == sigma2


def _agreement(table, tokens, n: int, runs: int, seed: int) -> tuple[int, tuple]:
    """How many of ``runs`` Fred(mask, n) runs return Fred(exact)'s (positions, found). The black box is the
    claim's: table_classifier's answers looked up per text (test_case_black_box_answers_as_table_classifier)."""
    black_box = SelectionCase("test", tuple(tokens), np.asarray(table, dtype=float)).black_box()
    text = " ".join(tokens)
    exact = Fred(black_box, sampler="exact").explain(text, label=1, p=0.5, eps=0.15, max_len=10)
    fred = Fred(black_box, random_state=np.random.default_rng(seed))
    agree = sum((e.best_ids, e.found) == (exact.best_ids, exact.found) for e in (
        fred.explain(text, label=1, p=0.5, eps=0.15, max_len=10, n_samples=n) for _ in range(runs)))
    return agree, (exact.best_ids, exact.found)


@pytest.mark.statistical
def test_tie_agreement_stays_near_half_at_large_n():
    """Catches FRED converging where the claim says it cannot (or the claim's tie being an artefact of the
    enumeration): with n = 2000 rows, 40 times FRED's default for b = 2, Fred(mask) returns Fred(exact)'s choice
    in a fraction of 300 runs whose Clopper-Pearson interval (total false-alarm probability DELTA, split over two
    cases) lies inside (1/4, 3/4), on the minimal tie and on the fitted tree whose best candidate ties across
    sizes ('place awful staff', tree of corpus seed 4; f is tabulated from the model)."""
    from proofs_checks.cases.selection import tree_tie_case

    tree = tree_tie_case()
    cases = [(linear_table([0.05, 0.05]), ("a", "b")), (tree.table, tree.tokens)]
    for k, (table, tokens) in enumerate(cases):
        agree, _ = _agreement(table, tokens, 2000, 300, statistical_seed(41 + k))
        low, high = clopper_pearson(agree, 300, DELTA / len(cases))
        assert 0.25 < low and high < 0.75, (tokens, agree, low, high)


@pytest.mark.statistical
def test_agreement_is_above_the_bound_and_matches_the_enumeration():
    """Catches a bound above FRED's true agreement, or an enumeration that is not FRED: on f = 0.5 kept_0 +
    0.1 kept_1 (margins 0.2) at n = 20, 300 runs of Fred(mask) agree with Fred(exact) in a fraction whose
    Clopper-Pearson interval contains the enumerated agreement (0.997) and reaches the bound (0.597); on the
    fitted logistic model of 'service slow good cold' (corpus seed 1, margin 0.014) at n = 10000, where the bound
    is non-vacuous, the interval reaches the bound. DELTA is split over the three intervals."""
    from proofs_checks.cases.selection import margin_cases

    table = linear_table([0.5, 0.1])
    agree, _ = _agreement(table, ("a", "b"), 20, 300, statistical_seed(43))
    low, high = clopper_pearson(agree, 300, DELTA / 3)
    exact = agreement_probability(table, 20, 0.5, 0.15, 10)
    bound = agreement_bound(table, 20, 0.5, 0.15, 10).value
    assert low <= exact <= high and high >= bound > 0.5, (agree, low, high, exact, bound)
    case = next(c for c in margin_cases() if c.text == "service slow good cold")
    agree, _ = _agreement(case.table, case.tokens, 10_000, 300, statistical_seed(44))
    low, high = clopper_pearson(agree, 300, DELTA / 3)
    bound = agreement_bound(case.table, 10_000, 0.5, 0.15, 10).value
    assert high >= bound > 0.5, (agree, high, bound)


def test_fitted_tie_is_exact(result):
    """The fitted tree's tie is exact, not rounding: tabulating the tree of corpus seed 4 on 'place awful staff'
    anew, f takes two values, 0.6 exactly when 'awful' is masked and 'place' is not; so removing 'awful' and
    removing 'awful staff' drop E[f] by the same amount (rational, tests/_helpers enumeration), and nothing
    reaches eps E[f]. Catches a report whose tied candidates are not tied."""
    from proofs_checks.cases.selection import fitted_tree

    tokens = ("place", "awful", "staff")
    table = table_from_classifier(fitted_tree(4), list(tokens))
    f = lambda z: Fraction(table[sum(bit << i for i, bit in enumerate(z))])  # noqa: E731
    mean, drops = drops_by_enumeration(f, 3, HALF)
    assert drops[(1,)] == drops[(1, 2)] == max(drops.values()) < Fraction(0.15) * mean
    tree = _values(result, "s2-fitted-models")["zero_margin_census"]["tree_tie"]
    assert tree["document"] == "place awful staff" and tree["tied_candidates"] == [[1], [1, 2]]


def test_case_black_box_answers_as_table_classifier():
    """Catches the claim's dict-lookup classifier (SelectionCase.black_box) answering a text with the wrong row:
    a code order reversed, a rendering of a document that already holds the mask token or repeats a word, or a
    text that is no rendering of the document (which must get analytic.table_classifier's own answer, or error).
    Compared with table_classifier itself on every mask pattern, one text at a time and in batches."""
    rng = np.random.default_rng(0)
    for tokens in (("a", "b", "c"), ("a", "UNK", "a")):
        table = rng.random(2 ** len(tokens))
        box, reference = SelectionCase("t", tokens, table).black_box(), table_classifier(tokens, table, n_classes=2)
        texts = [" ".join("UNK" if z else t for t, z in zip(tokens, pattern))
                 for pattern in itertools.product((0, 1), repeat=len(tokens))]
        for batch in [[t] for t in texts] + [texts, texts[::-1] + texts, []]:
            got, want = box(batch), reference(batch)
            assert got.shape == want.shape and np.array_equal(got, want), batch
        outside = [texts[-1], "x y UNK"]  # "x y UNK" renders no pattern of either document: code 4 all the same
        assert "x y UNK" not in texts and np.array_equal(box(outside), reference(outside))
        for raises in (box, reference):
            with pytest.raises(IndexError):
                raises(["a b c UNK"])  # code 8, beyond the table
        box(texts)[0, 0] = -1.0  # a caller writing to its answer changes no later answer
        assert np.array_equal(box(texts), reference(texts))
