"""The minimal zero-margin counterexamples of ``lemma1-selection`` (its stronger readings 'exact' and 'solution'):
the search on a grid of small linear tables, inside the readings' hypotheses, and the exact quantities their steps
report (FRED's choice distribution by enumeration, the probability that two empirical drops tie, the variance of
FRED's stopping statistic), all in rational arithmetic at p = 1/2, eps = 3/20.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import lru_cache

from hypothesis import strategies as st

from analytic import all_drops_rational, exact_explain
from analytic.patterns import table_b
from analytic.selection import exact_selection, selection_distribution
from fred_constants import EPS_EXACT, MAX_LEN, P_EXACT

from ..verdicts.counterexamples import minimal_counterexample
from ..verdicts.results import hypotheses
from .selection import GRID_DENOMINATOR, grid_table, synthetic_case

#: The counterexample grid of :func:`~proofs_checks.cases.selection.grid_table` (f in [0, 1] for b <= 2).
GRID_WEIGHTS = tuple(range(1, 11))
GRID_INTERCEPTS = tuple(range(0, 21))


def statement_hypotheses(table, p, eps, max_len: int) -> dict:
    """The stronger readings' hypotheses, computed on a case: f takes values in Y = [0, 1] (line 233: a class's
    confidence score), 0 < p < 1, 0 < eps <= 1, and Eq. (2) has a solution of size <= max_len (the exact search
    finds one), so that 'a solution' exists and is what Fred(exact) returns."""
    return hypotheses(values_in_unit_interval=all(0 <= f <= 1 for f in table), p_in_open_unit_interval=0 < p < 1,
                      eps_in_unit_interval=0 < eps <= 1, eq2_solved_within_max_len=exact_selection(
                          table, p, eps, max_len)[1])


def _problem(t: tuple[int, ...]) -> tuple[list, tuple[int, ...], bool, Fraction, dict, tuple] | None:
    """(table, exact choice, found, threshold, exact drops, every solution of Eq. 2) of a grid point inside the
    hypotheses, else None."""
    table = grid_table(t)
    if not statement_hypotheses(table, P_EXACT, EPS_EXACT, MAX_LEN)["satisfies_hypotheses"]:
        return None
    exact = exact_explain(table, P_EXACT, EPS_EXACT, MAX_LEN)
    return table, exact.best_ids, exact.found, exact.threshold, exact.drops, exact.solutions


def _tie(t: tuple[int, ...]) -> bool:
    """The exact choice has a rival of its size with exactly the same drop (rational)."""
    problem = _problem(t)
    if problem is None:
        return False
    _, choice, _, _, drops, _ = problem
    return any(s != choice and len(s) == len(choice) and drops[s] == drops[choice] for s in drops)


def _on_threshold(t: tuple[int, ...]) -> bool:
    """A candidate of size <= the chosen one's has a drop exactly equal to the threshold (rational)."""
    problem = _problem(t)
    return problem is not None and any(len(s) <= len(problem[1]) and d == problem[3] for s, d in problem[4].items())


def _escape(t: tuple[int, ...]) -> bool:
    """Eq. (2)'s only solution S has a drop exactly on the threshold, and a larger candidate (size <= l_max) lies
    strictly above it: a search that misses the threshold at |S| returns a candidate that is not a solution."""
    problem = _problem(t)
    if problem is None:
        return False
    _, choice, _, threshold, drops, solutions = problem
    return (solutions == (choice,) and drops[choice] == threshold
            and any(len(choice) < len(s) <= MAX_LEN and d > threshold for s, d in drops.items()))


#: The zero margins: (tokens b of the shortest document that can show it, the property a grid table must have).
#: A tie needs two candidates of one size and an escape a larger candidate, so both need b >= 2.
ZERO_MARGINS = {"tie": (2, _tie), "threshold": (1, _on_threshold), "escape": (2, _escape)}


@lru_cache(maxsize=None)
def minimal_counterexample_point(kind: str) -> tuple[tuple[int, ...] | None, int, bool]:
    """Search the grid of b-token tables for ``kind`` (a key of :data:`ZERO_MARGINS`), then check every earlier
    grid point: (the first point (a_1, ..., a_b, c) with the property or None, how many earlier points were
    checked, whether the search's point was already the first)."""
    b, breaks = ZERO_MARGINS[kind]
    grid = [GRID_WEIGHTS] * b + [GRID_INTERCEPTS]
    order = list(itertools.product(*grid))
    found = minimal_counterexample(st.tuples(*[st.sampled_from(g) for g in grid]), breaks, max_examples=200)
    smaller = order if found is None else order[: order.index(found)]
    first = next((t for t in smaller if breaks(t)), None)
    return (found if first is None else first), len(smaller), found is not None and first is None


def counterexample_table(kind: str) -> list | None:
    """The minimal grid table of ``kind``, rational, or None when the grid has none."""
    t, _, _ = minimal_counterexample_point(kind)
    return None if t is None else grid_table(t)


def _rational(x) -> str:
    return str(Fraction(x))


def counterexample(kind: str) -> tuple[dict | None, dict, list | None]:
    """The minimal grid table of ``kind``, its exact drops, the exact distribution of FRED's choice at
    n_paper / 4, n_paper and 4 n_paper (rational), how often that choice solves Eq. (2), and the hypotheses record;
    and the table."""
    t, smaller, search_was_minimal = minimal_counterexample_point(kind)
    b = ZERO_MARGINS[kind][0]
    values = {"smaller_means": (f"a shorter document first (b = {b} is the shortest that can show it), then earlier "
                                "in the grid order of (weights a_i, intercept c), f = c/40 + sum a_i/40 over the kept "
                                f"positions, a_i in {GRID_WEIGHTS[0]}..{GRID_WEIGHTS[-1]}, c in "
                                f"{GRID_INTERCEPTS[0]}..{GRID_INTERCEPTS[-1]}; only points inside the hypotheses"),
              "smaller_grid_points_checked": smaller, "search_point_was_minimal": search_was_minimal}
    table = grid_table(t or (GRID_WEIGHTS[0],) * b + (GRID_INTERCEPTS[0],))
    values.update(statement_hypotheses(table, P_EXACT, EPS_EXACT, MAX_LEN))
    if t is None:
        return None, values, None
    choice, found = exact_selection(table, P_EXACT, EPS_EXACT, MAX_LEN)
    mean, drops = all_drops_rational(table, P_EXACT)
    case = synthetic_case(kind, table)
    agreement, positions, solves, other = {}, {}, {}, {}
    for n in case.ns:
        dist = selection_distribution(table, n, P_EXACT, EPS_EXACT, MAX_LEN)
        agreement[str(n)] = dist.get((choice, found), Fraction(0))
        positions[str(n)] = sum((v for (c, _), v in dist.items() if c == choice), Fraction(0))
        solves[str(n)] = sum((v for (c, _), v in dist.items()
                              if len(c) == len(choice) and c and drops[c] >= EPS_EXACT * mean), Fraction(0))
        other[str(n)] = {f"{list(c)} found={f}": _rational(v) for (c, f), v in dist.items()
                         if (c, f) != (choice, found)}
    cx = {"document": case.text, "position_weights": [_rational(Fraction(a, GRID_DENOMINATOR)) for a in t[:-1]],
          "intercept": _rational(Fraction(t[-1], GRID_DENOMINATOR)), "f_by_pattern_code": [_rational(f) for f in table],
          "p": "1/2", "eps": "3/20", "max_len": MAX_LEN, "mean_prediction": _rational(mean),
          "threshold": _rational(EPS_EXACT * mean),
          "exact_drops": {" ".join(case.tokens[i] for i in s): _rational(d) for s, d in drops.items()},
          "exact_choice": list(choice), "exact_found": found,
          "agreement": {n: _rational(a) for n, a in agreement.items()},
          "agreement_float": {n: float(a) for n, a in agreement.items()},
          "positions_agree": {n: float(v) for n, v in positions.items()},
          "returns_a_solution": {n: float(v) for n, v in solves.items()}, "other_choices": other,
          **statement_hypotheses(table, P_EXACT, EPS_EXACT, MAX_LEN)}
    return cx, values, table


def tie_probabilities(table: list, n: int) -> tuple[Fraction, Fraction]:
    """P(the empirical drops of positions 0 and 1 are both defined and equal) and P(they are, and reach
    eps hat m), on a 2-token table at p = 1/2: every vector of row counts over the 4 patterns, its multinomial
    probability (rational)."""
    tie = reach = Fraction(0)
    for bars in itertools.combinations(range(n + 3), 3):
        edges = (-1, *bars, n + 3)
        counts = [edges[i + 1] - edges[i] - 1 for i in range(4)]
        probability = Fraction(math.factorial(n), math.prod(math.factorial(k) for k in counts) * 4**n)
        mean = Fraction(sum(k * f for k, f in zip(counts, table)), n)
        drops = []
        for bit in (0, 1):
            covered = [code for code in range(4) if code >> bit & 1]
            rows = sum(counts[c] for c in covered)
            drops.append(None if rows == 0 else mean - Fraction(sum(counts[c] * table[c] for c in covered), rows))
        if drops[0] is not None and drops[0] == drops[1]:
            tie += probability
            reach += probability if drops[0] >= EPS_EXACT * mean else 0
    return tie, reach


def stop_variance(table: list, choice: tuple[int, ...]) -> Fraction:
    """sigma^2 of sqrt(n) ((1 - eps) hat m - hat m_S), FRED's test hat Delta_S >= eps hat m at S's size (delta
    method, rational): E[psi^2] with psi = (1 - eps)(f - m) - 1{S perturbed} (f - m_S) / p^|S|."""
    b = table_b(table)
    weight = [P_EXACT ** b for _ in range(2**b)]  # p = 1/2: every pattern has weight 2^-b
    covered = [all(code >> i & 1 for i in choice) for code in range(2**b)]
    m = sum(w * f for w, f in zip(weight, table))
    pi = sum(w for w, c in zip(weight, covered) if c)
    m_s = sum(w * f for w, f, c in zip(weight, table, covered) if c) / pi
    psi = [(1 - EPS_EXACT) * (f - m) - (f - m_s) / pi * c for f, c in zip(table, covered)]
    return sum(w * x * x for w, x in zip(weight, psi))
