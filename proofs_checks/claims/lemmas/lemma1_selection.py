"""Selection consistency (ours): from Lemma 1 (every empirical drop converges) to Eq. (4) (the empirical choice).

After Lemma 1 the paper writes "This result motivates using Eq. (1) instead of Eq. (3) in subsequent analysis"
(line 286): a motivation, not a statement about the candidate FRED selects. That the choice made with the empirical
drops (Eq. 4) converges to the exact one (Eq. 2) is this project's corollary. It holds when the exact problem has
positive margins (analytic.selection gives a bound and the n it needs), an assumption of this project: the paper
speaks of "the optimal candidate" (line 255) as if there were one, and nothing in it excludes a drop on the
threshold; the strict orders of Props. 1 and 2 (lines 493, 530) are between words and imply neither (computed on
documents inside their hypotheses). Two stronger readings fail at zero margins: with an exact tie at the top FRED
returns either tied solution (about half the time each, whatever n), and with a drop exactly on the threshold it may
skip to a larger, non-minimal candidate about half the time. The counterexamples' search and exact quantities are
in :mod:`proofs_checks.cases.selection_counterexamples`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from analytic.exact_cache import exact_cache
from analytic.selection import agreement_probability, agreement_sample_size, selection_margins
from fred_constants import DELTA, EPS, EPS_EXACT, MAX_LEN, P_EXACT, P

from ...cases import selection_bound
from ...cases.selection import (
    PAPER_N,
    bound_test,
    margin_cases,
    measure,
    proposition_cases,
    zero_margin_census,
)
from ...cases.selection_bound import TARGET
from ...cases.selection_counterexamples import counterexample, stop_variance, tie_probabilities
from ...statistics.seeds import statistical_seed
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult

CLAIM = Claim("lemma1-selection")
OPTIMUM = Quote(255, r"The optimal candidate, denoted as $\candidate^\star$, is determined by minimizing the size of "
                      r"the candidate subset")
SOURCE = (
    Quote(286, r"This result motivates using Eq.~\eqref{eq:drop-candidate} instead of Eq.~\eqref{eq:empirical-drop} "
               r"in subsequent analysis."),
    Quote(276, r"This definition guarantees that, for a large amount of samples, the empirical drop is a good "
               r"estimate of Eq.~\eqref{eq:drop-candidate}, as expressed by the following:"),
    Quote(393, r"At this point, the \textbf{minimal influential subset} of tokens is identified by the empirical "
               r"version of Eq.~\eqref{eq:optimal-candiate}:"),
    OPTIMUM,
    Quote(258, r"\Minimize_{\substack{\candidate \in \candidates}} \size{\candidate} \,, \;  \text{subject to} \;\; "
               r"\candrop_\candidate \geq \epsilon \cdot \expec{\model(x)}"),
    Quote(473, r"We call a \emph{candidate} explanation $\candidate$ any ordered sublist of words in $\xi$"),
    Quote(493, r"Assume $\lambda_1 \idf_1 > \lambda_2 \idf_2 > \cdots > \lambda_d \idf_d$."),
    Quote(530, r"Let us assume that $\mult_1 < \mult_2 < \ldots < \mult_k$"),
    Quote(405, r"\State \textbf{initialize} $\Empdrop_{best} = 0$"),
    Quote(416, r"\If{$\Empdrop_\candidate \geq \Empdrop_{best}$}:"),
    Quote(421, r"\State \textbf{return} \texttt{best}"),
    Quote(233, r"$\mathcal{Y} = [0,1]^p$"),
    Quote(374, r"these choices imply a sample size of $n \approx 3000$."),
)
READINGS = (
    Reading("margins", "headline",
            "If the exact problem has positive margins (no candidate the search compares with the threshold has a "
            "drop equal to eps E[f]; no rival of the exact choice has its drop), P(Fred(mask, n) returns the exact "
            "choice, positions and found flag) -> 1 as n -> infinity, and is at least "
            "analytic.selection.agreement_bound (written out in the conditions). The paper states no convergence of "
            "the selection (Lemma 1 only 'motivates' the exact drops, line 286), so this reading is this project's "
            "choice of a provable statement, and the positive-margin condition is this project's assumption. The "
            "paper supports only part of it: it speaks of 'the optimal candidate' (line 255) as if there were one, "
            "which suggests no tie at the top without assuming it; no sentence excludes a drop on the threshold. "
            "The strict orders of Props. 1 and 2 (lines 493, 530) are between words and imply neither: repeated "
            "words tie positions and a drop can sit on the threshold inside their hypotheses (computed, st1's "
            "values).",
            why=(Quote(286, r"This result motivates using Eq.~\eqref{eq:drop-candidate} instead of "
                            r"Eq.~\eqref{eq:empirical-drop} in subsequent analysis."),
                 OPTIMUM)),
    Reading("solution", "stronger",
            "For every table, with no margin condition: whenever Eq. (2) has a solution of size <= l_max, "
            "P(the positions FRED returns solve Eq. (2)) -> 1. Algorithm 1 returns 'best' alone (line 421), and any "
            "minimiser of Eq. (2) would do.",
            why=(Quote(393, r"the \textbf{minimal influential subset} of tokens is identified by the empirical "
                            r"version of Eq.~\eqref{eq:optimal-candiate}:"),
                 Quote(421, r"\State \textbf{return} \texttt{best}"))),
    Reading("exact", "stronger",
            "For every table: P(Fred(mask, n) returns exactly Fred(exact)'s positions and found flag) -> 1 (this "
            "report's earlier statement).",
            why=(Quote(276, r"the empirical drop is a good estimate of Eq.~\eqref{eq:drop-candidate}"),)),
)
STATEMENT = (
    "Ours (a corollary; line 286 states only that Lemma 1 'motivates using Eq. (1) instead of Eq. (3) in "
    "subsequent analysis'): the candidate FRED selects with the empirical drops of n mask rows (Eq. 4) converges to "
    "the one it selects with the exact drops (Eq. 2) as n -> infinity, in the sense of each reading below."
)

CONDITIONS = (
    "p in (0, 1), f in [0, 1]; agreement means the same positions and the same found flag. Positive "
    "margins (this project's assumption; see reading 'margins'): no drop equal to eps * E[f] among the "
    "candidates the search compares with it, no rival with the chosen candidate's drop. The bound "
    "(analytic.selection.agreement_bound): P(agree) >= 1 - min(1, 2 e^{-n a_0}) - sum_c min(1, "
    "2 (1 - q_c + q_c e^{-a_c})^n - (1 - q_c)^n) over the candidates c the search compares, q_c = "
    "p^|c|, a_c = max(2 t_c^2 / R_c^2, t_c^2 / (2 sigma_c^2 + 2 M_c t_c / 3)) (Hoeffding, Bernstein; "
    "R_c, sigma_c^2, M_c: range, variance and largest deviation of f given c perturbed; a_0 the same "
    "for hat m), for tolerances with (1 - eps) t_0 + t_c <= eps E[f] - Delta_c below the threshold, "
    "(1 - eps) t_0 + t_S <= Delta_S - eps E[f] and t_S + t_c <= Delta_S - Delta_c for each rival, "
    "the best of a fixed grid of (t_0, t_S) (steps p1-p4); the n it needs grows about like "
    "log(#candidates) / (p^k* margin^2). A tie at the top leaves FRED returning a solution of Eq. (2) "
    "(reading 'solution' survives it); a drop exactly on the threshold does not. A document repeating "
    "a word ties the occurrences' positions (zero margin): the tied positions hold the same word "
    "(computed, s2's census), so the exact choice's words do not depend on the tie; a statement on "
    "counts per word (line 473), with margins only between different count vectors, would bring "
    "those documents into scope, but needs a bound on count vectors that this project does not have, "
    "and is not checked. Fitted trees tie different words (e.g. 'place awful staff', where nothing "
    "reaches the threshold and FRED's fallback choice ties across sizes). The exact counterexamples "
    "are the analytic.selection enumeration of this implementation's Algorithm 1, whose conventions "
    "are: a candidate that no row perturbs (n_c = 0) has no empirical drop and is skipped; each size's "
    "largest drop is compared with the threshold eps hat m directly, which agrees with Algorithm 1's "
    "'>=' against its initial Delta_best = 0 (lines 405, 416) also when hat m = 0 (st1's values); "
    "ties go to the first candidate (Algorithm 1 as printed keeps the last: st1's numbers are the "
    "same by symmetry, and st3's limit does not depend on it, since an exact tie of empirical drops "
    "has probability -> 0 there); when no size reaches the threshold the best over sizes is returned "
    "with found = False, a later size replacing it only when strictly larger (Algorithm 1's '>=' "
    "replaces it on equality, and sets no best when every drop is negative): a difference in the "
    "not-found output only."
)

#: Fred(mask) runs per (case, n).
REPS = 300
SEED = 20260314


@exact_cache(copy=True)  # no explainer: the same for every subject
def _tie_case() -> tuple[bool, dict | None, dict]:
    """Two tokens tie exactly; the table is symmetric under swapping them, so agreement - P(the other token, found)
    = P(the empirical drops tie and reach the threshold), which tends to 0 with P(they tie): the agreement tends to
    1/2. Both tokens solve Eq. (2) with a positive threshold margin, so P(FRED returns a solution) -> 1: the tie
    breaks reading 'exact' only. Also records the zero margins inside Props. 1 and 2's hypotheses."""
    cx, values, table = counterexample("tie")
    values["proposition_cases"] = proposition_cases()
    if cx is None:
        return True, cx, values
    swapped = [table[code] if code in (0, 3) else table[3 - code] for code in range(4)]  # bits 0 and 1 exchanged
    symmetric = swapped == table
    agreement = {n: Fraction(v) for n, v in cx["agreement"].items()}
    excess = {n: a - Fraction(cx["other_choices"][n].get("[1] found=True", "0")) for n, a in agreement.items()}
    ties = {n: tie_probabilities(table, int(n)) for n in agreement}
    # Every row perturbing both tokens gives f = 0 on all rows: every drop and the threshold are 0.
    all_zero = {n: sum((Fraction(1, 4) for code in range(4) if table[code] == 0), Fraction(0)) ** int(n)
                for n in agreement}
    masses = [ties[n][0] for n in agreement]  # in increasing n
    shrinking = all(later < earlier for earlier, later in zip(masses, masses[1:]))
    identity = all(excess[n] == ties[n][1] for n in agreement)
    confirmed = (cx["satisfies_hypotheses"] and cx["exact_found"] and symmetric and shrinking and identity
                 and cx["exact_drops"]["a"] == cx["exact_drops"]["b"] and all(a < Fraction(3, 4)
                                                                            for a in agreement.values()))
    values.update(symmetric_under_swap=symmetric, agreement_minus_other_found={n: str(v) for n, v in excess.items()},
                  P_drops_tie={n: str(t) for n, (t, _) in ties.items()},
                  P_drops_tie_and_reach_threshold={n: str(r) for n, (_, r) in ties.items()},
                  P_drops_tie_float={n: float(t) for n, (t, _) in ties.items()},
                  P_drops_tie_and_reach_threshold_float={n: float(r) for n, (_, r) in ties.items()},
                  excess_equals_tie_and_reach=identity, P_every_row_f_zero={n: str(v) for n, v in all_zero.items()},
                  agreement_if_strict_against_initial_0={n: str(agreement[n] - all_zero[n]) for n in agreement},
                  confirmed=confirmed)
    return not confirmed, cx, values


@exact_cache(copy=True)  # no explainer: the same for every subject
def _threshold_case() -> tuple[bool, dict | None, dict]:
    """One token whose drop equals eps E[f]: agreement = P(1 <= N <= n/2), N ~ Bin(n, 1/2), checked against the
    enumeration for n = 1..40; it is 1/2 - 2^-n for odd n. The returned position agrees whenever N >= 1: only
    the found flag differs."""
    cx, values, table = counterexample("threshold")
    if cx is None:
        return True, cx, values
    closed = {n: sum(Fraction(math.comb(n, k), 2**n) for k in range(1, n // 2 + 1)) for n in range(1, 41)}
    matches = all(agreement_probability(table, n, P_EXACT, EPS_EXACT, MAX_LEN) == closed[n] for n in closed)
    odd = all(closed[n] == Fraction(1, 2) - Fraction(1, 2**n) for n in closed if n % 2)
    positions_closed = all(v == 1 - 2.0**-int(n) for n, v in cx["positions_agree"].items())  # P(N >= 1)
    confirmed = (cx["satisfies_hypotheses"] and matches and odd and cx["exact_drops"]["a"] == cx["threshold"]
                 and all(Fraction(v) < Fraction(3, 4) for v in cx["agreement"].values()))
    values.update(closed_form="sum_{k=1}^{floor(n/2)} C(n, k) / 2^n (= 1/2 - 2^-n for odd n)",
                  closed_form_matches_enumeration_n_1_to_40=matches, odd_n_formula_holds=odd,
                  positions_agree_iff_a_row_perturbs_the_token=positions_closed, confirmed=confirmed)
    return not confirmed, cx, values


@exact_cache(copy=True)  # no explainer: the same for every subject
def _escape_case() -> tuple[bool, dict | None, dict]:
    """Eq. (2)'s only solution S is exactly on the threshold and a larger candidate L is above it: FRED returns S
    only if hat Delta_S >= eps hat m, a statistic with mean 0 and positive delta-method variance, or if L misses the
    threshold too, so P(returns a solution) <= P(that statistic >= 0) + P(hat Delta_L < eps hat m) -> 1/2 + 0
    (central limit theorem; L's margin is positive); otherwise it goes on to L."""
    cx, values, table = counterexample("escape")
    if cx is None:
        return True, cx, values
    variance = stop_variance(table, tuple(cx["exact_choice"]))
    solves = list(cx["returns_a_solution"].values())
    confirmed = (cx["satisfies_hypotheses"] and variance > 0 and all(v < 0.75 for v in solves))
    values.update(stop_statistic_variance=str(variance), confirmed=confirmed)
    return not confirmed, cx, values


# --------------------------------------------------------------------------- the headline: positive margins


def _fitted(seed: int) -> tuple[bool, bool, bool, dict]:
    """Fred(mask) against Fred(exact) on the positive-margin documents at n_paper / 4, n_paper, 4 n_paper and the
    paper's n: does the measured agreement reach the bound (:func:`~proofs_checks.cases.selection.bound_test`)?
    And every run inside the bound's event agreed."""
    chosen = margin_cases()
    jobs = [(case, n) for case in chosen for n in sorted({*case.ns, PAPER_N})]
    rows, events, broken, referee_ok = [], 0, 0, True
    for k, (case, n) in enumerate(jobs):
        m = measure(case, n, REPS, np.random.SeedSequence([seed, 2, k]))
        margins = selection_margins(case.table, P, EPS, MAX_LEN)
        rows.append({**case.describe(), "n": n, "n_paper": case.n_paper, "agree": m.agree, "agreement": m.rate,
                     "bound": m.bound, "margin": margins.margin, "threshold_margin": margins.smallest_threshold_margin,
                     "gap": margins.smallest_gap, "exact_choice": [list(m.exact_choice[0]), m.exact_choice[1]],
                     "events": m.events, "broken": m.broken})
        referee_ok &= m.exact_choice == m.referee_choice
        events += m.events
        broken += m.broken
    holds, conclusive, test = bound_test([r["agree"] for r in rows], [r["bound"] for r in rows], REPS, DELTA)
    for row, status in zip(rows, test["point_status"]):
        row["test"] = status
    # Only confirmed points are evidence for the bound; a rejection anywhere would be evidence against it.
    test["confirmed_points"] = [(r["document"], r["n"]) for r in rows if r["test"] == "confirmed"]
    test["inconclusive_points"] = [(r["document"], r["n"]) for r in rows
                                   if r["test"] in ("undecided", "unconfirmable", "vacuous")]
    needed = {case.name + ": " + case.text: agreement_sample_size(case.table, TARGET, P, EPS, MAX_LEN)
              for case in chosen}
    values = {"runs_per_point": REPS, "false_alarm_probability": DELTA, "seed": seed, "paper_n": PAPER_N,
              "points": rows, **test, "n_for_bound_0_95": needed, "exact_matches_referee": referee_ok,
              "zero_margin_census": zero_margin_census(), "event_runs": events, "event_runs_disagreeing": broken}
    return holds and referee_ok, conclusive, broken == 0 and referee_ok, values


# --------------------------------------------------------------------------- notes


def _fraction_text(value: str) -> str:
    """A rational probability for a note: the fraction when short, always its decimal value."""
    x = float(Fraction(value))
    return f"{value} ({x:.4g})" if len(value) <= 16 else f"{x:.4g}"


def _proposition_text(cases: dict) -> str:
    """Props. 1 and 2's zero margins, from :func:`~proofs_checks.cases.selection.proposition_cases`."""
    one, two = cases["prop1_line_493"], cases["prop2_line_530"]
    return ("Props. 1 and 2's strict orders are between words and do not exclude zero margins: inside Prop. 1's "
            f"hypotheses (line 493; computed: {one['satisfies_hypotheses']}), '{one['document']}' with lambda idf "
            f"{one['word_coefficients']}, intercept {one['intercept']} (f in [13/27, 1], mask = removal) has size-1 "
            f"drops {one['size_1_drops']}, threshold {one['threshold']}: tied at the top {one['tied_at_top']}, on "
            f"the threshold {one['on_threshold']}; inside Prop. 2's (line 530; computed: "
            f"{two['satisfies_hypotheses']}), '{two['document']}' with {two['model']} has size-1 drops "
            f"{two['size_1_drops']}, threshold {two['threshold']}: tied at the top {two['tied_at_top']} (rational). "
            "The tied positions hold one word (computed: "
            f"{one['tied_positions_hold_one_word'] and two['tied_positions_hold_one_word']}), which the analysis "
            "section's candidates, counts per word (line 473), would not separate; the threshold equality would "
            "remain.")


def _tie_note(cx: dict | None, values: dict) -> str:
    if cx is None:
        return "No exact tie on the grid. " + _proposition_text(values["proposition_cases"])
    agreement = {n: _fraction_text(v) for n, v in cx["agreement"].items()}
    ns = ", ".join(agreement)
    return (f"Two tokens of equal weight, f = {cx['f_by_pattern_code']} over the patterns of '{cx['document']}', "
            f"p = 1/2, eps = 3/20: exact drops {cx['exact_drops']} (rational; threshold {cx['threshold']}); "
            f"Fred(exact) returns {cx['exact_choice']} by this implementation's tie rule (the first tied candidate; "
            "Algorithm 1 as printed, '>=' at line 416, keeps the last: the same numbers by the swap symmetry). "
            f"P(Fred(mask, n) returns it) at n = {ns}: {', '.join(agreement.values())} (enumeration of the "
            "multinomial row counts, rational). The table is symmetric under swapping the tokens, so agreement - "
            "P(the other token, found) = P(the empirical drops tie and reach the threshold) = "
            f"{', '.join(f'{v:.5f}' for v in values['P_drops_tie_and_reach_threshold_float'].values())} (both "
            f"enumerated; equal: {values['excess_equals_tie_and_reach']}); P(the empirical drops tie) = "
            f"{', '.join(f'{v:.5f}' for v in values['P_drops_tie_float'].values())}; both tend to 0: the agreement "
            "tends to 1/2. The agreement counts the design in which every row perturbs both tokens (probability "
            f"{', '.join(_fraction_text(v) for v in values['P_every_row_f_zero'].values())}): there f = 0 on every "
            "row, every drop and the threshold are 0, and this implementation returns 'a' with found, as Algorithm "
            "1's '>=' against its initial Delta_best = 0 does (lines 405, 416); compared strictly with that 0 the "
            "agreement would be "
            f"{', '.join(_fraction_text(v) for v in values['agreement_if_strict_against_initial_0'].values())}. "
            "Both tokens solve Eq. (2), and FRED returns one of them with probability "
            f"{', '.join(f'{v:.7f}' for v in cx['returns_a_solution'].values())}, tending to 1: a tie breaks this "
            "reading only, not reading 'solution'. " + _proposition_text(values["proposition_cases"]))


def _threshold_note(cx: dict | None, values: dict) -> str:
    if cx is None:
        return "No drop equal to the threshold on the grid."
    agreement = {n: _fraction_text(v) for n, v in cx["agreement"].items()}
    return (f"One token whose exact drop equals the threshold: f = {cx['f_by_pattern_code']} on '{cx['document']}', "
            f"E[f] = {cx['mean_prediction']}, drop = threshold = {cx['threshold']} (rational). The empirical drop "
            "reaches eps * hat m exactly when at most half the rows perturb the token, so P(agree) = "
            "P(1 <= N <= n/2), N ~ Bin(n, 1/2), = 1/2 - 2^-n for odd n (checked against the enumeration for "
            f"n = 1..40): {', '.join(agreement.values())} at n = {', '.join(agreement)}, tending to 1/2. The other "
            "runs return the same token with found = False: the positions agree with probability "
            f"{', '.join(f'{v:.7f}' for v in cx['positions_agree'].values())} = P(N >= 1) = 1 - 2^-n "
            f"({values['positions_agree_iff_a_row_perturbs_the_token']}). So this reading fails for this "
            "implementation's output (positions and found flag) only: Algorithm 1 as printed returns 'best' alone "
            "(line 421), and its positions agree whenever a row perturbs the token; st3 shows a threshold "
            "equality changing the returned positions.")


def _escape_note(cx: dict | None, values: dict) -> str:
    if cx is None:
        return "No drop on the threshold with a larger candidate above it on the grid."
    solves = {n: f"{v:.4f}" for n, v in cx["returns_a_solution"].items()}
    return (f"f = {cx['f_by_pattern_code']} on '{cx['document']}', p = 1/2, eps = 3/20: exact drops "
            f"{cx['exact_drops']}, threshold {cx['threshold']} (rational). Eq. (2)'s only solution is "
            f"{cx['exact_choice']}, exactly on the threshold; the pair lies above it. FRED returns a solution only "
            "if hat Delta >= eps hat m for that token, a statistic of mean 0 whose delta-method variance is "
            f"{values['stop_statistic_variance']} > 0 (rational), probability -> 1/2 (central limit theorem), or "
            "if the pair misses the threshold too, probability -> 0 (positive margin); otherwise it returns the "
            "pair, a candidate that is not minimal. So P(FRED returns a solution) -> 1/2 at most; it breaks reading "
            f"'exact' too. P(FRED returns a solution) at n = {', '.join(solves)}: {', '.join(solves.values())} "
            f"(enumeration, rational); P(it returns the pair, found): "
            + ", ".join(_fraction_text(cx["other_choices"][n].get("[0, 1] found=True", "0")) for n in solves) + ".")


def _fitted_note(values: dict) -> str:
    rows, counts = values["points"], values["status_counts"]
    confirmed = [r for r in rows if r["test"] == "confirmed"]
    return (f"Fred(mask, n) against Fred(exact) on the first {len({(r['case'], r['document']) for r in rows})} "
            "positive-margin documents of the family's logistic-raw models and of fitted decision trees, at "
            "n = n_L2 / 4, n_L2, 4 n_L2 (n_L2: Lemma 2's n with l_max = min(max_len, b), this implementation's "
            f"default) and at the paper's default n = {values['paper_n']} (l_max = 10, line 374), {REPS} runs each; "
            "agreement (bound): "
            + "; ".join(f"'{r['document']}' ({r['case'].split(' ')[0]}) n={r['n']}: {r['agreement']:.2f} "
                        f"({r['bound']:.3f}, {r['test']})" for r in rows)
            + f". At n_L2 the agreement is as low as {min(r['agreement'] for r in rows if r['n'] == r['n_paper']):.2f}"
              f" where the margins are small; at the paper's n it is at least "
              f"{min(r['agreement'] for r in rows if r['n'] == values['paper_n']):.2f} (measured, not tested). "
              f"P(agree) >= bound, tested at each point (Clopper-Pearson, total false-alarm probability {DELTA}): "
              f"only a point whose bound lies in (0, {values['largest_confirmable_bound']:.3f}], the largest lower "
              f"limit {REPS} runs can give, can be confirmed. The step's evidence is its {counts['confirmed']} "
              "confirmed points ("
            + "; ".join(f"'{r['document']}' n={r['n']}" for r in confirmed)
            + f"); rejected at {counts['rejected']}, undecided at {counts['undecided']}. Inconclusive, not counted: "
              f"{counts['unconfirmable']} points whose bound exceeds {values['largest_confirmable_bound']:.3f} ({REPS} "
              "runs cannot confirm it; only a rejection could have spoken there, and none came) and "
              f"{counts['vacuous']} whose bound is 0 (nothing to test). The bound reaches {TARGET} at n = "
            + ", ".join(str(v) for v in values["n_for_bound_0_95"].values())
            + ". Zero margins on the family: "
            + ", ".join(f"{k}: {v['zero_margin']} of {v['documents']} documents ({v['constant_f']} with f constant, "
                        f"{v['only_repeated_word_ties']} tying only occurrences of a repeated word, {v['other']} "
                        "other)" for k, v in values["zero_margin_census"].items() if k != "tree_tie") + ".")


def check() -> ClaimResult:
    """The headline (positive margins): the bound against exact enumeration and against FRED on fitted models,
    and its proof; the stronger readings: minimal exact counterexamples (a tie, drops on the threshold)."""
    fitted = _fitted(statistical_seed(SEED))
    steps = (bound_below_exact(), fitted_models(fitted), event_implies_agreement(fitted), concentration(), binomial(),
             bound_tends_to_1(), tie(), threshold(), threshold_escape())
    return CLAIM.result(kind="corollary", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)


def bound_below_exact() -> StepResult:
    """s1: analytic.selection.agreement_bound below the exact agreement, by enumeration of the row counts."""
    holds, seen = selection_bound.bound_below_exact()
    return CLAIM.checked(
        "s1-bound-below-exact", "statement", "exhaustive",
        f"analytic.selection.agreement_bound is below the exact agreement (enumeration of the row counts) on "
        f"{len(seen['cases'])} (table, n) cases with positive margins (b = 1 and 2, {seen['non_vacuous']} with a "
        f"non-zero bound), and for b = 1 the exact agreement at the bound's n for {TARGET} reaches {TARGET}"
        + (f"; violations: {seen['violations'][:2]}" if seen["violations"] else "."),
        holds=holds, values=seen, reading="margins")


def fitted_models(fitted: tuple[bool, bool, bool, dict]) -> StepResult:
    """s2: Fred(mask) against Fred(exact) on fitted models, the measured agreement tested against the bound."""
    holds, conclusive, _, seen = fitted
    return CLAIM.checked("s2-fitted-models", "statement", "statistical", _fitted_note(seen), holds=holds,
                         values=seen, conclusive=conclusive, reading="margins")


def event_implies_agreement(fitted: tuple[bool, bool, bool, dict]) -> StepResult:
    """p1: every run of s2 inside the bound's event agreed, and Fred(exact) is the referee's choice."""
    _, _, holds, seen = fitted
    return CLAIM.checked(
        "p1-event-implies-agreement", "proof", "exhaustive",
        "If |hat m - m| < t_0 and every |hat m_c - m_c| < t_c, with a t_0 + t_c <= gamma_c - tol, a t_0 + t_S <= "
        "Delta_S - eps ref and t_S + t_c <= gap_c - tol, every comparison of the search has its exact sign, so FRED "
        f"agrees. Checked on FRED: in all {seen['event_runs']} runs of s2 whose estimates fell inside the bound's "
        f"allocation, {seen['event_runs_disagreeing']} disagreed; and Fred(exact) returns the referee's choice on "
        "every case.", holds=holds, reading="margins",
        values={key: seen[key] for key in ("event_runs", "event_runs_disagreeing", "exact_matches_referee")})


def concentration() -> StepResult:
    """p2: Hoeffding and Bernstein given n_c, and a union bound (argued)."""
    return CLAIM.argued(
        "p2-concentration", "proof",
        "Given n_c = k >= 1, the k rows perturbing c are i.i.d. from f given c perturbed (the rows are i.i.d. and each "
        "is kept or not by its own pattern), so Hoeffding (range R_c) and Bernstein (variance sigma_c^2, |f - m_c| <= "
        "M_c) bound P(|hat m_c - m_c| >= t | n_c = k) by 2 exp(-k a_c); hat m is a mean of n i.i.d. rows. A union "
        "bound over hat m and the candidates the search compares gives P(agree) >= 1 - sum of the failure bounds, for "
        "any allocation fixed before sampling.", reading="margins")


def binomial() -> StepResult:
    """p3: the binomial generating function averages the conditional bound over n_c (sympy)."""
    holds, seen = selection_bound.generating_function()
    return CLAIM.checked(
        "p3-binomial", "proof", "symbolic",
        "Averaging over n_c ~ Bin(n, p^|c|), with n_c = 0 counted as a failure: E[1{n_c = 0} + 1{n_c >= 1} 2 "
        "e^{-a n_c}] = 2 (1 - q + q e^{-a})^n - (1 - q)^n, a polynomial identity in (q, x = e^{-a}) checked by sympy "
        "for n = 1..12 (the binomial theorem for every n).", holds=holds, values=seen, reading="margins")


def bound_tends_to_1() -> StepResult:
    """p4: every term of the bound tends to 0 as n grows (sympy)."""
    holds, seen = selection_bound.bound_limit()
    return CLAIM.checked(
        "p4-bound-tends-to-1", "proof", "symbolic",
        "Every term tends to 0 as n grows (sympy): the rates are positive for t > 0, the base 1 - q (1 - e^{-a}) lies "
        "in [0, 1), and 2 e^{-n a_0} -> 0; so the bound is non-decreasing and tends to 1 when every margin is "
        "positive.", holds=holds, values=seen, reading="margins")


def tie() -> StepResult:
    """st1: an exact tie at the top; the agreement tends to 1/2 (reading 'exact')."""
    return _counterexample_step("st1-tie", _tie_case(), _tie_note, "exact")


def threshold() -> StepResult:
    """st2: a drop exactly on the threshold; the agreement tends to 1/2 (reading 'exact')."""
    return _counterexample_step("st2-threshold", _threshold_case(), _threshold_note, "exact")


def threshold_escape() -> StepResult:
    """st3: the only solution on the threshold, a larger candidate above it (reading 'solution')."""
    return _counterexample_step("st3-threshold-escape", _escape_case(), _escape_note, "solution")


def _counterexample_step(step: str, case: tuple[bool, dict | None, dict], note, reading: str) -> StepResult:
    """A statement step on an exact counterexample ``case`` (holds, counterexample, values), ``note`` its sentence."""
    holds, cx, seen = case
    return CLAIM.checked(step, "statement", "counterexample", note(cx, seen), holds=holds,
                         values={**seen, "counterexample": cx}, reading=reading)
