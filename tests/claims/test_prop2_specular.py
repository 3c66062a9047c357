"""Claim prop2-specular (proofs_checks/claims/prop2_specular.py, verdict fails, corrected statement argued): every
step pinned, the minimal case recomputed with a word-presence model written here and an enumeration written here
(tests/_helpers.drops_by_enumeration), and the condition on the mask token shown to be needed."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from fred import Fred
from proofs_checks.claims import prop2_specular as claim
from tests._helpers import drops_by_enumeration

EXPECTED = {
    "prop2-specular.st1-minimal": ("statement", "counterexample", "fails"),
    "prop2-specular.st2-family": ("statement", "exhaustive", "fails"),
    "prop2-specular.p1-constant": ("proof", "exhaustive", "holds"),
    "prop2-specular.p2-why": ("proof", "argument", "argued"),
    "prop2-specular.c1-positive-class": ("correction", "exhaustive", "holds"),
    "prop2-specular.c2-predicted-class": ("correction", "exhaustive", "holds"),
}


@pytest.fixture(scope="module")
def result():
    return claim.check()


def presence(words):
    """[1 - f, f] with f = 1 iff every word of ``words`` is a token of the text (written here, not ShortcutModel)."""
    def proba(texts):
        f = np.array([float(all(w in t.split() for w in words)) for t in texts])
        return np.column_stack([1 - f, f])
    return proba


def test_every_step_status_role_and_evidence_is_pinned(result):
    """Catches a step whose computation changed outcome, a step added or dropped, or a role or evidence changed."""
    assert {s.id: (s.role, s.evidence, s.status) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.corrected_status, result.verdict) == (
        "proof-step", "fails", "argued", "fails")


def test_the_minimal_case_by_hand(result):
    """'w1' with J = {w1, w2}: w2 is absent, so f = 0 on 'w1' and on 'UNK'; E[f] = 0 and the drop of {w1} is 0.
    Class 1: threshold 0 <= 0, {w1} is the solution and FRED says found with drop 0. Class 0 (predicted, 1 - f = 1):
    threshold 3/20 > 0 = drop, FRED says not found. Catches a report whose minimal case is not degenerate in both
    readings, or a FRED that treats a zero threshold differently."""
    cx = result.counterexample
    assert (cx["document"], cx["J"], cx["f_by_pattern_code"]) == ("w1", ["w1", "w2"], ["0", "0"])
    for label in (1, 0):
        mean, drops = drops_by_enumeration(lambda z: F(label == 0), 1, F(1, 2))
        assert drops == {(0,): 0} and mean == F(label == 0)
    positive = Fred(presence(["w1", "w2"]), sampler="exact").explain("w1", label=1, p=0.5, eps=0.15, max_len=1)
    assert (positive.found, positive.best, positive.drop, positive.threshold) == (True, ("w1",), 0.0, 0.0)
    predicted = Fred(presence(["w1", "w2"]), sampler="exact").explain("w1", p=0.5, eps=0.15, max_len=1)
    assert (predicted.label, predicted.found, predicted.threshold) == (0, False, pytest.approx(0.15, abs=1e-15))


def test_fred_returns_the_first_token_whatever_it_is():
    """'x w1 x' with J = {w2}: f = 0 everywhere, and explaining f FRED returns position 0, 'x', a word unrelated to
    J, with found = True. Catches a corrected statement that claims the answer is a word of J."""
    exp = Fred(presence(["w2"]), sampler="exact").explain("x w1 x", label=1, p=0.5, eps=0.15, max_len=3)
    assert (exp.found, exp.best_ids, exp.best) == (True, (0,), ("x",))


def test_a_mask_token_in_J_makes_the_case_non_degenerate():
    """J = {UNK}, document 'a': f('a') = 0 but f('UNK') = 1, so the predicted class 1 - f has E = 1/2 and the drop
    of {a} is 1/2 - 0 = 1/2 >= (3/20)(1/2): a real explanation. Catches a corrected statement without its
    condition (mask token not in J)."""
    exp = Fred(presence(["UNK"]), sampler="exact").explain("a", p=0.5, eps=0.15, max_len=1)
    assert (exp.label, exp.found, exp.best) == (0, True, ("a",))
    assert exp.drop == pytest.approx(0.5, abs=1e-15)
