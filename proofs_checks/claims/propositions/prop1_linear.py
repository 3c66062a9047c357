"""Proposition 1 (linear models) on f(z) = lambda^T phi(z) + lambda_0 with un-normalised TF-IDF (Definition 1).

How the claim is read. Prop. 1 says "the solution to Eq. (2) is such that (i) words associated with a negative
coefficient do not appear in the optimal candidate, and (ii) the algorithm starts including the words with higher
lambda_j idf_j until a threshold is met" (line 494; idf_j is Definition 1's, printed v_j by the paper's macro, line
53). (ii) speaks of the algorithm; the paraphrase that follows speaks of FRED ("FRED retains only words that
positively impact the prediction", line 497), Figure 2's caption of Algorithm 1 (line 520), and the proof ends with
the largest drop at each fixed size (line 1020). So the headline reading is FRED's choice: the candidate Algorithm 1
returns on exact drops, the largest drop at the minimal size that reaches eps E[f]. It holds (p3 is a written
exchange argument; every computed case holds); Algorithm 1 as printed returns it when that size is <= l_max.

Eq. (2) can have several solutions, and "the solution to Eq. (2)" / "the optimal candidate" (c* of line 255) also
reads as any minimiser; each such reading is reported beside the headline:

* (ii) for every solution: fails exactly where two sets of the minimal size reach the threshold, also for a
  confidence score in [0, 1] with f(xi) > 1/2 at the paper's p = 1/2 and eps = 0.15 (a = (1/2, 1/10), lambda_0 = 0);
* (i) for every solution, the literal subject of (i), depends on a premise the paper states for its section but not
  for Eq. (6). With the section's premise that f outputs a confidence score (lines 449-452; in [0, 1], line 233),
  E[f] >= 0 and (i) holds for every solution. For the real-valued score of Eq. (6), whose sign decides the class
  (line 489), (i) fails exactly when E[f] < 0 < f(xi) and a negative word has (1 - p) lambda_j idf_j >= eps E[f]:
  the threshold eps E[f] is then negative, so that word alone, whose removal raises the prediction, meets it
  (a = (1, -1/100), lambda_0 = -89/100, outputs down to -9/10).

Line 497's own words, "FRED retains only words that positively impact the prediction", exclude a word of zero
weight too: stronger than (i), they are their own reading (fred-choice-positive, st10), which holds.

The proof (lines 1015-1017) uses p as the probability of keeping a token, as the appendix does throughout (line
1016's tag, line 1036), while the main text's p is the probability of perturbing one (lines 334, 404). Read so, its
E[M_j] = p m_j and Delta_c = p sum lambda_j idf_j c_j are right for every p; the one slip in their algebra is
p (m_i - 1) for p (m_i - c_i) (line 1016); read with the main text's p they are right only at p = 1/2. Two typos
are not carried: phi(xi) for phi(x) in line 1012 and E[M_i] for E_c[M_i] in line 1015. The paper-proof steps record
this and decide nothing; the proof steps below are this project's.
"""

from __future__ import annotations

import itertools

import numpy as np

from analytic import (
    algorithm1_rule,
    all_drops_rational,
    exact_explain,
    is_top_set,
    linear_minimal_size,
    linear_table,
    linear_table_rational,
    table_classifier,
)
from analytic.exact_cache import exact_cache
from fred_constants import MAX_LEN

from ...cases.linear_conclusions import EPSS, GRID_WEIGHTS, PS, grid_points, position_weights, reading_summary, run
from ...models.family import cases
from ...subject.explainer import explainer
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult
from . import prop1_proof
from .prop1_cases import (
    beyond_l_max,
    confidence_score_counterexample,
    confidence_score_grid,
    grid_counterexample,
    statement_hypotheses,
    violates,
)
from .prop1_proof import MAX_SYMBOLIC_TOKENS, PROOF_LINES, paper_proof_steps
from .prop1_words import EVERY_SOLUTION_II, FRED_CHOICE, FRED_CHOICE_WORDS, PROPOSITION, SOLUTION_WORDS

CLAIM = Claim("prop1-linear")
#: The section's premise that f is a confidence score (in [0, 1]), and Eq. (6)'s real-valued score with its sign.
CONFIDENCE_SCORE_WORDS = (
    Quote(449, r"For our theoretical analysis, we make two key assumptions about the models we examine."),
    Quote(451, r"We assume, without loss of generality, that the example $\xi$ is classified as positive."),
    Quote(452, r"In other words, the model $\model$ outputs a confidence score for the positive class."),
    Quote(233, r"Note that in the case of a classification problem, $\model$ is a measurable function mapping textual "
               r"inputs to confidence scores for $p$ different classes, \emph{i.e.}, $\mathcal{Y} = [0,1]^p$"),
)
REAL_SCORE_WORDS = (
    Quote(485, r"\model(\doc) = \lambda^\top \tfidf{\doc} + \lambda_0 \,,"),
    Quote(489, r"The decision boundary of the classifier is determined by the hyperplane where the linear combination "
               r"of the TF-IDF vector $\tfidf{\doc}$, as weighted by $\lambda$, along with the intercept $\lambda_0$, "
               r"is greater than zero."),
)
#: The proof's p: the appendix uses it as the keep probability, the main text as the perturbation probability.
P_WORDS = (
    Quote(1015, r"& = \sum_{j=1}^d \lambda_j\idf_j p \mult_j"),
    Quote(1016, r"\tag{since $\Mult_i \sim B(\mult_i-\candidate_i, p)$}"),
    Quote(1017, r"& = p\sum_{\candidate_i \neq 0}\lambda_i\idf_i \candidate_i,"),
    Quote(1036, r"& = \text{const} - \prod_{j \in J}(1 - (1-p)^{\mult_j - \candidate_j}) \\"),
    Quote(334, r"For a given example $\xi$, FRED generates $n$ perturbed samples $x_1, \ldots, x_n$ by independently "
               r"perturbing tokens with probability $p(=0.5)$."),
    Quote(404, r"max\_len $\ell_{max}$, p\_perturb $p$"),
)
SOURCE = PROPOSITION + FRED_CHOICE_WORDS + REAL_SCORE_WORDS + (
    Quote(478, r"Thus, replacing any word with this token is equivalent to simply removing it, from the point of view "
               r"of TF-IDF."),
    Quote(470, r"where $\idf_j \defeq \log{\frac{N + 1}{N_j + 1}} + 1$ is the \emph{inverse document frequency}"),
    Quote(53, r"\newcommand{\idf}{v}"),
    SOLUTION_WORDS[1],
) + CONFIDENCE_SCORE_WORDS + (
    Quote(416, r"\If{$\Empdrop_\candidate \geq \Empdrop_{best}$}:"),
    Quote(420, r"\If{$\Empdrop_{best} \geq \epsilon \widehat{\model(x)}$}:"),
    Quote(402, r"By default, we set $\epsilon=0.15$, $\ell_{max} = 10$, $p=0.5$"),
) + P_WORDS + PROOF_LINES
#: Line 497's own words: FRED keeps only words that *positively* impact the prediction (lambda_j idf_j > 0).
POSITIVE_WORDS = (FRED_CHOICE_WORDS[0],)
READINGS = (
    FRED_CHOICE,
    Reading("fred-choice-positive", "stronger",
            "Line 497's words, 'FRED retains only words that positively impact the prediction': FRED's choice has no "
            "word with lambda_j idf_j <= 0, a word of zero coefficient included. Stronger than (i), which excludes "
            "only negative coefficients; line 497 offers it as Proposition 1 'in simpler terms', so the headline "
            "stays (i) and (ii) as the proposition states them (line 494), and these words get their own verdict.",
            why=POSITIVE_WORDS),
    Reading("every-solution-i", "stronger",
            "(i) for every solution of Eq. (2), for the real-valued score of Eq. (6) whose sign decides the class "
            "(line 489): no minimiser contains a word of negative coefficient; (ii) as in the headline, since it "
            "names 'the algorithm'. This is the literal subject of (i) ('the optimal candidate', c* of line 255), "
            "not a strengthening of its words; it is stronger than the headline in that FRED's choice is one "
            "minimiser among possibly several.", why=SOLUTION_WORDS + REAL_SCORE_WORDS),
    Reading("every-solution-i-confidence-score", "alternative",
            "(i) for every solution of Eq. (2), with the section's premise that f outputs a confidence score for "
            "the positive class, in [0, 1] (lines 449-452, 233): it speaks of every minimiser (more than the "
            "headline) but only of scores in [0, 1] (fewer models than Eq. (6)), so it is neither stronger nor "
            "weaker; (ii) as in the headline.", why=SOLUTION_WORDS + CONFIDENCE_SCORE_WORDS),
    EVERY_SOLUTION_II,
)
STATEMENT = (
    "Proposition 1 (lines 492-494), on the linear classifier of Eq. (6) with un-normalised TF-IDF (Definition 1; "
    "idf_j, printed v_j by the paper's macro, line 53) and mask = removal (line 478): under lambda_1 idf_1 > ... > "
    "lambda_d idf_d, 'the solution to Eq. (2) is such that (i) words associated with a negative coefficient do not "
    "appear in the optimal candidate, and (ii) the algorithm starts including the words with higher lambda_j idf_j "
    "until a threshold is met', for xi classified positive (line 451), i.e. f(xi) > 0 (line 489)."
)
#: The headline's checks on a grid point inside the hypotheses (each counted where it fails).
HEADLINE_CHECKS = ("fred_choice_not_top", "fred_choice_negative", "algorithm1_differs", "fred_exact_differs",
                   "size_not_closed_form")
#: Line 497's check on a grid point inside the hypotheses (FRED's choice has a word of weight <= 0), and what shows
#: the grid reaches the case: a word of weight 0 in the document, and in some solution of Eq. (2).
POSITIVE_CHECKS = ("fred_choice_nonpositive", "zero_weight_word", "some_solution_has_a_zero_weight_word")


def _grid() -> tuple[bool, dict]:
    """Every grid point (b <= 3), exact rationals: each reading inside Prop. 1's hypotheses (the headline's checks
    decide), and, for context, FRED's choice beyond them against the sharp condition. (i) for every solution is
    compared with its sharp condition: E[f] < 0 and some negative word with (1 - p) a_i >= eps E[f]."""
    keys = ("points", "within_hypotheses", *HEADLINE_CHECKS, "fred_choice_negative_outside_sharp_condition",
            "some_solution_not_top", "several_solutions", "not_top_iff_several_fails", "some_solution_negative",
            "some_solution_negative_with_mean_nonnegative", "negative_iff_sharp_condition_fails",
            *POSITIVE_CHECKS)
    counts, failures = dict.fromkeys(keys, 0), []
    for pt, hits, choice in _grid_exact():
        if "within_hypotheses" in hits:
            a, l0, p, eps = pt.values
            tokens = [f"w{i + 1}" for i in range(len(a))]
            fred = explainer(table_classifier(tokens, linear_table([float(x) for x in a], float(l0))),
                             exact=True).explain(" ".join(tokens), p=float(p), eps=float(eps), max_len=len(a))
            hits += ("fred_exact_differs",) * (not fred.found or tuple(fred.best_ids) != choice)
        for h in hits:
            counts[h] += 1
        if set(hits) & set(HEADLINE_CHECKS) and len(failures) < 5:
            failures.append({**pt.describe(), "fails": [h for h in HEADLINE_CHECKS if h in hits]})
    return not any(counts[k] for k in HEADLINE_CHECKS), {**counts, "max_tokens": 3, "failures": failures,
                                                         "weights": [str(x) for x in GRID_WEIGHTS]}


@exact_cache
def _grid_exact() -> tuple:
    """Per grid point (the point, the counts it hits apart from ``fred_exact_differs``, FRED's choice on exact
    rationals): what :func:`_grid` reads without an explainer."""
    out, cache = [], {}
    for pt in grid_points():
        a, l0, p, eps = pt.values
        if (pt.weights, pt.intercept, pt.p) not in cache:  # the drops do not depend on eps
            table = linear_table_rational(a, l0)
            cache = {(pt.weights, pt.intercept, pt.p): (table, all_drops_rational(table, p))}
        table, drops = cache[pt.weights, pt.intercept, pt.p]
        sol = exact_explain(table, p, eps, len(a), drops=drops)
        choice = sol.best_ids if sol.found else ()  # Eq. (2)'s largest-drop solution; none when unsolvable
        negative_choice = any(a[i] < 0 for i in choice)
        hits = ["points"] + ["fred_choice_negative_outside_sharp_condition"] * (
            negative_choice and not (all(x < 0 for x in a) and sol.mean_prediction < 0))
        if statement_hypotheses(a, l0, p, eps, solved=sol)["satisfies_hypotheses"]:
            ordered = sorted(a, reverse=True)
            closed = next((n for n in range(1, len(a) + 1)
                           if (1 - p) * sum(ordered[:n]) >= eps * sol.mean_prediction), None)
            not_top, several, negative = violates("(ii)", a, sol), len(sol.solutions) > 1, violates("(i)", a, sol)
            sharp = sol.mean_prediction < 0 and any(x < 0 and (1 - p) * x >= eps * sol.mean_prediction for x in a)
            hits += ["within_hypotheses"] + [k for k, bad in (
                ("fred_choice_not_top", not is_top_set(a, choice, tol=0)),
                ("fred_choice_negative", negative_choice),
                ("algorithm1_differs", algorithm1_rule(drops[1], sol.threshold, len(a))[0] != choice),
                ("size_not_closed_form", closed != sol.size),
                ("some_solution_not_top", not_top), ("several_solutions", several),
                ("not_top_iff_several_fails", not_top != several), ("some_solution_negative", negative),
                ("some_solution_negative_with_mean_nonnegative", negative and sol.mean_prediction >= 0),
                ("negative_iff_sharp_condition_fails", negative != sharp),
                ("fred_choice_nonpositive", any(a[i] <= 0 for i in choice)), ("zero_weight_word", 0 in a),
                ("some_solution_has_a_zero_weight_word", any(a[i] == 0 for x in sol.solutions for i in x))) if bad]
        out.append((pt, tuple(hits), tuple(choice)))
    return tuple(out)


def _family(verdicts) -> dict:
    """Both readings on the family's Ridge cases inside the hypotheses (f(xi) > 0, distinct lambda_j idf_j; an eps
    with no solution has nothing to check), and FRED's choice beyond f(xi) > 0 against the sharp condition."""
    out = reading_summary(verdicts, lambda v: v.original > 0 and v.strict_order)
    outside = [{**v.describe(x["eps"]), "violates": x["violates"], "f_xi": v.original, "mean": v.mean,
                "all_weights_negative": bool(np.all(position_weights(v.case)[0] < 0))}
               for v in verdicts if v.original <= 0 for x in v.fred_violations]
    sharp = all(o["all_weights_negative"] and o["mean"] < 0 for o in outside if "(i)" in o["violates"])
    return {**out, "unit": "(Ridge model, document, p, eps), f(xi) > 0 and distinct lambda_j idf_j",
            "out_of_scope_f_xi_nonpositive": sum(len(v.solution_checks) for v in verdicts if v.original <= 0),
            "fred_ok": not (out["fred_choice_violations"] or out["top_set_not_best_at_some_size"]
                            or out["fred_choice_not_a_solution"]),
            "outside_f_xi_positive_fred_violations": outside, "outside_violations_meet_the_sharp_condition": sharp}


@exact_cache
def _ridge_sizes() -> tuple:
    """Per Ridge case of the family with f(xi) > 0, the closed form l* (None when no size reaches the threshold)
    at every (p, eps) of PS x EPSS, in that order: what :func:`_minimal_size_on_ridge` reads without an
    explainer."""
    out = []
    for case in cases("ridge-raw"):
        a, _ = position_weights(case)
        f_text = float(case.classifier_fn()([case.text])[0])
        if f_text <= 0:
            continue
        intercept = f_text - float(a.sum())
        out.append((case, tuple((p, eps, linear_minimal_size(a, np.ones(len(a), int), intercept, p, eps, MAX_LEN))
                                for p, eps in itertools.product(PS, EPSS))))
    return tuple(out)


def _minimal_size_on_ridge() -> tuple[bool, dict]:
    """FRED's selected size and set on real Ridge models against the closed form l*."""
    count, wrong = 0, []
    for case, sizes in _ridge_sizes():
        for p, eps, size in sizes:
            exp = explainer(case.tabled_classifier_fn(), exact=True).explain(case.text, p=p, eps=eps,
                                                                             max_len=MAX_LEN)
            count += 1
            if exp.found != (size is not None) or (size is not None and len(exp.best_ids) != size):
                wrong.append({**case.describe(), "p": p, "eps": eps, "closed_form_size": size,
                              "fred_size": len(exp.best_ids), "found": exp.found})
    return not wrong, {"cases": count, "mismatches": wrong}


def _counterexample_note(cx: dict | None, lead: str, tail: str) -> str:
    if cx is None:
        return f"{lead}: no counterexample inside the hypotheses."
    return (f"{lead}: {cx['document']} with weights {cx['position_weights']}, lambda_0 = {cx['intercept']}, p = "
            f"{cx['p']}, eps = {cx['eps']}; f(xi) = {cx['f_xi']} > 0 (hypotheses {cx['hypotheses']}), E[f] = "
            f"{cx['mean']}, threshold {cx['threshold']}, drops of the minimal size {cx['drops_of_minimal_size']} "
            f"(exact rationals), solutions {cx['solutions']}. {tail} FRED's choice {cx['fred_choice_rational']} "
            f"(Algorithm 1 as printed {cx['algorithm1_as_printed']}, Fred(sampler='exact') {cx['fred_exact_best']}) "
            f"is the top-weight set {cx['top_weight_set']}.")


def _search_step(step: str, note: str, found: tuple[dict | None, dict], reading: str, **more) -> StepResult:
    """A search for a counterexample to one reading, inside the hypotheses: evidence 'counterexample' (the case,
    with its hypotheses record, merged into the values, then ``more``) when it found one, 'exhaustive' over the
    points it searched when it found none."""
    cx, search = found
    values = {**search, **more}
    return CLAIM.checked(step, "statement", "exhaustive" if cx is None else "counterexample", note,
                         holds=cx is None, values=values if cx is None else {**cx, **values}, reading=reading)


def _conditions(unit: dict) -> str:
    """The conditions, with the confidence-score grid's counts (step st9)."""
    return (
        "Hypotheses, computed on every case: distinct lambda_j idf_j (line 493; idf_j of Definition 1, line 470, "
        "printed v_j by the paper's macro, line 53), f(xi) > 0 (lines 451, 489), and a solution of Eq. (2) to "
        "speak of. Headline (FRED's choice, lines 494, 497-498, 520, 1020): (i) and (ii) hold for every p in "
        "(0,1) and eps in (0,1] (p3 argued; every computed case holds); Algorithm 1 as printed returns FRED's "
        f"choice when l* <= l_max ({MAX_LEN} by default, line 402), and otherwise stops with the top-l_max set, "
        "which misses the threshold. 'The solution' as any minimiser of Eq. (2): (ii) fails exactly when a "
        "second set of the minimal size reaches the threshold, also for a confidence score in [0, 1] with "
        "f(xi) > 1/2 at the paper's p and eps. (i) for every minimiser is the literal subject of (i) ('the "
        "optimal candidate', c* of line 255), and its verdict depends on a premise the paper states for the "
        "section but Eq. (6) breaks: with f a confidence score in [0, 1] (lines 449-452, 233), E[f] >= 0 and "
        f"(i) holds for every solution (0 of {unit['within_hypotheses']} confidence-score points, "
        f"{unit['with_a_negative_word']} of them with a negative word; p4, p5); for the real-valued score of "
        "Eq. (6), whose sign decides the class (line 489), (i) fails exactly when E[f] < 0 < f(xi) and some "
        "negative word has (1 - p) lambda_j idf_j >= eps E[f] (the threshold eps E[f] is then negative). The "
        "paper is inconsistent there: Eq. (6) with the zero boundary is not a confidence score. The proof "
        "(lines 1015-1017) is right for every p with its p read as the keep probability, the appendix's use "
        "(lines 1016, 1036); the one slip in the algebra of lines 1015-1017 is p (m_i - 1) for p (m_i - c_i) "
        "(line 1016), and the "
        "appendix's p is the main text's 1 - p without saying so (paper-proof steps s1-s4, deciding nothing). Two "
        "typos, computed and not carried: line 1012 writes phi(xi) for phi(x) (off by p sum a_i, s5) and line "
        "1015 the unconditional E[M_i] for E_c[M_i] (the line is then identically 0, s6). Line 497's own words, "
        "'FRED retains only words that positively impact the prediction', stronger than (i) (no word of weight "
        "0 either), hold on the grid, which has a zero weight (st10).")


def check() -> ClaimResult:
    """Prop. 1 on each reading: FRED's choice (headline), every solution of Eq. (2) for (i) (real-valued score and
    confidence score) and for (ii), on rational grids, the family of real Ridge models, and symbolically; plus the
    paper's own proof steps."""
    # (counterexample or None, how the search found it) to (ii), (ii) on a confidence score, and (i)
    ii, ii_unit, i = grid_counterexample("(ii)"), confidence_score_counterexample(), grid_counterexample("(i)")
    (grid_ok, grid), unit = _grid(), confidence_score_grid()
    family = _family(run(cases("ridge-raw")))
    steps = (*paper_proof_steps(CLAIM), kept_multiplicity(), drop_formula(), top_set(), removal(), size_one(),
             fred_choice_grid(grid_ok, grid), fred_choice_family(family), minimal_size(),
             fred_choice_on_the_counterexamples((ii[0], ii_unit[0], i[0])), ii_every_solution(ii, grid),
             ii_every_solution_confidence_score(ii_unit), ii_family_every_solution(family),
             i_every_solution(i, grid, family), i_every_solution_confidence_score(unit), positive_words_only(grid))
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=_conditions(unit[1]), counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)


def kept_multiplicity() -> StepResult:
    """p1: E[M_j | c_j of its occurrences perturbed] = (1 - p)(m_j - c_j), by enumeration (sympy)."""
    holds, seen = prop1_proof.kept_multiplicity()
    return CLAIM.checked(
        "p1-kept-multiplicity", "proof", "symbolic",
        "E[M_j | c_j of its occurrences perturbed] = (1 - p)(m_j - c_j): kept_count_sym enumerates the "
        f"patterns of the other occurrences; sympy checks the closed form for m_j <= 5 and every c_j "
        f"({seen['cases']} cases).", holds=holds, values=seen)


def drop_formula() -> StepResult:
    """p2: Delta_S = (1 - p) sum_{i in S} a_i on the drops enumerated with symbolic a, lambda_0, p (sympy)."""
    holds, seen = prop1_proof.drop_formula()
    return CLAIM.checked(
        "p2-drop-formula", "proof", "symbolic",
        "Delta_S = E[f] - E[f | S perturbed] = (1 - p) sum_{i in S} a_i, a_i = lambda_j idf_j of the word at "
        f"position i (per word: (1 - p) sum_j lambda_j idf_j c_j); the intercept cancels. Sympy on the drops "
        f"enumerated over all 2^b patterns with symbolic a_i, lambda_0, p: all {seen['sets']} sets, "
        f"b <= {MAX_SYMBOLIC_TOKENS}. Any b: the kept indicators are independent Bernoulli(1 - p) (p1).",
        holds=holds, values=seen)


def top_set() -> StepResult:
    """p3: the exchange argument: the top-l set has the largest drop of size l, so FRED's choice is the top-l* set."""
    return CLAIM.argued(
        "p3-top-set", "proof",
        "Since 1 - p > 0, among the sets of a size l the drop (1 - p) sum_{i in S} a_i is largest for the l "
        "positions of largest a_i (exchange: swap a chosen position for an unchosen one of larger weight), "
        "uniquely when the weights are distinct (one word per weight; a word's occurrences are "
        "interchangeable). Hence every solution of Eq. (2) has size l* (the first l where the top-l set "
        "reaches eps E[f]), the top-l* set is one of them, and FRED's choice (the largest drop at size l*, "
        "which Algorithm 1's running maximum returns, lines 416-420) is the top-l* set: (ii) for FRED's "
        "choice. Another solution exists exactly when a second set of size l* reaches the threshold.")


def removal() -> StepResult:
    """p4: Delta_S - Delta_{S minus i} = (1 - p) a_i (sympy), so a negative word is in no solution of size >= 2."""
    holds, seen = prop1_proof.removal()
    return CLAIM.checked(
        "p4-removal", "proof", "symbolic",
        "Delta_S - Delta_{S minus i} = (1 - p) a_i (enumerated drops, every S with |S| >= 2, b <= "
        f"{MAX_SYMBOLIC_TOKENS}, {seen['pairs']} pairs), negative for a_i < 0: removing a "
        "negative word from a set of size >= 2 that reaches the threshold gives a smaller set that still "
        "reaches it, so no solution of size >= 2 contains one.", holds=holds, values=seen)


def size_one() -> StepResult:
    """p5: a negative singleton misses the threshold when E[f] >= 0, and FRED's size-1 choice is not negative."""
    holds, seen = prop1_proof.size_one()
    return CLAIM.checked(
        "p5-size-one", "proof", "symbolic",
        "Size one: (a) a negative singleton has drop (1 - p) a_i < 0 <= eps E[f] when E[f] >= 0 (sympy), so "
        "no solution contains a negative word when E[f] >= 0 (with p4); (b) E[f] - f(xi) = -p sum_i a_i "
        "(enumerated, b <= 3), so if every weight is negative and f(xi) > 0 then E[f] > f(xi) > 0 and no "
        "negative singleton is a solution; otherwise the top weight is >= 0 and FRED's size-1 choice is "
        "not negative. Hence (i) for FRED's choice whenever f(xi) > 0, and for every solution whenever "
        "E[f] >= 0, in particular for every score in [0, 1].", holds=holds, values=seen)


def fred_choice_grid(holds: bool, seen: dict) -> StepResult:
    """st1: FRED's choice on every grid point inside the hypotheses, and Algorithm 1 as printed beyond l_max."""
    beyond = beyond_l_max()
    return CLAIM.checked(
        "st1-fred-choice-grid", "statement", "exhaustive",
        f"All {seen['points']} grid points (b <= 3 distinct weights from {seen['weights']}, 4 intercepts, "
        f"3 p, 4 eps), exact rationals; {seen['within_hypotheses']} satisfy Prop. 1's hypotheses (f(xi) > 0, "
        "a solution exists). There FRED's choice is the top-l* set and has no negative word, Algorithm 1 as "
        "printed (running maximum, lines 416-420; l_max = b >= l* on the grid) returns it, "
        "Fred(sampler='exact') returns it, and l* is the closed form: "
        f"{sum(seen[k] for k in ('fred_choice_not_top', 'fred_choice_negative'))} violations, "
        f"{sum(seen[k] for k in HEADLINE_CHECKS[2:])} disagreements. For context (outside the hypotheses, not "
        "deciding): at f(xi) <= 0, FRED's choice has a negative word only when every weight is negative and "
        f"E[f] < 0 ({seen['fred_choice_negative_outside_sharp_condition']} exceptions); Algorithm 1 as printed "
        f"returns FRED's choice only when l* <= l_max: with {len(beyond['position_weights'])} words of weights "
        f"1 - k/100, lambda_0 = 0, p = {beyond['p']}, eps = {beyond['eps']}, l* = {beyond['minimal_size']} > "
        f"l_max = {beyond['l_max']} (line 402) and it returns {len(beyond['algorithm1_returns'])} words of "
        f"drop "
        f"{beyond['its_drop']} < {beyond['threshold']} (exact; Eq. (2) has no l_max, so this is no "
        "counterexample to Prop. 1).",
        holds=holds, values={**seen, "beyond_l_max": beyond}, reading="fred-choice")


def fred_choice_family(family: dict) -> StepResult:
    """st2: FRED's choice on the family's Ridge cases inside the hypotheses, and beyond f(xi) > 0 for context."""
    sharp = family["outside_violations_meet_the_sharp_condition"]
    return CLAIM.checked(
        "st2-fred-choice-family", "statement", "exhaustive",
        f"On all {family['cases']} {family['unit']} cases of the family: the top-weight set has the largest "
        "exact drop at every size, FRED's exact choice is a solution of Eq. (2) and satisfies (i) and (ii). "
        "For context (outside the hypotheses, not deciding): at f(xi) <= 0 "
        f"({family['out_of_scope_f_xi_nonpositive']} cases) FRED's choice violates (i) in "
        f"{len(family['outside_f_xi_positive_fred_violations'])} case(s)"
        + (", each with every weight negative and E[f] < 0." if sharp else
           ", not all with every weight negative and E[f] < 0."),
        holds=family["fred_ok"], values={k: v for k, v in family.items() if not k.startswith("every")},
        reading="fred-choice")


def minimal_size() -> StepResult:
    """st3: 'until a threshold is met': FRED's selected size on real Ridge models against the closed form l*."""
    holds, seen = _minimal_size_on_ridge()
    return CLAIM.checked(
        "st3-minimal-size", "statement", "exhaustive",
        "'until a threshold is met': FRED's selected size equals l* = min{l : (1-p) (sum of the l largest "
        f"a_i) >= eps ((1-p) sum a_i + lambda_0)}} on {seen['cases']} Ridge cases with f(xi) > 0"
        + (f"; mismatches {seen['mismatches'][:2]}" if seen["mismatches"] else "."),
        holds=holds, values=seen, reading="fred-choice")


def fred_choice_on_the_counterexamples(found: tuple[dict | None, ...]) -> StepResult:
    """st4: on the counterexamples to the every-solution readings, every way of computing FRED's choice agrees on
    the top-weight set."""
    shown = [c for c in found if c is not None]
    keys = ("document", "position_weights", "intercept", "p", "eps", "fred_exact_best", "referee_best",
            "fred_choice_rational", "algorithm1_as_printed", "top_weight_set")
    return CLAIM.checked(
        "st4-fred-choice-on-the-counterexamples", "statement", "exhaustive",
        "On the three counterexamples to the every-solution readings, FRED's choice (rational enumeration), "
        "Algorithm 1 as printed, the float referee and Fred(sampler='exact') agree on the top-weight set, "
        "which has no negative word.",
        holds=bool(shown) and all(c["fred_exact_best"] == c["referee_best"] == c["fred_choice_rational"]
                                  == c["algorithm1_as_printed"] == c["top_weight_set"] for c in shown),
        values={"cases": [{k: c[k] for k in keys} for c in shown]}, reading="fred-choice")


def ii_every_solution(found: tuple[dict | None, dict], grid: dict) -> StepResult:
    """st5: (ii) for every solution: the smallest grid counterexample, and where it fails on the grid."""
    cx = found[0]
    return _search_step(
        "st5-ii-every-solution",
        _counterexample_note(cx, "(ii) for every solution, smallest grid case",
                             f"{cx and cx['solutions_violating_ii']} solve Eq. (2) and are not the top-weight set.")
        + f" On the grid inside the hypotheses, some solution is not the top set at "
          f"{grid['some_solution_not_top']} points, exactly those with several solutions "
          f"({grid['not_top_iff_several_fails']} exceptions).",
        found, "every-solution-ii",
        grid={k: grid[k] for k in ("within_hypotheses", "some_solution_not_top", "several_solutions",
                                   "not_top_iff_several_fails")})


def ii_every_solution_confidence_score(found: tuple[dict | None, dict]) -> StepResult:
    """st6: (ii) for every solution fails for a confidence score too, at the paper's p and eps."""
    cx = found[0]
    return _search_step(
        "st6-ii-every-solution-confidence-score",
        _counterexample_note(cx, "(ii) for every solution also fails for a confidence score: the first case with "
                                 "every output in [0, 1] and f(xi) > 1/2 (positive as a confidence score, lines "
                                 "233, 451-452), at p = 1/2, eps = 0.15",
                             f"{cx and cx['solutions_violating_ii']} solve Eq. (2) and are not the top-weight set "
                             f"(outputs {cx and cx['outputs']}; section premises: "
                             f"{cx and cx['section_premises']})."),
        found, "every-solution-ii")


def ii_family_every_solution(family: dict) -> StepResult:
    """st7: (ii) for every solution on the family's Ridge cases inside the hypotheses."""
    return CLAIM.checked(
        "st7-ii-family-every-solution", "statement", "exhaustive",
        f"Every solution of Eq. (2) on the {family['cases']} family cases inside the hypotheses (p in {PS}, "
        f"eps in {EPSS}): some solution is not the top-weight set in {len(family['every_solution_ii'])} "
        "cases"
        + (", each with several solutions (several words reach the threshold alone at small eps)."
           if family["ii_violations_have_several_solutions"] else ", not all with several solutions."),
        holds=not family["every_solution_ii"],
        values={k: family[k] for k in ("cases", "unit", "every_solution_ii", "ii_violations_have_several_solutions")},
        reading="every-solution-ii")


def i_every_solution(found: tuple[dict | None, dict], grid: dict, family: dict) -> StepResult:
    """st8: (i) for every solution on the real-valued score: the smallest grid counterexample, against the sharp
    condition on the grid and the family."""
    cx = found[0]
    return _search_step(
        "st8-i-every-solution",
        _counterexample_note(cx, "(i) for every solution, smallest grid case",
                             "E[f] < 0 < f(xi): the threshold is negative, so "
                             f"{cx and cx['solutions_violating_i']}, a negative word whose removal raises the "
                             "prediction, solves Eq. (2). The case is a real-valued score of Eq. (6), not a "
                             f"confidence score: outputs {cx and cx['outputs']} (section premises: "
                             f"{cx and cx['section_premises']}).")
        + " (i) fails for a solution exactly when E[f] < 0 < f(xi) and some negative word has (1 - p) "
          "a_i >= eps E[f] (p4, p5: E[f] >= 0 excludes it; at E[f] < 0 < f(xi) some weight is "
          "positive, since f(xi) - E[f] = p sum a_i, so the minimal size is 1): on the "
          f"grid inside the hypotheses a solution has a negative word at {grid['some_solution_negative']} "
          f"points, {grid['some_solution_negative_with_mean_nonnegative']} of them with E[f] >= 0, and "
          f"{grid['negative_iff_sharp_condition_fails']} points where this differs from the condition; in "
          f"the family at {len(family['every_solution_i'])} of {family['cases']} cases"
        + ("." if not family["every_solution_i"] else ", all with E[f] < 0."
           if family["i_violations_have_negative_mean"] else ", not all with E[f] < 0."),
        found, "every-solution-i",
        grid={k: grid[k] for k in ("within_hypotheses", "some_solution_negative",
                                   "some_solution_negative_with_mean_nonnegative",
                                   "negative_iff_sharp_condition_fails")},
        family={k: family[k] for k in ("cases", "every_solution_i", "i_violations_have_negative_mean")})


def i_every_solution_confidence_score(unit: tuple[bool, dict]) -> StepResult:
    """st9: (i) for every solution on every confidence-score model of the grid (outputs in [0, 1])."""
    holds, seen = unit
    return CLAIM.checked(
        "st9-i-every-solution-confidence-score", "statement", "exhaustive",
        f"(i) for every solution when f is a confidence score: all {seen['points']} points of the "
        f"confidence-score models (b <= 3 distinct weights from {seen['weights']}, intercepts "
        f"{seen['intercepts']}, every output in [0, 1]; p in {seen['ps']}, eps in {seen['epss']}), exact "
        "rationals: "
        f"{seen['within_hypotheses']} inside Prop. 1's hypotheses, {seen['positive_as_confidence_score']} "
        f"of them with f(xi) > 1/2 and {seen['with_a_negative_word']} with a word of negative weight; a "
        f"solution has a negative word at {seen['some_solution_negative']} of them. Any b: outputs in "
        "[0, 1] give E[f] >= 0, and then no solution has a negative word (p4, p5 (a)).",
        holds=holds, values=seen, reading="every-solution-i-confidence-score")


def positive_words_only(grid: dict) -> StepResult:
    """st10: line 497, 'FRED retains only words that positively impact the prediction': FRED's choice has no word
    with lambda_j idf_j <= 0, on every grid point inside the hypotheses (the grid's weights include 0)."""
    return CLAIM.checked(
        "st10-positive-words-only", "statement", "exhaustive",
        "Line 497: FRED's choice (the largest exact drop at the minimal size) has no word of weight a_j <= 0, a "
        f"zero weight included: on the {grid['within_hypotheses']} grid points inside Prop. 1's hypotheses (exact "
        f"rationals; weights from {grid['weights']}), it has one at {grid['fred_choice_nonpositive']}. The grid "
        f"reaches the case: {grid['zero_weight_word']} of those points have a word of weight 0, and at "
        f"{grid['some_solution_has_a_zero_weight_word']} a solution of Eq. (2) contains it (E[f] <= 0: its drop "
        "0 meets eps E[f]), but FRED's choice, the largest drop of the minimal size, never does. Any b (p2): a "
        "set of size >= 2 with a word of weight 0 has the drop of the set without it, which then reaches the "
        "threshold at a smaller size; the word alone solves only if E[f] <= 0 < f(xi), and then p sum a_i = "
        "f(xi) - E[f] > 0 (p5) gives a positive word of larger drop, which FRED takes.",
        holds=grid["within_hypotheses"] > 0 and not grid["fred_choice_nonpositive"],
        values={k: grid[k] for k in ("within_hypotheses", "weights", *POSITIVE_CHECKS)},
        reading="fred-choice-positive")
