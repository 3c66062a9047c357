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


def test_sharper_laws_on_toy_embeddings_by_hand():
    """Catches a 'sharper' law that keeps the token, forgets the temperature or keeps more than the nearest words:
    'good' = (1, 0), 'decent' cos 0.6, 'red' cos 0, 'bad' cos -1; exp(cos / 0.1) weights e^6, e^0, e^-10 over decent,
    red, bad (good excluded); with NEIGHBOURS planted to 1 only 'decent' remains."""
    if missing_packages():
        pytest.skip(f"the pos extra is not installed: {missing_packages()}")
    laws = claim.Laws(("bad", "decent", "good", "red"), np.array([[-1.0, 0.0], [0.6, 0.8], [1.0, 0.0], [0.0, 1.0]]))
    weights = np.array([np.exp(-10), np.exp(6), 0.0, 1.0])
    assert laws.sharp("good") == pytest.approx(weights / weights.sum(), abs=1e-12)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(claim, "NEIGHBOURS", 1)
        assert laws.nearest("red").tolist() == [0.0, 1.0, 0.0, 0.0]


def test_law_margins_by_hand():
    """Catches margins that count ties as larger or take the median over tokens whose similar impact is not
    positive: opposite 0.2, 0.1, 0.3 against similar 0.1, 0.1, -0.1 gives 2 larger (0.2 > 0.1, 0.3 > -0.1)
    and the median ratio over the first two only, (2 + 1) / 2."""
    rows = [{"opposite": o, "similar": v, "similar_sharp": v, "similar_nearest": v}
            for o, v in ((0.2, 0.1), (0.1, 0.1), (0.3, -0.1))]
    assert claim.law_margins(rows)["similar"] == {"larger": 2, "median_ratio": pytest.approx(1.5)}


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
    """Catches a lost step or a wrong headline: every step holds, every reading holds; the 'every' reading is scoped
    to the 27 adjectives tested and the sharper laws widen the margin (1.08 near-uniform, larger under exp(cos / 0.1)
    and on the 20 nearest words)."""
    assert result.status == "holds" and result.reading_status("every") == "holds"
    assert all(s.status == "holds" for s in result.steps)
    every = next(r for r in result.readings if r.id == "every").meaning
    assert "27 polar adjectives" in every and "not every token with a sentiment" in every
    margins = next(s for s in result.steps if s.id.endswith("s1-single-token-exact")).values["by_law"]
    assert round(margins["similar"]["median_ratio"], 2) == 1.08 and margins["similar"]["larger"] == 27
    assert margins["similar_sharp"]["median_ratio"] > 1.2 and margins["similar_nearest"]["median_ratio"] > 1.2


def test_sharper_laws_recomputed_from_the_embeddings(result):
    """Catches sharper-law impacts that are not the stated laws: for the first token, exp(cos / 0.1) (the token
    excluded) and the clipped cosine on its 20 nearest words, recomputed with numpy from the MiniLM embeddings, give
    the recorded impacts."""
    row = next(s for s in result.steps if s.id.endswith("s1-single-token-exact")).values["tokens"][0]
    laws = claim.laws()
    model, _ = logistic_model()
    tokens = row["review"].split()
    j = tokens.index(row["token"])
    f = lambda texts: model.predict_proba(texts)[:, 1]
    swapped = f([" ".join(tokens[:j] + [w] + tokens[j + 1:]) for w in laws.pool])
    cos = laws.embeddings @ laws.embeddings[laws.pool.index(row["token"])]
    others = np.array([w != row["token"] for w in laws.pool])
    soft = np.where(others, np.exp(cos / 0.1), 0.0)
    order = [k for k in np.argsort(-cos) if others[k]][:20]
    near = np.zeros(len(cos))
    near[order] = np.clip(cos[order], 0, None)
    base = f([row["review"]])[0]
    assert row["similar_sharp"] == pytest.approx(row["sign"] * (base - soft @ swapped / soft.sum()), abs=1e-9)
    assert row["similar_nearest"] == pytest.approx(row["sign"] * (base - near @ swapped / near.sum()), abs=1e-9)


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
