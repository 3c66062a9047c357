"""The model-accuracy table (python -m fred.evaluation.accuracy) on the synthetic data directory."""

from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from fred.evaluation.accuracy import main, model_accuracy
from fred.evaluation.datasets import load_dataset


def test_accuracy_is_that_of_the_runners_split(data_dir):
    """Catches an accuracy computed on another split than the evaluation runner's (test_size 0.25, random_state
    seed), or on the training texts: recomputed here with a pipeline built by hand."""
    data = load_dataset("restaurants", data_dir)
    x_train, x_test, y_train, y_test = train_test_split(list(data.texts), data.labels, test_size=0.25,
                                                        random_state=3)
    vec = TfidfVectorizer().fit(x_train)
    want = float(np.mean(LogisticRegression().fit(vec.transform(x_train), y_train).predict(vec.transform(x_test))
                         == np.asarray(y_test)))
    got = model_accuracy("restaurants", "logistic", seed=3, data_dir=data_dir)
    assert (got["accuracy"], got["train"], got["test"]) == (want, 30, 10)


def test_table_puts_the_papers_row_beside_ours(data_dir, tmp_path):
    """Catches a table that drops the paper's column or its transformer rows (the paper's Table 3 values, read from
    the LaTeX source in tests/claims/test_experiment_tables.py)."""
    main(["--datasets", "restaurants", "--models", "logistic,tree", "--data-dir", str(data_dir),
          "--out", str(tmp_path)])
    text = (tmp_path / "model_accuracy.md").read_text()
    assert "| Restaurants | logistic |" in text and "| 0.808 |" in text and "| 0.676 |" in text
    assert "| Restaurants | RoBERTa (paper only) | – | 0.972 |" in text
    assert "Command: `python -m fred.evaluation.accuracy --datasets restaurants" in text
