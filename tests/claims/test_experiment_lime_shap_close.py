"""Claim experiment-lime-shap-close (proofs_checks/claims/experiments/experiment_lime_shap_close.py, verdict
"inconclusive" on the headline reading): "LIME and SHAP have a close behavior" (lines 693 and 1179), read on the whole
like the other summary sentences of its paragraph, by the yardstick (proofs_checks/paper/yardstick.py): an
equivalence test at the declared margin, 0.2 pooled SD (Cohen's small effect), each side at 0.05/3 (z 2.128). Over 100
documents no equivalence below 0.301 SD can be shown, so no cell is shown close at 0.2: the headline is inconclusive,
and its sensitivity table turns to "holds" at exactly 0.58 SD. Nine faithfulness cells are shown not close (beyond 0.2
SD), so the stronger every-table
reading fails, and robustness (17 tables) too.

The cells and the z-scores are recomputed here from the LaTeX source, by the hand formulas of the yardstick.
"""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import pytest

from ._paper_tex_tables import tex_tables

CLAIM = "experiment-lime-shap-close"
FAITHFUL = ("sufficiency", "comprehensiveness", "aucmorf")
SECTION4 = {"exp-tab:restaurants_roberta_5", "exp-tab:yelp_forest_5", "exp-tab:imdb_distilbert_5",
            "exp-tab:imdb_roberta_5", "exp-tab:tweets_tree_5", "exp-tab:tweets_forest_5"}
Z = NormalDist().inv_cdf(1 - 0.05 / 6)
#: Each side of the TOST at 0.05 / 3: 2.128.
Z_TOST = NormalDist().inv_cdf(1 - 0.05 / 3)
DELTA = 0.2


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result("experiment-lime-shap-close")  # the session's one run of the claim (tests/conftest.py)


@pytest.fixture(scope="module")
def tables():
    return tex_tables()


def _pooled(t, metric, widen: float) -> float:
    lime, shap = float(t.rows["lime"].sds[metric]), float(t.rows["shap"].sds[metric])
    return math.sqrt((max(0.0, lime + widen) ** 2 + max(0.0, shap + widen) ** 2) / 2)


def _close(t, metric, margin: float) -> int:
    """+1 shown close, -1 shown not close, 0 undecided, by hand (two one-sided tests at Z_TOST, not close at Z, worst
    rounding)."""
    g = abs(float(t.rows["lime"].means[metric] - t.rows["shap"].means[metric]))
    small, big, root = _pooled(t, metric, -0.005), _pooled(t, metric, 0.005), math.sqrt(2 / t.documents)
    if small and (margin * small - g - 0.001) / (small * root) >= Z_TOST:
        return 1
    return -1 if (max(0.0, g - 0.001) - margin * big) / (big * root) >= Z else 0


def _not_close(tables, labels, metrics, margin: float = DELTA) -> set[tuple[str, str]]:
    return {(label, m) for label in labels for m in metrics if _close(tables[label], m, margin) < 0}


def test_steps_readings_and_verdicts(result):
    """Pins every step and the readings' verdicts. Catches a closeness judged on time (the sentence's other half),
    a headline that ignores one of the two sentences, the every-table reading (stronger) back at the headline, or
    the untestable same-tokens reading reported as checked."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == {
        f"{CLAIM}.st1-on-the-whole": ("statement", "statistical", "inconclusive", "on-the-whole"),
        f"{CLAIM}.st2-every-table-section4": ("statement", "statistical", "fails", "every-table"),
        f"{CLAIM}.st2-every-table-appendix": ("statement", "statistical", "fails", "every-table"),
        f"{CLAIM}.st3-robustness": ("statement", "statistical", "fails", "every-metric"),
        f"{CLAIM}.st4-same-tokens": ("statement", "argument", "argued", "same-tokens"),
        f"{CLAIM}.c1-tables": ("correction", "statistical", "holds", None),
        f"{CLAIM}.st5-paired-runs": ("statement", "statistical", "holds", "paired-runs"),
    }
    assert {r.id: (r.role, result.reading_status(r.id)) for r in result.readings} == {
        "on-the-whole": ("headline", "inconclusive"), "every-table": ("stronger", "fails"),
        "every-metric": ("stronger", "fails"), "same-tokens": ("alternative", "unproved"),
        "paired-runs": ("alternative", "holds")}
    assert (result.kind, result.status, result.verdict, result.corrected_status, result.counterexample) == (
        "experiment", "inconclusive", "inconclusive", "holds", None)


def test_headline_quotes_the_summary_paragraph():
    """The headline (on the whole) quotes the summaries that are meant on the whole, lines 689 and 1177, with the
    computed reason (FRED best in all three faithfulness cells of only 11 of 34 tables), and 694 (robustness set
    apart); round 3: not line 691's "In general" (the Anchor sentence's hedge) nor the other half's reading.
    Catches a headline reading with no words behind it, or the circular justification."""
    from proofs_checks.claims.experiments.experiment_lime_shap_close import READINGS

    headline = next(r for r in READINGS if r.role == "headline")
    assert headline.id == "on-the-whole"
    assert {689, 693, 694, 1177} <= {q.line for q in headline.why}
    assert not any(q.text.startswith("In general") for q in headline.why)
    assert "only 11 of the 34 tables" in headline.meaning and "second half" not in headline.meaning
    assert "noise" not in headline.meaning


def test_on_the_whole_from_the_source(result, tables):
    """The headline's counts at 0.2 SD, recomputed from the source by the hand formulas: no cell shown close, 3 of
    18 section-4 cells and 6 of 84 appendix cells shown not close; each sentence inconclusive (neither a majority
    close nor a majority, or half the tables, not close). Catches a count over the wrong tables, or closeness
    declared on a non-rejection."""
    appendix = set(tables) - SECTION4
    tallies = result.steps[0].values["tallies"]
    for scope, labels in (("section4", SECTION4), ("appendix", appendix)):
        cells = [_close(tables[label], m, DELTA) for label in labels for m in FAITHFUL]
        t = tallies[scope]
        assert (t["close"], t["not_close"], t["undecided"]) == (cells.count(1), cells.count(-1), cells.count(0))
        assert set(t["tables_not_close"]) == {label for label, _ in _not_close(tables, labels, FAITHFUL)}
        assert t["status"] == "inconclusive" and t["reachable"] is False
    assert (tallies["section4"]["not_close"], tallies["appendix"]["not_close"], tallies["section4"]["close"]
            + tallies["appendix"]["close"]) == (3, 6, 0)
    assert result.steps[0].values["margin"] == DELTA


def test_sensitivity_from_the_source(result, tables):
    """The sensitivity table, row by row from the source: each sentence's cells close / not close / undecided at
    each margin, and the headline's status (holds when most cells are close and at most half of the tables have
    one not close, fails when most are not close or more than half of the tables have one). It turns between 0.5
    and 0.8 only, exactly at 0.58 (scanned here on the 0.01 grid by the hand formulas). Catches a sensitivity table
    computed on other cells than the headline's, a turn misreported, or the coarse grid's 0.8 given as the turning
    margin (issue 40: 'shown close at 0.8 SD and above, not below' was false by the yardstick's own rule)."""
    appendix = set(tables) - SECTION4
    table = result.steps[0].values["sensitivity"]
    assert table["declared"] == DELTA and table["turns_between"] == [[0.5, 0.8]] and table["turns_at"] == [0.58]
    for row in [*table["rows"], {"margin": 0.57, "status": "inconclusive"}, {"margin": 0.58, "status": "holds"}]:
        statuses = []
        for line, labels in ((693, SECTION4), (1179, appendix)):
            cells = [(label, _close(tables[label], m, row["margin"])) for label in labels for m in FAITHFUL]
            outcome = [o for _, o in cells]
            bad = {label for label, o in cells if o < 0}
            assert row.get(f"line {line} close / not / undecided", f"{outcome.count(1)} / {outcome.count(-1)} / "
                           f"{outcome.count(0)}") == (
                f"{outcome.count(1)} / {outcome.count(-1)} / {outcome.count(0)}"), (row["margin"], line)
            statuses.append("holds" if 2 * outcome.count(1) > len(cells) and 2 * len(bad) <= len(labels) else
                            "fails" if 2 * outcome.count(-1) > len(cells) or 2 * len(bad) > len(labels) else
                            "inconclusive")
        assert row["status"] == ("fails" if "fails" in statuses else "holds" if statuses == ["holds"] * 2 else
                                 "inconclusive"), row["margin"]


def test_no_margin_is_chosen_from_the_data(result, tables):
    """Regression for issue 40: the old margin was 0.228, the largest gap by which FRED wins a faithfulness cell
    (FRED-mask's comprehensiveness, restaurants_roberta_1, recomputed here); the claim now records the declared
    0.2 pooled SD in every step, and neither the number 0.228 nor a largest FRED margin appears. Catches the
    data-chosen margin coming back."""
    best = max((max(t.arrows[m] * t.rows[e].means[m] for e in ("fred", "fredpos"))
                - max(t.arrows[m] * t.rows[e].means[m] for e in ("lime", "shap", "anchor")), label, m)
               for label, t in tables.items() for m in FAITHFUL)
    assert best == (Fraction(228, 1000), "exp-tab:restaurants_roberta_1", "comprehensiveness")
    for s in result.steps:
        if s.evidence != "argument":
            assert s.values["margin"] == DELTA and "yardstick" not in s.values, s.id
            assert "0.228" not in s.note
    assert "0.228" not in result.corrected and "0.228" not in result.conditions


def test_the_cells_that_are_not_close_from_the_source(result, tables):
    """The not-close cells at 0.2 SD, recomputed here: 3 in section 4, 6 in the appendix (AUC-MoRF mostly, where
    small SDs make small gaps large effects), robustness in 17 tables. Catches a z-score on standard deviations
    instead of standard errors, a margin in metric units, or the two sentences' tables mixed up."""
    appendix = set(tables) - SECTION4
    expected = {"st2-every-table-section4": _not_close(tables, SECTION4, FAITHFUL),
                "st2-every-table-appendix": _not_close(tables, appendix, FAITHFUL),
                "st3-robustness": _not_close(tables, tables, ("robustness",))}
    assert {k: len(v) for k, v in expected.items()} == {"st2-every-table-section4": 3, "st2-every-table-appendix": 6,
                                                        "st3-robustness": 17}
    assert ("exp-tab:imdb_roberta_5", "sufficiency") in expected["st2-every-table-section4"]
    steps = {s.id.removeprefix(f"{CLAIM}."): s for s in result.steps}
    for step_id, cells in expected.items():
        assert {(c["table"], c["metric"]) for c in steps[step_id].values["not_close"]} == cells, step_id


def test_every_table_counterexample_satisfies_the_hypotheses(result, tables):
    """The stronger reading's counterexample (in its step: the headline is not decided by it) is section 4's
    not-close cell of largest effect, restaurants_roberta_5 AUC-MoRF (LIME 0.162 (0.13) against SHAP 0.306 (0.21):
    0.143 / sqrt((0.135^2 + 0.215^2) / 2) = 0.80 SD, by hand), where the two explainers' proportions are equal in
    the source (the protocol's premise holds). Catches a counterexample from a table whose LIME explanations were
    smaller (those differ in proportion), or one promoted to the claim."""
    ce = next(s for s in result.steps if s.id.endswith("st2-every-table-section4")).values["counterexample"]
    t = tables[ce["table"]]
    assert (ce["table"], ce["metric"], ce["sentence_line"]) == ("exp-tab:restaurants_roberta_5", "aucmorf", 693)
    assert (Fraction(str(ce["mean_x"])), Fraction(str(ce["mean_y"]))) == (t.rows["lime"].means["aucmorf"],
                                                                          t.rows["shap"].means["aucmorf"])
    assert ce["effect_worst"] == pytest.approx(0.143 / math.sqrt((0.135 ** 2 + 0.215 ** 2) / 2), rel=1e-9)
    assert t.rows["lime"].means["proportion"] == t.rows["shap"].means["proportion"]
    assert ce["satisfies_hypotheses"] is True and all(ce["hypotheses"].values())
    assert result.counterexample is None


def test_precise_statement(result, tables):
    """The precise statement: no equivalence below 0.301 SD over 100 documents (2.128 sqrt(0.02)), the 9
    faithfulness cells shown not close by model, how many of them clear Phi^-1(1 - 0.05/204) = 3.486 too (a
    correction over all 102 cells; beyond-margin z by hand), and the margin from which the headline holds. Catches
    a precise statement that keeps the old RoBERTa-only exception, which the declared margin does not give, and
    (issue 40) one that gives the coarse grid's 0.8 SD as the margin from which it holds where it turns at 0.58."""
    values = result.steps[-1].values
    z_all = NormalDist().inv_cdf(1 - 0.05 / 204)
    assert values["z_all_cells"] == pytest.approx(z_all, rel=1e-12) and round(z_all, 3) == 3.486
    bad = _not_close(tables, tables, FAITHFUL)
    assert {(c["table"], c["metric"]) for c in values["not_close"]} == bad and len(bad) == 9
    models = {}
    for label, _ in bad:
        models[label.split("_")[1]] = models.get(label.split("_")[1], 0) + 1
    assert values["not_close_by_model"] == models == {"roberta": 5, "distilbert": 1, "logistic": 3}

    def beyond(label, m):
        t, big = tables[label], _pooled(tables[label], m, 0.005)
        g = abs(float(t.rows["lime"].means[m] - t.rows["shap"].means[m]))
        return (g - 0.001 - DELTA * big) / (big * math.sqrt(2 / t.documents))
    assert values["survive_all_cells"] == sum(beyond(label, m) >= z_all for label, m in bad)
    assert values["holds_from_margins"] == [0.8] and values["turns_at"] == [0.58] and result.corrected_status == "holds"
    assert "no equivalence below 0.301 SD" in result.corrected and "0.58 SD and above" in result.corrected
    assert "0.8 SD and above" not in result.corrected and "the paired re-runs (st5) support" in result.corrected


def test_median_effect_on_the_printed_numbers(result, tables):
    """The median |effect| of the 102 LIME/SHAP faithfulness cells on the printed numbers, by hand: |gap| over
    sqrt((s_x^2 + s_y^2) / 2) with the printed SDs: 0.180 SD, 53 cells under 0.2 SD; the figure at the rounding most
    favourable to closeness (0.133) only labelled beside it. Catches the issue-40 bug: the favourable rounding reported
    alone as 'the' median effect."""
    from statistics import median

    effects = []
    for t in tables.values():
        for m in FAITHFUL:
            g = abs(float(t.rows["lime"].means[m] - t.rows["shap"].means[m]))
            p = math.sqrt((float(t.rows["lime"].sds[m]) ** 2 + float(t.rows["shap"].sds[m]) ** 2) / 2)
            effects.append(g / p if p else 0.0 if g == 0 else math.inf)
    values, note = result.steps[0].values, result.steps[0].note
    assert values["median_effect_printed"] == pytest.approx(median(effects), abs=1e-9)
    assert round(median(effects), 3) == 0.18
    assert values["cells_under_margin_printed"] == sum(e < DELTA for e in effects) == 53
    assert "on the printed numbers 0.180 SD, 53 of 102 cells under 0.2 SD" in note
    assert note.startswith("In words: inconclusive; 'close' is untestable from the tables at 0.2 SD; 9 of 102 cells "
                           "are shown beyond it; the paired re-runs (st5) support closeness.")




def test_paired_runs_from_the_csv(result):
    """st5, the paired reading on the committed runs, recomputed from the CSV with scipy's one-sample t-tests
    against +/- 0.2 pooled SD of the values: 15 cells close, 5 not close (the Yelp runs' comprehensiveness and
    AUC-MoRF), 3 of 9 runs with a cell not close. Catches a margin taken in SD of the differences, a one-sided test
    at the wrong level (issue 40: each side of the TOST at 0.05/3, the 'not close' side at 0.05/6), the TOST's two
    halves confused, or the AUC-MoRF read from the wrong column; the exact turning margin is 0.14 (the grid's
    0.15)."""
    from scipy import stats

    from ._experiment_results import read

    step = next(s for s in result.steps if s.id == f"{CLAIM}.st5-paired-runs")
    level, level_beyond = 0.05 / 3, 0.05 / 6
    outcomes = {}
    for test in step.values["tests"]:
        path = next(f for f in step.values["files"]
                    if f.split("/")[1].removesuffix(".csv").replace("_p0.5_eps0.15", "").replace("_", "-") == test["run"])
        rows = read(path)
        column = {"aucmorf": "aucmorf_authors"}.get(test["metric"], test["metric"])
        docs = sorted(d for d in rows["lime"].keys() & rows["shap"].keys()
                      if rows["lime"][d][column] not in ("", "nan") and rows["shap"][d][column] not in ("", "nan"))
        a = [float(rows["lime"][d][column]) for d in docs]
        b = [float(rows["shap"][d][column]) for d in docs]
        bound = 0.2 * math.sqrt((stats.tstd(a) ** 2 + stats.tstd(b) ** 2) / 2)
        d = [x - y for x, y in zip(a, b)]
        if max(d) == min(d):
            expected = 1 if abs(d[0]) < bound else -1
        else:
            p_low = stats.ttest_1samp(d, -bound, alternative="greater").pvalue
            p_high = stats.ttest_1samp(d, bound, alternative="less").pvalue
            beyond = stats.ttest_1samp(d, math.copysign(bound, sum(d)),
                                       alternative="greater" if sum(d) > 0 else "less").pvalue
            expected = 1 if max(p_low, p_high) <= level else -1 if beyond <= level_beyond else 0
        assert test["close"] == expected, (test["run"], test["metric"])
        outcomes.setdefault(test["run"], []).append(expected)
    cells = [o for g in outcomes.values() for o in g]
    assert (cells.count(1), cells.count(-1), sum(-1 in g for g in outcomes.values())) == (15, 5, 3)
    assert step.values["sensitivity"]["turns_at"] == [0.14]
    assert step.values["sensitivity"]["turns_between"] == [[0.1, 0.15]]


def test_conditions_name_both_levels(result):
    """The Conditions state both levels where each applies: the TOST's z >= 2.128 for 'close' and the clear-gap
    z >= 2.394 for 'not close' (the level the 9 not-close cells are counted at), both recomputed here from the normal
    quantiles. Catches Conditions that name only the TOST level while the not-close cells use the clear-gap one."""
    assert f"z >= {Z_TOST:.3f}" in result.conditions and f"{Z_TOST:.3f}" == "2.128"
    assert f"z >= {Z:.3f}" in result.conditions and f"{Z:.3f}" == "2.394"
    assert result.conditions.index(f"{Z:.3f}") > result.conditions.index("'not close'")
