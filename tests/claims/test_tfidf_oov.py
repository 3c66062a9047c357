"""Claim tfidf-oov (proofs_checks/claims/tfidf_oov.py, verdict fails, corrected statement argued): every step
pinned, and both counterexamples recomputed by hand from scikit-learn's TfidfVectorizer."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from analytic import LinearTfidfModel, check_vectorizer
from fred import Fred
from proofs_checks.claims import tfidf_oov as claim
from tests._helpers import drops_by_enumeration

EXPECTED = {
    "tfidf-oov.st1-idf-zero": ("statement", "counterexample", "fails"),
    "tfidf-oov.st2-mask-not-in-corpus": ("statement", "counterexample", "fails"),
    "tfidf-oov.p1-idf-at-least-one": ("proof", "symbolic", "holds"),
    "tfidf-oov.p2-why": ("proof", "argument", "argued"),
    "tfidf-oov.c1-unseen-no-column": ("correction", "exhaustive", "holds"),
    "tfidf-oov.c2-iff": ("correction", "exhaustive", "holds"),
}


@pytest.fixture(scope="module")
def result():
    return claim.check()


def test_every_step_status_role_and_evidence_is_pinned(result):
    """Catches a step whose computation changed outcome, a step added or dropped, or a role or evidence changed."""
    assert {s.id: (s.role, s.evidence, s.status) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.corrected_status, result.verdict) == (
        "statement", "fails", "argued", "fails")


def test_an_unseen_word_has_no_column_and_its_smooth_idf_is_not_zero(result):
    """Corpus ['good'] (N = 1): 'bad' gets no column, so phi('good bad') = phi('good'); Definition 1 at N_j = 0
    would give log(2/1) + 1. Catches a report that takes the absence of a column for an idf of 0."""
    vec = TfidfVectorizer(norm=None).fit(["good"])
    assert "bad" not in vec.vocabulary_
    assert np.array_equal(vec.transform(["good bad"]).toarray(), vec.transform(["good"]).toarray())
    cx = result.counterexample["a_idf_zero"]
    assert cx["definition1_idf_at_N_j_0"] == pytest.approx(math.log(2) + 1, rel=1e-15)


def test_mask_token_lowercased_into_the_vocabulary_by_hand(result):
    """Corpus ['good unk'] (N = 1, both words in the one document: idf log(2/2) + 1 = 1) and f = phi_good + phi_unk.
    Masking 'good' by 'UNK' gives the feature 'unk': f = 1 on both patterns, E[f] = 1, drop 0 < 3/20. Removal gives
    f = (1, 0), E[f] = 1/2, drop 1/2 >= 3/40. Catches a masking that the vectorizer does not see (e.g. comparing
    strings before lowercasing)."""
    vec = TfidfVectorizer(norm=None).fit(["good unk"])
    assert vec.idf_.tolist() == [1.0, 1.0]

    def f(text):
        return F(float(vec.transform([text]).toarray().sum()))

    masked = drops_by_enumeration(lambda z: f("UNK" if z[0] else "good"), 1, F(1, 2))
    removed = drops_by_enumeration(lambda z: f("" if z[0] else "good"), 1, F(1, 2))
    assert masked == (F(1), {(0,): F(0)}) and removed == (F(1, 2), {(0,): F(1, 2)})
    cx = result.counterexample["b_mask_not_in_corpus"]
    assert (cx["corpus"], cx["document"], cx["masking"]["drops"], cx["removal"]["drops"]) == (
        ["good unk"], "good", {"good": "0"}, {"good": "1/2"})

    def clf(texts):
        return vec.transform(texts).toarray().sum(axis=1)

    exp = Fred(clf, sampler="exact").explain("good", p=0.5, eps=0.15, max_len=1)
    assert (exp.found, exp.drop) == (False, 0.0)
    with pytest.raises(ValueError, match="mask_token"):
        check_vectorizer(vec, "UNK")


def test_without_lowercasing_the_same_corpus_is_fine():
    """lowercase=False keeps 'UNK' apart from 'unk': masking equals removal and the linear model's drop is the
    removal drop (1 - p) a = 1/2. Catches a correction that blames the corpus rather than the preprocessing."""
    vec = TfidfVectorizer(norm=None, lowercase=False).fit(["good unk"])
    check_vectorizer(vec, "UNK")
    model = LinearTfidfModel.from_pipeline(vec, type("M", (), {"coef_": np.ones(2), "intercept_": 0.0})())
    assert model.drop(["good"], [0], 0.5) == 0.5
    assert np.array_equal(vec.transform(["UNK"]).toarray(), vec.transform([""]).toarray())
