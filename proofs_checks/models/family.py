"""The stated finite family of real fitted scikit-learn models and documents the proposition checks run on.

Five seeded corpora of short reviews over a 12-word vocabulary (with repeats,
so multiplicities > 1 occur), each fitted with four pipelines:

* ``ridge-raw``: ``TfidfVectorizer(norm=None)`` + ``Ridge`` (Eq. 6 exactly),
* ``logistic-raw``: ``TfidfVectorizer(norm=None)`` + ``LogisticRegression``, explained through
  ``predict_proba`` (a strictly increasing function of Eq. 6),
* ``ridge-l2``: scikit-learn's default ``TfidfVectorizer()`` (L2-normalised) + ``Ridge``,
* ``logistic-l2``: default ``TfidfVectorizer()`` + ``LogisticRegression``,

and six documents per corpus of 2 to 7 tokens (b <= 7, so the exact sampler enumerates every pattern).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression, Ridge

from analytic.exact_cache import exact_cache
from fred_constants import MASK_TOKEN

from .tabled_scores import TabledClassifier

#: The family's words: four positive, four negative, four neutral.
VOCABULARY = ("good", "great", "tasty", "nice", "bad", "awful", "slow", "cold", "food", "service", "place", "staff")
#: The positive words of the corpus ...
POSITIVE = frozenset(VOCABULARY[:4])
#: ... and the negative ones.
NEGATIVE = frozenset(VOCABULARY[4:8])
#: Seeds of the generated corpora.
SEEDS = (0, 1, 2, 3, 4)
#: The fitted models: ridge or logistic regression on raw or L2-normalised TF-IDF.
KINDS = ("ridge-raw", "logistic-raw", "ridge-l2", "logistic-l2")
#: Documents explained per corpus.
DOCS_PER_CORPUS = 6


@dataclass(frozen=True)
class Case:
    """One fitted pipeline and one document of the family."""

    kind: str
    seed: int
    tokens: tuple[str, ...]
    vectorizer: object
    model: object

    @property
    def text(self) -> str:
        """The document: the tokens joined by spaces."""
        return " ".join(self.tokens)

    def classifier_fn(self) -> Callable:
        """Texts -> scores: the regression output (1-d) or predict_proba (n, 2)."""
        if self.kind.startswith("ridge"):
            return lambda texts: self.model.predict(self.vectorizer.transform(texts))
        return lambda texts: self.model.predict_proba(self.vectorizer.transform(texts))

    def tabled_classifier_fn(self) -> TabledClassifier:
        """:meth:`classifier_fn` with its scores on the document's 2^b masked texts asked once per process
        (:class:`~proofs_checks.models.tabled_scores.TabledClassifier`): the claims run an explainer on one case again
        and again, for every explainer they are run against. The pipelines score each text on its own (a TF-IDF
        row, a dot product, a link), so a row is the same float however it is asked (tests/claims/
        test_family.py checks it on every case)."""
        return _tabled(self)

    def describe(self) -> dict:
        """The case as the report's values show it: model kind, corpus seed, document."""
        return {"model": self.kind, "corpus_seed": self.seed, "document": self.text}


@exact_cache
def _tabled(case: Case) -> TabledClassifier:
    """One table per case (the family's cases are built once per process, :func:`family`)."""
    return TabledClassifier.on_document(case.tokens, case.classifier_fn(), MASK_TOKEN)


def training_corpus(seed: int) -> tuple[list[str], np.ndarray]:
    """The 60 documents (3 to 8 words of :data:`VOCABULARY`) and labels the family's models are fitted on: label 1
    when the positive words outnumber the negative ones, up to N(0, 0.7) noise; drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    docs, labels = [], []
    for _ in range(60):
        words = list(rng.choice(VOCABULARY, size=rng.integers(3, 9)))
        score = sum(w in POSITIVE for w in words) - sum(w in NEGATIVE for w in words) + rng.normal(0, 0.7)
        docs.append(" ".join(words))
        labels.append(int(score > 0))
    return docs, np.array(labels)


def fit_linear(corpus, labels, model: str, *, norm: str | None = None, regularisation: float = 1.0):
    """A fitted ``TfidfVectorizer(norm=norm)`` and ``Ridge(alpha=regularisation)`` (model "ridge", on float labels)
    or ``LogisticRegression(C=regularisation)`` (model "logistic"): the one builder of the claims' linear models."""
    vectorizer = TfidfVectorizer(norm=norm).fit(corpus)
    x = vectorizer.transform(corpus)
    if model == "ridge":
        return vectorizer, Ridge(alpha=regularisation).fit(x, np.asarray(labels, float))
    if model == "logistic":
        return vectorizer, LogisticRegression(C=regularisation).fit(x, labels)
    raise ValueError(f"model must be 'ridge' or 'logistic', got {model!r}")


@lru_cache(maxsize=None)
def family() -> tuple[Case, ...]:
    """Every (pipeline, document) case, built deterministically from the seeds."""
    cases = []
    for seed in SEEDS:
        docs, labels = training_corpus(seed)
        rng = np.random.default_rng(1000 + seed)
        documents = []
        for _ in range(DOCS_PER_CORPUS):
            words = rng.choice(VOCABULARY, size=rng.integers(2, 5))
            tokens = list(words) + list(rng.choice(words, size=rng.integers(0, 4)))  # repeats
            documents.append(tuple(rng.permutation(tokens)))
        for kind in KINDS:
            vectorizer, model = fit_linear(docs, labels, kind.split("-")[0], norm=None if kind.endswith("raw") else "l2")
            cases.extend(Case(kind, seed, doc, vectorizer, model) for doc in documents)
    return tuple(cases)


def cases(kind: str) -> tuple[Case, ...]:
    """The cases of one pipeline kind."""
    return tuple(c for c in family() if c.kind == kind)
