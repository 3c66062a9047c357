"""Metrics of fred.evaluation.metrics on hand-made models whose answers are computed by hand."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from fred.evaluation import metrics

WEIGHTS = {"a": 0.1, "b": 0.2, "c": 0.3}
trapezoid = getattr(np, "trapezoid", None) or np.trapz  # numpy < 2 names it trapz


def linear(texts, weights=WEIGHTS, bias=0.1):
    """Bag-of-words additive model; unknown words (UNK included) weigh 0."""
    return np.array([bias + sum(weights.get(w, 0.0) for w in t.split()) for t in texts])


def length_model(texts):
    """0.1 per token, whatever the token: sees the document length but not the words."""
    return np.array([0.1 * len(t.split()) for t in texts])


def unk_counter(step):
    """1 - step * (number of UNK tokens): the MoRF curve is 1 - step * k by construction."""
    return lambda texts: np.array([1.0 - step * t.split().count("UNK") for t in texts])


def test_comprehensiveness_by_hand():
    """f(abc) = 0.7, f(a UNK c) = 0.5, so 0.2; catches masking the wrong position or a flipped sign."""
    got = metrics.comprehensiveness(linear, ["a", "b", "c"], [1])
    assert_allclose(got, 0.2, rtol=0, atol=1e-12, err_msg=f"expected 0.2, got {got}")


def test_comprehensiveness_masks_positions_not_words():
    """Repeated word: removing position 0 must leave the copy at position 1; catches word-based masking."""
    f = lambda ts: np.array([0.4 * t.split().count("good") for t in ts])
    got = metrics.comprehensiveness(f, ["good", "good"], [0])
    assert_allclose(got, 0.4, rtol=0, atol=1e-12, err_msg=f"expected 0.4, got {got}")


def test_sufficiency_masks_the_complement():
    """e = {a, c}: f(a UNK c) = 0.5, f(xi) = 0.7, so 0.2; catches masking e instead of its complement."""
    got = metrics.sufficiency(linear, ["a", "b", "c"], [0, 2])
    assert_allclose(got, 0.2, rtol=0, atol=1e-12, err_msg=f"expected 0.2, got {got}")


def test_sufficiency_readings_differ_on_a_length_model():
    """Masked reading keeps 3 tokens (0.3 - 0.3 = 0); literal reading keeps 2 (0.3 - 0.2 = 0.1).

    Catches the two definitions being swapped or merged.
    """
    tokens, ids = ["a", "b", "c"], [0, 2]
    assert_allclose(metrics.sufficiency(length_model, tokens, ids), 0.0, atol=1e-12)
    assert_allclose(metrics.sufficiency_alone(length_model, tokens, ids), 0.1, atol=1e-12)


def test_sufficiency_alone_keeps_text_order():
    """The literal reading joins e's tokens in text order whatever order ids come in."""
    seen = []

    def f(texts):
        seen.extend(texts)
        return np.zeros(len(texts))

    metrics.sufficiency_alone(f, ["x", "y", "z"], [2, 0])
    assert seen[-1] == "x z", f"expected 'x z', got {seen[-1]!r}"


def test_aucmorf_paper_definition_by_hand():
    """Curve 1 - 0.1k over 3 ranked tokens: ((.9+.8)/2 + (.8+.7)/2) / 3 = 1.6/3.

    Catches starting the sum at k = 1 (would add (1+.9)/2) or dividing by D - 1.
    """
    got = metrics.aucmorf(unk_counter(0.1), ["a", "b", "c"], [0, 1, 2])
    assert_allclose(got, 1.6 / 3, rtol=0, atol=1e-12, err_msg=f"expected {1.6 / 3}, got {got}")


def test_aucmorf_caps_depth_at_20():
    """25 ranked tokens, curve 1 - 0.01k: D = 20 and the value is 17.005 / 20 (sum worked by hand).

    sum_{k=2}^{20} (1 - 0.005 (2k - 1)) = 19 - 0.005 * (20**2 - 1) = 17.005. Catches a missing cap.
    """
    tokens = [f"w{i}" for i in range(25)]
    got = metrics.aucmorf(unk_counter(0.01), tokens, list(range(25)))
    assert_allclose(got, 17.005 / 20, rtol=0, atol=1e-12, err_msg=f"expected {17.005 / 20}, got {got}")


@pytest.mark.parametrize("ranking", [[], [1]])
def test_aucmorf_undefined_below_two_positive_tokens(ranking):
    """D <= 1 leaves the paper's sum empty; the documented choice is NaN, never a perfect 0."""
    got = metrics.aucmorf(unk_counter(0.1), ["a", "b", "c"], ranking)
    assert math.isnan(got), f"ranking={ranking}: expected nan, got {got}"


def test_aucmorf_authors_by_hand_with_padding():
    """One positive token of 4: c = 1, r, r, r, r with r = 0.4/0.7; area (1 + r)/2 + 3r over D' = 4.

    Catches padding to |e+| instead of min(20, |xi|), or forgetting c_0 = 1.
    """
    tokens = ["a", "b", "c", "zz"]  # zz weighs 0: f(xi) = 0.7, masking c gives 0.4
    r = 0.4 / 0.7
    expected = ((1 + r) / 2 + 3 * r) / 4
    got = metrics.aucmorf_authors(linear, tokens, [2])
    assert_allclose(got, expected, rtol=0, atol=1e-12, err_msg=f"expected {expected}, got {got}")


def test_aucmorf_authors_is_scale_free_and_paper_is_not():
    """Doubling the model leaves the normalised variant unchanged and doubles the paper's value."""
    tokens, ranking = ["a", "b", "c"], [2, 1, 0]
    double = lambda ts: 2 * linear(ts)
    assert_allclose(metrics.aucmorf_authors(double, tokens, ranking),
                    metrics.aucmorf_authors(linear, tokens, ranking), rtol=1e-12)
    assert_allclose(metrics.aucmorf(double, tokens, ranking), 2 * metrics.aucmorf(linear, tokens, ranking),
                    rtol=1e-12)


def test_aucmorf_authors_empty_ranking_is_one_and_zero_score_refused():
    """Empty e+ gives 1 (no decrease) as in the authors' code; f(xi) = 0 cannot be normalised."""
    assert metrics.aucmorf_authors(linear, ["a"], []) == 1.0
    with pytest.raises(ValueError, match="f\\(xi\\)"):
        metrics.aucmorf_authors(lambda ts: np.zeros(len(ts)), ["a", "b"], [0])


@st.composite
def morf_cases(draw):
    n = draw(st.integers(1, 30))
    weights = draw(st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n))
    ranking = draw(st.permutations(range(n)).map(lambda p: p[: draw(st.integers(0, n))]))
    return n, weights, ranking


@given(morf_cases())
def test_aucmorf_variants_match_numpy_trapezoid(case):
    """Both variants against numpy's trapezoid rule on a curve built here token by token (independent path)."""
    n, weights, ranking = case
    w = dict(zip((f"t{i}" for i in range(n)), weights))
    tokens = list(w)
    f = lambda ts: linear(ts, w, bias=1.0)
    curve = [1.0 + sum(weights)]
    for i in ranking[:20]:
        curve.append(curve[-1] - weights[i])
    curve = np.array(curve)
    depth = min(20, len(ranking))
    paper = metrics.aucmorf(f, tokens, ranking)
    if depth <= 1:
        assert math.isnan(paper)
    else:
        assert_allclose(paper, trapezoid(curve[1 : depth + 1]) / depth, rtol=1e-9,
                        err_msg=f"n={n} ranking={ranking}")
    width = min(20, n)
    padded = np.concatenate([curve[: depth + 1], np.full(width - depth, curve[depth])]) / curve[0]
    expected = trapezoid(padded) / width if depth else 1.0
    assert_allclose(metrics.aucmorf_authors(f, tokens, ranking), expected, rtol=1e-9,
                    err_msg=f"n={n} ranking={ranking}")


def test_jaccard_and_robustness_by_hand():
    """J({1,2},{1,2}) = 1, J({1,2},{2}) = 1/2, J({1,2},{3}) = 0, mean 1/2; J(empty, empty) = 1."""
    assert metrics.robustness([1, 2], [[1, 2], [2], [3]]) == pytest.approx(0.5, abs=1e-15)
    assert metrics.jaccard([], []) == 1.0
    assert metrics.jaccard([1], []) == 0.0
    with pytest.raises(ValueError, match="reruns"):
        metrics.robustness([1], [])


def test_proportion_by_hand_and_bad_input():
    """|{0, 3}| / 8 = 0.25 (repeated ids counted once); out-of-range positions refused."""
    assert metrics.proportion([0, 3, 3], 8) == 0.25
    with pytest.raises(ValueError, match="ids"):
        metrics.proportion([8], 8)
    with pytest.raises(ValueError, match="n_tokens"):
        metrics.proportion([], 0)


def test_positive_ranking_drops_zero_negative_nan():
    """Only strictly positive finite scores, by decreasing score, ties to the smaller position."""
    assert metrics.positive_ranking([0.2, 0.0, np.nan, 0.5, -1.0, 0.2]) == (3, 0, 5)


def test_bad_model_output_refused():
    """A model returning the wrong shape is named in a ValueError, not a numpy broadcasting error."""
    with pytest.raises(ValueError, match="1-d array"):
        metrics.comprehensiveness(lambda ts: np.zeros((len(ts), 2)), ["a"], [0])


def test_timed_returns_result_and_duration():
    """timed returns the call's value and a non-negative duration."""
    value, seconds = metrics.timed(sum, [1, 2])
    assert value == 3 and seconds >= 0


@pytest.mark.parametrize("value, exc", [(2.0, TypeError), (True, TypeError), (0, ValueError)])
def test_integer_arguments_refuse_wrong_types_with_typeerror(value, exc):
    """Catches a wrong type reported as ValueError (the project's rule: TypeError for a type, ValueError for a
    value), for the MoRF depth and the document length."""
    f = lambda texts: np.ones(len(texts))  # noqa: E731
    with pytest.raises(exc, match=r"^max_perturbations must be an integer >= 1, got "):
        metrics.aucmorf(f, ["a", "b"], [0, 1], max_perturbations=value)
    with pytest.raises(exc, match=r"^n_tokens must be an integer >= 1, got "):
        metrics.proportion([], value)
