"""FRED's runs for the claim counterfactuals-linear (:mod:`proofs_checks.claims.counterfactuals.counterfactuals_linear`): its
counterfactuals against their definition on every run, the rate at which the first one is globally minimal, and
how often a minimal one is the greedy set, each against the closed forms of :mod:`analytic.counterfactual`.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from analytic.counterfactual import minimal_flip_probability, minimal_flip_row_probability
from fred import sample_size
from fred_constants import ALPHA, DELTA, EPS, MAX_LEN, P_EXACT, P

from ...statistics.intervals import clopper_pearson
from ...statistics.seeds import statistical_seed
from ...subject.explainer import explainer

#: The Monte Carlo runs of FRED: numbers of rows, runs per (case, n), seed (false-alarm probability: DELTA).
N_GRID = (1, 4, 16)
RUNS = 2000
SEED = 14
#: The equivalence margin of step c2: FRED's rate is confirmed to be its closed form within this absolute
#: difference when every Clopper-Pearson interval lies inside [value - margin, value + margin]. 2000 runs per cell
#: confirm it with probability >= 0.9997 per cell when the closed form is right (the worst case, a rate of 1/2, at
#: the per-interval level DELTA / 9); 400 runs could not confirm any margin below 0.13.
RATE_MARGIN = 0.1


def fred_explainer(classifier_fn, random_state):
    """Every FRED of the claim: the mask sampler and FRED's defaults, seeded by ``random_state``."""
    return explainer(classifier_fn, random_state=random_state)


def fred_n(p, b: int) -> int:
    """This project's FRED default n: Lemma 2 with l = min(max_len, b) (the paper's n for b >= max_len)."""
    return sample_size(ALPHA, float(p), min(MAX_LEN, b))


def _run_check(exp, row: dict) -> dict | None:
    """FRED's first counterfactual against the definition on its own rows (classes from the closed-form score);
    None when it agrees, and no sampled row flips with fewer than k* tokens (no row at all when nothing flips)."""
    perturbed = exp.sample_perturbed
    scores = row["intercept"] + (~perturbed) @ row["a"]
    flips = np.flatnonzero((scores > 0).astype(int) != row["label"])
    cfs = exp.counterfactuals(1)
    if not len(flips):
        return None if not cfs else {"reported": list(cfs[0].perturbed_ids), "expected": None}
    counts = perturbed[flips].sum(axis=1)
    expected = tuple(int(j) for j in np.flatnonzero(perturbed[flips[np.argmin(counts)]]))  # argmin: first on ties
    if (cfs and cfs[0].perturbed_ids == expected and cfs[0].predicted_label != row["label"]
            and row["k_star"] is not None and int(counts.min()) >= row["k_star"]):
        return None
    return {"reported": list(cfs[0].perturbed_ids) if cfs else None, "expected": list(expected),
            "fewest_flipping": int(counts.min()), "k_star": row["k_star"]}


def _selected(rows: list[dict]) -> list[dict]:
    """The Monte Carlo cases: most minimal sets with different words (greedy vs other), and smallest q."""
    flipping = [r for r in rows if r["usable"] and r["k_star"] is not None]

    def distinct(r):
        return len({tuple(sorted(r["tokens"][i] for i in s)) for s in r["sets"]})  # different removed words

    most = min(flipping, key=lambda r: (-distinct(r), len(r["tokens"]), r["index"]))
    rarest = min(flipping, key=lambda r: (minimal_flip_row_probability(r["a"], r["intercept"], P_EXACT),
                                          len(r["tokens"]), r["index"]))
    return [most] if rarest is most else [most, rarest]


def _can_reject(runs: int, value: float, delta: float) -> bool:
    """Whether a Clopper-Pearson test of ``value`` at level ``delta`` on ``runs`` runs can reject at all: the interval
    of 0 or of ``runs`` successes excludes it (the intervals move monotonically with the count)."""
    if runs == 0:
        return False
    low, high = clopper_pearson([runs, 0], runs, delta)  # low at all successes, high at none
    return value < float(low[0]) or value > float(high[1])


def _within(interval, value: float) -> bool:
    """The equivalence test: the interval lies inside [value - RATE_MARGIN, value + RATE_MARGIN]."""
    return value - RATE_MARGIN <= interval[0] and interval[1] <= value + RATE_MARGIN


def _power(trials: int, value: float, delta: float) -> float:
    """The probability that the equivalence test confirms when the rate is exactly ``value``: the binomial mass of
    the counts whose interval lies inside the margin (0 when there are no trials)."""
    if trials == 0:
        return 0.0
    counts = np.arange(trials + 1)
    low, high = clopper_pearson(counts, trials, delta)
    inside = (value - RATE_MARGIN <= low) & (high <= value + RATE_MARGIN)
    return float(stats.binom.pmf(counts[inside], trials, value).sum())


def monte_carlo(rows: list[dict]) -> tuple[tuple[bool, dict], tuple[bool, bool, dict], tuple[bool, bool, dict]]:
    """FRED's counterfactuals over seeds at several n: (holds, values) of the definition on every run; and
    (holds, conclusive, values) of the rates and of 'not always the greedy set'.

    Each rate has a Clopper-Pearson interval (the union bound over all of them at :data:`DELTA`). The rates of
    minimality, 1 - (1 - q)^n, and of the greedy set among minimal reports, 1/M, are compared with their closed
    forms by an equivalence test: confirmed ('holds') when every interval lies within :data:`RATE_MARGIN` of its
    value (a rate farther than the margin is confirmed with probability at most DELTA), refuted ('fails') when an
    interval excludes its value (a right closed form is refuted with probability at most DELTA), inconclusive
    otherwise; the exact equality rests on the exact steps p1 and p3. An interval whose upper limit is below 1
    rejects 'always the greedy set': that check is conclusive when it happens."""
    seed = statistical_seed(SEED)
    chosen = _selected(rows)
    cells = [(r, n) for r in chosen for n in N_GRID + (fred_n(P_EXACT, len(r["tokens"])),)]
    greedy_cells = [r for r in chosen if len(r["sets"]) > 1]
    each = DELTA / (len(cells) + len(greedy_cells))
    bad_runs, greedy_counts = [], {r["index"]: [0, 0] for r in greedy_cells}
    table = [_rate_cell(row, n, _cell_runs(row, n, [seed, k], bad_runs, greedy_counts), each)
             for k, (row, n) in enumerate(cells)]
    greedy_table = [_greedy_cell(row, *greedy_counts[row["index"]], each) for row in greedy_cells]
    common = {"false_alarm_probability": DELTA, "seed": seed, "runs_per_cell": RUNS,
              "intervals": len(cells) + len(greedy_cells), "delta_per_interval": each,
              "cases": [{**r["case"], "k_star": r["k_star"], "M": len(r["sets"]),
                         "q": str(minimal_flip_row_probability(r["a"], r["intercept"], P_EXACT))} for r in chosen]}
    definition = (not bad_runs, {"runs": RUNS * len(cells), "violations": bad_runs[:5],
                                 "violation_count": len(bad_runs), "cases": common["cases"]})
    consistent = all(c["inside"] for c in table + greedy_table)
    equivalent = all(c["within_margin"] for c in table + greedy_table)
    widths = [c["interval"][1] - c["interval"][0] for c in table + greedy_table]
    can_reject = all(_can_reject(c["runs"], c["closed_form"], each) for c in table) and all(
        _can_reject(c["minimal_reports"], c["closed_form"], each) for c in greedy_table)
    powers = [_power(c["runs"], c["closed_form"], each) for c in table] + [
        _power(c["minimal_reports"], c["closed_form"], each) for c in greedy_table]
    rate = (consistent and equivalent, not consistent or equivalent,
            {**common, "cells": table, "greedy_cells": greedy_table, "widest_interval": max(widths),
             "equality_tested": False, "can_reject": can_reject, "margin": RATE_MARGIN,
             "equivalence_confirmed": equivalent, "refuted": not consistent,
             "largest_distance_to_value": max(max(c["closed_form"] - c["interval"][0],
                                                  c["interval"][1] - c["closed_form"]) for c in table + greedy_table),
             "power_if_closed_forms_right": min(powers), "power_by_cell": powers})
    rejects = any(c["rejects_always_greedy"] for c in greedy_table)
    greedy = (rejects, rejects, {**common, "cells": greedy_table})
    return definition, rate, greedy


def _cell_runs(row: dict, n: int, entropy: list, bad_runs: list, greedy_counts: dict) -> int:
    """RUNS runs of FRED with n rows on a case, seeded by ``entropy``: the number whose first counterfactual has k*
    tokens. Appends each run that breaks the definition to ``bad_runs`` and counts, for a case in
    ``greedy_counts``, its minimal reports and those that are the greedy set."""
    fred = fred_explainer(row["classifier"], np.random.default_rng(np.random.SeedSequence(entropy)))
    minimal = 0
    for _ in range(RUNS):
        exp = fred.explain(row["text"], p=P, eps=EPS, max_len=MAX_LEN, n_samples=n)
        bad = _run_check(exp, row)
        if bad:
            bad_runs.append({**row["case"], "n": n, **bad})
        cfs = exp.counterfactuals(1)
        if cfs and len(cfs[0].perturbed_ids) == row["k_star"]:
            minimal += 1
            if row["index"] in greedy_counts:
                greedy_counts[row["index"]][0] += 1
                greedy_counts[row["index"]][1] += cfs[0].perturbed_ids == row["greedy"]
    return minimal


def _rate_cell(row: dict, n: int, minimal: int, each: float) -> dict:
    """The rate of a minimal first counterfactual on a case at n rows, its interval and its closed form."""
    exact = minimal_flip_probability(row["a"], row["intercept"], n, P_EXACT)
    low, high = (float(x) for x in clopper_pearson(minimal, RUNS, each))
    return {"document": row["text"], "n": n, "runs": RUNS, "minimal": minimal, "rate": minimal / RUNS,
            "closed_form": float(exact), "closed_form_exact": str(exact), "interval": [low, high],
            "inside": low <= float(exact) <= high, "within_margin": _within((low, high), float(exact))}


def _greedy_cell(row: dict, total: int, hits: int, each: float) -> dict:
    """The rate of the greedy set among the ``total`` minimal reports on a case (``hits`` of them), its interval and
    its closed form 1/M."""
    low, high = (float(x) for x in clopper_pearson(hits, total, each))
    expected = 1 / len(row["sets"])
    return {"document": row["text"], "greedy": list(row["greedy"]),
            "minimal_sets": [[row["tokens"][i] for i in s] for s in row["sets"]],
            "minimal_reports": total, "greedy_reports": hits, "rate": hits / max(total, 1),
            "closed_form": expected, "interval": [low, high], "inside": low <= expected <= high,
            "within_margin": _within((low, high), expected), "rejects_always_greedy": high < 1}


def family_runs(rows: list[dict]) -> list[dict]:
    """One FRED run per usable family case at its default n, with or without a possible flip: the definition."""
    seed = statistical_seed(SEED)
    bad = []
    for row in rows:
        if row["usable"]:
            exp = fred_explainer(row["classifier"], np.random.SeedSequence([seed, 1000 + row["index"]])).explain(
                row["text"], p=P, eps=EPS, max_len=MAX_LEN, n_samples=fred_n(P_EXACT, len(row["tokens"])))
            problem = _run_check(exp, row)
            if problem:
                bad.append({**row["case"], **problem})
    return bad
