"""Claim prop1-step-link (proofs_checks/claims/prop1_step_link.py, verdict "does not extend", corrected statement
argued): every step pinned, the tie recomputed by hand and by an enumeration written here
(tests/_helpers.drops_by_enumeration), and the corrected ordering checked on links and weights the claim does not
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
from proofs_checks.claims import prop1_step_link as claim
from tests._helpers import drops_by_enumeration

EXPECTED = {
    "prop1-step-link.st1-tie": ("statement", "counterexample", "fails"),
    "prop1-step-link.st2-grid": ("statement", "exhaustive", "fails"),
    "prop1-step-link.s1-swap-identity": ("proof", "symbolic", "holds"),
    "prop1-step-link.s2-order": ("proof", "argument", "argued"),
    "prop1-step-link.c1-grid-order": ("correction", "exhaustive", "holds"),
    "prop1-step-link.c2-grid-fred": ("correction", "exhaustive", "holds"),
    "prop1-step-link.c3-search": ("correction", "counterexample", "holds"),
}


@pytest.fixture(scope="module")
def result():
    return claim.check()


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
    """Catches a step whose computation changed outcome, a step added or dropped, or a role or evidence changed."""
    assert {s.id: (s.role, s.evidence, s.status) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.corrected_status, result.verdict) == (
        "extension", "fails", "argued", "does not extend")


def test_the_perceptron_tie_by_hand(result):
    """f = 1{K1 + 2 K2 > 0} at p = 1/2: f = 1 unless both words are removed, so E[f] = 3/4 and removing either word
    leaves E[f | removed] = (1 + 0)/2, a drop of 1/4 for both; threshold (3/20)(3/4) = 9/80. Both singletons solve
    Eq. (2) and FRED's tie rule takes w1, the lower weight. Catches a claim reporting a non-tie (a real reversal) or
    an ordering by weight that fred does not follow."""
    def step(z):
        return F(int(z > 0))

    mean, drops = _drops([F(1), F(2)], F(0), step, F(1, 2))
    assert (mean, drops[(0,)], drops[(1,)]) == (F(3, 4), F(1, 4), F(1, 4))
    exp = _fred_choice([1, 2], 0, step)
    assert exp.best == ("w1",) and exp.importances.tolist() == [0.25, 0.25]
    cx = result.counterexample
    assert (cx["position_weights"], cx["intercept"], cx["fred_best"], cx["top_weight_set"]) == (
        ["1", "2"], "0", ["w1"], ["w2"])
    issue = result.steps[0].values["issue_example"]
    assert issue["f_by_pattern_code"] == ["1", "1", "1", "0"] and issue["fred_best"] == ["w1"]


def test_a_strictly_increasing_link_breaks_the_tie():
    """The same weights through z^3 + z (strictly increasing): by hand the kept scores are 3, 2 (w1 removed), 1
    (w2 removed), 0, so f = 30, 10, 2, 0, E[f] = 21/2 and the drops are 21/2 - 1 = 19/2 (w2) > 21/2 - 5 = 11/2
    (w1): FRED picks w2. Catches a corrected statement that is weak even for strictly increasing links."""
    def cubic(z):
        return z**3 + z

    mean, drops = _drops([F(1), F(2)], F(0), cubic, F(1, 2))
    assert (mean, drops[(0,)], drops[(1,)]) == (F(21, 2), F(11, 2), F(19, 2))
    assert _fred_choice([1, 2], 0, cubic).best == ("w2",)


THRESHOLDS = st.fractions(-2, 2, max_denominator=3)


@given(st.lists(st.integers(-3, 3), min_size=2, max_size=3), st.integers(-2, 2), THRESHOLDS,
       st.sampled_from([F(1, 2), F(1, 4), F(2, 3)]))
def test_corrected_ordering_on_staircase_links(weights, intercept, cut, p):
    """f = 1{Z >= cut} + 1{Z >= cut + 1} (a two-step staircase, non-decreasing, not one of the claim's links):
    a_i >= a_j implies Delta_{S+i} >= Delta_{S+j} for every S avoiding both (drops by plain enumeration). Catches
    a corrected statement that holds only for the links the claim happens to check."""
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
    never fails (the corrected statement's exhaustive step would then prove nothing)."""
    monkeypatch.setitem(claim.LINKS, "decreasing (test only)", lambda z: -z)
    assert claim.order_violations((F(1), F(2)), F(0), F(1, 2), "decreasing (test only)")
