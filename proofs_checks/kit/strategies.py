"""Hypothesis strategies for checking a FRED explainer: documents (random tokens, and review-like snippets with
real words, stop words, negations and repeated words), coefficients, p, eps, fitted models, tables, and the black
boxes the conformance kit explains (:func:`black_boxes`, :func:`bag_of_words_models`, :func:`review_models`).

The kit's checks draw their inputs here; :mod:`proofs_checks.strategies` re-exports them (as ``hypothesis.extra``
ships beside hypothesis), so a researcher testing a modified explainer draws the same inputs as the kit and this
project's tests. Needs hypothesis (the ``dev`` extra).

Numbers that decide ties are dyadic (multiples of 1/4), so equal coefficients
give exactly equal drops and tie-breaking is tested, not floating-point noise.
Every strategy draws only through hypothesis: the same seed gives the same examples (and the kit's draws do not
depend on the loaded modules, :mod:`proofs_checks.statistics.isolation`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import numpy as np
from hypothesis import strategies as st

from analytic import ShortcutModel

from ..models.family import fit_linear
from .black_boxes import BlackBox, bag_of_words_box, in_unit_interval, linear_box, review_box, shortcut_box

#: Lowercase words of >= 2 letters: kept whole by scikit-learn's default token pattern.
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=6).filter(lambda w: w != "unk")


@st.composite
def vocabularies(draw, min_size: int = 1, max_size: int = 8) -> list[str]:
    """Distinct lowercase words (never the mask token 'unk')."""
    return draw(st.lists(WORDS, min_size=min_size, max_size=max_size, unique=True))


@st.composite
def multiplicities(draw, n_words: int, max_multiplicity: int = 3, max_total: int = 8) -> list[int]:
    """Multiplicities m_j >= 1 of n_words words with sum <= max_total (n_words <= max_total)."""
    m = [draw(st.integers(1, max_multiplicity)) for _ in range(n_words)]
    while sum(m) > max_total:
        m[int(np.argmax(m))] -= 1
    return m


@st.composite
def documents(draw, vocab: list[str] | None = None, max_words: int = 4, max_multiplicity: int = 3,
              max_tokens: int = 8) -> list[str]:
    """Tokens of a document: distinct words with controlled multiplicities, in a drawn order."""
    if vocab is None:
        vocab = draw(vocabularies(1, max_words))
    words = draw(st.lists(st.sampled_from(vocab), min_size=1, max_size=min(max_words, len(vocab), max_tokens),
                          unique=True))
    m = draw(multiplicities(len(words), max_multiplicity, max_tokens))
    tokens = [w for w, k in zip(words, m) for _ in range(k)]
    return draw(st.permutations(tokens))


#: The embedded vocabulary of review snippets (a few words of each role; no dataset is read).
POSITIVE_WORDS = ("good", "great", "fun", "loved", "superb", "best")
#: Negative sentiment words of the snippets.
NEGATIVE_WORDS = ("bad", "boring", "awful", "dull", "hated", "worst")
#: Negations: in a review model each flips the sentiment of the word after it.
NEGATIONS = ("not", "no", "never")
#: Stop words (a generated model may give them weight).
STOP_WORDS = ("the", "a", "was", "is", "and", "it", "this", "of")
#: What a snippet is about.
SUBJECT_WORDS = ("movie", "plot", "acting", "food", "service", "story")
#: Clauses of a snippet, by role: "the plot was not good", "no fun", "great", "the acting was dull", ...
CLAUSES = (("SENT",), ("NEG", "SENT"), ("STOP", "SENT"), ("SUBJ", "SENT"), ("STOP", "SUBJ", "SENT"),
           ("SUBJ", "STOP", "NEG", "SENT"), ("STOP", "SUBJ", "STOP", "SENT"), ("STOP", "SUBJ", "STOP", "NEG", "SENT"))


#: Each role's pool of a snippet: one or two of its words (drawn in this order). Strategies that do not depend on
#: what was drawn are built once, here and in the cached builders below: building them inside a draw cost hypothesis
#: a tenth of the kit's time (constructing and validating them again at every example), for the same choices.
_ROLE_POOLS = {role: st.lists(st.sampled_from(words), min_size=1, max_size=2, unique=True)
              for role, words in (("SENT", POSITIVE_WORDS + NEGATIVE_WORDS), ("NEG", NEGATIONS),
                                  ("STOP", STOP_WORDS), ("SUBJ", SUBJECT_WORDS))}


@functools.lru_cache(maxsize=None)
def _clauses_of_at_most(n_words: int) -> st.SearchStrategy[tuple[str, ...]]:
    return st.sampled_from([c for c in CLAUSES if len(c) <= n_words])


@st.composite
def review_documents(draw, min_tokens: int = 1, max_tokens: int = 5) -> tuple[str, ...]:
    """Tokens of a review-like snippet of ``min_tokens`` to ``max_tokens`` words: clauses of stop words, subjects,
    negations and sentiment words (:data:`CLAUSES`), each role drawing from one or two words of the document, so
    words repeat ("good good", "the plot was not good and the acting was not good")."""
    b = draw(st.integers(min_tokens, max_tokens))
    pools = {role: draw(pool) for role, pool in _ROLE_POOLS.items()}
    tokens: list[str] = []
    while len(tokens) < b:
        clause = draw(_clauses_of_at_most(b - len(tokens)))
        tokens += [draw(st.sampled_from(pools[role])) for role in clause]
    return tuple(tokens)


@st.composite
def review_models(draw, min_tokens: int = 1, max_tokens: int = 5) -> BlackBox:
    """A lexicon sentiment model (:func:`.black_boxes.review_box`) on a review snippet: positive words weigh +w,
    negative ones -w (w in {1, 2, 3}), a negation flips the next word, and (half the time) the stop words weigh
    too, one of them heavily; f is the sigmoid, a class score in (0, 1)."""
    tokens = draw(review_documents(min_tokens, max_tokens))
    w = draw(st.integers(1, 3))
    sentiment = {**{word: float(w) for word in POSITIVE_WORDS}, **{word: -float(w) for word in NEGATIVE_WORDS}}
    stop_weights = {}
    if draw(st.booleans()):
        stop_weights = {word: draw(st.integers(-8, 8)) / 4 for word in sorted(set(tokens) & set(STOP_WORDS))}
    return review_box(tokens, sentiment, NEGATIONS, stop_weights, draw(st.integers(-4, 4)) / 4)


@functools.lru_cache(maxsize=None)
def _quarters(size: int, low: int, high: int) -> st.SearchStrategy[list[float]]:
    return st.lists(st.integers(low, high).map(lambda k: k / 4), min_size=size, max_size=size)


@st.composite
def coefficients(draw, size: int, low: int = -8, high: int = 8) -> np.ndarray:
    """Coefficient vectors in multiples of 1/4: ties, zeros and negatives all occur."""
    values = draw(_quarters(size, low, high))
    if size >= 2 and draw(st.booleans()):  # force a tie
        i, j = draw(st.permutations(range(size)))[:2]
        values[j] = values[i]
    return np.array(values, dtype=float)


def probabilities(low: float = 0.05, high: float = 0.95) -> st.SearchStrategy[float]:
    """Perturbation probability p in [low, high], inside (0, 1)."""
    return st.floats(low, high, allow_nan=False)


def epsilons(low: float = 0.01) -> st.SearchStrategy[float]:
    """Threshold fraction eps in [low, 1]."""
    return st.floats(low, 1.0, allow_nan=False)


@dataclass(frozen=True)
class FittedTfidf:
    """A fitted ``TfidfVectorizer(norm=None)`` and linear model, with the corpus and a document to explain."""

    vectorizer: object
    model: object
    corpus: tuple[str, ...]
    tokens: tuple[str, ...]

    def classifier_fn(self) -> Callable:
        """Texts -> the linear score (regression output, or the decision function of a classifier)."""
        score = getattr(self.model, "decision_function", None) or self.model.predict
        return lambda texts: np.asarray(score(self.vectorizer.transform(texts)), dtype=float)


#: Tokens whose scikit-learn features differ from the whitespace token: none, one, two.
AWKWARD_TOKENS = ("a", "don't", "well-known", "x1", "Good")


@st.composite
def fitted_tfidf_models(draw, kind: str | None = None, max_tokens: int = 7) -> FittedTfidf:
    """A TF-IDF (norm=None, smooth idf) + Ridge or binary LogisticRegression fitted on a generated corpus.

    The document to explain mixes vocabulary words, out-of-vocabulary words and
    tokens the analyzer splits or drops (``AWKWARD_TOKENS``); the mask token is
    never in the vocabulary.
    """
    kind = kind or draw(st.sampled_from(["ridge", "logistic"]))
    vocab = draw(vocabularies(3, 8))
    doc = st.lists(st.sampled_from(vocab + ["well-known", "good"]), min_size=1, max_size=6).map(" ".join)
    corpus = draw(st.lists(doc, min_size=4, max_size=12))
    labels = draw(st.lists(st.integers(0, 1), min_size=len(corpus), max_size=len(corpus)))
    labels[0], labels[1] = 0, 1  # both classes present
    strength = draw(st.sampled_from([0.1, 1.0] if kind == "ridge" else [0.5, 5.0]))
    vectorizer, model = fit_linear(corpus, labels, kind, regularisation=strength)
    pool = vocab + list(AWKWARD_TOKENS) + ["zzz"]
    tokens = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=max_tokens))
    return FittedTfidf(vectorizer, model, tuple(corpus), tuple(tokens))


@dataclass(frozen=True)
class ShortcutCase:
    """A document and a shortcut model whose words J all occur in it."""

    tokens: tuple[str, ...]
    model: ShortcutModel

    @property
    def multiplicities(self) -> list[int]:
        """m_j of each word of J, in the order of ``model.words``."""
        return [self.tokens.count(w) for w in self.model.words]

    @property
    def n_other(self) -> int:
        """Number of positions whose word is not in J."""
        return len(self.tokens) - sum(self.multiplicities)


@st.composite
def shortcut_models(draw, max_tokens: int = 8) -> ShortcutCase:
    """A shortcut model f = prod_{j in J} 1{w_j in z} on a document containing every w_j."""
    tokens = draw(documents(max_tokens=max_tokens))
    distinct = sorted(set(tokens))
    words = draw(st.lists(st.sampled_from(distinct), min_size=1, max_size=len(distinct), unique=True))
    return ShortcutCase(tuple(tokens), ShortcutModel(tuple(words)))


@st.composite
def black_box_tables(draw, min_tokens: int = 1, max_tokens: int = 5, integer: bool | None = None) -> np.ndarray:
    """An arbitrary f over the 2^b patterns: integer-valued (many exact ties) or in [0, 1] floats."""
    b = draw(st.integers(min_tokens, max_tokens))
    if integer is None:
        integer = draw(st.booleans())
    return np.array(draw(_table_values(b, integer)), dtype=float)


@functools.lru_cache(maxsize=None)
def _table_values(b: int, integer: bool) -> st.SearchStrategy[list[float]]:
    values = st.integers(0, 3).map(float) if integer else st.floats(0.0, 1.0, allow_nan=False)
    return st.lists(values, min_size=2**b, max_size=2**b)


@functools.lru_cache(maxsize=None)
def _shortcut_cases(min_tokens: int, max_tokens: int) -> st.SearchStrategy[ShortcutCase]:
    return shortcut_models(max_tokens=max_tokens).filter(lambda c: len(c.tokens) >= min_tokens)


#: Kinds of :func:`black_boxes`.
BLACK_BOX_KINDS = ("table", "linear", "logistic", "shortcut", "review")


@st.composite
def black_boxes(draw, max_tokens: int = 5, kinds: tuple[str, ...] = BLACK_BOX_KINDS, min_tokens: int = 1) -> BlackBox:
    """A model on the perturbations of a drawn document of ``min_tokens`` to ``max_tokens`` tokens (words may
    repeat), of one of ``kinds``:

    * "table": f arbitrary over the 2^b patterns, floats in [0, 1] or integers 0..3 (many exact ties) mapped into
      [1/4, 3/4] by :func:`.black_boxes.in_unit_interval` (the ties stay exact);
    * "linear": f = intercept + sum of the kept positions' weights, dyadic in [-2, 2] (:func:`coefficients`),
      mapped into [1/4, 3/4] when it leaves [0, 1] (:func:`.black_boxes.in_unit_interval`: every f is a class
      score);
    * "logistic": the sigmoid of such a linear score;
    * "shortcut": f = 1{every word of J is present} (:func:`shortcut_models`);
    * "review": a sentiment model on a review snippet where negations and stop words count (:func:`review_models`).
    """
    kind = draw(st.sampled_from(kinds))
    if kind == "review":
        return draw(review_models(min_tokens, max_tokens))
    if kind == "shortcut":
        case = draw(_shortcut_cases(min_tokens, max_tokens))
        return shortcut_box(case.tokens, case.model.words)
    b = draw(st.integers(min_tokens, max_tokens))
    vocab = draw(vocabularies(1, b))
    tokens = tuple(draw(st.lists(st.sampled_from(vocab), min_size=b, max_size=b)))
    if kind == "table":
        return in_unit_interval(BlackBox("table", tokens, draw(black_box_tables(b, b))))
    weights = draw(coefficients(b))
    intercept = draw(st.integers(-8, 8)) / 4
    if kind == "logistic":
        return linear_box(tokens, weights, intercept, "logistic")
    return in_unit_interval(linear_box(tokens, weights, intercept))


@st.composite
def bag_of_words_models(draw, max_tokens: int = 6) -> BlackBox:
    """f = intercept + sum over kept tokens of their word's dyadic weight, on a document with repeated words (mapped
    into [1/4, 3/4] when it leaves [0, 1], :func:`.black_boxes.in_unit_interval`)."""
    vocab = draw(vocabularies(1, 4))
    tokens = tuple(draw(documents(vocab, max_words=4, max_tokens=max_tokens)))
    weights = draw(coefficients(len(vocab)))
    return in_unit_interval(bag_of_words_box(tokens, dict(zip(vocab, weights)), draw(st.integers(-8, 8)) / 4))
