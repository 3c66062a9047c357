"""A claim's classifier answered from a table of its own scores on the masked texts of one document.

The claims that run FRED thousands of times on one short document (prop2-shortcut with the exact sampler,
counterfactuals-linear with the mask sampler) ask their classifier the same at most 2^b texts again and again: the
claim asks it each of them once (:func:`analytic.masked_texts`, in one batch), and :class:`TabledClassifier`
answers from that table. A text outside the table (an explainer rendering texts otherwise) goes to the classifier
itself. The answers are the classifier's own floats only for a classifier that scores each text of a batch on its
own (the same row whatever else the batch holds): each claim's tests check this on its classifiers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from analytic import masked_texts
from analytic.exact_cache import frozen


@dataclass(frozen=True, eq=False)
class TabledClassifier:
    """``classifier_fn`` (texts -> scores) answering the texts of ``rows`` from ``scores`` (the row ``rows[text]``,
    computed by ``classifier_fn``) and any other text from ``classifier_fn``, asked once for all of them.

    ``rows`` and ``scores`` are kept read-only (they are shared by every call); each call returns a new array.
    Compared and hashed by identity, and pickled or copied as a classifier passed to an explainer may be.
    """

    rows: Mapping[str, int]
    scores: np.ndarray
    classifier_fn: Callable

    def __post_init__(self):
        object.__setattr__(self, "rows", MappingProxyType(dict(self.rows)))
        if not isinstance(self.scores, np.ndarray) or self.scores.flags.writeable:
            object.__setattr__(self, "scores", frozen(self.scores))

    def __reduce__(self):
        return type(self), (dict(self.rows), self.scores, self.classifier_fn)

    @classmethod
    def on_document(cls, tokens: Sequence[str], classifier_fn: Callable, mask_token: str) -> TabledClassifier:
        """``classifier_fn`` with its scores on the distinct :func:`analytic.masked_texts` of ``tokens`` (first
        occurrences in code order) asked once, in one batch, and kept read-only.

        >>> calls = []
        >>> f = TabledClassifier.on_document(["a", "b"], lambda t: calls.append(list(t)) or np.ones(len(t)), "UNK")
        >>> f(["a UNK", "a b", "UNK UNK"]).tolist(), calls
        ([1.0, 1.0, 1.0], [['a b', 'UNK b', 'a UNK', 'UNK UNK']])
        """
        texts = list(dict.fromkeys(masked_texts(tokens, mask_token)))
        return cls({t: i for i, t in enumerate(texts)}, frozen(classifier_fn(texts)), classifier_fn)

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        where = [self.rows.get(t, -1) for t in texts]
        missing = [t for t, i in zip(texts, where) if i < 0]
        if not where or len(missing) == len(where):
            return self.classifier_fn(texts)
        if not missing:
            return self.scores[np.array(where, dtype=np.intp)]
        extra = iter(range(len(self.scores), len(self.scores) + len(missing)))
        index = np.array([i if i >= 0 else next(extra) for i in where], dtype=np.intp)
        return np.concatenate([self.scores, np.asarray(self.classifier_fn(missing))])[index]
