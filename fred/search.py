"""Candidate search of Algorithm 1: exhaustive by size, or a beam (fred's, or the released code's).

Every strategy walks sizes 1, 2, ... up to ``max_len`` and stop at the first
size whose best drop meets the threshold (``drop >= threshold``, as in the
paper, up to ``tie_tol``: at eps = 1 the threshold equals the largest possible
drop, E[f] - 0, which rounding may put one ulp below it). Within a size, the best candidate has the largest drop; drops within
``tie_tol`` of the largest are ties, resolved by the lexicographically smallest
sorted position tuple, so the result does not depend on summation order. When
no size meets the threshold the best candidate over all sizes is returned with
``found=False`` (Algorithm 1 keeps ``best`` across sizes too), ties going to
the smaller size.

``"released-beam"`` is the beam of the authors' released code (described from
its ``fred/explainer.py``, not copied): each of the ``beam_width`` kept
candidates is extended only by the :data:`RELEASED_EXTENSIONS` positions not in
it of largest singleton drop (ties within ``tie_tol``: smaller position first;
positions no row perturbs are left out), and a set reached from two kept
candidates is evaluated once per candidate, so it can fill two places of the
next beam, as there (the best set of a size usually comes from two kept
candidates, so the beam often narrows to one distinct set). Two behaviours of
the released code are not reproduced: ties between drops follow the rule above
(there: the larger sum of singleton drops, the later candidate winning), and
when no candidate has a positive drop the best one is returned with
``found=False`` (there: an empty explanation, its running best starting at 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from fred_constants import RELEASED_EXTENSIONS, STRATEGIES

from .drops import DesignDrops

#: Default budget on the number of candidates exhaustive search may evaluate.
DEFAULT_MAX_CANDIDATES = 100_000


def count_candidates(n_tokens: int, max_len: int) -> int:
    """Number of position subsets of size 1..max_len of b = ``n_tokens`` positions: sum_k C(b, k)."""
    return sum(comb(n_tokens, k) for k in range(1, min(max_len, n_tokens) + 1))


@dataclass(frozen=True)
class SearchResult:
    """Outcome of a search: the chosen candidate and the singleton drops (importances)."""

    best_ids: tuple[int, ...]
    drop: float | None  # None when no candidate is defined (no row perturbs any position)
    found: bool
    importances: np.ndarray
    strategy: str
    n_evaluated: int


def resolve_strategy(search: str, n_tokens: int, max_len: int, max_candidates: int) -> str:
    """Map ``"auto"`` to exhaustive or beam; refuse an exhaustive search over budget."""
    total = count_candidates(n_tokens, max_len)
    if search == "auto":
        return "exhaustive" if total <= max_candidates else "beam"
    if search == "exhaustive" and total > max_candidates:
        raise ValueError(
            f"search='exhaustive' would evaluate {total} candidates (b={n_tokens}, max_len={max_len}), "
            f"over the budget max_candidates={max_candidates}; use search='beam' or lower max_len"
        )
    if search not in STRATEGIES:
        raise ValueError(f"search must be 'auto' or one of {STRATEGIES}, got {search!r}")
    return search


def _best_index(candidates, drops: np.ndarray, tie_tol: float, live: np.ndarray | None = None) -> int:
    """Index of the largest drop among the ``live`` candidates (all when None); drops within tie_tol of it are
    ties, won by the lexicographically smallest position tuple.

    ``candidates`` is a (C, k) array of sorted positions (or a list of tuples), in any order.
    """
    candidates = np.asarray(candidates)
    top = drops.max() if live is None else drops[live].max()
    tied = top - drops <= tie_tol
    tied = np.flatnonzero(tied if live is None else tied & live)
    if len(tied) == 1:
        return int(tied[0])
    return int(tied[np.lexsort(candidates[tied].T[::-1])[0]])  # lexsort's last key is the primary one


def _beam(candidates, drops: np.ndarray, tie_tol: float, width: int) -> list[int]:
    """The ``width`` best candidates, best first, ties as in :func:`_best_index`."""
    live = np.ones(len(drops), dtype=bool)
    chosen: list[int] = []
    while len(chosen) < min(width, len(drops)):
        chosen.append(_best_index(candidates, drops, tie_tol, live))
        live[chosen[-1]] = False
    return chosen


def _first_outside(member: np.ndarray, order: np.ndarray, count: int) -> np.ndarray:
    """(P, b) mask of the first ``count`` positions of ``order`` outside each prefix (``member``'s rows).

    >>> _first_outside(np.array([[False, True, False, False]]), np.array([1, 3, 0]), 2).astype(int)
    array([[1, 0, 0, 1]])
    """
    outside = ~member[:, order]
    chosen = np.zeros_like(member)
    chosen[:, order] = outside & (np.cumsum(outside, axis=1) <= count)
    return chosen


def _extend(design: DesignDrops, prefixes: np.ndarray, strategy: str,
            order: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """All defined candidates one position larger than the (P, k) sorted ``prefixes``, with their drops.

    Exhaustive search appends only positions after a prefix's last, so each set
    arises once. The beam adds any position not in the prefix; ``S | {j}`` equals
    ``S' | {j'}`` for two prefixes of size k exactly when they share k - 1
    positions (``j`` the other one of S', ``j'`` the other one of S), and the set
    keeps the drop computed from the earlier prefix (beam order), so the later
    one's is dropped. The released beam adds the first :data:`RELEASED_EXTENSIONS`
    positions of ``order`` (the defined singletons by decreasing drop) outside the
    prefix and keeps a set once per prefix reaching it (module docstring).
    Candidates come out as a (C, k + 1) array of sorted positions with their drops.
    """
    n_prefixes, b = len(prefixes), design.perturbed.shape[1]
    drops, valid = design.extension_drops(prefixes)
    if strategy == "exhaustive":  # positions after a sorted prefix's last are outside it
        valid &= np.arange(b) > prefixes[:, -1:]
    else:
        member = np.zeros((n_prefixes, b), dtype=bool)
        member[np.arange(n_prefixes)[:, None], prefixes] = True
        valid &= ~member
        if strategy == "released-beam":
            valid &= _first_outside(member, order, RELEASED_EXTENSIONS)
        else:
            shared = member.astype(float) @ member.T.astype(float)  # positions two prefixes share, exact small ints
            earlier, later = np.nonzero(np.triu(shared == prefixes.shape[1] - 1, 1))
            valid[later, np.argmax(member[earlier] & ~member[later], axis=1)] = False
    rows, positions = np.nonzero(valid)
    candidates = np.concatenate([prefixes[rows], positions[:, None]], axis=1)
    if strategy != "exhaustive":
        candidates.sort(axis=1)
    return candidates, drops[rows, positions]


def search_candidates(
    perturbed: np.ndarray,
    weights: np.ndarray,
    d: np.ndarray,
    threshold: float,
    max_len: int,
    strategy: str,
    beam_width: int,
    tie_tol: float,
) -> SearchResult:
    """Run Algorithm 1 over the rows ``perturbed`` with weights and per-row drops ``d``.

    ``strategy`` is one of :data:`STRATEGIES` (module docstring); ``beam_width``
    is used by the two beams only.
    Candidates are kept as a (C, size) array of sorted positions with a (C,)
    array of drops; each size costs one :meth:`fred.drops.DesignDrops.extension_drops`
    call (a few matrix products) and array operations, no per-candidate Python.
    """
    design = DesignDrops(perturbed, weights, d)
    with design.single_threaded():
        return _search(design, threshold, max_len, strategy, beam_width, tie_tol)


def _search(design: DesignDrops, threshold: float, max_len: int, strategy: str, beam_width: int,
            tie_tol: float) -> SearchResult:
    """The body of :func:`search_candidates` on a prepared design."""
    b = design.perturbed.shape[1]
    exhaustive = strategy == "exhaustive"
    single, single_defined = design.extension_drops(np.zeros((1, 0), dtype=np.intp))
    importances = np.where(single_defined[0], single[0], np.nan)
    candidates = np.flatnonzero(single_defined[0])[:, None]
    drops = single[0, single_defined[0]]
    # The defined singletons best first, drops within tie_tol ordered by position (the rule of every choice here).
    order = candidates[_beam(candidates, drops, tie_tol, len(drops)), 0] if strategy == "released-beam" else None
    best: tuple[tuple[int, ...], float] | None = None
    n_evaluated = 0
    for size in range(1, min(max_len, b) + 1):
        if len(candidates) == 0:
            break
        n_evaluated += len(candidates)
        top = _best_index(candidates, drops, tie_tol)
        top_ids = tuple(int(j) for j in candidates[top])
        if drops[top] >= threshold - tie_tol:
            return SearchResult(top_ids, float(drops[top]), True, importances, strategy, n_evaluated)
        if best is None or drops[top] - best[1] > tie_tol:
            best = (top_ids, float(drops[top]))
        if size == min(max_len, b):
            break
        keep = candidates if exhaustive else candidates[_beam(candidates, drops, tie_tol, beam_width)]
        candidates, drops = _extend(design, keep, strategy, order)
    if best is None:
        return SearchResult((), None, False, importances, strategy, n_evaluated)
    return SearchResult(best[0], best[1], False, importances, strategy, n_evaluated)
