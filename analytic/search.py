"""Algorithm 1 and its variants on given drops: the one search of the checking side.

Whatever computed the drops (the exact drops of Eq. 1 over the 2^b patterns, empirical drops of Eq. 3 from row
counts, integer drops scaled by 2^b), what Algorithm 1, a beam or the released code's beam returns on them is
computed here, by one rule, the rule of ``fred.search`` (the implementation under test, written separately on
purpose) and of the printed Algorithm 1 up to ties:

* sizes 1, 2, ..., min(max_len, b) are walked in turn; a candidate no sample perturbs has no drop and is
  skipped, and a size without any candidate ends the walk;
* within a size the best candidate has the largest drop; drops within ``tol`` of it are ties, won by the
  lexicographically smallest sorted position tuple (so the result does not depend on summation order);
* the first size whose best drop is ``>= threshold - tol`` returns it, ``found`` (a drop within rounding of the
  threshold meets it: at eps = 1 the threshold is the largest possible drop, which rounding may put an ulp below);
* when no size does, the running best over the sizes, a later size replacing it only when larger by more than
  ``tol``, is returned with ``found=False`` (Algorithm 1 keeps ``best`` across sizes).

``tol`` is :func:`tie_tolerance`: ``TIE_RTOL * max(1, max |f|)`` in floating point, where summation order moves a
drop by a few ulps of max |f|, and 0 in rational arithmetic (``Fraction``, ``int``, sympy numbers), where a tie is a
tie. :func:`search_on_drops` returns a :class:`SearchOutcome`, the one result type of a search; the exact
explanation of :func:`analytic.referee.exact_explain` wraps one. :func:`search_batch` is the same rule on many
integer drop tables at once (vectorised, exact integers), for the box scans of the algorithm1-beam claim; the
tests check it against :func:`search_on_drops` table by table.
"""

from __future__ import annotations

import itertools
import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

import numpy as np

from fred_constants import RELEASED_WIDTH, TIE_RTOL

from .patterns import check_b, code_of, popcounts, positions_of, table_b

#: Below every scaled drop, and safe to negate (argsort on the negated drops).
_UNSEEN = -(1 << 62)


@dataclass(frozen=True)
class SearchOutcome:
    """What a search returns on given drops, and the path it took.

    ``best_ids`` are the returned candidate's sorted positions (``()`` when no candidate has a drop), ``drop`` its
    drop (None then), ``found`` whether it meets the threshold. ``best_drop_by_size`` holds the best drop of each
    size walked, ``n_candidates`` how many candidates each size evaluated, ``cuts`` per size a beam extended from
    (last kept drop, best drop of a candidate not kept, or None). ``solutions`` are every candidate of the
    returning size that meets the threshold: with the exhaustive search, every solution of Eq. (2) (Eq. 4 on
    empirical drops), of which ``best_ids`` is the one with the largest drop; empty when not found.
    """

    best_ids: tuple[int, ...]
    drop: object
    found: bool
    threshold: object
    best_drop_by_size: tuple
    solutions: tuple[tuple[int, ...], ...]
    n_candidates: tuple[int, ...]
    cuts: tuple[tuple, ...]

    @property
    def size(self) -> int | None:
        """The minimal size of Eq. (2) when found, else None."""
        return len(self.best_ids) if self.found else None

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"best_ids": list(self.best_ids), "drop": self.drop, "found": self.found,
                "threshold": self.threshold, "best_drop_by_size": list(self.best_drop_by_size),
                "solutions": [list(s) for s in self.solutions], "n_candidates": list(self.n_candidates),
                "cuts": [list(c) for c in self.cuts]}


def is_rational(values) -> bool:
    """Whether every value is a rational number (``int``, ``Fraction``, a sympy number): then ties are exact.

    >>> is_rational([Fraction(1, 2), 3]), is_rational([0.5, 1])
    (True, False)
    """
    return all(isinstance(v, (numbers.Rational, Fraction)) and not isinstance(v, bool)
               or type(v).__module__.startswith("sympy") for v in values)


def tie_tolerance(table, tie_rtol: float = TIE_RTOL):
    """The search's ``tol`` for drops computed from the predictions ``table``: 0 in rational arithmetic, else
    ``tie_rtol * max(1, max |f|)`` (fred's rule: a float drop is exact up to a few ulps of max |f|).

    >>> tie_tolerance([Fraction(3), Fraction(-5)]), tie_tolerance([3.0, -5.0]), tie_tolerance([0.25])
    (0, 5e-12, 1e-12)
    """
    values = list(np.ravel(np.asarray(table, dtype=object))) if not isinstance(table, list) else table
    if is_rational(values):
        return 0
    return tie_rtol * max(1.0, max(abs(float(f)) for f in values))


def _as_codes(drops, b: int) -> tuple[np.ndarray, np.ndarray]:
    """(values, defined): the drops as an array indexed by code (float, or object for rational numbers) and which
    codes have one. ``drops`` is a mapping code -> drop (missing: undefined) or a sequence indexed by code (NaN or
    None: undefined); code 0, the empty set, is never a candidate."""
    if isinstance(drops, Mapping):
        exact = is_rational(drops.values())
        values = np.empty(2**b, object) if exact else np.full(2**b, np.nan)
        defined = np.zeros(2**b, bool)
        for code, drop in drops.items():
            values[code], defined[code] = drop, True
    elif isinstance(drops, np.ndarray) and drops.dtype.kind == "f":  # the referee's float drops: no Python loop
        values, defined = drops, ~np.isnan(drops)
    else:
        values = np.asarray(drops, dtype=object if is_rational([d for d in drops if d is not None]) else float)
        defined = np.array([d is not None for d in values]) if values.dtype == object else ~np.isnan(values)
    if values.shape != (2**b,):
        raise ValueError(f"drops must hold one entry per code, 2**{b} = {2**b}, got shape {values.shape}")
    defined = defined.copy()
    defined[0] = False
    return values, defined


def _at_least(values: np.ndarray, bound) -> np.ndarray:
    """values >= bound as a bool array, in the arithmetic of the values (sympy decides each exact comparison)."""
    if values.dtype != object:
        return values >= bound
    return np.array([bool(v >= bound) for v in values], dtype=bool)


def _item(values: np.ndarray, code: int):
    """values[code] as a Python number (float for a float array)."""
    return values[code] if values.dtype == object else float(values[code])


def _winner(codes: np.ndarray, values: np.ndarray, tol) -> tuple[int, ...]:
    """The best candidate among ``codes``: largest drop, ties within ``tol`` to the smallest sorted tuple."""
    tied = codes[_at_least(values, values.max() - tol)]
    return min(positions_of(int(c)) for c in tied)


def _ranked(cands: list[tuple[int, ...]], values: np.ndarray, tol, limit: int | None = None) -> list:
    """The first ``limit`` (default all) candidates by decreasing drop, ties as :func:`_winner`; a candidate listed
    twice is taken twice."""
    rest, ranked = list(cands), []
    while rest and (limit is None or len(ranked) < limit):
        codes = np.array([code_of(c) for c in rest])
        ranked.append(_winner(codes, values[codes], tol))
        rest.remove(ranked[-1])
    return ranked


def _extended(keep: list[tuple[int, ...]], order, extend_top: int | None, defined: np.ndarray) -> list:
    """Each kept candidate extended by each of the first ``extend_top`` (default all) positions of ``order`` outside
    it, as sorted tuples, the undefined left out; a set reached from two kept candidates is listed twice."""
    outside = ([j for j in order if j not in k][:extend_top] for k in keep)
    return [c for k, js in zip(keep, outside) for c in (tuple(sorted(k + (j,))) for j in js) if defined[code_of(c)]]


def search_on_drops(drops, b: int, threshold, max_len: int, *, width: int | None = None,
                    extend_top: int | None = None, duplicates: bool = False, tol=0) -> SearchOutcome:
    """Algorithm 1 (``width=None``) or a beam of ``width`` on given drops, by the rule of the module docstring.

    Parameters
    ----------
    drops : mapping code -> drop, or a sequence indexed by code (NaN/None where undefined), in any arithmetic.
    b : the number of tokens.
    threshold : eps times the baseline value (E[f] or f(xi)): a size stops the walk when its best drop reaches it.
    max_len : the largest candidate size.
    width : None for every candidate of each size (Algorithm 1); else the beam keeps the ``width`` best of a size
        and extends each by one position.
    extend_top : a kept candidate is extended only by the ``extend_top`` positions outside it of largest singleton
        drop (the released beam; ties within ``tol`` to the smaller position).
    duplicates : the beam's candidates of a size are a list, so a set reached from two kept candidates is there
        twice and can take two places of the next beam (the released code); otherwise distinct sets.
    tol : the tie tolerance (:func:`tie_tolerance`); 0 in rational arithmetic.

    >>> from fractions import Fraction as F
    >>> d = {1: F(1), 2: F(0), 3: F(2)}
    >>> search_on_drops(d, 2, F(3, 2), 2).best_ids, search_on_drops(d, 2, F(1, 2), 2).best_ids
    ((0, 1), (0,))
    >>> r = search_on_drops([None, F(1, 4), F(1, 4), F(1, 2)], 2, F(1, 8), 2)
    >>> r.best_ids, r.solutions, r.size
    ((0,), ((0,), (1,)), 1)
    """
    b = check_b(b)
    values, defined = _as_codes(drops, b)
    sizes = popcounts(b)
    cands = [(j,) for j in range(b) if defined[1 << j]]
    order = None if extend_top is None else [j for (j,) in _ranked(cands, values, tol)]  # singletons, best first
    best, by_size, n_candidates, cuts = None, [], [], []
    for size in range(1, min(max_len, b) + 1):
        codes = (np.flatnonzero((sizes == size) & defined) if width is None
                 else np.array([code_of(c) for c in cands], dtype=np.int64))
        if not len(codes):
            break
        n_candidates.append(len(codes))
        winner = _winner(codes, values[codes], tol)
        drop = _item(values, code_of(winner))
        by_size.append(drop)
        if drop >= threshold - tol:
            meets = sorted({positions_of(int(c)) for c in codes[_at_least(values[codes], threshold - tol)]})
            return SearchOutcome(winner, drop, True, threshold, tuple(by_size), tuple(meets), tuple(n_candidates),
                                 tuple(cuts))
        if best is None or drop - best[1] > tol:
            best = (winner, drop)
        if width is None or size == min(max_len, b):
            continue
        keep = _ranked(cands, values, tol, width)
        rivals = [_item(values, code_of(c)) for c in cands if c not in keep]  # copies of a kept set are no rival
        cuts.append((_item(values, code_of(keep[-1])), max(rivals, default=None)))
        grown = _extended(keep, order or range(b), extend_top, defined)
        cands = grown if duplicates else sorted(set(grown))
    if best is None:
        return SearchOutcome((), None, False, threshold, (), (), tuple(n_candidates), tuple(cuts))
    return SearchOutcome(best[0], best[1], False, threshold, tuple(by_size), (), tuple(n_candidates), tuple(cuts))


def search_batch(drops: np.ndarray, thresholds: np.ndarray, *, scale: int = 1,
                 width: int = RELEASED_WIDTH) -> dict[str, np.ndarray]:
    """:func:`search_on_drops`'s Algorithm 1 and distinct-set beam of ``width`` (every position extends a kept
    set) on many integer drop tables at once, in exact integer arithmetic, ``max_len >= b``.

    ``drops`` is (R, 2^b) int64, code order; a size meets the threshold of row r when
    ``scale * best drop >= thresholds[r]`` (so drops scaled by 2^b and a rational eps compare exactly). Ties are
    exact and go to the smaller tuple (the first maximum in ``itertools.combinations`` order).

    Per row: ``a_code``/``b_code`` the code each search returns (-1 when it finds nothing: the fallback of a
    search that finds nothing is not computed), ``a_found``/``b_found``, and ``tie``: whether a tie could change
    either outcome (the best drop of the returning size shared by two candidates of that search, or the beam's
    ``width``-th and next drops equal at a size it extends from).

    >>> r = search_batch(np.array([[0, 3, 1, 4]]), np.array([2]))
    >>> int(r["a_code"][0]), bool(r["a_found"][0]), bool(r["tie"][0])
    (1, True, False)
    """
    d = np.asarray(drops, np.int64)
    rows, n = np.arange(len(d)), len(d)
    b = table_b(d, "drops", batch=True)
    thresholds = np.asarray(thresholds, np.int64)
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
            stop = (scale * top >= thresholds) & ~out[f"{name}_found"]
            out[f"{name}_code"][stop] = columns[k][j[stop]]
            out["tie"] |= stop & ((values == top[:, None]).sum(1) > 1)
            out[f"{name}_found"] |= stop
        if k == b:
            break
        order = np.argsort(-masked, axis=1, kind="stable")  # stable: ties to the smaller tuple
        if dk.shape[1] > width:
            last, next_ = masked[rows, order[:, width - 1]], masked[rows, order[:, width]]
            out["tie"] |= ~out["b_found"] & (live.sum(1) > width) & (last == next_)
        extends = np.array([[set(s) <= set(t) for t in sets[k + 1]] for s in sets[k]])
        grown = np.zeros((n, len(sets[k + 1])), bool)
        for w in range(min(width, dk.shape[1])):
            kept = live[rows, order[:, w]]
            grown |= extends[order[:, w]] & kept[:, None]
        live = grown
    return out


def best_of_size(drops, b: int, size: int, tol=0) -> tuple[object, list[tuple[int, ...]]]:
    """The largest drop among the candidates of one size, and every candidate within ``tol`` of it.

    >>> best_of_size([None, 1.0, 1.0, 0.5], 2, 1)
    (1.0, [(0,), (1,)])
    """
    values, defined = _as_codes(drops, check_b(b))
    codes = np.flatnonzero((popcounts(b) == size) & defined)
    top = _item(values, codes[np.argmax(values[codes])])
    return top, sorted(positions_of(int(c)) for c in codes[_at_least(values[codes], top - tol)])

