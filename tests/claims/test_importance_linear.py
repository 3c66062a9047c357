"""Claim importance-linear (proofs_checks/claims/importance_linear.py), this project's corollary of the proof of
Prop. 1 (the paper gives no closed form for s_i): s_i = p lambda_j v_j fails off p = 1/2; corrected
s_i = (1 - p) lambda_j v_j (argued). FRED's exact scores on fitted Ridge pipelines against the model's own weights,
and exact rational enumeration.

The weights a_i = lambda^T phi(token_i) are read from the fitted vectorizer and regressor
(analytic.LinearTfidfModel), never from FRED.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from numpy.testing import assert_allclose

from analytic import LinearTfidfModel
from fred import Fred
from proofs_checks.strategies import fitted_tfidf_models, probabilities
from tests._helpers import SLOW


@SLOW
@given(fitted_tfidf_models(kind="ridge"), probabilities())
def test_exact_scores_are_one_minus_p_times_the_position_weights(case, p):
    """Catches scores that follow the paper's p lambda_j v_j (the proof's formula) or depend on the intercept,
    the other words or a word's multiplicity: the corrected claim for every p. Tolerance 1e-12 relative and
    absolute (the exact drops sum at most 2^7 products of O(1) values)."""
    model = LinearTfidfModel.from_pipeline(case.vectorizer, case.model)
    a = model.position_weights(case.tokens)
    exp = Fred(case.classifier_fn(), sampler="exact").explain(" ".join(case.tokens), p=p)
    assert_allclose(exp.importances, (1 - p) * a, rtol=1e-12, atol=1e-12)


def test_the_papers_score_is_right_only_at_one_half():
    """The statement as written, s_i = p lambda_j v_j: on "w w x" with a_w = 2, a_x = -1 it holds at p = 1/2
    and fails at p = 1/4 (scores 1.5 and -0.75, not 0.5 and -0.25). Catches fred's exact importances following
    the proof's p a_i instead of the exact drop (1 - p) a_i."""
    weights = {"w": 2.0, "x": -1.0}
    clf = lambda texts: np.array([sum(weights.get(t, 0.0) for t in text.split()) for text in texts])  # noqa: E731
    half = Fred(clf, sampler="exact").explain("w w x", p=0.5).importances
    assert_allclose(half, [1.0, 1.0, -0.5], rtol=1e-12)  # p a = (1 - p) a at p = 1/2
    quarter = Fred(clf, sampler="exact").explain("w w x", p=0.25).importances
    assert_allclose(quarter, [1.5, 1.5, -0.75], rtol=1e-12)
    assert not np.allclose(quarter, [0.5, 0.5, -0.25])


@pytest.fixture(scope="module")
def result():
    from proofs_checks.claims import importance_linear

    return importance_linear.check()


def test_importance_linear_step_statuses_and_verdict(result):
    """Pins every step: this project's corollary of the proof's formula fails; the corrected s_i = (1 - p) a_i
    is argued (symbolic for b <= 3, a written independence argument for any b)."""
    assert {s.id: (s.role, s.evidence, s.status) for s in result.steps} == {
        "importance-linear.s0-paper-formula": ("paper-proof", "symbolic", "fails"),
        "importance-linear.s1-singleton-drop": ("proof", "symbolic", "holds"),
        "importance-linear.s2-any-length": ("proof", "argument", "argued"),
        "importance-linear.st1-counterexample": ("statement", "counterexample", "fails"),
        "importance-linear.st2-family-as-written": ("statement", "exhaustive", "fails"),
        "importance-linear.c1-family": ("correction", "exhaustive", "holds"),
        "importance-linear.c2-grid": ("correction", "exhaustive", "holds"),
    }
    assert (result.kind, result.status, result.corrected_status, result.verdict) == (
        "corollary", "fails", "argued", "fails")
    assert (result.counterexample["position_weight"], result.counterexample["p"],
            result.counterexample["exact_score"]) == ("1", "1/4", "3/4")


def test_scores_are_one_minus_p_times_the_weights_in_rationals():
    """The corrected s_i = (1 - p) a_i, exactly: for every small linear model (b <= 3, weights and intercepts on a
    grid, p in {1/4, 1/2, 9/10}) the singleton drop E[f] - E[f | i removed], summed here over the 2^b patterns
    in Fractions, is (1 - p) a_i and, off p = 1/2, not the corollary's p a_i (unless a_i = 0). Catches the
    proof's p in place of 1 - p and a score depending on lambda_0 or the other words."""
    weights, intercepts = (F(1), F(-1, 2), F(2), F(0)), (F(0), F(-3, 4))
    for b in (1, 2, 3):
        for a in itertools.product(weights, repeat=b):
            for l0, p in itertools.product(intercepts, (F(1, 4), F(1, 2), F(9, 10))):
                patterns = list(itertools.product((0, 1), repeat=b))  # 1 = removed
                weight = {z: p ** sum(z) * (1 - p) ** (b - sum(z)) for z in patterns}
                f = {z: l0 + sum(a[k] for k in range(b) if not z[k]) for z in patterns}
                mean = sum(weight[z] * f[z] for z in patterns)
                for i in range(b):
                    rows = [z for z in patterns if z[i]]
                    score = mean - sum(weight[z] * f[z] for z in rows) / sum(weight[z] for z in rows)
                    assert score == (1 - p) * a[i], (a, l0, p, i)
                    assert (score == p * a[i]) == (p == F(1, 2) or a[i] == 0), (a, l0, p, i)
