"""Claim prop1-step-link (proofs_checks/claims/propositions/prop1_step_link.py, ours; verdict "extends (argued)" on the
headline reading 'up-to-ties', the stronger reading 'fixed-tie-rule' does not extend; no corrected statement): every
step pinned, the tie recomputed by hand and by an enumeration written here (tests/_helpers.drops_by_enumeration),
Algorithm 1 as printed re-run here, and the ordering of the proof checked on links and weights the claim does not
use."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytic import table_classifier
from fred import Fred
from proofs_checks.claims.propositions import prop1_step_link as claim
from proofs_checks.claims.propositions import step_links
from tests._helpers import drops_by_enumeration

EXPECTED = {
    "prop1-step-link.st1-tie-implementation": ("statement", "counterexample", "fails", "fixed-tie-rule"),
    "prop1-step-link.st2-tie-printed": ("statement", "counterexample", "fails", "fixed-tie-rule"),
    "prop1-step-link.st3-grid-tie-rules": ("statement", "exhaustive", "fails", "fixed-tie-rule"),
    "prop1-step-link.st4-grid-up-to-ties": ("statement", "exhaustive", "holds", "up-to-ties"),
    "prop1-step-link.s1-swap-identity": ("proof", "symbolic", "holds", None),
    "prop1-step-link.s2-order": ("proof", "argument", "argued", None),
    "prop1-step-link.p3-grid-order": ("proof", "exhaustive", "holds", None),
    "prop1-step-link.p4-search": ("proof", "counterexample", "holds", None),
}


def _step(z):
    return F(int(z > 0))


def _printed_algorithm1(drops, threshold, b):
    """Algorithm 1 exactly as the paper prints it (Delta_best = 0; '>=' replaces best; candidates of each size in
    itertools.combinations order), on exact drops: written here, independent of analytic.algorithm1."""
    best_drop, best = 0, None
    for size in range(1, b + 1):
        for c in itertools.combinations(range(b), size):
            if drops[c] >= best_drop:
                best_drop, best = drops[c], c
        if best_drop >= threshold:
            return best
    return best


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(claim.CLAIM)  # the session's one run of the claim (tests/conftest.py)


def _drops(weights, intercept, link, p):
    """Every drop of f = link(sum_i a_i K_i + lambda_0), K_i = 1 - z_i, by plain enumeration."""
    return drops_by_enumeration(lambda z: link(intercept + sum(a for a, zi in zip(weights, z) if not zi)),
                                len(weights), p)


def _fred_choice(weights, intercept, link, eps=0.15):
    tokens = [f"w{i + 1}" for i in range(len(weights))]
    table = [float(link(intercept + sum(a for i, a in enumerate(weights) if not code >> i & 1)))
             for code in range(2 ** len(weights))]
    clf = table_classifier(tokens, np.array(table), n_classes=2)
    return Fred(clf, sampler="exact").explain(" ".join(tokens), label=1, p=0.5, eps=eps, max_len=len(weights))


def test_every_step_status_role_and_evidence_is_pinned(result):
    """Catches a step whose computation changed outcome, a step added or dropped, a role, evidence or reading
    changed, or a headline that follows the failing stronger reading (the project's own tie rule) instead of the
    reading the paper's words support."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == EXPECTED
    assert (result.kind, result.ours, result.status, result.corrected, result.verdict) == (
        "extension", True, "argued", None, "extends (argued)")
    assert [(r.id, r.role, result.reading_status(r.id)) for r in result.readings] == [
        ("up-to-ties", "headline", "argued"), ("fixed-tie-rule", "stronger", "fails")]
    assert result.counterexample is None  # the headline reading has none


def test_the_perceptron_tie_by_hand(result):
    """f = 1{K1 + 2 K2 > 0} at p = 1/2: f = 1 unless both words are removed, so E[f] = 3/4 and removing either word
    leaves E[f | removed] = (1 + 0)/2, a drop of 1/4 for both; threshold (3/20)(3/4) = 9/80. Both singletons solve
    Eq. (2) and FRED's tie rule takes w1, the lower weight. Catches a claim reporting a non-tie (a real reversal),
    an ordering by weight that fred does not follow, or a counterexample outside the hypotheses."""
    mean, drops = _drops([F(1), F(2)], F(0), _step, F(1, 2))
    assert (mean, drops[(0,)], drops[(1,)]) == (F(3, 4), F(1, 4), F(1, 4))
    exp = _fred_choice([1, 2], 0, _step)
    assert exp.best == ("w1",) and exp.importances.tolist() == [0.25, 0.25]
    step = next(s for s in result.steps if s.id.endswith("st1-tie-implementation"))
    cx = step.values["counterexample"]
    assert (cx["position_weights"], cx["intercept"], cx["fred_best"], cx["top_weight_set"]) == (
        ["1", "2"], "0", ["w1"], ["w2"])
    assert step.values["satisfies_hypotheses"] is True and cx["satisfies_hypotheses"] is True


def test_algorithm1_as_printed_breaks_ties_the_other_way(result):
    """The paper's Algorithm 1 replaces best on '>=': among tied candidates the last one enumerated wins. Re-run
    here on exact drops: on weights (1, 2) it returns w2 (the top word, so the implementation's counterexample is
    not one for the printed algorithm), on weights (1, 1/2) it returns w2, the lower weight, while the
    implementation returns w1. Catches a report that attributes the implementation's tie rule to the paper's
    algorithm (the fresh-context reviewer's finding), and a printed-rule counterexample that is not minimal on
    the grid (weights (1, 1/2) is its first two-token point)."""
    for weights, printed, implementation in (([F(1), F(2)], (1,), ("w1",)), ([F(1), F(1, 2)], (1,), ("w1",))):
        mean, drops = _drops(weights, F(0), _step, F(1, 2))
        assert _printed_algorithm1(drops, F(3, 20) * mean, 2) == printed
        assert _fred_choice([float(w) for w in weights], 0, _step).best == implementation
    step = next(s for s in result.steps if s.id.endswith("st2-tie-printed"))
    cx = step.values["counterexample"]
    assert (cx["position_weights"], cx["algorithm1_literal_best"], cx["returned"], cx["top_weight_set"]) == (
        ["1", "1/2"], ["w2"], {"implementation": ["w1"], "printed": ["w2"]}, ["w1"])
    assert step.values["satisfies_hypotheses"] is True and step.values["smaller_points_checked"] == 288


def test_eps_must_be_positive_for_i(result):
    """At eps = 0 with a = (-1), lambda_0 = 5: the score is 5 or 4, f = 1 everywhere, the one word's drop is 0 and
    meets the threshold 0, so a word of negative weight solves Eq. (2). The hypotheses predicate must reject the
    case (eps_positive), and also a tie of weights and xi classified negative. Catches a statement of (i) without
    its eps > 0 hypothesis (the fresh-context reviewer's finding) and a predicate that accepts anything."""
    mean, drops = _drops([F(-1)], F(5), _step, F(1, 2))
    assert (mean, drops[(0,)]) == (F(1), F(0)) and drops[(0,)] >= 0 * mean
    table = [F(1), F(1)]
    record = claim.statement_hypotheses((F(-1),), F(5), F(1, 2), F(0), table)
    assert record["satisfies_hypotheses"] is False and record["hypotheses"]["eps_positive"] is False
    assert claim.statement_hypotheses((F(1), F(1)), F(0), F(1, 2), F(3, 20), [1, 1, 1, 0])["hypotheses"][
        "strictly_ordered_weights"] is False
    assert claim.statement_hypotheses((F(-1),), F(0), F(1, 2), F(3, 20), [0, 0])["hypotheses"][
        "classified_positive"] is False
    case = next(s for s in result.steps if s.id.endswith("st4-grid-up-to-ties")).values["outside_hypotheses_eps_0"]
    assert case["negative_word_in_a_solution"] is True and case["satisfies_hypotheses"] is False


def test_eq2_is_not_unique_for_the_linear_score(result):
    """The linear score f = 2 K1 + K2 (Eq. (6), lambda_0 = 0) at p = 1/2: E[f] = 3/2, removing w1 leaves 1/2 and
    removing w2 leaves 1, drops 1 and 1/2, both >= (3/20)(3/2) = 9/40, so Eq. (2) has the two solutions {w1} and {w2};
    only the largest drop of size 1, {w1}, is unique (line 1020). The same with lambda_0 = 1 (threshold 3/8). Catches
    the headline justified by 'Eq. (2)'s solution is unique for the linear score' (the second reviewer's finding),
    and a claim whose recorded linear case disagrees with this enumeration."""
    for intercept, threshold in ((F(0), F(9, 40)), (F(1), F(3, 8))):
        mean, drops = _drops([F(2), F(1)], intercept, lambda z: z, F(1, 2))
        assert (F(3, 20) * mean, drops[(0,)], drops[(1,)]) == (threshold, F(1), F(1, 2))
        assert [s for s in ((0,), (1,)) if drops[s] >= threshold] == [(0,), (1,)]
    case = next(s for s in result.steps if s.id.endswith("st4-grid-up-to-ties")).values[
        "linear_score_eq2_not_unique"]
    assert (case["solutions"], case["largest_drop_sets"], case["threshold"]) == ([["w1"], ["w2"]], [["w1"]], "9/40")
    headline = result.readings[0]
    assert "not unique even for the linear score" in headline.meaning and 1020 in [q.line for q in headline.why]
    assert "up to ties" in result.statement


def test_l_max_below_l_star_returns_no_solution(result):
    """f = 1{K1 + K2/2 > 0} at p = 1/2, eps = 1: E[f] = 3/4 and each word alone drops 1/4 < 3/4, both words drop
    3/4, so l* = 2; FRED with l_max = 1 returns one word, no solution of Eq. (2), and reports the threshold not met.
    The hypotheses predicate must flag l_max < l* (and accept l_max = 2, and l_max = 1 at eps = 3/20, where l* = 1).
    Catches conclusion (ii) 'the set FRED returns is a solution' stated without l_max >= l* (the second reviewer's
    finding), and a predicate that refuses every l_max < b."""
    mean, drops = _drops([F(1), F(1, 2)], F(0), _step, F(1, 2))
    assert (mean, drops[(0,)], drops[(1,)], drops[(0, 1)]) == (F(3, 4), F(1, 4), F(1, 4), F(3, 4))
    exp = _fred_choice([1, 0.5], 0, _step, eps=1.0)
    tokens = ["w1", "w2"]
    table = [float(_step(F(1) * (not code & 1) + F(1, 2) * (not code >> 1 & 1))) for code in range(4)]
    one = Fred(table_classifier(tokens, np.array(table), n_classes=2), sampler="exact").explain(
        "w1 w2", label=1, p=0.5, eps=1.0, max_len=1)
    assert not one.found and len(one.best_ids) == 1 and drops[tuple(one.best_ids)] < mean
    assert exp.found and tuple(exp.best_ids) == (0, 1)
    record = claim.statement_hypotheses((F(1), F(1, 2)), F(0), F(1, 2), F(1), [F(v) for v in table], max_len=1)
    assert record["hypotheses"]["l_max_reaches_l_star"] is False and record["satisfies_hypotheses"] is False
    assert claim.statement_hypotheses((F(1), F(1, 2)), F(0), F(1, 2), F(1), [F(v) for v in table],
                                      max_len=2)["satisfies_hypotheses"] is True
    # l_max = 1 < b is fine where l* = 1 (eps = 3/20: one word drops 1/4 >= 9/80)
    assert claim.statement_hypotheses((F(1), F(1, 2)), F(0), F(1, 2), F(3, 20), [F(v) for v in table],
                                      max_len=1)["satisfies_hypotheses"] is True
    case = next(s for s in result.steps if s.id.endswith("st4-grid-up-to-ties")).values[
        "outside_hypotheses_l_max_below_l_star"]
    assert (case["l_star"], case["l_max"], case["fred_found"], case["fred_set_is_a_solution"]) == (2, 1, False, False)
    assert "l_max >= l*" in result.statement and "l_max >= l*" in result.readings[0].meaning


def test_a_strictly_increasing_link_breaks_the_tie():
    """The same weights through z^3 + z (strictly increasing): by hand the kept scores are 3, 2 (w1 removed), 1
    (w2 removed), 0, so f = 30, 10, 2, 0, E[f] = 21/2 and the drops are 21/2 - 1 = 19/2 (w2) > 21/2 - 5 = 11/2
    (w1): FRED picks w2. Catches an ordering (proof step s2) that is weak even for strictly increasing links."""
    def cubic(z):
        return z**3 + z

    mean, drops = _drops([F(1), F(2)], F(0), cubic, F(1, 2))
    assert (mean, drops[(0,)], drops[(1,)]) == (F(21, 2), F(11, 2), F(19, 2))
    assert _fred_choice([1, 2], 0, cubic).best == ("w2",)


THRESHOLDS = st.fractions(-2, 2, max_denominator=3)


@given(st.lists(st.integers(-3, 3), min_size=2, max_size=3), st.integers(-2, 2), THRESHOLDS,
       st.sampled_from([F(1, 2), F(1, 4), F(2, 3)]))
def test_proof_ordering_on_staircase_links(weights, intercept, cut, p):
    """f = 1{Z >= cut} + 1{Z >= cut + 1} (a two-step staircase, non-decreasing, not one of the claim's links):
    a_i >= a_j implies Delta_{S+i} >= Delta_{S+j} for every S avoiding both (drops by plain enumeration). Catches
    an ordering (proof steps s2-p4) that holds only for the links the claim happens to check."""
    def staircase(z):
        return F(int(z >= cut) + int(z >= cut + 1))

    _, drops = _drops([F(a) for a in weights], F(intercept), staircase, p)
    drops[()] = F(0)
    b = len(weights)
    for i, j in itertools.permutations(range(b), 2):
        if weights[i] < weights[j]:
            continue
        rest = [k for k in range(b) if k not in (i, j)]
        for size in range(len(rest) + 1):
            for s in itertools.combinations(rest, size):
                assert drops[tuple(sorted(s + (i,)))] >= drops[tuple(sorted(s + (j,)))]


def test_order_violations_detects_a_decreasing_link(monkeypatch):
    """A decreasing link (f = -Z) reverses the order; order_violations must report it. Catches a checker that
    never fails (the exhaustive proof step p3 would then prove nothing)."""
    monkeypatch.setitem(step_links.LINKS, "decreasing (test only)", lambda z: -z)
    assert step_links.order_violations((F(1), F(2)), F(0), F(1, 2), "decreasing (test only)")


@given(st.lists(st.integers(-3, 3), min_size=1, max_size=3, unique=True), st.integers(-2, 2),
       st.sampled_from([F(3, 20), F(1, 20), F(1, 2), F(1)]))
def test_headline_up_to_ties_on_perceptrons_off_the_grid(weights, intercept, eps):
    """The headline reading on integer perceptrons the grid does not hold (distinct weights, xi positive, eps > 0,
    p = 1/2), drops by plain enumeration: the top-l* set solves Eq. (2), FRED's own choice is a solution with the
    same drop, and no solution contains a word of negative weight. Catches an up-to-ties verdict that holds only on
    the claim's grid, or a FRED whose choice is not even tied with the top set."""
    a = [F(w) for w in weights]
    if _step(sum(a) + intercept) != 1:
        return  # outside the hypotheses: xi classified negative
    mean, drops = _drops(a, F(intercept), _step, F(1, 2))
    threshold, b = eps * mean, len(a)
    size = next((k for k in range(1, b + 1) if any(d >= threshold for s, d in drops.items() if len(s) == k)), None)
    exp = _fred_choice([float(w) for w in a], intercept, _step, eps=float(eps))
    if size is None:
        assert not exp.found
        return
    solutions = [s for s, d in drops.items() if len(s) == size and d >= threshold]
    top = tuple(sorted(sorted(range(b), key=lambda i: -a[i])[:size]))
    assert top in solutions and exp.found and tuple(exp.best_ids) in solutions
    assert drops[tuple(exp.best_ids)] == drops[top]
    assert all(a[i] >= 0 for s in solutions for i in s)
