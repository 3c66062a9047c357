"""baseline-model-agnostic (line 111): LIME, SHAP and Anchors explain a model they know only as a call; LRP does not.

The LRP relevances are compared with hand computations of the LRP-gamma rule; the opaque model is fed planted
explainers that read an attribute; the packages' query counts are compared with their documented budgets."""

from __future__ import annotations

import numpy as np
import pytest

from proofs_checks.claims.baselines import baseline_model_agnostic as claim
from proofs_checks.claims.baselines.baseline_model_agnostic import (
    OpaqueModel,
    lrp_relevance,
)

#: Why a test that runs a baseline package skips: the package is the evaluation's, not a core dependency.
EVAL_EXTRA = "the baseline packages are the eval extra (pip install 'fred-theory[eval]'), not installed here"

ONE_LAYER = [np.array([[1.0], [-1.0]])]
TWO_LAYERS = [np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([[1.0], [-2.0]])]


def test_opaque_model_refuses_and_logs_every_attribute():
    """Catches an opaque model that lets an explainer read the model's internals unseen (a planted explainer that
    reads ``coef_`` or ``predict_proba`` must raise and be logged), which would make s1 vacuous."""
    model = OpaqueModel(lambda texts: np.ones(len(texts)))
    for name in ("coef_", "predict_proba", "named_steps"):
        with pytest.raises(AttributeError):
            getattr(model, name)
    assert model.probes == ["coef_", "predict_proba", "named_steps"]
    assert model(["a", "b", "c"]).tolist() == [1.0, 1.0, 1.0] and model.queries == 3


def test_lrp_gamma_by_hand():
    """Catches a wrong LRP-gamma rule: by hand at x = (2, 1), gamma = 1. One layer: z = (2*2, -1) = (4, -1),
    R = (4/3, -1/3). Two layers: h = (3, 1), output z = (3*2, -2) = (6, -2), R_h = (3/2, -1/2); h1 = x1 + x2 splits
    3/2 as (1, 1/2), h2 = x2 passes -1/2: R = (1, 0). At gamma = 0 both are gradient x input, (2, -1)."""
    x = np.array([2.0, 1.0])
    assert np.allclose(lrp_relevance(ONE_LAYER, x, 1.0), [4 / 3, -1 / 3])
    assert np.allclose(lrp_relevance(TWO_LAYERS, x, 1.0), [1.0, 0.0])
    for layers in (ONE_LAYER, TWO_LAYERS):
        assert np.allclose(lrp_relevance(layers, x, 0.0), [2.0, -1.0])


def test_the_two_networks_compute_the_same_function():
    """Catches a counterexample outside its hypothesis: x1 - x2 and relu(x1 + x2) - 2 relu(x2) agree on random
    points of the positive quadrant (computed here directly, not with the claim's forward pass)."""
    rng = np.random.default_rng(0)
    for x1, x2 in rng.uniform(0.0, 5.0, size=(200, 2)):
        assert np.isclose(x1 - x2, max(x1 + x2, 0.0) - 2 * max(x2, 0.0))


def test_lime_queries_a_plain_closure_its_budget():
    """Catches a step whose query count is not the package's: LimeTextExplainer asks the model about exactly
    num_samples texts (its documented budget: the document and num_samples - 1 perturbations) and reads nothing
    else of a model that is only a call."""
    lime_text = pytest.importorskip("lime.lime_text", reason=EVAL_EXTRA)
    model = OpaqueModel(claim.probabilities)
    lime_text.LimeTextExplainer(bow=False, random_state=3).explain_instance("good food bad", model, num_samples=40)
    assert model.queries == 40 and model.probes == []


def test_verdict_and_readings():
    """Catches a wrong verdict: the headline (the three packages) holds, every package's replay gives the same
    explanation, and the stronger reading (every cited method) fails on LRP, not on an absent package."""
    pytest.importorskip("lime", reason=EVAL_EXTRA)
    pytest.importorskip("shap", reason=EVAL_EXTRA)
    pytest.importorskip("anchor", reason=EVAL_EXTRA)
    result = claim.check()
    steps = {s.id.split(".", 1)[1]: s for s in result.steps}
    assert result.status == "holds"
    assert result.reading_status("every-cited") == "fails"
    assert steps["s3-lrp-needs-the-weights"].status == "fails"
    for package in ("lime", "shap", "anchor-exp"):
        assert steps[f"p1-{package}-answers-only"].status == "holds"
    assert steps["s1-lime-explains-a-call"].values["queries"] == claim.LIME_SAMPLES
