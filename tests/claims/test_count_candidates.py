"""Claim count-candidates (proofs_checks/claims/propositions/count_candidates.py; verdict "holds (argued)" on
the headline reading 'same-drops' (symbolic on four documents, argued for any document), the stronger
'same-candidates' fails): the steps pinned, the two candidate spaces of 'w w' by
hand, exchangeability recomputed with the tests' own enumeration on a pipeline fitted here, and the checkers fed a
position-dependent table."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from proofs_checks.claims.propositions import count_candidates as claim
from tests._helpers import drops_by_enumeration, step_ending

EXPECTED = {
    "count-candidates.p1-exchangeable-in-field": ("proof", "symbolic", "holds", None),
    "count-candidates.st1-fitted-models": ("statement", "exhaustive", "holds", "same-drops"),
    "count-candidates.p2-needs-bag-of-words": ("proof", "exhaustive", "holds", None),
    "count-candidates.st2-spaces-counted": ("statement", "counterexample", "fails", "same-candidates"),
    "count-candidates.st3-empty-candidate": ("statement", "counterexample", "fails", "same-candidates"),
    "count-candidates.p3-any-document": ("proof", "argument", "argued", None),
}


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(claim.CLAIM)



def test_every_step_and_the_verdicts_are_pinned(result):
    """Catches a step whose outcome changed, a step added or dropped, or the headline taken from the one-for-one
    reading rather than the drops section 3's models give (lines 453, 478), or a 'holds' claimed for any document
    on four symbolic documents and 132 fitted cases (the step to any document is argued)."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.verdict) == ("statement", "argued", "holds (argued)")
    assert [(r.id, r.role, result.reading_status(r.id)) for r in result.readings] == [
        ("same-drops", "headline", "argued"), ("same-candidates", "stronger", "fails")]


def test_the_two_spaces_of_w_w_by_hand_like_with_like(result):
    """'w w': non-empty position sets {0}, {1}, {0, 1} (two of size 1: the tokens); non-empty count vectors (1), (2)
    (one of size 1: the word), so 3 vs 2 and 2 vs 1. Non-empty against non-empty on the other documents: 'a a b' 2^3 -
    1 = 7 vs 3 x 2 - 1 = 5, 'a b a b' 15 vs 3 x 3 - 1 = 8, 'a a a b' 15 vs 4 x 2 - 1 = 7. Catches the old
    comparison of non-empty position sets with count vectors including the empty one (7 vs 6, 15 vs 9, 15 vs 8)."""
    values = step_ending(result, "st2-spaces-counted").values
    assert (values["position_sets"], values["size1_positions"]) == (3, 2)
    assert (values["nonempty_count_vectors"], values["size1_count_vectors"]) == (2, 1)
    assert {r["document"]: (r["position_sets"], r["nonempty_count_vectors"]) for r in values["more"]} == {
        "a a b": (7, 5), "a b a b": (15, 8), "a a a b": (15, 7)}
    assert "vs 6" not in step_ending(result, "st2-spaces-counted").note and values["satisfies_hypotheses"] is True


def test_the_empty_candidate_is_a_separate_step(result):
    """Line 473's 0 <= c_j <= m_j on 'w w' gives (0), (1), (2): the empty vector is in, of length 0 (line 474), and
    line 240 excludes it. Catches the empty candidate folded into st2's count again, or a step that cannot see it."""
    values = step_ending(result, "st3-empty-candidate").values
    assert (values["count_vectors"], values["empty_vector_included"], values["satisfies_hypotheses"]) == (3, True, True)


def test_the_binomial_closed_form_by_hand_on_a_a():
    """'a a' at p = 1/2 with g(kept count) = (g0, g1, g2) = (0, 0, 1) (f = 1 when both tokens are kept): E[f] = 1/4;
    given one position perturbed the other is kept with probability 1/2 but two cannot be kept, so E[f | {0}] = 0 and
    Delta = 1/4 for both singletons, and Delta = 1/4 for {0, 1}. Catches a closed form whose conditional law keeps
    the perturbed positions (Binomial(m_j, 1 - p) instead of Binomial(m_j - c_j, 1 - p))."""
    g = {(0,): F(0), (1,): F(0), (2,): F(1)}
    for counts in ((1,), (2,)):
        assert claim._binomial_drop(g, [2], counts, F(1, 2)) == F(1, 4)
    g = {(0,): F(0), (1,): F(1), (2,): F(0)}  # f = 1 when exactly one token is kept: E[f] = 1/2, E[f | {0}] = 1/2
    assert claim._binomial_drop(g, [2], (1,), F(1, 2)) == 0 and claim._binomial_drop(g, [2], (2,), F(1, 2)) == F(1, 2)


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
