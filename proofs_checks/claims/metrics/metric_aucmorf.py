"""Section 4, "Faithfulness": AUC-MoRF as the paper defines it (lines 561-569), against the values its tables print.

The paper writes, for an explanation whose positively scored tokens e+ are masked most relevant first,

    AUCMoRF = (1/D) sum_{k=2}^{D} (f(y^(k-1)) + f(y^(k))) / 2,      D = min(20, |e+|),           (printed)

with y^(k) the document after its k first MoRF perturbations and f a confidence in [0, 1] (line 233). The printed sum
is itself an area: (1/D) times the trapezoid area under k -> f(y^(k)) over the perturbations k = 1..D (sympy, step
p1), so the name "Area Under the Most Relevant First Perturbation Curve" (line 552) fits it as written. This project
also reads it as the normalised area from the unperturbed document y^(0) = xi, the printed sum with one more segment:

    AREA = (1/D) sum_{k=1}^{D} (f(y^(k-1)) + f(y^(k))) / 2.                                        (area)

Readings (each with its own verdict):

* ``printed`` (headline): the paper's words, "The AUC-MoRF can be defined as" the printed formula (line 562), and
  the tables' aucmorf column reports it. It never exceeds (D-1)/D <= 19/20 (step p1); 39 printed cells exceed 19/20
  beyond rounding (step st3).
* ``area`` (alternative, this project's reconstruction): the tables report the normalised area from y^(0) = xi. It
  lies in [0, 1]; four printed cells exceed 1 beyond rounding (step st2).

Observation (step p1, not a statement of the paper): printed = area - (f(xi) + f(y^(1)))/(2D), so the printed sum is
0 at D = 1 whatever the curve and 1/0 at D = 0.

The corrected statement names what the tables are compatible with: the quantity the authors' released code computes
(``experiments/metrics.py``, run as an outside program when ``$FRED_AUTHORS_CHECKOUT`` is set; this project's
:func:`fred.evaluation.metrics.aucmorf_authors` implements it), the area under c_0 = 1, c_k = f(y^(k))/f(xi),
padded with its last value to D' = min(20, |xi|), divided by D'. For positively classified documents it lies in
[0, 2) and exceeds 1 when masking raises the confidence. :func:`fred.evaluation.metrics.aucmorf` is the printed
sum (NaN where it degenerates, D <= 1).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import sympy as sp

from fred.evaluation.metrics import MORF_MAX_PERTURBATIONS, aucmorf, aucmorf_authors

from ...paper.tables import BETTER, EXPLAINERS, METRICS, MODEL_ACCURACY, TABLES, accuracy_key, row_line
from ...subject.authors_probe import NOT_RUN, checkout_path
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .aucmorf_formulas import FLOAT_TOLERANCE, RELEASED_CASES, printed_value, released_against_formula, released_value
from .released_evaluation import agree, released_evaluation

CLAIM = Claim("metric-aucmorf")
AREA, PRINTED = "area", "printed"
#: The printed means have three decimals: the mean itself is within half a unit of the last one.
HALF_UNIT = Fraction(1, 2000)
SOURCE = (
    Quote(552, r"and \textbf{AUC-MoRF} (Area Under the Most Relevant First Perturbation Curve) "
               r"\citep{kakogeorgiou2021evaluating} for the importance-based explanations."),
    Quote(561, r"When applying feature-importance based explainers, we can rank the tokens in $\xi$ according to "
               r"their score."),
    Quote(562, "The AUC-MoRF can be defined as"),
    Quote(563, r"\[ \text{AUCMoRF} = \frac{1}{D} \sum_{k=2}^{D} \frac{f(y^{(k-1)}) + f(y^{(k)})}{2} \,, \]"),
    Quote(564, r"where $D$ is the maximum number of perturbation, and $\mathbf{y}^{(k)}$ is the example $\xi$ after "
               r"the $k^{\text{th}}$ MoRF perturbation, \emph{i.e.}, after removing the $k$ most important (positive) "
               r"tokens according to the explanation."),
    Quote(565, "A smaller value of AUC-MoRF means a more faithful explanation."),
    Quote(567, "We stress out that only the tokens with positive score are perturbed for this computation."),
    Quote(569, r"In our experiments, we set $D = \min{(20, \size{\explanation^+})}$."),
    Quote(233, r"$\model$ is a measurable function mapping textual inputs to confidence scores for $p$ different "
               r"classes, \emph{i.e.}, $\mathcal{Y} = [0,1]^p$"),
    Quote(1116, "we always consider documents with positive predictions, and we explain the positive class."),
    Quote(1172, r"Finally, the metrics are computed over the first $100$ instances ranked by length of positively "
                r"classified documents from each test set."),
    Quote(589, r"\texttt{aucmorf} $\downarrow$"),
    Quote(1105, r"The code for FRED and the experiments is available at "
                r"\url{https://github.com/gianluigilopardo/fred}."),
    Quote(1286, r"fredpos & $-0.014 (0.01)$ & $-0.004 (0.01)$ & $0.571 (0.26)$ & $1.002 (0.01)$"),
    Quote(1288, r"shap & $-0.014 (0.01)$ & $-0.004 (0.01)$ & $1.000 (0.00)$ & $1.015 (0.01)$"),
    Quote(1289, r"anchor & $-0.016 (0.01)$ & $-0.003 (0.00)$ & $1.000 (0.00)$ & $1.008 (0.01)$"),
    Quote(1561, r"anchor & $-0.008 (0.01)$ & $-0.001 (0.00)$ & $0.990 (0.10)$ & $1.001 (0.01)$"),
)
#: The two parts of lines 552-569 the statement steps check apart (the claim says which fails).
DIRECTION = "a smaller value means a more faithful explanation"
DEFINITION = "the defined AUC-MoRF is the tables' aucmorf column"
READINGS = (
    Reading(PRINTED, "headline",
            "AUC-MoRF is the printed sum (1/D) sum_{k=2}^{D}, D = min(20, |e+|), as it stands: (1/D) times the "
            "trapezoid area under the curve of the perturbations k = 1..D; the tables report it",
            why=(Quote(562, "The AUC-MoRF can be defined as"),
                 Quote(563, r"\[ \text{AUCMoRF} = \frac{1}{D} \sum_{k=2}^{D} \frac{f(y^{(k-1)}) + f(y^{(k)})}{2} "
                            r"\,, \]"),
                 Quote(552, "(Area Under the Most Relevant First Perturbation Curve)"),
                 Quote(564, r"where $D$ is the maximum number of perturbation, and $\mathbf{y}^{(k)}$ is the example "
                            r"$\xi$ after the $k^{\text{th}}$ MoRF perturbation"))),
    Reading(AREA, "alternative",
            "this project's reconstruction: AUC-MoRF is the area under the MoRF curve from the document y^(0) = xi, "
            "divided by D (the printed sum with the segment from y^(0) added); the tables report it",
            why=(Quote(552, "(Area Under the Most Relevant First Perturbation Curve)"),)),
)
STATEMENT = (
    'Section 4, "Faithfulness" (lines 552-569): AUC-MoRF, the "Area Under the Most Relevant First Perturbation '
    'Curve", "can be defined as AUCMoRF = (1/D) sum_{k=2}^{D} (f(y^(k-1)) + f(y^(k)))/2, where D is the maximum '
    'number of perturbation, and y^(k) is the example xi after the k-th MoRF perturbation [...]. A smaller value of '
    'AUC-MoRF means a more faithful explanation. [...] In our experiments, we set D = min(20, |e+|)." The aucmorf '
    "column of the paper's 34 tables reports it."
)
CORRECTED = (
    "The printed sum is (1/D) times the trapezoid area under the curve of the perturbations 1..D, the normalised area "
    "from the unperturbed document minus (f(xi) + f(y^(1)))/(2D): it gives 0 when D = 1 and 1/0 when e+ is empty, "
    "gives c(D-1)/D on a constant curve c, and never exceeds (D-1)/D <= 19/20 for f in [0, 1]; the normalised area "
    "never exceeds 1. At least 39 aucmorf cells of the tables (those above 19/20) cannot be means of the printed sum, "
    "and at least 4 (those above 1) cannot be means of the area, with f in [0, 1]; if one formula computed every "
    "cell, it was neither. The tables are compatible with the "
    "quantity of the authors' released code: the area under c_0 = 1, c_k = f(y^(k))/f(xi) (k <= min(|e+|, D')), "
    "padded with its last value to D' = min(20, |xi|), divided by D'; it lies in [0, 2) for positively classified "
    "documents and exceeds 1 when masking raises the confidence; e+ is the explainer's positively scored tokens "
    "(line 567), but the anchor for Anchor (line 1170) and, in the released code, every token by decreasing value for "
    "SHAP, negatively scored ones included. Smaller is better under every one of these "
    "formulas. This project's aucmorf is the printed sum (NaN for D <= 1), its aucmorf_authors the released one."
)

CONDITIONS = (
    "Headline reading 'printed': the formula the paper gives after 'The AUC-MoRF can be defined as' (line 562); the "
    "'area' reading is this project's. f is the confidence of the explained (positive) class, in [0, 1] (line 233; "
    "line 1116: only positively classified documents); D = min(20, |e+|) >= 1 where the formula is defined; a table "
    "cell is a mean over documents (line 1172), so it respects every bound its per-document values respect. A printed "
    "mean m (three decimals) is taken to exceed a bound b only when m - 0.0005 > b. The released code is run only when "
    "$FRED_AUTHORS_CHECKOUT is set."
)


# ------------------------------------------------------------------------------------------- the formulas
def _linear(expr, symbols) -> list:
    return [sp.diff(expr, s) for s in symbols]


def printed_algebra() -> tuple[bool, dict]:
    """For D = 1..20, with sympy on symbols f_0..f_D: the printed sum against (1/D) times the integral over [1, D] of
    the piecewise-linear curve through (k, f_k), the printed sum minus the area, its value on a constant curve and
    its largest value on [0, 1]^(D+1) (the sum of its coefficients, all >= 0; likewise the area's).

    Returns (the closed forms of the headline reading and of the corrected statement hold, values)."""
    c, t = sp.Symbol("c"), sp.Symbol("t")
    rows = []
    for d in range(1, MORF_MAX_PERTURBATIONS + 1):
        f = sp.symbols(f"f0:{d + 1}")
        printed = sp.Rational(1, d) * sum(((f[k - 1] + f[k]) / 2 for k in range(2, d + 1)), sp.Integer(0))
        area = sp.Rational(1, d) * sum((f[k - 1] + f[k]) / 2 for k in range(1, d + 1))
        # The curve of the perturbations 1..D, linear between consecutive k; integrated (antiderivative in t), not
        # summed as trapezoids.
        pieces = [sp.Poly(f[k - 1] + (t - (k - 1)) * (f[k] - f[k - 1]), t).integrate() for k in range(2, d + 1)]
        under_curve = sum((p.eval(k) - p.eval(k - 1) for k, p in enumerate(pieces, start=2)), sp.Integer(0))
        gap = sp.expand(printed - area)
        p_coef, a_coef = _linear(printed, f), _linear(area, f)
        rows.append({"D": d, "printed_is_area_over_1..D_divided_by_D": sp.expand(printed - under_curve / d) == 0,
                     "printed_minus_area": str(gap),
                     "gap_is_first_segment_over_D": sp.expand(gap + (f[0] + f[1]) / (2 * d)) == 0,
                     "on_constant_c": str(sp.factor(printed.subs({v: c for v in f}))),
                     "constant_is_c(D-1)/D": sp.simplify(printed.subs({v: c for v in f}) - c * (d - 1) / d) == 0,
                     "printed_coefficients_nonnegative": all(k >= 0 for k in p_coef),
                     "printed_max_on_unit_cube": str(sum(p_coef)),
                     "area_coefficients_nonnegative": all(k >= 0 for k in a_coef),
                     "area_max_on_unit_cube": str(sum(a_coef))})
    printed_max = max(Fraction(r["printed_max_on_unit_cube"]) for r in rows)
    closed_forms = (all(r["printed_is_area_over_1..D_divided_by_D"]
                        and r["gap_is_first_segment_over_D"] and r["constant_is_c(D-1)/D"]
                        and r["printed_coefficients_nonnegative"] and r["area_coefficients_nonnegative"]
                        and Fraction(r["printed_max_on_unit_cube"]) == Fraction(r["D"] - 1, r["D"])
                        and r["area_max_on_unit_cube"] == "1" for r in rows)
                    and printed_max == Fraction(19, 20) and rows[0]["printed_minus_area"] != "0")
    return closed_forms, {"rows": rows, "printed_max_over_D_le_20": str(printed_max),
                                   "D=1": "the sum from k=2 to 1 is empty: 0 for every curve",
                                   "D=0": f"1/D = {sp.Rational(1, 1) / sp.Integer(0)} (undefined)"}


def released_algebra() -> tuple[bool, dict]:
    """For D' = 1..20, with sympy: the released quantity is (1/D') sum_{k=1}^{D'} (c_{k-1} + c_k)/2 with c_0 = 1,
    non-decreasing in every c_k; with f(xi) in (1/2, 1] and f in [0, 1], c_k = f(y^(k))/f(xi) lies in [0, 2), so
    the quantity lies in [1/(2D'), 2 - 1/(2D')), and the case f(xi) = 3/5, f(y^(1)) = 1 on a one-token document
    gives 4/3 > 1."""
    rows = []
    for d in range(1, MORF_MAX_PERTURBATIONS + 1):
        cs = sp.symbols(f"c0:{d + 1}")
        expr = sp.Rational(1, d) * sum((cs[k - 1] + cs[k]) / 2 for k in range(1, d + 1))
        top = expr.subs({cs[0]: 1, **{v: 2 for v in cs[1:]}})
        bottom = expr.subs({cs[0]: 1, **{v: 0 for v in cs[1:]}})
        rows.append({"D'": d, "coefficients_nonnegative": all(k >= 0 for k in _linear(expr, cs)),
                     "supremum": str(top), "supremum_is_2-1/(2D')": top == 2 - sp.Rational(1, 2 * d),
                     "infimum": str(bottom), "infimum_is_1/(2D')": bottom == sp.Rational(1, 2 * d)})
    above_one = released_value([Fraction(3, 5), Fraction(1)], 1)
    ok = all(r["coefficients_nonnegative"] and r["supremum_is_2-1/(2D')"] and r["infimum_is_1/(2D')"]
             for r in rows) and above_one > 1
    return ok, {"rows": rows, "example_above_one": {"f(xi)": "3/5", "f(y1)": "1", "n_tokens": 1,
                                                    "value": str(above_one)}}


# ------------------------------------------------------------------------------------------ the tables
def cell_hypotheses(cell: dict) -> dict:
    """When a printed aucmorf mean speaks to the definition: a cell of the aucmorf column of one of the paper's
    comparison tables (its experiments, D <= 20 by line 569); its model one of the classifiers of
    tab:model_accuracy, whose confidences lie in [0, 1] (line 233); the cell a mean over documents, printed as
    "mean (std)" with std >= 0 (line 1172: the metrics are computed over 100 documents), so it cannot exceed a bound
    that every per-document value respects."""
    in_table = cell["table"] in TABLES and cell["explainer"] in EXPLAINERS
    std = TABLES[cell["table"]].rows[cell["explainer"]][METRICS.index("aucmorf")][1] if in_table else None
    return hypotheses(aucmorf_cell_of_a_paper_table=in_table,
                      classifier_confidences_in_unit_interval=accuracy_key(cell["table"]) in MODEL_ACCURACY,
                      mean_over_documents=std is not None and std >= 0)


def aucmorf_cells() -> list[dict]:
    """Every printed aucmorf mean (34 tables x 5 explainers) with the line of the source that prints it."""
    return [{"table": label, "explainer": e, "line": row_line(label, e), "mean": t.mean(e, "aucmorf")}
            for label, t in TABLES.items() for e in EXPLAINERS]


def cells_above(bound: Fraction) -> list[dict]:
    """The cells whose mean exceeds ``bound`` even at the low end of its rounding (mean - 0.0005 > bound)."""
    return [{**cell, **cell_hypotheses(cell)} for cell in aucmorf_cells()
            if Fraction(str(cell["mean"])) - HALF_UNIT > bound]


def bound_in_tables(step: str, bound: Fraction, formula: str, reading: str) -> StepResult:
    """st2, st3: the printed aucmorf means against the largest value of ``formula``, ``bound`` (step p1)."""
    above = cells_above(bound)
    return CLAIM.checked(
        step, "statement", "exhaustive",
        f"{formula} never exceeds {bound} when f is a confidence in [0, 1] (step p1); of the {len(aucmorf_cells())} "
        f"printed aucmorf means, {len(above)} exceed {bound} even at the low end of their rounding: "
        + ", ".join(f"{c['table'].removeprefix('exp-tab:')} {c['explainer']} {c['mean']} (line {c['line']})"
                    for c in above) + ".",
        holds=not above, values={"bound": str(bound), "cells_checked": len(aucmorf_cells()), "above": above},
        reading=reading, part=DEFINITION)


# ------------------------------------------------------------------------------- the implementations
def _curve_scorer(curve, ranking):
    """A scorer for this project's metrics whose score is ``curve[m]`` once the first m ranked tokens are masked."""
    def f(texts):
        out = []
        for text in texts:
            masked = {i for i, token in enumerate(text.split()) if token == "UNK"}
            if masked != set(ranking[:len(masked)]):
                raise ValueError(f"masked {sorted(masked)} is not a prefix of the ranking {ranking}")
            out.append(float(curve[len(masked)]))
        return np.array(out)
    return f


def _grid():
    """Every (L, ranking, curve) with L <= 4 tokens, the ranking the last r positions in reverse (r = 0..L), f(xi)
    in {1/2, 1} and f(y^(k)) in {0, 1/2, 1}, and the 22-token case of :data:`RELEASED_CASES` (the cap of 20)."""
    half = Fraction(1, 2)
    for n in range(1, 5):
        for r in range(n + 1):
            for head in (half, Fraction(1)):
                for tail in itertools.product((Fraction(0), half, Fraction(1)), repeat=r):
                    yield n, list(range(n - 1, n - 1 - r, -1)), [head, *tail]
    n, ranking, curve = RELEASED_CASES[-1]
    yield n, ranking, [Fraction(v) for v in curve]


def ours_against_formulas() -> tuple[bool, dict]:
    """This project's aucmorf against the printed sum (NaN where D <= 1) and its aucmorf_authors against the
    released quantity, on every curve of :func:`_grid`."""
    mismatches, cases = [], 0
    for n, ranking, curve in _grid():
        cases += 1
        tokens = [f"w{i}" for i in range(n)]
        depth = min(MORF_MAX_PERTURBATIONS, len(ranking))
        ours = aucmorf(_curve_scorer(curve, ranking), tokens, ranking)
        exact = printed_value(curve, depth)
        if not (np.isnan(ours) if depth <= 1 else abs(ours - float(exact)) <= FLOAT_TOLERANCE):
            mismatches.append({"n": n, "ranking": ranking, "curve": [str(v) for v in curve], "aucmorf": ours})
        width = min(MORF_MAX_PERTURBATIONS, n)
        released = released_value(curve[:min(len(ranking), width) + 1], n)
        theirs = aucmorf_authors(_curve_scorer(curve, ranking), tokens, ranking)
        if abs(theirs - float(released)) > FLOAT_TOLERANCE:
            mismatches.append({"n": n, "ranking": ranking, "curve": [str(v) for v in curve],
                               "aucmorf_authors": theirs, "released_exact": str(released)})
    return not mismatches, {"cases": cases, "tolerance": FLOAT_TOLERANCE, "mismatches": mismatches}


def check() -> ClaimResult:
    """The direction, the tables against the bounds of both readings, the closed forms (sympy), then the corrected
    statement: the released code and this project's two implementations on exact curves."""
    algebra, released = printed_algebra(), released_algebra()
    steps = (
        direction(algebra, released),
        bound_in_tables("st2-area-bound", Fraction(1), "The normalised area", AREA),
        bound_in_tables("st3-printed-bound", Fraction(19, 20), "The printed sum", PRINTED),
        printed_closed_form(algebra),
        released_range(released),
        released_code(),
        this_project(),
        tables_in_released_range(),
    )
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=_counterexample(),
                        steps=steps, corrected=CORRECTED, source=SOURCE, readings=READINGS)


def direction(algebra: tuple[bool, dict], released: tuple[bool, dict]) -> StepResult:
    """st1: every coefficient of the three formulas is >= 0, and every table's arrow is down."""
    arrows = {label: BETTER["aucmorf"] for label in TABLES}
    monotone = all(r["printed_coefficients_nonnegative"] and r["area_coefficients_nonnegative"]
                   for r in algebra[1]["rows"]) and all(r["coefficients_nonnegative"] for r in released[1]["rows"])
    return CLAIM.checked(
        "st1-direction", "statement", "exhaustive",
        "'A smaller value of AUC-MoRF means a more faithful explanation': every coefficient of the printed sum, of the "
        "area and of the released quantity is >= 0 (D = 1..20, sympy), so a curve that drops faster gives a smaller "
        f"value; the aucmorf arrow is down in all {len(arrows)} tables.",
        holds=monotone and set(arrows.values()) == {-1}, values={"arrows": arrows, "monotone": monotone},
        part=DIRECTION)


def printed_closed_form(algebra: tuple[bool, dict]) -> StepResult:
    """p1: the printed sum's closed forms and its largest value on [0, 1] (sympy, D = 1..20)."""
    holds, seen = algebra
    return CLAIM.checked(
        "p1-printed-closed-form", "proof", "symbolic",
        "sympy, D = 1..20: the printed sum is (1/D) times the integral over [1, D] of the curve through (k, f(y^(k))), "
        "linear between consecutive k (the area under the perturbations 1..D); c(D-1)/D on a constant curve c; "
        "coefficients >= 0 summing to (D-1)/D (the area's: to 1), so the printed sum's largest value on [0, 1]^(D+1) "
        f"is (D-1)/D, at most {seen['printed_max_over_D_le_20']} (D = 20), and the area's is 1. Observation, not a "
        f"statement of the paper: printed - area = {seen['rows'][2]['printed_minus_area']} at D = 3, in general "
        "-(f0 + f1)/(2D): the printed sum leaves out the segment from the unperturbed document, so it is 0 at D = 1 "
        f"whatever the curve, and D = 0 gives {seen['D=0']}.", holds=holds, values=seen)


def released_range(released: tuple[bool, dict]) -> StepResult:
    """p2: the released quantity's range for positively classified documents (sympy, D' = 1..20)."""
    holds, seen = released
    return CLAIM.checked(
        "p2-released-range", "proof", "symbolic",
        "sympy, D' = 1..20: the released quantity is non-decreasing in every c_k, with c_0 = 1 and c_k = "
        "f(y^(k))/f(xi) in [0, 2) for a positively classified document (f(xi) > 1/2, line 1116): it lies in "
        "[1/(2D'), 2 - 1/(2D')); "
        f"f(xi) = 3/5, f(y^(1)) = 1 on one token gives {seen['example_above_one']['value']} > 1.",
        holds=holds, values=seen)


def released_code() -> StepResult:
    """c1: the released compute_aucmorf and evaluation loop (outside programs) against the released quantity;
    argued without the checkout."""
    values = released_against_formula()
    if values is None:
        return CLAIM.argued(
            "c1-released-code", "correction",
            f"{NOT_RUN} With it, this step runs its compute_aucmorf on {len(RELEASED_CASES)} exact curves, and its "
            "evaluation loop (experiments/evaluation.py) on the rows of all five explainers, Anchor's included, in a "
            "separate process and compares each value with the released quantity of the corrected statement. Without "
            "it, that quantity is the one fred.evaluation.metrics.aucmorf_authors implements (step c2 checks that "
            "implementation against it), not checked against the released code itself.")
    loop = released_evaluation()
    ok, loop_ok = all(r["agrees"] for r in values["rows"]), agree(loop, ("aucmorf",))
    case = next(c for c in loop["cases"] if len(c["anchor"]) > c["k"])
    signed = next(c for c in loop["cases"] if any(v.startswith("-") for v in c["explainer_scores"]))
    shap = signed["rows"]["SHAP"]
    return CLAIM.checked(
        "c1-released-code", "correction", "exhaustive",
        f"The released compute_aucmorf ({checkout_path()}), run as an outside program on {len(values['rows'])} exact "
        "curves, against the released quantity in Fractions: "
        + "; ".join(f"L={r['n_tokens']}, |e+|={len(r['ranking'])}: {r['released']:.6g} against {r['exact']} (printed "
                    f"sum: {r['printed_sum']})" for r in values["rows"])
        + f"; all within {FLOAT_TOLERANCE}: {ok}. Its evaluation loop, on '{loop['document']}' ({loop['model']}), "
          "scores every row of FRED, FRED_pos, LIME, SHAP and Anchor with that quantity on the row's e+, and Anchor's "
          f"e+ is its whole anchor (anchor {case['anchor']} with k = {case['k']}: "
          f"{case['rows']['Anchor']['aucmorf']:.6g} against {case['rows']['Anchor']['aucmorf_exact']}; FRED-pos's "
          f"row {case['rows']['FRED_pos']['aucmorf_exact']}); SHAP's e+ is every token by decreasing SHAP value, "
          f"negative ones included (scores {', '.join(signed['explainer_scores'])}: {shap['aucmorf']:.6g} against "
          f"{shap['aucmorf_exact']}; its positive tokens alone, as line 567 says, would give "
          f"{shap['positive_only']['aucmorf']}, LIME's row {signed['rows']['LIME']['aucmorf_exact']}): in every row "
          f"of {len(loop['cases'])} cases: {loop_ok}.",
        holds=ok and loop_ok, values={**values, "evaluation_loop": loop})


def this_project() -> StepResult:
    """c2: fred.evaluation.metrics' aucmorf and aucmorf_authors against the exact formulas."""
    holds, seen = ours_against_formulas()
    return CLAIM.checked(
        "c2-this-project", "correction", "exhaustive",
        f"fred.evaluation.metrics on {seen['cases']} exact curves (L <= 4 tokens, scores in {{0, 1/2, 1}}, and a "
        "22-token document for the cap of 20): aucmorf equals the printed sum where D >= 2 and is NaN where D <= 1; "
        f"aucmorf_authors equals the released quantity; mismatches beyond {FLOAT_TOLERANCE}: "
        f"{len(seen['mismatches'])}.", holds=holds, values=seen)


def tables_in_released_range() -> StepResult:
    """c3: every printed aucmorf mean in [0, 2), the released quantity's range, rounding included."""
    cells = aucmorf_cells()
    outside = [c for c in cells if not (Fraction(str(c["mean"])) + HALF_UNIT >= 0
                                        and Fraction(str(c["mean"])) - HALF_UNIT < 2)]
    return CLAIM.checked(
        "c3-tables-in-released-range", "correction", "exhaustive",
        f"All {len(cells)} printed aucmorf means lie in [0, 2), the released quantity's range (step p2), rounding "
        f"included; outside: {len(outside)}.", holds=not outside,
        values={"cells_checked": len(cells), "outside": outside})


def _counterexample() -> dict | None:
    """The claim's counterexample: the largest printed mean above 19/20, the printed sum's largest value."""
    above_printed_max = cells_above(Fraction(19, 20))
    if not above_printed_max:
        return None
    worst = max(above_printed_max, key=lambda c: c["mean"])
    return {"table": worst["table"], "explainer": worst["explainer"], "line": worst["line"],
            "printed_mean": worst["mean"],
            "bound": "19/20 (the printed sum's largest value for f in [0, 1] and D <= 20)",
            "above_the_area_bound_1_too": Fraction(str(worst["mean"])) - HALF_UNIT > 1,
            "satisfies_hypotheses": worst["satisfies_hypotheses"], "hypotheses": worst["hypotheses"]}
