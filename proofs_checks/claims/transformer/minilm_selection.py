"""Selection consistency on a transformer: Fred(mask, n) agrees with Fred(exact) on this project's MiniLM classifier.

An instance check of this project's corollary ``lemma1-selection`` (its headline: positive margins imply P(agree) >=
analytic.selection's bound, which tends to 1), not of a statement of the paper: the paper states no convergence of
the selection (line 286 calls Lemma 1 a motivation), and never runs MiniLM (its transformers are RoBERTa and
DistilBERT, line 549). The model has no closed form; its exact tables on 4 short Restaurants test reviews are
enumerated (:mod:`proofs_checks.claims.transformer.neural_cases`). A continuous model makes exact ties improbable,
so the margins are expected positive; they are computed, not assumed.
"""

from __future__ import annotations

from analytic.selection import agreement_bound, agreement_sample_size, selection_margins
from fred_constants import DELTA, EPS, MAX_LEN, P

from ...cases.selection import SelectionCase, bound_test, measure
from ...cases.selection_bound import TARGET
from ...statistics.seeds import statistical_seed
from ...verdicts.results import Claim, ClaimResult, Quote, StepResult
from .neural_cases import minilm_setting, not_run_note

CLAIM = Claim("minilm-selection")
SOURCE = (
    Quote(549, r"Additionally, we applied pre-trained RoBERTa \citep{liu2019roberta} and DistilBERT "
               r"\citep{sanh2019distilbert} models."),
    Quote(286, r"This result motivates using Eq.~\eqref{eq:drop-candidate} instead of Eq.~\eqref{eq:empirical-drop} "
               r"in subsequent analysis."),
    Quote(402, r"By default, we set $\epsilon=0.15$, $\ell_{max} = 10$, $p=0.5$, and compute the sample size $n$ "
               r"according to Lemma \ref{lemma:n-sample}."),
)
STATEMENT = (
    "Ours (an instance of this project's corollary lemma1-selection, reading 'margins', on this project's model): "
    "the paper never runs MiniLM (its transformers are RoBERTa and DistilBERT, line 549) and states no convergence "
    "of the selection (line 286). On 4 short Restaurants reviews and the MiniLM sentence-encoder classifier, the "
    "exact problems have positive margins, and P(Fred(mask, n) returns Fred(exact)'s positions and found flag) is at "
    "least analytic.selection.agreement_bound, which tends to 1 as n grows."
)
#: Fred(mask) runs per (document, n).
REPS = 200
SEED = 20261127


CONDITIONS = (
    f"p = {P}, eps = {EPS}, max_len = {MAX_LEN} (the paper's defaults, line 402); this project's MiniLM classifier "
    "(fred.evaluation.neural: all-MiniLM-L6-v2 embeddings, logistic head fitted on the Restaurants training split), "
    "4 test reviews of 5 to 8 tokens (exact tables; FRED reads the model's own values from them by mask pattern). "
    "n_L2 is Lemma 2's n with l_max = min(max_len, b), this implementation's default; the paper's stated default is "
    "n = 3067 (l_max = 10). The bound is a union of Hoeffding/Bernstein bounds (lemma1-selection), so the measured "
    "agreement may lie far above it."
)


def check() -> ClaimResult:
    """The margins of the exact problems, then FRED's agreement against the bound."""
    setting, why = minilm_setting()
    if setting is None:
        # Statement steps only: with no proof step the verdict is 'unproved', never 'extends (argued)'.
        steps = (CLAIM.argued("s1-positive-margins", "statement", not_run_note(why)),
                 CLAIM.argued("s2-agreement-above-bound", "statement", not_run_note(why)))
    else:
        cases = [SelectionCase(f"minilm test review {c.test_index}", c.tokens, c.table) for c in setting.cases]
        agreement = _agreement(cases, statistical_seed(SEED))
        steps = (positive_margins(cases), agreement_above_bound(agreement), event_implies_agreement(agreement),
                 bound_proof_transfers())
    return CLAIM.result(kind="extension", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE)


def positive_margins(cases) -> StepResult:
    """s1: the margins of every document's exact problem, and the n at which the bound reaches 0.95."""
    docs = []
    for case in cases:
        m = selection_margins(case.table, P, EPS, MAX_LEN)
        docs.append({**case.describe(), "margin": m.margin, "threshold_margin": m.smallest_threshold_margin,
                     "gap": m.smallest_gap, "selection": list(m.best_ids), "found": m.found,
                     "n_for_bound_0_95": agreement_sample_size(case.table, TARGET, P, EPS, MAX_LEN)
                     if m.margin > 0 else None})
    return CLAIM.checked(
        "s1-positive-margins", "statement", "exhaustive",
        f"Every one of these {len(docs)} documents' exact problems has a positive margin (smallest "
        f"{min(d['margin'] for d in docs):.2e}): no candidate's drop equals the threshold and no rival ties the "
        "chosen candidate. The bound reaches 0.95 at n = " + ", ".join(str(d["n_for_bound_0_95"]) for d in docs) + ".",
        holds=bool(docs) and all(d["margin"] > 0 for d in docs), values={"documents": docs})


def agreement_above_bound(agreement: tuple[bool, bool, bool, dict]) -> StepResult:
    """s2: the measured agreement against the bound at each point (Clopper-Pearson)."""
    holds, conclusive, _, seen = agreement
    counts = seen["status_counts"]
    return CLAIM.checked(
        "s2-agreement-above-bound", "statement", "statistical",
        f"Agreement of Fred(mask, n) with Fred(exact), {REPS} runs per point, at n_L2 / 4, n_L2 and 4 n_L2 (bound in "
        f"brackets): {_table(seen)}. P(agree) >= bound, tested at each point (Clopper-Pearson, total false-alarm "
        f"probability {DELTA}): confirmed at {counts['confirmed']}, rejected at {counts['rejected']}, undecided at "
        f"{counts['undecided']}; the bound is 0 (vacuous) at {counts['vacuous']} points and above "
        f"{seen['largest_confirmable_bound']:.3f}, which {REPS} runs cannot confirm, at {counts['unconfirmable']} "
        "(only a rejection could speak there).", holds=holds, values=seen, conclusive=conclusive)


def event_implies_agreement(agreement: tuple[bool, bool, bool, dict]) -> StepResult:
    """s3: no run whose estimates fell inside the bound's allocation disagreed."""
    _, _, holds, seen = agreement
    return CLAIM.checked(
        "s3-event-implies-agreement", "proof", "exhaustive",
        f"In all {seen['event_runs']} runs whose estimates fell inside the bound's allocation, "
        f"{seen['event_runs_disagreeing']} disagreed (lemma1-selection.p1 on this model).",
        holds=holds, values={"event_runs": seen["event_runs"],
                             "event_runs_disagreeing": seen["event_runs_disagreeing"]})


def bound_proof_transfers() -> StepResult:
    """s4: the bound's proof needs nothing of the model (argued)."""
    return CLAIM.argued(
        "s4-bound-proof-transfers", "proof",
        "The bound's proof (lemma1-selection.p2-p4) uses only a bounded f on the 2^b patterns and i.i.d. mask rows; it "
        "applies to any table with positive margins, this model's included.")


def _agreement(cases, seed: int) -> tuple[bool, bool, bool, dict]:
    """Agreement measured at n_L2 / 4, n_L2, 4 n_L2 against the bound (lemma1-selection's test: holds, conclusive,
    values); and no run inside the bound's event disagreeing."""
    jobs = [(case, n) for case in cases for n in case.ns]
    rows, events, broken = [], 0, 0
    for k, (case, n) in enumerate(jobs):
        m = measure(case, n, REPS, [seed, k])
        rows.append({**case.describe(), "n": n, "agree": m.agree, "agreement": m.rate,
                     "bound": agreement_bound(case.table, n, P, EPS, MAX_LEN).value,
                     "exact_choice": [list(m.exact_choice[0]), m.exact_choice[1]], "events": m.events,
                     "broken": m.broken})
        events += m.events
        broken += m.broken
    holds, conclusive, test = bound_test([r["agree"] for r in rows], [r["bound"] for r in rows], REPS, DELTA)
    for row, status in zip(rows, test["point_status"]):
        row["test"] = status
    values = {"runs_per_point": REPS, "false_alarm_probability": DELTA, "seed": seed, "points": rows, **test,
              "event_runs": events, "event_runs_disagreeing": broken}
    return holds, conclusive, broken == 0, values


def _table(values: dict) -> str:
    by_doc: dict = {}
    for r in values["points"]:
        by_doc.setdefault(r["document"], []).append(f"{r['agreement']:.2f} ({r['bound']:.2f}) at n={r['n']}")
    return "; ".join(f"'{doc}': " + ", ".join(points) for doc, points in by_doc.items())
