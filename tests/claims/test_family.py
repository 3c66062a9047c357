"""The family's tabled classifiers (``Case.tabled_classifier_fn``), which the claims hand to every explainer instead
of the fitted pipelines: they must answer exactly what the pipeline answers, text by text.

The reference here is each pipeline asked one text at a time, which no table can imitate unless the pipeline
scores each text on its own.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np

from fred_constants import MASK_TOKEN
from proofs_checks.models.family import family
from proofs_checks.models.tabled_scores import TabledClassifier


def test_tabled_classifier_answers_what_the_pipeline_answers_text_by_text():
    """On every case of the family (the four pipeline kinds), a shuffled batch of masked texts mixed with texts
    outside the table (another explainer's renderings) against the fitted pipeline asked each text ALONE. Catches a
    row given to the wrong text, a mixed batch put back together out of order, a pipeline whose rows depend on the
    rest of the batch (then the table is not its scores), and a caller's write reaching the shared table."""
    rng = np.random.default_rng(0)
    for case in family():
        tokens, pipeline, tabled = list(case.tokens), case.classifier_fn(), case.tabled_classifier_fn()
        masked = sorted({" ".join(MASK_TOKEN if code >> i & 1 else t for i, t in enumerate(tokens))
                         for code in range(1 << len(tokens))})
        outside = [" ".join(tokens[::-1]) + " good", case.text.upper()]
        batch = list(rng.permutation(list(rng.permutation(masked))[:4] + outside))
        alone = np.concatenate([pipeline([t]) for t in batch])
        got = tabled(batch)
        assert got.dtype == alone.dtype and np.array_equal(got, alone), case.describe()
        whole = masked[::-1]
        assert np.array_equal(tabled(whole), np.concatenate([pipeline([t]) for t in whole])), case.describe()
        got[:] = -1.0
        assert np.array_equal(tabled(batch), alone), case.describe()
        assert case.tabled_classifier_fn() is tabled  # built once per case


def test_tabled_classifier_can_be_pickled_copied_and_hashed_as_a_classifier_fn():
    """Catches a table that an explainer cannot copy, pickle (a process pool) or use as a dict key, which the
    plain classifiers it replaces all allowed, and a copy that answers differently or became writable."""
    case = next(c for c in family() if c.kind.startswith("logistic"))  # two columns, as _Scaled
    tabled = case.tabled_classifier_fn()
    masked = list(tabled.rows)
    for other in (copy.deepcopy(tabled), pickle.loads(pickle.dumps(TabledClassifier(
            dict(tabled.rows), tabled.scores, _Scaled(2.0))))):
        assert list(other.rows) == masked and not other.scores.flags.writeable
    restored = pickle.loads(pickle.dumps(TabledClassifier(dict(tabled.rows), tabled.scores, _Scaled(2.0))))
    assert np.array_equal(restored(masked[:3] + ["a text outside"]),
                          np.concatenate([tabled.scores[:3], _Scaled(2.0)(["a text outside"])]))
    assert {tabled: 1}[tabled] == 1 and tabled != copy.deepcopy(tabled)  # identity


class _Scaled:
    """A picklable classifier: the text's length times a factor, in two columns."""

    def __init__(self, factor: float):
        self.factor = factor

    def __call__(self, texts):
        return np.array([[1.0, self.factor * len(t)] for t in texts])
