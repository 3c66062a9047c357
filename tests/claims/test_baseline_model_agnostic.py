"""baseline-model-agnostic (line 111): LIME, SHAP and Anchors explain a model they know only as a call; LRP does not.

The LRP relevances are compared with hand computations of the LRP-gamma rule; the two networks' equality is checked
on random points of all of R^2 by hand-written formulas, and the equality checker is fed a planted pair that differs
off the positive quadrant; the opaque model is fed planted explainers that read an attribute; the packages' query
counts are compared with their documented budgets."""

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

#: relu(x1) - relu(x2) and 2 relu(x1) - relu(x1) - relu(x2), written here independently of the claim's constants.
DIRECT = [np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[1.0], [-1.0]])]
SPLIT = [np.array([[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), np.array([[2.0], [-1.0], [-1.0]])]
#: The pair the claim once used: x1 - x2 and relu(x1 + x2) - 2 relu(x2), equal on the positive quadrant only.
QUADRANT_ONLY = ([np.array([[1.0], [-1.0]])], [np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([[1.0], [-2.0]])])


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
    """Catches a wrong LRP-gamma rule: by hand at x = (2, 1), gamma = 1. Direct: h = (2, 1), z = (2*(1+1), 1*(-1)) =
    (4, -1), sum 3, output 1: R = (4/3, -1/3). Split: h = (2, 2, 1), z = (2*(2+2), 2*(-1), 1*(-1)) = (8, -2, -1), sum
    5: R_h = (8/5, -2/5, -1/5); h1, h2 read x1 alone, h3 x2 alone: R = (6/5, -1/5). At gamma = 0 (LRP-0) both are
    gradient x input, (1*2, -1*1) = (2, -1)."""
    x = np.array([2.0, 1.0])
    assert np.allclose(lrp_relevance(DIRECT, x, 1.0), [4 / 3, -1 / 3])
    assert np.allclose(lrp_relevance(SPLIT, x, 1.0), [6 / 5, -1 / 5])
    for layers in (DIRECT, SPLIT):
        assert np.allclose(lrp_relevance(layers, x, 0.0), [2.0, -1.0])


def test_the_two_networks_compute_the_same_function_everywhere():
    """Catches a counterexample outside its hypothesis (the bug the claim once had: a pair equal on the positive
    quadrant only): relu(x1) - relu(x2) and 2 relu(x1) - relu(x1) - relu(x2) agree on 2000 Gaussian points of R^2,
    negatives included (hand-written formulas, not the claim's forward pass), while the old pair differs there."""
    relu = lambda v: max(v, 0.0)
    points = np.random.default_rng(0).normal(0.0, 3.0, size=(2000, 2))
    assert all(np.isclose(relu(a) - relu(b), 2 * relu(a) - relu(a) - relu(b)) for a, b in points)
    assert max(abs((a - b) - (relu(a + b) - 2 * relu(b))) for a, b in points) > 1.0


def test_equality_checker_refuses_a_pair_equal_on_one_quadrant():
    """Catches an equality checker that looks at the positive quadrant only (planted: the old pair), or that a
    floating-point grid alone decides: symbolically only the (+, +) quadrant agrees, and the grid sees a gap."""
    seen = claim.same_function_everywhere(*QUADRANT_ONLY)
    assert seen["quadrants_equal"] == [True, False, False, False] and not seen["symbolic"]
    assert seen["grid_largest_gap"] > 1.0
    seen = claim.same_function_everywhere(DIRECT, SPLIT)
    assert seen["symbolic"] and seen["grid_largest_gap"] <= claim.GRID_TOLERANCE


def test_lrp_step_values():
    """Catches the step recording a pair outside the hypotheses, the wrong relevances, or an LRP-0 that separates
    the pair (it must not: gradient x input is a function of the function): literal hand values."""
    step = claim.lrp_needs_the_weights()
    assert step.status == "fails" and step.values["satisfies_hypotheses"]
    assert np.allclose(step.values["relevance_direct"], [4 / 3, -1 / 3])
    assert np.allclose(step.values["relevance_split"], [1.2, -0.2])
    assert step.values["lrp_0"]["agree"] and np.allclose(step.values["lrp_0"]["split"], [2.0, -1.0])
    assert step.values["outputs"] == [1.0, 1.0] and step.part == claim.LRP


def test_lime_queries_a_plain_closure_its_budget():
    """Catches a step whose query count is not the package's: LimeTextExplainer asks the model about exactly
    num_samples texts (its documented budget: the document and num_samples - 1 perturbations) and reads nothing
    else of a model that is only a call."""
    lime_text = pytest.importorskip("lime.lime_text", reason=EVAL_EXTRA)
    model = OpaqueModel(claim.probabilities)
    lime_text.LimeTextExplainer(bow=False, random_state=3).explain_instance("good food bad", model, num_samples=40)
    assert model.queries == 40 and model.probes == []


def test_verdict_and_parts():
    """Catches a wrong verdict, or nested parts (the three packages are themselves cited methods, so a part 'every
    cited method' would contain them): line 111 read as the class its citations show fails in part, over three parts
    that do not overlap: LIME, SHAP, Anchors hold (every package's replay gives the same explanation), LORE is
    unproved (one argued statement step, no proof: not installed), LRP fails (a model-specific method cited as model-agnostic), not on an absent package;
    each step names exactly one part, and the headline says all three."""
    pytest.importorskip("lime", reason=EVAL_EXTRA)
    pytest.importorskip("shap", reason=EVAL_EXTRA)
    pytest.importorskip("anchor", reason=EVAL_EXTRA)
    result = claim.check()
    steps = {s.id.split(".", 1)[1]: s for s in result.steps}
    assert result.status == "fails" and result.readings == ()
    assert result.in_part == ((claim.PACKAGES, "holds"), (claim.LORE, "unproved"), (claim.LRP, "fails"))
    assert result.verdict == ("fails in part: LIME, SHAP, Anchors (the packages the paper runs) holds; LORE "
                              "unproved; LRP (montavon2019layer) fails")
    assert {s.id.split(".", 1)[1]: s.part for s in result.steps if s.part != claim.PACKAGES} == {
        "s2-lore": claim.LORE, "s3-lrp-needs-the-weights": claim.LRP}
    assert result.counterexample["satisfies_hypotheses"]
    assert steps["s3-lrp-needs-the-weights"].status == "fails"
    for package in ("lime", "shap", "anchor-exp"):
        assert steps[f"p1-{package}-answers-only"].status == "holds"
    assert steps["s1-lime-explains-a-call"].values["queries"] == claim.LIME_SAMPLES
