"""Proposition 1's cases on the linear model of Eq. (6), in exact rationals: the hypotheses, and the searches and
grids of the readings of "the solution to Eq. (2)" as any minimiser.

One word per position with weight a_i = lambda_j idf_j (mask = removal, line 478), f = lambda_0 + sum of the kept
a_i. Every solution of Eq. (2) and FRED's choice come from :func:`analytic.exact_explain`. Used by the claim
prop1-linear (proofs_checks/claims/propositions/prop1_linear.py), which reports them. Everything but
Fred(sampler='exact')'s answer is the same for every explainer and cached (:mod:`analytic.exact_cache`).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from analytic import (
    algorithm1_rule,
    all_drops_rational,
    exact_explain,
    is_top_set,
    linear_table,
    linear_table_rational,
    table_classifier,
    top_positions,
)
from analytic.exact_cache import exact_cache
from fred_constants import EPS_EXACT, MAX_LEN, P_EXACT

from ...cases.linear_conclusions import (
    GRID_EPSS,
    GRID_PS,
    UNIT_INTERCEPTS,
    UNIT_WEIGHTS,
    minimal_grid_counterexample,
    unit_interval_models,
)
from ...subject.explainer import explainer
from ...verdicts.results import hypotheses

#: A confidence score above 1/2 classifies xi positive (the confidence-score premise, lines 449-452, 233). The
#: searches run at the paper's defaults P_EXACT, EPS_EXACT and MAX_LEN (line 402).
HALF = Fraction(1, 2)


def statement_hypotheses(a, l0, p, eps, *, solved=None) -> dict:
    """Prop. 1's hypotheses on a case (one word per position, weights ``a``, intercept ``l0``), computed:
    distinct lambda_j idf_j (line 493: the words can be ordered strictly), xi classified positive, f(xi) > 0
    (lines 451, 489), and a solution of Eq. (2) to speak of ("the solution", within l_max = b).

    ``solved`` may pass ``exact_explain`` of the case when the caller has it."""
    solved = solved or exact_explain(linear_table_rational(a, l0), p, eps, len(a))
    return hypotheses(strictly_decreasing_weights=len(set(a)) == len(a),
                      classified_positive=solved.original_prediction > 0,
                      eq2_has_a_solution=solved.size is not None)


def section_premises(a, l0, p) -> dict:
    """The section's confidence-score premise (lines 449-452, 233), which Eq. (6)'s real-valued score need not
    meet, computed for context: every output on the 2^b perturbations in [0, 1], xi positive as a confidence score
    (f(xi) > 1/2), and E[f] >= 0 (which [0, 1] implies)."""
    table = linear_table_rational(a, l0)
    mean, _ = all_drops_rational(table, p)
    return {"outputs_in_unit_interval": all(0 <= v <= 1 for v in table),
            "positive_as_confidence_score": table[0] > HALF, "mean_nonnegative": mean >= 0}


def violates(which: str, a, sol) -> bool:
    """Some solution of Eq. (2) violates ``which`` of (i) (a negative word) and (ii) (not the top set)."""
    if which == "(i)":
        return any(a[i] < 0 for s in sol.solutions for i in s)
    return any(not is_top_set(a, s, tol=0) for s in sol.solutions)


def grid_breaks(which: str):
    """Does some solution of Eq. (2) on a grid point inside Prop. 1's hypotheses violate ``which``?"""
    def breaks(pt) -> bool:
        a, l0, p, eps = pt.values
        sol = exact_explain(linear_table_rational(a, l0), p, eps, len(a))
        return statement_hypotheses(a, l0, p, eps, solved=sol)["satisfies_hypotheses"] and violates(which, a, sol)
    return breaks


def confirm(a, l0, p, eps) -> dict:
    """A case in exact rationals: every solution, FRED's choice, Algorithm 1 as printed, the float referee,
    Fred(sampler='exact'); with the hypotheses record and the section's premises."""
    tokens = [f"w{i + 1}" for i in range(len(a))]
    floats = linear_table([float(x) for x in a], float(l0))
    fred = explainer(table_classifier(tokens, floats), exact=True).explain(" ".join(tokens), p=float(p),
                                                                           eps=float(eps), max_len=len(a))
    record, top = _confirmed(a, l0, p, eps)
    return {**record, "fred_exact_best": list(fred.best), "top_weight_set": top}


@exact_cache(copy=True)
def _confirmed(a, l0, p, eps) -> tuple[dict, list]:
    """:func:`confirm`'s record up to the referee's choice, and the top-weight set (each call gets its own copy)."""
    table = linear_table_rational(a, l0)
    sol = exact_explain(table, p, eps, len(a))
    tokens = [f"w{i + 1}" for i in range(len(a))]
    referee = exact_explain(linear_table([float(x) for x in a], float(l0)), float(p), float(eps), len(a))
    algorithm1, _ = algorithm1_rule(sol.drops, sol.threshold, len(a))
    return {**statement_hypotheses(a, l0, p, eps, solved=sol), "section_premises": section_premises(a, l0, p),
            "document": " ".join(tokens), "position_weights": [str(x) for x in a], "intercept": str(l0),
            "p": str(p), "eps": str(eps), "f_xi": str(table[0]),
            "outputs": sorted({str(v) for v in table}, key=Fraction),
            "mean": str(sol.mean_prediction), "threshold": str(sol.threshold),
            "drops_of_minimal_size": {" ".join(tokens[i] for i in s): str(d) for s, d in sol.drops.items()
                                      if len(s) == sol.size},
            "solutions": [[tokens[i] for i in s] for s in sol.solutions],
            "solutions_violating_ii": [[tokens[i] for i in s] for s in sol.solutions if not is_top_set(a, s, tol=0)],
            "solutions_violating_i": [[tokens[i] for i in s] for s in sol.solutions if any(a[i] < 0 for i in s)],
            "fred_choice_rational": [tokens[i] for i in (sol.best_ids if sol.found else ())],
            "algorithm1_as_printed": [tokens[i] for i in algorithm1 or ()],
            "referee_best": [tokens[i] for i in referee.best_ids]}, [tokens[i] for i in top_positions(a, sol.size)]


def grid_counterexample(which: str) -> tuple[dict | None, dict]:
    """The smallest grid point inside Prop. 1's hypotheses where some solution violates ``which`` (confirmed in
    exact rationals by :func:`confirm`, None when there is none), and how the search established it."""
    point, smaller, minimal = _grid_search(which)
    values = {"smaller_means": "fewer tokens, then earlier in the grid order (weights, intercept, p, eps indices) "
                               "of proofs_checks.cases.linear_conclusions; searched inside Prop. 1's hypotheses",
              "smaller_points_checked": smaller, "search_point_was_minimal": minimal}
    return (None if point is None else confirm(*point.values)), values


@exact_cache
def _grid_search(which: str) -> tuple:
    """(the smallest grid point breaking ``which`` or None, smaller points checked, whether the search's point
    was minimal)."""
    search = minimal_grid_counterexample(grid_breaks(which))
    return search["point"], search["smaller_points_checked"], search["minimal"]


def confidence_score_counterexample() -> tuple[dict | None, dict]:
    """The first confidence-score model (linear_conclusions.unit_interval_models: every output in [0, 1]) with
    f(xi) > 1/2, xi positive as a confidence score, that violates (ii) for some solution inside Prop. 1's
    hypotheses, at the paper's p = 1/2, eps = 0.15."""
    model, checked_before = _first_confidence_score_model()
    if model is None:
        return None, {"smaller_points_checked": checked_before}
    return confirm(*model, P_EXACT, EPS_EXACT), {
        "smaller_means": "earlier in proofs_checks.cases.linear_conclusions.unit_interval_models (fewer tokens, then "
                         "the weights' and the intercept's indices)", "smaller_points_checked": checked_before}


@exact_cache
def _first_confidence_score_model() -> tuple:
    """((a, lambda_0) of :func:`confidence_score_counterexample` or None, how many models come before it)."""
    checked_before = 0
    for a, l0 in unit_interval_models():
        sol = exact_explain(linear_table_rational(a, l0), P_EXACT, EPS_EXACT, len(a))
        if sol.original_prediction > HALF and statement_hypotheses(a, l0, P_EXACT, EPS_EXACT, solved=sol)[
                "satisfies_hypotheses"] and violates("(ii)", a, sol):
            return (a, l0), checked_before
        checked_before += 1
    return None, checked_before


@exact_cache(copy=True)
def confidence_score_grid() -> tuple[bool, dict]:
    """(i) for every solution of Eq. (2) on every confidence-score model (b <= 3, every output in [0, 1]) at every
    grid p and eps, exact rationals, inside Prop. 1's hypotheses."""
    keys = ("points", "within_hypotheses", "positive_as_confidence_score", "with_a_negative_word",
            "some_solution_negative")
    counts, bad = dict.fromkeys(keys, 0), []
    for a, l0 in unit_interval_models():
        for p in GRID_PS:
            table = linear_table_rational(a, l0)
            drops = all_drops_rational(table, p)
            for eps in GRID_EPSS:
                sol = exact_explain(table, p, eps, len(a), drops=drops)
                counts["points"] += 1
                if statement_hypotheses(a, l0, p, eps, solved=sol)["satisfies_hypotheses"]:
                    hits = ["within_hypotheses"] + [k for k, hit in (
                        ("positive_as_confidence_score", sol.original_prediction > HALF),
                        ("with_a_negative_word", any(x < 0 for x in a)),
                        ("some_solution_negative", violates("(i)", a, sol))) if hit]
                    for h in hits:
                        counts[h] += 1
                    if "some_solution_negative" in hits and len(bad) < 5:
                        bad.append({"position_weights": [str(x) for x in a], "intercept": str(l0), "p": str(p),
                                    "eps": str(eps)})
    return not counts["some_solution_negative"], {**counts, "max_tokens": 3, "violations": bad,
                                                  "weights": [str(x) for x in UNIT_WEIGHTS],
                                                  "intercepts": [str(x) for x in UNIT_INTERCEPTS],
                                                  "ps": [str(x) for x in GRID_PS], "epss": [str(x) for x in GRID_EPSS]}


@exact_cache(copy=True)
def beyond_l_max() -> dict:
    """Where Algorithm 1 as printed does not return FRED's choice: the minimal size l* exceeds l_max = 10 (line 402).
    12 words of weights 1 - k/100, lambda_0 = 0, p = 1/2, eps = 1, drops (1 - p) sum_{i in S} a_i (p2), exact."""
    a, p, eps = [1 - Fraction(k, 100) for k in range(12)], P_EXACT, Fraction(1)
    threshold = eps * (1 - p) * sum(a)
    drops = {s: (1 - p) * sum(a[i] for i in s)
             for k in range(1, MAX_LEN + 1) for s in itertools.combinations(range(len(a)), k)}
    best, returned_at = algorithm1_rule(drops, threshold, MAX_LEN)
    size = next(n for n in range(1, len(a) + 1) if (1 - p) * sum(sorted(a, reverse=True)[:n]) >= threshold)
    return {"position_weights": [str(x) for x in a], "intercept": "0", "p": str(p), "eps": str(eps),
            "threshold": str(threshold), "minimal_size": size, "l_max": MAX_LEN, "algorithm1_returns": list(best),
            "returned_at_a_size": returned_at, "its_drop": str(drops[best]),
            "meets_threshold": drops[best] >= threshold}
