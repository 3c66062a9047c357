"""Algorithm 1's search (every subset of each size) against a beam search, on given drops and, in batch, on integer
tables at p = 1/2.

* :func:`search_on_drops`: Algorithm 1 (``width=None``) or a beam of ``width`` on a mapping code -> drop, in the
  arithmetic of the drops (``Fraction`` for exact ones); :func:`beam_explain` and :func:`released_explain` run it on
  the referee's float drops of a table (the released variant as its behaviour is described: 10 extension tokens,
  duplicate sets kept, baseline f(xi)).
* :func:`covering`: for which b a beam sees every candidate whatever the drops (then it is Algorithm 1).
* :func:`batch_searches` and :func:`scan_box`: both searches on many integer tables at once, in integer
  arithmetic (2^b times the drops of Eq. 1 at p = 1/2 are integers), to find the smallest table of a finite box
  that separates them.

Ties (drops within ``tol``; 0 in exact arithmetic) go to the lexicographically smallest position tuple, as in
``fred`` and the referee. Written without importing ``fred``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator, Mapping, Sequence

import numpy as np

from .referee import all_drops, all_drops_rational, code_of, expected_prediction

#: The released code's beam: width 4, each kept candidate extended by the 10 positions outside it of largest
#: singleton drop (as described; its code is not copied).
RELEASED_WIDTH = 4
RELEASED_EXTENSIONS = 10
#: Relative tolerance under which two float drops count as tied (fred's).
TIE_RTOL = 1e-12
#: Below every scaled drop, and safe to negate (argsort on the negated drops).
_UNSEEN = -(1 << 62)


@dataclass(frozen=True)
class SearchOutcome:
    """What a search returns, and the path it took (candidates per size, the beam's cut drops)."""

    best_ids: tuple[int, ...]
    drop: object
    found: bool
    n_candidates: tuple[int, ...]
    cuts: tuple[tuple, ...]  # per size the beam extended from: (last kept drop, best drop of a set not kept or None)


def _best(cands: list[tuple[int, ...]], drops: Mapping[int, object], tol) -> tuple[int, ...]:
    top = max(drops[code_of(c)] for c in cands)
    return min(c for c in cands if top - drops[code_of(c)] <= tol)


def _ranked(cands: list[tuple[int, ...]], drops: Mapping[int, object], tol, limit: int | None = None) -> list:
    """The first ``limit`` (default all) candidates by decreasing drop, ties within ``tol`` to the smallest tuple;
    a candidate listed twice is taken twice."""
    rest, ranked = list(cands), []
    while rest and (limit is None or len(ranked) < limit):
        ranked.append(_best(rest, drops, tol))
        rest.remove(ranked[-1])
    return ranked


def search_on_drops(drops: Mapping[int, object], b: int, threshold, max_len: int, *, width: int | None = None,
                    extend_top: int | None = None, duplicates: bool = False, tol=0) -> SearchOutcome:
    """Algorithm 1 (``width=None``) or a beam of ``width`` on given drops; codes missing from ``drops`` are
    undefined candidates (no sample perturbs them) and are skipped.

    Sizes 1, 2, ... up to ``min(max_len, b)``; the first size whose best drop is ``>= threshold - tol`` returns
    its best candidate; else the best over all sizes (a later size replaces it only if larger by more than
    ``tol``) with ``found=False``. ``extend_top``: a kept candidate is extended only by the ``extend_top``
    positions outside it of largest singleton drop (ties within ``tol`` to the smaller position).
    ``duplicates``: the beam's candidates of a size are a list, so a set reached from two kept candidates is
    there twice and can take two places of the next beam (the released code); otherwise distinct sets.

    >>> from fractions import Fraction as F
    >>> d = {1: F(1), 2: F(0), 3: F(2)}
    >>> search_on_drops(d, 2, F(3, 2), 2).best_ids, search_on_drops(d, 2, F(1, 2), 2).best_ids
    ((0, 1), (0,))
    """
    cands = [(j,) for j in range(b) if (1 << j) in drops]
    order = [j for (j,) in _ranked(cands, drops, tol)] if extend_top is not None else range(b)
    best, sizes, cuts = None, [], []
    for size in range(1, min(max_len, b) + 1):
        if not cands:
            break
        sizes.append(len(cands))
        top = _best(cands, drops, tol)
        d = drops[code_of(top)]
        if d >= threshold - tol:
            return SearchOutcome(top, d, True, tuple(sizes), tuple(cuts))
        if best is None or d - best[1] > tol:
            best = (top, d)
        if size == min(max_len, b):
            break
        if width is None:
            cands = [c for c in itertools.combinations(range(b), size + 1) if code_of(c) in drops]
            continue
        keep = _ranked(cands, drops, tol, width)
        # Copies of a kept set (duplicates) are not a competitor at the cut.
        cuts.append((drops[code_of(keep[-1])], max((drops[code_of(c)] for c in cands if c not in keep), default=None)))
        outside = ([j for j in order if j not in k][:extend_top] for k in keep)
        grown = [c for k, js in zip(keep, outside) for c in (tuple(sorted(k + (j,))) for j in js)
                 if code_of(c) in drops]
        cands = grown if duplicates else sorted(set(grown))
    return SearchOutcome(best[0], best[1], False, tuple(sizes), tuple(cuts))


def drops_by_code(table: Sequence, p: Fraction, *, baseline: str = "mean") -> tuple[dict[int, Fraction], Fraction]:
    """Exact drops of every position set in Fractions, keyed by pattern code (:func:`all_drops_rational`), and
    the reference (E[f] or f(xi))."""
    reference, drops = all_drops_rational([Fraction(v) for v in table], p, baseline=baseline)
    return {code_of(s): d for s, d in drops.items()}, reference


def beam_explain(table, p: float, eps: float, max_len: int, *, baseline: str = "mean", width: int = RELEASED_WIDTH,
                 extend_top: int | None = None, duplicates: bool = False) -> SearchOutcome:
    """A beam of ``width`` on the referee's float drops (:func:`all_drops`), threshold eps * reference."""
    table = np.asarray(table, float)
    b = int(table.size).bit_length() - 1
    drops = all_drops(table, p, baseline=baseline)
    reference = float(table[0]) if baseline == "original" else expected_prediction(table, p)
    tol = TIE_RTOL * max(1.0, float(np.max(np.abs(table))))
    return search_on_drops({c: float(drops[c]) for c in range(1, 2**b)}, b, eps * reference, max_len, width=width,
                           extend_top=extend_top, duplicates=duplicates, tol=tol)


def released_explain(table, p: float, eps: float, max_len: int, *, duplicates: bool = True) -> SearchOutcome:
    """The released code's search as described (not copied): width 4, each kept candidate extended only by the
    10 tokens outside it of largest singleton drop, a set reached from two kept candidates kept twice
    (``duplicates=False``: distinct sets), baseline f(xi); on exact drops (n -> infinity), with fred's tie rule
    (the released code's own tie rule is not modelled)."""
    return beam_explain(table, p, eps, max_len, baseline="original", width=RELEASED_WIDTH,
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

def scaled_drops(tables: np.ndarray) -> np.ndarray:
    """2^b drop(S) = sum(t) - 2^|S| sum_{x contains S} t[x] for each row t (code order), exactly in int64: the
    drop of Eq. (1) at p = 1/2 with baseline E[f] = sum(t) / 2^b, times 2^b (column 0 is 0)."""
    tables = np.asarray(tables, np.int64)
    b = tables.shape[1].bit_length() - 1
    sup = tables.copy()
    for i in range(b):  # superset sums, one bit at a time
        view = sup.reshape(len(sup), -1, 2, 2**i)
        view[:, :, 0, :] += view[:, :, 1, :]
    sizes = np.array([bin(c).count("1") for c in range(2**b)])
    return tables.sum(1)[:, None] - (1 << sizes)[None, :] * sup


def batch_searches(tables: np.ndarray, eps: Fraction, width: int = RELEASED_WIDTH) -> dict[str, np.ndarray]:
    """Algorithm 1 and a distinct-set beam of ``width`` (every position extends a kept set) on each row of
    ``tables`` (non-negative integers, code order), p = 1/2, baseline E[f], threshold eps E[f], l_max >= b.

    Per row: ``a_code``/``b_code`` the code each search returns (-1 when it finds nothing: then the beam's
    fallback is not computed), ``a_found``/``b_found``, and ``tie``: whether a tie could change either outcome
    (the best drop of the returning size shared by two candidates of that search, or the beam's 4th and 5th
    drops equal at a size it extends from). Ties go to the smaller tuple (combinations order).
    """
    d = scaled_drops(tables)
    rows, n = np.arange(len(d)), len(d)
    b = d.shape[1].bit_length() - 1
    threshold = eps.numerator * np.asarray(tables, np.int64).sum(1)  # eps 2^b E[f], times eps's denominator
    sets = [list(itertools.combinations(range(b), k)) for k in range(b + 1)]
    columns = [np.array([code_of(s) for s in sets[k]], int) for k in range(b + 1)]
    out = {key: np.full(n, -1) for key in ("a_code", "b_code")}
    out.update({key: np.zeros(n, bool) for key in ("a_found", "b_found", "tie")})
    live = np.ones((n, b), bool)  # the beam's candidates of the current size
    for k in range(1, b + 1):
        dk = d[:, columns[k]]
        masked = np.where(live, dk, _UNSEEN)
        for name, values in (("a", dk), ("b", masked)):
            j = values.argmax(1)  # the first maximum: the smallest tuple
            top = values[rows, j]
            stop = (eps.denominator * top >= threshold) & ~out[f"{name}_found"]
            out[f"{name}_code"][stop] = columns[k][j[stop]]
            out["tie"] |= stop & ((values == top[:, None]).sum(1) > 1)
            out[f"{name}_found"] |= stop
        if k == b:
            break
        order = np.argsort(-masked, axis=1, kind="stable")  # stable: ties to the smaller tuple
        if dk.shape[1] > width:
            fourth, fifth = masked[rows, order[:, width - 1]], masked[rows, order[:, width]]
            out["tie"] |= ~out["b_found"] & (live.sum(1) > width) & (fourth == fifth)
        extends = np.array([[set(s) <= set(t) for t in sets[k + 1]] for s in sets[k]])
        grown = np.zeros((n, len(sets[k + 1])), bool)
        for w in range(min(width, dk.shape[1])):
            kept = live[rows, order[:, w]]
            grown |= extends[order[:, w]] & kept[:, None]
        live = grown
    return out


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
        sizes = np.array([bin(c).count("1") if c >= 0 else 0 for c in out["b_code"]])
        a_sizes = np.array([bin(c).count("1") for c in out["a_code"]])
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
