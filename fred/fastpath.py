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

Every explanation checks, on a few perturbation patterns scored in the same
batch, that the count matrix and the pipeline output equal those of the
rendered strings; on any difference that explanation falls back to strings and
records why. Rows with equal count vectors are scored once.
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
#: Slot ranks :meth:`BagOfWordsFastPath.counts` adds one vectorised pass each; higher ranks go through one reduceat.
_PASSES = 16

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

    def _slots(self, tokens: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """One slot per in-vocabulary feature occurrence of each token: its position and vocabulary column.

        Slots are ordered by column (then position), so a row's kept slots list
        its columns in ascending order, as the vectorizer stores them.
        """
        vocabulary = self.vectorizer.vocabulary_
        # Each distinct token analysed once: a long document repeats its words many times.
        features = {token: [vocabulary[f] for f in self._analyze(token) if f in vocabulary]
                    for token in dict.fromkeys(tokens)}
        positions, columns = [], []
        for j, token in enumerate(tokens):
            for index in features[token]:
                positions.append(j)
                columns.append(index)
        positions, columns = np.asarray(positions, dtype=np.intp), np.asarray(columns, dtype=np.int32)
        order = np.lexsort((positions, columns))
        return positions[order], columns[order]

    def counts(self, tokens: Sequence[str], perturbed: np.ndarray):
        """The count matrix ``CountVectorizer.transform`` would return for the masked texts.

        Built from the kept slots (a kept position contributes its features),
        never through a ``(n, V)`` matrix or a float product: the count of the
        document's u distinct features in each row is the sum of their
        kept-slot indicators, an ``(n, u)`` array of small integers no larger
        than the design, whose nonzero entries, row by row, are the CSR entries.
        A feature's first slot starts its count; a slot of rank r (the feature's
        (r+1)-th slot) is added in pass r, all features at once, for r below
        ``_PASSES``; the slots of higher rank (words repeated that often) are
        summed by one ``np.add.reduceat`` over their runs of equal columns. The
        work is linear in the slots: a pass per rank (and a scan of every slot
        per pass) took 40 s for a word repeated 70 000 times, and ``reduceat``
        alone was several times slower than the passes on ordinary documents.
        """
        positions, columns = self._slots(tokens)
        n = perturbed.shape[0]
        first = np.ones(len(columns), dtype=bool)
        first[1:] = columns[1:] != columns[:-1]
        group = np.cumsum(first) - 1
        starts = np.flatnonzero(first)
        rank = np.arange(len(columns)) - starts[group]  # a slot's place among the slots of its feature
        kept = ~perturbed[:, positions]
        # Wide enough for the most repeated feature's count (uint8 would wrap a word kept 256 times).
        counts = kept[:, first].astype(np.min_scalar_type(rank.max(initial=0) + 1))
        passes = min(rank.max(initial=0) + 1, _PASSES)
        by_rank = np.argsort(rank, kind="stable")
        bounds = np.searchsorted(rank[by_rank], np.arange(passes + 1))
        for r in range(1, passes):
            slots = by_rank[bounds[r] : bounds[r + 1]]
            counts[:, group[slots]] += kept[:, slots]
        tail = np.flatnonzero(rank >= _PASSES)  # in column order, so each feature's tail slots are one run
        if len(tail):
            runs = np.flatnonzero(np.diff(group[tail], prepend=-1))
            counts[:, group[tail[runs]]] += np.add.reduceat(kept[:, tail], runs, axis=1, dtype=counts.dtype)
        # Row-major flat indices of a boolean array (np.nonzero on 2-d or integer input is several times slower).
        flat = np.flatnonzero(counts != 0)
        lengths = np.count_nonzero(counts, axis=1)
        indptr = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(lengths, out=indptr[1:])
        u = len(starts)
        indices = columns[starts][flat - np.repeat(np.arange(n) * u, lengths)]
        data = counts.reshape(-1)[flat].astype(self.vectorizer.dtype)
        if self.vectorizer.binary:
            data.fill(1)
        shape = (n, len(self.vectorizer.vocabulary_))
        return self._sparse_type((data, indices, indptr), shape=shape)

    def _scores(self, counts):
        """The pipeline method on a count matrix, each distinct row scored once.

        Rows with equal count vectors (frequent: a pattern drawn twice, a
        repeated word perturbed at different places, a position without
        in-vocabulary features perturbed or not) go through the model once;
        scikit-learn predicts every row on its own, so the output per row is unchanged.
        """
        representatives, inverse = distinct_rows(counts)
        features = counts[representatives] if len(representatives) < counts.shape[0] else counts
        if self._tfidf is not None:
            features = self._tfidf.transform(features, copy=False)
        return np.asarray(getattr(self.pipeline[1:], self.method)(features))[inverse]

    def predict(self, tokens: Sequence[str], perturbed: np.ndarray):
        """``(pipeline.<method> of the masked texts, None)``, or ``(None, problem)`` when the check fails.

        The check compares fast and string paths on a few patterns (nothing
        masked, everything masked, every other position, and the first
        :data:`N_VERIFY_ROWS` rows of ``perturbed``): the count matrix and the
        pipeline output must equal those of the rendered strings. The probe
        rows are scored in the same batch as the design.
        """
        b = len(tokens)
        probe = np.vstack([np.zeros(b, bool), np.ones(b, bool), np.arange(b) % 2 == 0,
                           perturbed[:N_VERIFY_ROWS]])
        texts = render_masked(tokens, probe, self.mask_token)
        counts = self.counts(tokens, np.vstack([probe, perturbed]))
        m = len(probe)
        if (counts[:m] != self._count_strings(texts)).nnz:
            return None, "the count matrix differs from the vectorizer's on the rendered texts"
        scores = self._scores(counts)
        if not _close(scores[:m], getattr(self.pipeline, self.method)(texts)):
            return None, f"{self.method} on the count matrix differs from {self.method} on the rendered texts"
        return scores[m:], None


def distinct_rows(matrix) -> tuple[np.ndarray, np.ndarray]:
    """The first of each group of equal rows of a CSR matrix (ascending), and each row's index among them.

    Rows are grouped by a hash (the row times fixed column weights; equal rows
    with equally ordered entries have bitwise equal hashes), then a row joins
    the first row of its hash only if their entries are equal, so a hash
    collision never merges different rows (at worst it leaves two equal rows
    apart, which costs a model evaluation, not a wrong score).

    >>> import scipy.sparse as sp
    >>> reps, inverse = distinct_rows(sp.csr_array(np.array([[1, 0], [0, 2], [1, 0]])))
    >>> reps.tolist(), inverse.tolist()
    ([0, 1], [0, 1, 0])
    """
    n = matrix.shape[0]
    hashes = matrix @ np.sqrt(np.arange(matrix.shape[1]) + 2.0)  # collisions are rare, and checked below
    _, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
    representative = first[inverse.reshape(-1)]
    others = np.flatnonzero(representative != np.arange(n))
    if len(others):
        nnz = np.diff(matrix.indptr)
        lengths = nnz[others]
        apart = lengths != nnz[representative[others]]
        lengths = np.where(apart, 0, lengths)
        offsets = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        mine = np.repeat(matrix.indptr[others], lengths) + offsets
        theirs = np.repeat(matrix.indptr[representative[others]], lengths) + offsets
        differ = (matrix.indices[mine] != matrix.indices[theirs]) | (matrix.data[mine] != matrix.data[theirs])
        apart |= np.bincount(np.repeat(np.arange(len(others)), lengths), weights=differ,
                             minlength=len(others)) > 0
        representative[others[apart]] = others[apart]
    return np.unique(representative, return_inverse=True)


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
