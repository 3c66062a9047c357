"""pos-opposite-vs-similar (line 387): the opposite-sentiment replacement against Ribeiro et al.'s similarity-weighted
one, on the polar adjectives of Restaurants test reviews.

The laws are compared with hand computations on two-dimensional toy embeddings, the Eq. 5 gap with Eq. 5 computed
row by row, and one token's exact impact with a brute-force average over the reference sampler's own pool."""

from __future__ import annotations

import numpy as np
import pytest

from proofs_checks.claims.pos import pos_opposite_vs_similar as claim
from proofs_checks.claims.pos.restaurants import (
    logistic_model,
    missing_data,
    missing_packages,
    pos_setting,
)


def test_laws_on_toy_embeddings_by_hand():
    """Catches a similarity law that is not proportional to the clipped cosine (a softmax, negative weights kept, the
    token itself drawn) and an opposite law that leaves out the neutral words: 'good' = (1, 0); 'decent' = (0.6, 0.8)
    cos 0.6; 'bad' = (-1, 0) cos -1 (weight 0); 'red' = (0, 1) cos 0. Similar: decent 1. Opposite (VADER: bad negative,
    decent and red neutral): uniform on bad, decent, red."""
    if missing_packages():
        pytest.skip(f"the pos extra is not installed: {missing_packages()}")
    laws = claim.Laws(("bad", "decent", "good", "red"), np.array([[-1.0, 0.0], [0.6, 0.8], [1.0, 0.0], [0.0, 1.0]]))
    assert laws.similar("good").tolist() == [0.0, 1.0, 0.0, 0.0]
    assert laws.opposite("good") == pytest.approx([1 / 3, 1 / 3, 0.0, 1 / 3])
    assert laws.similar("red") == pytest.approx([0.0, 0.8 / 0.8, 0.0, 0.0])  # red: decent 0.8, good 0, bad 0


def test_eq5_gap_is_the_difference_of_two_eq5_scores():
    """Catches a gap formula that drops the mean-prediction baseline or the n0 / n factor: on random rows it equals
    s_opposite - s_similar computed as Eq. 5 (average of mean(f) - f over the rows perturbing the position)."""
    rng = np.random.default_rng(4)
    y_opp, y_sim, hit = rng.random(400), rng.random(400), rng.random(400) < 0.5
    direct = np.mean(y_opp.mean() - y_opp[hit]) - np.mean(y_sim.mean() - y_sim[hit])
    assert claim.eq5_gap(y_opp - y_sim, hit)[0] == pytest.approx(direct, abs=1e-12)


@pytest.fixture(scope="module")
def result():
    if missing_packages() or missing_data():
        pytest.skip(f"needs the pos extra and the Restaurants file: {missing_packages() or missing_data()}")
    pytest.importorskip("sentence_transformers", reason="the similarity rule's encoder is the neural extra")
    return claim.check()


def test_verdicts(result):
    """Catches a lost step or a wrong headline: every step holds, every reading holds."""
    assert result.status == "holds" and result.reading_status("every") == "holds"
    assert all(s.status == "holds" for s in result.steps)


def test_one_tokens_opposite_impact_by_brute_force(result):
    """Catches an opposite law that is not the reference's: for the first polar adjective, f(xi) minus the plain
    average of f over the reference sampler's own pool (dictionaries.pool), signed, is the step's value."""
    row = next(s for s in result.steps if s.id.endswith("s1-single-token-exact")).values["tokens"][0]
    model, _ = logistic_model()
    tokens = row["review"].split()
    j = tokens.index(row["token"])
    pool = pos_setting().sampler.dictionaries.pool("ADJ", row["sign"])
    f = lambda texts: model.predict_proba(texts)[:, 1]
    swapped = f([" ".join(tokens[:j] + [w] + tokens[j + 1:]) for w in pool])
    assert row["opposite"] == pytest.approx(row["sign"] * (f([row["review"]])[0] - swapped.mean()), abs=1e-12)


def test_counts_add_up(result):
    """Catches a summary that disagrees with its tokens: the greater / smaller counts recomputed from each token's gap
    and standard error at the recorded z."""
    step = next(s for s in result.steps if s.id.endswith("s2-fred-scores")).values
    assert step["greater"] == sum(t["gap"] >= step["z"] * t["se"] for t in step["tokens"])
    assert step["smaller"] == sum(t["gap"] <= -step["z"] * t["se"] for t in step["tokens"])
