"""proofs_checks.claims.experiments.paired_tests and proofs_checks.claims.experiments.paper_gaps, the statistics behind the experiment claims: the direction
of a difference, Holm's adjustment over a step's family, the power a test has at its sample size, the
non-inferiority test, the setting a run is in, the loading of a committed result file against the summary table
the run wrote beside it, and the clear-gap criterion on the paper's printed tables. The signed-rank test and
Holm's adjustment themselves (fred.evaluation.statistics) are tested in tests/evaluation/test_statistics.py.
"""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats

from proofs_checks.claims.experiments.paired_tests import (
    FIVE_EXPLAINER_RUNS,
    LEVEL,
    MARGIN,
    Run,
    attainable_p,
    compare,
    load_run,
    noninferiority,
    paired_equivalence,
    setting,
    setting_hypotheses,
    setting_label,
    tag,
)
from proofs_checks.claims.experiments.paper_gaps import largest_printed_spread
from proofs_checks.paper.yardstick import Z_CLEAR, documents, gap, tally
from proofs_checks.paper.tables import SECTION4, TABLES

from ._experiment_results import ROOT, read

RESTAURANTS = "results/restaurants_logistic_p0.5_eps0.15.csv"
FIVE = {"fred", "fredpos", "lime", "shap", "anchor"}


def test_five_explainer_runs_are_every_committed_run_with_the_five():
    """The three experiment claims that compare the five explainers read FIVE_EXPLAINER_RUNS: it must be exactly
    the committed CSVs holding all five, found here by reading every results/*.csv. Catches a new run committed but
    left out of the claims (or a listed file that lost an explainer)."""
    found = {f"results/{p.name}" for p in sorted((ROOT / "results").glob("*.csv"))
             if set(read(f"results/{p.name}")) >= FIVE}
    assert found == set(FIVE_EXPLAINER_RUNS) and len(FIVE_EXPLAINER_RUNS) == len(found), (
        f"committed five-explainer runs {sorted(found)}, listed {sorted(FIVE_EXPLAINER_RUNS)}")


def _run(values: dict[str, list[float]], metric: str) -> Run:
    return Run("results/synthetic_p0.5_eps0.15.csv", {},
               {e: {doc: {metric: v} for doc, v in enumerate(vs)} for e, vs in values.items()})


def test_direction_follows_the_metric_arrow():
    """x below y on every one of 8 documents: on sufficiency (lower is better) x is better, on comprehensiveness
    (higher is better) y is; exact two-sided p = 2/2^8, below 0.05 alone and after Holm over one test. Catches an
    arrow read backwards."""
    x, y = [0.1 * i for i in range(8)], [0.1 * i + 0.05 * (i + 1) for i in range(8)]
    (suff,) = compare(_run({"a": x, "b": y}, "sufficiency"), [("a", "b")], ["sufficiency"])
    (comp,) = compare(_run({"a": x, "b": y}, "comprehensiveness"), [("a", "b")], ["comprehensiveness"])
    assert (suff.winner, comp.winner) == ("a", "b")
    assert_allclose([suff.p_raw, suff.p_holm], [2 / 2 ** 8] * 2, rtol=1e-12)


def test_compare_adjusts_over_the_whole_family():
    """Three pairs with the same data: each raw p = 2/2^6 = 0.03125 (significant alone), Holm over three makes every
    one 3 * 0.03125 > 0.05. Catches a step whose tests are not adjusted together."""
    base = [float(i) for i in range(6)]
    run = _run({"a": base, "b": [v + 1 for v in base], "c": [v + 2 for v in base], "d": [v + 3 for v in base]},
               "time")
    tests = compare(run, [("a", "b"), ("a", "c"), ("a", "d")], ["time"])
    assert_allclose([t.p_raw for t in tests], [1 / 32] * 3, rtol=1e-12)
    assert_allclose([t.p_holm for t in tests], [3 / 32] * 3, rtol=1e-12)
    assert not any(t.significant for t in tests) and all(t.better == "a" for t in tests) and LEVEL == 0.05


def _summary_means(md: Path) -> dict[str, dict[str, float]]:
    """The "ours" rows of the run's own Markdown summary: explainer -> column header -> printed mean."""
    lines = [line for line in md.read_text().splitlines() if line.startswith("| ")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    out = {}
    for line in lines[1:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[1] == "ours":
            out[cells[0]] = {h: float(c.split()[0]) for h, c in zip(header[2:], cells[2:]) if c != "–"}
    return out


@pytest.mark.parametrize("path", [RESTAURANTS, "results/yelp_logistic_p0.5_eps0.15_original.csv"])
def test_load_run_agrees_with_the_summary_the_run_wrote(path):
    """Every explainer's mean of sufficiency, comprehensiveness, aucmorf (authors), time and proportion, rounded as
    printed, equals the run's own .md table; the seed is the .md's. Catches a wrong column (aucmorf against
    aucmorf_authors), rows of one explainer filed under another, or a lost document."""
    run = load_run(path)
    printed = _summary_means(ROOT / Path(path).with_suffix(".md"))
    headers = {"sufficiency": "suffic. ↓", "comprehensiveness": "compreh. ↑", "aucmorf": "aucmorf (authors) ↓",
               "time": "time (s) ↓", "proportion": "proport. ↓"}
    assert set(printed) == set(run.explainers)
    for explainer, means in printed.items():
        for metric, header in headers.items():
            got = np.mean(list(run.column(explainer, metric).values()))
            assert abs(got - means[header]) <= 0.0005 + 1e-12, (explainer, metric, got, means[header])
    config = (ROOT / Path(path).with_suffix(".md")).read_text()
    assert run.seed == int(re.search(r"seed=(\d+)", config).group(1))
    assert run.describe()["n_documents"] == int(re.search(r"n_docs=(\d+)", config).group(1))


def test_missing_file_and_tags():
    """A result file that is not there is None (the claims turn it into an argued step), not an exception; step tags
    drop the p/eps part. Catches a crash of the whole report when a run is deleted or renamed."""
    assert load_run("results/no_such_run_p0.5_eps0.15.csv") is None
    assert tag(RESTAURANTS) == "restaurants-logistic"


def _exact_two_sided_p(ranks, observed_w_plus) -> Fraction:
    """The signed-rank test's exact two-sided p-value by enumerating all 2^m sign vectors of ``ranks``."""
    total, m = sum(ranks), len(ranks)
    centre = Fraction(total) / 2
    extreme = sum(1 for signs in itertools.product((0, 1), repeat=m)
                  if abs(sum(r for r, s in zip(ranks, signs) if s) - centre) >= abs(observed_w_plus - centre))
    return min(Fraction(1), Fraction(extreme, 2 ** m))


@pytest.mark.parametrize("m", range(0, 9))
def test_attainable_p_is_the_most_extreme_sign_pattern(m):
    """With m non-zero differences the smallest two-sided p-value is 2/2^m: enumerated here over all 2^m sign
    vectors, for untied ranks and for midranks with ties. Catches 1/2^m (a one-sided bound) or a count that keeps
    the zero differences."""
    magnitudes = np.array([0.0, 0.0] + [0.1 * (k + 1) for k in range(m)])
    tied = np.array([0.0] + [0.5] * min(m, 2) + [0.1 * (k + 1) for k in range(m - min(m, 2))])
    for d in (magnitudes, tied):
        ranks = [Fraction(r).limit_denominator(2) for r in stats.rankdata(np.abs(d[d != 0]))]
        exact = _exact_two_sided_p(ranks, sum(ranks)) if m else Fraction(1)
        assert exact == min(Fraction(1), Fraction(2, 2 ** m)) and attainable_p(d) == float(exact)
        if m:
            assert attainable_p(d) == float(stats.wilcoxon(np.abs(d[d != 0])).pvalue)


def test_attainable_p_beyond_the_exact_range_is_the_tests_own():
    """With 20 tied differences scipy uses its normal approximation, whose smallest p-value is above 2/2^20: the
    attainable p is then the test's p-value on |d|, not the exact bound. Catches a power check that flatters an
    approximate test."""
    d = np.array([0.1, -0.1, 0.2, -0.2] * 5)
    assert attainable_p(d) == stats.wilcoxon(np.abs(d)).pvalue > 2 / 2 ** 20


@pytest.mark.parametrize("m, reachable", [(6, False), (7, True)])
def test_holm_over_three_needs_seven_differences(m, reachable):
    """Three tests of m differences each, all of one sign: Holm's first step needs 3 * 2/2^m <= 0.05, so m = 6
    cannot reject (3/32 > 1/20) and m = 7 can (3/64 <= 1/20), in exact rationals; compare() must record that as
    can_reject, and the attainable adjusted p-value is 3 * 2/2^m. Catches a power check made on the raw p-value
    (2/2^6 = 1/32 < 0.05 alone) instead of the family's."""
    assert (3 * Fraction(2, 2 ** m) <= Fraction(1, 20)) is reachable
    base = [float(i) for i in range(m)]
    run = _run({"a": base, "b": [v + 1 for v in base], "c": [v + 2 for v in base], "d": [v + 3 for v in base]},
               "time")
    tests = compare(run, [("a", "b"), ("a", "c"), ("a", "d")], ["time"])
    assert all(t.n_nonzero == m and t.can_reject is reachable for t in tests)
    assert [t.p_holm_attainable for t in tests] == [float(3 * Fraction(2, 2 ** m))] * 3


def test_noninferiority_against_the_t_formula():
    """x is 0.0005 worse than y on sufficiency (lower is better) on average, with some noise: H0 "worse by at least
    the margin" is tested by t = (mean(-(x - y)) + margin) / (sd / sqrt(n)), p = P(T_{n-1} >= t), computed here by
    hand. With the margin 0.001 the gap is inside it and the test must reject; a gap of 0.003 is outside and it must
    not. Catches the margin added with the wrong sign or the metric's arrow ignored."""
    rng = np.random.default_rng(20)
    noise = rng.normal(0, 0.001, 60)
    for worse_by, shown in ((0.0005, True), (0.003, False)):
        x, y = list(0.3 + worse_by + noise), [0.3] * 60
        got = noninferiority(_run({"x": x, "y": y}, "sufficiency"), "x", "y", "sufficiency")
        advantage = -(np.array(x) - np.array(y))
        t = (advantage.mean() + MARGIN) / (advantage.std(ddof=1) / math.sqrt(advantage.size))
        assert_allclose(got["p_value"], stats.t.sf(t, advantage.size - 1), rtol=1e-10)
        assert got["not_worse"] is shown and got["margin"] == MARGIN == 0.001


def test_the_margin_is_the_tables_printing_resolution():
    """MARGIN is justified as the printing resolution of the paper's tables: every printed mean is a whole number of
    thousandths (read from the tables as decimals), and two printed means of one metric in one table differ by
    exactly 0.001 somewhere, so 0.001 is the smallest difference the tables print. Catches a margin changed without
    its justification (the round-2 review found the old 0.004, half a median gap, not grounded in the paper)."""
    means = [Fraction(str(t.rows[e][i][0])) for t in TABLES.values() for e in t.rows for i in range(6)]
    assert all((1000 * m).denominator == 1 for m in means)
    smallest = min(abs(Fraction(str(t.rows[a][i][0])) - Fraction(str(t.rows[b][i][0])))
                   for t in TABLES.values() for a, b in itertools.combinations(t.rows, 2) for i in range(6)
                   if t.rows[a][i][0] != t.rows[b][i][0])
    assert smallest == Fraction(1, 1000) and Fraction(str(MARGIN)) == smallest


def test_setting_label_names_our_fred_pos_and_where_the_table_is():
    """The authors'-setting runs are labelled with this project's FRED-pos and the place of their model's table
    (appendix B.2 for both logistic regressions); a run outside the setting names the conditions it misses. Catches
    "the authors' setting" said plainly of runs whose FRED-pos and models differ from the sentence's."""
    for path in FIVE_EXPLAINER_RUNS:
        run = load_run(path)
        record = setting_hypotheses(run)
        label = setting_label(run, record)
        if record["satisfies_hypotheses"]:
            assert "this project's FRED-pos" in label and label.endswith("a table of appendix B.2"), path
        else:
            missed = [k for k, ok in record["hypotheses"].items() if not ok]
            assert missed and label == f"this project's setting (not {', '.join(missed)})", path
    assert sum(setting_hypotheses(load_run(p))["satisfies_hypotheses"] for p in FIVE_EXPLAINER_RUNS) == 2


def test_a_direction_override_reverses_the_gap():
    """gap(..., better=+1) on Sufficiency (whose arrow is down) gives the negated gap, z and clear sign, and tally
    with the override counts wins and losses swapped on that metric: what the faithfulness claim uses to show how
    its verdict depends on Sufficiency's direction. Catches an override that is ignored or applied twice."""
    for table in TABLES.values():
        plain, flipped = gap(table, "fredpos", "lime", "sufficiency"), gap(table, "fredpos", "lime", "sufficiency", 1)
        assert (flipped["gap"], flipped["z_worst"], flipped["clear"]) == (-plain["gap"], -plain["z_worst"],
                                                                         -plain["clear"])
    t, r = tally(TABLES, "fred", "lime", ["sufficiency"]), tally(TABLES, "fred", "lime", ["sufficiency"],
                                                                 {"sufficiency": 1})
    assert (r["won"], r["lost"], r["clear_won"], r["clear_lost"]) == (t["lost"], t["won"], t["clear_lost"],
                                                                      t["clear_won"])


def test_setting_is_read_from_the_configuration_line():
    """The authors' setting is exactly the two runs whose .md says baseline=original, n_samples=5000,
    search=released-beam, min_tokens=4, k_from=fredpos (parsed here with a regex); MiniLM has no table in the
    paper; no run was timed on the paper's A100. Catches a run outside the authors' setting counted as in it."""
    for path in FIVE_EXPLAINER_RUNS:
        config = dict(re.findall(r"(\w+)=([^,\s]+)", next(
            line for line in (ROOT / Path(path).with_suffix(".md")).read_text().splitlines()
            if line.startswith("Configuration:"))))
        s = setting(load_run(path))
        authors = (config["baseline"], config["n_samples"], config["search"], config["min_tokens"],
                   config["k_from"]) == ("original", "5000", "released-beam", "4", "fredpos")
        assert authors == all(s[k] for k in ("authors_threshold", "authors_sample_size", "authors_search",
                                             "authors_min_tokens", "k_from_fredpos")), path
        assert s["paper_table"] is (config["model"] != "minilm") and s["papers_machine"] is False
    assert sum(all(setting(load_run(p)).values()) for p in FIVE_EXPLAINER_RUNS) == 0


def test_parenthesised_numbers_are_standard_deviations():
    """A standard error over 100 documents of a metric in [-1, 1] is at most 0.1; the tables print 0.50 for
    sufficiency or comprehensiveness, so the parentheses hold standard deviations. One table has 70 documents (its
    caption says so). Catches a clear-gap criterion that divides a standard error by sqrt(n) again."""
    assert largest_printed_spread() == 0.5 > 1 / math.sqrt(100)
    assert {label for label, t in TABLES.items() if documents(t) != 100} == {"exp-tab:yelp_distilbert_5"}


def _clear_by_hand(table, x, y, metric, sign) -> int:
    """The clear-gap rule in exact rationals: (|gap| - 1/1000)^2 n >= Z^2 ((s_x + 1/200)^2 + (s_y + 1/200)^2)."""
    index = ["sufficiency", "comprehensiveness", "robustness", "aucmorf", "time", "proportion"].index(metric)
    (mx, sx), (my, sy) = [tuple(Fraction(str(v)) for v in table.rows[e][index]) for e in (x, y)]
    g = sign * (mx - my)
    lhs = max(Fraction(0), abs(g) - Fraction(1, 1000)) ** 2 * documents(table)
    rhs = Fraction(Z_CLEAR) ** 2 * ((sx + Fraction(1, 200)) ** 2 + (sy + Fraction(1, 200)) ** 2)
    return (lhs >= rhs) * ((g > 0) - (g < 0))


def test_clear_gaps_against_exact_arithmetic():
    """Every gap of every table on the three faithfulness metrics and time, FRED-mask against each other explainer
    and SHAP against LIME, decided again in exact rationals at the worst rounding. Catches an arrow read backwards or
    the rounding allowance dropped."""
    sign = {"sufficiency": -1, "comprehensiveness": 1, "aucmorf": -1, "time": -1}
    for table in TABLES.values():
        for (x, y), metric in itertools.product([("fred", e) for e in ("fredpos", "lime", "shap", "anchor")]
                                                + [("shap", "lime")], sign):
            assert gap(table, x, y, metric)["clear"] == _clear_by_hand(table, x, y, metric, sign[metric])
    assert Z_CLEAR == pytest.approx(stats.norm.isf(0.05 / 6), rel=1e-12)


def test_rounding_can_erase_a_gap():
    """exp-tab:imdb_distilbert_5, FRED-mask against SHAP on AUC-MoRF: 0.970 (0.01) against 0.975 (0.01) is 3.54
    unpaired standard errors as printed, but a standard deviation printed 0.01 may be 0.015 and the gap 0.004, and
    then it is 1.89: not clear. Catches a criterion that takes the printed numbers as exact."""
    table = TABLES["exp-tab:imdb_distilbert_5"]
    printed = (0.975 - 0.970) / math.sqrt((0.01 ** 2 + 0.01 ** 2) / 100)
    worst = (0.975 - 0.970 - 0.001) / math.sqrt((0.015 ** 2 + 0.015 ** 2) / 100)
    assert printed > Z_CLEAR > worst and gap(table, "fred", "shap", "aucmorf")["clear"] == 0
    assert gap(table, "fred", "shap", "aucmorf")["z_worst"] == pytest.approx(worst, rel=1e-9)


def test_tally_counts_and_direction():
    """SHAP against LIME on time over section 4: faster in 5 tables and slower in 1 (the Yelp forest), each clearly,
    so the tables favour SHAP on the whole; over the Yelp forest alone they favour LIME; over two tables that
    disagree they are mixed. LIME against FRED-pos on faithfulness in section 4 wins 10 comparisons and loses 7, but
    the one clear gap goes to FRED-pos: "LIME better" is undecided; "FRED-pos better" is contradicted, the printed
    means going against it (the yardstick, issue 40: not inconclusive). Catches a tally that lets one clear loss
    decide, a majority of the means that overrides the clear gaps, ties counted as wins, or a sentence the printed
    means go against called undecided."""
    t = tally(SECTION4, "shap", "lime", ["time"])
    assert (t["won"], t["lost"], t["clear_won"], t["clear_lost"], t["favours"]) == (5, 1, 5, 1, "shap")
    assert tally(["exp-tab:yelp_forest_5"], "shap", "lime", ["time"])["favours"] == "lime"
    assert tally(["exp-tab:yelp_forest_5", "exp-tab:tweets_tree_5"], "shap", "lime", ["time"])["favours"] is None
    faithfulness = ("sufficiency", "comprehensiveness", "aucmorf")
    for x, y in (("lime", "fredpos"), ("fredpos", "lime")):
        t = tally(SECTION4, x, y, faithfulness)
        assert (t["won"], t["lost"], t["clear_won"], t["clear_lost"]) == ((10, 7, 0, 1) if x == "lime" else
                                                                          (7, 10, 1, 0))
        assert t["favours"] == (None if x == "lime" else "lime")


def test_paired_equivalence_by_hand():
    """The paired TOST on planted runs, against a hand computation: a is b plus a small noise whose mean is 0.01
    while the bound is 0.2 pooled SD of the values; the binding t statistic is (bound - |mean d|) / (sd(d)/sqrt(n)),
    with scipy's one-sample t-tests against -bound and +bound giving the same decision at 0.05/6. Planted wrong
    inputs: a constant shift beyond the bound must be 'not close' (-1), identical values 'close', one document
    'undecided'. Catches a margin in SD of the differences, a TOST that takes the looser of its two halves, or a
    zero-variance difference that crashes or passes a shift beyond the margin."""
    rng = np.random.default_rng(40)
    b = rng.normal(0.5, 0.3, 100)
    a = b + 0.01 + rng.normal(0, 0.02, 100)
    got = paired_equivalence(_run({"a": list(a), "b": list(b)}, "sufficiency"), "a", "b", "sufficiency")
    d, bound = a - b, 0.2 * math.sqrt((np.var(a, ddof=1) + np.var(b, ddof=1)) / 2)
    assert_allclose(got["bound"], bound, rtol=1e-12)
    assert_allclose(got["t_within"], (bound - abs(d.mean())) / (d.std(ddof=1) / 10), rtol=1e-12)
    assert_allclose(got["critical"], stats.t.ppf(1 - 0.05 / 3, 99), rtol=1e-12)  # each TOST side at 0.05/3
    p = max(stats.ttest_1samp(d, -bound, alternative="greater").pvalue,
            stats.ttest_1samp(d, bound, alternative="less").pvalue)
    assert got["close"] == (1 if p <= 0.05 / 6 else 0) == 1
    shifted = paired_equivalence(_run({"a": list(b + 0.2), "b": list(b)}, "sufficiency"), "a", "b", "sufficiency")
    same = paired_equivalence(_run({"a": list(b), "b": list(b)}, "sufficiency"), "a", "b", "sufficiency")
    one = paired_equivalence(_run({"a": [0.1], "b": [0.2]}, "sufficiency"), "a", "b", "sufficiency")
    assert (shifted["close"], same["close"], one["close"]) == (-1, 1, 0)
    # SD of the differences as the margin's unit would call this pair not close: the margin is in SD of the values.
    assert abs(d.mean()) > 0.2 * d.std(ddof=1) and got["close"] == 1
