"""The released training pipeline as the paper's appendix describes it, written here from that description (not
from the released code), for the tests of experiment-model-accuracies and experiment-document-lengths.

Each dataset is read with pandas from the data directory, cleaned (ASCII letters, digits and whitespace kept,
lowercased, whitespace collapsed), split with ``train_test_split`` (a quarter held out) after ``numpy.random.seed(42)``,
and each model is a ``TfidfVectorizer()`` + scikit-learn classifier with no argument, trained right after the split
(the tree and the forest draw from numpy's global generator, as the released code leaves them).
"""

from __future__ import annotations

import functools
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from fred.evaluation.datasets import dataset_available, dataset_file

CLASSIFIERS = {"logistic": LogisticRegression, "tree": DecisionTreeClassifier, "forest": RandomForestClassifier}
READ = {"restaurants": ("\t", "Review", "Liked"), "yelp": ("|", "text", "stars")}

needs_data = pytest.mark.skipif(not all(dataset_available(d) for d in READ),
                                reason="restaurants.tsv or yelp.csv not found (set FRED_DATA_DIR, or ../shared/data)")


def clean(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^a-zA-Z\d\s]", "", text).lower())


@functools.lru_cache(maxsize=2)
def documents(dataset: str) -> tuple[list[str], list[int]]:
    sep, text, label = READ[dataset]
    frame = pd.read_csv(dataset_file(dataset), sep=sep)
    return [clean(t) for t in frame[text]], list(frame[label])


@functools.lru_cache(maxsize=8)
def by_hand(dataset: str, model: str) -> dict:
    """Accuracy (correct, test size), the test documents with their predictions, and the trained model's
    positive-class probability (a function of a list of texts)."""
    x, y = documents(dataset)
    np.random.seed(42)
    x_train, x_test, y_train, y_test = train_test_split(x, y)
    vectorizer = TfidfVectorizer()
    classifier = CLASSIFIERS[model]().fit(vectorizer.fit_transform(x_train), y_train)
    predicted = classifier.predict(vectorizer.transform(x_test))
    return {"correct": int(np.sum(predicted == np.asarray(y_test))), "n_test": len(y_test),
            "x_test": x_test, "predicted": [int(v) for v in predicted],
            "positive_probability": lambda texts: classifier.predict_proba(vectorizer.transform(texts))[:, 1]}
