"""Claim importance-linear (proofs_checks/claims/importance_linear.py, verdict fails as written; corrected
s_i = (1 - p) lambda_j v_j): FRED's exact scores on fitted Ridge pipelines against the model's own weights.

The weights a_i = lambda^T phi(token_i) are read from the fitted vectorizer and regressor
(analytic.LinearTfidfModel), never from FRED.
"""

from __future__ import annotations

import numpy as np
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
    the other words or a word's multiplicity: the corrected claim for every p."""
    a = LinearTfidfModel.from_pipeline(case.vectorizer, case.model).position_weights(case.tokens)
    exp = Fred(case.classifier_fn(), sampler="exact").explain(" ".join(case.tokens), p=p)
    assert_allclose(exp.importances, (1 - p) * a, rtol=1e-9, atol=1e-12)


def test_the_papers_score_is_right_only_at_one_half():
    """The statement as written, s_i = p lambda_j v_j: on "w w x" with a_w = 2, a_x = -1 it holds at p = 1/2
    and fails at p = 1/4 (scores 1.5 and -0.75, not 0.5 and -0.25)."""
    weights = {"w": 2.0, "x": -1.0}
    clf = lambda texts: np.array([sum(weights.get(t, 0.0) for t in text.split()) for text in texts])  # noqa: E731
    half = Fred(clf, sampler="exact").explain("w w x", p=0.5).importances
    assert_allclose(half, [1.0, 1.0, -0.5], rtol=1e-12)  # p a = (1 - p) a at p = 1/2
    quarter = Fred(clf, sampler="exact").explain("w w x", p=0.25).importances
    assert_allclose(quarter, [1.5, 1.5, -0.75], rtol=1e-12)
    assert not np.allclose(quarter, [0.5, 0.5, -0.25])
