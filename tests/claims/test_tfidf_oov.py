"""Claim tfidf-oov (proofs_checks/claims/propositions/tfidf_oov.py; verdict "holds (argued)" on the headline reading
'as-meant', the alternative reading 'convention' (line 476's zero IDF term as a convention inside Definition 1, which
conflicts with line 470 at N_j = 0) holds too; corrected statement argued): every step pinned, the conflict and the
lowercasing case recomputed by hand from scikit-learn's TfidfVectorizer, and (b) checked on corpora the claim does not
use."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.feature_extraction.text import TfidfVectorizer

from analytic import LinearTfidfModel, check_vectorizer
from fred import Fred
from proofs_checks.claims.propositions import tfidf_oov as claim
from tests._helpers import drops_by_enumeration, step_ending

EXPECTED = {
    "tfidf-oov.st1-convention": ("statement", "exhaustive", "holds", "convention"),
    "tfidf-oov.st2-unseen-no-feature": ("statement", "exhaustive", "holds", "as-meant"),
    "tfidf-oov.st3-mask-removal": ("statement", "exhaustive", "holds", "as-meant"),
    "tfidf-oov.p1-idf-at-least-one": ("proof", "symbolic", "holds", None),
    "tfidf-oov.p2-why": ("proof", "argument", "argued", None),
    "tfidf-oov.c1-iff": ("correction", "exhaustive", "holds", None),
}


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(claim.CLAIM)  # the session's one run of the claim (tests/conftest.py)



def test_every_step_status_role_and_evidence_is_pinned(result):
    """Catches a step whose computation changed outcome, a step added or dropped, a role, evidence or reading
    changed, a headline verdict taken from another reading than the one the paper's colon and its next sentence
    support, or line 476's convention reported as an assertion that fails (the second reviewer's finding)."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.corrected_status, result.verdict) == (
        "statement", "argued", "argued", "holds (argued)")
    assert [(r.id, r.role, result.reading_status(r.id)) for r in result.readings] == [
        ("as-meant", "headline", "argued"), ("convention", "alternative", "argued")]
    assert result.counterexample is None  # the headline reading has none


def test_an_unseen_word_has_no_column_and_its_smooth_idf_is_not_zero(result):
    """Corpus ['good'] (N = 1): 'bad' gets no column, so phi('good bad') = phi('good') (the headline's (a)); Definition
    1 at N_j = 0 would give log(2/1) + 1, and log(N + 1) + 1 > 1 for every N >= 1: line 476's zero is a convention
    that conflicts with line 470 there, reported as such. Catches a report that takes the absence of a column for an
    idf of 0 computed by line 470, or a conflict recorded on a case outside (a)'s hypotheses."""
    vec = TfidfVectorizer(norm=None).fit(["good"])
    assert "bad" not in vec.vocabulary_
    assert np.array_equal(vec.transform(["good bad"]).toarray(), vec.transform(["good"]).toarray())
    assert all(math.log(n + 1) + 1 > 1 for n in range(1, 1000))
    step = step_ending(result, "st1-convention")
    values = step.values["smallest"]
    assert values["definition1_idf_at_N_j_0"] == pytest.approx(math.log(2) + 1, rel=1e-15)
    assert (values["has_column"], values["satisfies_hypotheses"]) == (False, True)
    assert step.values["conflict_in_every_case"] is True and "conflicts with Definition 1 (line 470)" in step.note


def test_the_convention_gives_the_vectorizers_phi_by_hand(result):
    """Corpus ['good food', 'bad service'] (N = 2, every word in one document: idf log(3/2) + 1), document 'good food'
    with the unseen 'zzz' appended: by hand phi = (idf, 0, idf, 0) over (bad, food, good, service) plus the coordinate
    of 'zzz', 0 under line 476's convention and log 3 + 1 under line 470's formula. Catches a convention step that
    compares the wrong columns, or one that never looks at the vectorizer (its 'same phi' could not fail)."""
    vec = TfidfVectorizer(norm=None).fit(["good food", "bad service"])
    v = math.log(3 / 2) + 1
    assert np.allclose(vec.transform(["good food zzz"]).toarray(), [[0, v, v, 0]], rtol=1e-15, atol=0)
    by_hand = np.array([0, v, v, 0, 0.0])
    assert np.allclose(claim._definition1_phi(vec, ["good food", "bad service"], ["good food zzz"], "zzz", 0.0)[0],
                       by_hand, rtol=1e-15, atol=0)
    formula = claim._definition1_phi(vec, ["good food", "bad service"], ["good food zzz"], "zzz", math.log(3) + 1)
    assert formula[0, -1] == pytest.approx(math.log(3) + 1, rel=1e-15)
    first = step_ending(result, "st1-convention").values["first"]
    assert (first["corpus"], first["word"], first["same_phi"]) == (["good food", "bad service"], "zzz", True)
    assert first["word_coordinate_by_formula"] == pytest.approx([math.log(3) + 1] * 2, rel=1e-15)


def test_b_follows_from_a_not_from_definition1_at_n_mask_0(result):
    """If the mask token were a dictionary element with N_mask = 0 and line 470's formula applied (no convention),
    masking 'good' in corpus ['good'] would give phi = (0, 1 + log 2) over (good, mask) against (0, 0) for removal:
    (b) follows from (a) (no column, or the zero IDF term of line 476), as 'Thus' (line 478) says. Catches reading
    (b) justified by 'in Definition 1 words are dictionary elements, so N_mask = 0' (the second reviewer's finding:
    that reason gives a positive idf and works against (b))."""
    without = step_ending(result, "st1-convention").values["mask_as_dictionary_element"]
    assert without["masked_phi_by_formula"] == pytest.approx([0.0, math.log(2) + 1], rel=1e-15)
    assert without["masked_phi_by_convention"] == without["removed_phi"] == [0.0, 0.0]
    headline = result.readings[0]
    assert "N_mask = 0" not in headline.meaning and "'Thus', line 478" in headline.meaning


def test_the_lowercased_mask_is_outside_the_assumption_not_a_counterexample(result):
    """Corpus ['good unk'] (N = 1, both words in the one document: idf log(2/2) + 1 = 1) and f = phi_good + phi_unk.
    The default analyzer lowercases 'UNK' to the fitted feature 'unk': for this vectorizer the fitted corpus contains
    the mask token, so the paper's assumption fails and the case is no counterexample. There, masking 'good' by
    'UNK' gives f = 1 on both patterns (drop 0) and removal f = (1, 0) (drop 1/2). Catches a report that counts a
    case outside the statement's assumption as a counterexample (the fresh-context reviewer's finding), and a
    masking that the vectorizer does not see (comparing strings before lowercasing)."""
    vec = TfidfVectorizer(norm=None).fit(["good unk"])
    assert vec.idf_.tolist() == [1.0, 1.0] and vec.build_analyzer()("UNK") == ["unk"]

    def f(text):
        return F(float(vec.transform([text]).toarray().sum()))

    masked = drops_by_enumeration(lambda z: f("UNK" if z[0] else "good"), 1, F(1, 2))
    removed = drops_by_enumeration(lambda z: f("" if z[0] else "good"), 1, F(1, 2))
    assert masked == (F(1), {(0,): F(0)}) and removed == (F(1, 2), {(0,): F(1, 2)})
    record = claim.mask_hypotheses(vec, "UNK")
    assert record["satisfies_hypotheses"] is False and record["hypotheses"]["mask_not_in_fitted_corpus"] is False
    values = step_ending(result, "st3-mask-removal").values
    cx = values["first_differing_case_outside_hypotheses"]
    assert (cx["corpus"], cx["lowercase"], cx["document"], cx["masking"]["drops"], cx["removal"]["drops"]) == (
        ["good unk"], True, "good", {"good": "0"}, {"good": "1/2"})
    assert cx["satisfies_hypotheses"] is False and values["failing"] == []

    def clf(texts):
        return vec.transform(texts).toarray().sum(axis=1)

    exp = Fred(clf, sampler="exact").explain("good", p=0.5, eps=0.15, max_len=1)
    assert (exp.found, exp.drop) == (False, 0.0)
    with pytest.raises(ValueError, match="mask_token"):
        check_vectorizer(vec, "UNK")


def test_without_lowercasing_the_same_corpus_is_inside_and_fine():
    """lowercase=False keeps 'UNK' apart from 'unk': the assumption holds, masking equals removal and the linear
    model's drop is the removal drop (1 - p) a = 1/2. Catches a correction that blames the corpus rather than the
    preprocessing, or a hypotheses predicate that compares raw strings."""
    vec = TfidfVectorizer(norm=None, lowercase=False).fit(["good unk"])
    check_vectorizer(vec, "UNK")
    assert claim.mask_hypotheses(vec, "UNK")["satisfies_hypotheses"] is True
    model = LinearTfidfModel.from_pipeline(vec, type("M", (), {"coef_": np.ones(2), "intercept_": 0.0})())
    assert model.drop(["good"], [0], 0.5) == 0.5
    assert np.array_equal(vec.transform(["UNK"]).toarray(), vec.transform([""]).toarray())


WORDS = ("good", "bad", "unk", "UNK", "Unk", "mask")


@given(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3), min_size=1, max_size=3), st.booleans(),
       st.sampled_from(["UNK", "unk", "[MASK]", "zz"]), st.lists(st.integers(0, 5), min_size=1, max_size=3))
def test_masking_equals_removal_inside_the_assumption(corpus, lowercase, mask, picks):
    """(b) as meant, on corpora and masks the claim's search does not use: whenever the fitted vectorizer maps the
    mask to no feature (computed here from its analyzer), phi of every masked pattern equals phi of the same
    positions removed (compared as vectors, not drops). Catches a headline (b) that holds only on the claim's
    small search family."""
    vec = TfidfVectorizer(norm=None, lowercase=lowercase).fit([" ".join(d) for d in corpus])
    analyzer = vec.build_analyzer()
    if any(t in vec.vocabulary_ for t in analyzer(mask)):
        return  # outside the assumption: the mask token is in the fitted corpus
    vocabulary = sorted(vec.vocabulary_)
    tokens = [vocabulary[k % len(vocabulary)] for k in picks]
    for perturbed in itertools.product((0, 1), repeat=len(tokens)):
        masked = " ".join(mask if z else t for t, z in zip(tokens, perturbed))
        removed = " ".join(t for t, z in zip(tokens, perturbed) if not z)
        assert np.array_equal(vec.transform([masked]).toarray(), vec.transform([removed]).toarray())
