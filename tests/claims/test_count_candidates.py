"""Claim count-candidates (proofs_checks/claims/propositions/count_candidates.py; verdict "holds" on the headline
reading 'same-drops', the stronger 'same-candidates' fails): the steps pinned, the two candidate spaces of 'w w' by
hand, exchangeability recomputed with the tests' own enumeration on a pipeline fitted here, and the checkers fed a
position-dependent table."""

from __future__ import annotations


import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from proofs_checks.claims.propositions import count_candidates as claim
from tests._helpers import drops_by_enumeration

EXPECTED = {
    "count-candidates.p1-exchangeable-in-field": ("proof", "symbolic", "holds", None),
    "count-candidates.st1-fitted-models": ("statement", "exhaustive", "holds", "same-drops"),
    "count-candidates.p2-needs-bag-of-words": ("proof", "exhaustive", "holds", None),
    "count-candidates.st2-spaces-counted": ("statement", "counterexample", "fails", "same-candidates"),
}


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(claim.CLAIM)


def _step(result, suffix):
    return next(s for s in result.steps if s.id.endswith(suffix))


def test_every_step_and_the_verdicts_are_pinned(result):
    """Catches a step whose outcome changed, a step added or dropped, or the headline taken from the one-for-one
    reading rather than the drops section 3's models give (lines 453, 478)."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.verdict) == ("statement", "holds", "holds")
    assert [(r.id, r.role, result.reading_status(r.id)) for r in result.readings] == [
        ("same-drops", "headline", "holds"), ("same-candidates", "stronger", "fails")]


def test_the_two_spaces_of_w_w_by_hand(result):
    """'w w': position sets {0}, {1}, {0, 1} (two of size 1: the tokens); count vectors (0), (1), (2) (the empty one
    among them, one of size 1: the word). 'a b a b': 15 position sets, 3 x 3 = 9 count vectors. Catches a count
    that drops the empty vector, or counts size-1 candidates over tokens in the count space."""
    values = _step(result, "st2-spaces-counted").values
    assert (values["position_sets"], values["size1_positions"]) == (3, 2)
    assert (values["count_vectors"], values["empty_vector_included"], values["size1_count_vectors"]) == (3, True, 1)
    assert {r["document"]: (r["position_sets"], r["count_vectors"]) for r in values["more"]}["a b a b"] == (15, 9)
    assert values["satisfies_hypotheses"] is True


def test_equal_counts_equal_drops_on_a_pipeline_fitted_here():
    """A TfidfVectorizer + LogisticRegression fitted here, document 'good good bad good': exact drops by the tests'
    own enumeration (masking with UNK, out of vocabulary) are equal for position sets with one count vector, e.g.
    {0}, {1}, {3} and {0, 2}, {1, 2}. Catches a claim whose 'equal drops' only holds for the family it was tuned on."""
    docs = ["good food", "bad service", "good good place", "bad bad food", "good staff", "bad place"]
    vec = TfidfVectorizer().fit(docs)
    model = LogisticRegression().fit(vec.transform(docs), [1, 0, 1, 0, 1, 0])
    tokens = ["good", "good", "bad", "good"]

    def f(z):
        text = " ".join("UNK" if bit else t for t, bit in zip(tokens, z))
        return float(model.predict_proba(vec.transform([text]))[0, 1])

    _, drops = drops_by_enumeration(f, 4, 0.5)
    groups = {}
    for s, d in drops.items():
        key = (sum(tokens[i] == "good" for i in s), sum(tokens[i] == "bad" for i in s))
        groups.setdefault(key, []).append(d)
    assert all(np.ptp(v) <= 1e-12 for v in groups.values())
    assert drops[(0,)] == pytest.approx(drops[(3,)], abs=1e-12) and len(groups[(1, 0)]) == 3


def test_count_vector_by_hand_and_a_position_dependent_table_is_caught():
    """count_vector over first-appearance order: 'b a b' with positions {0, 2} is (2, 0); and _spread sees a
    position-dependent table (f = 1 when the first token is kept) on 'w w' (spread 1/2). Catches a grouping by the
    wrong word order, or a spread that cannot be positive."""
    assert claim.count_vector(("b", "a", "b"), 0b101) == (2, 0)
    assert claim.count_vector(("b", "a", "b"), 0b010) == (0, 1)
    table = np.array([1.0 if not z & 1 else 0.0 for z in range(4)])
    assert claim._spread(("w", "w"), table) == pytest.approx(0.5)
