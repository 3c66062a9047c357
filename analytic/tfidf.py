"""TF-IDF of Definition 1 and linear models read from a fitted scikit-learn pipeline.

Definition 1: phi(z)_j = m_j(z) * v_j with the smooth inverse document frequency
v_j = log((N + 1) / (N_j + 1)) + 1, i.e. scikit-learn's ``TfidfVectorizer`` with
``smooth_idf=True`` and ``norm=None``. Under mask sampling the mask token has no
feature, so masking a position removes its word from phi (section 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from fred_constants import MASK_TOKEN

from .prop1_linear import linear_drop, linear_expected_prediction, linear_minimal_size


def idf(n_docs: int | np.ndarray, doc_freq: int | np.ndarray) -> np.ndarray:
    """Smooth inverse document frequency of Definition 1: ``log((N + 1) / (N_j + 1)) + 1``.

    Parameters
    ----------
    n_docs : int, number N of documents of the corpus (>= 0).
    doc_freq : int or array of int, number N_j of documents containing word j (0 <= N_j <= N).

    >>> float(idf(3, 3))
    1.0
    >>> round(float(idf(3, 1)), 10)  # log(2) + 1
    1.6931471806
    """
    n_docs = np.asarray(n_docs)
    doc_freq = np.asarray(doc_freq)
    if np.any(doc_freq < 0) or np.any(doc_freq > n_docs):  # which also refuses n_docs < 0
        raise ValueError(f"idf needs 0 <= doc_freq <= n_docs, got n_docs={n_docs!r}, doc_freq={doc_freq!r}")
    return np.log((n_docs + 1.0) / (doc_freq + 1.0)) + 1.0


def check_vectorizer(vectorizer, mask_token: str = MASK_TOKEN) -> None:
    """Refuse a fitted vectorizer whose settings break the theory of section 3.

    Accepted: word unigrams, raw counts, no normalisation, smooth idf (Definition 1)
    or no idf (``use_idf=False`` or a ``CountVectorizer``: every v_j = 1, still a
    linear function of the counts),
    and a mask token with no feature after the vectorizer's own preprocessing
    (so masking equals removal).

    Raises
    ------
    TypeError
        If ``vectorizer`` has no fitted ``vocabulary_`` or no ``build_analyzer``.
    ValueError
        Naming the setting: ``norm`` not None, ``sublinear_tf``, ``binary``,
        ``ngram_range`` not (1, 1), ``analyzer`` not ``'word'``, ``smooth_idf=False``
        with ``use_idf=True``, or ``mask_token`` mapping to a vocabulary feature.
    """
    if not hasattr(vectorizer, "vocabulary_") or not hasattr(vectorizer, "build_analyzer"):
        raise TypeError("vectorizer must be a fitted scikit-learn TfidfVectorizer or CountVectorizer, "
                        f"got {type(vectorizer).__name__}")
    if getattr(vectorizer, "norm", None) is not None:
        raise ValueError(f"norm must be None (Definition 1 has no normalisation), got norm={vectorizer.norm!r}")
    if getattr(vectorizer, "sublinear_tf", False):
        raise ValueError("sublinear_tf must be False: Definition 1 uses the raw multiplicity m_j")
    if getattr(vectorizer, "binary", False):
        raise ValueError("binary must be False: Definition 1 uses the raw multiplicity m_j")
    if tuple(vectorizer.ngram_range) != (1, 1):
        raise ValueError(f"ngram_range must be (1, 1) (word unigrams), got {vectorizer.ngram_range!r}")
    if vectorizer.analyzer != "word":  # a callable analyzer is not 'word' either
        raise ValueError(f"analyzer must be 'word', got {vectorizer.analyzer!r}")
    if getattr(vectorizer, "use_idf", False) and not vectorizer.smooth_idf:  # a CountVectorizer has no idf
        raise ValueError("smooth_idf must be True when use_idf=True: Definition 1 is the smooth idf")
    inside = [t for t in vectorizer.build_analyzer()(mask_token) if t in vectorizer.vocabulary_]
    if inside:
        raise ValueError(
            f"mask_token {mask_token!r} maps to vocabulary feature(s) {inside} after preprocessing; "
            "masking would not equal removal"
        )


def _default_analyzer(text: str) -> list[str]:
    return text.split()


@dataclass(frozen=True)
class LinearTfidfModel:
    """f(z) = lambda^T phi(z) + lambda_0 (Eq. 6) on the TF-IDF of Definition 1.

    Attributes
    ----------
    vocabulary : mapping word -> feature index.
    idf : (D,) array of v_j.
    coef : (D,) array of lambda_j.
    intercept : lambda_0.
    analyzer : text -> list of features (scikit-learn's word analyzer when read
        from a pipeline; whitespace split by default).
    """

    vocabulary: dict
    idf: np.ndarray
    coef: np.ndarray
    intercept: float
    analyzer: Callable[[str], list[str]] = field(default=_default_analyzer, repr=False, compare=False)

    @classmethod
    def from_pipeline(cls, vectorizer, model, mask_token: str = MASK_TOKEN) -> "LinearTfidfModel":
        """Read lambda, lambda_0 and v from a fitted vectorizer and linear model.

        The vectorizer is a ``TfidfVectorizer(norm=None)`` or a ``CountVectorizer`` (v = 1).

        ``model`` is a fitted scikit-learn linear model: a regressor with 1-d
        ``coef_`` (Ridge, LinearRegression) or a binary classifier with
        ``coef_`` of shape (1, D) (LogisticRegression), in which case f is the
        decision function (the log-odds), which is linear; ``predict_proba`` is not.
        The vectorizer is checked with :func:`check_vectorizer`.
        """
        check_vectorizer(vectorizer, mask_token)
        coef = np.asarray(getattr(model, "coef_", None), dtype=float)
        if coef.ndim == 0:
            raise TypeError(f"model must be a fitted linear model with coef_, got {type(model).__name__}")
        if coef.ndim == 2:
            if coef.shape[0] != 1:
                raise ValueError(f"model must be a regressor or a binary classifier, got coef_ of shape {coef.shape}")
            coef = coef[0]
        n_features = len(vectorizer.vocabulary_)
        if coef.shape != (n_features,):
            raise ValueError(f"model.coef_ has {coef.shape[-1]} features but the vocabulary has {n_features}")
        intercept = float(np.ravel(getattr(model, "intercept_", 0.0))[0])
        # A CountVectorizer has no idf at all: v_j = 1, as with use_idf=False.
        use_idf = getattr(vectorizer, "use_idf", False)
        v = np.asarray(vectorizer.idf_, dtype=float) if use_idf else np.ones(n_features)
        return cls(dict(vectorizer.vocabulary_), v, coef, intercept, vectorizer.build_analyzer())

    @property
    def feature_weights(self) -> np.ndarray:
        """a_j = lambda_j v_j, the contribution of one occurrence of feature j."""
        return self.coef * self.idf

    def predict(self, texts: Sequence[str]) -> np.ndarray:
        """lambda^T phi(z) + lambda_0 for each text; features outside the vocabulary count 0."""
        a = self.feature_weights
        return np.array(
            [self.intercept + sum(a[self.vocabulary[t]] for t in self.analyzer(z) if t in self.vocabulary) for z in texts]
        )

    def position_weights(self, tokens: Sequence[str]) -> np.ndarray:
        """a_i = lambda^T phi(token_i) for each whitespace position i.

        A position may hold 0 features (out of vocabulary, or a single character
        dropped by the default token pattern), 1, or several ("well-known").
        Requires that the analyzer of the joined text is the concatenation of the
        analyzer of each token (true for a word unigram analyzer whose tokens do
        not span whitespace); refused otherwise, since masking then would not act
        position by position.

        >>> m = LinearTfidfModel({"good": 0, "bad": 1}, np.array([1.0, 2.0]), np.array([0.5, -1.0]), 0.25)
        >>> m.position_weights(["good", "bad", "zz", "good"]).tolist()
        [0.5, -2.0, 0.0, 0.5]
        """
        per_token = [self.analyzer(t) for t in tokens]
        joined = self.analyzer(" ".join(tokens))
        if joined != [t for feats in per_token for t in feats]:
            raise ValueError("the analyzer does not act token by token on this text; positions are not separable")
        a = self.feature_weights
        return np.array([sum(a[self.vocabulary[t]] for t in feats if t in self.vocabulary) for feats in per_token],
                        dtype=float)

    def expected_prediction(self, tokens: Sequence[str], p: float) -> float:
        """E[f] under mask sampling of ``tokens``: (1 - p) sum_i a_i + lambda_0 (Eq. 6, section 3.1).

        >>> m = LinearTfidfModel({"good": 0, "bad": 1}, np.array([1.0, 2.0]), np.array([0.5, -1.0]), 0.25)
        >>> m.expected_prediction(["good", "bad", "good"], 0.5)
        -0.25
        """
        a = self.position_weights(tokens)
        return linear_expected_prediction(a, np.ones(len(a), int), self.intercept, p)

    def drop(self, tokens: Sequence[str], positions: Sequence[int], p: float) -> float:
        """Drop of perturbing ``positions`` (Eq. 1): (1 - p) times the sum of their weights a_i (Prop. 1).

        >>> m = LinearTfidfModel({"good": 0, "bad": 1}, np.array([1.0, 2.0]), np.array([0.5, -1.0]), 0.25)
        >>> m.drop(["good", "bad", "good"], [0, 2], 0.5)
        0.5
        """
        a = self.position_weights(tokens)
        counts = np.zeros(len(a), int)
        counts[list(positions)] = 1
        return linear_drop(a, counts, p)

    def minimal_size(self, tokens: Sequence[str], p: float, eps: float, max_len: int, *,
                     baseline: str = "mean") -> int | None:
        """Size of FRED's explanation of ``tokens`` (Eq. 2), None when no size <= max_len reaches the threshold.

        >>> m = LinearTfidfModel({"good": 0, "bad": 1}, np.array([1.0, 2.0]), np.array([0.5, -1.0]), 2.0)
        >>> m.minimal_size(["good", "bad", "good"], 0.5, 0.15, 3)
        1
        """
        a = self.position_weights(tokens)
        return linear_minimal_size(a, np.ones(len(a), int), self.intercept, p, eps, max_len, baseline=baseline)
