"""Loaders of the two review datasets used by the experiments (read in place, never copied).

* ``restaurants.tsv``: tab-separated, columns ``Review`` and ``Liked`` (0/1).
* ``yelp.csv``: ``|``-separated, columns ``text`` and ``stars``; texts containing
  the separator, quotes or newlines are double-quoted with ``""`` escapes, so the
  file is parsed with :mod:`csv` rather than split by lines. In this copy
  ``stars`` is already binary (1 positive, 0 negative) and is used as the label
  unchanged, as the authors' loader does; any other value is refused.

The directory is, in order: the ``path`` argument, the environment variable
``FRED_DATA_DIR``, or, in a source checkout only (a ``pyproject.toml`` beside
the ``fred`` package), ``../shared/data`` next to the checkout. An installed
package has no such fallback: pass ``path`` or set ``FRED_DATA_DIR``.

Texts are preprocessed as the authors do (described from their
``data/*.py``): characters other than ASCII letters, digits and whitespace are
removed and the text is lowercased. We also collapse whitespace runs to single
spaces so that every explainer sees the same whitespace tokens, and drop the
documents left empty (reported in :attr:`TextDataset.n_dropped`).

Every experiment splits a dataset the same way (:func:`split_dataset`): a quarter held out for testing, shuffled by
the run's seed.
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split

#: Environment variable naming the data directory.
DATA_ENV = "FRED_DATA_DIR"
_CHECKOUT = Path(__file__).resolve().parents[2]
_FILES = {"restaurants": ("restaurants.tsv", "\t", "Review", "Liked"), "yelp": ("yelp.csv", "|", "text", "stars")}
#: The review datasets by name: ``restaurants`` (``restaurants.tsv``) and ``yelp`` (``yelp.csv``).
DATASETS = tuple(_FILES)
_STRIP = re.compile(r"[^a-zA-Z\d\s]")
#: Fraction of a dataset held out for testing; the explained documents are test documents.
TEST_SIZE = 0.25


@dataclass(frozen=True, eq=False)
class TextDataset:
    """Documents and binary labels (1 = positive)."""

    name: str
    texts: tuple[str, ...]
    labels: np.ndarray
    #: Documents left empty by the cleaning, hence dropped.
    n_dropped: int


def data_dir(path: str | os.PathLike | None = None) -> Path:
    """The data directory: ``path``, else ``$FRED_DATA_DIR``, else ``<checkout>/../shared/data`` in a source checkout.

    Raises
    ------
    FileNotFoundError
        Outside a source checkout when neither ``path`` nor ``FRED_DATA_DIR`` is given.
    """
    if path is not None:
        return Path(path)
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    if (_CHECKOUT / "pyproject.toml").is_file():
        return _CHECKOUT.parent / "shared" / "data"
    raise FileNotFoundError(f"no data directory: pass path= or set {DATA_ENV} (the ../shared/data fallback "
                            "exists only in a source checkout)")


def dataset_file(name: str, path: str | os.PathLike | None = None) -> Path:
    """The file of dataset ``name`` in :func:`data_dir`; FileNotFoundError naming both ways to point at it."""
    if name not in _FILES:
        raise ValueError(f"name must be one of {DATASETS}, got {name!r}")
    file = data_dir(path) / _FILES[name][0]
    if not file.is_file():
        raise FileNotFoundError(f"{file} not found; pass path= or set {DATA_ENV} to the data directory")
    return file


def dataset_available(name: str, path: str | os.PathLike | None = None) -> bool:
    """Whether :func:`dataset_file` finds dataset ``name`` (for skipping what needs it)."""
    try:
        dataset_file(name, path)
    except FileNotFoundError:
        return False
    return True


def preprocess(text: str) -> str:
    """Lowercase, drop characters other than ASCII letters/digits/whitespace, collapse whitespace.

    >>> preprocess("Wow... Loved  this\\nplace!")
    'wow loved this place'
    """
    return " ".join(_STRIP.sub("", text).lower().split())


def read_rows(file: Path, delimiter: str, text_column: str, label_column: str) -> list[tuple[str, str]]:
    """(text, label) string pairs of a delimited file with a header row and ``"``-quoting."""
    with open(file, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle, delimiter=delimiter, quotechar='"', doublequote=True)
        missing = {text_column, label_column} - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{file} lacks column(s) {sorted(missing)}; header is {reader.fieldnames}")
        return [(row[text_column], row[label_column]) for row in reader]


def load_dataset(name: str, path: str | os.PathLike | None = None, clean: bool = True) -> TextDataset:
    """Load ``"restaurants"`` or ``"yelp"`` from :func:`data_dir` (``clean``: apply :func:`preprocess`)."""
    file = dataset_file(name, path)
    _, delimiter, text_column, label_column = _FILES[name]
    texts, labels = [], []
    dropped = 0
    for text, label in read_rows(file, delimiter, text_column, label_column):
        if label.strip() not in ("0", "1"):
            raise ValueError(f"{file}: column {label_column!r} must be 0 or 1, got {label!r}")
        text = preprocess(text) if clean else text
        if not text.split():
            dropped += 1
            continue
        texts.append(text)
        labels.append(int(label))
    return TextDataset(name, tuple(texts), np.asarray(labels, dtype=int), dropped)


def split_dataset(data: TextDataset, seed: int) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    """``(x_train, x_test, y_train, y_test)``: ``train_test_split(list(data.texts), data.labels,
    test_size=TEST_SIZE, random_state=seed)``, the split of the evaluation runs and of the accuracy table."""
    return train_test_split(list(data.texts), data.labels, test_size=TEST_SIZE, random_state=seed)
