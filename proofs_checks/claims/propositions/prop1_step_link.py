"""Proposition 1 on a perceptron's 0/1 output (ours): a step link of the score of Eq. (6) makes drops tie.

Prop. 1 is stated for f = Eq. (6), the linear score, a setup that "encapsulates [...] logistic models and
perceptron" (line 488). This project asks whether it carries over to the perceptron's 0/1 output f = 1{Z > 0},
Z = sum_i a_i K_i + lambda_0 (K_i the keep indicators, a_i = lambda_j v_j of the word at position i). A step is only
non-decreasing in Z, so drops can tie (Z = K_1 + 2 K_2: both single words drop 1/4 at p = 1/2). Up to ties it carries
over: (i) holds for eps > 0, the top-l* set is a solution of Eq. (2) with the largest drop of its size, and with
l_max >= l* FRED returns a solution tied with it. Eq. (2) can have several solutions even for the linear score; line
1020 makes the largest drop of each size unique, which is how "the solution" of line 494 is read. Which tied set is
returned depends on the tie rule, which the paper leaves open: the implementation keeps the first tied candidate,
Algorithm 1 as printed the last (">=" replaces best), and each returns the word of lower weight on some model.
"""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction
from types import MappingProxyType
from typing import Sequence

import numpy as np
import sympy as sp
from hypothesis import strategies as st

from analytic import (
    algorithm1_literal,
    algorithm1_rule,
    all_drops_rational,
    exact_explain,
    is_top_set,
    linear_table_rational,
    pattern_rows,
    table_classifier,
    top_positions,
)
from analytic.exact_cache import exact_cache

from ...cases.linear_conclusions import GRID_EPSS, GRID_INTERCEPTS, GRID_PS, GRID_WEIGHTS, grid_points
from ...subject.explainer import explainer
from ...verdicts.counterexamples import minimal_counterexample
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .prop1_words import PROPOSITION
from .step_links import (
    LINEAR,
    LINKS,
    PERCEPTRON,
    STRICT,
    link_table,
    order_violations,
    ordering_hypotheses,
    perceptron_table,
    step_gt,
)

CLAIM = Claim("prop1-step-link")
SOURCE = (
    Quote(482, r"Let us now direct our attention towards the exploration of \emph{linear classifiers}, that is, "
               r"classifiers whose underlying models are defined as"),
    Quote(485, r"\model(\doc) = \lambda^\top \tfidf{\doc} + \lambda_0 \,,"),
    Quote(488, "This linear classifier setup encapsulates a broad range of models, including logistic models and "
               "perceptron, making it an insightful starting point for our analysis."),
    Quote(489, r"The decision boundary of the classifier is determined by the hyperplane where the linear "
               r"combination of the TF-IDF vector $\tfidf{\doc}$, as weighted by $\lambda$, along with the intercept "
               r"$\lambda_0$, is greater than zero."),
    *PROPOSITION,  # lines 492-494, shared with the other Prop. 1 claims
    Quote(255, r"it causes the average prediction $\expec{\model(x)}$ to drop by a significant amount"),
    Quote(1020, r"and, for any fixed length $\length$, this quantity is maximized by the subset $\candidate$ having "
                r"$\size{\candidate} = \length$ and containing the firsts $\length$ words ranked by "
                r"$\lambda_j\idf_j$."),
    Quote(410, r"\State \texttt{candidates} = \texttt{get\_candidates}($\xi$, \texttt{size}) "
               r"\Comment{return subsets with cardinality \texttt{size}}"),
    Quote(416, r"\If{$\Empdrop_\candidate \geq \Empdrop_{best}$}:"),
)
READINGS = (
    Reading("up-to-ties", "headline",
            "(i) no solution of Eq. (2) contains a word of negative lambda_j v_j (eps > 0), and (ii) up to ties: the "
            "top-l* set (the l* words of largest lambda_j v_j, l* the smallest size whose top set reaches eps E[f]) "
            "is a solution of Eq. (2) with the largest drop of its size, and with l_max >= l* the set FRED returns "
            "is a solution with the same drop (with l_max < l* no candidate FRED tries reaches the threshold and it "
            "reports it not met). Eq. (2)'s solution is not unique even for the linear score (a = (2, 1), "
            "lambda_0 = 0, p = 1/2, eps = 3/20: both single words solve it); what is unique under Prop. 1's strict "
            "order is the largest drop at each size (line 1020), which Algorithm 1 returns, so 'the solution' of "
            "line 494 is read as that largest drop. On the perceptron the largest drop can tie, and which tied set "
            "is returned is not a statement of Prop. 1: the paper fixes no order for get_candidates.",
            why=(Quote(494, r"Then, the solution to Eq.~\eqref{eq:optimal-candiate} is such that"),
                 Quote(1020, r"and, for any fixed length $\length$, this quantity is maximized by the subset "
                             r"$\candidate$ having $\size{\candidate} = \length$"),
                 Quote(410, r"\Comment{return subsets with cardinality \texttt{size}}"))),
    Reading("fixed-tie-rule", "stronger",
            "(ii) for the returned set itself under a fixed tie rule: the set FRED returns is exactly the top-l* "
            "set, with the implementation's rule (first tied candidate, the smallest position tuple) or with "
            "Algorithm 1 as printed ('>=' replaces best: the last tied candidate in itertools.combinations order).",
            why=(Quote(494, r"(ii) the algorithm starts including the words with higher $\lambda_j\idf_j$ until a "
                            r"threshold is met."),
                 Quote(416, r"\If{$\Empdrop_\candidate \geq \Empdrop_{best}$}:"))),
)
STATEMENT = (
    "Ours (an extension): Prop. 1 is stated for f = Eq. (6), the linear score, which the paper says encapsulates "
    "perceptrons (their decision thresholds it at 0). Its conclusions carry over up to ties to a perceptron's 0/1 "
    "output f(z) = 1{lambda^T phi(z) + lambda_0 > 0}, with xi classified positive (f(xi) = 1), lambda_j v_j strictly "
    "decreasing (Prop. 1's assumption) and eps > 0: (i) no solution of Eq. (2) contains a word of negative "
    "lambda_j v_j, and (ii) up to ties, the top-l* set is a solution of Eq. (2) and, with l_max >= l*, the set FRED "
    "returns is a solution with the same drop."
)
MAX_SYMBOLIC_TOKENS = 3
SEARCH_EXAMPLES = 200
SEARCH_PS = (Fraction(1, 2), Fraction(1, 10), Fraction(9, 10), Fraction(1, 3))
#: The two tie rules among tied candidates of largest drop: FRED's implementation and Algorithm 1 as printed.
RULES = ("implementation", "printed")


def statement_hypotheses(a: Sequence[Fraction], l0: Fraction, p: Fraction, eps: Fraction, table: Sequence,
                         max_len: int | None = None) -> dict:
    """The extension's hypotheses, computed on one case (``table``: the f the case was checked on, code order;
    ``max_len``: FRED's l_max, by default b, every size): f is the perceptron's output 1{Z > 0} of Eq. (6)
    (l.488-489), one word per position with distinct lambda_j v_j (Prop. 1's strict order, l.493), xi classified
    positive (f at code 0, nothing removed, is 1), 0 < p < 1, 0 < eps <= 1 (a 'significant amount', l.255; at
    eps = 0 a word of negative weight can solve Eq. (2)), and l_max >= l* (Eq. (2)'s size, exact; needed for FRED's
    set to be a solution: below l* no candidate FRED tries reaches the threshold)."""
    max_len = len(a) if max_len is None else max_len
    # l* <= b whenever Eq. (2) has a solution, so l_max >= b needs no computation.
    size = None if max_len >= len(a) else exact_explain(table, p, eps, len(a)).size
    return hypotheses(
        perceptron_output=tuple(table) == perceptron_table(tuple(a), l0),
        strictly_ordered_weights=len(set(a)) == len(a),
        classified_positive=table[0] == 1, p_in_open_unit_interval=0 < p < 1, eps_positive=0 < eps <= 1,
        l_max_reaches_l_star=size is None or max_len >= size,
    )


def _grid_domain() -> dict:
    """The hypotheses that hold on the whole grid whatever the point (distinct weights, p and eps in range); the
    scans keep only points with f(xi) = 1 on the perceptron. The record of a scan that finds no counterexample."""
    return hypotheses(strictly_ordered_weights=len(set(GRID_WEIGHTS)) == len(GRID_WEIGHTS),
                      p_in_open_unit_interval=all(0 < p < 1 for p in GRID_PS),
                      eps_positive=all(0 < eps <= 1 for eps in GRID_EPSS))


def _explainer(b: int, table):
    """Fred(sampler='exact') on the black box [1 - f, f] that looks f up in ``table``, and its document w1 .. wb."""
    tokens = [f"w{i + 1}" for i in range(b)]
    clf = table_classifier(tokens, np.array([float(v) for v in table]), n_classes=2)
    return explainer(clf, exact=True), " ".join(tokens)


def _returned(sol) -> dict:
    """The set each tie rule returns among the candidates of largest drop at Eq. (2)'s size (exact drops):
    the implementation's first (analytic.exact_explain: fred's rule on the exact drops) and Algorithm 1 as printed
    (analytic.algorithm1_rule: the last in itertools.combinations order). None when Eq. (2) has no solution."""
    if sol.size is None:
        return {rule: None for rule in RULES}
    return {"implementation": sol.best_ids, "printed": algorithm1_rule(sol.drops, sol.threshold, sol.size)[0]}


def _breaks(pt, rule: str) -> bool:
    """On the perceptron, xi positive, Eq. (2) solvable: the set ``rule`` returns is not the top set."""
    a, l0, p, eps = pt.values
    if step_gt(sum(a) + l0) != 1:
        return False
    choice = _returned(exact_explain(link_table(a, l0, step_gt), p, eps, len(a)))[rule]
    return choice is not None and not is_top_set(a, choice, tol=0)


@exact_cache
def _minimal(rule: str):
    """The first grid point, in increasing order, where ``rule`` breaks (ii), and how many came before it."""
    for scanned, point in enumerate(grid_points()):
        if _breaks(point, rule):
            return point, scanned
    return None, scanned + 1


def _exact(a, l0, p, eps, link=PERCEPTRON, max_len: int | None = None) -> dict:
    """One model through ``link`` (a name of LINKS, or LINEAR): rational drops, Eq. (2)'s solutions and the largest
    drops of their size, the set each tie rule returns, Fred(sampler='exact')'s choice with l_max = ``max_len``
    (default b) and whether it solves Eq. (2), Algorithm 1 transcribed literally (at p = 1/2, where the 2^b patterns
    are equally likely rows) and the hypotheses record."""
    max_len = len(a) if max_len is None else max_len
    head, literal, record, table, drops, solutions = _exact_side(a, l0, p, eps, link, max_len)
    fred_clf, text = _explainer(len(a), table)
    fred = {}
    if eps > 0:  # FRED and Algorithm 1 take eps in (0, 1]
        out = fred_clf.explain(text, label=1, p=float(p), eps=float(eps), max_len=max_len)
        fred = {"fred_best": list(out.best), "fred_found": out.found, "fred_importances": out.importances.tolist(),
                "fred_drop_exact": str(drops[tuple(out.best_ids)]),
                "fred_set_is_a_solution": tuple(out.best_ids) in solutions}
    return {**head, **fred, "algorithm1_literal_best": literal, **record}


@exact_cache(copy=True)
def _exact_side(a, l0, p, eps, link, max_len: int) -> tuple:
    """:func:`_exact` without Fred(sampler='exact'): (the record up to the tie rules' sets, Algorithm 1's literal
    choice, the hypotheses record, f on the patterns, the exact drops, Eq. (2)'s solutions); each call gets its own
    copy."""
    table = link_table(a, l0, {**LINKS, LINEAR: lambda z: z}[link])
    sol = exact_explain(table, p, eps, len(a))
    tokens = [f"w{i + 1}" for i in range(len(a))]
    names = (lambda s: None if s is None else [tokens[i] for i in s])
    top = max((d for s, d in sol.drops.items() if len(s) == sol.size), default=None)
    literal = None
    if eps > 0:  # Algorithm 1 takes eps in (0, 1]
        literal = algorithm1_literal(pattern_rows(len(a)), table, eps, max_len).best if p == Fraction(1, 2) else None
    head = {"document": " ".join(tokens), "position_weights": [str(x) for x in a], "intercept": str(l0),
            "p": str(p), "eps": str(eps), "link": link, "l_max": max_len, "l_star": sol.size,
            "f_by_pattern_code": [str(v) for v in table],
            "mean": str(sol.mean_prediction), "threshold": str(sol.threshold),
            "drops": {" ".join(tokens[i] for i in s): str(d) for s, d in sol.drops.items()},
            "solutions": [names(s) for s in sol.solutions],
            "largest_drop_sets": [names(s) for s in sol.solutions if sol.drops[s] == top],
            "negative_word_in_a_solution": any(a[i] < 0 for s in sol.solutions for i in s),
            "top_weight_set": names(top_positions(a, sol.size or 0)),
            "returned": {rule: names(s) for rule, s in _returned(sol).items()}}
    return (head, names(literal), statement_hypotheses(a, l0, p, eps, table, max_len), table, dict(sol.drops),
            sol.solutions)


#: (weights, intercept, p, eps, link, l_max) for :func:`_exact`: why eps > 0 and l_max >= l* are hypotheses, and why
#: 'the solution' of line 494 is read as the largest drop (the linear score itself has two solutions).
SIDE_CASES = {
    "outside_hypotheses_eps_0": ((Fraction(-1),), Fraction(5), Fraction(1, 2), Fraction(0), PERCEPTRON, 1),
    "outside_hypotheses_l_max_below_l_star": ((Fraction(1), Fraction(1, 2)), Fraction(0), Fraction(1, 2),
                                              Fraction(1), PERCEPTRON, 1),
    "linear_score_eq2_not_unique": ((Fraction(2), Fraction(1)), Fraction(0), Fraction(1, 2), Fraction(3, 20),
                                    LINEAR, 2),
}


@exact_cache(copy=True)
def _swap_identity() -> tuple[bool, dict]:
    """Delta_{S+i} - Delta_{S+j} = (1 - p) sum_R P(R) [g(a_i + R) - g(a_j + R)] for an undefined g (sympy), every S,
    i != j outside S, b <= 3; R runs over the scores lambda_0 + sum of the kept a_k, k outside S, i, j. With j
    'absent' (a_j = 0 and S+j = S) it is the removal of one word."""
    g = sp.Function("g")
    p, l0 = sp.symbols("p lambda0")
    count, bad = 0, []
    for b in range(1, MAX_SYMBOLIC_TOKENS + 1):
        a = sp.symbols(f"a1:{b + 1}")
        _, drops = all_drops_rational([g(z) for z in linear_table_rational(a, l0)], p)
        drops[()] = sp.Integer(0)
        for size in range(b):
            for s in itertools.combinations(range(b), size):
                rest = [k for k in range(b) if k not in s]
                for i, j in itertools.product(rest, [None, *rest]):
                    if i == j:
                        continue
                    others = [k for k in rest if k not in (i, j)]
                    rhs = 0
                    for keep in itertools.product((0, 1), repeat=len(others)):
                        weight = sp.Mul(*[1 - p if kk else p for kk in keep])
                        r = l0 + sum(a[k] for k, kk in zip(others, keep) if kk)
                        rhs += weight * (g(a[i] + r) - (g(r) if j is None else g(a[j] + r)))
                    swapped = s if j is None else tuple(sorted(s + (j,)))
                    residual = drops[tuple(sorted(s + (i,)))] - drops[swapped] - (1 - p) * rhs
                    count += 1
                    if sp.expand(sp.numer(sp.together(residual))) != 0:
                        bad.append([b, list(s), i, j])
    return not bad, {"max_tokens": MAX_SYMBOLIC_TOKENS, "identities": count, "failing": bad}


@exact_cache  # no explainer: the same for every subject
def _grid_models() -> tuple:
    """Every (weights, intercept, p) of the rational grid of proofs_checks.cases.linear_conclusions (b <= 3), once
    each."""
    return tuple(dict.fromkeys((pt.a, GRID_INTERCEPTS[pt.intercept], GRID_PS[pt.p]) for pt in grid_points()))


@exact_cache
def _grid_exact() -> tuple:
    """What :func:`_grid` reads without an explainer, computed once: the ordering violations of every grid model
    and link, and for the perceptron with f(xi) = 1, per model and eps, the hypotheses record, Eq. (2)'s size and
    solutions, the sets the two tie rules return and the exact drops (read-only mappings; None outside the
    statement's hypotheses)."""
    order_bad, runs = [], []
    for a, l0, p in _grid_models():
        scores = linear_table_rational(a, l0)
        for name, link in LINKS.items():
            table = [link(z) for z in scores]
            drops = all_drops_rational(table, p)
            where = {"weights": [str(x) for x in a], "intercept": str(l0), "p": str(p), "link": name}
            order_bad += [MappingProxyType({**where, **v}) for v in order_violations(a, l0, p, name, drops[1])]
            if name != PERCEPTRON or link(sum(a) + l0) != 1:
                continue  # FRED on the perceptron, xi classified positive
            by_set, per_eps = MappingProxyType(drops[1]), []
            for eps in GRID_EPSS:
                record = statement_hypotheses(a, l0, p, eps, table)
                if not record["satisfies_hypotheses"]:
                    per_eps.append((eps, None))
                    continue
                sol = exact_explain(table, p, eps, len(a), drops=drops)
                per_eps.append((eps, (MappingProxyType(record), sol.size, sol.solutions,
                                      MappingProxyType(_returned(sol)), by_set)))
            runs.append((a, l0, p, tuple(table), tuple(per_eps)))
    return tuple(order_bad), tuple(runs)


def _grid() -> dict:
    """One pass over the grid models and links, exact drops computed once per (model, link): the ordering of every
    link (proof step p3); on the perceptron with f(xi) = 1 and every grid eps, the sets the two tie rules return
    against the top set (reading fixed-tie-rule), and (reading up-to-ties) FRED finds a solution iff Eq. (2) has
    one, the top-l* set, FRED's choice and the printed rule's choice are solutions with the same exact drop, and no
    solution contains a word of negative weight (which tied solution FRED returns is not asked: a FRED breaking ties
    the other way keeps the headline)."""
    models = _grid_models()
    order_bad, exact_runs = _grid_exact()
    not_top, failures, outside, runs = {r: [] for r in RULES}, [], 0, 0
    for a, l0, p, table, per_eps in exact_runs:
        exact_fred, text = _explainer(len(a), table)
        for eps, solved in per_eps:
            if solved is None:
                outside += 1  # not a case of the statement: neither evidence for it nor against it
                continue
            record, size, solutions, exact_returned, drops = solved
            fred = exact_fred.explain(text, label=1, p=float(p), eps=float(eps), max_len=len(a))
            runs += 1
            at = {"weights": [str(x) for x in a], "intercept": str(l0), "p": str(p), "link": PERCEPTRON,
                  "eps": str(eps)}
            returned, top = {**exact_returned, "fred": tuple(fred.best_ids) if fred.found else None}, None
            reasons = []
            if size is None:
                reasons += ["FRED found a set although Eq. (2) has none"] if fred.found else []
            else:
                top = top_positions(a, size)
                for rule in RULES:
                    if not is_top_set(a, returned[rule], tol=0):
                        not_top[rule].append({**at, "returned": list(returned[rule]), "top": list(top)})
                reasons += [f"{r} choice is not a solution tied with the top set" for r in ("fred", "printed")
                            if returned[r] not in solutions or drops[returned[r]] != drops[top]]
                reasons += ["the top-l* set is not a solution"] if top not in solutions else []
                reasons += ["a solution contains a word of negative weight"] if any(
                    a[i] < 0 for s in solutions for i in s) else []
            if reasons:
                failures.append({**at, "fails": reasons, "top": top and list(top),
                                 **{r: s and list(s) for r, s in returned.items()}, **copy.deepcopy(dict(record))})
    order_bad = [copy.deepcopy(dict(v)) for v in order_bad]
    grid = {"models": len(models), "max_tokens": 3, "weights": [str(x) for x in GRID_WEIGHTS],
            "intercepts": [str(x) for x in GRID_INTERCEPTS], "ps": [str(x) for x in GRID_PS]}
    common = {**grid, "runs": runs, "link": PERCEPTRON, "eps": [str(e) for e in GRID_EPSS],
              "unit": "(weights, intercept, p, eps) with f(xi) = 1", "runs_outside_hypotheses_skipped": outside}
    return {"order": (not order_bad, {**grid, "links": list(LINKS), "strictly_increasing": list(STRICT),
                                      "violations": order_bad[:5], "n_violations": len(order_bad)}),
            "tie_rules": (not any(not_top.values()),
                          {**common, **{f"{r}_not_top": len(v) for r, v in not_top.items()},
                           "first": {r: v[:3] for r, v in not_top.items()}}),
            "up_to_ties": (not failures, {**common, "failures": failures[:5], "n_failures": len(failures),
                                          "l_max": "b (every size): l_max >= l* on every run",
                                          **{k: _exact(*case) for k, case in SIDE_CASES.items()}})}


@exact_cache(copy=True)
def _search() -> tuple[bool, dict]:
    """Hypothesis looks for a model breaking the ordering of s2 beyond the grid: b <= 4, weights and intercept in
    [-3, 3] with denominators <= 4, any link of LINKS; every case it draws lies inside the ordering's hypotheses
    (:func:`ordering_hypotheses` on the domain, and on the case it returns)."""
    frac = st.fractions(-3, 3, max_denominator=4)
    strategy = st.tuples(st.lists(frac, min_size=1, max_size=4), frac, st.sampled_from(SEARCH_PS),
                         st.sampled_from(sorted(LINKS)))
    found = minimal_counterexample(strategy, lambda t: bool(order_violations(*t)), max_examples=SEARCH_EXAMPLES)
    record = (ordering_hypotheses(SEARCH_PS, list(LINKS)) if found is None
              else ordering_hypotheses([found[2]], [found[3]]))
    return found is None, {"max_examples": SEARCH_EXAMPLES, "max_tokens": 4,
                           "values": "fractions in [-3, 3], denominator <= 4", "ps": [str(p) for p in SEARCH_PS],
                           "links": list(LINKS), **record, "counterexample": None if found is None else
                           {"weights": [str(x) for x in found[0]], "intercept": str(found[1]), "p": str(found[2]),
                            "link": found[3]}}


#: Per tie rule: its step id, the key of the set its literal runner returned, and how it breaks ties.
TIE_RULES = {
    "implementation": ("st1-tie-implementation", "fred_best",
                       "FRED (exact sampler; the implementation keeps the first tied candidate)"),
    "printed": ("st2-tie-printed", "algorithm1_literal_best",
                "Algorithm 1 as printed ('>=' replaces best: the last tied candidate; transcribed literally)"),
}
SMALLER = ("fewer tokens, then earlier in the grid order (weights, intercept, p, eps indices) of "
           "proofs_checks.cases.linear_conclusions; one token cannot violate (ii)")


def tie_rule(rule: str) -> StepResult:
    """st1, st2: the reading fixed-tie-rule under one tie rule: the minimal grid counterexample in exact arithmetic,
    run by the rule's own runner (FRED, or Algorithm 1 transcribed literally), and the same model with its weights
    reversed (the tie stays; the rules swap which of them breaks (ii))."""
    step, runner, how = TIE_RULES[rule]
    point, scanned = _minimal(rule)
    cx = None if point is None else _exact(*point.values)
    if cx is None:
        return CLAIM.checked(step, "statement", "counterexample",
                             f"No grid point breaks (ii) under the {rule} tie rule.", holds=cx is None,
                             reading="fixed-tie-rule",
                             values={**_grid_domain(), "counterexample": None, "smaller_points_checked": scanned})
    a, l0, p, eps = point.values
    other = _exact(tuple(reversed(a)), l0, p, eps)
    confirmed = len(cx["solutions"]) > 1 and cx[runner] == cx["returned"][rule] != cx["top_weight_set"]
    note = (f"Under the {rule} tie rule: {cx['document']}, weights {cx['position_weights']}, lambda_0 = "
            f"{cx['intercept']}, p = {cx['p']}, eps = {cx['eps']} (f on the patterns {cx['f_by_pattern_code']}; "
            f"hypotheses hold: {cx['satisfies_hypotheses']}): exact drops {cx['drops']}, threshold {cx['threshold']}, "
            f"solutions {cx['solutions']}, tied; {how} returns {cx[runner]}, the word of lower weight, not "
            f"{cx['top_weight_set']}. The other rule on the same model returns "
            f"{cx['returned']['printed' if rule == 'implementation' else 'implementation']}; on the mirrored weights "
            f"{other['position_weights']} (top set {other['top_weight_set']}) the implementation returns "
            f"{other['returned']['implementation']} and the printed rule {other['returned']['printed']}. Minimal: "
            f"the first grid point in increasing order that breaks (ii) under this rule, after {scanned} smaller ones.")
    return CLAIM.checked(step, "statement", "counterexample", note, holds=not confirmed, reading="fixed-tie-rule",
                         values={"satisfies_hypotheses": cx["satisfies_hypotheses"], "hypotheses": cx["hypotheses"],
                                 "counterexample": cx, "mirrored": other, "smaller_points_checked": scanned,
                                 "smaller_means": SMALLER})


def _conditions(linear: dict) -> str:
    """The conditions, with the linear score's two solutions (a = (2, 1), lambda_0 = 0, p = 1/2, eps = 3/20)."""
    return (
        "A step link makes drops tie whenever the score stays on one side of the step on the patterns that separate "
        "two words. Eq. (2)'s solution need not be unique even for the linear score of Eq. (6): a = (2, 1), "
        f"lambda_0 = 0, p = 1/2, eps = 3/20 gives the exact drops {linear['drops']} against the threshold "
        f"{linear['threshold']}, so the solutions are {linear['solutions']}; what Prop. 1's strict order makes unique "
        f"is the largest drop at each size (line 1020), here {linear['largest_drop_sets']}. The headline reads (ii) "
        "up to ties of that largest drop: among tied solutions the returned set depends on the enumeration order "
        "and tie rule, which the paper leaves open (get_candidates fixes no order): the implementation keeps the "
        "first tied candidate, Algorithm 1 as printed the last, and each returns the word of lower weight on some "
        "model (reading fixed-tie-rule). eps > 0 and l_max >= l* are hypotheses (st4). The ordering behind the "
        "headline holds for every non-decreasing link (s1-p4); with a strictly increasing one (e.g. the logistic "
        "link, prop1-logistic) the top-l* set is the unique largest drop and every tie rule returns it. "
        "Un-normalised TF-IDF (Definition 1), mask token out of vocabulary, exact drops.")


def check() -> ClaimResult:
    """Minimal tie counterexamples under both tie rules (exact), the swap identity (sympy), the grid, a search."""
    grid = _grid()
    up_ok, up = grid["up_to_ties"]
    steps = (*(tie_rule(rule) for rule in RULES), grid_tie_rules(grid["tie_rules"]),
             grid_up_to_ties(grid["up_to_ties"]), swap_identity(), order(), grid_order(grid["order"]), search())
    return CLAIM.result(kind="extension", statement=STATEMENT,
                        conditions=_conditions(up["linear_score_eq2_not_unique"]),
                        counterexample=None if up_ok else up["failures"][0],  # a failing grid run, with its record
                        steps=steps, source=SOURCE, readings=READINGS)


def grid_tie_rules(ties: tuple[bool, dict]) -> StepResult:
    """st3: on the grid, how often each tie rule returns a set that is not the top-weight set."""
    holds, seen = ties
    return CLAIM.checked(
        "st3-grid-tie-rules", "statement", "exhaustive",
        f"On the rational grid (b <= 3, every weight permutation, intercept, p, eps; xi positive; "
        f"{seen['runs']} runs), the returned set is not the top-weight set in "
        f"{seen['implementation_not_top']} runs under the implementation's rule and "
        f"{seen['printed_not_top']} under the printed rule (all ties: step st4).",
        holds=holds, reading="fixed-tie-rule", values=seen)


def grid_up_to_ties(up_to_ties: tuple[bool, dict]) -> StepResult:
    """st4: the headline on every grid run of the perceptron with f(xi) = 1, and why eps > 0 and l_max >= l* are
    hypotheses."""
    holds, up = up_to_ties
    short = up["outside_hypotheses_l_max_below_l_star"]
    return CLAIM.checked(
        "st4-grid-up-to-ties", "statement", "exhaustive",
        f"On the {up['runs']} grid runs of the perceptron with f(xi) = 1 (all inside the hypotheses), "
        "Fred(sampler='exact') finds a solution iff Eq. (2) has one; the top-l* set is a solution; FRED's "
        "choice and Algorithm 1's printed choice are solutions with the top set's exact drop; no solution "
        "contains a word of negative weight"
        + (f"; failures {up['failures']}" if up["n_failures"] else ".")
        + " Outside the hypotheses, at eps = 0 (a = (-1), lambda_0 = 5: f = 1 everywhere, drop 0 = "
          f"threshold), a word of negative weight solves Eq. (2) "
          f"({up['outside_hypotheses_eps_0']['negative_word_in_a_solution']}): eps > 0 is needed. "
          f"With l_max = {short['l_max']} < l* = {short['l_star']} (a = (1, 1/2), lambda_0 = 0, p = 1/2, "
          f"eps = 1; l_max_reaches_l_star: {short['hypotheses']['l_max_reaches_l_star']}), FRED returns "
          f"{short['fred_best']}, exact drop {short['fred_drop_exact']} against the threshold "
          f"{short['threshold']} (a solution of Eq. (2): {short['fred_set_is_a_solution']}; found = "
          f"{short['fred_found']}): l_max >= l* is needed for FRED's set to be a solution.",
        holds=holds, reading="up-to-ties", values=up)


def swap_identity() -> StepResult:
    """s1: the swap identity for an undefined link g (sympy)."""
    holds, seen = _swap_identity()
    return CLAIM.checked(
        "s1-swap-identity", "proof", "symbolic",
        f"For an undefined link g (sympy), every S and i != j outside S, b <= {MAX_SYMBOLIC_TOKENS}: "
        "Delta_{S+i} - Delta_{S+j} = (1 - p) sum_R P(R) [g(a_i + R) - g(a_j + R)], R = lambda_0 + the kept "
        "weights outside S, i, j; and Delta_{S+i} - Delta_S = (1 - p) sum_R P(R) [g(a_i + R) - g(R)] "
        f"({seen['identities']} identities).", holds=holds, values=seen)


def order() -> StepResult:
    """s2: from s1, the top set has the largest drop at every size for a non-decreasing link; hence (i) and (ii)."""
    return CLAIM.argued(
        "s2-order", "proof",
        "From s1 (the same computation holds for any b: positions outside S, i, j are independent of K_i, K_j): "
        "if g is non-decreasing and a_i >= a_j every bracket is >= 0, so Delta_{S+i} >= Delta_{S+j}; if g is "
        "strictly increasing and a_i > a_j every bracket is > 0 and every P(R) > 0 (0 < p < 1), so the "
        "inequality is strict. Swapping, one at a time, a position of a set for a heavier one outside it turns "
        "any set into the top set of its size without lowering the drop (strictly if g is strictly increasing "
        "and a weight strictly grows): the top set has the largest drop at every size. So l* is the first size "
        "whose top set reaches eps E[f], the top-l* set is a solution, and any rule returning a largest drop "
        "at l* (FRED, when l_max >= l*) returns a set tied with it. (i): with a_i <= 0, Delta_S <= "
        "Delta_{S-i}, so a solution of minimal size with |S| >= 2 has no such i; a singleton of a_i <= 0 has "
        "drop <= 0 < eps E[f] when eps > 0 and E[f] > 0, as for a step with f(xi) = 1 (E[f] >= (1 - p)^b).")


def grid_order(ordering: tuple[bool, dict]) -> StepResult:
    """p3: the ordering of s2 on every grid model and link (exact drops)."""
    holds, seen = ordering
    return CLAIM.checked(
        "p3-grid-order", "proof", "exhaustive",
        f"On all {seen['models']} grid models (b <= 3) and the links {seen['links']} (exact drops): at "
        "every size the top-weight set has the largest drop, and a_i > a_j gives Delta_i >= Delta_j; for the "
        f"strictly increasing links {seen['strictly_increasing']} strictly, and every other set strictly "
        f"below. Violations: {seen['n_violations']}.", holds=holds, values=seen)


def search() -> StepResult:
    """p4: a hypothesis search for a model breaking the ordering of s2 beyond the grid."""
    holds, seen = _search()
    return CLAIM.checked(
        "p4-search", "proof", "counterexample",
        f"A hypothesis search ({SEARCH_EXAMPLES} examples, b <= 4, weights and intercept in [-3, 3] with "
        f"denominators <= 4, p in {{1/2, 1/10, 9/10, 1/3}}, every link; inside the ordering's "
        f"hypotheses: {seen['satisfies_hypotheses']}) finds "
        + ("no counterexample to the ordering of s2." if holds
           else f"a counterexample: {seen['counterexample']}."),
        holds=holds, values=seen)
