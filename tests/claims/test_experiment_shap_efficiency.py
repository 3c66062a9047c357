"""Claim experiment-shap-efficiency (proofs_checks/claims/experiment_shap_efficiency.py, verdict "not supported"):
"SHAP is significantly more efficient than LIME" is contradicted by the paper's own tables on the Yelp and IMDb
forests, and by our Yelp forest run (SHAP slower there too); it holds on our other runs, the two in the authors'
setting and the two on MiniLM included.

The slower tables are found here by scanning the printed times; the run tests are recomputed from the CSV.
"""

from __future__ import annotations

import pytest
from numpy.testing import assert_allclose

from proofs_checks.paper_experiments import TABLES

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


@pytest.fixture(scope="module")
def result():
    from proofs_checks.claims import experiment_shap_efficiency

    return experiment_shap_efficiency.check()


def test_steps_and_verdict(result):
    """Pins every step: the tables fail, the Yelp forest run fails, every other run holds. Catches a verdict that
    ignores the table step, or a run step that ignores the direction of the difference."""
    assert {s.id: (s.role, s.evidence, s.status) for s in result.steps} == {
        "experiment-shap-efficiency.st1-paper-tables": ("statement", "exhaustive", "fails"),
        **{f"experiment-shap-efficiency.st2-run-{t}": ("statement", "statistical", "holds") for t in FILES},
        **{f"experiment-shap-efficiency.st2-run-{t}": ("statement", "statistical", "fails") for t in SLOWER},
    }
    assert (result.kind, result.status, result.verdict) == ("experiment", "fails", "not supported")
    assert result.counterexample["our_run"]["file"] == SLOWER["yelp-forest"]
    assert result.counterexample["paper_table"]["table"] == "exp-tab:yelp_forest_5"


def test_the_tables_where_shap_is_slower(result):
    """Every table whose SHAP time is above its LIME time, by a scan of the printed means: the issue names the Yelp
    forest (0.638 against 0.332 s) and IMDb forest (1.390 against 0.589 s) tables at p = 0.5. Catches a table left
    out of the scan or the time arrow read backwards."""
    slower = {label for label, t in TABLES.items() if t.mean("shap", "time") > t.mean("lime", "time")}
    found = result.steps[0].values["shap_slower"]
    assert {s["table"] for s in found} == slower
    assert {"exp-tab:yelp_forest_5", "exp-tab:imdb_forest_5"} <= slower
    assert {(s["table"], s["shap_time"], s["lime_time"]) for s in found} >= {
        ("exp-tab:yelp_forest_5", 0.638, 0.332), ("exp-tab:imdb_forest_5", 1.39, 0.589)}


def test_runs_from_the_csv(result):
    """For each run, SHAP minus LIME time per document: the p-value recomputed from the CSV, and the explainer the
    step favours is the one faster on a majority of documents (SHAP except on the Yelp forest). Catches a time
    compared across documents or the two explainers swapped."""
    for tag, path in {**FILES, **SLOWER}.items():
        d = differences(read(path), "shap", "lime", "time")
        step = next(s for s in result.steps if s.id.endswith(tag))
        (test,) = step.values["tests"]
        assert_allclose(test["p_raw"], two_sided_p(d), rtol=1e-12)
        faster = "shap" if (d < 0).mean() > 0.5 else "lime"
        assert faster == ("lime" if tag in SLOWER else "shap"), tag
        assert test["better"] == faster and step.values["file"] == path
