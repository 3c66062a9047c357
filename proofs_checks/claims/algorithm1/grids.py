"""The exhaustive grid (steps st2, st3) and the sampled runs (step st4) of claim algorithm1-literal: Algorithm 1 as
printed (:mod:`analytic.algorithm1`) against Eq. (2) on every small integer table, and against the empirical Eq. (4)
on the rows of random Monte Carlo samples.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Sequence

import numpy as np

from analytic.algorithm1 import algorithm1_literal, algorithm1_literal_batch
from analytic.exact_cache import exact_cache

from .beam_monte_carlo import sample_drops

#: The exhaustive grid: every integer table on b tokens with values in the range.
GRID = ((1, range(-4, 5)), (2, range(-4, 5)), (3, range(-2, 3)))
#: The sampled family: integer tables with values -2..2 on b tokens, the n rows of a Bernoulli(1/2) sample (True =
#: perturbed), SAMPLED_RUNS draws per (b, n), seeded by SAMPLED_SEED (it defines the family; not a statistical check).
SAMPLED_B, SAMPLED_N, SAMPLED_RUNS, SAMPLED_SEED = (3, 4), (6, 12, 24), 60, 20260302


@exact_cache(copy=True)  # no explainer: the same for every subject
def grid_counts(epss: Sequence[Fraction], max_len: int) -> dict:
    """Algorithm 1 as printed against Eq. (2) on every table of GRID at every eps of ``epss`` (integer arithmetic on
    exact drops, p = 1/2, analytic.algorithm1.algorithm1_literal_batch): per kind of table, the runs where Eq. (2)
    has a solution and those where Algorithm 1 does not return one, or not one of largest drop; the first failure
    of each kind."""
    kinds = ("mean > 0", "f >= 0", "E[f] <= 0", "f(xi) > 0, E[f] <= 0", "f(xi) <= 0, E[f] <= 0", "f(xi) > 0",
             "f(xi) <= 0", "additive, f(xi) > 0", "additive, f(xi) > 0, E[f] <= 0")
    counts = {k: {"solvable": 0, "not_a_solution": 0, "not_largest_drop": 0} for k in kinds}
    first: dict = {}
    for b, values in GRID:
        tables = np.array(list(itertools.product(values, repeat=2**b)), np.int64)
        codes = np.arange(2**b)
        kept_sum = ((codes[:, None] >> np.arange(b)) & 1) @ (tables[:, 1 << np.arange(b)] - tables[:, [0]]).T
        nonpositive, xi_positive = tables.sum(1) <= 0, tables[:, 0] > 0
        additive = xi_positive & (tables == tables[:, [0]] + kept_sum.T).all(1)
        masks = {"mean > 0": ~nonpositive, "f >= 0": tables.min(1) >= 0, "E[f] <= 0": nonpositive,
                 "f(xi) > 0, E[f] <= 0": xi_positive & nonpositive,
                 "f(xi) <= 0, E[f] <= 0": ~xi_positive & nonpositive, "f(xi) > 0": xi_positive,
                 "f(xi) <= 0": ~xi_positive, "additive, f(xi) > 0": additive,
                 "additive, f(xi) > 0, E[f] <= 0": additive & nonpositive}
        for eps in epss:
            r = algorithm1_literal_batch(tables, eps, max_len)
            solvable = r["eq2_size"] > 0
            for kind, mask in masks.items():
                rows = mask & solvable
                counts[kind]["solvable"] += int(rows.sum())
                counts[kind]["not_a_solution"] += int((rows & ~r["is_solution"]).sum())
                counts[kind]["not_largest_drop"] += int((rows & ~r["largest_drop"]).sum())
                bad = np.flatnonzero(rows & ~r["is_solution"])
                if len(bad) and kind not in first:
                    i = bad[0]
                    first[kind] = {"b": b, "eps": str(eps), "table": tables[i].tolist(),
                                   "mean": str(Fraction(int(tables[i].sum()), 2**b)),
                                   "algorithm1": None if r["best"][i] < 0
                                   else [j for j in range(b) if r["best"][i] >> j & 1],
                                   "returned_at": int(r["returned_at"][i]), "eq2_size": int(r["eq2_size"][i])}
    return {"grid": {str(b): f"every integer table with values {v.start}..{v.stop - 1}" for b, v in GRID},
            "eps": [str(e) for e in epss], "p": "1/2", "l_max": max_len, "by_kind": counts,
            "first_failure_by_kind": first}


@exact_cache(copy=True)  # no explainer: the same for every subject
def sampled_counts(epss: Sequence[Fraction], max_len: int) -> dict:
    """Algorithm 1 as printed on the rows of Monte Carlo samples (the sampled family, SAMPLED_*) against the
    empirical Eq. (4) at every eps of ``epss``: the drops of Eq. (3) computed apart (:func:`sample_drops`, superset
    sums in integers), the candidates no row perturbs left undefined; per sign of fhat the runs where Eq. (4) has a
    solution and those where Algorithm 1 does not return one, or not one of largest drop."""
    rng = np.random.default_rng(SAMPLED_SEED)
    counts = {k: {"runs": 0, "solvable": 0, "not_a_solution": 0, "not_largest_drop": 0}
              for k in ("fhat > 0", "fhat <= 0")}
    undefined, first = 0, {}
    for b, n in itertools.product(SAMPLED_B, SAMPLED_N):
        for _ in range(SAMPLED_RUNS):
            table = rng.integers(-2, 3, 2**b)
            rows = rng.random((n, b)) < 0.5
            mean, drops = sample_drops(table, rows)
            undefined += 2**b - 1 - len(drops)
            f = [Fraction(int(table[code])) for code in rows.astype(np.int64) @ (1 << np.arange(b))]
            for eps in epss:
                kind = "fhat > 0" if mean > 0 else "fhat <= 0"
                counts[kind]["runs"] += 1
                size = min((c.bit_count() for c, d in drops.items() if d >= eps * mean and c.bit_count() <= max_len),
                           default=None)
                if size is None:
                    continue
                lit = algorithm1_literal(rows.tolist(), f, eps, max_len)
                code = -1 if lit.best is None else sum(1 << i for i in lit.best)
                top = max(d for c, d in drops.items() if c.bit_count() == size)
                solution = code in drops and code.bit_count() == size and drops[code] >= eps * mean
                counts[kind]["solvable"] += 1
                counts[kind]["not_a_solution"] += not solution
                counts[kind]["not_largest_drop"] += solution and drops[code] != top
                if not solution and kind not in first:
                    first[kind] = {"b": b, "n": n, "eps": str(eps), "table": table.tolist(),
                                   "rows_perturbed": rows.astype(int).tolist(), "fhat": str(mean),
                                   "algorithm1": None if lit.best is None else list(lit.best), "eq4_size": size}
    return {"b": list(SAMPLED_B), "n": list(SAMPLED_N), "draws_per_b_and_n": SAMPLED_RUNS, "seed": SAMPLED_SEED,
            "values": "integers -2..2", "eps": [str(e) for e in epss], "p": "1/2", "l_max": max_len,
            "undefined_candidates": undefined, "by_sign_of_fhat": counts, "first_failure": first}
