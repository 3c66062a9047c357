"""The exact sampler against expectations enumerated here with ``itertools.product``."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from analytic import exact_explain
from fred import Fred
from fred.sampling import ExactSampler, MaskSampler, Perturbations

EXACT_RTOL = 1e-12


def table_classifier(table: dict[tuple[bool, ...], float], mask: str = "UNK"):
    """A black box defined by a value per perturbation pattern, recovered from the mask positions."""

    def classifier_fn(texts):
        return np.array([table[tuple(w == mask for w in t.split())] for t in texts])

    return classifier_fn


def enumerate_drops(table, b, p, subset, reference=None):
    """E[f] - E[f | subset perturbed] (Eq. 1), or reference - E[f | subset perturbed]."""
    mean = sum(v * p ** sum(z) * (1 - p) ** (b - sum(z)) for z, v in table.items())
    cond = [(v, p ** sum(z) * (1 - p) ** (b - sum(z))) for z, v in table.items() if all(z[j] for j in subset)]
    cond_mean = sum(v * w for v, w in cond) / sum(w for _, w in cond)
    return (mean if reference is None else reference) - cond_mean, mean


@st.composite
def tables(draw):
    b = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values = rng.normal(size=2**b)
    table = {z: float(v) for z, v in zip(itertools.product([False, True], repeat=b), values)}
    return b, table


@given(tables(), st.floats(0.02, 0.98), st.sampled_from(["mean", "original"]))
def test_exact_importances_and_mean_match_enumeration(bt, p, baseline):
    """Catches dropped or wrong pattern weights (e.g. uniform weights, or p and 1-p swapped) and a
    baseline computed from the wrong reference."""
    b, table = bt
    text = " ".join(f"t{i}" for i in range(b))
    exp = Fred(table_classifier(table), sampler="exact", baseline=baseline).explain(text, p=p, eps=1.0, max_len=b)
    f_text = table[(False,) * b]
    ref = None if baseline == "mean" else f_text
    expected = [enumerate_drops(table, b, p, (j,), ref)[0] for j in range(b)]
    mean = enumerate_drops(table, b, p, (0,))[1]
    assert_allclose(exp.importances, expected, rtol=EXACT_RTOL, atol=1e-12, err_msg=f"b={b} p={p} {baseline}")
    assert_allclose(exp.mean_prediction, mean, rtol=EXACT_RTOL)
    assert exp.n_samples == 2**b
    if exp.best_ids:
        want, _ = enumerate_drops(table, b, p, exp.best_ids, ref)
        assert_allclose(exp.drop, want, rtol=EXACT_RTOL, atol=1e-12)


def test_threshold_met_with_equality_counts_as_found():
    """The paper selects when drop >= eps * E[f]; an implementation with `>` misses this exact tie.

    f = 1{w present}, document "w", p = 1/2: E[f] = 1/2, drop of {0} = 1/2 = eps * E[f] with eps = 1,
    all dyadic so the comparison is exact in floating point.
    """
    clf = lambda texts: np.array([float("w" in t.split()) for t in texts])  # noqa: E731
    exp = Fred(clf, sampler="exact").explain("w", p=0.5, eps=1.0)
    assert exp.drop == 0.5 and exp.threshold == 0.5
    assert exp.found


def test_exact_sampler_refuses_long_documents():
    """2**21 patterns would exhaust memory silently; the error must name the limit and the alternative."""
    import pytest

    clf = lambda texts: np.zeros(len(texts))  # noqa: E731
    with pytest.raises(ValueError, match="b=20.*mask"):
        Fred(clf, sampler="exact").explain(" ".join(["a"] * 21))


def test_eps_one_finds_the_candidate_that_removes_the_shortcut():
    """Regression (found by the prop2-shortcut claim): at eps = 1 the threshold equals E[f] and the drop of
    removing every occurrence of the shortcut word is E[f] - 0, but the weighted mean rounded it one ulp
    below the threshold and FRED answered found=False. f = 1{w2 present}, p = 0.9."""
    clf = lambda texts: np.array([float("w2" in t.split()) for t in texts])  # noqa: E731
    exp = Fred(clf, sampler="exact").explain("w2 w2", p=0.9, eps=1.0)
    assert exp.found and exp.best == ("w2", "w2")
    assert_allclose(exp.drop, exp.threshold, rtol=1e-14)


def linear_classifier(weights, intercept=0.0):
    """f = intercept + sum of the weights of the unmasked positions (regression output)."""
    def classifier_fn(texts):
        return np.array([intercept + sum(a for a, w in zip(weights, t.split()) if w != "UNK") for t in texts])

    return classifier_fn


def test_tie_tolerance_is_relative_to_the_largest_prediction():
    """Catches a tie tolerance divided by, or not scaled with, max |f| over the samples and the text (1e-12 relative).

    Drops are (1 - p) a_i with p = 1/2, all dyadic, so exact: 2^-31 apart at |f| ~ 2e4 is a tie (won by the
    smaller position); 2^-39 apart at |f| < 1 is not. In the third case the text predicts 0.5 but masked
    samples reach 2e4, so the samples' scale must count too."""
    text = "a b"
    big = Fred(linear_classifier([1e4, 1e4 + 2**-30]), sampler="exact").explain(text, eps=0.01, max_len=1)
    assert big.best_ids == (0,)
    small = Fred(linear_classifier([0.25, 0.25 + 2**-38]), sampler="exact").explain(text, eps=0.01, max_len=1)
    assert small.best_ids == (1,)
    # below 1 the tolerance is floored at 1e-12: drops 2^-41 apart (4.5e-13) tie even though max|f| ~ 0.02
    tiny = Fred(linear_classifier([0.01, 0.01 + 2**-40]), sampler="exact").explain(text, eps=0.01, max_len=1)
    assert tiny.best_ids == (0,)
    rising = linear_classifier([-1e4 - 2**-30, -1e4], 2e4 + 2**-30 + 0.5)  # f(text) = 0.5, f(all masked) ~ 2e4
    exp = Fred(rising, sampler="exact").explain(text, eps=0.01, max_len=1)
    assert (exp.original_prediction, exp.found, exp.best_ids) == (0.5, False, (0,))


def test_exhaustive_search_is_exhaustive_whatever_the_beam_width():
    """Catches the explainer handing the search another strategy than the one resolved (a width-1 beam misses
    the best pair): 40 random black boxes on 5 tokens, FRED exhaustive vs the exact referee of analytic/."""
    rng = np.random.default_rng(11)
    b, p, eps = 5, 0.5, 0.3
    differs = 0
    for _ in range(40):
        values = 1 + 0.5 * rng.normal(size=2**b)  # E[f] ~ 1: the threshold is rarely met by one token
        table = {z: float(v) for z, v in zip(itertools.product([False, True], repeat=b), values)}
        codes = np.zeros(2**b)
        for z, v in table.items():
            codes[sum(1 << i for i, zi in enumerate(z) if zi)] = v
        referee = exact_explain(codes, p, eps, 3)
        clf, text = table_classifier(table), " ".join("abcde")
        exp = Fred(clf, sampler="exact", search="exhaustive", beam_width=1).explain(text, p=p, eps=eps, max_len=3)
        assert (exp.best_ids, exp.found) == (referee.best_ids, referee.found)
        assert_allclose(exp.drop, referee.drop, rtol=EXACT_RTOL)
        beam = Fred(clf, sampler="exact", search="beam", beam_width=1).explain(text, p=p, eps=eps, max_len=3)
        differs += beam.best_ids != exp.best_ids
    assert differs > 0  # the check has teeth: a width-1 beam really does answer differently on some of them


class FrequencySampler(MaskSampler):
    """The exact design, weighted by expected counts in 1000 rows instead of probabilities."""

    name = "frequency"

    def draw(self, n_tokens, p, n_samples, rng):
        design = ExactSampler().draw(n_tokens, p, None, rng)
        return Perturbations(design.perturbed, 1000 * design.weights)


def test_sampler_weights_need_not_sum_to_one():
    """Catches E[f] computed as a weighted sum instead of a weighted mean: frequency weights must give the
    exact sampler's numbers."""
    clf = linear_classifier([1.0, 3.0, -2.0], 0.5)
    want = Fred(clf, sampler="exact").explain("a b c", eps=0.5)
    got = Fred(clf, sampler=FrequencySampler()).explain("a b c", eps=0.5)
    # closed forms of Eq. (6) at p = 1/2: E[f] = 0.5 + (1 - p) sum(a), s_i = (1 - p) a_i
    assert_allclose(got.mean_prediction, 1.5, rtol=EXACT_RTOL)
    assert_allclose(got.importances, [0.5, 1.5, -1.0], rtol=EXACT_RTOL)
    assert (got.best_ids, got.found) == (want.best_ids, want.found)


def test_label_zero_and_the_mask_token_reach_the_explanation():
    """Catches label 0 refused, and the explainer's mask token lost on the way to the explanation."""
    def clf(texts):
        return np.array([[0.9, 0.1] if "good" in t.split() else [0.2, 0.8] for t in texts])

    exp = Fred(clf, mask_token="MASK", random_state=0).explain("good food", label=0, n_samples=50)
    assert (exp.label, exp.mask_token, exp.best) == (0, "MASK", ("good",))
    assert all("MASK" in c.text.split() for c in exp.counterfactuals())
