"""Claim experiment-protocol-defaults (proofs_checks/claims/experiments/experiment_protocol_defaults.py): "not
supported" with the released code's checkout (line 1164: the released LIME passes bow=False; line 567, of SHAP's
ranking: SHAP's AUC-MoRF masks tokens of zero or negative SHAP value), lines 1116 and 1170 as written; corrected
statement supported; "unproved" without the checkout.
"""

from __future__ import annotations

import inspect
import itertools
import math

import pytest

from tests._helpers import needs_authors_checkout
from tests.claims._pipeline_by_hand import needs_data

CLAIM = "experiment-protocol-defaults"


@pytest.fixture(scope="module")
def released():
    from proofs_checks.claims.experiments import experiment_protocol_defaults

    return experiment_protocol_defaults.check()


def test_without_the_checkout(monkeypatch):
    """Without $FRED_AUTHORS_CHECKOUT every step is argued and names the variable, there is no counterexample, and
    the experiment is unproved. Catches a step typed as holding (or failing) when nothing ran."""
    from proofs_checks.claims.experiments import experiment_protocol_defaults

    monkeypatch.delenv("FRED_AUTHORS_CHECKOUT", raising=False)
    result = experiment_protocol_defaults.check()
    assert all(s.status == "argued" and s.note.startswith("Not run here: $FRED_AUTHORS_CHECKOUT is not set")
               for s in result.steps)
    assert (result.status, result.corrected_status, result.counterexample) == ("unproved", "unproved", None)


def test_without_the_eval_packages_nothing_runs(monkeypatch):
    """With the checkout set but anchor not installed, the explainers' run is not attempted and the reason names
    the package and the eval extra, while the data is not asked for. Catches a crash of the report on an install
    without the eval extra, or a reason that names the wrong missing input."""
    import importlib.util

    from proofs_checks.subject import authors_pipeline

    real = importlib.util.find_spec
    monkeypatch.setenv("FRED_AUTHORS_CHECKOUT", "/nonexistent")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "anchor" else real(name, *a))
    assert authors_pipeline.missing_inputs("explainers") == [
        "the packages anchor are not installed (the eval extra)"]
    assert authors_pipeline.explainer_runs() is None


def test_non_default_ignores_what_is_explained_and_catches_a_parameter():
    """Planted call records: the classes, the model and the document passed are not parameters; Anchor's threshold
    set to 0.9 is. Catches a check that counts class_names as a changed parameter (LIME and Anchor would always
    "fail"), or one that misses a changed threshold."""
    from proofs_checks.claims.experiments.experiment_protocol_defaults import (
        non_default,
    )

    def call(name, **non_default):
        return {"call": name, "non_default": non_default}

    runs = {"explainers": {
        "LIME": {"calls": [call("LimeTextExplainer", class_names=["['n', 'p']", "None"])]},
        "SHAP": {"calls": [call("shap.Explainer", masker=["Text()", "None"])]},
        "Anchor": {"calls": [call("AnchorText.explain_instance", threshold=["0.9", "0.95"], text=["'a'", "None"])]}}}
    assert non_default(runs) == {"LIME": {}, "SHAP": {}, "Anchor": {"AnchorText.explain_instance.threshold":
                                                                    ["0.9", "0.95"]}}


def test_most_relevant_first_refuses_planted_masks():
    """The checker of c2 on planted masks, scores 0.5, 0.2, -0.1 at positions 0, 1, 2: the decreasing prefixes pass;
    masks in another order, a mask that skips a size, a token outside the candidates, or too few masks are refused;
    a tie may be broken either way. Catches a lax checker that would make c2 hold on any masks."""
    from proofs_checks.claims.experiments.experiment_protocol_defaults import (
        most_relevant_first,
    )

    scores = {"0": 0.5, "1": 0.2, "2": -0.1}
    assert most_relevant_first([[0], [0, 1], [0, 1, 2]], scores, {0, 1, 2})
    assert not most_relevant_first([[1], [0, 1], [0, 1, 2]], scores, {0, 1, 2})
    assert not most_relevant_first([[0], [0, 1, 2]], scores, {0, 1, 2})
    assert not most_relevant_first([[0], [0, 2]], scores, {0, 1})
    assert not most_relevant_first([[0]], scores, {0, 1})
    tie = {"0": 0.3, "1": 0.3}
    assert most_relevant_first([[1], [0, 1]], tie, {0, 1}) and most_relevant_first([[0], [0, 1]], tie, {0, 1})


@needs_authors_checkout
def test_lime_bow_against_the_package_signature(released):
    """The one non-default parameter is LIME's bow, passed False, whose default this test reads from the installed
    lime (True); SHAP and Anchor change nothing. Catches a record compared with the wrong default, or a changed
    parameter left out."""
    lime_text = pytest.importorskip("lime.lime_text")
    steps = {s.id.split(".")[1]: s for s in released.steps}
    default = inspect.signature(lime_text.LimeTextExplainer).parameters["bow"].default
    assert default is True
    assert steps["s1-all-defaults"].values["non_default"] == {
        "LIME": {"LimeTextExplainer.bow": ["False", repr(default)]}, "SHAP": {}, "Anchor": {}}
    assert [steps[k].status for k in ("s1-all-defaults", "s3-positive-class", "s4-anchor-order",
                                      "s5-shap-positive-only", "c1-defaults-but-bow", "c2-masking-rules")] == [
        "fails", "holds", "holds", "fails", "holds", "holds"]
    assert (released.status, released.corrected_status) == ("fails", "holds")


def _exact_shapley(words: list[str], weights: dict, bias: float) -> list[float]:
    """Exact Shapley values of the positive-class probability, a removed word contributing nothing."""
    n = len(words)

    def value(kept):
        z = bias + sum(weights.get(words[i], 0.0) for i in kept)
        return 1 / (1 + math.exp(-z))

    phi = []
    for i in range(n):
        others = [j for j in range(n) if j != i]
        total = 0.0
        for size in range(n):
            for s in itertools.combinations(others, size):
                total += math.factorial(size) * math.factorial(n - size - 1) / math.factorial(n) * (
                    value(s + (i,)) - value(s))
        phi.append(total)
    return phi


@needs_authors_checkout
def test_shap_counterexample_against_exact_shapley_values(released):
    """The counterexample 'good nice bad': this test's own model value (sigmoid(1) > 1/2, a positive prediction),
    exact Shapley values by enumeration (bad's is negative, as shap's is), and the released masks cover all three
    tokens (min(20, 3)). Its 2-token sub-document 'good nice' has two positive values, so 3 is the minimum. Catches a
    counterexample outside the hypotheses (a negative prediction) or a token whose value is positive."""
    from proofs_checks.subject.authors_pipeline import PROBE_BIAS, PROBE_WEIGHTS

    record = released.counterexample
    assert record["shap_document"] == "good nice bad" and record["masked_not_positive"] == ["bad"]
    assert record["satisfies_hypotheses"] is True
    exact = _exact_shapley(["good", "nice", "bad"], PROBE_WEIGHTS, PROBE_BIAS)
    assert exact[2] < 0 < exact[1] and record["shap_values"][2] < 0
    assert sorted({p for mask in record["shap_masks"] for p in mask}) == [0, 1, 2]
    assert all(v > 0 for v in _exact_shapley(["good", "nice"], PROBE_WEIGHTS, PROBE_BIAS))


@needs_authors_checkout
def test_anchor_masks_follow_the_anchor(released):
    """Anchor's AUC-MoRF masks are the anchor's prefixes in the anchor's order (the anchor holds good and nice, the
    two words the model needs), one mask per anchor token. Catches a ranking read in another order than the anchor's
    or a mask beyond the anchor."""
    step = next(s for s in released.steps if s.id.endswith("s4-anchor-order"))
    features = step.values["anchor_features"]
    assert sorted(step.values["anchor_names"]) == ["good", "nice"] and sorted(features) == [0, 1]
    assert step.values["aucmorf_masks"] == [sorted(features[:1]), [0, 1]]


@needs_authors_checkout
@needs_data
def test_every_explained_document_is_predicted_positive(released):
    """Line 1116's positive predictions, on the six runs: 100 of 100 each. Catches the step reading the test set's
    predictions instead of the explained documents'."""
    step = next(s for s in released.steps if s.id.endswith("s2-positive-predictions"))
    assert step.status == "holds"
    assert all(r == {"explained": 100, "positive": 100} for r in step.values["runs"].values())
