"""Candidate search of Algorithm 1: exhaustive by size, or beam.

Both strategies walk sizes 1, 2, ... up to ``max_len`` and stop at the first
size whose best drop meets the threshold (``drop >= threshold``, as in the
paper, up to ``tie_tol``: at eps = 1 the threshold equals the largest possible
drop, E[f] - 0, which rounding may put one ulp below it). Within a size, the best candidate has the largest drop; drops within
``tie_tol`` of the largest are ties, resolved by the lexicographically smallest
sorted position tuple, so the result does not depend on summation order. When
no size meets the threshold the best candidate over all sizes is returned with
``found=False`` (Algorithm 1 keeps ``best`` across sizes too), ties going to
the smaller size.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from .drops import extension_drops

#: Default budget on the number of candidates exhaustive search may evaluate.
DEFAULT_MAX_CANDIDATES = 100_000


def count_candidates(n_tokens: int, max_len: int) -> int:
    """Number of position subsets of size 1..max_len: sum_k C(b, k)."""
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
    if search not in ("exhaustive", "beam"):
        raise ValueError(f"search must be 'auto', 'exhaustive' or 'beam', got {search!r}")
    return search


def _best_index(candidates: list[tuple[int, ...]], drops: np.ndarray, tie_tol: float, skip=frozenset()) -> int:
    """Index of the largest drop; drops within tie_tol of it are ties, won by the smallest position tuple."""
    live = [i for i in range(len(candidates)) if i not in skip]
    top = max(drops[i] for i in live)
    return min((i for i in live if top - drops[i] <= tie_tol), key=lambda i: candidates[i])


def _beam(candidates, drops, tie_tol: float, width: int) -> list[int]:
    """The ``width`` best candidates, best first, ties as in :func:`_best_index`."""
    chosen: list[int] = []
    while len(chosen) < min(width, len(candidates)):
        chosen.append(_best_index(candidates, drops, tie_tol, frozenset(chosen)))
    return chosen


def _extend(perturbed, weights, d, prefixes: list[tuple[int, ...]], exhaustive: bool):
    """All defined candidates one position larger than the given prefixes, with their drops."""
    n_tokens = perturbed.shape[1]
    k = len(prefixes[0])
    drops, defined = extension_drops(perturbed, weights, d, np.array(prefixes, dtype=np.intp).reshape(len(prefixes), k))
    seen: dict[tuple[int, ...], float] = {}
    for row, prefix in enumerate(prefixes):
        start = prefix[-1] + 1 if (exhaustive and prefix) else 0
        for j in range(start, n_tokens):
            if j in prefix or not defined[row, j]:
                continue
            cand = tuple(sorted(prefix + (j,)))
            seen.setdefault(cand, drops[row, j])
    return list(seen), np.array(list(seen.values()))


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
    """Run Algorithm 1 over the rows ``perturbed`` with weights and per-row drops ``d``."""
    n_tokens = perturbed.shape[1]
    exhaustive = strategy == "exhaustive"
    single, single_defined = extension_drops(perturbed, weights, d, np.zeros((1, 0), dtype=np.intp))
    importances = np.where(single_defined[0], single[0], np.nan)
    candidates = [(j,) for j in range(n_tokens) if single_defined[0, j]]
    drops = single[0, single_defined[0]]
    best: tuple[tuple[int, ...], float] | None = None
    n_evaluated = 0
    for size in range(1, min(max_len, n_tokens) + 1):
        if not candidates:
            break
        n_evaluated += len(candidates)
        top = _best_index(candidates, drops, tie_tol)
        if drops[top] >= threshold - tie_tol:
            return SearchResult(candidates[top], float(drops[top]), True, importances, strategy, n_evaluated)
        if best is None or drops[top] - best[1] > tie_tol:
            best = (candidates[top], float(drops[top]))
        if size == min(max_len, n_tokens):
            break
        keep = range(len(candidates)) if exhaustive else _beam(candidates, drops, tie_tol, beam_width)
        candidates, drops = _extend(perturbed, weights, d, [candidates[i] for i in keep], exhaustive)
    if best is None:
        return SearchResult((), None, False, importances, strategy, n_evaluated)
    return SearchResult(best[0], best[1], False, importances, strategy, n_evaluated)
