"""Proposition 1 for a LogisticRegression on un-normalised TF-IDF: the predicted-class probability.

This project's extension (the paper does not state it): the paper says its linear setup "encapsulates [...]
logistic models" (line 488) through the linear score of Eq. (6), whose sign decides the class (line 489), and trains
logistic regression in its experiments (lines 548, 1113). Prop. 1's conclusions are checked for f = sigma(lambda^T
phi + lambda_0), the predicted-class probability, with phi the un-normalised TF-IDF of Definition 1
(TfidfVectorizer(norm=None)). That vectorizer is this project's assumption: the paper does not say which one its
experiments used (line 1113: "the default parameters" of scikit-learn, whose TfidfVectorizer normalises rows by
default, norm='l2'; that case is the claim prop1-l2norm). On the readings of prop1-linear:

* headline, FRED's choice (line 494 speaks of "the algorithm"; lines 497-498, 520): it extends (the coupling steps
  are written arguments; every computed case holds);
* (i) for every solution of Eq. (2): extends too, since a probability has E[f] > 0 (the (i) counterexample of
  prop1-linear, a = (1, -1/100), lambda_0 = -89/100, p = 1/2, does not transfer): the confidence-score premise of
  the section (lines 449-452) holds by construction;
* (ii) for every solution: does not extend, for the same reason as on the linear model: a = (1, 1/2),
  lambda_0 = 0, p = 1/2, eps = 1/20 has both single words as solutions of Eq. (2), while FRED picks the top one.

The order of inclusion is the linear score's, but the selected size can differ from the linear score's (the link
changes which drops reach eps E[f]).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

from analytic import (
    all_drops,
    code_of,
    exact_explain,
    linear_table,
    linear_table_rational,
    logistic_table_sym,
    pattern_weights,
    search_on_drops,
    table_classifier,
    tie_tolerance,
    top_positions,
)
from analytic.exact_cache import exact_cache, frozen

from ...cases.linear_conclusions import (
    EPSS,
    GRID_WEIGHTS,
    PS,
    GridPoint,
    grid_points,
    is_top_set,
    minimal_grid_counterexample,
    near_threshold,
    reading_summary,
    run,
)
from ...models.family import cases
from ...subject.explainer import explainer
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .prop1_words import EVERY_SOLUTION_II, FRED_CHOICE, PROPOSITION, SOLUTION_WORDS

CLAIM = Claim("prop1-logistic")
SOURCE = PROPOSITION + (
    Quote(488, r"This linear classifier setup encapsulates a broad range of models, including logistic models and "
               r"perceptron, making it an insightful starting point for our analysis."),
    Quote(489, r"The decision boundary of the classifier is determined by the hyperplane where the linear combination "
               r"of the TF-IDF vector $\tfidf{\doc}$, as weighted by $\lambda$, along with the intercept $\lambda_0$, "
               r"is greater than zero."),
    Quote(548, r"We trained logistic regression, decision trees, and random forests on each dataset."),
    Quote(1113, r"We trained a logistic classifier, a decision tree, and a random forest classifier on each dataset "
                r"(with the default parameters of \url{https://scikit-learn.org/})."),
    Quote(1116, r"Finally, we remark that we always consider documents with positive predictions, and we explain the "
                r"positive class."),
    Quote(470, r"where $\idf_j \defeq \log{\frac{N + 1}{N_j + 1}} + 1$ is the \emph{inverse document frequency}"),
    Quote(53, r"\newcommand{\idf}{v}"),
    Quote(452, r"In other words, the model $\model$ outputs a confidence score for the positive class."),
)
#: prop1-linear's readings, with (i) for every solution read on this model, a probability (no confidence-score
#: split: every output is in (0, 1) by construction).
READINGS = (
    FRED_CHOICE,
    Reading("every-solution-i", "stronger",
            "(i) for every solution of Eq. (2): no minimiser contains a word of negative (signed) coefficient; (ii) "
            "as in the headline. Stronger than the headline in that FRED's choice is one minimiser among possibly "
            "several; on a probability, the section's confidence-score premise (line 452) holds by construction.",
            why=SOLUTION_WORDS),
    EVERY_SOLUTION_II,
)
STATEMENT = (
    "This project's extension of Proposition 1 (lines 492-494) to a binary LogisticRegression (lines 548, 1113) on "
    "un-normalised TF-IDF (Definition 1, TfidfVectorizer(norm=None); the paper does not state the vectorizer of "
    "its experiments, and scikit-learn's default normalises): f(z) = sigma(lambda^T phi(z) + lambda_0), the "
    "predicted-class probability, with lambda, lambda_0 its coefficients signed for the predicted class. Under "
    "lambda_1 idf_1 > ... > lambda_d idf_d, (i) no word of negative coefficient is in the optimal candidate and "
    "(ii) the algorithm includes the words of higher lambda_j idf_j first until the threshold is met."
)


#: The family's unit of a case.
UNIT = "(LogisticRegression model, document, p, eps), distinct lambda_j idf_j"


def statement_hypotheses(a, table, size) -> dict:
    """The extension's hypotheses on a case, computed: distinct weights ``a`` (signed for the predicted class;
    line 493), xi predicted positive, f(xi) > 1/2 (the score's sign, line 489), a solution of Eq. (2) (``size``
    not None), and every output of ``table`` (the predicted-class probability on the 2^b perturbations) in [0, 1],
    a confidence score (line 452)."""
    return hypotheses(strictly_decreasing_weights=len(set(a)) == len(a), classified_positive=bool(table[0] > 0.5),
                      eq2_has_a_solution=size is not None,
                      confidence_score_in_unit_interval=all(bool(0 <= v <= 1) for v in table))


def _signed(a, l0):
    """Weights and intercept signed for the predicted class (None when the score at xi is exactly 0)."""
    z = sum(a) + l0
    if z == 0:
        return None
    return (tuple(a), l0) if z > 0 else (tuple(-x for x in a), -l0)


def _float_table(a, l0) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-linear_table([float(x) for x in a], float(l0))))


@exact_cache
def _float_solutions(a, l0, p, eps):
    """(predicted-class table, weights signed for that class, minimal size, solutions, near-threshold count) of a
    grid case with float drops; None when the score at xi is exactly 0 (no predicted class). Cached: the same for
    every explainer (the arrays are read-only)."""
    signed = _signed(a, l0)
    if signed is None:
        return None
    s_a, s_l0 = signed
    table = _float_table(s_a, s_l0)
    b = len(a)
    threshold = float(eps) * float(table @ pattern_weights(b, float(p)))
    drops, tol = all_drops(table, float(p)), tie_tolerance(table)
    eq2 = search_on_drops(drops, b, threshold, b, tol=tol)
    sols = tuple(sorted(eq2.solutions, key=code_of))  # code order, as the report lists them
    return frozen(table), frozen([float(x) for x in s_a]), eq2.size, sols, near_threshold(drops, eq2, b, tol)


@exact_cache
def _linear_size(a, l0, p, eps):
    """The minimal size of Eq. (2) for the linear score with these (signed) weights, exact rationals."""
    return exact_explain(linear_table_rational(a, l0), p, eps, len(a)).size


@exact_cache
def _ii_search() -> tuple:
    """(smallest grid point breaking (ii) for every solution or None, smaller points checked, whether the search's
    point was minimal): the grid search, the same for every explainer."""
    search = minimal_grid_counterexample(_grid_breaks_ii)
    return search["point"], search["smaller_points_checked"], search["minimal"]


def _grid_breaks_ii(pt: GridPoint) -> bool:
    """Inside the hypotheses, some solution of Eq. (2) (float drops) is not the top-weight set."""
    solved = _float_solutions(*pt.values)
    if solved is None:
        return False
    table, w, size, sols, _ = solved
    return statement_hypotheses(tuple(w), table, size)["satisfies_hypotheses"] and any(
        not is_top_set(w, s) for s in sols)


def _exact(a, l0, p, eps) -> dict:
    """Every solution in exact sympy arithmetic (sigma of rationals), FRED(sampler='exact')'s choice, and the
    case's hypotheses record."""
    tokens = [f"w{i + 1}" for i in range(len(a))]
    fred = explainer(table_classifier(tokens, _float_table(a, l0), n_classes=2), exact=True).explain(
        " ".join(tokens), p=float(p), eps=float(eps), max_len=len(a))
    record, top = _exact_record(a, l0, p, eps)
    return {**record, "fred_exact_best": list(fred.best), "top_weight_set": top}


@exact_cache(copy=True)
def _exact_record(a, l0, p, eps) -> tuple[dict, list]:
    """:func:`_exact`'s record up to FRED's choice, and the top-weight set: the sympy side, the same for every
    explainer (each call gets its own copy)."""
    a_s, l0_s = [sp.Rational(x.numerator, x.denominator) for x in a], sp.Rational(l0.numerator, l0.denominator)
    p_s, eps_s = sp.Rational(p.numerator, p.denominator), sp.Rational(eps.numerator, eps.denominator)
    table = logistic_table_sym(a_s, l0_s)
    sol = exact_explain(table, p_s, eps_s, len(a))
    tokens = [f"w{i + 1}" for i in range(len(a))]
    top = top_positions(a, sol.size or 0)
    return {**statement_hypotheses(a, table, sol.size),
            "document": " ".join(tokens), "position_weights": [str(x) for x in a], "intercept": str(l0),
            "p": str(p), "eps": str(eps), "f_xi": float(sp.N(sol.original_prediction, 15)),
            "mean": float(sp.N(sol.mean_prediction, 15)),
            "threshold": float(sp.N(sol.threshold, 15)),
            "drops": {" ".join(tokens[i] for i in s): float(sp.N(d, 15)) for s, d in sol.drops.items()},
            "solutions": [[tokens[i] for i in s] for s in sol.solutions],
            "solutions_violating_ii": [[tokens[i] for i in s] for s in sol.solutions if not is_top_set(a, s, tol=0)],
            "negative_word_in_a_solution": any(a[i] < 0 for s in sol.solutions for i in s),
            "fred_choice_exact": [tokens[i] for i in (sol.best_ids if sol.found else ())]}, [tokens[i] for i in top]


@exact_cache
def _grid_exact() -> tuple:
    """What :func:`_grid` reads without an explainer, the same for every explainer: per grid point with a predicted
    class, (the point, the float table FRED is asked about (read-only), the signed weights, Eq. (2)'s size and
    solutions, the near-threshold count, whether the point is inside the hypotheses, whether a solution has a
    negative word and whether one is not the top set (both False outside), the linear score's size (None outside));
    and the number of points skipped (score 0 at xi)."""
    out, skipped = [], 0
    for pt in grid_points():
        a, l0, p, eps = pt.values
        solved = _float_solutions(a, l0, p, eps)
        if solved is None:
            skipped += 1
            continue
        table, w, size, sols, n_near = solved
        within = size is not None and statement_hypotheses(tuple(w), table, size)["satisfies_hypotheses"]
        negative = within and any(w[i] < 0 for s in sols for i in s)
        not_top = within and any(not is_top_set(w, s) for s in sols)
        linear = _linear_size(*_signed(a, l0), p, eps) if within else None
        out.append((pt, frozen(_float_table(a, l0)), w, size, sols, n_near, within, negative, not_top, linear))
    return tuple(out), skipped


def _grid() -> tuple[tuple[bool, dict], tuple[bool, dict]]:
    """((i) for every solution; FRED's choice) on every grid point inside the hypotheses, float drops; and, for
    context, the selected size against the linear score's (exact rationals, the same signed weights)."""
    within = 0
    neg_solution, not_top_solution, fred_bad = [], 0, []
    sizes = {"both_solved": 0, "differ": 0, "both_solved_as_listed": 0, "differ_as_listed": 0, "first_differing": None}
    points, skipped = _grid_exact()
    count, near = len(points), sum(point[5] for point in points)
    for pt, f_table, w, size, sols, _, inside, negative, not_top, linear in points:
        a, l0, p, eps = pt.values
        tokens = [f"w{i + 1}" for i in range(len(a))]
        fred = explainer(table_classifier(tokens, f_table, n_classes=2), exact=True).explain(
            " ".join(tokens), p=float(p), eps=float(eps), max_len=len(a))
        if size is None:
            if fred.found:
                fred_bad.append({**pt.describe(), "fails": "found although infeasible"})
            continue
        if not inside:
            continue
        within += 1
        if negative:
            neg_solution.append(pt.describe())
        not_top_solution += not_top
        ok = fred.found and tuple(fred.best_ids) in sols and is_top_set(w, fred.best_ids) and not any(
            w[i] < 0 for i in fred.best_ids)
        if not ok:
            fred_bad.append({**pt.describe(), "fred_best_ids": list(fred.best_ids)})
        if linear is not None:  # "as listed": the grid's weights already favour class 1 (no sign change)
            listed, differ = l0 + sum(a) > 0, linear != size
            for key, hit in (("both_solved", True), ("differ", differ), ("both_solved_as_listed", listed),
                             ("differ_as_listed", listed and differ)):
                sizes[key] += hit
            if differ and sizes["first_differing"] is None:
                sizes["first_differing"] = {**pt.describe(), "linear_size": linear, "logistic_size": size}
    common = {"points": count, "skipped_score_zero_at_xi": skipped, "within_hypotheses": within, "max_tokens": 3,
              "weights": [str(x) for x in GRID_WEIGHTS], "near_threshold_drops": near,
              "weights_signed_for_the_predicted_class": True}
    return ((not neg_solution, {**common, "solution_with_negative_word": neg_solution,
                                "points_where_some_solution_is_not_the_top_set": not_top_solution}),
            (not fred_bad, {**common, "fred_choice_failures": fred_bad, "selected_size_vs_linear_score": sizes}))


def _conditions(sizes: dict) -> str:
    """The conditions, with the grid's count of sizes that differ from the linear score's (step st2)."""
    return (
        "Hypotheses, computed on every case: distinct lambda_j idf_j, xi predicted positive (weights signed for the "
        "predicted class), a solution of Eq. (2), outputs in [0, 1] (a probability). Headline (FRED's choice): (i) "
        "and (ii) extend for every p in (0,1), eps in (0,1], binary LogisticRegression (any strictly increasing "
        "link of a linear score) on un-normalised TF-IDF (TfidfVectorizer(norm=None): this project's assumption; "
        "the paper does not state the vectorizer of its experiments, line 1113, and scikit-learn's default "
        "norm='l2' is the claim prop1-l2norm). Stronger readings: (i) extends to every solution of Eq. (2) "
        "(E[f] > 0); (ii) does not, whenever two sets of the minimal size reach the threshold. The order of "
        "inclusion is the linear score's, by lambda_j idf_j; the selected size can differ from the linear score's "
        f"(no closed form; at {sizes['differ']} of {sizes['both_solved']} grid points, step st2).")


def check() -> ClaimResult:
    """The link's monotonicity (sympy), the coupling argument, a counterexample for (ii) on an arbitrary solution
    (exact), and exhaustive checks on the rational grid and the family, each tagged with the reading it tests."""
    search = _ii_search()
    cx = None if search[0] is None else _exact(*search[0].values)
    linear_i = _exact(*GridPoint((0, 2), 1, 0, 0).values)  # prop1-linear's (i) counterexample, on this model
    grid_i, grid_c = _grid()
    family = reading_summary(run(cases("logistic-raw")), lambda v: v.strict_order)
    steps = (monotone_link(), coupling(), negative_words(), fred_choice_on_the_counterexamples(cx, linear_i),
             fred_choice_grid(grid_c), fred_choice_family(family), i_every_solution(grid_i, family, linear_i),
             ii_every_solution(search, cx), ii_family_every_solution(family))
    return CLAIM.result(kind="extension", statement=STATEMENT,
                        conditions=_conditions(grid_c[1]["selected_size_vs_linear_score"]), counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)


def monotone_link() -> StepResult:
    """s1: sigma' = sigma (1 - sigma) > 0 (sympy): the predicted-class probability increases with the score."""
    z = sp.Symbol("z", real=True)
    sigma = 1 / (1 + sp.exp(-z))
    derivative = sp.simplify(sp.diff(sigma, z) - sigma * (1 - sigma))
    positive = (sp.exp(-z) / (1 + sp.exp(-z)) ** 2).is_positive
    return CLAIM.checked(
        "s1-monotone-link", "proof", "symbolic",
        "sigma'(z) = sigma(z)(1 - sigma(z)) = e^-z / (1 + e^-z)^2 > 0 (sympy): the probability of the "
        "predicted class is a strictly increasing function of the signed score Z = sum_i a_i K_i + lambda_0, "
        "K_i the independent Bernoulli(1 - p) keep indicators (for class 0 the weights change sign).",
        holds=derivative == 0 and positive is True,
        values={"derivative_minus_sigma_1_minus_sigma": str(derivative), "derivative_positive": positive})


def coupling() -> StepResult:
    """s2: the coupling argument: the top-weight set has the largest drop at every size."""
    return CLAIM.argued(
        "s2-coupling", "proof",
        "For sets S, T of equal size with T the top-|T| weights, pair T\\S with S\\T so each weight of T\\S is "
        ">= its partner; coupling the partners' keep indicators gives Z_{-S} >= Z_{-T} pointwise (Z_{-C}: "
        "score with C perturbed), hence E[g(Z_{-T})] <= E[g(Z_{-S})] for increasing g: the top-weight set has "
        "the largest drop at every size (strictly for distinct weights). So every solution has size l*, the "
        "first size whose top set reaches the threshold, and FRED's choice is the top-l* set: (ii) for FRED's "
        "choice.")


def negative_words() -> StepResult:
    """s3: a word of negative weight is in no solution: (i) for every solution."""
    return CLAIM.argued(
        "s3-negative-words", "proof",
        "If a_i < 0 and i is in S, |S| >= 2: E[f | S minus i perturbed] = (1-p) E[f | S minus i perturbed, i "
        "kept] + p E[f | S perturbed], and keeping i lowers Z, so Delta_{S minus i} > Delta_S: S is not "
        "minimal. A negative singleton has drop < 0 < eps E[f] (f is a probability, E[f] > 0). Hence (i) "
        "for every solution, with no condition on f(xi).")


def fred_choice_on_the_counterexamples(cx: dict | None, linear_i: dict) -> StepResult:
    """st1: on the (ii) counterexample and on prop1-linear's (i) counterexample, FRED picks the top-weight set."""
    shown = [c for c in (cx, linear_i) if c is not None]
    keys = ("document", "position_weights", "intercept", "p", "eps", "fred_exact_best", "fred_choice_exact",
            "top_weight_set")
    return CLAIM.checked(
        "st1-fred-choice-on-the-counterexamples", "statement", "exhaustive",
        "On the (ii) counterexample below and on prop1-linear's (i) counterexample, FRED(sampler='exact') "
        "picks the largest exact (sympy) drop among the solutions, which is the top-weight set.",
        holds=bool(shown) and all(c["fred_exact_best"] == c["fred_choice_exact"] == c["top_weight_set"]
                                  for c in shown),
        values={"cases": [{k: c[k] for k in keys} for c in shown]}, reading="fred-choice")


def fred_choice_grid(grid_c: tuple[bool, dict]) -> StepResult:
    """st2: Fred(sampler='exact') on every grid point inside the hypotheses, and the selected size against the
    linear score's for context."""
    holds, seen = grid_c
    sizes = seen["selected_size_vs_linear_score"]
    return CLAIM.checked(
        "st2-fred-choice-grid", "statement", "exhaustive",
        f"On the {seen['within_hypotheses']} grid points inside the hypotheses (of {seen['points']} with a "
        "predicted class), Fred(sampler='exact') on sigma of the linear score returns a solution of Eq. (2) "
        "that is the top-weight set and has no negative word, and it reports no solution when there is none. "
        "For context (not deciding): the selected size differs from the linear score's on the same signed "
        f"weights (exact) at {sizes['differ']} of the {sizes['both_solved']} points where both have a solution "
        f"({sizes['differ_as_listed']} of {sizes['both_solved_as_listed']} with the weights as listed), first "
        f"at {sizes['first_differing']}: the order of inclusion is the same, the size can differ.",
        holds=holds, values=seen, reading="fred-choice")


def fred_choice_family(family: dict) -> StepResult:
    """st3: on the family's LogisticRegression cases, the top set is best at every size and FRED's choice
    satisfies (i) and (ii)."""
    return CLAIM.checked(
        "st3-fred-choice-family", "statement", "exhaustive",
        f"On all {family['cases']} {UNIT} cases of the family: the top-weight set has the largest exact drop "
        "at every size, and FRED's exact choice is a solution satisfying (i) and (ii).",
        holds=not (family["fred_choice_violations"] or family["top_set_not_best_at_some_size"]
                   or family["fred_choice_not_a_solution"]),
        values={**{k: v for k, v in family.items() if not k.startswith("every")}, "unit": UNIT},
        reading="fred-choice")


def i_every_solution(grid_i: tuple[bool, dict], family: dict, linear_i: dict) -> StepResult:
    """st4: (i) for every solution on the grid, the family, and prop1-linear's (i) counterexample on this model."""
    grid_ok, grid = grid_i
    return CLAIM.checked(
        "st4-i-every-solution", "statement", "exhaustive",
        "(i) for every solution: no solution contains a word of negative (signed) weight on "
        f"{grid['within_hypotheses']} grid points inside the hypotheses (b <= 3) and {family['cases']} "
        f"family cases ({len(family['every_solution_i'])} violations); on prop1-linear's (i) counterexample "
        f"(weights {linear_i['position_weights']}, lambda_0 = {linear_i['intercept']}, p = {linear_i['p']}, "
        f"eps = {linear_i['eps']}) f(xi) = {linear_i['f_xi']:.4f}, E[f] = {linear_i['mean']:.4f} > 0 and the "
        f"negative word's drop {linear_i['drops']['w2']:.6f} < 0 (exact), so the solutions are "
        f"{linear_i['solutions']}.",
        holds=grid_ok and not family["every_solution_i"] and not linear_i["negative_word_in_a_solution"],
        values={"grid": grid, "family": {k: family[k] for k in ("cases", "every_solution_i")},
                "linear_counterexample_on_logistic": linear_i}, reading="every-solution-i")


def ii_every_solution(search: tuple, cx: dict | None) -> StepResult:
    """st5: (ii) for every solution: the smallest grid counterexample (exact), and the same model at eps = 3/20."""
    point, smaller_points_checked, minimal = search
    at_linear_eps = None if cx is None else _exact(*point.values[:3], Fraction(15, 100))
    note = ("(ii) for every solution, as on the linear model: "
            + (f"{cx['document']} with weights {cx['position_weights']}, lambda_0 = {cx['intercept']}, p = "
               f"{cx['p']}, eps = {cx['eps']} (smallest on the grid; hypotheses {cx['hypotheses']}): threshold "
               f"{cx['threshold']:.6f}, drops { {k: round(v, 6) for k, v in cx['drops'].items()} } (exact sympy "
               f"values, printed rounded), solutions {cx['solutions']}, so {cx['solutions_violating_ii']} solve "
               f"Eq. (2) and are not the top-weight set; FRED picks {cx['fred_exact_best']}. At prop1-linear's "
               f"eps = 3/20 the solutions on this model are {at_linear_eps['solutions']} (threshold "
               f"{at_linear_eps['threshold']:.6f})." if cx else "no counterexample inside the hypotheses on the "
                                                                  "grid."))
    return CLAIM.checked(
        "st5-ii-every-solution", "statement", "exhaustive" if cx is None else "counterexample", note,
        holds=cx is None,
        values={**(cx or {}), "counterexample": cx, "at_eps_3_20": at_linear_eps,
                "smaller_points_checked": smaller_points_checked, "search_point_was_minimal": minimal,
                "smaller_means": "fewer tokens, then earlier in the grid order (weights, intercept, p, eps indices) "
                                 "of proofs_checks.cases.linear_conclusions; float drops in the search, inside the "
                                 "hypotheses"},
        reading="every-solution-ii")


def ii_family_every_solution(family: dict) -> StepResult:
    """st6: (ii) for every solution on the family's LogisticRegression cases."""
    return CLAIM.checked(
        "st6-ii-family-every-solution", "statement", "exhaustive",
        f"(ii) for every solution on the {family['cases']} {UNIT} cases of the family, p in {PS}, eps in "
        f"{EPSS}: some solution is not the top-weight set in {len(family['every_solution_ii'])} cases"
        + (", each with several solutions." if family["ii_violations_have_several_solutions"] else
           ", not all with several solutions."),
        holds=not family["every_solution_ii"],
        values={k: family[k] for k in ("cases", "every_solution_ii", "ii_violations_have_several_solutions")},
        reading="every-solution-ii")
