"""Data, models and timing shared by the benchmark scripts (the classifier timers are in :mod:`_timing`).

The data sets are read in place through :func:`fred.evaluation.datasets.load_dataset`
(``../shared/data`` next to the repository, or ``$FRED_DATA_DIR``); nothing is
copied into the repository.
"""

from __future__ import annotations

import datetime
import shlex
import statistics
import sys
import time
from typing import Callable, Sequence

import numpy as np
from sklearn.pipeline import Pipeline

from fred.provenance import describe, environment
from fred.evaluation.datasets import load_dataset
from fred.evaluation.models import make_model

#: The models the benchmarks compare (names of :func:`fred.evaluation.models.make_model`).
MODELS = ("logistic", "forest")


def load_restaurants() -> tuple[list[str], np.ndarray]:
    """Raw reviews and 0/1 labels of ``restaurants.tsv`` (see :func:`fred.evaluation.datasets.load_dataset`)."""
    data = load_dataset("restaurants", clean=False)
    return list(data.texts), data.labels


def load_yelp() -> tuple[list[str], np.ndarray]:
    """Raw reviews and 0/1 labels of ``yelp.csv`` (see :func:`fred.evaluation.datasets.load_dataset`)."""
    data = load_dataset("yelp", clean=False)
    return list(data.texts), data.labels


def pick_document(texts: Sequence[str], n_tokens: int) -> int:
    """Index of the first text with exactly ``n_tokens`` whitespace tokens (else the closest)."""
    return min(range(len(texts)), key=lambda i: (abs(len(texts[i].split()) - n_tokens), i))


def fit_pipeline(model: str, texts: Sequence[str], labels: np.ndarray, held_out: int) -> Pipeline:
    """:func:`fred.evaluation.models.make_model` (seed 0), fitted without the explained text."""
    keep = [i for i in range(len(texts)) if i != held_out]
    return make_model(model, seed=0).fit([texts[i] for i in keep], labels[keep])


def median_seconds(fn: Callable[[], object], repeats: int) -> float:
    """Median wall-clock seconds of ``repeats`` calls of ``fn`` (after one untimed warm-up call)."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def machine() -> str:
    """One line describing where the numbers were measured."""
    return describe(environment(("lime", "shap", "spacy")))


def provenance(note: str = "") -> list[str]:
    """Markdown lines naming the command that ran, when, and where (plus an optional note)."""
    lines = [f"Command: `{shlex.join(['python', *sys.argv])}`",
             f"Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
             f"Machine: {machine()}"] + ([f"Note: {note}"] if note else [])
    return [line + "  " for line in lines[:-1]] + lines[-1:]  # two spaces: a markdown line break


def emit(report: str, path: str | None, mode: str, heading: str) -> None:
    """Print ``report``; also write it under ``heading`` to ``path`` (mode "w" or "a") when given."""
    print(report)
    if path:
        with open(path, mode, encoding="utf-8") as f:
            f.write(f"{heading}\n\n{report}\n")
