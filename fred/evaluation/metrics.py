"""Faithfulness and robustness metrics of the paper's section 4.

Every function takes ``f``, a callable mapping a list of texts to a 1-d array of
scores: the model's confidence in the explained class (for a scikit-learn
classifier, ``lambda texts: model.predict_proba(texts)[:, 1]``). A document
``xi`` is its whitespace tokens (the positions FRED perturbs); an explanation is
a set of positions ``e``. Following the paper ("token removals are simulated by
replacing the missing token with the mask UNK"), removing a token means
replacing it by ``mask_token``.

Where the authors' public code (``gianluigilopardo/fred``,
``experiments/metrics.py``) computes a metric differently from the paper's
formula, both are offered under their own names.
"""

from __future__ import annotations

import math
import time
from typing import Callable, Iterable, Sequence

import numpy as np

from fred_constants import MASK_TOKEN

from ..validation import check_int

#: A classifier's score function: a list of texts to an array of class-1 scores.
Scorer = Callable[[list[str]], np.ndarray]

#: The paper's cap on the number of MoRF perturbations, D = min(20, |e+|).
MORF_MAX_PERTURBATIONS = 20


def _positions(ids: Iterable[int], b: int, name: str) -> list[int]:
    out = []
    for i in ids:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"{name} must hold integer positions, got {i!r}")
        if not 0 <= i < b:
            raise ValueError(f"{name} must hold positions in [0, {b}), got {int(i)}")
        out.append(int(i))
    return out


def _tokens(tokens: Sequence[str]) -> list[str]:
    if isinstance(tokens, str):
        raise TypeError("tokens must be a sequence of str (use text.split()), got a str")
    tokens = list(tokens)
    if not tokens:
        raise ValueError("tokens must hold at least one token")
    return tokens


def _score(f: Scorer, texts: list[str]) -> np.ndarray:
    out = np.asarray(f(texts), dtype=float)
    if out.shape != (len(texts),):
        raise ValueError(f"f must return a 1-d array of {len(texts)} scores, got shape {out.shape}")
    if not np.all(np.isfinite(out)):
        raise ValueError(f"f returned non-finite scores {out}")
    return out


def mask_positions(tokens: Sequence[str], ids: Iterable[int], mask_token: str = MASK_TOKEN) -> str:
    """The document with the tokens at ``ids`` replaced by ``mask_token``, joined by single spaces.

    >>> mask_positions(["a", "b", "c"], [0, 2])
    'UNK b UNK'
    """
    tokens = _tokens(tokens)
    out = list(tokens)
    for i in _positions(ids, len(tokens), "ids"):
        out[i] = mask_token
    return " ".join(out)


def comprehensiveness(f: Scorer, tokens: Sequence[str], ids: Iterable[int], mask_token: str = MASK_TOKEN) -> float:
    """Comprehensiveness f(xi) - f(xi \\ e) (section 4, after DeYoung et al. 2020).

    ``xi \\ e`` is the document with the explanation's tokens replaced by
    ``mask_token``. Higher is better: removing the explanation lowers the score.

    >>> f = lambda ts: np.array([0.9 if "good" in t.split() else 0.3 for t in ts])
    >>> round(comprehensiveness(f, ["so", "good"], [1]), 12)
    0.6
    """
    tokens = _tokens(tokens)
    full, without = _score(f, [" ".join(tokens), mask_positions(tokens, ids, mask_token)])
    return float(full - without)


def sufficiency(f: Scorer, tokens: Sequence[str], ids: Iterable[int], mask_token: str = MASK_TOKEN) -> float:
    """Sufficiency f(xi) - f(e), with e read as "xi with every token outside e masked".

    This is the paper's formula with its removal rule (tokens outside e are
    replaced by ``mask_token``, positions kept) and is what the authors' code
    computes. Lower is better: the explanation alone keeps the score. See
    :func:`sufficiency_alone` for the literal reading (the tokens of e only).

    >>> f = lambda ts: np.array([0.9 if "good" in t.split() else 0.3 for t in ts])
    >>> round(sufficiency(f, ["so", "good"], [1]), 12)
    0.0
    """
    tokens = _tokens(tokens)
    keep = set(_positions(ids, len(tokens), "ids"))
    others = [i for i in range(len(tokens)) if i not in keep]
    full, kept = _score(f, [" ".join(tokens), mask_positions(tokens, others, mask_token)])
    return float(full - kept)


def sufficiency_alone(f: Scorer, tokens: Sequence[str], ids: Iterable[int]) -> float:
    """Sufficiency f(xi) - f(e), with e read literally: the explanation's tokens alone, in text order.

    Differs from :func:`sufficiency` only for models that see the mask token or
    the document length (a bag-of-words TF-IDF model that ignores the out-of-
    vocabulary mask gives the same value). An empty explanation scores the empty
    text.
    """
    tokens = _tokens(tokens)
    keep = sorted(set(_positions(ids, len(tokens), "ids")))
    full, kept = _score(f, [" ".join(tokens), " ".join(tokens[i] for i in keep)])
    return float(full - kept)


def positive_ranking(scores: Sequence[float]) -> tuple[int, ...]:
    """Positions with a strictly positive, finite score, by decreasing score (ties: smaller position first).

    This is the ranking e+ that AUC-MoRF perturbs ("only the tokens with positive score").

    >>> positive_ranking([0.1, -0.2, 0.5, 0.0, 0.1])
    (2, 0, 4)
    """
    s = np.asarray(scores, dtype=float)
    if s.ndim != 1:
        raise ValueError(f"scores must be 1-d, got shape {s.shape}")
    idx = [i for i in range(s.size) if np.isfinite(s[i]) and s[i] > 0]
    return tuple(sorted(idx, key=lambda i: (-s[i], i)))


def _morf_curve(f: Scorer, tokens: list[str], ranking: list[int], depth: int, mask_token: str) -> np.ndarray:
    """Scores f(y^(k)) for k = 0..depth, y^(k) = xi with its first k ranked tokens masked."""
    texts = [mask_positions(tokens, ranking[:k], mask_token) for k in range(depth + 1)]
    return _score(f, texts)


def _morf_inputs(tokens: Sequence[str], ranking: Sequence[int], max_perturbations: int):
    tokens = _tokens(tokens)
    ranking = _positions(ranking, len(tokens), "ranking")
    if len(set(ranking)) != len(ranking):
        raise ValueError(f"ranking must not repeat positions, got {ranking}")
    check_int(max_perturbations, "max_perturbations", 1)
    return tokens, ranking


def aucmorf(
    f: Scorer,
    tokens: Sequence[str],
    ranking: Sequence[int],
    mask_token: str = MASK_TOKEN,
    max_perturbations: int = MORF_MAX_PERTURBATIONS,
) -> float:
    """AUC-MoRF exactly as the paper defines it (section 4).

        AUCMoRF = (1/D) * sum_{k=2}^{D} (f(y^(k-1)) + f(y^(k))) / 2,   D = min(20, |e+|),

    where ``ranking`` is e+ (the positively scored positions, most important
    first; see :func:`positive_ranking`) and y^(k) is xi with its first k
    tokens masked. The sum is the trapezoid area of the curve k -> f(y^(k)) over
    k in [1, D] (the segment from the unperturbed document y^(0) is not
    included), divided by D. Lower is better. Scores are not normalised.

    For D <= 1 the sum is empty: the formula would give 0 (the best possible
    value) to a ranking with a single positive token and 0/0 to an empty one.
    Both are returned as NaN ("undefined") rather than rewarded; callers
    average over defined values and report how many were undefined.

    >>> f = lambda ts: np.array([t.split().count("UNK") * -0.1 + 1.0 for t in ts])
    >>> round(aucmorf(f, ["a", "b", "c"], [0, 1, 2]), 12)  # (0.9+0.8)/2 + (0.8+0.7)/2 over 3
    0.533333333333
    """
    tokens, ranking = _morf_inputs(tokens, ranking, max_perturbations)
    depth = min(max_perturbations, len(ranking))
    if depth <= 1:
        return math.nan
    curve = _morf_curve(f, tokens, ranking, depth, mask_token)
    return float(np.sum((curve[1:depth] + curve[2 : depth + 1]) / 2) / depth)


def aucmorf_authors(
    f: Scorer,
    tokens: Sequence[str],
    ranking: Sequence[int],
    mask_token: str = MASK_TOKEN,
    max_perturbations: int = MORF_MAX_PERTURBATIONS,
) -> float:
    """AUC-MoRF as the authors' public code computes it (``experiments/metrics.py``, described, not copied).

    With D' = min(20, |xi|) (the document length, not |e+|), m = min(|e+|, D')
    and the curve normalised by the original score,

        c_0 = 1,   c_k = f(y^(k)) / f(xi) for 1 <= k <= m,   c_k = c_m for m < k <= D',

    the value is the trapezoid area of c over k in [0, D'] divided by D':

        AUCMoRF* = (1/D') * sum_{k=1}^{D'} (c_{k-1} + c_k) / 2.

    Differences from :func:`aucmorf`: scores are divided by f(xi); the first
    segment (from the unperturbed document) is included; the curve is padded
    with its last value up to D' rather than stopping at |e+|, so an
    explanation with few positive tokens is charged for the score it leaves;
    an empty ranking gives 1 (no decrease) instead of being undefined. The
    authors' older ``experiments/evaluation.py`` pads to the full length |xi|
    without the cap of 20; the newer file, used here, caps at 20.

    >>> f = lambda ts: np.array([t.split().count("UNK") * -0.1 + 1.0 for t in ts])
    >>> round(aucmorf_authors(f, ["a", "b", "c"], [0]), 12)  # c = 1, .9, .9, .9
    0.916666666667
    """
    tokens, ranking = _morf_inputs(tokens, ranking, max_perturbations)
    width = min(max_perturbations, len(tokens))
    depth = min(len(ranking), width)
    if depth == 0:
        return 1.0
    curve = _morf_curve(f, tokens, ranking, depth, mask_token)
    if curve[0] == 0:
        raise ValueError("aucmorf_authors divides by f(xi), which is 0 for this document")
    c = np.concatenate([curve / curve[0], np.full(width - depth, curve[depth] / curve[0])])
    return float(np.sum((c[:-1] + c[1:]) / 2) / width)


def jaccard(a: Iterable[int], b: Iterable[int]) -> float:
    """Jaccard similarity ``len(a & b) / len(a | b)``; two empty sets are identical (1), as in the authors' code.

    >>> jaccard([1, 2, 3], [2, 3, 4])
    0.5
    """
    a, b = set(a), set(b)
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def robustness(ids: Iterable[int], reruns: Sequence[Iterable[int]]) -> float:
    """Robustness = (1/k) * sum_i J(e, e_i): mean Jaccard between an explanation e (``ids``) and k re-runs
    (section 4).

    >>> robustness([1, 2], [[1, 2], [2], [3]])
    0.5
    """
    ids = set(ids)
    reruns = list(reruns)
    if not reruns:
        raise ValueError("reruns must hold at least one re-run explanation (k >= 1)")
    return float(np.mean([jaccard(ids, r) for r in reruns]))


def proportion(ids: Iterable[int], n_tokens: int) -> float:
    """Proportion |e| / |xi| of the document used by the explanation.

    >>> proportion([0, 3], 8)
    0.25
    """
    check_int(n_tokens, "n_tokens", 1)
    return len(set(_positions(ids, n_tokens, "ids"))) / n_tokens


def timed(fn: Callable, *args, **kwargs) -> tuple[object, float]:
    """``(fn(*args, **kwargs), wall-clock seconds)`` measured with ``time.perf_counter``."""
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start
