"""Claim tfidf-presence (proofs_checks/claims/propositions/tfidf_presence.py): line 526, a word occurs iff its TF-IDF
coordinate is > 0, and line 533's last equality, hold for the words of the fitted vocabulary (headline) and fail for a
word outside the fitted corpus (line 476's case), read of every word of a document.

The expectations are computed here by hand: phi from Definition 1's formula (counts times log((N+1)/(N_j+1)) + 1, no
scikit-learn transform), and the number of (J, document) pairs where the products differ from the token sets alone.
"""

from __future__ import annotations

import itertools
import math

import pytest

from proofs_checks.claims.propositions import tfidf_presence


@pytest.fixture(scope="module")
def result():
    return tfidf_presence.check()


def test_statuses_readings_and_verdict(result):
    """Pins each step and reading: catches the stronger reading's failure taking the headline's place (the claim
    would read 'fails'), or the unseen word's case passing for a vocabulary word (st3 'holds')."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == {
        "tfidf-presence.p1-idf-at-least-one": ("proof", "symbolic", "holds", None),
        "tfidf-presence.st1-vocabulary-words": ("statement", "exhaustive", "holds", "vocabulary"),
        "tfidf-presence.st2-shortcut-model-inside-the-vocabulary": ("statement", "exhaustive", "holds", "vocabulary"),
        "tfidf-presence.st3-unseen-word": ("statement", "counterexample", "fails", "any-word"),
        "tfidf-presence.st4-shortcut-model-with-an-unseen-word": ("statement", "exhaustive", "fails", "any-word"),
    }
    assert (result.status, result.verdict) == ("holds", "holds")
    assert [(r.id, r.role, result.reading_status(r.id)) for r in result.readings] == [
        ("vocabulary", "headline", "holds"), ("any-word", "stronger", "fails")]
    assert tfidf_presence.CLAIM.new and result.source[0].line == 526


def _documents(words):
    return [t for b in range(1, 4) for t in itertools.product(words, repeat=b)]


def test_definition1_phi_by_hand_is_positive_exactly_on_present_words(result):
    """Definition 1 by hand on corpus ('good food', 'bad service'), N = 2, each word in one document: idf = log(3/2)
    + 1 > 1 for every word, so phi_i = m_i idf_i > 0 iff the word occurs; the (document, word) pairs of st1 are
    (5 + 25 + 125) * 4 + (3 + 9 + 27) * 2 + (4 + 16 + 64) * 3 = 950 per norm. Catches an enumeration that skips
    documents or norms, or a coordinate test read off the wrong column."""
    idf = math.log(3 / 2) + 1
    for tokens in _documents(("bad", "food", "good", "service", "zzz")):
        phi = {w: tokens.count(w) * idf for w in ("bad", "food", "good", "service")}
        assert all((w in tokens) == (v > 0) for w, v in phi.items())
    assert result.steps[1].values["pairs"] == 2 * (155 * 4 + 39 * 2 + 84 * 3) == 1900


def test_line_533_differs_exactly_on_documents_holding_j_with_the_unseen_word(result):
    """Counted from the token sets alone: J holds 'zzz' and the document contains every word of J (the presence
    product is 1, phi's is 0): per document with 'zzz', 2^(distinct words - 1) such J; twice (two norms). Catches a
    phi product that gives the unseen word a positive coordinate, or a count of J that misses subsets."""
    differ = 0
    for vocabulary in (("bad", "food", "good", "service"), ("bad", "good"), ("bad", "food", "good")):
        for tokens in _documents(vocabulary + ("zzz",)):
            differ += 2 ** (len(set(tokens)) - 1) if "zzz" in tokens else 0
    seen = result.steps[4].values
    assert seen["with_unseen_differ"] == 2 * differ == 786 and seen["differ_exactly_where_doc_contains_j"]
    assert result.steps[2].values["inside_differ"] == 0


def test_the_unseen_word_case_satisfies_the_readings_hypotheses(result):
    """The counterexample of the stronger reading: corpus ['good'], document 'bad' contains 'bad', no corpus
    document does, and phi('bad') is the zero vector of the empty document. Catches a 'counterexample' whose word is
    in the corpus (then it has a positive coordinate and refutes nothing)."""
    case = result.steps[3].values
    assert case["satisfies_hypotheses"] and "bad" not in ["good"] and "bad" in ["bad"]
    assert case["phi"] == [0.0] and not case["word_has_a_coordinate"] and case["coordinate_under_line_476"] == 0.0
