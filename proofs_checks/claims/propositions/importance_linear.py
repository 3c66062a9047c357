"""What the per-token scores s_i of Eq. (5) converge to on the linear model of Eq. (6): this project's corollary.

The paper defines s_i as the empirical drop of {i} (Eq. 5, line 431; Empdrop is the hat of Eq. (3), line 51), "the
average drop of samples where the i-th token is perturbed" (line 434), and gives no closed form for it. As n grows it
converges in probability to the exact drop Delta_{i} of Eq. (1) (Lemma 1, lines 278-281), which the paper's
analysis uses in its place (line 286) and Fred(sampler='exact') computes. On f = lambda^T phi + lambda_0 with mask =
removal, Delta_{i} = (1 - p) lambda_j idf_j for the word w_j at position i, for every p in (0, 1), p the probability
of perturbing a token (line 334): that is the statement checked here (ours), about the limit, not about the random
score at finite n.

The proof of Prop. 1 writes the drop as p sum_j lambda_j idf_j c_j (line 1017). With its p read as the keep
probability, as the appendix uses p (line 1016's tag, line 1036), that is the corollary at c = {i} for every p (and
line 1016's slip p (m_i - 1) for p (m_i - c_i) is harmless there, c_i = 1). Read with the main text's p it is right
only at p = 1/2: a clash of notation, recorded by the paper-proof steps and deciding nothing.
"""

from __future__ import annotations

import itertools

import numpy as np

from analytic import all_drops_rational, linear_table, linear_table_rational, table_classifier
from analytic.exact_cache import exact_cache

from ...cases.linear_conclusions import GRID_INTERCEPTS, GRID_PS, GRID_WEIGHTS, PS, grid_points, position_weights
from ...models.family import cases
from ...subject.explainer import explainer
from ...verdicts.results import Claim, ClaimResult, Quote, StepResult, hypotheses
from . import prop1_proof
from .prop1_proof import MAX_SYMBOLIC_TOKENS, READINGS_OF_P, reading_residuals

CLAIM = Claim("importance-linear")
SOURCE = (
    Quote(428, r"Therefore, FRED assigns \textbf{importance score} to each token in the example $\xi$ as"),
    Quote(431, r"\forall i \in [b]\,, \quad s_i = \Empdrop_{\{i\}}"),
    Quote(51, r"\newcommand{\Empdrop}{\widehat{\candrop}}"),
    Quote(434, r"In practice, the importance score $s_i$ is the average drop of samples where the $i$-th token is "
               r"perturbed."),
    Quote(281, r"Then, as $n \to \infty$, the empirical drop in prediction $\Empdrop_\candidate$ associated to the "
               r"candidate $\candidate$ converges in probability to"),
    Quote(286, r"This result motivates using Eq.~\eqref{eq:drop-candidate} instead of Eq.~\eqref{eq:empirical-drop} in "
               r"subsequent analysis."),
    Quote(485, r"\model(\doc) = \lambda^\top \tfidf{\doc} + \lambda_0 \,,"),
    Quote(470, r"where $\idf_j \defeq \log{\frac{N + 1}{N_j + 1}} + 1$ is the \emph{inverse document frequency}"),
    Quote(53, r"\newcommand{\idf}{v}"),
    Quote(478, r"Thus, replacing any word with this token is equivalent to simply removing it, from the point of view "
               r"of TF-IDF."),
    Quote(334, r"For a given example $\xi$, FRED generates $n$ perturbed samples $x_1, \ldots, x_n$ by independently "
               r"perturbing tokens with probability $p(=0.5)$."),
    Quote(404, r"max\_len $\ell_{max}$, p\_perturb $p$"),
    Quote(1016, r"\tag{since $\Mult_i \sim B(\mult_i-\candidate_i, p)$}"),
    Quote(1017, r"& = p\sum_{\candidate_i \neq 0}\lambda_i\idf_i \candidate_i,"),
    Quote(1036, r"& = \text{const} - \prod_{j \in J}(1 - (1-p)^{\mult_j - \candidate_j}) \\"),
    Quote(402, r"By default, we set $\epsilon=0.15$, $\ell_{max} = 10$, $p=0.5$"),
)
STATEMENT = (
    "This project's corollary (the paper gives no closed form for s_i), about the exact (limit) value of Eq. (5)'s "
    "empirical score: s_i = hat-Delta_{i} (Eq. 5, line 431) converges in probability to the exact drop Delta_{i} "
    "of Eq. (1) as n -> infinity (Lemma 1, line 281; used in its place, line 286). On the linear model of Eq. (6) "
    "with un-normalised TF-IDF (idf_j of Definition 1, printed v_j by the paper's macro, line 53) and mask = "
    "removal, Delta_{i} = (1 - p) lambda_j idf_j for the word w_j at position i, for every p in (0, 1), p the "
    "perturbation probability (line 334): it does not depend on lambda_0, on the other words or on multiplicities, "
    "and ranks positions by lambda_j idf_j. It is the proof of Prop. 1's drop p sum lambda_i idf_i c_i (line 1017) at "
    "c = {i} for every p when that p is read as the keep probability, as the appendix uses it (lines 1016, 1036); "
    "read with the main text's p it matches only at p = 1/2."
)
CONDITIONS = (
    "Every p in (0, 1), any lambda, lambda_0, any multiplicities (mask = removal, line 478). It is about "
    "Delta_{i}, the n -> infinity limit of the empirical score of Eq. (5) (Lemma 1), which Fred(sampler='exact') "
    "computes, not about the random score at finite n. The limits rank positions as lambda_j idf_j does for every "
    "p, so Prop. 1's ordering is what FRED's scores show on a linear model for large n. The proof's line 1017 at "
    "c = {i} gives the corollary for every p with its p read as the keep probability, as the appendix uses p "
    "(paper-proof s1 holds; line 1016's slip p (m_i - 1) is harmless at c_i = 1); read with the main text's p it "
    "is right only at p = 1/2, a clash of notation (s2, s3; paper-proof steps decide nothing)."
)
SCORE_RTOL = 1e-9


def statement_hypotheses(p) -> dict:
    """The corollary's hypothesis on a case of the linear model (mask = removal by construction): p in (0, 1)."""
    return hypotheses(p_strictly_between_0_and_1=bool(0 < p < 1))


def _ridge_scores() -> tuple[tuple[bool, dict], tuple[bool, dict]]:
    """Fred(sampler='exact') importances against (1 - p) a_i (the corollary) and against the proof's p a_i with the
    main text's p (the perturbation probability) on every Ridge case."""
    count, proof_formula, corollary = 0, [], []
    for case, p in itertools.product(cases("ridge-raw"), PS):
        a, _ = position_weights(case)
        scores = explainer(case.tabled_classifier_fn(), exact=True).explain(case.text, p=p).importances
        count += 1
        if not np.allclose(scores, p * a, rtol=SCORE_RTOL, atol=1e-12):
            proof_formula.append({**case.describe(), "p": p})
        if not np.allclose(scores, (1 - p) * a, rtol=SCORE_RTOL, atol=1e-12):
            corollary.append({**case.describe(), "p": p, "fred": scores.tolist(),
                              "closed_form": ((1 - p) * a).tolist()})
    by_p = {str(p): sum(f["p"] == p for f in proof_formula) for p in PS}
    return ((not corollary, {"cases": count, "unit": "(Ridge model, document, p)", "rtol": SCORE_RTOL,
                             "mismatches": corollary}),
            (not proof_formula, {"cases": count, "unit": "(Ridge model, document, p)", "mismatches_by_p": by_p,
                                 "failing": proof_formula}))


@exact_cache
def _exact_singletons() -> tuple:
    """Per grid model (one eps per model: scores do not depend on eps), whether its exact singleton drops equal
    (1 - p) a_i: (the point, True when they do); the same for every explainer."""
    out = []
    for pt in grid_points():
        if pt.eps:
            continue
        a, l0, p, _ = pt.values
        _, drops = all_drops_rational(linear_table_rational(a, l0), p)
        out.append((pt, [drops[(i,)] for i in range(len(a))] == [(1 - p) * x for x in a]))
    return tuple(out)


def _grid_scores() -> tuple[bool, dict]:
    """Exact singleton drops == (1 - p) a_i on every grid model (b <= 3), and Fred(sampler='exact') equal to them."""
    count, within, exact_bad, fred_bad = 0, 0, [], []
    for pt, exact_ok in _exact_singletons():
        a, l0, p, _ = pt.values
        count += 1
        within += statement_hypotheses(p)["satisfies_hypotheses"]
        want = [(1 - p) * x for x in a]
        if not exact_ok:
            exact_bad.append(pt.describe())
        tokens = [f"w{i + 1}" for i in range(len(a))]
        scores = explainer(table_classifier(tokens, linear_table([float(x) for x in a], float(l0))),
                           exact=True).explain(" ".join(tokens), p=float(p)).importances
        if not np.allclose(scores, [float(x) for x in want], rtol=SCORE_RTOL, atol=1e-12):
            fred_bad.append(pt.describe())
    return not (exact_bad or fred_bad), {"models": count, "within_hypotheses": within, "max_tokens": 3,
                                         "weights": [str(x) for x in GRID_WEIGHTS],
                                         "intercepts": [str(x) for x in GRID_INTERCEPTS],
                                         "ps": [str(x) for x in GRID_PS], "exact_mismatches": exact_bad,
                                         "fred_mismatches": fred_bad}


def _singleton_residuals() -> dict[str, list[str]]:
    """Per reading of the proof's p (:data:`READINGS_OF_P`), the nonzero residuals of the enumerated singleton drops
    against line 1017 at c = {i}, and (key ``"positions"``) how many singletons were compared."""
    singles = {name: [r for _, s, r in reading_residuals(name) if len(s) == 1] for name in READINGS_OF_P}
    return {"positions": len(singles["keep"]), **{name: [str(r) for r in rows if r != 0]
                                                  for name, rows in singles.items()}}


def check() -> ClaimResult:
    """Derive s_i's limit on the linear model symbolically, check FRED's exact scores on grids and real Ridge models,
    and record the proof's p lambda_j idf_j under both readings of its p (paper-proof steps, deciding nothing)."""
    residuals = _singleton_residuals()
    corollary, proof_formula = _ridge_scores()
    steps = (proof_formula_at_a_singleton(residuals), main_text_p_instance(), main_text_p_family(proof_formula),
             singleton_drop(residuals), any_length(), family(corollary), grid())
    return CLAIM.result(kind="corollary", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE)


def proof_formula_at_a_singleton(residuals: dict) -> StepResult:
    """s1: the proof's drop (line 1017) at c = {i} against the enumerated singleton drops, both readings of p."""
    return CLAIM.checked(
        "s1-proof-formula", "paper-proof", "symbolic",
        "The proof's drop (line 1017) at c = {i}, p a_i, against the singleton drop enumerated over every "
        f"pattern (symbolic a, lambda_0, p, b <= {MAX_SYMBOLIC_TOKENS}): with p the keep probability, as the "
        f"appendix uses p (line 1016's tag, line 1036), {len(residuals['keep'])} of {residuals['positions']} "
        "positions differ: right for every p. At c = {i} (c_j = 1) line 1016's p (m_i - 1) equals its tag's "
        "p (m_i - c_i), so the one slip in lines 1015-1017 does not touch the scores. With the main text's p "
        f"(line 334), {len(residuals['perturb'])} differ, residual {residuals['perturb'][:1]}, zero only at "
        "p = 1/2 (steps s2, s3).",
        holds=not residuals["keep"],
        values={"positions": residuals["positions"], "nonzero_residuals_p_as_keep_probability": residuals["keep"],
                "nonzero_residuals_p_as_perturbation_probability": residuals["perturb"]})


def main_text_p_instance() -> StepResult:
    """s2: the smallest one-token instance where the proof's p a_i, read with the main text's p, is wrong."""
    instance = prop1_proof.main_text_p_instance()
    return CLAIM.checked(
        "s2-main-text-p-instance", "paper-proof", "counterexample",
        "The proof's p a_i read with the main text's p, the perturbation probability of Eq. (5)'s samples "
        "(line 334; Algorithm 1's p_perturb, line 404): smallest one-token instance where it is wrong, "
        f"'{instance['document']}' with weight {instance['position_weight_rational']}, p = "
        f"{instance['p_exact']}: the exact score is {instance['exact_drop_rational']} (rational enumeration; "
        f"Fred(sampler='exact') {instance['fred_exact_drop']}), the main-text reading gives "
        f"{instance['main_text_p_drop_rational']}, the keep-probability reading (p = "
        f"{instance['keep_probability']}) gives {instance['keep_probability_drop_rational']}. A clash of "
        "notation (the appendix's p is the main text's 1 - p; prop1-linear step s4), not of the formula.",
        holds=instance["main_text_p_drop_is_exact"], values=instance)


def main_text_p_family(proof_formula: tuple[bool, dict]) -> StepResult:
    """s3: Fred(sampler='exact') importances against the proof's p a_i with the main text's p on the family."""
    holds, seen = proof_formula
    return CLAIM.checked(
        "s3-main-text-p-family", "paper-proof", "exhaustive",
        "Fred(sampler='exact') importances against the proof's p a_i with the main text's p on all "
        f"{seen['cases']} (Ridge model, document, p) cases of the family: mismatches by p "
        f"{seen['mismatches_by_p']}"
        + (" (none at p = 1/2, where p = 1 - p)" if seen["mismatches_by_p"].get("0.5") == 0 else "")
        + "; with the keep probability 1 - p it is step st1.",
        holds=holds, values=seen)


def singleton_drop(residuals: dict) -> StepResult:
    """p1: s_i = Delta_{i} = (1 - p) a_i on the singleton drops enumerated with symbolic a, lambda_0, p (sympy)."""
    return CLAIM.checked(
        "p1-singleton-drop", "proof", "symbolic",
        "s_i = Delta_{i} = (1 - p) a_i, a_i = lambda^T phi(token_i): sympy on the singleton drops enumerated "
        f"over all 2^b patterns with symbolic a, lambda_0, p, every position, b <= {MAX_SYMBOLIC_TOKENS}. It "
        "does not depend on lambda_0, on the other words or on the multiplicity.",
        holds=not residuals["keep"],
        values={"positions": residuals["positions"], "nonzero_residuals": residuals["keep"]})


def any_length() -> StepResult:
    """p2: the singleton drop for any b, by independence of the keep indicators."""
    return CLAIM.argued(
        "p2-any-length", "proof",
        "For any b, f = lambda_0 + a_i K_i + R with R = sum_{k != i} a_k K_k independent of K_i (positions are "
        "perturbed independently): E[f] - E[f | K_i = 0] = a_i E[K_i] + E[R] - E[R | K_i = 0] = (1 - p) a_i.")


def family(corollary: tuple[bool, dict]) -> StepResult:
    """st1: Fred(sampler='exact') importances equal (1 - p) a_i on every Ridge case of the family."""
    holds, seen = corollary
    return CLAIM.checked(
        "st1-family", "statement", "exhaustive",
        f"Fred(sampler='exact') importances equal (1 - p) a_i to rtol {SCORE_RTOL} on all "
        f"{seen['cases']} (Ridge model, document, p) cases of the family, p in {PS}"
        + (f"; mismatches {seen['mismatches'][:2]}" if seen["mismatches"] else "."),
        holds=holds, values=seen)


def grid() -> StepResult:
    """st2: exact singleton drops and Fred(sampler='exact') equal (1 - p) a_i on every rational grid model."""
    holds, seen = _grid_scores()
    return CLAIM.checked(
        "st2-grid", "statement", "exhaustive",
        f"On all {seen['models']} rational grid models (b <= 3, weights {seen['weights']}, "
        f"intercepts {seen['intercepts']}, p in {seen['ps']}; "
        f"{seen['within_hypotheses']} with p in (0, 1)): the exact singleton drops equal (1 - p) a_i "
        "in rationals, and Fred(sampler='exact') returns them.", holds=holds, values=seen)
