"""Claim algorithm1-literal (proofs_checks/claims/algorithm1_literal.py, verdict fails, corrected statement argued):
every step pinned, the minimal counterexample and the examples of each kind of difference recomputed by hand and
with fred, and the classification recounted independently on the one-token tables of the family.

The literal transcription itself: tests/analytic/test_algorithm1.py.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest

from analytic import table_classifier
from fred import Fred
from proofs_checks.claims import algorithm1_literal as claim
from tests._helpers import drops_by_enumeration

EXPECTED = {
    "algorithm1-literal.st1-counterexample": ("statement", "counterexample", "fails"),
    "algorithm1-literal.st2-family": ("statement", "exhaustive", "fails"),
    "algorithm1-literal.p1-rule": ("proof", "exhaustive", "holds"),
    "algorithm1-literal.p2-why": ("proof", "argument", "argued"),
    "algorithm1-literal.c1-positive-mean": ("correction", "exhaustive", "holds"),
    "algorithm1-literal.c2-differences": ("correction", "exhaustive", "holds"),
    "algorithm1-literal.c3-minimal-kinds": ("correction", "counterexample", "holds"),
}


@pytest.fixture(scope="module")
def result():
    return claim.check()


def _fred(tokens, table, eps=0.15):
    clf = table_classifier(list(tokens), np.array(table, float))
    return Fred(clf, sampler="exact").explain(" ".join(tokens), p=0.5, eps=eps, max_len=10)


def test_every_step_status_role_and_evidence_is_pinned(result):
    """Catches a step whose computation changed outcome, a step added or dropped, or a role or evidence changed."""
    assert {s.id: (s.role, s.evidence, s.status) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.corrected_status, result.verdict) == (
        "statement", "fails", "argued", "fails")


def test_the_counterexample_by_hand_and_its_minimality(result):
    """b = 1, f = (f0, f1) at p = 1/2: E[f] = (f0 + f1)/2 and the drop is (f0 - f1)/2. Algorithm 1 returns nothing
    while {0} solves Eq. (2) iff the drop is negative but >= eps E[f] (then E[f] < 0). With eps = 3/20 that is
    f0 - f1 >= (3/20)(f0 + f1) with f0 < f1: among integer tables with |f| <= 4 only (-4, -3) (and none with
    |f| <= 3). Catches a report whose counterexample is not the smallest or not a counterexample."""
    eps = F(3, 20)
    hits = [(f0, f1) for f0, f1 in itertools.product(range(-4, 5), repeat=2)
            if f0 - f1 < 0 and F(f0 - f1, 2) >= eps * F(f0 + f1, 2)]
    assert hits == [(-4, -3)]
    cx = result.counterexample
    assert (cx["table"], cx["literal"], cx["literal_returned_at"], cx["mean"], cx["threshold"]) == (
        ["-4", "-3"], None, 1, "-7/2", "-21/40")
    exp = _fred(["t0"], [-4.0, -3.0])
    assert exp.found and exp.best_ids == (0,) and exp.drop == pytest.approx(-0.5, abs=1e-15)


def test_each_kind_of_difference_by_hand(result):
    """The smallest table of each kind, recomputed: drops by drops_by_enumeration (p = 1/2, eps = 3/20), fred's
    choice by Fred(sampler='exact'), Algorithm 1's by reading the pseudo-code (Delta_best from 0, last tie wins).
    Catches a kind attached to a table that does not show it."""
    examples = result.steps[-1].values["examples"]
    expected = {  # kind: (table, Algorithm 1's choice, fred's choice, fred's found)
        "threshold_nonpositive": ([-1, 0], None, (0,), False),  # E[f] = -1/2; drop -1/2 < 0; 0 >= -3/40 returns
        "none_selected": ([0, 1], None, (0,), False),  # E[f] = 1/2; drop -1/2 < 0 never selected
        "tie": ([0, 1, 1, -1], (1,), (0,), True),  # both words drop 1/4 - 0 = 1/4 >= 3/80
        "infeasible_tie_within_size": ([1, 0, 0, 1], (1,), (0,), False),  # words drop 0, pair -1/2; 0 < 3/40
        "infeasible_tie_across_sizes": ([1, 1, 1, 1], (0, 1), (0,), False),  # every drop 0 < 3/20
    }
    for kind, (table, literal, best, found) in expected.items():
        assert examples[kind]["table"] == [str(v) for v in table], kind
        b = len(table).bit_length() - 1
        mean, drops = drops_by_enumeration(lambda z: F(table[sum(1 << i for i, zi in enumerate(z) if zi)]), b,
                                           F(1, 2))
        if literal is not None:
            assert drops[literal] == drops[best] and drops[literal] >= 0
        assert examples[kind]["literal"] == (None if literal is None else list(literal)), kind
        exp = _fred([f"t{i}" for i in range(b)], table)
        assert (exp.best_ids, exp.found) == (best, found), kind


def test_one_token_tables_recounted_by_hand(result):
    """On the b = 1 tables of the family (every (f0, f1) over {-1, 0, 1/2, 1}, eps in {3/20, 1/2, 1}): Algorithm 1
    selects {0} iff the drop d = (f0 - f1)/2 >= 0 (else nothing), fred always returns {0}, found iff d >= eps E[f];
    a difference is 'threshold_nonpositive' when E[f] <= 0, else 'none_selected'. Catches a misclassified
    difference or a miscounted family."""
    values = [F(-1), F(0), F(1, 2), F(1)]
    counts: dict = {}
    for (f0, f1), eps in itertools.product(itertools.product(values, repeat=2), [F(3, 20), F(1, 2), F(1)]):
        mean, d = (f0 + f1) / 2, (f0 - f1) / 2
        found = d >= eps * mean
        if d >= 0:
            kind = "same" if found else "silent"
        else:
            kind = "threshold_nonpositive" if mean <= 0 else "none_selected"
        counts[kind] = counts.get(kind, 0) + 1
    rows = [claim.compare(tokens, table, eps) for _, tokens, table in claim.family_tables() if len(tokens) == 1
            for eps in claim.EPSS]
    assert claim._counts(rows, "kind") == dict(sorted(counts.items()))


def test_a_tie_between_occurrences_of_one_word_changes_positions_not_words():
    """'a b a' with f = (kept occurrences of a)/2: by hand E[f] = 1/2, each a drops 1/2 - 1/4 = 1/4, b drops 0,
    threshold 3/40. Algorithm 1 returns the last a (position 2), fred the first (position 0): same word. Catches a
    comparison of positions reported as a change of words."""
    tokens = ("a", "b", "a")
    table = [F(sum(1 for i in (0, 2) if not code >> i & 1), 2) for code in range(8)]
    row = claim.compare(tokens, table, F(3, 20))
    assert (row["literal"], row["fred"], row["kind"], row["words_differ"]) == ([2], [0], "tie", False)
    exp = _fred(tokens, [float(v) for v in table])
    assert exp.best == ("a",) and exp.importances.tolist() == [0.25, 0.0, 0.25]
