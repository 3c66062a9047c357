"""Claim metric-aucmorf (proofs_checks/claims/metrics/metric_aucmorf.py, verdict "fails" on both readings: the tables print
39 aucmorf means above 19/20, the ceiling of the printed sum (headline: the paper's "can be defined as"), and 4 above
1, which no normalised area of a confidence curve reaches (this project's 'area' reading); corrected statement:
argued without the authors' checkout, holds with it).
"""

from __future__ import annotations

import itertools
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks.claims.metrics import metric_aucmorf as m
from proofs_checks.claims.metrics.aucmorf_formulas import area_value, printed_value, released_value
from proofs_checks.paper.tables import BETTER, EXPLAINERS, METRICS, TABLES, row_line
from proofs_checks.verdicts.quotes import paper_path
from tests._helpers import needs_authors_checkout, without_authors_checkout
from tests.claims._released_loop import reply, use_reply

CLAIM = "metric-aucmorf"
needs_checkout = needs_authors_checkout
needs_tex = pytest.mark.skipif(paper_path() is None, reason="the paper's LaTeX source is absent")


@pytest.fixture(scope="module")
def result():
    """The claim without the released code (the CI setting)."""
    return without_authors_checkout(m.check)


def test_steps_readings_and_verdicts(result):
    """Pins every step, both readings and the verdicts. Catches a headline chosen by which reading holds (both
    fail here) or by this project's reconstruction instead of the paper's formula, a released-code step typed as
    holding when nothing ran, and a correction without its proof."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == {
        f"{CLAIM}.st1-direction": ("statement", "exhaustive", "holds", None),
        f"{CLAIM}.st2-area-bound": ("statement", "exhaustive", "fails", "area"),
        f"{CLAIM}.st3-printed-bound": ("statement", "exhaustive", "fails", "printed"),
        f"{CLAIM}.p1-printed-closed-form": ("proof", "symbolic", "holds", None),
        f"{CLAIM}.p2-released-range": ("proof", "symbolic", "holds", None),
        f"{CLAIM}.c1-released-code": ("correction", "argument", "argued", None),
        f"{CLAIM}.c2-this-project": ("correction", "exhaustive", "holds", None),
        f"{CLAIM}.c3-tables-in-released-range": ("correction", "exhaustive", "holds", None),
    }
    assert {r.id: (r.role, result.reading_status(r.id)) for r in result.readings} == {
        "printed": ("headline", "fails"), "area": ("alternative", "fails")}
    assert (result.kind, result.status, result.corrected_status) == ("statement", "fails", "argued")


def test_the_headline_says_the_definition_fails_and_the_direction_holds(result):
    """Issue 40 item 5: 'a smaller value of AUC-MoRF means a more faithful explanation' holds (every coefficient
    >= 0, every arrow down) while the defined quantity cannot be the tables' column (39 printed means above 19/20).
    Catches a headline that gives the direction no credit, or the direction checked by a step of the definition."""
    direction, definition = ("a smaller value means a more faithful explanation",
                             "the defined AUC-MoRF is the tables' aucmorf column")
    assert {s.id.split(".")[1]: s.part for s in result.steps if s.part} == {
        "st1-direction": direction, "st2-area-bound": definition, "st3-printed-bound": definition}
    assert result.verdict == f"fails in part: {direction} holds; {definition} fails"


def test_the_headline_is_the_printed_formula(result):
    """Regression (R2G review): the headline reading quotes "The AUC-MoRF can be defined as" (line 562) and the
    formula (563); no statement step fails merely because the printed sum differs from this project's area (that
    difference is an observation in p1). Catches the project's reconstruction promoted to the headline again, or a
    'printed is not the area' step deciding a verdict."""
    assert [q.line for q in result.headline.why][:2] == [562, 563] and result.headline.id == "printed"
    failing = [s.id for s in result.steps if s.role == "statement" and s.status == "fails"]
    assert failing == [f"{CLAIM}.st2-area-bound", f"{CLAIM}.st3-printed-bound"]
    assert "Observation, not a statement of the paper" in result.steps[3].note


@pytest.mark.parametrize("depth", range(1, 9))
def test_the_printed_sum_is_an_area_over_the_perturbations(depth):
    """The printed sum equals (1/D) times the area under the piecewise-linear curve through (k, f_k), k = 1..D, on
    random rational curves, computed here as the shoelace area of the polygon (1, 0), (1, f_1), ..., (D, f_D),
    (D, 0) (a different formula from the trapezoids). Catches a headline reading whose 'area' words the printed
    sum would not fit."""
    rng = np.random.default_rng(depth)
    for _ in range(20):
        curve = [Fraction(int(v), 16) for v in rng.integers(0, 17, size=depth + 1)]
        poly = [(Fraction(1), Fraction(0))] + [(Fraction(k), curve[k]) for k in range(1, depth + 1)] + \
            [(Fraction(depth), Fraction(0))]
        shoelace = abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))) / 2
        assert printed_value(curve, depth) == shoelace / depth


def _exceeding(bound: Decimal) -> set[tuple[str, str]]:
    """Cells whose printed mean minus half a unit of its last decimal is above ``bound``, in decimal arithmetic."""
    return {(label, e) for label, t in TABLES.items() for e in EXPLAINERS
            if Decimal(str(t.mean(e, "aucmorf"))) - Decimal("0.0005") > bound}


def test_the_cells_above_each_bound(result):
    """39 cells above 19/20 and 4 above 1 (decimal arithmetic on the transcription, independent of the claim's
    Fractions), with the lines R8 cites for the four above 1. Catches a count that ignores rounding (a printed
    0.950 may be 0.9504) or misses a table."""
    above_1 = _exceeding(Decimal(1))
    above_95 = _exceeding(Decimal("0.95"))
    assert len(above_95) == 39 and len(above_1) == 4
    steps = {s.id.split(".")[1]: s for s in result.steps}
    assert {(c["table"], c["explainer"]) for c in steps["st2-area-bound"].values["above"]} == above_1
    assert {(c["table"], c["explainer"]) for c in steps["st3-printed-bound"].values["above"]} == above_95
    assert sorted(c["line"] for c in steps["st2-area-bound"].values["above"]) == [1286, 1288, 1289, 1561]


def test_counterexample_satisfies_the_hypotheses(result):
    """The headline's counterexample is the largest cell above 19/20 (restaurants_distilbert_1, SHAP, 1.015, line
    1288), above 1 too, and its record says it is a cell of a paper table, for a classifier whose confidences lie in
    [0, 1] (line 233), and a mean over documents. Catches a counterexample outside the definition's scope or a
    record that does not name the hypotheses the bound needs (R2G review)."""
    cx = result.counterexample
    assert (cx["table"], cx["explainer"], cx["printed_mean"], cx["line"]) == (
        "exp-tab:restaurants_distilbert_1", "shap", 1.015, 1288)
    assert cx["bound"].startswith("19/20") and cx["above_the_area_bound_1_too"] is True
    assert cx["satisfies_hypotheses"] is True and set(cx["hypotheses"]) == {
        "aucmorf_cell_of_a_paper_table", "classifier_confidences_in_unit_interval", "mean_over_documents"}
    assert all(cx["hypotheses"].values())


def test_a_cell_outside_the_tables_fails_the_hypotheses():
    """A made-up cell (an explainer the tables do not have) is outside the hypotheses. Catches a hypotheses record
    that is true whatever the cell."""
    record = m.cell_hypotheses({"table": "exp-tab:restaurants_distilbert_1", "explainer": "random"})
    assert record["satisfies_hypotheses"] is False and record["hypotheses"]["aucmorf_cell_of_a_paper_table"] is False


def _trapezoids(curve, start: int, depth: int) -> Fraction:
    """(1/depth) * sum of the trapezoids from index ``start`` to ``depth``, written as endpoint halves plus
    interior points (a different arrangement of the sum than the claim's)."""
    pts = [Fraction(v) for v in curve[start - 1:depth + 1]]
    if len(pts) < 2:
        return Fraction(0)
    return (pts[0] / 2 + sum(pts[1:-1]) + pts[-1] / 2) / depth


@pytest.mark.parametrize("depth", range(1, 7))
def test_printed_sum_and_area_by_enumeration(depth):
    """On every 0/1 curve of length depth + 1: the printed sum and the area match the rearranged sums; the printed
    sum's maximum is (D-1)/D (constant 1), the area's is 1; printed = area - (f0 + f1)/(2D). Catches an index slip
    in either formula (the printed sum starts at k = 2) or a bound that the enumeration exceeds."""
    curves = list(itertools.product((0, 1), repeat=depth + 1))
    for curve in curves:
        assert printed_value(curve, depth) == _trapezoids(curve, 2, depth)
        assert area_value(curve, depth) == _trapezoids(curve, 1, depth)
        assert printed_value(curve, depth) == area_value(curve, depth) - Fraction(curve[0] + curve[1], 2 * depth)
    assert max(printed_value(c, depth) for c in curves) == Fraction(depth - 1, depth)
    assert max(area_value(c, depth) for c in curves) == 1
    assert printed_value((0,), 0) is None


def test_released_quantity_by_hand():
    """Hand values of the released quantity: one token whose masking raises 1/2 to 3/4 gives (1 + 3/2)/2 = 5/4; an
    empty ranking gives 1; three tokens, ranking of two, 1 -> 1/2 -> 1/4 padded once: (3/4 + 3/8 + 1/4)/3 = 11/24.
    Catches a missing normalisation by f(xi), padding or first segment."""
    assert released_value([Fraction(1, 2), Fraction(3, 4)], 1) == Fraction(5, 4)
    assert released_value([Fraction(3, 4)], 3) == 1
    assert released_value([1, Fraction(1, 2), Fraction(1, 4)], 3) == Fraction(11, 24)


def test_this_projects_check_can_fail(monkeypatch):
    """If fred.evaluation.metrics.aucmorf computed the area instead of the printed sum, step c2 would fail. Catches a
    comparison that passes whatever the implementation returns."""
    def area_instead(f, tokens, ranking):
        depth = min(20, len(ranking))
        curve = [f([" ".join("UNK" if i in ranking[:k] else t for i, t in enumerate(tokens))])[0]
                 for k in range(depth + 1)]
        return float(area_value([Fraction(v) for v in curve], depth)) if depth >= 2 else np.nan

    monkeypatch.setattr(m, "aucmorf", area_instead)
    ok, values = m.ours_against_formulas()
    assert not ok and values["mismatches"]


@needs_tex
def test_headers_and_row_lines_are_the_printed_ones():
    """Every table header of the source has the aucmorf arrow down (the claim's direction step reads BETTER), and
    row_line points at the printed row of each explainer with the transcribed numbers. Catches a line number that
    would send a reader to the wrong row."""
    lines = paper_path().read_text().splitlines()
    headers = [line for line in lines if r"\texttt{suffic.}" in line]
    assert len(headers) == len(TABLES)
    assert all(r"\texttt{aucmorf} $\downarrow$" in h for h in headers) and BETTER["aucmorf"] == -1
    for label, table in TABLES.items():
        for e in EXPLAINERS:
            line = lines[row_line(label, e) - 1]
            assert line.startswith(f"{e} & "), (label, e)
            printed = [float(x) for x in re.findall(r"\$(-?\d+\.\d+) \(", line)]
            assert printed == [table.mean(e, metric) for metric in METRICS], (label, e)


@needs_checkout
def test_the_released_code_computes_the_released_quantity():
    """With the authors' checkout: their compute_aucmorf, run as an outside program, returns the released quantity
    on every case (5/4 on the one-token case where masking raises the confidence), and the corrected statement
    holds. Catches a c1 that stays argued when the released code can be run, or a wrong closed form."""
    result = m.check()
    step = next(s for s in result.steps if s.id.endswith("c1-released-code"))
    assert (step.evidence, step.status) == ("exhaustive", "holds")
    assert step.values["rows"][0]["released"] == 1.25 and step.values["rows"][0]["exact"] == "5/4"
    assert result.corrected_status == "holds"


def test_without_the_checkout_c1_says_not_run_here(result):
    """Without $FRED_AUTHORS_CHECKOUT, c1 says 'Not run here', names the variable and promises the evaluation loop's
    rows, Anchor's included. Catches a step that runs nothing and says nothing of why."""
    note = next(s for s in result.steps if s.id.endswith("c1-released-code")).note
    assert note.startswith("Not run here") and "$FRED_AUTHORS_CHECKOUT" in note and "Anchor" in note


def test_a_loop_masking_the_cut_anchor_fails_c1(monkeypatch, tmp_path):
    """If the evaluation loop's Anchor row masked the anchor cut to k = 1 (19/24 by hand) instead of the whole anchor
    [0, 1] (2/3), c1 would fail though compute_aucmorf itself agrees. Catches a c1 that leaves the loop's rows out
    of its verdict."""
    rows = [{"agrees": True, "n_tokens": 1, "ranking": [0], "released": 1.25, "exact": "5/4", "printed_sum": "0"}]
    monkeypatch.setattr(m, "released_against_formula", lambda: {"files": [], "rows": rows, "tolerance": 1e-12})
    use_reply(monkeypatch, tmp_path / "planted", reply((2, "Anchor", "aucmorf", Fraction(19, 24))))
    assert m.released_code().status == "fails"
    use_reply(monkeypatch, tmp_path / "right", reply())
    assert m.released_code().status == "holds"


@needs_checkout
def test_the_released_loop_masks_the_whole_anchor():
    """With the authors' checkout: the released loop's Anchor row for anchor [0, 1] with k = 1 has AUC-MoRF 2/3 (by
    hand: (7/8 + 5/8 + 1/2)/3, the whole anchor masked), the importance rows 5/8, and c1 holds; with the last token
    scored negatively, SHAP's row masks it too (5/8, every token) while LIME's masks the two positive ones (2/3).
    Catches a c1 that compares the Anchor or SHAP rows with the wrong e+."""
    step = next(s for s in m.check().steps if s.id.endswith("c1-released-code"))
    assert step.status == "holds"
    rows = step.values["evaluation_loop"]["cases"][2]["rows"]
    assert rows["Anchor"]["aucmorf"] == pytest.approx(2 / 3, abs=1e-12)
    assert rows["FRED_pos"]["aucmorf"] == pytest.approx(5 / 8, abs=1e-12)
    signed = step.values["evaluation_loop"]["cases"][3]["rows"]  # the last token scored -1/10 by every explainer
    assert signed["SHAP"]["aucmorf"] == pytest.approx(5 / 8, abs=1e-12)  # all three masked, the negative one too
    assert signed["LIME"]["aucmorf"] == pytest.approx(2 / 3, abs=1e-12)  # the two positive ones only (line 567)
