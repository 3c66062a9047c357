"""The linear model on L2-normalised TF-IDF (analytic/prop1_l2norm.py), outside Prop. 1, against values
computed by hand here.

f(z) = lambda . u / ||u||_2 + lambda_0 with u_j = m_j(z) v_j on whitespace tokens, and f = lambda_0 when
no vocabulary word is present. FRED on this model against the claim: tests/claims/test_prop1_l2norm.py.
"""

from __future__ import annotations

import math

import pytest
from numpy.testing import assert_allclose

from analytic import L2NormalisedLinearModel

COEF = {"good": 1.5, "bad": -2.0, "food": 0.25}
IDF = {"good": 1.2, "bad": 2.5, "food": 0.8}


def test_l2_normalised_model_equals_hand_computation():
    """Catches a wrong or missing normalisation (L1 norm, or the norm of the counts without idf), the idf
    applied twice or not at all, multiplicities read as presence, or the intercept dropped. Each value is
    worked out by hand from u = counts * idf."""
    f = L2NormalisedLinearModel(COEF, IDF, 0.3)
    texts = ["good good bad food UNK", "food bad", "bad bad bad good", "good bad"]
    want = [
        (1.5 * 2.4 - 2.0 * 2.5 + 0.25 * 0.8) / math.sqrt(2.4**2 + 2.5**2 + 0.8**2) + 0.3,  # u = (2.4, 2.5, 0.8)
        (-2.0 * 2.5 + 0.25 * 0.8) / math.sqrt(2.5**2 + 0.8**2) + 0.3,  # u = (0, 2.5, 0.8)
        (1.5 * 1.2 - 2.0 * 7.5) / math.sqrt(1.2**2 + 7.5**2) + 0.3,  # u = (1.2, 7.5, 0)
        (1.5 * 1.2 - 2.0 * 2.5) / math.sqrt(1.2**2 + 2.5**2) + 0.3,  # u = (1.2, 2.5, 0)
    ]
    assert_allclose(f(texts), want, rtol=1e-12)
    assert_allclose(want, [-1.2 / math.sqrt(12.65) + 0.3, -4.8 / math.sqrt(6.89) + 0.3,
                           -13.2 / math.sqrt(57.69) + 0.3, -3.2 / math.sqrt(7.69) + 0.3], rtol=1e-12)


def test_l2_normalised_model_without_vocabulary_words_is_the_intercept():
    """Catches 0/0 (nan) or a value other than lambda_0 on an empty text, an all-masked text, or a text of
    out-of-vocabulary words, and a default intercept other than 0."""
    texts = ["", "UNK", "UNK UNK UNK", "the service was"]
    assert L2NormalisedLinearModel(COEF, IDF, 0.3)(texts).tolist() == [0.3] * 4
    assert L2NormalisedLinearModel(COEF, IDF)(texts).tolist() == [0.0] * 4


@pytest.mark.parametrize("v", [0.01, 1.0, 7.5])
@pytest.mark.parametrize("word", sorted(COEF))
def test_l2_normalised_model_scores_a_word_alone_lambda_j_whatever_v_j(word, v):
    """Catches an idf that does not cancel under the normalisation (e.g. normalising by the counts only):
    alone in a text, with any multiplicity and masks around it, word j scores lambda_j + lambda_0."""
    f = L2NormalisedLinearModel(COEF, {**IDF, word: v}, -0.5)
    texts = [word, f"{word} {word}", f"UNK {word} UNK {word} {word}"]
    assert_allclose(f(texts), [COEF[word] - 0.5] * 3, rtol=1e-12)


@pytest.mark.parametrize("idf", [{"good": 1.0}, {"good": 1.0, "bad": 2.0, "food": 0.5, "service": 1.0},
                                 {"good": 1.0, "bad": 2.0, "foo": 0.5}])
def test_l2_normalised_model_refuses_coef_and_idf_with_different_words(idf):
    """Catches coef and idf keyed by different words being accepted (a word silently ignored, or a KeyError
    only when a text is scored)."""
    with pytest.raises(ValueError, match="^coef and idf must have the same words"):
        L2NormalisedLinearModel(COEF, idf)


@pytest.mark.parametrize("field, word, value", [("coef", "food", math.inf), ("idf", "bad", math.nan),
                                                 ("idf", "good", -math.inf)])
def test_non_finite_coefficients_or_idf_are_refused(field, word, value):
    """Catches a model built on an infinite or NaN weight: its words absent from a text would add inf * 0 = NaN
    (the sums skip absent words, so such a model would score texts as if the word did not exist)."""
    values = {**(COEF if field == "coef" else IDF), word: value}
    args = (values, IDF) if field == "coef" else (COEF, values)
    with pytest.raises(ValueError, match=rf"{field} must be finite for every word, got \[{value}\] for \['{word}'\]"):
        L2NormalisedLinearModel(*args)
