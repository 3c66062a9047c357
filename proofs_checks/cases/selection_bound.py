"""The checks of analytic.selection's agreement bound (the headline of ``lemma1-selection``): the bound against the
exact agreement on small grid tables, and the symbolic steps of its proof (the binomial average, the limit 1).
"""

from __future__ import annotations

import sympy as sp

from analytic.selection import agreement_bound, agreement_probability, agreement_sample_size
from fred_constants import EPS, MAX_LEN, P

from .selection import grid_table

#: The target agreement whose n the bound is asked for.
TARGET = 0.95
#: Positive-margin grid tables (a_1, ..., a_b, c) of :func:`~proofs_checks.cases.selection.grid_table`.
TABLES = ((2, 0), (4, 5), (6, 10), (10, 20), (3, 1, 0), (6, 2, 4), (10, 3, 10))


def bound_below_exact() -> tuple[bool, dict]:
    """agreement_bound <= the enumerated agreement on small positive-margin grid tables (b = 1, 2), and the
    enumerated agreement at the bound's n for 0.95 reaches 0.95 (b = 1)."""
    tables = [(t, [float(f) for f in grid_table(t)]) for t in TABLES]
    rows, wrong = [], []
    for t, table in tables:
        b = len(t) - 1
        for n in ((5, 20, 80, 320, 1280) if b == 1 else (11, 22, 44)):
            bound = agreement_bound(table, n, P, EPS, MAX_LEN).value
            exact = agreement_probability(table, n, P, EPS, MAX_LEN)
            rows.append({"weights_over_40": list(t[:-1]), "intercept_over_40": t[-1], "n": n, "bound": bound,
                         "exact": exact})
            if bound > exact + 1e-12:
                wrong.append(rows[-1])
        if b == 1:
            needed = agreement_sample_size(table, TARGET, P, EPS, MAX_LEN)
            exact = agreement_probability(table, needed, P, EPS, MAX_LEN)
            rows.append({"weights_over_40": list(t[:-1]), "intercept_over_40": t[-1], "n_for_bound_0_95": needed,
                         "exact": exact})
            if exact < TARGET:
                wrong.append(rows[-1])
    return not wrong, {"cases": rows, "violations": wrong, "non_vacuous": sum(r.get("bound", 0) > 0 for r in rows),
                       "p": P, "eps": EPS, "max_len": MAX_LEN}


def generating_function() -> tuple[bool, dict]:
    """E[1{K = 0} + 1{K >= 1} 2 x^K] = 2 (1 - q + q x)^n - (1 - q)^n for K ~ Bin(n, q), polynomial identity in
    (q, x) for n = 1..12 (sympy); for every n it is the binomial theorem."""
    q, x = sp.symbols("q x")
    residuals = {}
    for n in range(1, 13):
        lhs = sum(sp.binomial(n, k) * q**k * (1 - q) ** (n - k) * (1 if k == 0 else 2 * x**k) for k in range(n + 1))
        residuals[n] = str(sp.expand(lhs - (2 * (1 - q + q * x) ** n - (1 - q) ** n)))
    return all(r == "0" for r in residuals.values()), {"residuals": residuals}


def bound_limit() -> tuple[bool, dict]:
    """Each failure term tends to 0: the rates are positive for t > 0, 1 - q + q e^{-a} = 1 - q s with
    s = 1 - e^{-a} in (0, 1], so the base is in [0, 1) and its n-th power tends to 0 (sympy)."""
    n = sp.Symbol("n", integer=True, positive=True)
    q, s, r, t, big_r, var, dev = sp.symbols("q s r t R sigma2 M", positive=True)
    checks = {"hoeffding_rate_positive": bool((2 * t**2 / big_r**2).is_positive),
              "bernstein_rate_positive": bool((t**2 / (2 * var + 2 * dev * t / 3)).is_positive),
              "base_minus_one_negative": bool((-q * s).is_negative),
              "power_of_base_in_0_1_tends_to_0": sp.limit((1 / (1 + r)) ** n, n, sp.oo) == 0,
              "mean_term_tends_to_0": sp.limit(2 * sp.exp(-n * r), n, sp.oo) == 0}
    return all(checks.values()), checks
