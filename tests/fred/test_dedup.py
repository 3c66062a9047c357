"""Each distinct text (or count vector) is scored once, and deduplication changes no drop (issue 17).

The references are independent of the deduplicating code: texts rendered here
with ``str.join``, scores asked of the classifier one row at a time, drops
averaged over rows by the plain loop of ``test_explainer_search.brute_force_drop``,
and count vectors from scikit-learn's own ``CountVectorizer.transform`` on the
rendered texts.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from fred import Fred, MaskSampler
from fred.fastpath import distinct_rows
from tests.fred.test_explainer_search import brute_force_drop

MASK = "UNK"
#: Scores are the same per-text values in both computations; drops differ only by summation order.
DROP_RTOL = 1e-12
# Few words, repeated, the mask token among them, one-letter words the default token pattern drops: equal
# texts from different patterns and equal count vectors from different texts are both frequent.
WORDS = ["good", "bad", "food", "the", MASK, "a", "I", "!"]
WEIGHT = {"good": 1.0, "bad": -1.25, "food": 0.5, "the": 0.125, MASK: 0.25}


class Recorder:
    """A black box f(text) = sigmoid(sum of word weights) that records every list of texts it is asked."""

    def __init__(self):
        self.calls: list[list[str]] = []

    @staticmethod
    def score(text: str) -> float:
        return 1.0 / (1.0 + np.exp(-sum(WEIGHT.get(w, 0.0) for w in text.split())))

    def __call__(self, texts):
        self.calls.append(list(texts))
        s = np.array([self.score(t) for t in texts])
        return np.column_stack([1.0 - s, s])


def rendered(tokens, perturbed) -> list[str]:
    """The masked texts, built here token by token."""
    return [" ".join(MASK if z else t for t, z in zip(tokens, row)) for row in perturbed]


def assert_drops_by_brute_force(exp, scores: np.ndarray, weights: np.ndarray, context: str) -> None:
    """Importances and the selected drop against per-row scores averaged by the test's own loop."""
    f = scores[:, exp.label]
    mean = float(weights @ f / weights.sum())
    d = mean - f
    b = len(exp.tokens)
    singles = [brute_force_drop(exp.sample_perturbed, weights, d, (j,)) for j in range(b)]
    want = np.array([np.nan if s is None else s for s in singles])
    assert_allclose(exp.importances, want, rtol=DROP_RTOL, atol=1e-15, equal_nan=True, err_msg=context)
    if exp.drop is not None:
        assert_allclose(exp.drop, brute_force_drop(exp.sample_perturbed, weights, d, exp.best_ids),
                        rtol=DROP_RTOL, atol=1e-15, err_msg=context)


documents = st.lists(st.sampled_from(WORDS), min_size=1, max_size=7).map(" ".join)


@given(documents, st.integers(0, 2**32 - 1), st.integers(20, 300), st.floats(0.1, 0.9))
def test_string_path_asks_each_distinct_text_once_and_keeps_every_drop(doc, seed, n, p):
    """Catches deduplication that asks a text twice, drops a text, scatters scores back to the wrong rows
    (drops and sample scores then differ from the row-by-row computation), or merges rows by pattern
    only and misses texts that render equal (the mask token in the document)."""
    tokens = doc.split()
    clf = Recorder()
    exp = Fred(clf, random_state=seed).explain(doc, p=p, n_samples=n, max_len=3)
    context = f"doc={doc!r} seed={seed} n={n} p={p}"
    texts = rendered(tokens, exp.sample_perturbed)
    asked = [t for call in clf.calls[1:] for t in call]
    assert clf.calls[0] == [doc], context
    assert len(asked) == len(set(asked)), f"{context}: a text was asked twice"
    assert set(asked) == set(texts), f"{context}: asked texts differ from the rendered design"
    assert list(exp.sample_texts) == texts, context
    per_row = np.array([clf.score(t) for t in texts])
    assert_allclose(exp.sample_scores[:, 1], per_row, rtol=0, atol=0, err_msg=context)
    assert_drops_by_brute_force(exp, np.column_stack([1 - per_row, per_row]), np.full(n, 1.0 / n), context)


@given(documents.filter(lambda d: len(d.split()) <= 8), st.floats(0.1, 0.9))
def test_exact_sampler_asks_each_distinct_text_once(doc, p):
    """The 2**b exact patterns are distinct, but positions holding the mask token render equal: catches a
    text asked twice there, or exact weights paired with the wrong scores after scattering."""
    tokens = doc.split()
    clf = Recorder()
    exp = Fred(clf, sampler="exact").explain(doc, p=p, max_len=2)
    texts = rendered(tokens, exp.sample_perturbed)
    asked = [t for call in clf.calls[1:] for t in call]
    assert len(asked) == len(set(asked)) == len(set(texts)), doc
    k = exp.sample_perturbed.sum(axis=1)
    weights = p**k * (1 - p) ** (len(tokens) - k)
    per_row = np.array([clf.score(t) for t in texts])
    assert_drops_by_brute_force(exp, np.column_stack([1 - per_row, per_row]), weights, f"doc={doc!r} p={p}")


class ThreeWordSampler(MaskSampler):
    """Replaces each perturbed token by one of three words drawn with the explainer's generator, row by row."""

    name = "three-words"
    CHOICES = ("good", "bad", MASK)

    def render(self, tokens, perturbed, rng):
        draws = rng.integers(0, len(self.CHOICES), size=perturbed.shape)
        return [" ".join(self.CHOICES[k] if z else t for t, z, k in zip(tokens, row, ks))
                for row, ks in zip(perturbed, draws)]


@given(documents, st.integers(0, 2**32 - 1))
def test_random_rendering_is_deduplicated_on_texts_with_the_generator_untouched(doc, seed):
    """A sampler whose rendering is random: equal patterns may give different texts, so deduplicating by
    pattern would score a row with another row's text. Catches that, and a render call that sees fewer
    rows (the generator then draws different words than the contract render(tokens, all rows, rng) says)."""
    tokens = doc.split()
    clf = Recorder()
    sampler = ThreeWordSampler()
    n = 200
    exp = Fred(clf, sampler=sampler, random_state=seed).explain(doc, n_samples=n, max_len=2)
    rng = np.random.default_rng(seed)
    design = sampler.draw(len(tokens), 0.5, n, rng)
    want_texts = sampler.render(tokens, design.perturbed, rng)
    assert list(exp.sample_texts) == want_texts
    asked = [t for call in clf.calls[1:] for t in call]
    assert len(asked) == len(set(asked)) and set(asked) == set(want_texts)
    per_row = np.array([clf.score(t) for t in want_texts])
    assert_allclose(exp.sample_scores[:, 1], per_row, rtol=0, atol=0)


class RecordingLogistic(LogisticRegression):
    """LogisticRegression that records how many rows each predict_proba call receives."""

    def predict_proba(self, X):
        self.rows_seen.append(X.shape[0])
        return super().predict_proba(X)


TRAIN = ["good food", "bad food", "the food was good", "the food was bad", "good good", "bad the bad",
         "I liked the food", "a bad bad place"]


@given(documents, st.integers(0, 2**32 - 1), st.sampled_from([CountVectorizer, TfidfVectorizer]))
def test_fast_path_scores_each_distinct_count_vector_once(doc, seed, vectorizer):
    """Rows with equal count vectors (a repeated word masked at different places, a position without
    in-vocabulary features masked or not) must reach the model once. Catches merging by pattern only
    (more rows than distinct vectors), merging different vectors (fewer), and scores scattered to the
    wrong rows (they then differ from the string path's)."""
    model = RecordingLogistic()
    pipe = make_pipeline(vectorizer(), model).fit(TRAIN, [1, 0, 1, 0, 1, 0, 1, 0])
    model.rows_seen = []
    n = 150
    fast = Fred(pipe.predict_proba, random_state=seed)
    exp = fast.explain(doc, n_samples=n, max_len=2)
    assert exp.fast_path.active, exp.fast_path.reason
    tokens = doc.split()
    b = len(tokens)
    probe = np.vstack([np.zeros(b, bool), np.ones(b, bool), np.arange(b) % 2 == 0, exp.sample_perturbed[:3]])
    counts = CountVectorizer.transform(pipe[0], rendered(tokens, np.vstack([probe, exp.sample_perturbed])))
    distinct = {(tuple(r.indices), tuple(r.data)) for r in (counts[[i]].tocsr() for i in range(counts.shape[0]))}
    # calls: the text, one batch of the distinct count vectors, the check's 6 rendered texts
    assert model.rows_seen == [1, len(distinct), len(probe)], f"doc={doc!r} seed={seed}"
    slow = Fred(pipe.predict_proba, random_state=seed, fast_path=False).explain(doc, n_samples=n, max_len=2)
    assert_allclose(exp.sample_scores, slow.sample_scores, rtol=1e-12, atol=1e-15)
    assert_allclose(exp.importances, slow.importances, rtol=1e-12, atol=1e-15, equal_nan=True)


@given(st.integers(0, 2**32 - 1), st.integers(1, 60), st.integers(1, 6), st.integers(1, 3))
def test_distinct_rows_groups_exactly_the_equal_rows(seed, n, width, top):
    """Catches rows merged that differ, equal rows left apart, representatives that are not first
    occurrences, and an inverse that does not rebuild the matrix."""
    dense = np.random.default_rng(seed).integers(0, top + 1, size=(n, width))
    reps, inverse = distinct_rows(sp.csr_array(dense))
    firsts = {}
    for i, row in enumerate(map(tuple, dense)):
        firsts.setdefault(row, i)
    assert reps.tolist() == sorted(firsts.values())
    assert_allclose(dense[reps][inverse], dense, rtol=0, atol=0)


def test_distinct_rows_keeps_hash_collisions_apart():
    """The hash weights are sqrt(column + 2): columns 2, 7, 14, 23 weigh exactly 2, 3, 4, 5, so these rows
    collide (4 = 2 * 2 = 4 * 1 with different non-zero counts; 7 = 2 + 5 = 3 + 4 with the same). Catches a
    grouping that trusts the hash without comparing entries."""
    width = 24
    rows = [{2: 2}, {14: 1}, {2: 1, 23: 1}, {7: 1, 14: 1}, {2: 2}]
    dense = np.zeros((len(rows), width))
    for i, row in enumerate(rows):
        for j, v in row.items():
            dense[i, j] = v
    reps, inverse = distinct_rows(sp.csr_array(dense))
    assert reps.tolist() == [0, 1, 2, 3] and inverse.tolist() == [0, 1, 2, 3, 0]
