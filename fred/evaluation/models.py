"""The text models of the experiments: ``TfidfVectorizer()`` then a classifier, sklearn defaults; and ``minilm``,
MiniLM-L6 sentence embeddings then a logistic regression (:mod:`fred.evaluation.neural`, the ``neural`` extra).

The one place these models are built, for the evaluation runner, the benchmarks
and the review figure.
"""

from __future__ import annotations

from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.tree import DecisionTreeClassifier

# torch is imported only when the encoder is loaded (fred.evaluation.neural.load_minilm), not here.
from .neural import SentenceEncoderClassifier

#: Model names, the paper's in the order of its tables, then the offline transformer.
MODELS = ("logistic", "tree", "forest", "minilm")


def make_model(name: str, seed: int = 0):
    """Unfitted model: a ``TfidfVectorizer() -> classifier`` pipeline (``seed`` is the tree and forest
    ``random_state``), or for ``"minilm"`` a :class:`~fred.evaluation.neural.SentenceEncoderClassifier`.

    >>> make_model("forest", seed=3)[-1].random_state
    3
    """
    if name not in MODELS:
        raise ValueError(f"name must be one of {MODELS}, got {name!r}")
    if name == "minilm":
        return SentenceEncoderClassifier()
    classifier = {"logistic": LogisticRegression,
                  "tree": lambda: DecisionTreeClassifier(random_state=seed),
                  "forest": lambda: RandomForestClassifier(random_state=seed)}[name]()
    return make_pipeline(TfidfVectorizer(), classifier)
