"""Algorithm 1's search (every subset of each size) against a beam search, on tables: the beams of the one search
(:func:`analytic.search.search_on_drops`) run on the referee's drops, in floats or exactly, and in batch on integer
tables at p = 1/2.

* :func:`beam_explain` and :func:`released_explain` run a beam on the referee's float drops of a table (the released
  variant as its behaviour is described: 10 extension tokens, duplicate sets kept, baseline f(xi));
  :func:`drops_by_code` gives the exact drops to run it on in Fractions.
* :func:`covering`: for which b a beam sees every candidate whatever the drops (then it is Algorithm 1).
* :func:`batch_searches` and :func:`scan_box`: both searches on many integer tables at once
  (:func:`analytic.search.search_batch`: 2^b times the drops of Eq. 1 at p = 1/2 are integers), to find the
  smallest table of a finite box that separates them.

Written without importing ``fred``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Iterator, Sequence

import numpy as np

from fred_constants import RELEASED_BASELINE, RELEASED_EXTENSIONS, RELEASED_WIDTH

from .patterns import code_of, popcounts, table_b
from .referee import all_drops, all_drops_rational, expected_prediction, scaled_drops
from .search import SearchOutcome, search_batch, search_on_drops, tie_tolerance

#: The box searched for the minimal counterexample: the integer tables entrywise at most this one (663,552), which
#: an exploratory search found (random integer tables, greedy shrinking). It separates the searches under both
#: baselines with f(xi) >= 1, so proofs_checks.kit checks explainers of either baseline on it.
COUNTEREXAMPLE_TABLE = (1, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3, 0, 3, 3, 0, 2, 0, 0, 2, 0, 3,
                        3, 0)


def drops_by_code(table: Sequence, p: Fraction, *, baseline: str = "mean") -> tuple[dict[int, Fraction], Fraction]:
    """Exact drops of every position set in Fractions, keyed by pattern code (:func:`all_drops_rational`), and
    the baseline value they are measured from (E[f] or f(xi))."""
    value, drops = all_drops_rational([Fraction(v) for v in table], p, baseline=baseline)
    return {code_of(s): d for s, d in drops.items()}, value


def beam_explain(table, p: float, eps: float, max_len: int, *, baseline: str = "mean", width: int = RELEASED_WIDTH,
                 extend_top: int | None = None, duplicates: bool = False) -> SearchOutcome:
    """A beam of ``width`` on the referee's float drops (:func:`all_drops`), threshold eps E[f] (eps f(xi) for
    baseline "original")."""
    table = np.asarray(table, float)
    b = table_b(table)
    value = float(table[0]) if baseline == "original" else expected_prediction(table, p)
    return search_on_drops(all_drops(table, p, baseline=baseline), b, eps * value, max_len, width=width,
                           extend_top=extend_top, duplicates=duplicates, tol=tie_tolerance(table))


def released_explain(table, p: float, eps: float, max_len: int, *, duplicates: bool = True) -> SearchOutcome:
    """The released code's search as described (not copied): width 4, each kept candidate extended only by the
    10 tokens outside it of largest singleton drop, a set reached from two kept candidates kept twice
    (``duplicates=False``: distinct sets), baseline f(xi); on exact drops (n -> infinity), with fred's tie rule
    (the released code's own tie rule is not modelled)."""
    return beam_explain(table, p, eps, max_len, baseline=RELEASED_BASELINE, width=RELEASED_WIDTH,
                        extend_top=RELEASED_EXTENSIONS, duplicates=duplicates)


# ----------------------------------------------------------------------------------------------------------
# When is a beam exhaustive whatever the drops?
# ----------------------------------------------------------------------------------------------------------

def covering(max_b: int, width: int = RELEASED_WIDTH, *, duplicates: bool = False) -> dict:
    """For each b <= ``max_b``: does a beam of ``width`` evaluate every candidate of every size, whatever the
    drops and the tie rule? Every choice of the kept entries (any ``min(width, len)`` entries of the list of a
    size: values and ties may pick any) is followed, size by size; ``duplicates`` keeps a set reached from two
    kept candidates twice in the list (the released beam). Extending by every position outside a candidate: the
    released restriction to 10 positions is void for b <= 11.

    Returns ``{"exhaustive_up_to_b": largest b such that every b' <= b is covered, "per_b": {b: covered},
    "first_miss": the first choice (b, size, kept sets, sets never reached) that misses a candidate or None}``.

    >>> covering(5)["exhaustive_up_to_b"], covering(4, duplicates=True)["exhaustive_up_to_b"]
    (4, 3)
    """
    per_b, first_miss = {}, None
    for b in range(1, max_b + 1):
        covered, stack = True, [(1, [(j,) for j in range(b)])]
        while stack and covered:
            size, entries = stack.pop()
            if size == b:
                continue
            target = set(itertools.combinations(range(b), size + 1))
            for keep in set(itertools.combinations(range(len(entries)), min(width, len(entries)))):
                kept = [entries[i] for i in keep]
                grown = [tuple(sorted(k + (j,))) for k in kept for j in range(b) if j not in k]
                if set(grown) != target:
                    covered = False
                    first_miss = first_miss or {"b": b, "size": size, "kept": sorted(set(kept)),
                                                "missed": sorted(target - set(grown))}
                    break
                stack.append((size + 1, sorted(grown) if duplicates else sorted(set(grown))))
        per_b[b] = covered
    up_to = next((b - 1 for b in range(1, max_b + 1) if not per_b[b]), max_b)
    return {"exhaustive_up_to_b": up_to, "per_b": per_b, "first_miss": first_miss, "width": width,
            "duplicates": duplicates}


# ----------------------------------------------------------------------------------------------------------
# Both searches on many integer tables at once (p = 1/2, baseline E[f])
# ----------------------------------------------------------------------------------------------------------

def batch_searches(tables: np.ndarray, eps: Fraction, width: int = RELEASED_WIDTH) -> dict[str, np.ndarray]:
    """Algorithm 1 and a distinct-set beam of ``width`` (:func:`analytic.search.search_batch`) on each row of
    ``tables`` (non-negative integers, code order), p = 1/2, baseline E[f], threshold eps E[f], max_len >= b:
    2^b times the drops (:func:`analytic.referee.scaled_drops`) against eps 2^b E[f] = eps sum(t), compared
    exactly as ``eps.denominator * drop >= eps.numerator * sum(t)``."""
    tables = np.asarray(tables, np.int64)
    return search_batch(scaled_drops(tables), eps.numerator * tables.sum(1), scale=eps.denominator, width=width)


def box_tables(upper: Sequence[int], chunk: int = 1 << 16) -> Iterator[np.ndarray]:
    """Every integer table t with 0 <= t <= ``upper`` entrywise (prod(upper + 1) of them), in chunks of rows:
    mixed radix over the entries, the first entry varying fastest."""
    upper = np.asarray(upper, np.int64)
    free = np.flatnonzero(upper)
    total = int(np.prod(upper[free] + 1))
    for start in range(0, total, chunk):
        rest = np.arange(start, min(total, start + chunk))
        block = np.zeros((len(rest), upper.size), np.int64)
        for pos in free:
            block[:, pos] = rest % (upper[pos] + 1)
            rest = rest // (upper[pos] + 1)
        yield block


def scan_box(upper: Sequence[int], eps: Fraction, *, top: int | None = None) -> dict:
    """The tables of a box that separate Algorithm 1 from the distinct-set width-4 beam (:func:`batch_searches`),
    and the smallest of them.

    The box is every integer g with 0 <= g <= ``upper`` entrywise; the table is t = g, or t = top - g when ``top``
    is given (then t[0] = top = max t when upper[0] = 0). A table counts when it is inside the hypotheses (E[f] > 0,
    and Algorithm 1 finds a candidate reaching eps E[f], i.e. Eq. 4 has a solution) and no tie could change either
    search (``tie`` of :func:`batch_searches`); it separates the searches

    * for ``"solution"`` when the beam returns no candidate of Algorithm 1's size reaching the threshold (its
      answer is not a solution of Eq. 4);
    * for ``"explanation"`` when the beam returns another candidate than Algorithm 1.

    The smallest is taken in the order: smaller sum of g, then g first in code order (lexicographic).
    """
    counts = {"tables": 0, "outside_hypotheses": 0, "tied": 0}
    found: dict[str, dict] = {test: {"count": 0, "sum": None, "tables": []} for test in ("solution", "explanation")}
    for g in box_tables(upper):
        tables = g if top is None else top - g
        out = batch_searches(tables, eps)
        inside = (tables.sum(1) > 0) & out["a_found"]
        count = popcounts(table_b(tables, "tables", batch=True))  # the size of each code
        sizes = np.where(out["b_code"] >= 0, count[np.maximum(out["b_code"], 0)], 0)
        a_sizes = count[np.maximum(out["a_code"], 0)]  # read only where Algorithm 1 found a code (ok below)
        ok = inside & ~out["tie"]
        tests = {"solution": ok & (~out["b_found"] | (sizes != a_sizes)),
                 "explanation": ok & (~out["b_found"] | (out["b_code"] != out["a_code"]))}
        counts["tables"] += len(g)
        counts["outside_hypotheses"] += int((~inside).sum())
        counts["tied"] += int((inside & out["tie"]).sum())
        for test, mask in tests.items():
            rec, sums = found[test], g[mask].sum(1)
            rec["count"] += int(mask.sum())
            if not len(sums) or (rec["sum"] is not None and sums.min() > rec["sum"]):
                continue
            if rec["sum"] is None or sums.min() < rec["sum"]:
                rec["sum"], rec["tables"] = int(sums.min()), []
            rec["tables"] += [row.tolist() for row in g[mask][sums == rec["sum"]]]
    for rec in found.values():
        rec["count_at_smallest_sum"] = len(rec["tables"])
        rec["smallest"] = min(rec.pop("tables"), default=None)
    return {**counts, **found}
