"""The scikit-learn text models of the experiments: ``TfidfVectorizer()`` then a classifier, sklearn defaults.

The one place these pipelines are built, for the evaluation runner, the benchmarks
and the review figure.
"""

from __future__ import annotations

from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.tree import DecisionTreeClassifier

#: Model names, in the order of the paper's tables.
MODELS = ("logistic", "tree", "forest")


def make_model(name: str, seed: int = 0) -> Pipeline:
    """Unfitted ``TfidfVectorizer() -> classifier`` pipeline; ``seed`` is the tree and forest ``random_state``.

    >>> make_model("forest", seed=3)[-1].random_state
    3
    """
    if name not in MODELS:
        raise ValueError(f"name must be one of {MODELS}, got {name!r}")
    classifier = {"logistic": LogisticRegression,
                  "tree": lambda: DecisionTreeClassifier(random_state=seed),
                  "forest": lambda: RandomForestClassifier(random_state=seed)}[name]()
    return make_pipeline(TfidfVectorizer(), classifier)
