"""Claim experiment-shap-efficiency (proofs_checks/claims/experiments/experiment_shap_efficiency.py, verdict "supported"):
"LIME and SHAP have a close behavior, as somehow expected, but the latter is significantly more efficient" (lines
693 and 1179).

Headline reading (on the whole, like the other summary sentences of its paragraph and the sentence's first half):
SHAP is faster in 30 of the 34 tables, clearly in 22 (section 4: 5-1, appendix: 25-3). The stronger every-table
reading fails on section 4's own Yelp forest table (0.638 s against LIME's 0.332 s) and on the Yelp and IMDb forests
of the appendix; the precise statement names them (SHAP about twice as slow there). This project's runs, timed on
another machine, are an extension: SHAP is faster except on the Yelp forest, as in the paper's tables.

The slower tables are found here by scanning the printed times; the run tests are recomputed from the CSV.
"""

from __future__ import annotations

import math
from statistics import NormalDist, median

import pytest
from numpy.testing import assert_allclose

from proofs_checks.paper.yardstick import documents
from proofs_checks.paper.tables import SECTION4, TABLES

from ._experiment_results import differences, read, two_sided_p

AUTHORS = "_original_n5000_released-beam_min4_kfredpos"
FILES = {"restaurants-logistic": "results/restaurants_logistic_p0.5_eps0.15.csv",
         "restaurants-tree": "results/restaurants_tree_p0.5_eps0.15.csv",
         "restaurants-forest": "results/restaurants_forest_p0.5_eps0.15.csv",
         "yelp-logistic": "results/yelp_logistic_p0.5_eps0.15.csv",
         "restaurants-logistic" + AUTHORS.replace("_", "-"): f"results/restaurants_logistic_p0.5_eps0.15{AUTHORS}.csv",
         "yelp-logistic" + AUTHORS.replace("_", "-"): f"results/yelp_logistic_p0.5_eps0.15{AUTHORS}.csv",
         "restaurants-minilm": "results/restaurants_minilm_p0.5_eps0.15.csv",
         "yelp-minilm": "results/yelp_minilm_p0.5_eps0.15.csv"}
#: The run where SHAP is slower, as in the paper's own Yelp forest table.
SLOWER = {"yelp-forest": "results/yelp_forest_p0.5_eps0.15.csv"}
FORESTS = {"exp-tab:yelp_forest_1", "exp-tab:yelp_forest_5", "exp-tab:imdb_forest_1", "exp-tab:imdb_forest_5"}


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result("experiment-shap-efficiency")  # the session's one run of the claim (tests/conftest.py)


def test_steps_readings_and_verdict(result):
    """Pins every step with its reading, each reading's verdict and the precise statement's. Catches a verdict
    that ignores the paper's own tables, our runs (another machine) counted against the paper's sentence, or the
    stronger every-table reading back at the headline (the two halves of the sentence read differently)."""
    assert {s.id.removeprefix("experiment-shap-efficiency."): (s.role, s.evidence, s.reading, s.status)
            for s in result.steps} == {
        "st1-on-the-whole": ("statement", "statistical", "on-the-whole", "holds"),
        "st2-every-table-section4": ("statement", "statistical", "every-table", "fails"),
        "st2-every-table-appendix": ("statement", "statistical", "every-table", "fails"),
        "c1-paper-tables": ("correction", "exhaustive", None, "holds"),
        **{f"st3-run-{t}": ("statement", "statistical", "our-setting", "holds") for t in FILES},
        **{f"st3-run-{t}": ("statement", "statistical", "our-setting", "fails") for t in SLOWER},
    }
    assert {r.id: (r.role, result.reading_status(r.id)) for r in result.readings} == {
        "on-the-whole": ("headline", "holds"), "every-table": ("stronger", "fails"),
        "our-setting": ("alternative", "fails")}
    assert (result.kind, result.status, result.verdict, result.corrected_status, result.counterexample) == (
        "experiment", "holds", "supported", "holds", None)


def test_on_the_whole_by_scanning_the_tables(result):
    """Regression (round-2 decision: the sentence read on the whole, as its first half): SHAP's printed time below
    LIME's in 30 of 34 tables (section 4: 5 of 6), and clearly, z >= Phi^-1(1 - 0.05/6) at the worst rounding
    (recomputed here), in 22. Catches a tally over the wrong tables, a clear count on standard deviations instead
    of standard errors, or a headline that does not quote the paragraph of summaries (lines 689-691)."""
    z_clear = NormalDist().inv_cdf(1 - 0.05 / 6)

    def z(t):
        (ms, ss), (ml, sl) = t.rows["shap"][4], t.rows["lime"][4]
        return (ml - ms - 0.001) / math.sqrt(((ss + 0.005) ** 2 + (sl + 0.005) ** 2) / documents(t))

    faster = {label for label, t in TABLES.items() if t.mean("shap", "time") < t.mean("lime", "time")}
    clearly = {label for label in faster if z(TABLES[label]) >= z_clear}
    assert (len(faster), len(clearly), len(faster & set(SECTION4))) == (30, 22, 5)
    values = result.steps[0].values
    assert (values["faster"], values["clearly_faster"], values["tables"]) == (30, 22, 34)
    assert {s: values["tallies"][s]["favours"] for s in ("section4", "appendix")} == {"section4": "shap",
                                                                                       "appendix": "shap"}
    headline = next(r for r in result.readings if r.role == "headline")
    assert {689, 693, 1177, 1179} <= {q.line for q in headline.why}


def test_stronger_figures_and_non_circular_reason(result):
    """Round 3: "significantly" is met by more than "faster in more tables than slower": SHAP clearly faster in 22
    of 34 tables (a clear majority) and the median SHAP/LIME time ratio 0.398 over all tables, 0.245 over section
    4's (recomputed here from the printed times). The reason for the on-the-whole reading is computed, not the
    other half's reading or line 691's "In general": FRED best in all three faithfulness cells of only 11 of 34
    tables (5 of 6 in section 4), yet lines 689 and 1177 say FRED is more faithful without qualification.
    Catches a bar too weak for "significantly", a ratio over the wrong tables, or the circular justification."""
    ratios = [t.mean("shap", "time") / t.mean("lime", "time") for t in TABLES.values()]
    section4 = [TABLES[label].mean("shap", "time") / TABLES[label].mean("lime", "time") for label in SECTION4]
    values = result.steps[0].values
    assert values["clear_majority_clearly_faster"] is True
    assert values["median_time_ratio_shap_over_lime"]["all"] == pytest.approx(median(ratios))
    assert values["median_time_ratio_shap_over_lime"]["section4"] == pytest.approx(median(section4))
    assert (round(median(ratios), 3), round(median(section4), 3)) == (0.398, 0.245)
    register = values["summary_register"]
    assert (len(register["tables_fred_best_all_three"]), len(register["section4_fred_best_all_three"])) == (11, 5)
    headline = next(r for r in result.readings if r.role == "headline")
    assert "first half" not in headline.meaning and "In general" not in headline.meaning
    assert "only 11 of the 34 tables" in headline.meaning and "clearly in 22" in result.steps[0].note


def test_every_table_counterexample_is_the_section_4_yelp_forest(result):
    """The stronger reading's contradicting evidence (in its step: the headline holds) is section 4's own table
    exp-tab:yelp_forest_5: SHAP 0.638 (0.23) s against LIME 0.332 (0.10) s, z = (0.306 - 0.001) /
    sqrt(0.235^2 + 0.105^2) * 10 = 11.85 at the worst rounding (computed here), inside the sentence's hypotheses.
    Catches a counterexample from a table the sentence does not describe or one within noise."""
    ce = next(s for s in result.steps if s.id.endswith("st2-every-table-section4")).values["counterexample"]
    z = (0.638 - 0.332 - 0.001) / math.sqrt((0.235 ** 2 + 0.105 ** 2) / 100)
    assert (ce["table"], ce["mean_x"], ce["mean_y"], ce["sentence_line"]) == ("exp-tab:yelp_forest_5", 0.638, 0.332,
                                                                               693)
    assert ce["z_worst"] == pytest.approx(-z, rel=1e-9) and ce["satisfies_hypotheses"] is True


def test_the_tables_where_shap_is_slower(result):
    """Every table whose SHAP time is above its LIME time, by a scan of the printed means: exactly the random
    forests on Yelp and IMDb, the corrected statement's exceptions, each about twice as slow. Catches a table left
    out of the scan, the time arrow read backwards, or an exception list that drifts from the tables."""
    slower = {label for label, t in TABLES.items() if t.mean("shap", "time") > t.mean("lime", "time")}
    assert slower == FORESTS
    values = next(s for s in result.steps if s.id.endswith("c1-paper-tables")).values
    assert set(values["not_faster"]) == set(values["exceptions"]) == FORESTS
    assert all(1.8 < r < 2.4 for r in values["ratios"])
    assert "exp-tab:yelp_forest_5" in SECTION4 and "1.9 to 2.4 times" in result.corrected
    assert "in section 4: exp-tab:yelp_forest_5)" in result.corrected


def test_runs_from_the_csv(result):
    """For each run, SHAP minus LIME time per document: the p-value recomputed from the CSV, and the explainer the
    step favours is the one faster on a majority of documents (SHAP except on the Yelp forest). The Yelp forest's
    note says "significantly slower" (the reviewer's wording objection). Catches a time compared across documents,
    the two explainers swapped, or a significant slowdown reported as "not significantly faster"."""
    for tag, path in {**FILES, **SLOWER}.items():
        d = differences(read(path), "shap", "lime", "time")
        step = next(s for s in result.steps if s.id.endswith(f"st3-run-{tag}"))
        (test,) = step.values["tests"]
        assert_allclose(test["p_raw"], two_sided_p(d), rtol=1e-12)
        faster = "shap" if (d < 0).mean() > 0.5 else "lime"
        assert faster == ("lime" if tag in SLOWER else "shap"), tag
        assert test["better"] == faster and step.values["file"] == path
        assert step.values["satisfies_hypotheses"] is False and step.values["hypotheses"]["papers_machine"] is False
    note = next(s for s in result.steps if s.id.endswith("st3-run-yelp-forest")).note
    assert "SHAP significantly slower" in note and "not significantly faster" not in note


def test_sensitivity_to_a_minimum_effect(result):
    """The headline's sensitivity table, by hand: at each minimum effect m, each sentence's tables where SHAP's
    time is lower / higher by the printed means and, clearly by more than m pooled SD (worst rounding: (|gap| -
    0.001) / P - m >= 2.394 sqrt(2/n), P with each SD 0.005 larger), faster / slower; the headline holds at every
    m (the means favour SHAP 5-1 and 25-3, and a clear loss needs a clear win to offset it). Catches a sensitivity
    table that ignores the margin, or a time read higher-is-better."""
    z = NormalDist().inv_cdf(1 - 0.05 / 6)
    appendix = [label for label in TABLES if label not in SECTION4]
    table = next(s for s in result.steps if s.id.endswith("st1-on-the-whole")).values["sensitivity"]
    for row in table["rows"]:
        for line, labels in ((693, SECTION4), (1179, appendix)):
            won = lost = faster = slower = 0
            for label in labels:
                (ms, ss), (ml, sl) = TABLES[label].rows["shap"][4], TABLES[label].rows["lime"][4]
                gap, big = ml - ms, math.sqrt(((ss + 0.005) ** 2 + (sl + 0.005) ** 2) / 2)
                won, lost = won + (gap > 0), lost + (gap < 0)
                if max(0.0, abs(gap) - 0.001) / big - row["margin"] >= z * math.sqrt(2 / documents(TABLES[label])):
                    faster, slower = faster + (gap > 0), slower + (gap < 0)
            assert row[f"line {line}"] == f"{won}-{lost} [{faster}-{slower}]", (row["margin"], line)
        assert row["status"] == "holds"
    assert table["turns_at"] == [] and table["declared"] == 0.0
