"""How an explanation scores its rows is chosen by one rule (``fred.explainer.choose_scoring``), when the
explainer is built, and again for a sampler assigned to it later.

The rule is checked on each kind of sampler it tells apart, and through ``Fred.explain`` where a choice shows:
a sampler replaced after the explainer was built renders its own texts (computed here with the sampler and the
seeded generator, independently of the explainer), and the exact design makes no generator.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from fred import ExactSampler, Fred, MaskSampler
from fred.explainer import FastPathFirst, MaskTexts, SamplerStats, SamplerTexts, choose_scoring
from fred.fastpath import setup_fast_path
from fred.sampling import render_masked

class ThreeWords(MaskSampler):
    """Replaces each perturbed token by one of three words drawn with the explainer's generator."""

    name = "three-words"
    CHOICES = ("good", "bad", "UNK")

    def render(self, tokens, perturbed, rng):
        draws = rng.integers(0, len(self.CHOICES), size=perturbed.shape)
        return [" ".join(self.CHOICES[k] if z else t for t, z, k in zip(tokens, row, ks))
                for row, ks in zip(perturbed, draws)]


class WithStats(MaskSampler):
    """The mask rendering, reporting how many positions it masked."""

    def render_with_stats(self, tokens, perturbed, rng):
        return self.render(tokens, perturbed, rng), int(perturbed.sum())


class ExactWithoutStats(ExactSampler):
    """An exact sampler with a ``render_with_stats`` attribute that is no method: no statistics, and not the
    built-in exact design (it may be given a generator)."""

    render_with_stats = None


class Duck:
    """A sampler of its own, not a MaskSampler."""

    name, exact = "duck", False
    draw = MaskSampler.draw

    def render(self, tokens, perturbed, rng):
        return [" ".join("X" if z else t for t, z in zip(tokens, row)) for row in perturbed]


def _instance_render() -> MaskSampler:
    sampler = MaskSampler()
    sampler.render = lambda tokens, perturbed, rng: render_masked(tokens, perturbed, "UNK")
    return sampler


@pytest.mark.parametrize("make, kind, exact_design", [
    (MaskSampler, MaskTexts, False),
    (ExactSampler, MaskTexts, True),
    (WithStats, SamplerStats, False),
    (ThreeWords, SamplerTexts, False),
    (_instance_render, SamplerTexts, False),
    (Duck, SamplerTexts, False),
    (ExactWithoutStats, MaskTexts, False),
], ids=["mask", "exact", "stats", "own-render", "instance-render", "duck", "exact-no-stats"])
def test_the_rule_picks_one_scoring_per_kind_of_sampler(make, kind, exact_design):
    """Catches a sampler scored by the wrong path: statistics lost, a render of its own (on the class or the
    instance) bypassed by the mask grouping, or a generator withheld from a design that is not the built-in one."""
    sampler = make()
    scoring = choose_scoring(sampler, None)
    assert (type(scoring), scoring.exact_design, scoring.sampler) == (kind, exact_design, sampler)


@pytest.mark.parametrize("sampler, exact_design", [("mask", False), ("exact", True)])
def test_a_fast_path_is_tried_first_and_falls_back_to_the_samplers_scoring(sampler, exact_design):
    """Catches the fast path set up but not used, or its fall-back not the scoring the sampler would get."""
    pipe = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(["good food", "bad food"], [1, 0])
    explainer = Fred(pipe.predict_proba, sampler=sampler)
    fast, status = setup_fast_path(pipe.predict_proba, explainer.sampler)
    scoring = choose_scoring(explainer.sampler, fast)
    assert type(scoring) is FastPathFirst and type(scoring.strings) is MaskTexts and status.active
    assert (scoring.exact_design, scoring.sampler) == (exact_design, explainer.sampler)


def _classify(texts):
    return np.array([[1.0, 0.1 * t.count("good") + 0.05 * len(t.split())] for t in texts])


def test_a_sampler_replaced_after_construction_renders_its_own_texts():
    """Catches the scoring chosen when the explainer was built applied to a sampler assigned later: the mask
    grouping would render UNK where the replacing sampler draws words."""
    explainer = Fred(_classify, random_state=3)
    explainer.sampler = sampler = ThreeWords()
    exp = explainer.explain("good food but slow service", n_samples=60, max_len=2)
    rng = np.random.default_rng(3)
    design = sampler.draw(5, 0.5, 60, rng)
    assert list(exp.sample_texts) == sampler.render("good food but slow service".split(), design.perturbed, rng)


def test_the_exact_design_makes_no_generator(monkeypatch):
    """Catches a generator made for the built-in exact design (from random_state None that reads the system's
    entropy on every call), and none made for a sampler that draws at random."""
    made = []
    real = np.random.default_rng
    monkeypatch.setattr(np.random, "default_rng", lambda *a: made.append(a) or real(*a))
    Fred(_classify, sampler="exact").explain("good food", max_len=1)
    assert made == []
    Fred(_classify, random_state=1).explain("good food", max_len=1, n_samples=10)
    assert made == [(1,)]
