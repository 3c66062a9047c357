"""Public behaviour of ``Fred.explain``: bad input, determinism, result objects, the sampling law."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose

from fred import Explanation, Fred, sample_size
from fred.sampling import MAX_EXACT_TOKENS, ExactSampler, MaskSampler
from proofs_checks.statistics.seeds import statistical_seed


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
    "kwargs, exc, message",
    [
        ({"text": ""}, ValueError, "text must contain at least one non-whitespace token, got a blank string"),
        ({"text": "   \n\t"}, ValueError, "text must contain at least one non-whitespace token, got a blank string"),
        ({"text": 42}, TypeError, "text must be a str, got int"),
        ({"text": ["a", "b"]}, TypeError, "text must be a str, got list"),
        ({"p": 0.0}, ValueError, "p must lie in (0, 1), got 0.0"),
        ({"p": 1.0}, ValueError, "p must lie in (0, 1), got 1.0"),
        ({"p": float("nan")}, ValueError, "p must be a real number in (0, 1), got nan"),
        ({"p": -0.1}, ValueError, "p must lie in (0, 1), got -0.1"),
        ({"p": "0.5"}, TypeError, "p must be a real number in (0, 1), got str"),
        ({"p": True}, TypeError, "p must be a real number in (0, 1), got bool"),
        ({"eps": 0.0}, ValueError, "eps must lie in (0, 1], got 0.0"),
        ({"eps": 1.5}, ValueError, "eps must lie in (0, 1], got 1.5"),
        ({"eps": float("nan")}, ValueError, "eps must be a real number in (0, 1], got nan"),
        ({"max_len": 0}, ValueError, "max_len must be an integer >= 1, got 0"),
        ({"max_len": 2.5}, TypeError, "max_len must be an integer >= 1, got float"),
        ({"n_samples": 0}, ValueError, "n_samples must be an integer >= 1, got 0"),
        ({"n_samples": 10.0}, TypeError, "n_samples must be an integer >= 1, got float"),
        ({"alpha": 1.0}, ValueError, "alpha must lie in (0, 1), got 1.0"),
        ({"label": 2}, ValueError, "label must lie in [0, 2) for 2 classes, got 2"),
        ({"label": -1}, ValueError, "label must lie in [0, 2) for 2 classes, got -1"),
        ({"label": 1.0}, TypeError, "label must be None or an int, got float"),
    ],
)
def test_bad_explain_arguments_raise_naming_the_parameter(kwargs, exc, message):
    """Each bad value must be refused up front with exactly this message: parameter, allowed range, value."""
    args = {"text": TEXT, **kwargs}
    with pytest.raises(exc) as info:
        Fred(sentiment, random_state=0).explain(**args)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "output, exc, match",
    [
        (lambda n: np.zeros((n + 1, 2)), ValueError,
         r"classifier_fn must return shape \(1,\) or \(1, k\) for 1 texts, got \(2, 2\)"),
        (lambda n: np.zeros((n, 2, 1)), ValueError, r"classifier_fn must return shape .* got \(1, 2, 1\)"),
        (lambda n: np.full((n, 2), np.nan), ValueError, "classifier_fn returned NaN or infinite scores"),
        (lambda n: np.full((n, 2), np.inf), ValueError, "classifier_fn returned NaN or infinite scores"),
        (lambda n: np.array([["a", "b"]] * n), TypeError, "classifier_fn must return numeric scores, got dtype <U1"),
        (lambda n: np.zeros((n, 0)), ValueError, r"classifier_fn must return shape .* got \(1, 0\)"),
        (lambda n: [[0.5, 0.5], [0.1]][:n] if n == 2 else [[0.5, 0.5]] * n, TypeError,
         "classifier_fn must return an array of numbers, got list"),
        # ragged on the text itself: once escaped the check as a bare numpy ValueError
        (lambda n: [[0.5, 0.5], [0.1]], TypeError, "classifier_fn must return an array of numbers, got list"),
    ],
)
def test_bad_classifier_output_is_refused(output, exc, match):
    """A classifier returning the wrong shape, NaN/inf, strings or ragged lists must raise an error naming it."""
    with pytest.raises(exc, match="^" + match):
        Fred(lambda texts: output(len(texts)), random_state=0).explain(TEXT, n_samples=2)


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.float32, np.float64])
def test_integer_and_single_precision_scores_are_accepted(dtype):
    """Catches a dtype check that admits only one kind of number (e.g. only float64)."""
    def clf(texts):
        return np.array([[3 - ("great" in t.split()), 1 + ("great" in t.split())] for t in texts], dtype=dtype)

    exp = Fred(clf, random_state=0).explain(TEXT, label=1, n_samples=200)
    assert exp.best_ids == (TEXT.split().index("great"),)


def test_classifier_output_changing_shape_between_calls_is_refused():
    """A model returning k columns on the text and another number on the samples is a bug to report."""
    calls = []

    def clf(texts):
        calls.append(1)
        return np.zeros((len(texts), 2 if len(calls) == 1 else 3))

    with pytest.raises(ValueError, match="classifier_fn"):
        Fred(clf, random_state=0).explain(TEXT, n_samples=5)


@pytest.mark.parametrize(
    "kwargs, exc, message",
    [
        ({"classifier_fn": "not callable"}, TypeError, "classifier_fn must be callable, got str"),
        ({"sampler": "bogus"}, ValueError, "sampler must be 'mask', 'exact' or a Sampler object, got 'bogus'"),
        ({"sampler": 3}, TypeError, "sampler must be 'mask', 'exact' or a Sampler object, got int"),
        ({"search": "greedy"}, ValueError, "search must be one of ('auto', 'exhaustive', 'beam', 'released-beam'), got 'greedy'"),
        ({"baseline": "median"}, ValueError, "baseline must be one of ('mean', 'original'), got 'median'"),
        ({"beam_width": 0}, ValueError, "beam_width must be an integer >= 1, got 0"),
        ({"max_candidates": 0}, ValueError, "max_candidates must be an integer >= 1, got 0"),
        ({"mask_token": "two words"}, ValueError,
         "mask_token must be one non-empty token without whitespace, got 'two words'"),
        ({"mask_token": ""}, ValueError, "mask_token must be one non-empty token without whitespace, got ''"),
        ({"mask_token": 3}, TypeError, "mask_token must be one non-empty token without whitespace, got int"),
        ({"class_names": "ab"}, TypeError, "class_names must be a sequence of str or None"),
        ({"class_names": [1, 2]}, TypeError, "class_names must be a sequence of str or None"),
        ({"random_state": "seed"}, TypeError,
         "random_state must be None, an int, a numpy SeedSequence or a numpy Generator, got str"),
        ({"fast_path": 1}, TypeError, "fast_path must be a bool, got int"),
        ({"random_state": -1}, ValueError, "random_state must be a non-negative int when an int, got -1"),
    ],
)
def test_bad_constructor_arguments_raise(kwargs, exc, message):
    """Unknown names and wrong types are refused when the explainer is built, with exactly this message."""
    args = {"classifier_fn": sentiment, **kwargs}
    with pytest.raises(exc) as info:
        Fred(**args)
    assert str(info.value) == message


def test_documented_defaults():
    """Catches a changed default: beam width 4 (the authors' code), p 1/2, eps 0.15, max_len 10 (the paper)."""
    explainer = Fred(sentiment, random_state=0)
    exp = explainer.explain(TEXT, n_samples=20)
    assert (explainer.beam_width, exp.p, exp.eps, exp.max_len, exp.baseline, exp.sampler) == (
        4, 0.5, 0.15, 10, "mean", "mask")


class RecordingSampler(MaskSampler):
    """Mask sampler that records the generator each render receives."""

    def __init__(self):
        super().__init__()
        self.render_rngs = []

    def render(self, tokens, perturbed, rng):
        self.render_rngs.append(rng)
        return super().render(tokens, perturbed, rng)


def test_render_gets_the_explainers_generator():
    """Catches render called without the generator: a sampler that draws replacement words (POS) would not be
    reproducible from random_state."""
    sampler = RecordingSampler()
    Fred(sentiment, sampler=sampler, random_state=0, fast_path=False).explain(TEXT, n_samples=20)
    assert len(sampler.render_rngs) == 1 and isinstance(sampler.render_rngs[0], np.random.Generator)


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
    """n defaults to sample_size(alpha, p, min(max_len, b)): a wrong default changes every guarantee."""
    exp = Fred(sentiment, random_state=0).explain(TEXT, p=0.4, max_len=4, alpha=0.9)
    assert exp.n_samples == sample_size(0.9, 0.4, 4)
    exp = Fred(sentiment, random_state=0).explain(TEXT, max_len=10)
    assert exp.n_samples == sample_size(0.95, 0.5, 6)


def test_regression_output_explains_the_single_column():
    """A 1-d output has no label; giving one is an error; counterfactuals need classes."""
    reg = lambda texts: sentiment(texts)[:, 1]  # noqa: E731
    exp = Fred(reg, random_state=0).explain(TEXT)
    assert exp.label is None
    with pytest.raises(ValueError, match=r"^label must be None when classifier_fn returns a 1-d \(regression\)"):
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
    seed = statistical_seed(11)
    exp = Fred(lambda t: np.zeros(len(t)), random_state=seed).explain(" ".join("abcdefgh"), p=p, n_samples=n)
    z = exp.sample_perturbed
    tol = math.sqrt(math.log(2 / delta) / (2 * n * b))
    assert abs(z.mean() - p) <= tol, f"mean {z.mean()} vs p={p}, tol {tol}, seed {seed}"
    assert z.shape == (n, b)


@pytest.mark.parametrize(
    "args, exc, message",
    [
        ((0.0, 0.5, 10), ValueError, "alpha must lie in (0, 1), got 0.0"),
        ((1.0, 0.5, 10), ValueError, "alpha must lie in (0, 1), got 1.0"),
        ((0.95, 0.5, 0), ValueError, "max_len must be an integer >= 1, got 0"),
        ((0.95, 0.5, 2.0), TypeError, "max_len must be an integer >= 1, got float"),
        ((0.95, 1.0, 10), ValueError, "p must lie in (0, 1), got 1.0"),
        # (1 - 1e-20)**n: about 3e20 rows
        ((0.95, 0.01, 10), ValueError, "sample_size(alpha=0.95, p=0.01, max_len=10) exceeds 10000000 samples; "
                                       "raise p, lower max_len or alpha, or pass n_samples explicitly"),
        # p**max_len underflows to 0
        ((0.95, 0.5, 2000), ValueError, "sample_size(alpha=0.95, p=0.5, max_len=2000) exceeds 10000000 samples; "
                                        "raise p, lower max_len or alpha, or pass n_samples explicitly"),
    ],
)
def test_sample_size_refuses_bad_or_absurd_arguments(args, exc, message):
    """Found by mutmut: sample_size's own messages and its cap were untested (a sign flip in log(1 - alpha)
    silently disabled the cap)."""
    with pytest.raises(exc) as info:
        sample_size(*args)
    assert str(info.value) == message


def test_mask_sampler_defaults_and_equal_weights():
    """Catches a default mask other than 'UNK' and Monte Carlo weights other than 1/n (Eq. 3 is a plain mean)."""
    sampler = MaskSampler()
    design = sampler.draw(3, 0.5, 8, np.random.default_rng(0))
    assert sampler.mask_token == "UNK" and design.perturbed.dtype == bool
    assert design.weights.tolist() == [0.125] * 8
    assert sampler.render(["a", "b", "c"], np.array([[True, False, True]]), None) == ["UNK b UNK"]


def test_exact_sampler_accepts_twenty_tokens_and_refuses_twenty_one():
    """Catches an off-by-one in the exact sampler's size limit (2**20 patterns are allowed)."""
    assert MAX_EXACT_TOKENS == 20
    design = ExactSampler().draw(20, 0.5, None, None)
    assert design.perturbed.shape == (2**20, 20) and design.perturbed.dtype == bool
    with pytest.raises(ValueError, match="at most b=20 tokens, got b=21"):
        ExactSampler().draw(21, 0.5, None, None)


def test_sampler_pos_by_name_explains_what_to_pass():
    """Catches 'pos' falling through to the generic message: it needs a corpus, so the error says how."""
    with pytest.raises(ValueError) as info:
        Fred(sentiment, sampler="pos")
    assert str(info.value) == ("sampler='pos' needs a corpus to build its dictionaries: pass "
                               "sampler=fred.pos.PosSampler(corpus) (requires the 'pos' extra)")


def test_to_dict_has_every_field_with_its_value():
    """Found by mutmut: renamed or dropped keys in to_dict went unnoticed; JSON consumers rely on them."""
    exp = Fred(sentiment, class_names=["neg", "pos"], random_state=0).explain(TEXT, eps=0.5)
    d = exp.to_dict()
    assert set(d) == {"tokens", "label", "class_name", "best_ids", "best", "drop", "threshold", "found",
                      "mean_prediction", "original_prediction", "importances", "n_samples", "p", "eps", "max_len",
                      "baseline", "sampler", "search", "fast_path", "counterfactuals"}
    for key in ("label", "class_name", "drop", "threshold", "found", "mean_prediction", "original_prediction",
                "n_samples", "p", "eps", "max_len", "baseline", "sampler", "search"):
        assert d[key] == getattr(exp, key), key
    assert d["tokens"] == list(exp.tokens) and d["best"] == list(exp.best) and d["best_ids"] == list(exp.best_ids)
    assert_allclose(d["importances"], exp.importances)
    assert d["fast_path"] == {"active": exp.fast_path.active, "reason": exp.fast_path.reason}
    assert d["counterfactuals"] == [c.to_dict() for c in exp.counterfactuals()]


# --------------------------------------------------------------------------- result objects, exactly
# Hand-built explanations with hand-written expected output: the printed form, the HTML map and the
# counterfactuals are what users read, so a wrong word, colour or order is a bug (found by mutmut).

SAMPLES = np.array([[0, 0, 0, 0], [0, 0, 0, 1], [1, 1, 0, 1], [0, 1, 0, 1], [0, 0, 0, 1], [1, 0, 0, 0]], bool)
SAMPLE_SCORES = np.array([[0.1, 0.9], [0.8, 0.2], [0.6, 0.4], [0.7, 0.3], [0.8, 0.2], [0.55, 0.45]])


def hand_built(**changes) -> Explanation:
    base = Explanation(
        tokens=("the", "food", "&", "great"), label=1, class_name="pos", best_ids=(3,), drop=0.5, threshold=0.075,
        found=True, mean_prediction=0.5, original_prediction=0.9, importances=np.array([0.0, -0.25, np.nan, 0.5]),
        n_samples=6, p=0.5, eps=0.15, max_len=10, baseline="mean", sampler="mask", search="exhaustive",
        class_names=("neg", "pos"), sample_perturbed=SAMPLES, sample_scores=SAMPLE_SCORES)
    return dataclasses.replace(base, **changes)


def test_counterfactuals_fewest_perturbations_sampling_order_no_duplicates():
    """Catches unstable tie order, repeated patterns, and texts not rebuilt when the fast path kept none."""
    cfs = hand_built().counterfactuals()
    assert [c.to_dict() for c in cfs] == [
        {"text": "the food & UNK", "perturbed_ids": [3], "predicted_label": 0, "predicted_class": "neg", "score": 0.2},
        {"text": "UNK food & great", "perturbed_ids": [0], "predicted_label": 0, "predicted_class": "neg",
         "score": 0.45},
        {"text": "the UNK & UNK", "perturbed_ids": [1, 3], "predicted_label": 0, "predicted_class": "neg",
         "score": 0.3},
    ]
    kept = tuple(f"text {i}" for i in range(len(SAMPLES)))
    assert [c.text for c in hand_built(sample_texts=kept).counterfactuals()] == ["text 1", "text 5", "text 3"]
    assert hand_built().counterfactuals(k=0) == ()
    assert [c.perturbed_ids for c in hand_built().counterfactuals(k=10)] == [(3,), (0,), (1, 3), (0, 1, 3)]


def test_counterfactual_ties_keep_sampling_order_among_many_rows():
    """Catches an unstable sort: 210 distinct one- and two-token patterns in random order must come out
    ordered by count and, within a count, in sampling order (numpy's default quicksort breaks this)."""
    patterns = [(i,) for i in range(20)] + list(itertools.combinations(range(20), 2))
    order = np.random.default_rng(5).permutation(len(patterns))
    perturbed = np.zeros((len(patterns) + 1, 20), bool)
    for row, k in enumerate(order, start=1):
        perturbed[row, list(patterns[k])] = True
    scores = np.tile([0.9, 0.1], (len(perturbed), 1))
    scores[0] = [0.1, 0.9]
    exp = hand_built(tokens=tuple("abcdefghijklmnopqrst"), sample_perturbed=perturbed, sample_scores=scores,
                     importances=np.zeros(20), n_samples=len(perturbed))
    expected = [patterns[k] for size in (1, 2) for k in order if len(patterns[k]) == size]
    assert [c.perturbed_ids for c in exp.counterfactuals(k=len(patterns))] == expected


@pytest.mark.parametrize("k, exc", [(-1, ValueError), (True, TypeError), (1.5, TypeError), ("2", TypeError)])
def test_counterfactuals_refuse_bad_k(k, exc):
    """Catches a k check that needs two faults at once, refuses k = 0, or raises ValueError for a wrong type."""
    with pytest.raises(exc, match="k must be an integer >= 0"):
        hand_built().counterfactuals(k=k)


@pytest.mark.parametrize("target, exc", [(-1, ValueError), (2, ValueError), (True, TypeError), (1.0, TypeError)])
def test_counterfactuals_refuse_bad_target(target, exc):
    """Catches a target check that admits an out-of-range, boolean or float class, or raises ValueError for a
    wrong type."""
    with pytest.raises(exc, match=r"target must be an integer in \[0, 2\)"):
        hand_built().counterfactuals(target=target)


def test_counterfactuals_towards_class_zero_and_need_class_scores():
    """Catches refusing target 0, and serving counterfactuals of a regression output."""
    assert [c.predicted_label for c in hand_built().counterfactuals(target=0)] == [0, 0, 0]
    for changes in ({"label": None}, {"sample_scores": None}, {"sample_scores": SAMPLE_SCORES[:, :1]}):
        with pytest.raises(ValueError, match=r"^counterfactuals need class scores \(classifier_fn returning"):
            hand_built(**changes).counterfactuals()
        assert "counterfactuals" not in hand_built(**changes).to_dict()


def test_str_reads_like_figure_1():
    """Catches any change to the printed explanation: wording, numbers, counterfactual highlighting."""
    assert str(hand_built()) == "\n".join([
        'Explaining class "pos":',
        'The minimal subset of tokens that make the confidence drop by 15.0% if perturbed is {"great"}',
        "(drop 0.5, threshold 0.075, mean prediction 0.5, original prediction 0.9; n=6, p=0.5, sampler=mask, "
        "baseline=mean)",
        "k=3 samples with minimal perturbation classified otherwise:",
        '"the food & [UNK]" -> "neg"',
        '"[UNK] food & great" -> "neg"',
        '"the [UNK] & [UNK]" -> "neg"',
    ])


def test_str_of_unfound_unnamed_and_regression_explanations():
    """Catches the wrong branch for 'not found', 'no candidate', unnamed classes and regression outputs."""
    unnamed = str(hand_built(found=False, class_name=None, class_names=None))
    assert unnamed.splitlines()[:2] == [
        'Explaining class "1":',
        'No subset of at most 10 tokens makes the confidence drop by 15.0%; the best found is {"great"}']
    assert unnamed.splitlines()[-1] == '"the [UNK] & [UNK]" -> "0"'
    empty = str(hand_built(found=False, best_ids=(), drop=None))
    assert empty.splitlines()[1:3] == [
        "No candidate could be evaluated: no sample perturbs any token.",
        "(drop undefined, threshold 0.075, mean prediction 0.5, original prediction 0.9; n=6, p=0.5, "
        "sampler=mask, baseline=mean)"]
    regression = str(hand_built(label=None, class_name=None, sample_scores=SAMPLE_SCORES[:, :1]))
    assert regression.splitlines() == [
        "Explaining the regression output:",
        'The minimal subset of tokens that make the prediction drop by 15.0% if perturbed is {"great"}',
        "(drop 0.5, threshold 0.075, mean prediction 0.5, original prediction 0.9; n=6, p=0.5, sampler=mask, "
        "baseline=mean)"]


def test_str_without_class_scores_has_no_counterfactual_section():
    """Catches the counterfactual section attempted without two-column scores or without an explained class."""
    for changes in ({"sample_scores": None}, {"label": None, "class_name": None}):
        lines = str(hand_built(**changes)).splitlines()
        assert len(lines) == 3 and lines[2].startswith("(drop 0.5"), changes


def test_to_html_colours_scale_and_underline():
    """Catches a wrong colour, opacity scale, escaping or underlined set in the saliency map."""
    assert hand_built().to_html() == (
        '<div class="fred-explanation">'
        '<span style="background-color: rgba(0,128,0,0.000);" title="s_0 = 0">the</span> '
        '<span style="background-color: rgba(200,0,0,0.500);" title="s_1 = -0.25">food</span> '
        '<span style="" title="s_2 undefined">&amp;</span> '
        '<span style="background-color: rgba(0,128,0,1.000); text-decoration: underline; font-weight: bold;" '
        'title="s_3 = 0.5">great</span></div>')
    flat = hand_built(importances=np.zeros(4), best_ids=()).to_html()
    assert flat.count("rgba(0,128,0,0.000)") == 4 and "underline" not in flat
