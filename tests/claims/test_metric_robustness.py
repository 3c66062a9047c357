"""Claim metric-robustness (proofs_checks/claims/metrics/metric_robustness.py, verdict "holds" with the released
code's checkout, "holds (argued)" without it): Robustness = (1/k) sum_i J(e, e_i) (lines 574-581), checked against the
released compute_robustness on planted cases, the committed per-document values and the paper's 170 printed means.

Every expectation is independent of the claim's code: hand computations of the planted cases (written out in the
docstrings), the committed CSVs read with pandas, the printed tables read from the LaTeX by the tests' own parser.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pandas as pd
import pytest

from fred.evaluation.config import results_dir
from proofs_checks.claims.metrics import metric_robustness as claim
from tests._helpers import needs_authors_checkout, without_authors_checkout
from tests.claims._paper_tex_tables import tex_tables

CLAIM = "metric-robustness"
#: The planted cases by hand, in the claim's order (documents w0..w3):
#: mean-of-three: e = {0,1}; re-runs {0,1}, {1,2}, {2,3} -> J = 1, 1/3, 0 -> 4/9.
#: lime-cut-to-k: e = {0,1}; re-run ranked 0, 2, 1, cut to k = 2 -> {0,2} -> J = 1/3 (uncut {0,1,2}: 2/3).
#: one-empty: e = {}; re-run {0} -> J = 0/1 = 0.
#: fred-not-cut: e = {0,1,2}; FRED's re-run {0,1,2} kept whole although k = 1 -> J = 1 (cut to {0}: 1/3).
#: both-empty: e = {}; re-runs {}, {} -> 0/0 twice; the released code: 1.
#: empty-then-not: e = {}; re-runs {}, {0} -> (1 + 0) / 2 = 1/2 with J(empty, empty) = 1.
BY_HAND = [Fraction(4, 9), Fraction(1, 3), Fraction(0), Fraction(1), Fraction(1), Fraction(1, 2)]


def step(result, name: str):
    return next(s for s in result.steps if s.id == f"{CLAIM}.{name}")


@pytest.fixture(scope="module")
def plain():
    """The claim without the released code (the CI setting)."""
    return without_authors_checkout(claim.check)


def test_without_the_checkout_the_released_steps_say_not_run(plain):
    """Without $FRED_AUTHORS_CHECKOUT the two released-code steps are argued, say 'Not run here' and name the
    variable, and the claim is 'holds (argued)'. Catches a released step typed as holding when nothing ran."""
    assert {s.id.split(".")[1]: s.status for s in plain.steps} == {
        "p1-jaccard-range": "holds", "r1-released-formula": "argued", "r2-empty-explanations": "argued",
        "r3-committed-values": "holds", "r4-printed-means": "holds"}
    for name in ("r1-released-formula", "r2-empty-explanations"):
        note = step(plain, name).note
        assert note.startswith("Not run here") and "$FRED_AUTHORS_CHECKOUT" in note
    assert (plain.kind, plain.status) == ("statement", "argued")


@needs_authors_checkout
def test_released_metric_on_the_planted_cases():
    """With the checkout: the released compute_robustness gives the hand-computed values of the six planted cases
    (module constant BY_HAND), including 1 for two empty explanations; both steps hold and so does the claim.
    Catches a probe that calls the metric with the paper's k in place of its 'repetitions', or does not cut LIME's
    re-runs (lime-cut-to-k would be 2/3)."""
    released = claim.released_values()
    assert released == pytest.approx([float(v) for v in BY_HAND], abs=1e-12)
    result = claim.check()
    assert step(result, "r1-released-formula").status == "holds"
    assert step(result, "r2-empty-explanations").status == "holds"
    assert result.status == "holds"
    assert {r.id: result.reading_status(r.id) for r in result.readings} == {
        "formula": "holds", "empty-as-one": "holds"}


def test_formula_helpers_by_hand():
    """The claim's own formula on the planted cases: BY_HAND where J is defined, None (0/0) on the both-empty
    cases, 2/3 for the lime-cut-to-k case read uncut, and the empty-as-one values. Catches a formula that silently
    turns 0/0 into 0 or 1, or that ignores the cut."""
    by_name = {case[0]: case for case in claim.CASES}
    for case, expected in zip(claim.CASES, BY_HAND, strict=True):
        assert claim.with_empty_as_one(case) == expected
        assert claim.formula(case) == (None if case[0] in ("both-empty", "empty-then-not") else expected)
    assert claim.formula(by_name["lime-cut-to-k"], cut=False) == Fraction(2, 3)
    assert claim.jaccard(frozenset(), frozenset()) is None


def test_jaccard_range_counts_every_pair(plain):
    """p1 enumerates 32 * 32 - 1 = 1023 pairs of subsets of 5 tokens (all but the empty pair) with no exception.
    Catches an enumeration that skips pairs."""
    assert step(plain, "p1-jaccard-range").values == {"pairs": 1023, "exceptions": []}


def test_committed_values_read_with_pandas(plain):
    """r3 against the committed CSVs read with pandas: every non-missing robustness is in [0, 1], and their number
    (8 runs of 100 documents and 2 of 100 documents with two explainers: 8 * 500 + 2 * 200 = 4400) is the step's.
    Catches a loader that drops rows or a range check that passes a value above 1."""
    values = pd.concat([pd.read_csv(p)["robustness"] for p in results_dir().glob("*.csv")
                        if p.with_suffix(".run.json").is_file()]).dropna()
    assert len(values) == 4400 == step(plain, "r3-committed-values").values["values"]
    assert values.between(0, 1).all()
    assert step(plain, "r3-committed-values").values["outside"] == []


def test_printed_means_from_the_tex(plain):
    """r4 against the tests' own parse of the LaTeX: 34 tables x 5 explainers = 170 robustness means, all in
    [0, 1], the lowest 0.344 (fredpos, exp-tab:imdb_distilbert_1). Catches a transcription that loses a table or
    mislabels the lowest cell."""
    cells = [(label, x, row.means["robustness"]) for label, t in tex_tables().items() for x, row in t.rows.items()]
    assert len(cells) == 170 == step(plain, "r4-printed-means").values["cells"]
    assert all(0 <= m <= 1 for _, _, m in cells)
    lowest = min(cells, key=lambda c: c[2])
    assert lowest == ("exp-tab:imdb_distilbert_1", "fredpos", Fraction("0.344"))
    seen = step(plain, "r4-printed-means").values["lowest"]
    assert (seen["table"], seen["explainer"], seen["mean"]) == (lowest[0], lowest[1], 0.344)


def test_bhatia_davis_refuses_a_planted_standard_deviation():
    """The standard-deviation bound by hand: a printed mean 1.000 is at least 0.9995, so n = 100 values in [0, 1]
    have sd <= sqrt(0.9995 * 0.0005 * 100 / 99) = 0.02247; a printed sd of 0.09 there is impossible, 0.02 possible;
    at mean 0.5, sqrt(0.25 * 100 / 99) = 0.50252. Catches a bound that lets any sd through."""
    assert claim.bhatia_davis(1.0, 100) == pytest.approx(math.sqrt(0.9995 * 0.0005 * 100 / 99), abs=1e-12)
    assert 0.09 - 0.005 > claim.bhatia_davis(1.0, 100) >= 0.02 - 0.005
    assert claim.bhatia_davis(0.5, 100) == pytest.approx(0.50252, abs=1e-5)
