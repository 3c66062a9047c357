"""The AUC-MoRF formulas of section 4 (lines 561-569), exactly, and the authors' released code run on exact curves.

Three quantities of one MoRF curve (f(y^(0)) = f(xi), f(y^(1)), ...: the confidence after masking the first k ranked
positively scored tokens), in Fractions:

* :func:`printed_value`, the paper's printed sum (1/D) sum_{k=2}^{D} (f(y^(k-1)) + f(y^(k)))/2;
* :func:`area_value`, the normalised area from y^(0) = xi, the printed sum with the segment from y^(0) added;
* :func:`released_value`, the quantity of the authors' released code (``experiments/metrics.py``): the area under
  c_0 = 1, c_k = f(y^(k))/f(xi), padded with its last value to D' = min(20, |xi|), divided by D'.

:func:`released_against_formula` runs the released compute_aucmorf as an outside program (when
``$FRED_AUTHORS_CHECKOUT`` is set) on :data:`RELEASED_CASES` and compares it with :func:`released_value`. Shared by
the claims metric-aucmorf (the definition against the tables) and metric-aucmorf-proportion (line 680: AUC-MoRF
does not depend on the explanation's size).
"""

from __future__ import annotations

from fractions import Fraction

from fred.evaluation.metrics import MORF_MAX_PERTURBATIONS

from ...subject.authors_probe import probe

#: |float - Fraction| allowed when a float computation is compared with its exact value (a few rounding errors).
FLOAT_TOLERANCE = 1e-12


def printed_value(curve, depth: int) -> Fraction | None:
    """The printed sum on ``curve`` = (f(y^(0)), ..., f(y^(depth))), exactly; None for depth 0 (1/0)."""
    if depth == 0:
        return None
    return sum(((Fraction(curve[k - 1]) + Fraction(curve[k])) / 2 for k in range(2, depth + 1)), Fraction(0)) / depth


def area_value(curve, depth: int) -> Fraction | None:
    """The normalised area (1/D) sum_{k=1}^{D} of the trapezoids, exactly; None for depth 0."""
    if depth == 0:
        return None
    return sum(((Fraction(curve[k - 1]) + Fraction(curve[k])) / 2 for k in range(1, depth + 1)), Fraction(0)) / depth


def released_value(curve, n_tokens: int) -> Fraction:
    """The released code's quantity, exactly: ``curve`` = (f(xi), f(y^(1)), ..., f(y^(m))) for the m = min(|e+|,
    D') ranked tokens masked, D' = min(20, n_tokens); 1 when m = 0."""
    width, m = min(MORF_MAX_PERTURBATIONS, n_tokens), len(curve) - 1
    if m == 0:
        return Fraction(1)
    c = [Fraction(v) / Fraction(curve[0]) for v in curve] + [Fraction(curve[m]) / Fraction(curve[0])] * (width - m)
    return sum(((c[k - 1] + c[k]) / 2 for k in range(1, width + 1)), Fraction(0)) / width


#: Curves the released code is run on: (document length, ranking, f(y^(0)), f(y^(1)), ...) with dyadic scores.
RELEASED_CASES = (
    (1, [0], ["1/2", "3/4"]),                       # masking raises the confidence: 5/4 > 1
    (3, [], ["3/4"]),                               # no positive token: the released code answers 1
    (3, [2, 0], ["1", "1/2", "1/4"]),               # padded to D' = 3 with the last value
    (4, [1, 3, 0, 2], ["3/4", "1/2", "1/2", "1/4", "0"]),
    (5, [4], ["1", "0"]),                           # one positive token: the printed sum gives 0
    (22, list(range(21)), [str(Fraction(32 - k, 32)) for k in range(21)]),  # capped at D' = 20
)


def released_against_formula(cases=RELEASED_CASES, sizes=(1,)) -> dict | None:
    """The released compute_aucmorf on ``cases`` (run as an outside program) against the exact released quantity;
    None without the checkout. Each case runs once per explanation size s in ``sizes`` (s <= |ranking|; once with
    s = 0 for an empty ranking): the released function also receives the explanation (the first s ranked tokens)
    and k = s, the size LIME and SHAP are cut to."""
    runs = [(case, s) for case in cases for s in sorted({min(s, len(case[1])) for s in sizes})]
    payload = [{"n_tokens": n, "ranking": ranking, "curve": [float(Fraction(v)) for v in curve],
                "explanation": ranking[:s], "k": s} for (n, ranking, curve), s in runs]
    reply = probe("aucmorf", payload)
    if reply is None:
        return None
    rows = []
    for ((n, ranking, curve), s), value in zip(runs, reply["values"]):
        exact = released_value([Fraction(v) for v in curve[:min(len(ranking), MORF_MAX_PERTURBATIONS, n) + 1]], n)
        rows.append({"n_tokens": n, "ranking": ranking, "curve": list(curve), "explanation_size": s,
                     "released": value, "exact": str(exact), "agrees": abs(value - float(exact)) <= FLOAT_TOLERANCE,
                     "printed_sum": (None if not ranking else
                                     str(printed_value([Fraction(v) for v in curve],
                                                       min(MORF_MAX_PERTURBATIONS, len(ranking)))))})
    return {"files": reply["files"], "rows": rows, "tolerance": FLOAT_TOLERANCE}
