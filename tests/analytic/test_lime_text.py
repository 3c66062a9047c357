"""LIME for text exactly (analytic/lime_text.py): the closed form against the enumeration, the enumeration against
scikit-learn's own weighted ridge on a design built here from LIME's sampling law, and the installed ``lime``
against both (its sampler's law, statistically; its coefficients against the ridge on its own sample).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.metrics.pairwise import cosine_distances

from analytic import L2NormalisedLinearModel, linear_table, masked_texts
from analytic.lime_text import (
    RIDGE_ALPHA,
    lime_additive,
    lime_coefficients,
    lime_kernel,
    lime_l2_linear,
    lime_linear_sym,
    lime_pattern_law,
)
from fred_constants import DELTA
from proofs_checks.statistics.seeds import statistical_seed
from proofs_checks.strategies import black_box_tables

weights_strategy = st.lists(st.floats(-3.0, 3.0, allow_nan=False), min_size=2, max_size=5)
sample_sizes = st.sampled_from([None, 2, 10, 100, 5000])


def lime_rows_by_counting(d: int, n_samples: int | None, kernel_width: float = 25.0):
    """LIME's design written from its source, independently of analytic: every subset of s = 1..d removed
    features (itertools), probability (1/d) / C(d, s); weight sqrt(exp(-D^2 / w^2)) with D = 100 times the
    cosine distance scikit-learn computes (a zero row is at distance 1); row 0 (the document, weight 1) added at n.
    Returns (kept indicator rows, weights, removed feature sets)."""
    rows, weights, removed_sets = [], [], []
    for s in range(1, d + 1):
        for removed in itertools.combinations(range(d), s):
            z = np.ones(d)
            z[list(removed)] = 0
            distance = 100 * cosine_distances(z[None, :], np.ones((1, d)))[0, 0]
            kernel = math.sqrt(math.exp(-(distance**2) / kernel_width**2))
            rows.append(z)
            weights.append((1 if n_samples is None else n_samples - 1) * kernel / (d * math.comb(d, s)))
            removed_sets.append(removed)
    if n_samples is not None:
        rows.append(np.ones(d))
        weights.append(1.0)
        removed_sets.append(())
    return np.array(rows), np.array(weights), removed_sets


def table_value(table, removed_positions) -> float:
    return float(table[sum(1 << i for i in removed_positions)])


@given(weights_strategy, st.floats(-2.0, 2.0, allow_nan=False), sample_sizes)
def test_additive_closed_form_equals_enumeration(weights, intercept, n_samples):
    """Catches a wrong moment m0, m1, m2, a wrong Sherman-Morrison term (the S c alpha / (a + d c) shift), the
    ridge penalty or row 0 misplaced in the closed form, or a wrong intercept: the closed form against the plain
    weighted normal equations over all 2^d patterns, on f = lambda_0 + sum A_i z_i."""
    closed = lime_additive(weights, intercept, n_samples)
    enumerated = lime_coefficients(linear_table(weights, intercept), n_samples)
    scale = max(1.0, max(abs(w) for w in weights), abs(intercept))
    assert_allclose(closed.coef, enumerated.coef, rtol=1e-9, atol=1e-9 * scale)
    assert_allclose(closed.intercept, enumerated.intercept, rtol=1e-9, atol=1e-9 * scale)


@given(black_box_tables(min_tokens=2, max_tokens=4), sample_sizes)
def test_enumeration_equals_sklearn_weighted_ridge(table, n_samples):
    """Catches a wrong sampling law (sizes 0..d instead of 1..d, a missing 1/C(d, s)), a wrong kernel (width,
    the factor 100, the square root), the penalty applied to the intercept or row 0 forgotten: the enumeration
    against scikit-learn's Ridge(alpha=1) / LinearRegression with sample weights on a design built here."""
    d = int(np.log2(table.size))
    rows, weights, removed = lime_rows_by_counting(d, n_samples)
    y = np.array([table_value(table, r) for r in removed])
    model = LinearRegression() if n_samples is None else Ridge(alpha=RIDGE_ALPHA)
    model.fit(rows, y, sample_weight=weights)
    ours = lime_coefficients(table, n_samples)
    assert_allclose(ours.coef, model.coef_, rtol=1e-7, atol=1e-7)
    assert_allclose(ours.intercept, model.intercept_, rtol=1e-7, atol=1e-7)


@given(black_box_tables(min_tokens=3, max_tokens=5), sample_sizes, st.data())
def test_columns_fit_the_kept_features_alone(table, n_samples, data):
    """Catches the fit on lime's kept features (its feature selection) computed with the kernel or the sampling law
    of the kept features only, or with the left-out features still in the design: the enumeration with
    ``columns`` against scikit-learn's weighted regression on the columns of a design built here from LIME's law
    over all d features (weights unchanged), and, with every column kept, the plain enumeration."""
    d = int(np.log2(table.size))
    kept = sorted(data.draw(st.lists(st.integers(0, d - 1), min_size=1, max_size=d - 1, unique=True)))
    rows, weights, removed = lime_rows_by_counting(d, n_samples)
    y = np.array([table_value(table, r) for r in removed])
    model = LinearRegression() if n_samples is None else Ridge(alpha=RIDGE_ALPHA)
    model.fit(rows[:, kept], y, sample_weight=weights)
    ours = lime_coefficients(table, n_samples, columns=kept)
    assert len(ours.coef) == len(kept)
    assert_allclose(ours.coef, model.coef_, rtol=1e-7, atol=1e-7)
    assert_allclose(ours.intercept, model.intercept_, rtol=1e-7, atol=1e-7)
    assert_allclose(lime_coefficients(table, n_samples, columns=range(d)).coef,
                    lime_coefficients(table, n_samples).coef, rtol=1e-12, atol=1e-12)


def test_columns_left_out_shift_the_kept_ones():
    """Catches a restricted fit that returns the full fit's coefficients on the kept features: on f = z_0 + 2 z_1
    (d = 2) the fit on z_1 alone absorbs part of z_0's effect. By hand: at the limit the patterns keeping one
    feature have probability 1/4 each (weight pi_1), keeping none 1/2 (weight pi_0); regressing f on z_1 gives
    2 - (pi_1 / 4 * 1 + pi_0 / 2 * 0) / (pi_1 / 4 + pi_0 / 2)."""
    pi0, pi1 = lime_kernel([0, 1], 2)
    expected = 2 - (pi1 / 4) / (pi1 / 4 + pi0 / 2)
    assert lime_coefficients([3.0, 2.0, 1.0, 0.0], columns=[1]).coef[0] == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ValueError, match="columns"):
        lime_coefficients([3.0, 2.0, 1.0, 0.0], columns=[2])
    with pytest.raises(ValueError, match="columns"):
        lime_coefficients([3.0, 2.0, 1.0, 0.0], columns=[0, 0])


def to_float(expr: sp.Expr) -> float:
    """A sympy number to float at 40 digits, each exp(...) evaluated once (evalf of the whole tree repeats them)."""
    return float(expr.xreplace({e: e.evalf(40) for e in expr.atoms(sp.exp)}).evalf(40))


@given(weights_strategy, st.floats(0.5, 3.0), st.floats(-1.0, 1.0), sample_sizes)
def test_l2_closed_form_is_exact_when_entries_are_equal(coef, entry, intercept, n_samples):
    """Catches a wrong normalised moment n1, n2 (the factor sqrt(d / k), row 0's r(d) = 1) or a wrong intercept
    in the L2-normalised closed form: when every word of the document has the same TF-IDF entry it is exact, so
    it must equal the enumeration on the table of analytic.prop1_l2norm's model (distinct words, equal idf)."""
    words = [f"w{j}" for j in range(len(coef))]
    model = L2NormalisedLinearModel(dict(zip(words, coef)), {w: entry for w in words}, intercept)
    table = model(masked_texts(words))
    closed = lime_l2_linear(coef, [entry] * len(coef), intercept, n_samples)
    enumerated = lime_coefficients(table, n_samples)
    assert_allclose(closed.coef, enumerated.coef, rtol=1e-8, atol=1e-9)
    assert_allclose(closed.intercept, enumerated.intercept, rtol=1e-8, atol=1e-9)


def test_l2_closed_form_is_only_approximate_otherwise():
    """Catches the approximation |phi(z)| ~ |phi(x)| sqrt(k / d) being presented as exact: with unequal TF-IDF
    entries (d = 3, phi = (1, 2, 4)) the closed form and the enumeration differ by more than 1e-3."""
    words, coef, idf = ["a", "b", "c"], [1.0, -1.0, 0.5], [1.0, 2.0, 4.0]
    table = L2NormalisedLinearModel(dict(zip(words, coef)), dict(zip(words, idf)))(masked_texts(words))
    gap = np.max(np.abs(np.subtract(lime_l2_linear(coef, idf).coef, lime_coefficients(table).coef)))
    assert gap > 1e-3


@pytest.mark.parametrize("normalised", [False, True])
@pytest.mark.parametrize("n_samples", [None, 7, 5000])
def test_symbolic_closed_form_equals_numeric_twin(n_samples, normalised):
    """Catches the sympy closed form and its float twin drifting apart (a moment, the penalty or row 0 written
    differently in one of them): exact rationals in, evaluated to 30 digits."""
    weights = [sp.Rational(3, 2), sp.Rational(-1, 3), sp.Integer(2)]
    # with every tfidf entry 1, lime_l2_linear's c_j are lambda_j / sqrt(3): the symbolic side gets the same c_j
    contributions = [w / sp.sqrt(3) for w in weights] if normalised else weights
    b0_sym, coef_sym = lime_linear_sym(contributions, sp.Rational(1, 4), n_samples, normalised=normalised)
    floats = [float(w) for w in weights]
    numeric = (lime_l2_linear(floats, [1.0] * 3, 0.25, n_samples) if normalised
               else lime_additive(floats, 0.25, n_samples))
    assert_allclose([to_float(c) for c in coef_sym], numeric.coef, rtol=1e-12)
    assert_allclose(to_float(b0_sym), numeric.intercept, rtol=1e-12, atol=1e-12)


def test_symbolic_limit_is_the_models_contribution():
    """Catches a limit that keeps a trace of the ridge or of row 0: with symbolic weights the limit must simplify
    to A_j exactly (Mardaoui and Garreau's linear-model result, unnormalised TF-IDF)."""
    a = sp.symbols("a0:4")
    intercept, coef = lime_linear_sym(a, sp.Symbol("c"))
    assert coef == list(a)
    assert sp.simplify(intercept - sp.Symbol("c")) == 0


def test_bag_of_words_feature_is_the_sum_of_its_positions():
    """Catches a wrong feature mask with ``bow=True`` (removing a word must remove all its occurrences): on an
    additive f the limit coefficient of word w is the sum of its positions' weights, m_w lambda_w v_w for TF-IDF."""
    tokens = ["good", "bad", "good", "food", "good"]
    a = np.array([0.7, -1.1, 0.7, 0.3, 0.7])
    result = lime_coefficients(linear_table(a, 0.5), groups=tokens)
    assert_allclose(result.coef, [3 * 0.7, -1.1, 0.3], rtol=1e-9)


@pytest.mark.parametrize("n_samples", [2, 100, 5000, 10**9])
def test_one_feature_limit_is_the_effect_over_one_plus_alpha(n_samples):
    """Catches the degenerate d = 1 case (random rows never keep the word) handled wrongly: with K = (n - 1)
    exp(-8) the total weight of the all-removed rows, the two-point weighted ridge solved by hand gives
    beta*_n = Delta K / (K + alpha (1 + K)), whose limit is Delta / (1 + alpha): half the effect at alpha = 1."""
    delta = 5.0 - 1.0
    k = (n_samples - 1) * math.exp(-8.0)
    assert lime_coefficients([5.0, 1.0], n_samples).coef[0] == pytest.approx(delta * k / (k + (1 + k)), rel=1e-9)
    assert lime_coefficients([5.0, 1.0]).coef[0] == pytest.approx(delta / 2, rel=1e-12)


def test_invalid_arguments_name_the_parameter():
    """Catches silent acceptance of bad input."""
    with pytest.raises(ValueError, match="n_samples"):
        lime_coefficients([1.0, 0.0, 0.0, 0.0], n_samples=1)
    with pytest.raises(TypeError, match="n_samples"):
        lime_coefficients([1.0, 0.0, 0.0, 0.0], n_samples=10.0)
    with pytest.raises(ValueError, match="kernel_width"):
        lime_kernel([1], 2, kernel_width=0.0)
    with pytest.raises(ValueError, match="alpha"):
        lime_additive([1.0, 2.0], alpha=-1.0)
    with pytest.raises(ValueError, match="groups"):
        lime_coefficients([1.0, 0.0, 0.0, 0.0], groups=["a"])
    with pytest.raises(ValueError, match="table"):
        lime_coefficients([1.0, 0.0, 0.0])


class Recorder:
    """A table black box that records every text LIME sends (removed positions read from ``UNKWORDZ``)."""

    def __init__(self, table, b: int):
        self.table, self.b, self.codes = np.asarray(table, float), b, []

    def __call__(self, texts):
        codes = [sum(1 << i for i, t in enumerate(text.split()) if t == "UNKWORDZ") for text in texts]
        self.codes.extend(codes)
        f = self.table[np.array(codes)]
        return np.column_stack([1 - f, f])


def run_lime(table, tokens, n_samples: int, seed: int):
    lime_text = pytest.importorskip("lime.lime_text")
    recorder = Recorder(table, len(tokens))
    explainer = lime_text.LimeTextExplainer(class_names=["0", "1"], bow=False, split_expression=r"\s+",
                                            random_state=seed)
    exp = explainer.explain_instance(" ".join(tokens), recorder, labels=(1,), num_features=len(tokens),
                                     num_samples=n_samples)
    coef = np.zeros(len(tokens))
    for position, weight in exp.as_map()[1]:
        coef[position] = weight
    return np.array(recorder.codes), coef, exp.intercept[1]


@pytest.mark.parametrize("b", [4, 7])  # 4: forward selection (<= 6 features); 7: "highest_weights"
def test_package_coefficients_are_the_ridge_on_its_own_sample(b):
    """Catches a misread LIME default in analytic (kernel width, the factor 100, the square-root kernel, alpha,
    the intercept, feature selection dropping a feature): the installed lime's coefficients, as the evaluation
    calls it, equal the weighted ridge solved here on lime's own rows with analytic's kernel and alpha."""
    rng = np.random.default_rng(29)
    table = rng.normal(size=2**b)
    tokens = [f"w{i}" for i in range(b)]
    codes, coef, intercept = run_lime(table, tokens, 300, seed=30)
    kept = np.array([[0.0 if c >> i & 1 else 1.0 for i in range(b)] for c in codes])
    ridge = Ridge(alpha=RIDGE_ALPHA).fit(kept, table[codes], sample_weight=lime_kernel(kept.sum(1), b))
    assert codes[0] == 0
    assert_allclose(coef, ridge.coef_, rtol=1e-8, atol=1e-10)
    assert_allclose(intercept, ridge.intercept_, rtol=1e-8, atol=1e-10)


@pytest.mark.statistical
def test_package_sampler_follows_the_exact_law():
    """Catches a wrong sampling law in analytic.lime_pattern_law (sizes 0..d, with replacement, a missing
    1/C(d, s)) against the installed lime: the frequency of each of the 2^d patterns among n - 1 = 19 999 random
    rows is within the two-sided Hoeffding bound sqrt(log(2 K / delta) / (2 (n - 1))) of the exact law, a union
    bound over the K = 2^d patterns at delta = 1e-6 (seed statistical_seed(31))."""
    d, n = 4, 20_000
    codes, _, _ = run_lime(np.zeros(2**d), [f"w{i}" for i in range(d)], n, seed=statistical_seed(31))
    frequency = np.bincount(codes[1:], minlength=2**d) / (n - 1)
    tolerance = math.sqrt(math.log(2 * 2**d / DELTA) / (2 * (n - 1)))
    assert np.max(np.abs(frequency - lime_pattern_law(d))) <= tolerance


def test_package_on_one_word_equals_the_degenerate_closed_form():
    """Catches a wrong d = 1 branch against the installed lime: on a one-word document every random row removes
    the word, so lime is deterministic and must give exactly beta*_n = Delta K / (K + alpha (1 + K)),
    K = (n - 1) exp(-8): 0.385 Delta at n = 5000, not the effect Delta itself."""
    codes, coef, _ = run_lime(np.array([5.0, 1.0]), ["word"], 5000, seed=0)
    assert set(codes[1:]) == {1}
    assert coef[0] == pytest.approx(lime_coefficients([5.0, 1.0], 5000).coef[0], rel=1e-9)
    assert coef[0] == pytest.approx(4.0 * 0.385, rel=1e-2)
