"""baseline-lime-surrogate (line 181): LIME's weights are the coefficients of its weighted ridge surrogate.

The closed-form ridge is checked against an augmented least-squares formulation, the distances against sklearn's
cosine distance, and the statement step is fed planted lime weights that are off by a small amount."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from sklearn.metrics.pairwise import pairwise_distances

from proofs_checks.claims.baselines import baseline_lime_surrogate as claim
from proofs_checks.claims.baselines.baseline_lime_surrogate import weighted_ridge

EVAL_EXTRA = "the baseline packages are the eval extra (pip install 'fred-theory[eval]'), not installed here"


def test_weighted_ridge_against_augmented_least_squares():
    """Catches a ridge that penalises the intercept or centres without the weights: the same minimiser found as
    ordinary least squares on rows sqrt(w_i) [1, x_i] with sqrt(alpha) [0, e_j] appended (no centring at all)."""
    rng = np.random.default_rng(1)
    x, y, w = rng.integers(0, 2, size=(60, 5)).astype(float), rng.normal(size=60), rng.uniform(0.1, 1.0, 60)
    alpha = 1.0
    design = np.vstack([np.sqrt(w)[:, None] * np.column_stack([np.ones(60), x]),
                        np.column_stack([np.zeros(5), np.sqrt(alpha) * np.eye(5)])])
    target = np.concatenate([np.sqrt(w) * y, np.zeros(5)])
    solution = np.linalg.lstsq(design, target, rcond=None)[0]
    beta, intercept = weighted_ridge(x, y, w, alpha)
    assert np.allclose(beta, solution[1:]) and np.isclose(intercept, solution[0])


def test_the_distance_formula_is_sklearn_cosine_times_100():
    """Catches a wrong closed form of lime's distance in the refit: 100 (1 - sqrt(|z| / b)) is sklearn's cosine
    distance of a 0/1 row to the all-ones row, times 100 (what lime computes)."""
    rng = np.random.default_rng(2)
    rows = np.vstack([np.ones(9), rng.integers(0, 2, size=(40, 9))])
    rows[rows.sum(axis=1) == 0, 0] = 1
    expected = pairwise_distances(rows, rows[:1], metric="cosine").ravel() * 100
    assert np.allclose(100 * (1 - np.sqrt(rows.sum(axis=1) / 9)), expected)


def test_the_statement_step_refuses_weights_off_by_a_little():
    """Catches a tolerance so loose that a surrogate that is not the ridge fit passes: lime's weights moved by
    1e-6 must fail s1 (planted wrong input)."""
    pytest.importorskip("lime", reason=EVAL_EXTRA)
    seen = claim.lime_run(claim.DOCUMENT, False)
    mine = claim.refit(claim.DOCUMENT, False, seen)
    assert claim.surrogate_is_the_ridge_fit(claim.DOCUMENT, False, seen, mine).status == "holds"
    planted = copy.copy(seen)
    planted["weights"] = {f: w + 1e-6 for f, w in seen["weights"].items()}
    assert claim.surrogate_is_the_ridge_fit(claim.DOCUMENT, False, planted, mine).status == "fails"


def test_verdict_lime_half_holds_lore_half_argued():
    """Catches a verdict that hides the untested half: LIME's half holds by computation, the sentence as written
    (with LORE, not installed) holds only as argued; the long document made lime select 10 of 13 features."""
    pytest.importorskip("lime", reason=EVAL_EXTRA)
    result = claim.check()
    assert result.status == "argued" and result.reading_status("lime") == "holds"
    long_case = next(s for s in result.steps if s.id.endswith("s1-13w-bow-false"))
    assert len(long_case.values["used"]) == 10
