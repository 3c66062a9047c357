"""The kit's tolerances, and what it accepts from an explainer: the exact referee's answer up to those tolerances.

An exact explainer (all 2**b patterns) must match :mod:`analytic.referee` up to rounding. A Monte Carlo one
is held to Hoeffding bounds (Lemma 1): with n rows, a candidate c perturbed in n_c of them and f of range R,

    |hat E[f] - E[f]| <= t_0 = R sqrt(log(2/d_0) / (2n)),
    |hat Delta_c - Delta_c| <= t_0 + R sqrt(log(2/d_1) / (2 n_c)),

each except with probability d_0, d_1 (:func:`analytic.hoeffding_drop_bound`); n_c >= its d_2-quantile under
Binomial(n, p^|c|) except with probability d_2. A call's budget delta is split in three equal parts, d_1 and
d_2 further over the candidates, so every estimate of the call is within its tolerance with probability
>= 1 - delta (union bound). :func:`admissible` then says whether a selection is one Algorithm 1 can return on
*some* drops within those tolerances of the exact ones: sound (a correct explainer fails with probability at
most delta) but weak when the margins of the instance are below the tolerance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import comb

import numpy as np
from scipy import stats

from analytic import all_drops, expected_prediction, hoeffding_drop_bound
from analytic.exact_cache import exact_cache
from analytic.patterns import table_b
from analytic.referee import popcounts, positions_of

#: Relative tolerance of an exact explainer's drops (rounding of sums over 2**b patterns).
EXACT_RTOL = 1e-9


@dataclass(frozen=True)
class Tolerance:
    """Bounds on an explainer's estimates: of E[f] (``mean``) and of the drops of each size (``by_size[k-1]``).

    ``inf`` means no bound (some candidate of that size may be perturbed in no row).
    """

    mean: float
    by_size: tuple[float, ...]
    kind: str  # "exact" or "hoeffding"

    def of_size(self, size: int) -> float:
        """The tolerance on the drop of a candidate of ``size`` tokens."""
        return self.by_size[size - 1]

    def describe(self) -> str:
        """One line for a failure message: the kind and the first tolerances."""
        shown = ", ".join(f"{t:.3g}" for t in self.by_size[:4]) + (", ..." if len(self.by_size) > 4 else "")
        return f"{self.kind} tolerance on drops of size 1, 2, ...: {shown}"


def exact_tolerance(table, max_size: int) -> Tolerance:
    """Rounding only: ``EXACT_RTOL * max(1, max |f|)`` on every estimate."""
    t = EXACT_RTOL * max(1.0, float(np.max(np.abs(table))))
    return Tolerance(t, (t,) * max_size, "exact")


def hoeffding_tolerance(table, n: int, p: float, max_size: int, delta: float) -> Tolerance:
    """Tolerances holding together with probability >= 1 - delta for the candidates of sizes 1..max_size."""
    # The same fixed tables come back with the same n, p and delta for every explainer (the Lemma 1 checks, the
    # beam counterexample, the drawn examples of Monte Carlo mode): the binomial quantiles are computed once.
    return _hoeffding_tolerance(np.asarray(table, dtype=float).tobytes(), n, p, max_size, delta)


@exact_cache
def _hoeffding_tolerance(table: bytes, n: int, p: float, max_size: int, delta: float) -> Tolerance:
    """:func:`hoeffding_tolerance` of the float64 table with these bytes (bit for bit: -0.0 is not 0.0 here)."""
    table = np.frombuffer(table, dtype=float)
    b = table_b(table)
    value_range = float(table.max() - table.min())
    floor = EXACT_RTOL * max(1.0, float(np.max(np.abs(table))))
    if n < 1:
        return Tolerance(math.inf, (math.inf,) * max_size, "hoeffding")
    n_candidates = sum(comb(b, k) for k in range(1, max_size + 1))
    d_mean, d_each = delta / 3, delta / (3 * n_candidates)
    t_mean = value_range * math.sqrt(math.log(2 / d_mean) / (2 * n)) + floor
    by_size = []
    for size in range(1, max_size + 1):
        n_c = int(stats.binom.ppf(d_each, n, p**size))  # P(n_c < this) <= d_each
        by_size.append(math.inf if n_c < 1 else
                       hoeffding_drop_bound(value_range, n, n_c, d_mean, d_each) + floor)
    return Tolerance(t_mean, tuple(by_size), "hoeffding")


def as_positions(best_ids, b: int) -> tuple[int, ...] | str:
    """The selection as a tuple of ints, or why it is not a set of positions of the document."""
    try:
        ids = tuple(int(i) for i in best_ids)
    except (TypeError, ValueError):
        return f"best_ids {best_ids!r} is not a sequence of integer positions"
    if any(int(i) != i for i in best_ids):
        return f"best_ids {best_ids!r} holds non-integer positions"
    if any(not 0 <= i < b for i in ids):
        return f"best_ids {ids} holds positions outside [0, {b})"
    if len(set(ids)) != len(ids):
        return f"best_ids {ids} repeats a position"
    return ids


def admissible(table, p: float, eps: float, max_len: int, best_ids, found: bool | None, tol: Tolerance, *,
               baseline: str = "mean") -> str | None:
    """None when Algorithm 1 (Eqs. 1-2, exhaustive search) can return ``best_ids`` (and ``found``) on drops
    within ``tol`` of the exact ones; else the reason, with the numbers.

    With exact drops D(c), baseline value v (E[f], or f(xi) for baseline "original") and threshold T = eps v,
    estimated within t_|c| and eps t_0:

    * size j *surely qualifies* if some |c| = j has D(c) - t_j >= T + eps t_0 (the search must stop by j);
    * a found selection S of size k needs: no j < k surely qualifies, D(S) + t_k >= T - eps t_0, and
      D(S) + t_k >= D(c) - t_k for every |c| = k (S may be the best of its size; ties are free);
    * a not-found selection needs: no size <= min(max_len, b) surely qualifies, and D(S) + t_|S| >= D(c) - t_|c|
      for every candidate (Algorithm 1 keeps the best over sizes); or no selection at all when every drop may be
      negative (Algorithm 1's running best starts at 0).

    ``found=None`` (the explainer reports none) accepts either reading.

    >>> from analytic import linear_table
    >>> t = exact_tolerance(linear_table([1.0, 0.5]), 2)
    >>> admissible(linear_table([1.0, 0.5]), 0.5, 0.15, 2, (0,), None, t) is None
    True
    >>> admissible(linear_table([1.0, 0.5]), 0.5, 0.15, 2, (1,), True, t)
    'best_ids (1,) has drop 0.25 but (0,) of the same size has 0.5 (tolerance 1.5e-09 each)'
    """
    table = np.asarray(table, dtype=float)
    best_ids = as_positions(best_ids, table_b(table))
    if isinstance(best_ids, str):
        return best_ids
    exact = _exact_search(table, p, eps, max_len, tol, baseline)
    if found is None:
        reasons = [_as_found(exact, best_ids), _as_not_found(exact, best_ids)]
        return None if None in reasons else " / ".join(f"read as {w}: {r}" for w, r in zip(("found", "not found"),
                                                                                          reasons))
    return _as_found(exact, best_ids) if bool(found) else _as_not_found(exact, best_ids)


@dataclass(frozen=True)
class _ExactSearch:
    """What :func:`admissible` compares a selection with: the exact drops, the baseline value v, the threshold
    T = eps v and its tolerance eps t_0, the best candidate of each size up to ``top`` = min(max_len, b) and the
    sizes that surely qualify."""

    tol: Tolerance
    drops: np.ndarray
    baseline_value: float
    threshold: float
    t_threshold: float
    top: int
    best: dict  # size -> (best code, its drop)
    sure: list

    def drop_of(self, best_ids: tuple[int, ...]) -> float:
        """The exact drop of the candidate ``best_ids``."""
        return float(self.drops[sum(1 << i for i in best_ids)])

    def describe(self, size: int) -> str:
        """Why ``size`` surely qualifies: its best candidate, with the numbers."""
        k, d = self.best[size]
        return (f"{positions_of(k)} has drop {d:.6g} >= threshold {self.threshold:.6g} "
                f"(tolerances {self.tol.of_size(size):.3g}, {self.t_threshold:.3g})")


def _exact_search(table: np.ndarray, p: float, eps: float, max_len: int, tol: Tolerance,
                  baseline: str) -> _ExactSearch:
    """The :class:`_ExactSearch` of ``table``: the best exact drop of each size, and the sizes whose best drop
    reaches the threshold whatever the estimates within ``tol``."""
    b = table_b(table)
    top = min(max_len, b)
    drops = all_drops(table, p, baseline=baseline)
    baseline_value = _baseline_value(table, p, baseline)
    threshold = eps * baseline_value
    t_threshold = eps * tol.mean
    sizes = popcounts(b)
    best = {}
    for size in range(1, top + 1):
        codes = np.flatnonzero(sizes == size)
        k = int(codes[np.argmax(drops[codes])])
        best[size] = (k, float(drops[k]))
    sure = [j for j in range(1, top + 1) if best[j][1] - tol.of_size(j) >= threshold + t_threshold]
    return _ExactSearch(tol, drops, baseline_value, threshold, t_threshold, top, best, sure)


def _as_found(exact: _ExactSearch, best_ids: tuple[int, ...]) -> str | None:
    """None when Algorithm 1 can return ``best_ids`` as found, else why not."""
    k = len(best_ids)
    if k == 0:
        return "no selection (best_ids is empty) although the explanation is found"
    if k > exact.top:
        return f"best_ids {best_ids} has {k} positions, more than min(max_len, b) = {exact.top}"
    earlier = [j for j in exact.sure if j < k]
    if earlier:
        return f"best_ids {best_ids} has size {k} but size {earlier[0]} already reaches the threshold: " \
               + exact.describe(earlier[0])
    d = exact.drop_of(best_ids)
    t = exact.tol.of_size(k)
    if d + t < exact.threshold - exact.t_threshold:
        return f"best_ids {best_ids} has drop {d:.6g} < threshold {exact.threshold:.6g} = eps x " \
               f"{exact.baseline_value:.6g} (tolerances {t:.3g}, {exact.t_threshold:.3g})"
    if d + t < exact.best[k][1] - t:
        return f"best_ids {best_ids} has drop {d:.6g} but {positions_of(exact.best[k][0])} of the same size has " \
               f"{exact.best[k][1]:.6g} (tolerance {t:.3g} each)"
    return None


def _as_not_found(exact: _ExactSearch, best_ids: tuple[int, ...]) -> str | None:
    """None when Algorithm 1 can return ``best_ids`` as not found (or no selection), else why not."""
    if exact.sure:
        return f"best_ids {best_ids} is not found but size {exact.sure[0]} reaches the threshold: " \
               + exact.describe(exact.sure[0])
    tol, best = exact.tol, exact.best
    lows = {j: best[j][1] - tol.of_size(j) for j in best}
    if not best_ids:
        if max(lows.values()) >= 0:
            j = max(lows, key=lows.get)
            return f"no selection although {positions_of(best[j][0])} has drop {best[j][1]:.6g} > 0 " \
                   f"(tolerance {tol.of_size(j):.3g}); Algorithm 1 keeps the best candidate"
        return None
    if len(best_ids) > exact.top:
        return f"best_ids {best_ids} has {len(best_ids)} positions, more than min(max_len, b) = {exact.top}"
    d = exact.drop_of(best_ids)
    j = max(lows, key=lows.get)
    if d + tol.of_size(len(best_ids)) < lows[j]:
        return (f"best_ids {best_ids} (no size reaches the threshold) has drop {d:.6g}, below "
                f"{positions_of(best[j][0])} with {best[j][1]:.6g} (tolerances {tol.of_size(len(best_ids)):.3g}, "
                f"{tol.of_size(j):.3g}); Algorithm 1 returns the best candidate over all sizes")
    return None


def _baseline_value(table: np.ndarray, p: float, baseline: str) -> float:
    """What drops are measured from: E[f] (baseline "mean", Eq. 1) or f(xi) (baseline "original")."""
    return expected_prediction(table, p) if baseline == "mean" else float(table[0])


def decided_size(table, p: float, eps: float, max_len: int, tol: Tolerance, *, baseline: str = "mean") -> int | None:
    """The size at which Algorithm 1 stops on every admissible estimate; 0 when no size up to min(max_len, b)
    can reach the threshold; None when the tolerance leaves it open."""
    table = np.asarray(table, dtype=float)
    b = table_b(table)
    drops = all_drops(table, p, baseline=baseline)
    threshold = eps * _baseline_value(table, p, baseline)
    sizes = popcounts(b)
    for size in range(1, min(max_len, b) + 1):
        d = float(drops[sizes == size].max())
        t = tol.of_size(size)
        if d - t >= threshold + eps * tol.mean:
            return size
        if d + t >= threshold - eps * tol.mean:
            return None
    return 0

