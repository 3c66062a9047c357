"""Black boxes as lookup tables over the 2^b mask patterns of one document (exact, and fast under FRED's mask
sampler): one table comes from a fitted scikit-learn decision tree (non-linear), one from a TF-IDF + Ridge
pipeline, one is arbitrary. Shared by the Lemma 1 claim tests and the FRED-vs-referee tests.
"""

from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import Ridge
from sklearn.tree import DecisionTreeClassifier

from analytic import table_from_classifier

DOC = "the food was not good great".split()
WORDS = ["good", "great", "bad", "not", "food", "service", "the", "was"]


def tree_table() -> np.ndarray:
    """P(positive) of a decision tree fitted on a generated corpus: positive iff (good or great) and not 'not'."""
    rng = np.random.default_rng(0)
    corpus = [" ".join(rng.choice(WORDS, size=rng.integers(3, 8))) for _ in range(300)]
    labels = [int(("good" in d.split() or "great" in d.split()) and "not" not in d.split()) for d in corpus]
    vec = CountVectorizer().fit(corpus)
    tree = DecisionTreeClassifier(max_depth=4, random_state=0).fit(vec.transform(corpus), labels)
    return table_from_classifier(lambda texts: tree.predict_proba(vec.transform(texts)), DOC, label=1)


def ridge_table() -> np.ndarray:
    """Decision values of a TF-IDF (norm=None) + Ridge pipeline on a generated corpus."""
    rng = np.random.default_rng(1)
    corpus = [" ".join(rng.choice(WORDS, size=rng.integers(3, 8))) for _ in range(100)]
    y = [d.count("good") + d.count("great") - 2.0 * d.count("not") for d in corpus]
    vec = TfidfVectorizer(norm=None).fit(corpus)
    model = Ridge(alpha=1.0).fit(vec.transform(corpus), y)
    return table_from_classifier(lambda texts: model.predict(vec.transform(texts)), DOC)


def random_table() -> np.ndarray:
    return np.random.default_rng(2).random(2 ** len(DOC))


TABLES = {"tree": tree_table, "ridge": ridge_table, "random": random_table}
