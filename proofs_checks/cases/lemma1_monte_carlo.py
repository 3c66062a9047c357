"""Lemma 1's Monte Carlo check: the explainer's own drops against their exact limit, within Hoeffding tolerances.

On each black box (its exact table by enumerating the 2^b mask patterns), for p in (0.3, 0.5), n in
:data:`N_SAMPLES` and max_len in :data:`MAX_LENS`, the explainer under check (:mod:`proofs_checks.subject.explainer`) explains
the document once; every drop it reports, its importances (Eq. 5) and its selection's drop, must lie within the
Hoeffding tolerance of every candidate at once (:func:`proofs_checks.kit.tolerances.hoeffding_tolerance`) of Lemma
1's limit, at total false-alarm probability :data:`DELTA` (union bound). Shared by the claims lemma1 (a Ridge, a
logistic model and a decision tree) and minilm-lemma1 (this project's MiniLM classifier).
"""

from __future__ import annotations

import math

import numpy as np

from analytic import drop_asymptotic_variance, lemma1_limit, table_from_classifier
from fred_constants import DELTA

from ..kit.tolerances import as_positions, hoeffding_tolerance
from ..subject.explainer import explainer, optional

N_SAMPLES = (500, 8000)
#: max_len of the Monte Carlo runs; with eps = 1 (threshold E[f], rarely reached) the search goes to its largest
#: size, so the selections whose drops are read have sizes up to 3.
MAX_LENS = (1, 2, 3)
SEARCH_EPS = 1.0


def reported_drops(exp, b: int) -> list[tuple[str, tuple[int, ...] | str, float]]:
    """The drops an explanation reports, as (what, positions, drop): its importances (Eq. 5, the drop of each
    singleton) and its selection's drop where it reports one; a selection that is not a set of positions comes as
    its reason (str)."""
    importances = np.asarray(exp.importances, dtype=float).ravel()
    if importances.shape != (b,):
        return [("importance", f"importances of shape {importances.shape}, not one score per position ({b},)",
                 math.nan)]
    reported = [("importance", (i,), float(s)) for i, s in enumerate(importances)]
    drop = optional(exp, "drop")
    if drop is not None:
        reported.append(("selection", as_positions(exp.best_ids, b), float(drop)))
    return reported


def monte_carlo(boxes, seed: int, models: str) -> tuple[str, dict]:
    """The subject's own drops against the exact limit, on every (black box, p, n, max_len): its importances and
    its selection's drop, each within the Hoeffding tolerance of every candidate at once (the selection is chosen
    from the data, so its tolerance must hold for whichever candidate it is), at total false-alarm probability
    DELTA; ``boxes`` as :func:`proofs_checks.claims.lemmas.lemma1.black_boxes` returns, ``models`` names them in the
    note.

    The drops are read as the explainer reports them, never recomputed from the samples it may expose: a wrong
    estimator on correct samples must fail. A union bound needs no independence between runs, so a factory that
    fixes its randomness is run as it is (``replicates=False``).
    """
    # One exact table per black box (2^b model calls), shared by all its p, n and max_len.
    jobs = [(name, clf, tokens, label, table, p, n, max_len) for name, clf, tokens, label in boxes
            for table in [table_from_classifier(clf, list(tokens), label=label)]
            for p in (0.3, 0.5) for n in N_SAMPLES for max_len in MAX_LENS]
    per_run = DELTA / len(jobs)
    failures, ratios, scaled, counted = [], [], [], {}
    for k, (name, clf, tokens, label, table, p, n, max_len) in enumerate(jobs):
        exp = explainer(clf, random_state=np.random.SeedSequence([seed, k]), replicates=False).explain(
            " ".join(tokens), label=label, p=p, eps=SEARCH_EPS, max_len=max_len, n_samples=n)
        tolerance = hoeffding_tolerance(table, n, p, len(tokens), per_run)
        for what, positions, estimate in reported_drops(exp, len(tokens)):
            if isinstance(positions, str):
                failures.append({"model": name, "p": p, "n": n, "max_len": max_len, "reason": positions})
                continue
            limit, bound = lemma1_limit(table, positions, p), tolerance.of_size(len(positions))
            key = what if what == "importance" else f"selection of size {len(positions)}"
            counted[key] = counted.get(key, 0) + 1
            ratios.append(abs(estimate - limit) / bound)
            sigma = math.sqrt(drop_asymptotic_variance(table, positions, p) / n)
            if what == "importance" and sigma > 0:  # fixed candidates, unlike the selection: error ~ N(0, sigma)
                scaled.append((n, abs(estimate - limit) / sigma))
            if not abs(estimate - limit) <= bound:  # NaN (undefined) fails too: the tolerance's event covers every c
                failures.append({"model": name, "positions": list(positions), "p": p, "n": n, "max_len": max_len,
                                 "estimate": estimate, "limit": limit, "bound": bound})
    by_n = {m: [s for n_, s in scaled if n_ == m] for m in N_SAMPLES}
    medians = {str(m): float(np.median(errors)) if errors else None for m, errors in by_n.items()}
    largest = max(ratios) if ratios else math.nan
    selections = ", ".join(f"{c} {k}" for k, c in sorted(counted.items()) if k != "importance")
    note = (f"{len(jobs)} Monte Carlo runs of the explainer (mask sampling) on {models}, p in (0.3, 0.5), n in "
            f"{N_SAMPLES}, max_len in {MAX_LENS} with eps = {SEARCH_EPS:g} (which pushes the search to its largest "
            f"size): the drops it reports, {counted.get('importance', 0)} importances (Eq. 5, the singletons' "
            f"drops) and its selections' drops ({selections or 'none'}): "
            + ("all lie" if not failures else f"{len(failures)} do not lie")
            + f" within the Hoeffding tolerance of every candidate at once, total false-alarm probability {DELTA} "
            f"(largest error/tolerance {largest:.3f}). The drops are read as reported, never recomputed from the "
            "samples. The singletons' error in units of the delta-method sd sqrt(sigma^2/n): median "
            + " and ".join(f"{v:.2f} at n={m}" for m, v in medians.items() if v is not None)
            + " (a standard normal has median |Z| 0.67): the error is of order sqrt(sigma^2/n).")
    values = {"runs": len(jobs), "false_alarm_probability": DELTA, "seed": seed, "largest_error_over_bound": largest,
              "median_error_over_sd": medians, "drops_checked": counted, "failures": failures}
    return note, values
