"""proofs_checks.paired_tests, the statistics behind the experiment claims: the direction of a difference, Holm's
adjustment over a step's family, and the loading of a committed result file against the summary table the run
wrote beside it. The signed-rank test and Holm's adjustment themselves (fred.evaluation.statistics) are tested in
tests/evaluation/test_statistics.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose

from proofs_checks.paired_tests import ALPHA, FIVE_EXPLAINER_RUNS, ROOT, Run, compare, load_run, tag

from ._experiment_results import read

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
    assert not any(t.significant for t in tests) and all(t.better == "a" for t in tests) and ALPHA == 0.05


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
