"""TF-IDF of Definition 1 and linear models read from scikit-learn pipelines (analytic/tfidf.py), against
scikit-learn itself."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from analytic import (
    LinearTfidfModel,
    check_vectorizer,
    exact_drop,
    exact_explain,
    expected_prediction,
    idf,
    linear_table,
    masked_texts,
    table_from_classifier,
)
from proofs_checks.strategies import epsilons, fitted_tfidf_models, probabilities
from tests._helpers import SLOW
from tests.analytic._cases import RTOL


@SLOW
@given(fitted_tfidf_models())
def test_idf_matches_sklearn(case):
    """Catches a wrong Definition 1 (e.g. non-smooth idf) against scikit-learn's fitted idf_."""
    analyzer = case.vectorizer.build_analyzer()
    doc_sets = [set(analyzer(d)) for d in case.corpus]
    words = sorted(case.vectorizer.vocabulary_, key=case.vectorizer.vocabulary_.get)
    df = np.array([sum(w in s for s in doc_sets) for w in words])
    assert_allclose(idf(len(case.corpus), df), case.vectorizer.idf_, rtol=1e-14)


@SLOW
@given(fitted_tfidf_models())
def test_linear_tfidf_model_equals_sklearn_on_all_masked_texts(case):
    """Catches wrong lambda/lambda_0/idf reading, mask != removal, or wrong per-position weights."""
    model = LinearTfidfModel.from_pipeline(case.vectorizer, case.model)
    texts = masked_texts(case.tokens)
    sk = case.classifier_fn()(texts)
    assert_allclose(model.predict(texts), sk, rtol=1e-12, atol=1e-12)
    a = model.position_weights(case.tokens)
    assert_allclose(linear_table(a, model.intercept), sk, rtol=1e-12, atol=1e-12, err_msg=str(case.tokens))


def test_analyzer_is_tokenwise_on_awkward_tokens():
    """Catches the assumption 'one whitespace token = its analyzer features' failing for 'a', "don't", 'well-known'."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vec = TfidfVectorizer(norm=None).fit(["well known don good", "good a"])
    analyzer = vec.build_analyzer()
    tokens = ["a", "don't", "well-known", "Good", "UNK"]
    assert analyzer(" ".join(tokens)) == [f for t in tokens for f in analyzer(t)]
    assert [analyzer(t) for t in tokens] == [[], ["don"], ["well", "known"], ["good"], ["unk"]]


def _fit(**kwargs):
    from sklearn.feature_extraction.text import TfidfVectorizer

    corpus = kwargs.pop("corpus", ["good food", "bad food", "good service"])
    return TfidfVectorizer(**{"norm": None, **kwargs}).fit(corpus)


@pytest.mark.parametrize(
    "kwargs, mask, message",
    [
        ({"norm": "l2"}, "UNK", "norm must be None (Definition 1 has no normalisation), got norm='l2'"),
        ({"sublinear_tf": True}, "UNK", "sublinear_tf must be False: Definition 1 uses the raw multiplicity m_j"),
        ({"binary": True}, "UNK", "binary must be False: Definition 1 uses the raw multiplicity m_j"),
        ({"ngram_range": (1, 2)}, "UNK", "ngram_range must be (1, 1) (word unigrams), got (1, 2)"),
        ({"analyzer": "char"}, "UNK", "analyzer must be 'word', got 'char'"),
        ({"analyzer": str.split}, "UNK", "analyzer must be 'word', got <method 'split' of 'str' objects>"),
        ({"smooth_idf": False}, "UNK", "smooth_idf must be True when use_idf=True: Definition 1 is the smooth idf"),
        ({"corpus": ["good unk", "bad"]}, "UNK",
         "mask_token 'UNK' maps to vocabulary feature(s) ['unk'] after preprocessing; masking would not equal removal"),
        ({"corpus": ["good food", "bad"]}, "Good",
         "mask_token 'Good' maps to vocabulary feature(s) ['good'] after preprocessing; masking would not equal "
         "removal"),
    ],
)
def test_check_vectorizer_refuses_settings_that_break_the_theory(kwargs, mask, message):
    """Catches a vectorizer setting silently accepted although the closed forms then do not hold; the message
    names the setting and why."""
    with pytest.raises(ValueError) as info:
        check_vectorizer(_fit(**kwargs), mask)
    assert str(info.value) == message


def test_check_vectorizer_refuses_an_unfitted_vectorizer_and_other_objects():
    """Catches a check that needs both a missing vocabulary and a missing analyzer to refuse."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    for obj, name in [(TfidfVectorizer(norm=None), "TfidfVectorizer"), ("text", "str")]:
        with pytest.raises(TypeError) as info:
            check_vectorizer(obj)
        assert str(info.value) == ("vectorizer must be a fitted scikit-learn TfidfVectorizer or CountVectorizer, "
                                   f"got {name}")


def test_from_pipeline_keeps_the_vectorizers_analyzer_and_accepts_plain_tf():
    """Catches the vectorizer's analyzer replaced by a whitespace split (case and punctuation would then
    differ from scikit-learn), and use_idf=False with smooth_idf=False refused (no idf, nothing to smooth)."""
    from sklearn.linear_model import Ridge

    vec = _fit()
    reg = Ridge().fit(vec.transform(["good food", "bad food", "good service"]), [1.0, 0.0, 1.0])
    texts = ["Good food!", "BAD, bad service."]
    assert_allclose(LinearTfidfModel.from_pipeline(vec, reg).predict(texts), reg.predict(vec.transform(texts)),
                    rtol=1e-12)
    check_vectorizer(_fit(use_idf=False, smooth_idf=False))


def test_count_vectorizer_pipeline_is_eq6_with_unit_idf():
    """Catches a CountVectorizer refused or crashing for lack of TF-IDF attributes: raw counts are Eq. 6, v = 1."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import Ridge

    corpus = ["good food", "bad food", "good service good"]
    vec = CountVectorizer().fit(corpus)
    reg = Ridge().fit(vec.transform(corpus), [1.0, 0.0, 1.0])
    model = LinearTfidfModel.from_pipeline(vec, reg)
    assert_allclose(model.idf, 1.0)
    texts = ["good UNK food", "bad bad service", "UNK"]
    assert_allclose(model.predict(texts), reg.predict(vec.transform(texts)), rtol=1e-12)
    with pytest.raises(ValueError, match="^binary must be False"):
        check_vectorizer(CountVectorizer(binary=True).fit(corpus))


def test_from_pipeline_reads_a_missing_intercept_as_zero():
    """Catches a default intercept other than 0 for a duck-typed linear model with coef_ only."""
    from types import SimpleNamespace

    vec = _fit()
    model = LinearTfidfModel.from_pipeline(vec, SimpleNamespace(coef_=np.ones(len(vec.vocabulary_))))
    assert model.intercept == 0.0
    assert_allclose(model.predict(["UNK"]), [0.0], atol=0)


def test_use_idf_false_is_accepted_with_unit_idf():
    """Catches use_idf=False read as sklearn's stale idf instead of v_j = 1 (still Eq. 6 with v = 1)."""
    from sklearn.linear_model import Ridge

    vec = _fit(use_idf=False)
    reg = Ridge().fit(vec.transform(["good food", "bad food", "good service"]), [1.0, 0.0, 1.0])
    model = LinearTfidfModel.from_pipeline(vec, reg)
    assert_allclose(model.idf, 1.0)
    texts = ["good UNK food", "bad bad"]
    assert_allclose(model.predict(texts), reg.predict(vec.transform(texts)), rtol=1e-12)


def test_from_pipeline_refuses_multiclass_and_unfitted():
    """Catches a multiclass model silently reduced to its first class, or an unfitted model accepted."""
    from sklearn.linear_model import LogisticRegression

    vec = _fit()
    x = vec.transform(["good food", "bad food", "good service"])
    clf = LogisticRegression().fit(x, [0, 1, 2])
    with pytest.raises(ValueError, match="binary"):
        LinearTfidfModel.from_pipeline(vec, clf)
    with pytest.raises(TypeError, match="coef_"):
        LinearTfidfModel.from_pipeline(vec, LogisticRegression())

# --------------------------------------------------------------------------- edges mutation testing found
# Each test below was written for a mutant that survived the hypothesis tests above: boundaries
# the strategies rarely hit (eps = 1, size 0, max_len = l*, exact ties), defaults and argument checks.


@pytest.mark.parametrize("n_docs, doc_freq", [(-1, 0), (3, -1), (3, 4), (np.array([3, 3]), np.array([1, 4]))])
def test_idf_refuses_impossible_counts(n_docs, doc_freq):
    """Catches a validation that misses one of N >= 0, N_j >= 0, N_j <= N."""
    with pytest.raises(ValueError, match="0 <= doc_freq <= n_docs"):
        idf(n_docs, doc_freq)


def test_idf_of_an_empty_corpus_is_one():
    """Catches refusing N = 0 or N_j = 0: log(1/1) + 1 = 1."""
    assert float(idf(0, 0)) == 1.0
    assert_allclose(idf(4, np.array([0, 4])), [math.log(5) + 1, 1.0], rtol=RTOL)


def test_check_vectorizer_default_mask_and_the_mask_given_to_from_pipeline():
    """Catches a default mask other than 'UNK' in check_vectorizer, and from_pipeline not passing its mask on."""
    from sklearn.linear_model import Ridge

    with pytest.raises(ValueError, match="^mask_token 'UNK'"):
        check_vectorizer(_fit(corpus=["good unk", "bad"]))
    vec = _fit()
    model = Ridge().fit(vec.transform(["good food", "bad food", "good service"]), [1.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="^mask_token 'Food'"):
        LinearTfidfModel.from_pipeline(vec, model, mask_token="Food")


def test_from_pipeline_checks_the_default_mask_token_and_names_the_model_type():
    """Catches a default mask other than 'UNK' and an error message that does not name the wrong model."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import Ridge

    docs = ["good unk food", "bad food"]
    vec = TfidfVectorizer(norm=None).fit(docs)  # 'unk' in the vocabulary collides with the mask 'UNK'
    model = Ridge().fit(vec.transform(docs), [1.0, 0.0])
    with pytest.raises(ValueError, match="UNK"):
        LinearTfidfModel.from_pipeline(vec, model)
    clean = TfidfVectorizer(norm=None).fit(["good food", "bad food"])
    with pytest.raises(TypeError, match="got str"):
        LinearTfidfModel.from_pipeline(clean, "not a model")


# --------------------------------------------------------------------------- closed forms carried by the model
VOCAB = ("aa", "bb", "cc")


@st.composite
def linear_models(draw):
    """A LinearTfidfModel on three words (dyadic lambda, v in {1, 2}), a document of 1-6 tokens (one may be
    out of vocabulary) and a position set."""
    coef = np.array(draw(st.lists(st.integers(-8, 8), min_size=3, max_size=3)), float) / 4
    idf = np.array(draw(st.lists(st.sampled_from([1.0, 2.0]), min_size=3, max_size=3)))
    intercept = draw(st.integers(-4, 8)) / 4
    tokens = draw(st.lists(st.sampled_from(VOCAB + ("zz",)), min_size=1, max_size=6))
    positions = draw(st.sets(st.integers(0, len(tokens) - 1), min_size=1))
    model = LinearTfidfModel({w: j for j, w in enumerate(VOCAB)}, idf, coef, intercept)
    return model, tokens, sorted(positions)


@given(linear_models(), probabilities(), epsilons(), st.sampled_from(["mean", "original"]))
def test_linear_model_methods_equal_the_referee(case, p, eps, baseline):
    """Catches a model method that uses p for 1 - p, ignores the intercept, or a baseline, against the exact
    enumeration of the model's own predictions on every masked text."""
    model, tokens, positions = case
    table = table_from_classifier(model.predict, tokens)
    assert_allclose(model.expected_prediction(tokens, p), expected_prediction(table, p), rtol=1e-12, atol=1e-12)
    assert_allclose(model.drop(tokens, positions, p), exact_drop(table, positions, p), rtol=1e-12, atol=1e-12)
    ref = exact_explain(table, p, eps, len(tokens), baseline=baseline)
    assume(np.all(np.abs(ref.best_drop_by_size - ref.threshold) > 1e-9))  # no float-boundary cases
    assert model.minimal_size(tokens, p, eps, len(tokens), baseline=baseline) == (
        len(ref.best_ids) if ref.found else None)
