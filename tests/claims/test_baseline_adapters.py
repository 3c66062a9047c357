"""The baseline claims call lime and shap as the evaluation's adapters do.

``proofs_checks.cases.lime_runs`` and ``proofs_checks.claims.baselines.shap_runs`` re-type the calls of
``fred.evaluation.explainers.LimeAdapter`` and ``ShapAdapter`` (the checking side never imports the harness's
private call sites), so a change on one side alone would make the ``baseline-lime`` and ``baseline-shap`` claims
check a LIME or SHAP the evaluation does not run. Each test replaces the package's classes by recorders returning
minimal objects (no sampling, no model call: fast), makes both sides explain the same text, and compares the
recorded arguments after binding them to the package's own signatures (defaults applied, so a default passed
explicitly on one side and left out on the other is no difference). Only the predict function is documented to
differ; both sides are given the same seed and number of samples, so those must be equal too.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from fred.evaluation.explainers import POSITIVE, LimeAdapter, ShapAdapter
from proofs_checks.cases.lime_runs import package_coefficients
from proofs_checks.claims.baselines.shap_runs import ShapRun

lime_text = pytest.importorskip("lime.lime_text")
shap = pytest.importorskip("shap")

TEXT = "the food was good but service slow"
SEED = 7
N_SAMPLES = 11


def _predict_proba(texts) -> np.ndarray:
    """A tiny model: P(class 1) grows with the text's length (never called through the recorders)."""
    p = np.array([len(t) / (1.0 + len(t)) for t in texts])
    return np.column_stack([1 - p, p])


def _bound(signature: inspect.Signature, args: tuple, kwargs: dict, drop: tuple[str, ...] = ()) -> dict:
    """The call's arguments by parameter name, defaults applied, without ``drop``."""
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    return {name: value for name, value in bound.arguments.items() if name not in drop}


def _lime_recorder(calls: dict):
    """A stand-in for ``LimeTextExplainer`` recording its constructor and ``explain_instance`` arguments."""
    init = inspect.signature(lime_text.LimeTextExplainer)
    explain = inspect.signature(lime_text.LimeTextExplainer.explain_instance)

    class Explanation:
        def as_map(self):
            return {POSITIVE: []}

    class Recorder:
        def __init__(self, *args, **kwargs):
            calls["init"].append(_bound(init, args, kwargs))

        def explain_instance(self, *args, **kwargs):
            calls["explain"].append(_bound(explain, (self, *args), kwargs, drop=("self", "classifier_fn")))
            return Explanation()

    return Recorder


def test_lime_claim_calls_the_package_as_lime_adapter(monkeypatch):
    """LimeAdapter.explain and lime_runs.package_coefficients (setting ``evaluation``) construct LimeTextExplainer
    and call explain_instance with the same arguments, all but the predict function: catches the claim calling the
    package otherwise than the evaluation (another bow, split, class names, labels, num_features or kernel)."""
    calls: dict[str, list] = {"init": [], "explain": []}
    monkeypatch.setattr(lime_text, "LimeTextExplainer", _lime_recorder(calls))
    LimeAdapter(_predict_proba, num_samples=N_SAMPLES).explain(TEXT, SEED, k=2)
    package_coefficients(lambda texts: _predict_proba(texts)[:, POSITIVE], TEXT, N_SAMPLES, SEED)
    assert len(calls["init"]) == len(calls["explain"]) == 2, calls  # both sides went through the package
    adapter_init, claim_init = calls["init"]
    adapter_call, claim_call = calls["explain"]
    assert claim_init == adapter_init
    assert claim_call == adapter_call
    assert adapter_call["num_samples"] == N_SAMPLES and adapter_init["random_state"] == SEED  # the recorders saw them


def _shap_recorders(calls: dict):
    """Stand-ins for ``shap.maskers.Text`` and ``shap.Explainer`` recording their arguments and each explanation
    call; an explanation has zero values of shape (texts, whitespace tokens, 2)."""
    masker_sig = inspect.signature(shap.maskers.Text)
    explainer_sig = inspect.signature(shap.Explainer)
    call_sig = inspect.signature(shap.Explainer.__call__)

    class Masker:
        def __init__(self, *args, **kwargs):
            self.arguments = _bound(masker_sig, args, kwargs)
            calls["masker"].append(self.arguments)

    class Explanation:
        def __init__(self, texts):
            self.values = np.zeros((len(texts), len(texts[0].split()), 2))

    class Explainer:
        def __init__(self, *args, **kwargs):
            arguments = _bound(explainer_sig, args, kwargs, drop=("model",))
            arguments["masker"] = arguments["masker"].arguments  # compared by what it was built with
            calls["explainer"].append(arguments)

        def __call__(self, *args, **kwargs):
            calls["call"].append(_bound(call_sig, (self, *args), kwargs, drop=("self",)))
            return Explanation(args[0])

    return Masker, Explainer


def test_shap_claim_calls_the_package_as_shap_adapter(monkeypatch):
    """ShapAdapter and shap_runs.ShapRun build shap.maskers.Text and shap.Explainer with the same arguments, all
    but the model function, and call the explainer on a document alike (ShapAdapter's extra first call is its
    warm-up): catches the claim calling the package otherwise than the evaluation (another tokenizer, mask token,
    collapse rule, algorithm, link or max_evals)."""
    calls: dict[str, list] = {"masker": [], "explainer": [], "call": []}
    masker, explainer = _shap_recorders(calls)
    monkeypatch.setattr(shap.maskers, "Text", masker)
    monkeypatch.setattr(shap, "Explainer", explainer)
    ShapAdapter(_predict_proba).explain(TEXT, SEED, k=2)
    ShapRun(lambda texts: _predict_proba(texts)[:, POSITIVE]).run(TEXT, SEED)
    assert len(calls["masker"]) == len(calls["explainer"]) == 2 and len(calls["call"]) == 3, calls
    adapter_masker, claim_masker = calls["masker"]
    assert claim_masker == adapter_masker
    adapter_explainer, claim_explainer = calls["explainer"]
    assert claim_explainer == adapter_explainer
    _warm_up, adapter_call, claim_call = calls["call"]
    assert adapter_call["args"] == ([TEXT],)
    assert claim_call == adapter_call
