"""``Fred.explain`` leaves the explainer as it found it; what a call learns is on its Explanation.

Each test snapshots the explainer's and its sampler's attributes before and after calls, or compares two
identical calls, so state carried from one call to the next (a fast path switched off for good, counters
that accumulate) is caught.
"""

from __future__ import annotations

import copy
import subprocess
import sys

import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline

from fred import Fred
from fred.fastpath import FastPathStatus
from fred.pos import PosSampler

CORPUS = ["good food", "bad food", "great service", "awful service", "good great place", "bad awful drinks"]
LABELS = [1, 0, 1, 0, 1, 0]
TEXT = "good food and great service"


class DoublingVectorizer(CountVectorizer):
    """Transforms like CountVectorizer but doubles every count: the fast path's structural checks accept it,
    only its comparison with the rendered strings catches it."""

    def transform(self, raw_documents):
        return super().transform(raw_documents) * 2


def _frozen(value):
    """A deep copy, so that in-place changes (a counter incremented) show; the object itself if it cannot be
    copied (then only rebinding shows)."""
    try:
        return copy.deepcopy(value)
    except Exception:
        return value


def _snapshot(explainer: Fred) -> dict:
    """Every attribute of the explainer and of its sampler."""
    by_identity = ("_fast_path", "_scoring")  # a fast path switched off, or a scoring chosen again, is rebound
    state = {k: _frozen(v) for k, v in vars(explainer).items() if k not in ("classifier_fn", "sampler", *by_identity)}
    state.update((k, getattr(explainer, k)) for k in by_identity)
    state["sampler"] = {k: _frozen(v) for k, v in vars(explainer.sampler).items() if k not in ("tagger", "polarity")}
    return state


def test_failed_fast_path_check_is_recorded_on_the_explanation_not_the_explainer():
    """Catches a failed check that switches the fast path off for good (a later document could no longer use
    it, and two identical calls would be scored differently): each call records its own fall-back."""
    pipe = Pipeline([("vec", DoublingVectorizer()), ("clf", LogisticRegression())]).fit(CORPUS, LABELS)
    explainer = Fred(pipe.predict_proba, random_state=3)
    before = explainer.fast_path_status
    assert before.active, before
    first = explainer.explain(TEXT, n_samples=300, max_len=2)
    assert explainer.fast_path_status == before
    assert first.fast_path.active is False and first.fast_path.reason.startswith("fell back to strings: ")
    second = explainer.explain(TEXT, n_samples=300, max_len=2)
    assert second.fast_path == first.fast_path
    assert second.best_ids == first.best_ids
    np.testing.assert_array_equal(second.importances, first.importances)


def test_explanation_records_an_active_fast_path_and_a_disabled_one():
    """Catches an explanation whose ``fast_path`` does not say how its samples were scored."""
    pipe = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(CORPUS, LABELS)
    on = Fred(pipe.predict_proba, random_state=0).explain(TEXT, n_samples=50)
    assert on.fast_path.active, on.fast_path
    off = Fred(pipe.predict_proba, random_state=0, fast_path=False).explain(TEXT, n_samples=50)
    assert off.fast_path == FastPathStatus(False, "disabled by fast_path=False")
    assert on.to_dict()["fast_path"] == {"active": True, "reason": on.fast_path.reason}


@pytest.mark.parametrize("sampler", ["mask", "exact"])
def test_explain_does_not_change_the_explainer(sampler):
    """Catches any attribute of the explainer or its sampler written by ``explain``."""
    pipe = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(CORPUS, LABELS)
    for classifier_fn in (pipe.predict_proba, lambda texts: pipe.predict_proba(texts)):
        explainer = Fred(classifier_fn, sampler=sampler, random_state=0)
        before = _snapshot(explainer)
        explainer.explain(TEXT, n_samples=64)
        explainer.explain("bad awful food", n_samples=64)
        assert _snapshot(explainer) == before


def _fake_tagger(token_lists):
    """ADJ for the four sentiment words, ADV for "here" (no corpus word has it, so it falls back), else NOUN."""
    tags = {"good": "ADJ", "great": "ADJ", "bad": "ADJ", "awful": "ADJ", "here": "ADV"}
    return [[tags.get(t, "NOUN") for t in tokens] for tokens in token_lists]


def _fake_polarity(word):
    return {"good": 1.0, "great": 1.0, "bad": -1.0, "awful": -1.0}.get(word, 0.0)


def test_pos_sampler_counts_each_explanations_fallbacks_and_keeps_none():
    """Catches PosSampler counters that accumulate across calls: two identical explanations must report the
    same fall-backs, equal to what the sampler's ``stats`` computes from that explanation's rows alone."""
    sampler = PosSampler(["good food", "bad service", "drinks"], tagger=_fake_tagger, polarity=_fake_polarity)
    explainer = Fred(lambda texts: np.array([[0.3, 0.7]] * len(texts)), sampler=sampler, random_state=0)
    before = _snapshot(explainer)
    first = explainer.explain("good drinks here", n_samples=40)
    second = explainer.explain("good drinks here", n_samples=40)
    assert _snapshot(explainer) == before
    assert first.sampler_stats == second.sampler_stats
    assert first.sampler_stats == sampler.stats(list(first.tokens), first.sample_perturbed)
    # Only "here" (position 2, an ADV no corpus word shares) falls back to the mask token.
    assert first.sampler_stats.n_fallbacks == int(first.sample_perturbed[:, 2].sum()) > 0
    assert first.sampler_stats.n_replacements == int(first.sample_perturbed.sum())


def test_mask_sampler_explanations_have_no_sampler_stats():
    """Catches ``sampler_stats`` filled with something for a sampler that reports nothing."""
    exp = Fred(lambda texts: np.ones(len(texts)), random_state=0).explain("a b", n_samples=8)
    assert exp.sampler_stats is None


def test_seed_sequence_random_state_gives_the_same_explanation_twice():
    """Catches a SeedSequence random_state being refused or consumed (the docstring says it is accepted and,
    like an int, gives the same explanation at every call)."""
    pipe = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(CORPUS, LABELS)
    explainer = Fred(pipe.predict_proba, random_state=np.random.SeedSequence(5))
    a, b = explainer.explain(TEXT, n_samples=100), explainer.explain(TEXT, n_samples=100)
    np.testing.assert_array_equal(a.sample_perturbed, b.sample_perturbed)


def test_importing_fred_does_not_import_the_evaluation_harness():
    """Catches ``import fred`` pulling in the paper-reproduction harness (LIME, SHAP, Anchors, datasets)."""
    code = "import sys, fred; print(sorted(m for m in sys.modules if m.startswith('fred.evaluation')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
