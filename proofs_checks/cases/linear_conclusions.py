"""Shared evaluation of Proposition 1's conclusions (i) and (ii) on a case of the finite family.

(i) words with negative lambda_j v_j are not in the selected candidate;
(ii) for every size l the largest drop is attained by l positions of largest lambda_j v_j
(so FRED includes words by decreasing lambda_j v_j until the threshold is met).
Both are judged by exact enumeration (``analytic``), and FRED's own choice with the
exact sampler is checked against them.

Eq. (2) can have several solutions (every set of the minimal size whose drop reaches the
threshold), so each (case, p, eps) is also judged on *every* solution (the stronger reading of
Prop. 1, "the solution" as any minimiser), besides FRED's choice (the largest drop among them, the
reading its text supports); :func:`reading_summary` reports both.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

from analytic import (
    VALUE_TOL,
    LinearTfidfModel,
    SearchOutcome,
    all_drops,
    best_drop_of_size,
    code_of,
    is_top_set,
    pattern_weights,
    popcounts,
    search_on_drops,
    table_from_classifier,
    tie_tolerance,
)
from analytic.exact_cache import exact_cache
from analytic.patterns import table_b
from fred_constants import MAX_LEN

from ..models.family import Case
from ..subject.explainer import explainer
from ..verdicts.counterexamples import minimal_counterexample

PS = (0.1, 0.5, 0.9)
EPSS = (0.05, 0.15, 0.5, 1.0)


def position_weights(case: Case) -> tuple[np.ndarray, int | None]:
    """lambda^T phi(token_i) per position, signed for the explained class, and the explained label."""
    coef = np.ravel(case.model.coef_)
    linear = LinearTfidfModel(dict(case.vectorizer.vocabulary_), case.vectorizer.idf_, coef,
                              float(np.ravel(case.model.intercept_)[0]), case.vectorizer.build_analyzer())
    a = linear.position_weights(list(case.tokens))
    if case.kind.startswith("ridge"):
        return a, None
    label = int(np.argmax(case.classifier_fn()([case.text])[0]))
    return (a if label == 1 else -a), label


def strictly_ordered(case: Case, a: np.ndarray) -> bool:
    """Prop. 1's assumption lambda_1 v_1 > ... > lambda_d v_d: distinct words have distinct weights."""
    by_word = {}
    for token, weight in zip(case.tokens, a):
        by_word.setdefault(token, float(weight))
    values = np.sort(list(by_word.values()))
    return bool(np.all(np.diff(values) > VALUE_TOL))


def near_threshold(drops: np.ndarray, eq2: SearchOutcome, max_len: int, tol: float) -> int:
    """How many drops of the sizes the search walked (up to its minimal size, else up to max_len) lie within
    ``tol`` of its threshold: the decisions rounding could turn, reported beside the float verdicts."""
    b = table_b(drops, "drops")
    sizes = popcounts(b)
    examined = (sizes > 0) & (sizes <= (eq2.size or min(max_len, b)))
    return int(np.sum(np.abs(drops[examined] - eq2.threshold) <= tol))


@dataclass(frozen=True)
class CaseVerdict:
    """Outcome of one (case, p): where (ii) fails by size, (i)/(ii) on FRED's picks over the eps grid, and
    (i)/(ii) on every solution of Eq. (2) over the eps grid (``solution_checks``, one dict per eps)."""

    case: Case
    p: float
    top_set_not_best: tuple[dict, ...]
    fred_violations: tuple[dict, ...]
    original: float = float("nan")  # f(xi), the explained class's score
    mean: float = float("nan")  # E[f]
    strict_order: bool = True  # distinct words have distinct lambda_j v_j (Prop. 1's assumption)
    solution_checks: tuple[dict, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.top_set_not_best and not self.fred_violations

    def describe(self, eps: float | None = None) -> dict:
        """Compact descriptor: model kind, corpus seed, document, p (and eps)."""
        out = {**self.case.describe(), "p": self.p}
        return out if eps is None else {**out, "eps": eps}

    def solution_violations_of(self, which: str) -> list[dict]:
        """Per eps, the solutions of Eq. (2) violating ``"(i)"`` or ``"(ii)"`` (only the eps where some do)."""
        out = []
        for check in self.solution_checks:
            bad = [s for s in check["violating"] if which in s["violates"]]
            if bad:
                out.append({"eps": check["eps"], "size": check["size"], "n_solutions": check["n_solutions"],
                            "violating": bad[:3], "n_violating": len(bad)})
        return out


@exact_cache(copy=True)
def _enumerated(case: Case, p: float, epss: tuple) -> tuple:
    """The side of :func:`evaluate` that no explainer enters, by exact enumeration: the signed weights, the label,
    f(xi), E[f], where the top-weight set is not the best of its size, and per eps (size, solutions of Eq. (2) in
    code order, near-threshold count). Cached (each call gets its own copy)."""
    a, label = position_weights(case)
    table = table_from_classifier(case.classifier_fn(), list(case.tokens), label=label)
    b = len(a)
    mean = float(pattern_weights(b, p) @ table)
    drops = all_drops(table, p)
    tol = tie_tolerance(table)
    order = sorted(range(len(a)), key=lambda i: (-a[i], i))
    not_best = []
    for size in range(1, len(a) + 1):
        top, winners = best_drop_of_size(table, p, size)
        greedy = tuple(sorted(order[:size]))
        if not any(is_top_set(a, w) for w in winners):
            not_best.append({"size": size, "top_weight_set": list(greedy), "best_sets": [list(w) for w in winners],
                             "best_drop": top})
    solved = []
    for eps in epss:
        eq2 = search_on_drops(drops, b, eps * mean, MAX_LEN, tol=tol)
        solved.append((eq2.size, sorted(eq2.solutions, key=code_of),  # code order, as the report lists them
                       near_threshold(drops, eq2, MAX_LEN, tol)))
    return a, label, float(table[0]), mean, tuple(not_best), solved


def evaluate(case: Case, p: float, epss=EPSS) -> CaseVerdict:
    """Check (ii) for every size by brute force, then FRED's exact choice and every solution of Eq. (2) for
    each eps against (i) and (ii)."""
    a, label, original, mean, not_best, solved = _enumerated(case, p, tuple(epss))
    clf = case.tabled_classifier_fn()
    violations = []
    checks = []
    for eps, (size, sols, near) in zip(epss, solved):
        exp = explainer(clf, exact=True).explain(case.text, label=label, p=p, eps=eps, max_len=MAX_LEN)
        bad_i = exp.found and any(a[i] < -VALUE_TOL for i in exp.best_ids)
        bad_ii = exp.found and not is_top_set(a, exp.best_ids)
        if bad_i or bad_ii:
            violations.append({"eps": eps, "best_ids": list(exp.best_ids), "best": list(exp.best),
                               "weights": [round(float(x), 6) for x in a],
                               "violates": ",".join(w for w, bad in (("(i)", bad_i), ("(ii)", bad_ii)) if bad)})
        judged = []
        for s in sols:
            bad = [w for w, hit in (("(i)", any(a[i] < -VALUE_TOL for i in s)), ("(ii)", not is_top_set(a, s)))
                   if hit]
            if bad:
                judged.append({"ids": list(s), "violates": ",".join(bad)})
        checks.append({"eps": eps, "size": size, "n_solutions": len(sols), "near_threshold": near,
                       "fred_choice_is_a_solution": (not exp.found and size is None) or tuple(exp.best_ids) in sols,
                       "violating": judged})
    return CaseVerdict(case, p, not_best, tuple(violations), original, mean, strictly_ordered(case, a),
                       tuple(checks))


def run(cases, ps=PS) -> list[CaseVerdict]:
    """Evaluate every case at every p."""
    return [evaluate(c, p) for c in cases for p in ps]


def summarise(verdicts: list[CaseVerdict]) -> tuple[int, list[CaseVerdict]]:
    """Number of (case, p) checked and the failing ones, shortest document first."""
    bad = sorted((v for v in verdicts if not v.ok), key=lambda v: (len(v.case.tokens), v.case.text, v.p))
    return len(verdicts), bad


def reading_summary(verdicts: list[CaseVerdict], in_scope) -> dict:
    """Prop. 1's two readings on the family: FRED's choice, and every solution of Eq. (2), against (i) and (ii).

    ``in_scope`` selects the verdicts inside the statement's hypotheses (e.g. f(xi) > 0 and distinct weights);
    the top set's optimality and FRED's choice being a solution are checked on every verdict. Each violation of
    (i) or (ii) by some solution is listed with the number of solutions and E[f], so the boundary of the
    every-solution reading can be read off: (ii) fails only with several solutions, (i) only with E[f] < 0.
    """
    scope = [v for v in verdicts if in_scope(v)]
    per = {w: [{**v.describe(x["eps"]), "n_solutions": x["n_solutions"], "mean": v.mean, "f_xi": v.original}
               for v in scope for x in v.solution_violations_of(w)] for w in ("(i)", "(ii)")}
    return {"cases": sum(len(v.solution_checks) for v in scope),
            "fred_choice_violations": [{**v.describe(x["eps"]), "violates": x["violates"]} for v in scope
                                       for x in v.fred_violations],
            "top_set_not_best_at_some_size": [{**v.describe(), "size": x["size"]} for v in verdicts
                                              for x in v.top_set_not_best],
            "fred_choice_not_a_solution": [v.describe(c["eps"]) for v in verdicts for c in v.solution_checks
                                           if not c["fred_choice_is_a_solution"]],
            "near_threshold_drops": sum(c["near_threshold"] for v in verdicts for c in v.solution_checks),
            "every_solution_i": per["(i)"], "every_solution_ii": per["(ii)"],
            "ii_violations_have_several_solutions": all(f["n_solutions"] > 1 for f in per["(ii)"]),
            "i_violations_have_negative_mean": all(f["mean"] < 0 for f in per["(i)"])}


# --------------------------------------------------------------------------- the rational grid of small models
# Small linear models f = lambda_0 + sum of a_i over kept positions (Eq. 6 per position, mask = removal) with
# rational numbers: the counterexample searches and exhaustive checks of Prop. 1's readings run on it in exact
# arithmetic. "Smaller" means fewer tokens, then earlier in the grid order below (the index
# tuple of the weights, then the intercept, p and eps indices).

GRID_WEIGHTS = (Fraction(1), Fraction(1, 2), Fraction(-1, 100), Fraction(2), Fraction(-1), Fraction(0))
GRID_INTERCEPTS = (Fraction(0), Fraction(-89, 100), Fraction(1), Fraction(-1))
GRID_PS = (Fraction(1, 2), Fraction(1, 10), Fraction(9, 10))
GRID_EPSS = (Fraction(15, 100), Fraction(1, 20), Fraction(1, 2), Fraction(1))
GRID_MAX_TOKENS = 3


@dataclass(frozen=True)
class GridPoint:
    """Indices into the grid: distinct position weights (one word per position), intercept, p, eps."""

    weights: tuple[int, ...]
    intercept: int
    p: int
    eps: int

    @property
    def key(self) -> tuple:
        """The order "smaller" refers to: fewer tokens first, then the indices lexicographically."""
        return (len(self.weights), self.weights, self.intercept, self.p, self.eps)

    @property
    def a(self) -> tuple[Fraction, ...]:
        return tuple(GRID_WEIGHTS[i] for i in self.weights)

    @property
    def values(self) -> tuple:
        """(a, lambda_0, p, eps) as Fractions."""
        return self.a, GRID_INTERCEPTS[self.intercept], GRID_PS[self.p], GRID_EPSS[self.eps]

    def describe(self) -> dict:
        a, l0, p, eps = self.values
        return {"document": " ".join(f"w{i + 1}" for i in range(len(a))), "position_weights": [str(x) for x in a],
                "intercept": str(l0), "p": str(p), "eps": str(eps)}


def grid_points(max_tokens: int = GRID_MAX_TOKENS):
    """Every grid point with at most ``max_tokens`` tokens, in increasing :attr:`GridPoint.key`."""
    for b in range(1, max_tokens + 1):
        for weights in itertools.permutations(range(len(GRID_WEIGHTS)), b):
            for l0, p, eps in itertools.product(range(len(GRID_INTERCEPTS)), range(len(GRID_PS)),
                                                range(len(GRID_EPSS))):
                yield GridPoint(weights, l0, p, eps)


def grid_strategy(max_tokens: int = GRID_MAX_TOKENS):
    """Hypothesis strategy over the grid; it shrinks towards fewer tokens and smaller indices."""
    return st.builds(GridPoint,
                     st.lists(st.integers(0, len(GRID_WEIGHTS) - 1), min_size=1, max_size=max_tokens,
                              unique=True).map(tuple),
                     st.integers(0, len(GRID_INTERCEPTS) - 1), st.integers(0, len(GRID_PS) - 1),
                     st.integers(0, len(GRID_EPSS) - 1))


def minimal_grid_counterexample(breaks, max_tokens: int = GRID_MAX_TOKENS, max_examples: int = 400) -> dict:
    """Search the grid with hypothesis (proofs_checks.verdicts.counterexamples), then check every smaller grid point.

    Returns {"point": the smallest breaking point or None, "found_by_search": hypothesis's shrunk point or
    None, "smaller_points_checked": how many smaller points the exhaustive scan evaluated, "minimal": whether
    the search's point is the smallest}. When the scan finds a smaller breaking point, that one is returned.
    """
    found = minimal_counterexample(grid_strategy(max_tokens), breaks, max_examples=max_examples)
    if found is None:
        return {"point": None, "found_by_search": None, "smaller_points_checked": 0, "minimal": False}
    smaller = [pt for pt in grid_points(len(found.weights)) if pt.key < found.key]
    first = next((pt for pt in smaller if breaks(pt)), None)
    return {"point": found if first is None else first, "found_by_search": found,
            "smaller_points_checked": len(smaller), "minimal": first is None}


# --------------------------------------------------------------------------- confidence-score models
# Small linear models whose every output on the 2^b perturbations lies in [0, 1], the section's premise that f is a
# confidence score (lines 233, 452), with negative weights among them so that Prop. 1's (i) is tested. One word per
# position, in decreasing weight order (w1 has the largest lambda_j idf_j, as line 493 numbers the words).

UNIT_WEIGHTS = (Fraction(1, 10), Fraction(1, 5), Fraction(3, 10), Fraction(2, 5), Fraction(1, 2), Fraction(-1, 10),
                Fraction(-1, 5))
UNIT_INTERCEPTS = (Fraction(0), Fraction(1, 10), Fraction(1, 5), Fraction(3, 10))


def unit_interval_models(max_tokens: int = GRID_MAX_TOKENS):
    """Every (a, lambda_0) of distinct :data:`UNIT_WEIGHTS` (in decreasing order) and :data:`UNIT_INTERCEPTS` whose
    2^b outputs lambda_0 + sum of the kept a_i all lie in [0, 1]; fewer tokens first, then the index tuple of the
    weights (``itertools.combinations`` order), then the intercept: the order "smaller" refers to."""
    for b in range(1, max_tokens + 1):
        for chosen in itertools.combinations(range(len(UNIT_WEIGHTS)), b):
            a = tuple(sorted((UNIT_WEIGHTS[i] for i in chosen), reverse=True))
            for l0 in UNIT_INTERCEPTS:
                outputs = [l0 + sum(x for x, kept in zip(a, z) if kept) for z in itertools.product((0, 1), repeat=b)]
                if all(0 <= v <= 1 for v in outputs):
                    yield a, l0
