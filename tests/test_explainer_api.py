"""Public behaviour of ``Fred.explain``: bad input, determinism, result objects, the sampling law."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose

from fred import Fred, sample_size


def sentiment(texts):
    """Two-class scores: 'great' and 'decent' push towards class 1, 'poor' away from it."""
    out = []
    for t in texts:
        w = t.split()
        s = 0.2 + 0.3 * ("great" in w) + 0.2 * ("decent" in w) - 0.1 * ("poor" in w)
        out.append([1 - s, s])
    return np.array(out)


TEXT = "poor drinks decent food great service"


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"text": ""}, ValueError, "text"),
        ({"text": "   \n\t"}, ValueError, "text"),
        ({"text": 42}, TypeError, "text"),
        ({"text": ["a", "b"]}, TypeError, "text"),
        ({"p": 0.0}, ValueError, "p must"),
        ({"p": 1.0}, ValueError, "p must"),
        ({"p": float("nan")}, ValueError, "p must"),
        ({"p": -0.1}, ValueError, "p must"),
        ({"p": "0.5"}, TypeError, "p must"),
        ({"p": True}, TypeError, "p must"),
        ({"eps": 0.0}, ValueError, "eps"),
        ({"eps": 1.5}, ValueError, "eps"),
        ({"eps": float("nan")}, ValueError, "eps"),
        ({"max_len": 0}, ValueError, "max_len"),
        ({"max_len": 2.5}, TypeError, "max_len"),
        ({"n_samples": 0}, ValueError, "n_samples"),
        ({"n_samples": 10.0}, TypeError, "n_samples"),
        ({"alpha": 1.0}, ValueError, "alpha"),
        ({"label": 2}, ValueError, "label"),
        ({"label": -1}, ValueError, "label"),
        ({"label": 1.0}, TypeError, "label"),
    ],
)
def test_bad_explain_arguments_raise_naming_the_parameter(kwargs, exc, match):
    """Each bad value must be refused up front, not turned into NaN or a numpy error deep inside."""
    args = {"text": TEXT, **kwargs}
    with pytest.raises(exc, match=match):
        Fred(sentiment, random_state=0).explain(**args)


@pytest.mark.parametrize(
    "output, exc",
    [
        (lambda n: np.zeros((n + 1, 2)), ValueError),  # wrong length
        (lambda n: np.zeros((n, 2, 1)), ValueError),  # wrong rank
        (lambda n: np.full((n, 2), np.nan), ValueError),
        (lambda n: np.full((n, 2), np.inf), ValueError),
        (lambda n: np.array([["a", "b"]] * n), TypeError),
        (lambda n: np.zeros((n, 0)), ValueError),
        (lambda n: [[0.5, 0.5], [0.1]][:n] if n == 2 else [[0.5, 0.5]] * n, (TypeError, ValueError)),
    ],
)
def test_bad_classifier_output_is_refused(output, exc):
    """A classifier returning the wrong shape, NaN/inf or strings must raise a clear error naming it."""
    with pytest.raises(exc, match="classifier_fn"):
        Fred(lambda texts: output(len(texts)), random_state=0).explain(TEXT, n_samples=2)


def test_classifier_output_changing_shape_between_calls_is_refused():
    """A model returning k columns on the text and another number on the samples is a bug to report."""
    calls = []

    def clf(texts):
        calls.append(1)
        return np.zeros((len(texts), 2 if len(calls) == 1 else 3))

    with pytest.raises(ValueError, match="classifier_fn"):
        Fred(clf, random_state=0).explain(TEXT, n_samples=5)


@pytest.mark.parametrize(
    "kwargs, exc",
    [
        ({"classifier_fn": "not callable"}, TypeError),
        ({"sampler": "bogus"}, ValueError),
        ({"sampler": 3}, TypeError),
        ({"search": "greedy"}, ValueError),
        ({"baseline": "median"}, ValueError),
        ({"beam_width": 0}, ValueError),
        ({"mask_token": "two words"}, ValueError),
        ({"mask_token": ""}, ValueError),
        ({"class_names": "ab"}, TypeError),
        ({"random_state": "seed"}, TypeError),
    ],
)
def test_bad_constructor_arguments_raise(kwargs, exc):
    """Unknown names and wrong types are refused when the explainer is built."""
    args = {"classifier_fn": sentiment, **kwargs}
    with pytest.raises(exc):
        Fred(**args)


def test_class_names_of_wrong_length_are_refused():
    """Printing a class name from a mismatched list would mislabel the explanation."""
    with pytest.raises(ValueError, match="class_names"):
        Fred(sentiment, class_names=["only one"]).explain(TEXT, n_samples=5)


def test_same_seed_same_explanation_and_different_seed_different_samples():
    """Catches global seeding or a generator shared across calls (explanations would drift)."""
    a = Fred(sentiment, random_state=7).explain(TEXT)
    b = Fred(sentiment, random_state=7).explain(TEXT)
    c = Fred(sentiment, random_state=8).explain(TEXT)
    assert a.to_dict() == b.to_dict()
    assert np.array_equal(a.sample_perturbed, b.sample_perturbed)
    assert not np.array_equal(a.sample_perturbed, c.sample_perturbed)
    explainer = Fred(sentiment, random_state=7)
    assert explainer.explain(TEXT).to_dict() == explainer.explain(TEXT).to_dict()


def test_text_made_only_of_mask_tokens_is_valid_and_not_found():
    """Every sample equals the text, so every drop is 0 < eps * E[f]: found=False, no NaN, no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exp = Fred(sentiment, random_state=0).explain("UNK UNK UNK")
    assert not exp.found
    assert_allclose(exp.drop, 0.0, atol=1e-12)  # rounding of a mean of equal values
    assert np.all(np.isfinite(exp.importances))
    json.dumps(exp.to_dict())


def test_candidates_never_perturbed_are_undefined_not_nan_drops():
    """n_c = 0 makes the drop undefined: it must never be selected, never warn, and show as NaN only in
    the documented place (importances)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exp = Fred(sentiment, random_state=3).explain(TEXT, p=0.05, n_samples=3)
    never = ~exp.sample_perturbed.any(axis=0)
    assert never.any(), "the seed should leave some position unperturbed"
    assert np.all(np.isnan(exp.importances[never]))
    assert not set(exp.best_ids) & set(np.flatnonzero(never))
    assert exp.drop is None or math.isfinite(exp.drop)
    assert all(v is None or math.isfinite(v) for v in exp.to_dict()["importances"])


def test_default_sample_size_follows_lemma2_with_effective_max_len():
    """n defaults to sample_size(alpha, min(max_len, b), p): a wrong default changes every guarantee."""
    exp = Fred(sentiment, random_state=0).explain(TEXT, p=0.4, max_len=4, alpha=0.9)
    assert exp.n_samples == sample_size(0.9, 4, 0.4)
    exp = Fred(sentiment, random_state=0).explain(TEXT, max_len=10)
    assert exp.n_samples == sample_size(0.95, 6, 0.5)


def test_regression_output_explains_the_single_column():
    """A 1-d output has no label; giving one is an error; counterfactuals need classes."""
    reg = lambda texts: sentiment(texts)[:, 1]  # noqa: E731
    exp = Fred(reg, random_state=0).explain(TEXT)
    assert exp.label is None
    with pytest.raises(ValueError, match="label"):
        Fred(reg).explain(TEXT, label=0)
    with pytest.raises(ValueError, match="counterfactuals"):
        exp.counterfactuals()
    assert "counterfactuals" not in exp.to_dict()


def test_original_baseline_uses_prediction_on_the_text():
    """baseline='original' (the authors' code) measures drops from f(text) with threshold eps * f(text)."""
    exp = Fred(sentiment, sampler="exact", baseline="original").explain(TEXT, eps=0.7)
    assert_allclose(exp.threshold, 0.7 * exp.original_prediction)
    assert_allclose(exp.original_prediction, 0.6)
    # removing great and decent leaves 0.2 - 0.1 * 1{poor kept}; E[that | both removed] = 0.2 - 0.05
    assert exp.best == ("decent", "great")
    assert_allclose(exp.drop, 0.6 - 0.15, rtol=1e-12)


def test_counterfactuals_have_fewest_perturbations_and_another_class():
    """Counterfactuals must be distinct samples of another class, ordered by perturbation count."""
    exp = Fred(sentiment, class_names=["neg", "pos"], random_state=0).explain(TEXT)
    cfs = exp.counterfactuals(k=5)
    assert len(cfs) == 5
    sizes = [len(c.perturbed_ids) for c in cfs]
    assert sizes == sorted(sizes)
    assert len({c.perturbed_ids for c in cfs}) == 5
    for c in cfs:
        assert c.predicted_label == 0 and c.predicted_class == "neg"
        assert_allclose(c.score, sentiment([c.text])[0, 1])
        assert [i for i, w in enumerate(c.text.split()) if w == "UNK"] == list(c.perturbed_ids)
    # the smallest possible counterfactual: one token, 'great' or 'decent'
    assert cfs[0].perturbed_ids in {(2,), (4,)}
    same = exp.counterfactuals(k=2, target=1)  # target = the explained class: samples still classified positive
    assert len(same) == 2 and all(c.predicted_label == 1 for c in same)
    with pytest.raises(ValueError, match="target"):
        exp.counterfactuals(target=5)


def test_results_serialise_and_print_like_figure_1():
    """to_dict must be JSON-ready; str names the class, the eps percentage and the subset."""
    exp = Fred(sentiment, class_names=["negative", "positive"], random_state=0).explain(TEXT, eps=0.5)
    d = json.loads(json.dumps(exp.to_dict()))
    assert d["best"] == ["decent", "great"] and d["found"] is True
    text = str(exp)
    assert 'Explaining class "positive"' in text and "50.0%" in text and '{"decent", "great"}' in text
    assert "[UNK]" in text
    html = exp.to_html()
    assert html.count("<span") == 6 and "underline" in html


@pytest.mark.statistical
def test_mask_sampler_perturbs_each_position_with_probability_p():
    """Catches perturbing with probability 1 - p (or a fixed number of positions).

    n * b = 20000 * 8 Bernoulli(p) draws; Hoeffding: P(|mean - p| > t) <= 2 exp(-2 N t^2) = delta with
    delta = 1e-9 gives t = sqrt(log(2/delta) / (2N)) ~ 0.0116 for N = 160000. Seed 11.
    """
    delta, n, b, p = 1e-9, 20000, 8, 0.3
    exp = Fred(lambda t: np.zeros(len(t)), random_state=11).explain(" ".join("abcdefgh"), p=p, n_samples=n)
    z = exp.sample_perturbed
    tol = math.sqrt(math.log(2 / delta) / (2 * n * b))
    assert abs(z.mean() - p) <= tol, f"mean {z.mean()} vs p={p}, tol {tol}, seed 11"
    assert z.shape == (n, b)


def test_sample_size_is_minimal_at_exact_boundaries():
    """Regression: sample_size(0.99, 1, 0.9) returned 3 because 2*log(0.1) rounds above log(0.01); two rows
    already give coverage 1 - 0.1**2 >= 0.99 for the binary floats 0.9 and 0.99 (found by the lemma2 claim)."""
    from fractions import Fraction

    assert sample_size(0.99, 1, 0.9) == 2
    assert 1 - (1 - Fraction(0.9)) ** 2 >= Fraction(0.99)
    assert sample_size(0.75, 1, 0.5) == 2  # (1/2)**2 == 1 - 0.75 exactly: ">=" must accept equality
    assert sample_size(0.95, 10) == 3067  # the paper's n ~ 3000


@pytest.mark.parametrize(
    "args, exc, match",
    [
        ((0.0, 10, 0.5), ValueError, "alpha"),
        ((1.0, 10, 0.5), ValueError, "alpha"),
        ((0.95, 0, 0.5), ValueError, "max_len"),
        ((0.95, 2.0, 0.5), TypeError, "max_len"),
        ((0.95, 10, 1.0), ValueError, "p must"),
        ((0.95, 10, 0.01), ValueError, "exceeds"),  # (1 - 1e-20)**n: about 3e20 rows
        ((0.95, 2000, 0.5), ValueError, "exceeds"),  # p**max_len underflows to 0
    ],
)
def test_sample_size_refuses_bad_or_absurd_arguments(args, exc, match):
    """Found by mutmut: sample_size's own messages and its cap were untested (a sign flip in log(1 - alpha)
    silently disabled the cap)."""
    with pytest.raises(exc, match=match):
        sample_size(*args)


def test_to_dict_has_every_field_with_its_value():
    """Found by mutmut: renamed or dropped keys in to_dict went unnoticed; JSON consumers rely on them."""
    exp = Fred(sentiment, class_names=["neg", "pos"], random_state=0).explain(TEXT, eps=0.5)
    d = exp.to_dict()
    assert set(d) == {"tokens", "label", "class_name", "best_ids", "best", "drop", "threshold", "found",
                      "mean_prediction", "original_prediction", "importances", "n_samples", "p", "eps", "max_len",
                      "baseline", "sampler", "search", "counterfactuals"}
    for key in ("label", "class_name", "drop", "threshold", "found", "mean_prediction", "original_prediction",
                "n_samples", "p", "eps", "max_len", "baseline", "sampler", "search"):
        assert d[key] == getattr(exp, key), key
    assert d["tokens"] == list(exp.tokens) and d["best"] == list(exp.best) and d["best_ids"] == list(exp.best_ids)
    assert_allclose(d["importances"], exp.importances)
    assert d["counterfactuals"] == [c.to_dict() for c in exp.counterfactuals()]
