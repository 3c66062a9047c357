"""Timers around a classifier, importing nothing from ``fred``.

:mod:`_worker` runs in interpreters where ``fred`` is another package (an
earlier checkout of ours, or the authors' code), so the timers live here rather
than in :mod:`_common`, which imports ours.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np


class TimedClassifier:
    """Wraps ``classifier_fn``; accumulates the seconds spent inside it and the number of texts it was asked."""

    def __init__(self, classifier_fn: Callable[[list[str]], np.ndarray]):
        self.classifier_fn = classifier_fn
        self.seconds = 0.0
        self.rows = 0

    def reset(self) -> None:
        self.seconds, self.rows = 0.0, 0

    def __call__(self, texts: list[str]) -> np.ndarray:
        start = time.perf_counter()
        try:
            return self.classifier_fn(texts)
        finally:
            self.seconds += time.perf_counter() - start
            self.rows += len(texts)


class PipelineStepTimer:
    """Seconds inside a fitted scikit-learn pipeline's own steps, and rows given to its last step.

    FRED's fast path needs ``classifier_fn`` to be the pipeline's bound method
    itself, so it cannot be wrapped; instead the methods of the steps an
    explanation calls are shadowed by timed instance attributes: the
    vectorizer's ``transform`` (texts: the explained one and the fast path's
    check), its ``TfidfTransformer``'s ``transform`` (count matrices), the
    middle steps' ``transform`` and the last step's ``method``. Nested calls (the
    vectorizer calling its transformer) are counted once. The pipeline object
    itself is untouched.
    """

    def __init__(self, pipeline, method: str):
        self.seconds = 0.0
        self.rows = 0
        self._depth = 0
        vectorizer = pipeline[0]
        targets = [(vectorizer, "transform", False)]
        if hasattr(vectorizer, "_tfidf"):
            targets.append((vectorizer._tfidf, "transform", False))
        targets += [(step, "transform", False) for step in pipeline[1:-1]]
        targets.append((pipeline[-1], method, True))
        for owner, name, last in targets:
            setattr(owner, name, self._timed(getattr(owner, name), last))

    def reset(self) -> None:
        self.seconds, self.rows = 0.0, 0

    def _timed(self, method: Callable, last: bool) -> Callable:
        def timed(x, *args, **kwargs):
            if last:
                self.rows += x.shape[0]
            self._depth += 1
            start = time.perf_counter()
            try:
                return method(x, *args, **kwargs)
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self.seconds += time.perf_counter() - start

        return timed
