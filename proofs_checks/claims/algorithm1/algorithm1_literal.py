"""Algorithm 1 as printed against Eq. (2) (exact drops) and Eq. (4) (a sample's drops); beside it, as an
implementation note, against this project's exhaustive search.

The pseudo-code (section 2.4) is transcribed literally in :func:`analytic.algorithm1.algorithm1_literal`: Delta_best
starts at 0 and is never reset across sizes, ``if Delta_c >= Delta_best`` hands a tie to the last candidate
enumerated (``itertools.combinations`` order, an assumption: ``get_candidates`` fixes none), ``if Delta_best >=
eps * fhat: return best`` and a final ``return best`` with no flag. It runs on the 2^b patterns as rows at p = 1/2,
where the plain averages of the pseudo-code are the exact drops of Eq. (1), in ``Fraction`` arithmetic, and on the
rows of Monte Carlo samples, where they are the empirical drops of Eq. (3).

That Algorithm 1 returns a solution of Eq. (2) (Eq. 4 on a sample) is this project's reading of lines 393-402 and
520, not a sentence of the paper. Two readings (:data:`READINGS`), chosen by the quoted words: the headline is a
positive average prediction (a classifier's confidence score, line 233, or any output with a positive mean), where
eps E[f] is a drop "by a significant amount" (line 255) and Algorithm 1 returns a solution whenever one exists; the
alternative is the rest of the paper's stated scope (regression, lines 156, 219), outputs with E[f] <= 0, where the
threshold is no drop and Algorithm 1 and Eq. (2) part ways: a gap in how the paper sets the threshold there.
:func:`statement_hypotheses` computes each reading's hypotheses on a case; every counterexample records them.

Implementation note (ours): each difference from ``Fred(sampler="exact")`` (exhaustive search, ties to the smallest
position tuple and to the smaller size, ``found=False`` when no size reaches the threshold) is classified by its
cause; the algorithm1-beam claim compares that exhaustive search with a beam.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Iterator, Sequence

import numpy as np

from analytic import all_drops_rational, exact_explain, table_classifier
from analytic.algorithm1 import algorithm1_literal, algorithm1_rule, pattern_rows
from analytic.exact_cache import exact_cache
from analytic.patterns import table_b
from fred_constants import EPS_EXACT, MAX_LEN, P_EXACT, P

from ...subject.explainer import explainer
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .grids import SAMPLED_B, SAMPLED_N, SAMPLED_RUNS, SAMPLED_SEED, grid_counts, sampled_counts

CLAIM = Claim("algorithm1-literal")
SOURCE = (
    Quote(255, r"The optimal candidate, denoted as $\candidate^\star$, is determined by minimizing the size of the "
               r"candidate subset while ensuring that it causes the average prediction $\expec{\model(x)}$ to drop by "
               r"a significant amount, \emph{i.e.}, it is such that $\candrop_{\candidate^\star} \geq \epsilon \cdot "
               r"\expec{\model(x)}$"),
    Quote(258, r"\Minimize_{\substack{\candidate \in \candidates}} \size{\candidate} \,, \; \text{subject to} \;\; "
               r"\candrop_\candidate \geq \epsilon \cdot \expec{\model(x)}"),
    Quote(393, r"At this point, the \textbf{minimal influential subset} of tokens is identified by the empirical "
               r"version of Eq.~\eqref{eq:optimal-candiate}:"),
    Quote(396, r"\Minimize_{\substack{\candidate \in \candidates}} \size{\candidate} \,, \; \text{subject to} \;\; "
               r"\Empdrop_\candidate \geq \epsilon \cdot \widehat{\model(x)}"),
    Quote(399, r"Algorithm~\ref{algo:fred} illustrates FRED's mechanism"),
    Quote(402, r"\caption{\label{algo:fred}An overview of FRED's algorithm."),
    Quote(405, r"\State \textbf{initialize} $\Empdrop_{best} = 0$"),
    Quote(416, r"\If{$\Empdrop_\candidate \geq \Empdrop_{best}$}:"),
    Quote(417, r"\State $\Empdrop_{best} = \Empdrop_{\candidate}$, \texttt{best} = $\candidate$"),
    Quote(420, r"\If{$\Empdrop_{best} \geq \epsilon \widehat{\model(x)}$}:"),
    Quote(421, r"\State \textbf{return} \texttt{best}"),
    Quote(520, r"On linear models, Algorithm \ref{algo:fred} includes words having the highest $\lambda_j\idf_j$s "
               r"first. Finally, the minimal candidate satisfying the threshold condition is selected"),
    Quote(225, r"That is, the words, that when jointly removed, cause a substantial decline in the model's prediction "
               r"confidence, exceeding a predefined threshold."),
    Quote(233, r"Note that in the case of a classification problem, $\model$ is a measurable function mapping textual "
               r"inputs to confidence scores for $p$ different classes, \emph{i.e.}, $\mathcal{Y} = [0,1]^p$, and our "
               r"goal then becomes to find the optimal subset of words that, if removed, significantly drops the "
               r"confidence score with respect to the class of interest."),
    Quote(156, r"In this paper, we introduce FRED (Faithful and Robust Explainer for text Documents): a novel "
               r"interpretability framework for text classification and regression tasks."),
    Quote(219, r"This section introduces FRED, our novel explainer designed to provide faithful and robust "
               r"explanations for text classification and regression tasks."),
    Quote(451, r"We assume, without loss of generality, that the example $\xi$ is classified as positive."),
    Quote(1116, r"Finally, we remark that we always consider documents with positive predictions, and we explain the "
                r"positive class."),
)
QUOTED = {q.line: q for q in SOURCE}
READINGS = (
    Reading("positive-mean", "headline",
            "for a model whose average prediction is positive (E[f] on exact drops, its sample mean fhat on a "
            "sample), so that eps times it is a drop 'by a significant amount' (line 255), 'a substantial decline in "
            "the model's prediction confidence' (line 225): the confidence scores in [0, 1] of a classification "
            "problem (line 233), unless f = 0 on every sample, and any regression output with a positive mean",
            why=(QUOTED[255], QUOTED[225], QUOTED[233])),
    Reading("nonpositive-mean", "alternative",
            "the rest of the paper's stated scope, 'classification and regression tasks' (lines 156, 219): a "
            "real-valued output whose average prediction is <= 0, which regression allows. There eps E[f] <= 0 is no "
            "drop: Eq. (2) accepts a candidate whose removal raises f, so neither Eq. (2) nor Algorithm 1 expresses "
            "the 'drop by a significant amount' of line 255, and the paper does not say how the threshold is set for "
            "such outputs. Not a stricter reading of the same words but another scope: whether Algorithm 1 still "
            "returns a solution of Eq. (2) there", why=(QUOTED[156], QUOTED[219])),
)
STATEMENT = (
    "This project's reading (not a sentence of the paper) of lines 393-402 and 520: the minimal influential subset "
    "'is identified by the empirical version of Eq. (2)' (line 393), Eq. (4) (line 396); 'Algorithm 1 illustrates "
    "FRED's mechanism' (line 399), 'An overview of FRED's algorithm' (line 402); on linear models 'the minimal "
    "candidate satisfying the threshold condition is selected' (line 520). Read together: Algorithm 1 as printed "
    "('initialize Delta_best = 0', 'if Delta_c >= Delta_best', 'if Delta_best >= eps fhat: return best', a final "
    "'return best'; lines 405-424) returns a solution of Eq. (4) on its sample's drops whenever one exists of size "
    "<= l_max, and so a solution of Eq. (2), the minimal influential subset (lines 255-258), on exact drops (the "
    "2^b patterns as its samples at p = 1/2). When there is no solution there is nothing right to return, so what "
    "Algorithm 1 returns then is not a failure of the statement."
)
CORRECTED = (
    "On any drops (exact, or a sample's with the candidates no row perturbs skipped), Algorithm 1 as printed "
    "returns, at the first size k with M_k = max(0, largest drop of the sizes <= k) >= eps fhat (else at the end, k = "
    "min(l_max, b)), the last candidate in get_candidates' order (itertools.combinations assumed) whose drop is M_k, "
    "or nothing when no drop reaches 0 (analytic.algorithm1.algorithm1_rule). Hence, when the average prediction is "
    "positive (e.g. class probabilities not all 0), it returns a solution of Eq. (2) (of Eq. (4) on a sample) "
    "whenever one exists: the largest drop of the minimal size, ties to the last candidate; when none exists it "
    "returns, with no flag, the largest drop over all sizes (ties to the later size), or nothing if every drop is "
    "negative. When the average prediction is <= 0 the initial Delta_best = 0 meets the threshold after size 1: it "
    "returns the last singleton of largest non-negative drop, or nothing. Implementation note (ours, not the "
    "paper's): this project's Fred(sampler='exact') differs from it only by ties (the first candidate and the "
    "smaller size instead of the last and the later, with the same drop), found=False instead of no flag, the best "
    "candidate where Algorithm 1 returns nothing, and, when E[f] <= 0, continuing past size 1; a tie changes the "
    "selected words unless the tied positions hold the same words."
)
#: The eps of the family: the paper's default EPS_EXACT (the eps of the minimal examples), then 1/2 and 1; l_max is
#: the paper's default MAX_LEN (>= every b here).
EPSS = (EPS_EXACT, Fraction(1, 2), Fraction(1))

#: The finite family of p1, c1, c2 (:data:`FAMILY`, :func:`family_tables`), each table at every eps of EPSS.
EXHAUSTIVE_VALUES = (Fraction(-1), Fraction(0), Fraction(1, 2), Fraction(1))
GRIDS = {
    "probability {0, 1/2, 1}": (Fraction(0), Fraction(1, 2), Fraction(1)),
    "signed {-1, -1/2, 0, 1/2, 1}": (Fraction(-1), Fraction(-1, 2), Fraction(0), Fraction(1, 2), Fraction(1)),
    "low f(xi) = 0, others {0, 1/2, 1}": (Fraction(0), Fraction(1, 2), Fraction(1)),
}
REPEATED_DOCUMENTS = ("a b a", "a b b a")
RANDOM_TABLES = 60
FAMILY_SEED = 20260301  # defines the family (not a statistical check)
FAMILY = ("752 tables, each at eps = 3/20, 1/2 and 1 (2256 runs; p = 1/2, exact drops): every table on b = 1 and "
          "b = 2 tokens with values in {-1, 0, 1/2, 1} (4^2 + 4^4 = 272); for each of three value grids, "
          "'probability' {0, 1/2, 1}, 'signed' {-1, -1/2, 0, 1/2, 1} and 'low f(xi) = 0' ({0, 1/2, 1} with "
          "f(xi) set to 0), 60 random tables on b = 3 and 60 on b = 4 tokens (360); and 60 random bag-of-words "
          "black boxes (f a function of the kept count of each word, values in {0, 1/2, 1}) on each of the "
          "documents 'a b a' and 'a b b a' (120); random draws from numpy's default_rng(20260301) in this order")

#: Minimal examples: integer tables, fewer tokens first, then smaller max |f|, then earlier in the product order
#: of the values 0, 1, -1, 2, -2, ... over the codes 0 .. 2^b - 1; eps = 3/20, p = 1/2, l_max = 10.
SEARCH_MAX_TOKENS = 2
SEARCH_MAX_VALUE = 4
SMALLER = ("fewer tokens b, then smaller max |f| over integer tables, then earlier in the product order of the "
           "values 0, 1, -1, 2, -2, ... over the pattern codes 0 .. 2^b - 1; the search runs the tables in this order "
           f"(b <= {SEARCH_MAX_TOKENS}, |f| <= {SEARCH_MAX_VALUE}) and keeps the first of each kind; eps = 3/20, "
           f"p = 1/2, l_max = {MAX_LEN}")

#: Kinds of difference between Algorithm 1 as printed and fred's exhaustive search, and what each one means.
DIFFERENCE_KINDS = {
    "threshold_nonpositive": "E[f] <= 0: Delta_best = 0 meets eps E[f] after size 1; fred goes on",
    "none_selected": "E[f] > 0 and every drop negative: Algorithm 1 returns nothing, fred its best (found=False)",
    "tie": "Eq. (2) solvable: same size and drop, the last tied candidate instead of the first",
    "infeasible_tie_within_size": "no solution: same size and drop, the last tied candidate instead of the first",
    "infeasible_tie_across_sizes": "no solution: same drop kept across sizes, the later size instead of the "
                                   "earlier (Delta_best is never reset and >= accepts the tie)",
}


def _fred(tokens, table, eps):
    """fred's exhaustive search with the exact sampler on a black box that looks f up in ``table``."""
    clf = table_classifier(list(tokens), np.array([float(v) for v in table]))
    return explainer(clf, exact=True).explain(" ".join(tokens), p=P, eps=float(eps), max_len=MAX_LEN)


def _kind(mean, drops, sol, lit, best, found) -> str:
    """The cause of a difference between Algorithm 1 as printed (``lit``) and fred's choice (``best``, ``found``)."""
    if lit.best == best:
        return "same" if found else "silent"
    if mean <= 0:
        return "threshold_nonpositive" if lit.returned_at == 1 else "unclassified"
    if lit.best is None:
        return "none_selected" if max(drops.values()) < 0 and not found else "unclassified"
    if drops[lit.best] != drops[best]:
        return "unclassified"
    if sol.size is not None:
        return "tie" if len(lit.best) == len(best) == sol.size else "unclassified"
    return "infeasible_tie_within_size" if len(lit.best) == len(best) else "infeasible_tie_across_sizes"


@exact_cache
def _drops(table: tuple) -> tuple:
    """E[f] and the exact drops of every position set at p = 1/2 (:func:`all_drops_rational`), the drops as a tuple
    of (positions, drop) pairs in its order; computed once per table for every eps and every subject."""
    mean, drops = all_drops_rational(list(table), P_EXACT)
    return mean, tuple(drops.items())


@exact_cache  # no explainer: the same for every subject
def _exact_side(table: tuple, eps: Fraction) -> tuple:
    """What :func:`compare` computes without fred on one table (a tuple of Fractions): E[f], the drops (pairs),
    Eq. (2)'s search outcome (rational), Algorithm 1 as printed, and whether its rule agrees; all immutable."""
    mean, pairs = _drops(table)
    drops = dict(pairs)
    sol = exact_explain(list(table), P_EXACT, eps, MAX_LEN, drops=(mean, drops)).search
    lit = algorithm1_literal(pattern_rows(table_b(table)), list(table), eps, MAX_LEN)
    return mean, pairs, sol, lit, algorithm1_rule(drops, sol.threshold, MAX_LEN) == (lit.best, lit.returned_at)


def compare(tokens: Sequence[str], table: Sequence[Fraction], eps: Fraction) -> dict:
    """Algorithm 1 as printed, its rule, Eq. (2)'s solutions (rational) and fred on one table."""
    mean, pairs, sol, lit, rule_agrees = _exact_side(tuple(table), eps)
    all_drops = dict(pairs)
    fred = _fred(tokens, table, eps)
    best = tuple(fred.best_ids)
    kind = _kind(mean, all_drops, sol, lit, best, fred.found)

    def words(ids):
        return sorted(tokens[i] for i in ids or ())

    return {"tokens": list(tokens), "table": [str(v) for v in table], "eps": str(eps), "mean": str(mean),
            "threshold": str(sol.threshold),
            "drops": {" ".join(tokens[i] for i in c): str(d) for c, d in all_drops.items()},
            "literal": None if lit.best is None else list(lit.best),
            "literal_returned_at": lit.returned_at, "literal_drop": str(lit.best_drop),
            "rule_agrees": rule_agrees,
            "fred": list(best), "fred_found": fred.found, "fred_drop": fred.drop,
            "eq2_size": sol.size, "eq2_solutions": [list(s) for s in sol.solutions],
            "largest_drop_solution": list(sol.best_ids if sol.found else ()),
            "literal_is_solution": lit.best in sol.solutions,
            "literal_has_largest_drop": sol.size is not None and lit.best is not None
            and all_drops[lit.best] == all_drops[sol.best_ids],
            "kind": kind, "words_differ": kind not in ("same", "silent") and words(lit.best) != words(best)}


def _bag_of_words_table(tokens, h: dict) -> list:
    """f on every pattern of a black box that reads only the kept count of each word: f = h(counts)."""
    vocab = sorted(set(tokens))
    return [h[tuple(sum(t == w and not code >> i & 1 for i, t in enumerate(tokens)) for w in vocab)]
            for code in range(2 ** len(tokens))]


def family_tables() -> Iterator[tuple[str, tuple[str, ...], list[Fraction]]]:
    """(label, tokens, table) of the finite family, in a fixed order (seeded by FAMILY_SEED)."""
    rng = np.random.default_rng(FAMILY_SEED)
    for b in (1, 2):
        for values in itertools.product(EXHAUSTIVE_VALUES, repeat=2**b):
            yield "exhaustive", tuple(f"t{i}" for i in range(b)), list(values)
    for name, grid in GRIDS.items():
        for b in (3, 4):
            for _ in range(RANDOM_TABLES):
                table = [grid[k] for k in rng.integers(0, len(grid), 2**b)]
                if name.startswith("low"):
                    table[0] = Fraction(0)
                yield name, tuple(f"t{i}" for i in range(b)), table
    grid = GRIDS["probability {0, 1/2, 1}"]
    for doc in REPEATED_DOCUMENTS:
        tokens = tuple(doc.split())
        vocab = sorted(set(tokens))
        counts = list(itertools.product(*[range(tokens.count(w) + 1) for w in vocab]))
        for _ in range(RANDOM_TABLES):
            h = dict(zip(counts, (grid[k] for k in rng.integers(0, len(grid), len(counts)))))
            yield f"bag of words on '{doc}'", tokens, _bag_of_words_table(tokens, h)


def _family() -> list[dict]:
    return [{"family": label, **compare(tokens, table, eps)} for label, tokens, table in family_tables()
            for eps in EPSS]


def _values_by_size(m: int) -> list[int]:
    return sorted(range(-m, m + 1), key=lambda v: (abs(v), v < 0))


def minimal_examples() -> dict:
    """For the statement and for each kind of difference, the first table in the order SMALLER (eps = 3/20)."""
    wanted = {"statement", *DIFFERENCE_KINDS}
    found: dict = {}
    for b in range(1, SEARCH_MAX_TOKENS + 1):
        tokens = tuple(f"t{i}" for i in range(b))
        for m in range(SEARCH_MAX_VALUE + 1):
            for values in itertools.product(_values_by_size(m), repeat=2**b):
                if max(map(abs, values)) != m:
                    continue
                row = compare(tokens, [Fraction(v) for v in values], EPS_EXACT)
                if row["eq2_size"] is not None and not row["literal_is_solution"]:
                    found.setdefault("statement", row)
                if row["kind"] in wanted:
                    found.setdefault(row["kind"], row)
                if wanted <= set(found):
                    return found
    return found


def _counts(rows, key) -> dict:
    out: dict = {}
    for r in rows:
        out[r[key]] = out.get(r[key], 0) + 1
    return dict(sorted(out.items()))


def statement_hypotheses(table: Sequence[Fraction], eps: Fraction = EPS_EXACT, *,
                         reading: str = "positive-mean") -> dict:
    """The hypotheses of a reading, computed on a table of f over the 2^b patterns (code order): for both, Eq. (2)
    has a solution (the statement is about returning one); for the headline 'positive-mean', E[f] > 0 (eps E[f]
    is a drop, line 255); for the alternative 'nonpositive-mean', f real-valued (a regression output, lines 156,
    219) with E[f] <= 0."""
    mean, drops = all_drops_rational(list(table), P_EXACT)
    solvable = exact_explain(list(table), P_EXACT, eps, MAX_LEN, drops=(mean, drops)).size is not None
    if reading == "positive-mean":
        return hypotheses(mean_positive=mean > 0, eq2_has_solution=solvable)
    return hypotheses(real_valued=all(isinstance(v, (int, Fraction)) for v in table), mean_nonpositive=mean <= 0,
                      eq2_has_solution=solvable)


#: What c2 and c3 are: notes on this project's code, not the paper's claim.
IMPLEMENTATION = "Implementation note (ours: this project's Fred(sampler='exact'), not the paper's): "
CONDITIONS = (
    "Exact drops (the 2^b patterns as samples, p = 1/2) except st4 (Monte Carlo samples); "
    "get_candidates in itertools.combinations order. Headline reading 'positive-mean', chosen by the "
    "words that define the target: 'to drop by a significant amount, i.e., ... >= eps E[f]' (line "
    "255) and 'a substantial decline in the model's prediction confidence, exceeding a predefined "
    "threshold' (line 225) make eps E[f] a drop, which needs E[f] > 0; the section reads f as "
    "confidence scores (line 233), and the analysis and every experiment explain a positive "
    "prediction (lines 451, 1116). There Algorithm 1 returns a solution of Eq. (2), of largest drop, "
    "whenever one exists (st2; on samples, of Eq. (4), st4; argued in p2); a confidence score has "
    "E[f] > 0 unless f = 0 on every sample, where Algorithm 1 still returns a solution. The paper also "
    "claims regression (lines 156, 219): for an output with E[f] <= 0 the threshold eps E[f] <= 0 is "
    "no drop, Eq. (2) accepts removals that raise f, and Algorithm 1's initial Delta_best = 0 meets "
    "the threshold after size 1 (st1, st3; with f(xi) > 0 only for a non-additive score). That is a "
    "gap in how the paper sets the threshold for such outputs, reported as the alternative reading "
    "'nonpositive-mean' (another scope, not a stricter reading of the same words), which fails; it "
    "does not decide the headline. Returning nothing, or an unflagged best, when Eq. (2) has no "
    "solution is no failure: there is nothing right to return. The comparisons with Fred(sampler="
    "'exact') (c2, c3) are implementation notes on this project's code, not the paper's claim."
)


def check() -> ClaimResult:
    """The minimal counterexample of the alternative reading, the exhaustive grid for both readings, the sampled
    runs against Eq. (4), the finite family (the rule), and the implementation notes on fred's exhaustive search."""
    rows = _family()
    examples = minimal_examples()
    grid = grid_counts(EPSS, MAX_LEN)
    steps = (counterexample(examples), grid_positive_mean(grid), grid_nonpositive_mean(grid), sampled_eq4(),
             rule(rows), why(), positive_mean(rows), differences(rows), minimal_kinds(examples))
    # The claim's counterexample is one to its headline reading, which holds; the alternative reading's minimal
    # case, with both hypotheses records, is in step st1's values, as in every claim with readings.
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, corrected=CORRECTED, source=SOURCE, readings=READINGS)


def counterexample(examples: dict) -> StepResult:
    """st1: the minimal table with E[f] <= 0 where Algorithm 1 returns no solution of Eq. (2) while one exists."""
    cx = examples.get("statement")
    cx_table = [Fraction(v) for v in cx["table"]] if cx else None
    cx_confirmed = cx is not None and cx["literal"] is None and cx["fred_found"] and cx["eq2_solutions"]
    record = (statement_hypotheses(cx_table, reading="nonpositive-mean") if cx
              else hypotheses(counterexample_found=False))
    return CLAIM.checked(
        "st1-counterexample", "statement", "counterexample",
        "Minimal counterexample in the alternative scope (a real output with E[f] <= 0, e.g. regression, "
        "lines 156, 219): "
        + (f"b = {len(cx['tokens'])}, f = {cx['table']} on the patterns (code order), eps = 3/20: E[f] = "
           f"{cx['mean']} < 0, so eps E[f] = {cx['threshold']} <= 0 = the initial Delta_best; the drops "
           f"{cx['drops']} are negative, so 'Delta_c >= Delta_best' never holds and Algorithm 1 returns best "
           f"unassigned (None) at size {cx['literal_returned_at']}, while Eq. (2)'s solutions are "
           f"{cx['eq2_solutions']}: a removal that raises f counts as a drop >= eps E[f] < 0, so neither "
           "Eq. (2) nor Algorithm 1 expresses the 'drop by a significant amount' of line 255 here (a gap in "
           "how the paper sets the threshold for such outputs). Outside the headline reading: E[f] < 0 and "
           f"f(xi) < 0 (not a confidence score, not classified positive). Rational arithmetic; minimal: "
           f"{SMALLER}. {IMPLEMENTATION}Fred returns {cx['fred']} (found={cx['fred_found']})."
           if cx else "none found."),
        holds=not cx_confirmed, reading="nonpositive-mean",
        values={**record, "headline_hypotheses": statement_hypotheses(cx_table) if cx else None,
                "counterexample": cx, "smaller_means": SMALLER})


def grid_positive_mean(grid: dict) -> StepResult:
    """st2: on every table of the grid with E[f] > 0 (and with f >= 0) Algorithm 1 returns a solution of Eq. (2),
    of largest drop, whenever one exists."""
    k = grid["by_kind"]
    headline_bad = k["mean > 0"]["not_a_solution"] + k["mean > 0"]["not_largest_drop"] + k["f >= 0"]["not_a_solution"]
    return CLAIM.checked(
        "st2-grid-positive-mean", "statement", "exhaustive",
        f"Every integer table of the grid ({grid['grid']}) at eps in {grid['eps']}, exact drops: on the "
        f"{k['mean > 0']['solvable']} runs with E[f] > 0 where Eq. (2) has a solution, Algorithm 1 as "
        f"printed returns one, of largest drop, in all but {k['mean > 0']['not_a_solution']}; on the "
        f"{k['f >= 0']['solvable']} with f >= 0 (confidence scores scaled, f = 0 everywhere included), "
        f"in all but {k['f >= 0']['not_a_solution']}.",
        holds=headline_bad == 0, reading="positive-mean", values=grid)


def grid_nonpositive_mean(grid: dict) -> StepResult:
    """st3: the same grid with E[f] <= 0: how often Algorithm 1 returns no solution of Eq. (2), by sign of f(xi)
    and for additive scores."""
    k = grid["by_kind"]
    return CLAIM.checked(
        "st3-grid-nonpositive-mean", "statement", "exhaustive",
        f"The same grid, the runs with E[f] <= 0 where Eq. (2) has a solution: Algorithm 1 returns a "
        f"non-solution in {k['E[f] <= 0']['not_a_solution']} of {k['E[f] <= 0']['solvable']}: "
        f"{k['f(xi) <= 0, E[f] <= 0']['not_a_solution']} of {k['f(xi) <= 0, E[f] <= 0']['solvable']} with "
        f"f(xi) <= 0 and {k['f(xi) > 0, E[f] <= 0']['not_a_solution']} of "
        f"{k['f(xi) > 0, E[f] <= 0']['solvable']} with f(xi) > 0 (the first: "
        f"{grid['first_failure_by_kind'].get('f(xi) > 0, E[f] <= 0')}); "
        f"{k['additive, f(xi) > 0, E[f] <= 0']['not_a_solution']} of "
        f"the {k['additive, f(xi) > 0, E[f] <= 0']['solvable']} with an additive score and f(xi) > 0 (Prop. "
        "1's linear model with xi classified positive: if E[f] <= 0 some weight is positive, so a word's drop "
        "is >= 0 >= eps E[f] and size 1 is Eq. (2)'s). Over all the grid's "
        f"{k['mean > 0']['solvable'] + k['E[f] <= 0']['solvable']} solvable runs, every sign of E[f]: "
        f"{k['mean > 0']['not_a_solution'] + k['E[f] <= 0']['not_a_solution']} non-solutions, "
        f"{k['mean > 0']['not_a_solution']} of {k['mean > 0']['solvable']} with E[f] > 0 (st2); by f(xi), "
        f"{k['f(xi) <= 0']['not_a_solution']} of {k['f(xi) <= 0']['solvable']} with f(xi) <= 0 and "
        f"{k['f(xi) > 0']['not_a_solution']} of {k['f(xi) > 0']['solvable']} with f(xi) > 0; "
        f"{k['additive, f(xi) > 0']['not_a_solution']} of the {k['additive, f(xi) > 0']['solvable']} "
        "additive ones with f(xi) > 0.",
        holds=k["E[f] <= 0"]["not_a_solution"] == 0, reading="nonpositive-mean", values=grid)


def sampled_eq4() -> StepResult:
    """st4: on the rows of random samples with fhat > 0, Algorithm 1 returns a solution of Eq. (4), of largest
    drop, whenever one exists."""
    sampled = sampled_counts(EPSS, MAX_LEN)
    s_pos, s_neg = sampled["by_sign_of_fhat"]["fhat > 0"], sampled["by_sign_of_fhat"]["fhat <= 0"]
    return CLAIM.checked(
        "st4-sampled-eq4", "statement", "exhaustive",
        f"On samples, against the empirical Eq. (4) (lines 393, 396): {SAMPLED_RUNS} random integer tables "
        f"(values -2..2) with one Bernoulli(1/2) sample each, for every b in {list(SAMPLED_B)} and n in "
        f"{list(SAMPLED_N)} rows (seed {SAMPLED_SEED}), at eps in {sampled['eps']}: Algorithm 1 as printed on "
        "the sample's rows, Eq. (4) from the sample's drops computed apart (superset sums; "
        f"{sampled['undefined_candidates']} candidates no row perturbs, left undefined). On the "
        f"{s_pos['solvable']} runs with fhat > 0 where Eq. (4) has a solution it returns one, of largest "
        f"drop, in all but {s_pos['not_a_solution'] + s_pos['not_largest_drop']}. (With fhat <= 0, the "
        f"alternative scope: {s_neg['not_a_solution']} non-solutions in {s_neg['solvable']} solvable runs.)",
        holds=s_pos["not_a_solution"] + s_pos["not_largest_drop"] == 0, reading="positive-mean",
        values=sampled)


def _family_values(rows: list[dict]) -> dict:
    """The finite family, as the values of p1 and c2 record it."""
    return {"family": FAMILY, "runs": len(rows), "tables": len(rows) // len(EPSS), "eps": [str(e) for e in EPSS],
            "p": str(P_EXACT), "l_max": MAX_LEN, "runs_by_family": _counts(rows, "family")}


def rule(rows: list[dict]) -> StepResult:
    """p1: the closed-form rule gives Algorithm 1's output on every run of the family."""
    rule_bad = [r for r in rows if not r["rule_agrees"]]
    return CLAIM.checked(
        "p1-rule", "proof", "exhaustive",
        "analytic.algorithm1.algorithm1_rule (closed form from the exact drops) gives Algorithm 1's output "
        f"(candidate and the size that returned it) on all {len(rows)} runs of the family ({FAMILY})"
        + (f"; disagreements {rule_bad[:2]}" if rule_bad else "."),
        holds=not rule_bad, values={**_family_values(rows), "disagreements": rule_bad[:5]})


def why() -> StepResult:
    """p2: why the rule holds, and why it returns a solution when the average prediction is positive (argued)."""
    return CLAIM.argued(
        "p2-why", "proof",
        "Delta_best only grows, from 0: after size k it is M_k = max(0, largest drop of sizes <= k), and since "
        ">= accepts equality every later candidate with drop M_k replaces best, so best is the last one (None "
        "if no drop reached 0). If eps fhat > 0, a size whose largest drop is below it leaves M_k below it, so "
        "the first size that returns is the minimal size l* of Eq. (2) and M_{l*} is its largest drop (larger "
        "than every earlier one): a solution, of largest drop, the last tied candidate. Keeping Delta_best "
        "across sizes therefore changes nothing when a solution exists; without one, the final return gives "
        "the overall largest drop with ties to the later size, or None (not a failure: there is no solution to "
        "return). If eps fhat <= 0, M_1 >= 0 >= eps fhat returns at size 1: a solution when some word's drop "
        "is >= 0 (size 1 is then Eq. (2)'s size), None otherwise. Nothing here uses the drops being exact: on "
        "a sample (Eq. 3), with fhat > 0 and the candidates no row perturbs skipped, as Eq. (4) leaves them "
        "undefined, the same argument gives a solution of Eq. (4) (st4). A confidence score f >= 0 has E[f] > "
        "0 unless f = 0 on every pattern, where every drop is 0 and the last singleton is returned, a "
        "solution.")


def positive_mean(rows: list[dict]) -> StepResult:
    """c1: on the family's runs with E[f] > 0, Algorithm 1 returns a solution of largest drop whenever one
    exists."""
    positive = [r for r in rows if Fraction(r["mean"]) > 0]
    positive_bad = [r for r in positive if r["eq2_size"] is not None
                    and not (r["literal_is_solution"] and r["literal_has_largest_drop"])]
    return CLAIM.checked(
        "c1-positive-mean", "correction", "exhaustive",
        f"On the {len(positive)} runs of the family with E[f] > 0, whenever Eq. (2) has a solution "
        f"({sum(r['eq2_size'] is not None for r in positive)} runs) Algorithm 1 returns one with the largest "
        f"drop of the minimal size (rational)" + (f"; failures {positive_bad[:2]}" if positive_bad else "."),
        holds=not positive_bad, values={"runs_with_positive_mean": len(positive), "failures": positive_bad,
                                        "family": FAMILY})


def differences(rows: list[dict]) -> StepResult:
    """c2: every run of the family where Algorithm 1 as printed and fred's exhaustive search select differently,
    classified by its cause."""
    diff = [r for r in rows if r["kind"] not in ("same", "silent")]
    unclassified = [r for r in diff if r["kind"] == "unclassified"]
    repeated = [r for r in diff if r["family"].startswith("bag")]
    return CLAIM.checked(
        "c2-differences", "correction", "exhaustive",
        IMPLEMENTATION + f"Algorithm 1 as printed against Fred(sampler='exact') on the family: "
        f"{len(diff)} of {len(rows)} runs select differently, by kind {_counts(diff, 'kind')}; "
        f"{len(unclassified)} unexplained. Besides, {sum(r['kind'] == 'silent' for r in rows)} runs select "
        "the same candidate while no size reaches the threshold: fred says found=False, Algorithm 1 nothing. "
        f"The selected words differ in {sum(r['words_differ'] for r in diff)} of the "
        f"{len(diff)} differences (distinct tokens on the tables); on the bag-of-words documents with "
        f"a repeated word ('a b a', 'a b b a'), {len(repeated)} differences of which "
        f"{sum(not r['words_differ'] for r in repeated)} change positions only (ties between occurrences of "
        "the same word).",
        holds=not unclassified,
        values={**_family_values(rows), "differences": len(diff), "by_kind": _counts(diff, "kind"),
                "silent_same_choice": sum(r["kind"] == "silent" for r in rows),
                "words_differ": sum(r["words_differ"] for r in diff),
                "repeated_word_documents": {"differences": len(repeated),
                                            "positions_only": sum(not r["words_differ"] for r in repeated),
                                            "by_kind": _counts(repeated, "kind")},
                "unclassified": unclassified[:5], "kinds": DIFFERENCE_KINDS})


def minimal_kinds(examples: dict) -> StepResult:
    """c3: the smallest table of each kind of difference between Algorithm 1 as printed and fred."""
    kinds_found = {k: examples.get(k) for k in DIFFERENCE_KINDS}
    return CLAIM.checked(
        "c3-minimal-kinds", "correction", "exhaustive",
        IMPLEMENTATION + "the smallest table of each kind of difference (rational drops, fred's choice from "
        "Fred(sampler='exact')): " + "; ".join(
            f"{kind}: " + (f"f = {e['table']}, E[f] = {e['mean']}, Algorithm 1 {e['literal']}, fred "
                           f"{e['fred']} (found={e['fred_found']})" if e else "none")
            for kind, e in kinds_found.items()) + f". Minimal: {SMALLER}.",
        holds=all(e is not None and e["kind"] == k for k, e in kinds_found.items()),
        values={"examples": kinds_found, "smaller_means": SMALLER})
