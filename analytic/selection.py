"""Selection consistency: how often FRED's empirical choice (Eq. 4) is the exact choice (Eq. 2), and a bound.

Lemma 1 makes each empirical drop converge; the paper then studies the exact problem (Eq. 2) in place of the
empirical one (Eq. 4). The selected candidate converges too, unless the exact problem has a zero margin.

Setting
-------
n rows are drawn i.i.d., each position perturbed with probability p. With m = E[f], m_c = E[f | c perturbed],
q_c = p^|c|, and over the rows hat m = (1/n) sum_i f_i and hat m_c = the mean of f over the n_c rows perturbing
c, the drops are Delta_c = ref - m_c (Eq. 1) and hat Delta_c = hat ref - hat m_c (Eq. 3), where ref = m,
hat ref = hat m (baseline "mean", the paper) or ref = hat ref = f(original) (baseline "original"). The search
(Algorithm 1) walks sizes 1, 2, ... and stops at the first size whose best drop reaches eps * ref; the best of a
size has the largest drop, ties (within a tolerance tol) going to the smallest sorted position tuple; if no
size reaches the threshold, the best over all sizes is returned with found = False.

Margins
-------
Let S be the exact choice, of size k*. "Agreement" means the empirical search returns S with the same
``found``. It does whenever every comparison the search makes has the sign it has in rational arithmetic:

* a candidate c of size < k* (all sizes <= max_len when not found, S included) stays below the threshold:
  hat Delta_c - eps hat ref = (1 - eps) hat ref - hat m_c must stay < -tol; exactly it is -gamma_c with
  gamma_c = eps ref - Delta_c > 0;
* when found, S reaches it: Delta_S - eps ref >= 0 must stay >= -tol;
* every rival c of S (the other candidates of size k*; all other candidates when not found) stays below S:
  hat Delta_S - hat Delta_c = hat m_c - hat m_S must stay > tol; exactly it is gap_c = Delta_S - Delta_c.

With a = 1 - eps (baseline "mean"; a = 0 for "original", whose baseline value is not estimated), the event
E = {|hat m - m| < t_0} and {n_c >= 1 and |hat m_c - m_c| < t_c for every candidate c involved} implies
agreement as soon as

    a t_0 + t_c <= gamma_c - tol,    a t_0 + t_S <= Delta_S - eps ref,    t_S + t_c <= gap_c - tol.

This needs every margin gamma_c - tol, Delta_S - eps ref, gap_c - tol to be positive (the code also takes tol
off Delta_S - eps ref, so that a drop equal to the threshold up to rounding counts as on it): a tie at the top of the
selected size (gap 0) or a drop equal to the threshold (margin 0) has none, and there the agreement need not
tend to 1 (:func:`agreement_bound` refuses such tables with a ValueError).

The bound
---------
Given n_c = k >= 1 the k covered rows are i.i.d. from f given c perturbed, whose values lie in an interval of
length R_c, with variance sigma_c^2 and |f - m_c| <= M_c; Hoeffding and Bernstein give

    P(|hat m_c - m_c| >= t | n_c = k) <= 2 exp(-k a_c),  a_c = max(2 t^2 / R_c^2, t^2 / (2 sigma_c^2 + 2 M_c t / 3)).

Counting n_c = 0 as a failure and using the binomial generating function E[x^{n_c}] = (1 - q_c + q_c x)^n,

    P(n_c = 0 or |hat m_c - m_c| >= t_c) <= 2 (1 - q_c + q_c e^{-a_c})^n - (1 - q_c)^n,

and P(|hat m - m| >= t_0) <= 2 exp(-n a_0) with the unconditional R, sigma, M. The union bound gives

    P(agree) >= 1 - min(1, 2 e^{-n a_0}) - sum_c min(1, 2 (1 - q_c + q_c e^{-a_c})^n - (1 - q_c)^n),

which holds for every allocation (t_0, t_S) satisfying the constraints (each other t_c is then the largest its
constraints allow); :func:`agreement_bound` takes the best allocation on a fixed grid. Every term decreases in n
(1 - q_c + q_c e^{-a_c} < 1 as q_c > 0, a_c > 0), so the bound is non-decreasing in n and tends to 1, and
:func:`agreement_sample_size` finds the smallest n reaching a target by bisection.

:func:`selection_distribution` is the referee of all this: the exact distribution of the empirical choice,
enumerating the multinomial distribution of the n rows over the 2^b patterns.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from fred_constants import BASELINES, TIE_RTOL

from .exact_cache import exact_cache
from .patterns import check_max_len, check_table, pattern_weights, popcounts, positions_of, table_b
from .referee import exact_explain
from .search import is_rational, search_on_drops, tie_tolerance

#: Largest number of row-count vectors :func:`selection_distribution` enumerates.
MAX_COMPOSITIONS = 1_000_000
#: Argument lists whose :func:`selection_distribution` is kept (the claims ask for the same ones once per explainer
#: they check; property-based tests ask for ever new ones, so the cache is bounded).
DISTRIBUTION_CACHE_SIZE = 1024
#: Allocation grid of :func:`agreement_bound`: fractions of the room left to t_0 and to t_S.
_GRID = np.linspace(0.02, 0.98, 25)


def _check_inputs(p, eps, max_len, baseline: str) -> None:
    if not 0 < p < 1:
        raise ValueError(f"p must lie in (0, 1), got {p!r}")
    if not 0 < eps <= 1:
        raise ValueError(f"eps must lie in (0, 1], got {eps!r}")
    check_max_len(max_len)
    if baseline not in BASELINES:
        raise ValueError(f"baseline must be one of {BASELINES}, got {baseline!r}")


def _check_n(n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be an integer >= 1, got {type(n).__name__}")
    if n < 1:
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    return int(n)


@dataclass(frozen=True, eq=False)
class SelectionMargins:
    """The exact choice and the margins that decide whether the empirical search finds it.

    ``candidates`` are the position sets whose estimates matter (sizes <= k*, or <= max_len when not found),
    ``codes`` their pattern codes; per candidate: ``q`` = p^|c|, ``conditional_mean`` m_c, ``value_range`` R_c,
    ``variance`` sigma_c^2, ``max_deviation`` M_c (over the patterns perturbing c), ``threshold_margin``
    (gamma_c - tol for a candidate that must stay below the threshold, Delta_S - eps ref - tol for S when found,
    NaN otherwise) and ``gap`` (gap_c - tol for a rival of S, NaN otherwise). ``margin`` is the smallest of them;
    a bound exists only when it is positive. ``mean_stats`` are (R, sigma^2, M) of f over all patterns.
    """

    best_ids: tuple[int, ...]
    found: bool
    baseline_value: float
    threshold: float
    tolerance: float
    slope: float  # a = 1 - eps (baseline "mean") or 0 ("original")
    candidates: tuple[tuple[int, ...], ...]
    codes: np.ndarray
    q: np.ndarray
    conditional_mean: np.ndarray
    value_range: np.ndarray
    variance: np.ndarray
    max_deviation: np.ndarray
    threshold_margin: np.ndarray
    gap: np.ndarray
    mean_stats: tuple[float, float, float]

    @property
    def margin(self) -> float:
        """The smallest margin (threshold or gap); positive exactly when the exact choice is stable."""
        both = np.concatenate([self.threshold_margin, self.gap])
        return float(np.nanmin(both))

    @property
    def smallest_threshold_margin(self) -> float:
        """min over the threshold constraints (inf when there is none)."""
        m = self.threshold_margin[~np.isnan(self.threshold_margin)]
        return float(m.min()) if m.size else math.inf

    @property
    def smallest_gap(self) -> float:
        """min over the rivals of S of gap_c - tol (inf when S has no rival)."""
        g = self.gap[~np.isnan(self.gap)]
        return float(g.min()) if g.size else math.inf


def selection_margins(table, p: float, eps: float, max_len: int, *, baseline: str = "mean",
                      tie_rtol: float = TIE_RTOL) -> SelectionMargins:
    """The exact choice (:func:`analytic.exact_explain`) and, for every candidate the search compares, its margin
    and the statistics of f given it is perturbed (module docstring: gamma_c, Delta_S - eps ref, gap_c).

    ``tol = tie_rtol * max(1, max|f|)`` bounds FRED's tie tolerance (``TIE_RTOL`` times the largest |f| it saw);
    margins are reduced by it where a tie would go the wrong way.

    >>> from analytic import linear_table
    >>> m = selection_margins(linear_table([0.5, 0.1]), 0.5, 0.15, 2, tie_rtol=0.0)
    >>> m.best_ids, m.found, round(m.smallest_gap, 12), m.candidates
    ((0,), True, 0.2, ((0,), (1,)))
    """
    table, b = check_table(table)
    _check_inputs(p, eps, max_len, baseline)
    exact = exact_explain(table, p, eps, max_len, baseline=baseline, tie_rtol=tie_rtol)
    tol = tie_tolerance(table, tie_rtol)
    w = pattern_weights(b, p)
    size_of = popcounts(b)
    codes = np.arange(2**b)
    top_size = len(exact.best_ids) if exact.found else min(max_len, b)
    cand_codes = np.array([c for size in range(1, top_size + 1) for c in codes[size_of == size]])
    baseline_value = float(w @ table) if baseline == "mean" else float(table[0])
    s_code = sum(1 << i for i in exact.best_ids)
    covered = (codes[None, :] & cand_codes[:, None]) == cand_codes[:, None]  # [candidate, pattern]
    wc = covered * w
    q = wc.sum(axis=1)
    mean_c = wc @ table / q
    hi = np.where(covered, table, -np.inf).max(axis=1)
    lo = np.where(covered, table, np.inf).min(axis=1)
    variance = (wc * (table[None, :] - mean_c[:, None]) ** 2).sum(axis=1) / q  # two passes: no cancellation
    deviation = np.maximum(hi - mean_c, mean_c - lo)
    drops = baseline_value - mean_c
    is_s = cand_codes == s_code
    sizes = size_of[cand_codes]
    below = sizes < top_size if exact.found else np.ones(len(cand_codes), bool)
    threshold = eps * baseline_value
    thr_margin = np.full(len(cand_codes), np.nan)
    thr_margin[below] = threshold - drops[below] - tol
    if exact.found:  # less tol too: a drop within rounding of the threshold counts as on it
        thr_margin[is_s] = drops[is_s] - threshold - tol
    rivals = ~is_s & (sizes == top_size if exact.found else True)
    gap = np.full(len(cand_codes), np.nan)
    gap[rivals] = drops[is_s][0] - drops[rivals] - tol
    m = float(w @ table)
    mean_stats = (float(table.max() - table.min()), float(w @ (table - m) ** 2),
                  float(max(table.max() - m, m - table.min())))
    return SelectionMargins(exact.best_ids, exact.found, baseline_value, threshold, tol,
                            (1.0 - eps) if baseline == "mean" else 0.0,
                            tuple(positions_of(int(c)) for c in cand_codes), cand_codes, q, mean_c, hi - lo,
                            variance, deviation, thr_margin, gap, mean_stats)


def _rate(t, value_range, variance, deviation):
    """a = max(2 t^2 / R^2 (Hoeffding), t^2 / (2 sigma^2 + 2 M t / 3) (Bernstein)); inf when f is constant."""
    # A subnormal R or denominator makes the rate overflow to inf: the right limit (f is constant up to rounding
    # there, so the mean is known), not an error to warn about.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        hoeffding = np.where(value_range > 0, 2 * t**2 / np.where(value_range > 0, value_range, 1) ** 2, np.inf)
        denominator = 2 * variance + 2 * deviation * t / 3
        bernstein = np.where(denominator > 0, t**2 / np.where(denominator > 0, denominator, 1), np.inf)
    return np.maximum(hoeffding, bernstein)


def candidate_failure(t, q, n: int, value_range, variance, deviation):
    """min(1, 2 (1 - q + q e^{-a})^n - (1 - q)^n) >= P(n_c = 0 or |hat m_c - m_c| >= t), a = ``_rate(...)``.

    By hand: a = max(2 (1/4)^2 / 1, (1/16) / (1/2 + 1/12)) = 1/8, so 2 (1 - (1 - e^{-1/8})/2)^40 - 2^-40:

    >>> round(float(candidate_failure(0.25, 0.5, 40, 1.0, 0.25, 0.5)), 6)
    0.177501
    """
    a = _rate(np.asarray(t, float), np.asarray(value_range, float), np.asarray(variance, float),
              np.asarray(deviation, float))
    q = np.asarray(q, float)
    with np.errstate(divide="ignore"):
        covered = np.exp(n * np.log1p(-q * -np.expm1(-a)))
        missed = np.exp(n * np.log1p(-q))
    return np.minimum(1.0, 2 * covered - missed)


@dataclass(frozen=True, eq=False)
class AgreementBound:
    """The lower bound on P(empirical choice = exact choice) at n rows, and the allocation that attains it.

    ``t0`` bounds |hat m - m|, ``tolerances[i]`` |hat m_c - m_c| for ``margins.candidates[i]``; ``failures[i]``
    bounds the probability that candidate i breaks its tolerance (or is never perturbed), ``mean_failure`` that
    hat m breaks t0. ``value = max(0, 1 - mean_failure - sum(failures))``.
    """

    value: float
    n: int
    t0: float
    tolerances: np.ndarray
    failures: np.ndarray
    mean_failure: float
    margins: SelectionMargins

    def event_holds(self, mean_error: float, errors: np.ndarray) -> bool:
        """Whether one design's errors |hat m - m| and |hat m_c - m_c| (NaN when n_c = 0, in the order of
        ``margins.candidates``) lie inside the allocation, the event that implies agreement."""
        errors = np.asarray(errors, float)
        inside_mean = self.margins.slope == 0 or mean_error < self.t0
        return bool(inside_mean and not np.isnan(errors).any() and np.all(errors < self.tolerances))


def _allocations(margins: SelectionMargins):
    """Every allocation of the grid: t0 [U], t_S and the candidate tolerances [U, V, C]."""
    a = margins.slope
    thr, gap = margins.threshold_margin, margins.gap
    is_s = np.array([c == margins.best_ids for c in margins.candidates])
    t0 = _GRID * np.nanmin(thr) / a if a > 0 else np.zeros(1)  # S always has a threshold constraint
    s_room = np.minimum(thr[is_s][0] - a * t0, np.nanmin(np.append(gap, np.inf)))  # [U]
    t_s = _GRID[None, :] * s_room[:, None]  # [U, V]
    room = np.full(t_s.shape + (len(margins.candidates),), np.inf)
    with np.errstate(invalid="ignore"):
        below = thr - a * t0[:, None]  # [U, C]
        room = np.minimum(room, np.where(np.isnan(thr), np.inf, below)[:, None, :])
        room = np.minimum(room, np.where(np.isnan(gap), np.inf, gap[None, None, :] - t_s[:, :, None]))
    room[:, :, is_s] = t_s[:, :, None]
    return t0, room


def agreement_bound(table, n: int, p: float, eps: float, max_len: int, *, baseline: str = "mean",
                    tie_rtol: float = TIE_RTOL) -> AgreementBound:
    """Lower bound on P(FRED's empirical choice with n mask rows = its exact choice), the union bound of the
    module docstring maximised over a fixed grid of allocations (t_0, t_S).

    Raises ValueError when the exact problem has a zero margin (a tie at the top of the selected size, a drop
    equal to the threshold): then no bound tending to 1 exists (see
    ``proofs_checks/claims/lemmas/lemma1_selection.py``).

    >>> from analytic import linear_table
    >>> table = linear_table([0.5, 0.1])
    >>> [round(agreement_bound(table, n, 0.5, 0.15, 2).value, 4) for n in (10, 20, 40)]
    [0.0, 0.5968, 0.9531]
    >>> [round(agreement_probability(table, n, 0.5, 0.15, 2), 4) for n in (10, 20, 40)]   # the exact agreement
    [0.9447, 0.9968, 0.9999]
    """
    n = _check_n(n)
    margins = selection_margins(table, p, eps, max_len, baseline=baseline, tie_rtol=tie_rtol)
    if not margins.margin > 0:
        raise ValueError(f"the exact choice {margins.best_ids} has a zero margin ({margins.margin:.3g}: a tie at "
                         "the top of its size or a drop equal to the threshold); no agreement bound exists")
    t0, tolerances = _allocations(margins)
    failures = candidate_failure(tolerances, margins.q, n, margins.value_range, margins.variance,
                                 margins.max_deviation)  # [U, V, C]
    r, variance, deviation = margins.mean_stats
    if margins.slope > 0:
        mean_failure = np.minimum(1.0, 2 * np.exp(-n * _rate(t0, r, variance, deviation)))
    else:
        mean_failure = np.zeros_like(t0)
    total = mean_failure[:, None] + failures.sum(axis=2)
    u, v = np.unravel_index(int(np.argmin(total)), total.shape)
    return AgreementBound(max(0.0, 1.0 - float(total[u, v])), n, float(t0[u]), tolerances[u, v],
                          failures[u, v], float(mean_failure[u]), margins)


def agreement_sample_size(table, target: float, p: float, eps: float, max_len: int, *, baseline: str = "mean",
                          tie_rtol: float = TIE_RTOL, max_n: int = 10**9) -> int:
    """Smallest n whose :func:`agreement_bound` reaches ``target`` (doubling, then bisection: the bound is
    non-decreasing in n).

    >>> from analytic import linear_table
    >>> agreement_sample_size(linear_table([0.5, 0.1]), 0.95, 0.5, 0.15, 2)
    40
    """
    if not 0 < target < 1:
        raise ValueError(f"target must lie in (0, 1), got {target!r}")

    def reaches(n: int) -> bool:
        return agreement_bound(table, n, p, eps, max_len, baseline=baseline, tie_rtol=tie_rtol).value >= target

    high = 1
    while not reaches(high):
        if high >= max_n:
            raise ValueError(f"the bound stays below target={target} up to max_n={max_n}")
        high = min(2 * high, max_n)
    low = high // 2  # reaches(low) is False (or low = 0)
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if reaches(mid) else (mid, high)
    return high


# --------------------------------------------------------------------------- the exact distribution of the choice


def _superset(values: list, b: int) -> list:
    """s[S] = sum over codes containing S of values[code], in the arithmetic of the values."""
    s = list(values)
    for i in range(b):
        for code in range(2**b):
            if not code >> i & 1:
                s[code] += s[code | 1 << i]
    return s


def _arithmetic(table: Sequence, p, tie_rtol: float) -> tuple[list, object, object, bool]:
    """(table, p, tie tolerance, rational): rational numbers stay exact with exact ties; anything else becomes float
    with ties within ``tie_rtol * max(1, max|f|)`` (:func:`analytic.search.tie_tolerance`), FRED's rule."""
    table = list(table)
    table_b(table)
    if is_rational(table) and is_rational([p]):
        return table, p, 0, True
    table = [float(f) for f in table]
    return table, float(p), tie_tolerance(table, tie_rtol), False


def _drops_from(table: list, mass: list, value: list, baseline_value, b: int) -> list:
    """baseline value - E[f | c perturbed] per code from superset sums of the mass and of mass * f (0 where no mass)."""
    return [baseline_value - value[c] / mass[c] if mass[c] else 0 for c in range(2**b)]


def exact_selection(table: Sequence, p, eps, max_len: int, *, baseline: str = "mean",
                    tie_rtol: float = TIE_RTOL) -> tuple[tuple[int, ...], bool]:
    """(positions, found) of Algorithm 1 on the exact drops (Eq. 1): :func:`analytic.referee.exact_explain`,
    exact for exact inputs (exact ties), else in floats with FRED's tie tolerance.

    >>> from fractions import Fraction as F
    >>> from analytic import linear_table_rational
    >>> exact_selection(linear_table_rational([F(1, 20), F(1, 20)]), F(1, 2), F(3, 20), 2)
    ((0,), True)
    """
    table, p, _, _ = _arithmetic(table, p, tie_rtol)
    _check_inputs(p, eps, max_len, baseline)
    exact = exact_explain(table, p, eps, max_len, baseline=baseline, tie_rtol=tie_rtol)
    return exact.best_ids, exact.found


def selection_distribution(table: Sequence, n: int, p, eps, max_len: int, *, baseline: str = "mean",
                           tie_rtol: float = TIE_RTOL) -> dict[tuple[tuple[int, ...], bool], object]:
    """Exact distribution of FRED's empirical choice (positions, found) with n mask rows (Eqs. 3-4): the sum,
    over every vector of row counts (N_code) of the 2^b patterns, of its multinomial probability
    n!/prod N_code! prod w_code^N_code times the indicator of the choice Algorithm 1 makes on the empirical
    drops hat ref - sum_{code >= c} N f / sum_{code >= c} N.

    Rational for Fraction ``table`` and ``p`` (exact ties and probabilities), else floats (probabilities in
    log space, FRED's tie tolerance). Enumerates C(n + 2^b - 1, 2^b - 1) count vectors and refuses more than
    :data:`MAX_COMPOSITIONS`. The choice ``((), False)`` means no row perturbed any position.

    >>> from fractions import Fraction as F
    >>> selection_distribution([F(23, 20), F(17, 20)], 3, F(1, 2), F(3, 20), 1)
    {((0,), False): Fraction(1, 2), ((0,), True): Fraction(3, 8), ((), False): Fraction(1, 8)}

    A pure function of its arguments' values and types, cached by :func:`analytic.exact_cache.exact_cache` (the
    last :data:`DISTRIBUTION_CACHE_SIZE` argument lists; Fraction(1, 2) and 0.5 are different keys: exact and float
    arithmetic give different results), and each call returns a dict of its own.
    """
    try:
        values = tuple(table)
    except TypeError:  # not a sequence: refused by the computation
        return _selection_distribution(table, n, p, eps, max_len, baseline=baseline, tie_rtol=tie_rtol)
    try:
        hash((values, n, p, eps, max_len, baseline, tie_rtol))
    except TypeError:  # an unhashable entry or argument: computed (or refused) without the cache
        return _selection_distribution(values, n, p, eps, max_len, baseline=baseline, tie_rtol=tie_rtol)
    return dict(_cached_distribution(values, n, p, eps, max_len, baseline, tie_rtol))


@exact_cache(maxsize=DISTRIBUTION_CACHE_SIZE)
def _cached_distribution(table: tuple, n: int, p, eps, max_len: int, baseline: str, tie_rtol: float) -> dict:
    """:func:`_selection_distribution`, cached by the arguments' values and types (never mutated: the public function
    copies it)."""
    return _selection_distribution(table, n, p, eps, max_len, baseline=baseline, tie_rtol=tie_rtol)


def _selection_distribution(table: Sequence, n: int, p, eps, max_len: int, *, baseline: str,
                            tie_rtol: float) -> dict[tuple[tuple[int, ...], bool], object]:
    """:func:`selection_distribution`, computed."""
    table, p, tol, rational = _arithmetic(table, p, tie_rtol)
    b = table_b(table)
    n = _check_n(n)
    _check_inputs(p, eps, max_len, baseline)
    patterns = 2**b
    count = math.comb(n + patterns - 1, patterns - 1)
    if count > MAX_COMPOSITIONS:
        raise ValueError(f"n={n} rows over 2**{b} patterns give {count} count vectors, more than "
                         f"MAX_COMPOSITIONS={MAX_COMPOSITIONS}; lower n or b")
    weights = [p ** bin(c).count("1") * (1 - p) ** (b - bin(c).count("1")) for c in range(patterns)]
    log_weights = None if rational else [math.log(w) for w in weights]
    out: dict = {}
    for bars in itertools.combinations(range(n + patterns - 1), patterns - 1):
        edges = (-1,) + bars + (n + patterns - 1,)
        counts = [edges[i + 1] - edges[i] - 1 for i in range(patterns)]
        mass = _superset(counts, b)
        value = _superset([k * f for k, f in zip(counts, table)], b)
        baseline_value = (Fraction(value[0], n) if rational else value[0] / n) if baseline == "mean" else table[0]
        drops = {c: d for c, d in enumerate(_drops_from(table, mass, value, baseline_value, b)) if c and mass[c]}
        found = search_on_drops(drops, b, eps * baseline_value, max_len, tol=tol) if drops else None
        choice = (found.best_ids, found.found) if found else ((), False)
        if rational:
            probability = math.factorial(n)
            for k in counts:
                probability //= math.factorial(k)
            for w, k in zip(weights, counts):
                probability *= w**k
        else:
            probability = math.exp(math.lgamma(n + 1) + sum(k * lw - math.lgamma(k + 1)
                                                            for k, lw in zip(counts, log_weights)))
        out[choice] = out.get(choice, 0) + probability
    return out


def agreement_probability(table: Sequence, n: int, p, eps, max_len: int, *, baseline: str = "mean",
                          tie_rtol: float = TIE_RTOL):
    """P(FRED's empirical choice with n mask rows = its exact choice, ``found`` included): the mass
    :func:`selection_distribution` puts on :func:`exact_selection`.

    >>> from fractions import Fraction as F
    >>> agreement_probability([F(23, 20), F(17, 20)], 5, F(1, 2), F(3, 20), 1)   # P(1 <= N <= 5/2) = 1/2 - 2^-5
    Fraction(15, 32)
    """
    kw = {"baseline": baseline, "tie_rtol": tie_rtol}
    return selection_distribution(table, n, p, eps, max_len, **kw).get(exact_selection(table, p, eps, max_len, **kw),
                                                                       0)
