"""Bag-of-words fast path: perturbed count matrices without building strings.

A word-unigram ``CountVectorizer`` counts the regex matches of its
preprocessed input. When no match can contain a space and no match depends on
text beyond the whitespace around it, the count vector of ``" ".join(tokens)``
is the sum of the count vectors of the tokens. Replacing position j by an
out-of-vocabulary mask token removes token j's counts, so for the ``(n, b)``
perturbation matrix Z and the ``(b, V)`` incidence A (``A[j, v]`` = count of
feature v in token j)

    counts = (1 - Z) @ A,

which is the count matrix the vectorizer would build from the n rendered
texts. The fast path feeds it to the vectorizer's own ``TfidfTransformer`` (for
a ``TfidfVectorizer``) and the remaining pipeline steps, and never builds or
re-tokenises the strings.

Every explanation first checks, on a few perturbation patterns, that the count
matrix and the pipeline output equal those of the rendered strings; on any
difference the explainer falls back to strings for good and records why.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .sampling import MaskSampler, Sampler, render_masked

#: Pipeline methods the fast path can stand in for.
METHODS = ("predict_proba", "decision_function", "predict")
#: Relative tolerance of the set-up check comparing fast and string predictions.
VERIFY_RTOL = 1e-12
#: Random design rows checked in addition to the none/all/alternating patterns.
N_VERIFY_ROWS = 3

# Zero-width assertions whose outcome is the same next to a space and at either end of a token.
_BOUNDARY_ASSERTIONS = ("AT_BOUNDARY", "AT_NON_BOUNDARY", "AT_LOC_BOUNDARY", "AT_LOC_NON_BOUNDARY",
                        "AT_UNI_BOUNDARY", "AT_UNI_NON_BOUNDARY")
_ONE_CHARACTER = ("ANY", "LITERAL", "NOT_LITERAL", "IN")


@dataclass(frozen=True)
class FastPathStatus:
    """Whether :class:`fred.Fred` scores samples through the bag-of-words fast path, and why (not)."""

    active: bool
    reason: str


def _show_atom(name: str, av) -> str:
    """A short regex spelling of a one-character element, for messages."""
    if name == "ANY":
        return "."
    if name == "LITERAL":
        return repr(chr(av))
    if name == "NOT_LITERAL" or any(str(op) == "NEGATE" for op, _ in av):
        return "[^...]"
    return "[...] or a class like \\s, \\W"


def token_pattern_problem(pattern: str) -> str | None:
    """Why per-token analysis could differ from analysing the joined text; None when it cannot.

    Walks the parsed regex: a single-character atom that matches a space could
    let a match span two tokens; a lookaround or a ``^``/``$`` anchor makes a
    match depend on the neighbouring tokens or on the position in the text.
    ``\\b``/``\\B`` are safe because a space and the end of a token are both non-word.

    >>> token_pattern_problem(r"(?u)\\b\\w\\w+\\b") is None
    True
    >>> token_pattern_problem(r"[^,]+")
    "token_pattern '[^,]+' has an element ([^...]) that can match a space"
    """
    try:
        from re import _compiler, _parser  # the stdlib regex parser; private, hence the fallback below
    except ImportError:  # pragma: no cover - other Python implementations
        return None if pattern == r"(?u)\b\w\w+\b" else "cannot analyse a custom token_pattern here"
    parsed = _parser.parse(pattern)

    def walk(items) -> str | None:
        for op, av in items:
            name = str(op)
            if name in _ONE_CHARACTER:
                atom = _compiler.compile(_parser.SubPattern(parsed.state, [(op, av)]), parsed.state.flags)
                if atom.fullmatch(" "):
                    return f"token_pattern {pattern!r} has an element ({_show_atom(name, av)}) that can match a space"
            elif name == "AT":
                if str(av) not in _BOUNDARY_ASSERTIONS:
                    return f"token_pattern {pattern!r} has an anchor ({av}) that depends on the position in the text"
            elif name in ("ASSERT", "ASSERT_NOT"):
                return f"token_pattern {pattern!r} has a lookaround, so matches depend on neighbouring tokens"
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                problem = walk(av[2])
                if problem:
                    return problem
            elif name == "SUBPATTERN":
                problem = walk(av[-1])
                if problem:
                    return problem
            elif name == "ATOMIC_GROUP":
                problem = walk(av)
                if problem:
                    return problem
            elif name == "BRANCH":
                for branch in av[1]:
                    problem = walk(branch)
                    if problem:
                        return problem
            elif name == "GROUPREF_EXISTS":
                for branch in av[1:]:
                    problem = walk(branch) if branch is not None else None
                    if problem:
                        return problem
            elif name != "GROUPREF":  # a back-reference repeats captured text, which holds no space
                return f"token_pattern {pattern!r} uses a regex construct ({name}) the fast path does not analyse"
        return None

    return walk(parsed)


def _vectorizer_problem(vectorizer, mask_token: str) -> str | None:
    """Why a fitted Count/Tfidf vectorizer does not qualify; None when it does."""
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

    name = type(vectorizer).__name__
    if not isinstance(vectorizer, CountVectorizer):
        return f"the pipeline's first step is {name}, not a CountVectorizer or TfidfVectorizer"
    if callable(vectorizer.analyzer):
        return f"{name} has a callable analyzer"
    if vectorizer.analyzer != "word":
        return f"{name} has analyzer={vectorizer.analyzer!r}, not 'word'"
    if vectorizer.preprocessor is not None or vectorizer.tokenizer is not None:
        return f"{name} has a custom preprocessor or tokenizer"
    if callable(vectorizer.strip_accents):
        return f"{name} has a callable strip_accents"
    if tuple(vectorizer.ngram_range) != (1, 1):
        return f"{name} has ngram_range={vectorizer.ngram_range}, not (1, 1)"
    if vectorizer.input != "content":
        return f"{name} reads input={vectorizer.input!r}, not 'content'"
    if not hasattr(vectorizer, "vocabulary_"):
        return f"{name} is not fitted"
    if isinstance(vectorizer, TfidfVectorizer) and not hasattr(vectorizer, "_tfidf"):
        return f"{name} has no fitted TfidfTransformer (_tfidf) in this scikit-learn version"
    problem = token_pattern_problem(vectorizer.token_pattern)
    if problem:
        return problem
    in_vocabulary = sorted(f for f in vectorizer.build_analyzer()(mask_token) if f in vectorizer.vocabulary_)
    if in_vocabulary:
        return f"mask token {mask_token!r} maps to in-vocabulary feature(s) {in_vocabulary}"
    return None


def _close(fast, strings) -> bool:
    """Fast and string predictions agree (to VERIFY_RTOL relative to their scale; exactly if not numeric)."""
    fast, strings = np.asarray(fast), np.asarray(strings)
    if fast.shape != strings.shape:
        return False
    if not (np.issubdtype(fast.dtype, np.number) and np.issubdtype(strings.dtype, np.number)):
        return bool(np.array_equal(fast, strings))
    scale = max(1.0, float(np.max(np.abs(strings), initial=0.0)))
    return bool(np.all(np.abs(fast.astype(float) - strings.astype(float)) <= VERIFY_RTOL * scale))


class BagOfWordsFastPath:
    """Scores of masked documents computed from ``(1 - Z) @ A`` instead of strings.

    Build with :func:`setup_fast_path`; :meth:`predict` returns the output of
    the wrapped pipeline method for every row of a perturbation matrix, unless
    the check against the string path fails for that document.
    """

    def __init__(self, pipeline, method: str, mask_token: str):
        from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

        self.pipeline = pipeline
        self.method = method
        self.mask_token = mask_token
        self.vectorizer = pipeline[0]
        self._analyze = self.vectorizer.build_analyzer()
        self._count_strings = lambda texts: CountVectorizer.transform(self.vectorizer, texts)
        # The vectorizer's own transformer: idf, sublinear_tf and norm exactly as on strings.
        self._tfidf = self.vectorizer._tfidf if isinstance(self.vectorizer, TfidfVectorizer) else None
        # Same sparse type (matrix or array) as the vectorizer returns, so later steps see the same input.
        self._sparse_type = type(self._count_strings([mask_token]))

    def describe(self) -> str:
        """The status line: pipeline steps and wrapped method."""
        steps = " + ".join(type(step).__name__ for _, step in self.pipeline.steps)
        return f"active: {steps}, {self.method}"

    def _incidence(self, tokens: Sequence[str]):
        """Vocabulary indices of the document's features (ascending) and the (b, u) token-feature counts."""
        import scipy.sparse as sp

        vocabulary = self.vectorizer.vocabulary_
        positions, columns = [], []
        for j, token in enumerate(tokens):
            for feature in self._analyze(token):
                index = vocabulary.get(feature)
                if index is not None:
                    positions.append(j)
                    columns.append(index)
        features, local = np.unique(np.asarray(columns, dtype=np.int64), return_inverse=True)
        incidence = sp.csr_array((np.ones(len(positions)), (np.asarray(positions, dtype=np.int64), local)),
                                 shape=(len(tokens), len(features)))  # repeated (j, v) pairs are summed
        return features, incidence

    def counts(self, tokens: Sequence[str], perturbed: np.ndarray):
        """The count matrix ``CountVectorizer.transform`` would return for the masked texts."""
        features, incidence = self._incidence(tokens)
        n = perturbed.shape[0]
        dense = np.ascontiguousarray((incidence.T @ (~perturbed).T.astype(float)).T)  # (n, u)
        rows, local = np.nonzero(dense)  # row-major, so columns ascend within a row like the vectorizer's
        indptr = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
        data = dense[rows, local].astype(self.vectorizer.dtype)
        if self.vectorizer.binary:
            data.fill(1)
        shape = (n, len(self.vectorizer.vocabulary_))
        return self._sparse_type((data, features[local].astype(np.int32), indptr), shape=shape)

    def _scores(self, tokens: Sequence[str], perturbed: np.ndarray):
        # Repeated patterns (frequent when 2**b is small next to n) go through the model once:
        # scikit-learn predicts every row on its own, so the output per row is unchanged.
        b = perturbed.shape[1]
        packed, inverse = np.unique(np.packbits(perturbed, axis=1), axis=0, return_inverse=True)
        features = self.counts(tokens, np.unpackbits(packed, axis=1, count=b).astype(bool))
        if self._tfidf is not None:
            features = self._tfidf.transform(features, copy=False)
        return np.asarray(getattr(self.pipeline[1:], self.method)(features))[inverse.reshape(-1)]

    def mismatch(self, tokens: Sequence[str], perturbed: np.ndarray) -> str | None:
        """Compare fast and string paths on a few patterns; a description of the first difference, or None.

        Patterns: nothing masked, everything masked, every other position, and
        the first :data:`N_VERIFY_ROWS` rows of ``perturbed``.
        """
        b = len(tokens)
        probe = np.vstack([np.zeros(b, bool), np.ones(b, bool), np.arange(b) % 2 == 0,
                           perturbed[:N_VERIFY_ROWS]])
        texts = render_masked(tokens, probe, self.mask_token)
        if (self.counts(tokens, probe) != self._count_strings(texts)).nnz:
            return "the count matrix differs from the vectorizer's on the rendered texts"
        if not _close(self._scores(tokens, probe), getattr(self.pipeline, self.method)(texts)):
            return f"{self.method} on the count matrix differs from {self.method} on the rendered texts"
        return None

    def predict(self, tokens: Sequence[str], perturbed: np.ndarray):
        """``(pipeline.<method> of the masked texts, None)``, or ``(None, problem)`` when :meth:`mismatch` finds one."""
        problem = self.mismatch(tokens, perturbed)
        return (None, problem) if problem else (self._scores(tokens, perturbed), None)


def setup_fast_path(classifier_fn: Callable, sampler: Sampler) -> tuple[BagOfWordsFastPath | None, FastPathStatus]:
    """The fast path for ``classifier_fn`` when it qualifies, else None, with the status to report.

    Qualifies: ``classifier_fn`` is the bound ``predict_proba``,
    ``decision_function`` or ``predict`` of a scikit-learn ``Pipeline`` (not a
    subclass override, not a wrapper) whose first step is a fitted
    ``CountVectorizer``/``TfidfVectorizer`` with a word unigram analyzer
    (no callable analyzer, preprocessor, tokenizer or strip_accents; a
    token_pattern accepted by :func:`token_pattern_problem`), the sampler
    is the mask or exact sampler, and the mask token maps to no
    in-vocabulary feature.
    """
    if not isinstance(sampler, MaskSampler) or type(sampler).render is not MaskSampler.render:  # exact included
        return None, FastPathStatus(False, f"sampler {getattr(sampler, 'name', sampler)!r} renders other "
                                           "words than the mask token")
    func = getattr(classifier_fn, "__func__", None)
    owner = getattr(classifier_fn, "__self__", None)
    if not inspect.ismethod(classifier_fn) or func.__name__ not in METHODS \
            or func.__qualname__ != f"Pipeline.{func.__name__}" or not func.__module__.startswith("sklearn."):
        return None, FastPathStatus(False, "classifier_fn is not the bound predict_proba, decision_function "
                                           "or predict of a scikit-learn Pipeline")
    if len(owner.steps) < 2:
        return None, FastPathStatus(False, "the pipeline has a single step")
    problem = _vectorizer_problem(owner[0], sampler.mask_token)
    if problem:
        return None, FastPathStatus(False, problem)
    fast = BagOfWordsFastPath(owner, func.__name__, sampler.mask_token)
    return fast, FastPathStatus(True, fast.describe())
