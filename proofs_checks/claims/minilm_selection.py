"""Selection consistency on a transformer: Fred(mask, n) agrees with Fred(exact) on the MiniLM classifier.

The corrected statement of ``lemma1-selection`` (positive margins imply P(agree) >= analytic.selection's bound,
which tends to 1) is checked here on a model with no closed form: the MiniLM classifier of the evaluation, on short
Restaurants test reviews whose exact tables are enumerated (:mod:`proofs_checks.neural_cases`). A continuous model
makes exact ties improbable, so the margins are expected positive; they are computed, not assumed.
"""

from __future__ import annotations

from analytic.selection import agreement_bound, agreement_sample_size, selection_margins

from ..neural_cases import minilm_setting
from ..results import ClaimResult, argued, checked
from ..seeds import statistical_seed
from .lemma1_selection import EPS, MAX_LEN, P, TARGET, SelectionCase, clopper_pearson, measure

CLAIM = "minilm-selection"
STATEMENT = (
    "On the MiniLM sentence-encoder classifier, the candidate FRED selects with n mask rows converges to the one it "
    "selects with the exact drops: the exact problems of its documents have positive margins, and P(Fred(mask, n) "
    "returns Fred(exact)'s positions and found flag) is at least analytic.selection.agreement_bound, which tends to "
    "1 as n grows."
)
DELTA = 1e-6
#: Fred(mask) runs per (document, n).
REPS = 200
SEED = 20261127


def _cases(setting) -> list[SelectionCase]:
    return [SelectionCase(f"minilm test review {c.test_index}", c.tokens, c.table) for c in setting.cases]


def _margins(cases) -> tuple[bool, dict]:
    rows = []
    for case in cases:
        m = selection_margins(case.table, P, EPS, MAX_LEN)
        rows.append({**case.describe(), "margin": m.margin, "threshold_margin": m.smallest_threshold_margin,
                     "gap": m.smallest_gap, "selection": list(m.selection), "found": m.found,
                     "n_for_bound_0_95": agreement_sample_size(case.table, TARGET, P, EPS, MAX_LEN)
                     if m.margin > 0 else None})
    return bool(rows) and all(r["margin"] > 0 for r in rows), {"documents": rows}


def _agreement(cases, seed: int) -> tuple[bool, bool, dict]:
    """Agreement measured at n_paper / 4, n_paper, 4 n_paper, never significantly below the bound; and no run
    inside the bound's event disagreeing."""
    jobs = [(case, n) for case in cases for n in case.ns]
    per = DELTA / len(jobs)
    rows, below, events, broken = [], [], 0, 0
    for k, (case, n) in enumerate(jobs):
        m = measure(case, n, REPS, [seed, k])
        low, high = clopper_pearson(m.agree, m.reps, per)
        bound = agreement_bound(case.table, n, P, EPS, MAX_LEN).value
        row = {**case.describe(), "n": n, "agreement": m.rate, "interval": [low, high], "bound": bound,
               "exact_choice": [list(m.exact_choice[0]), m.exact_choice[1]], "events": m.events, "broken": m.broken}
        rows.append(row)
        events += m.events
        broken += m.broken
        if high < bound:
            below.append(row)
    values = {"runs_per_point": REPS, "false_alarm_probability": DELTA, "seed": seed, "points": rows,
              "below_bound": below, "event_runs": events, "event_runs_disagreeing": broken,
              "vacuous_points": sum(r["bound"] == 0 for r in rows)}
    return not below, broken == 0, values


def _table(values: dict) -> str:
    by_doc: dict = {}
    for r in values["points"]:
        by_doc.setdefault(r["document"], []).append(f"{r['agreement']:.2f} ({r['bound']:.2f}) at n={r['n']}")
    return "; ".join(f"'{doc}': " + ", ".join(points) for doc, points in by_doc.items())


def check() -> ClaimResult:
    """The margins of the exact problems, then FRED's agreement against the bound."""
    setting, why = minilm_setting()
    conditions = (f"p = {P}, eps = {EPS}, max_len = {MAX_LEN}; the MiniLM classifier of the evaluation, documents "
                  "of 5 to 8 tokens (exact tables; FRED reads the model's own values from them by mask pattern); the bound is a union of Hoeffding/Bernstein bounds "
                  "(lemma1-selection), so the measured agreement may lie far above it.")
    if setting is None:
        reason = f"Not run here: {why}; the claim is not machine-checked on this machine."
        # Statement steps only: with no proof step the verdict is 'unproved', never 'extends (argued)'.
        steps = (argued(f"{CLAIM}.s1-positive-margins", CLAIM, "statement", reason),
                 argued(f"{CLAIM}.s2-agreement-above-bound", CLAIM, "statement", reason))
        return ClaimResult(id=CLAIM, kind="extension", statement=STATEMENT, conditions=conditions,
                           counterexample=None, steps=steps)
    cases = _cases(setting)
    margins_ok, margins = _margins(cases)
    seed = statistical_seed(SEED)
    above_ok, event_ok, agreement = _agreement(cases, seed)
    docs = margins["documents"]
    steps = (
        checked(f"{CLAIM}.s1-positive-margins", CLAIM, "statement", "exhaustive",
                f"Every one of the {len(docs)} documents' exact problems has a positive margin (smallest "
                f"{min(d['margin'] for d in docs):.2e}): no candidate's drop equals the threshold and no rival "
                "ties the chosen candidate. The bound reaches 0.95 at n = "
                + ", ".join(str(d["n_for_bound_0_95"]) for d in docs) + ".", holds=margins_ok, values=margins),
        checked(f"{CLAIM}.s2-agreement-above-bound", CLAIM, "statement", "statistical",
                f"Agreement of Fred(mask, n) with Fred(exact), {REPS} runs per point, at n_paper / 4, n_paper and "
                f"4 n_paper (bound in brackets): {_table(agreement)}. No point lies significantly below the bound "
                f"(Clopper-Pearson, total false-alarm probability {DELTA})"
                + (f"; below it: {agreement['below_bound'][:2]}" if agreement["below_bound"] else "."),
                holds=above_ok, values=agreement),
        checked(f"{CLAIM}.s3-event-implies-agreement", CLAIM, "proof", "exhaustive",
                f"In all {agreement['event_runs']} runs whose estimates fell inside the bound's allocation, "
                f"{agreement['event_runs_disagreeing']} disagreed (lemma1-selection.p1 on this model).",
                holds=event_ok, values={"event_runs": agreement["event_runs"],
                                        "event_runs_disagreeing": agreement["event_runs_disagreeing"]}),
        argued(f"{CLAIM}.s4-bound-proof-transfers", CLAIM, "proof",
               "The bound's proof (lemma1-selection.p2-p4) uses only a bounded f on the 2^b patterns and i.i.d. mask "
               "rows; it applies to any table with positive margins, this model's included."),
    )
    return ClaimResult(id=CLAIM, kind="extension", statement=STATEMENT, conditions=conditions, counterexample=None,
                       steps=steps)
