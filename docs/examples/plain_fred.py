"""FRED written from scratch against the conformance kit's public contract, in plain Python and numpy.

Check it with the kit (it passes every check, in exact and in Monte Carlo mode)::

    from proofs_checks import check_explainer, explainer_tags
    import plain_fred                                  # this file, on sys.path
    print(check_explainer(explainer_tags(exact=True)(plain_fred.make_explainer)))

It imports nothing of the fred-theory project. ``explainer_server.py`` beside it serves it over the kit's JSON-lines
protocol, and ``tools/kit_mutation.py`` measures the kit's power on every small change a mutation tool can make to it
(``docs/kit_mutation.md``).

FRED as the paper states it (section 2, Algorithm 1):

* each token of ``text.split()`` is replaced by a mask token with probability p, independently (section 2.3); in
  exact mode the rows are all 2^b patterns, weighted p^k (1 - p)^(b - k);
* the drop of a candidate set S is E[f] - E[f | S perturbed], the means over the rows perturbing all of S
  (Eq. 3; Eq. 1 in exact mode); a candidate no row perturbs has no drop;
* Algorithm 1 walks the sizes 1..max_len and returns the first size whose best drop reaches eps E[f] (Eq. 2),
  else the best drop seen (found = False); Eq. 5's importance of a position is the drop of its singleton;
* without ``n_samples``, Lemma 2's n: the smallest n with 1 - (1 - p^l)^n >= alpha, l = min(max_len, b).
"""

from __future__ import annotations

import math
import operator
from typing import NamedTuple

import numpy as np

ALPHA = 0.95  # Lemma 2's coverage probability for the default n (section 2.4)
MASK = "UNK"  # the paper's mask token (Table 1): no word of a document or of a model's vocabulary
CHUNK = 65_536  # booleans per block of rows x candidates x size (bounds the memory of one size)


class Explanation(NamedTuple):
    """What ``explain`` returns, the kit's explanation contract: the selection (sorted positions), whether it
    reaches the threshold, one importance per position (None where no row perturbs it)."""

    best_ids: tuple[int, ...]
    found: bool
    importances: tuple[float | None, ...]


def number_in(value, name: str, high_open: bool):
    """``value`` when it lies in (0, 1) (``high_open``) or (0, 1], else ValueError naming ``name``; a value that is
    not a number raises Python's TypeError in the comparison."""
    if not (0 < value < 1 or (not high_open and value == 1)):
        raise ValueError(f"{name} must lie in (0, 1{')' if high_open else ']'}, got {value!r}")
    return value


def positive_integer(value, name: str) -> int:
    """``value`` when it is an integer >= 1, else ValueError naming ``name``; a value that is not an integer raises
    TypeError in ``operator.index``."""
    value = operator.index(value)
    if value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return value


def lemma2_n(p: float, size: int) -> int:
    """Lemma 2's n (line 366): the smallest n >= log(1 - alpha) / log(1 - p^size), so that every candidate of at
    most ``size`` tokens is perturbed in some row with probability >= alpha."""
    return math.ceil(math.log1p(-ALPHA) / math.log1p(-p ** size))


def explained_column(scores: np.ndarray, label):
    """The explained column of the model's scores and its label (default: the class predicted for the first text);
    a model returning one number per text (regression) has no label."""
    if scores.ndim == 1:
        if label is not None:
            raise ValueError("label must be None when the model returns one number per text (regression)")
        return scores, None
    label = int(np.argmax(scores[0])) if label is None else operator.index(label)  # not an integer: TypeError
    if not 0 <= label < scores.shape[1]:
        raise ValueError(f"label must lie in [0, {scores.shape[1]}), got {label}")
    return scores[:, label], label


def perturbations(b: int, p: float, n: int, exact: bool, rng) -> tuple[np.ndarray, np.ndarray]:
    """The rows (True where a position is perturbed) and their weights: all 2^b patterns weighted
    p^k (1 - p)^(b - k) in exact mode, else n independent Bernoulli(p) draws per position, weighted alike."""
    if exact:
        rows = ((np.arange(2 ** b)[:, None] >> np.arange(b)) & 1).astype(bool)
        k = rows.sum(axis=1)
        return rows, p ** k * (1 - p) ** (b - k)
    return rng.random((n, b)) < p, np.ones(n)


def extend(prefixes: np.ndarray, b: int) -> np.ndarray:
    """Every sorted candidate one position longer than a sorted prefix, in lexicographic order."""
    last = prefixes[:, -1]
    counts = b - 1 - last
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    following = np.arange(counts.sum()) - starts + np.repeat(last + 1, counts)
    return np.column_stack([np.repeat(prefixes, counts, axis=0), following])


def drops_of(candidates: np.ndarray, rows: np.ndarray, weights: np.ndarray, f: np.ndarray, mean: float):
    """The candidates some row perturbs, and their drops E[f] - E[f | candidate perturbed] (Eqs. 1, 3)."""
    mass, total = np.empty(len(candidates)), np.empty(len(candidates))
    step = max(1, CHUNK // (rows.shape[0] * candidates.shape[1]))
    for start in range(0, len(candidates), step):
        covered = rows[:, candidates[start:start + step]].all(axis=2)
        mass[start:start + step], total[start:start + step] = (weights * f) @ covered, weights @ covered
    defined = total > 0  # a candidate no row perturbs has no drop
    return candidates[defined], mean - mass[defined] / total[defined]


def search(rows: np.ndarray, weights: np.ndarray, f: np.ndarray, mean: float, threshold: float, max_len: int):
    """Algorithm 1, every candidate of each size: (best_ids, found, importances)."""
    b = rows.shape[1]
    candidates, best_ids, best_drop = np.arange(b)[:, None], (), None
    importances: list[float | None] = [None] * b
    for size in range(1, min(max_len, b) + 1):
        if size > 1:
            candidates = extend(candidates, b)
        candidates, drops = drops_of(candidates, rows, weights, f, mean)
        if size == 1:  # Eq. 5: a position's importance is its singleton's drop
            for (i,), value in zip(candidates, drops):
                importances[i] = float(value)
        if len(candidates) == 0:
            break
        top = int(np.argmax(drops))  # ties: the first in lexicographic order
        ids, drop = tuple(int(i) for i in candidates[top]), float(drops[top])
        if drop >= threshold:
            return ids, True, importances
        if best_drop is None or drop > best_drop:
            best_ids, best_drop = ids, drop
    return best_ids, False, importances


class PlainFred:
    """FRED on ``classifier_fn`` (a list of texts -> an (n, k) array of class scores, or (n,) for regression).

    ``exact=True`` enumerates all 2^b patterns (for short documents: it scores 2^b texts); otherwise each call draws
    its rows from ``numpy.random.default_rng(random_state)``, so two calls with the same arguments give the same
    explanation.
    """

    def __init__(self, classifier_fn, exact: bool, random_state: int | None):
        self.classifier_fn, self.exact, self.random_state = classifier_fn, exact, random_state

    def explain(self, text: str, label: int | None = None, p: float = 0.5, eps: float = 0.15, max_len: int = 10,
                n_samples: int | None = None) -> Explanation:
        if not isinstance(text, str):
            raise TypeError(f"text must be a string, got {type(text).__name__}")
        tokens = text.split()
        if not tokens:
            raise ValueError("text must hold at least one token")
        p, eps = number_in(p, "p", high_open=True), number_in(eps, "eps", high_open=False)
        max_len = positive_integer(max_len, "max_len")
        n = lemma2_n(p, min(max_len, len(tokens))) if n_samples is None else positive_integer(n_samples, "n_samples")
        _, label = explained_column(self.classifier_fn([text]), label)  # f(xi): the default label
        rows, weights = perturbations(len(tokens), p, n, self.exact, np.random.default_rng(self.random_state))
        texts = [" ".join(MASK if hidden else token for hidden, token in zip(row, tokens)) for row in rows]
        distinct = list(dict.fromkeys(texts))  # each distinct text scored once
        scored, _ = explained_column(self.classifier_fn(distinct), label)
        where = {t: i for i, t in enumerate(distinct)}
        f = scored[[where[t] for t in texts]]
        mean = float(weights @ f / weights.sum())
        return Explanation(*search(rows, weights, f, mean, eps * mean, max_len))


def make_explainer(classifier_fn, exact: bool = False, random_state: int | None = 0) -> PlainFred:
    """The kit's factory protocol: ``make_explainer(classifier_fn, exact=False)``."""
    return PlainFred(classifier_fn, exact, random_state)
