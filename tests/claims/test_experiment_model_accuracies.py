"""Claim experiment-model-accuracies (proofs_checks/claims/experiments/experiment_model_accuracies.py, "supported"
with the released code's checkout and the data, "unproved" without): the six TF-IDF accuracies of
tab:model_accuracy (Restaurants 0.808, 0.676, 0.748; Yelp 0.892, 0.748, 0.868) are what the released pipeline
gives at its seed 42, and its models have scikit-learn's default parameters (line 1113).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests._helpers import needs_authors_checkout
from tests.claims._pipeline_by_hand import by_hand, needs_data

CLAIM = "experiment-model-accuracies"
#: The table's six TF-IDF rows as printed (lines 1132-1134, 1139-1141), typed here from the paper.
PRINTED = {("restaurants", "logistic"): "0.808", ("restaurants", "tree"): "0.676", ("restaurants", "forest"): "0.748",
           ("yelp", "logistic"): "0.892", ("yelp", "tree"): "0.748", ("yelp", "forest"): "0.868"}
ROW = {"logistic": "Logistic Regression", "tree": "Decision Tree", "forest": "Random Forest"}


@pytest.fixture
def released():
    """The claim run on the released code (skipped without it) and the data."""
    from proofs_checks.claims.experiments import experiment_model_accuracies

    return experiment_model_accuracies.check()


def test_without_the_checkout_every_step_names_what_is_missing(monkeypatch):
    """Without $FRED_AUTHORS_CHECKOUT every step is argued and says "Not run here" naming the variable, and the
    experiment is unproved. Catches a step typed as holding when nothing ran, or a reason that does not say what
    to set."""
    from proofs_checks.claims.experiments import experiment_model_accuracies

    monkeypatch.delenv("FRED_AUTHORS_CHECKOUT", raising=False)
    result = experiment_model_accuracies.check()
    assert [(s.status, s.evidence) for s in result.steps] == [("argued", "argument")] * 3
    assert all(s.note.startswith("Not run here: $FRED_AUTHORS_CHECKOUT is not set") for s in result.steps)
    assert (result.status, result.verdict, result.counterexample) == ("unproved", "unproved", None)
    assert "IMDb and Tweets rows" in result.conditions and "RoBERTa rows" in result.conditions


def test_not_run_reason_names_the_data(monkeypatch, tmp_path):
    """With the checkout set but an empty data folder, the reason names the two missing datasets and FRED_DATA_DIR.
    Catches a run attempted without the data (a crash in the released loader) or a reason silent on the data."""
    from proofs_checks.subject.authors_pipeline import missing_inputs, pipeline_runs

    monkeypatch.setenv("FRED_AUTHORS_CHECKOUT", "/nonexistent")
    monkeypatch.setenv("FRED_DATA_DIR", str(tmp_path))
    why = "the data (restaurants, yelp: set $FRED_DATA_DIR, or ../shared/data beside the checkout)"
    assert missing_inputs() == [why]
    assert pipeline_runs() is None


@needs_data
def test_by_hand_pipeline_gives_the_printed_accuracies():
    """This project's own pipeline, written from the appendix's description (seed 42, a quarter held out, default
    TF-IDF and classifiers), gives the six printed accuracies exactly: an independent reproduction of the numbers
    the claim's steps compare. Catches a claim that would pass on a wrong split or on rounded comparisons."""
    for (dataset, model), printed in PRINTED.items():
        run = by_hand(dataset, model)
        assert Fraction(run["correct"], run["n_test"]) == Fraction(printed), (dataset, model)


@needs_authors_checkout
@needs_data
def test_released_steps_match_the_independent_reproduction(released):
    """With the checkout, the three steps hold, and the counts the claim reports are those of the by-hand pipeline
    (202/250 ... 217/250). Catches the claim reading an accuracy other than the released run's, a count off by one
    from float rounding, or a non-default parameter overlooked."""
    assert [(s.id.split(".")[1], s.status) for s in released.steps] == [
        ("s1-restaurants", "holds"), ("s2-yelp", "holds"), ("s3-default-parameters", "holds")]
    assert (released.status, released.verdict, released.counterexample) == ("holds", "supported", None)
    for step, dataset in zip(released.steps[:2], ("restaurants", "yelp")):
        for model, row in ROW.items():
            seen = step.values["rows"][row]
            assert (seen["correct"], seen["n_test"], seen["seed"]) == (
                by_hand(dataset, model)["correct"], 250, 42)
            assert seen["printed"] == str(Fraction(PRINTED[(dataset, model)]))
    models = released.steps[2].values["models"]
    assert len(models) == 6 and all(not part["non_default"] for m in models.values() for part in m.values())


def test_a_wrong_accuracy_is_a_counterexample(monkeypatch):
    """Planted: a released run whose forest scores 186/250 on Yelp makes s2 fail and the counterexample name that
    row, inside the hypotheses. Catches a comparison within a tolerance (0.744 against the printed 0.748) or a
    counterexample not computed from the failing rows."""
    from proofs_checks.claims.experiments import experiment_model_accuracies as claim

    def run(correct, seed=42):
        return {"accuracy": correct / 250, "n_test": 250, "seed": seed}

    counts = {"restaurants": (202, 169, 187), "yelp": (223, 187, 186)}
    runs = {"runs": {d: dict(zip(("logistic_classifier", "tree_classifier", "forest_classifier"),
                                 (run(c) for c in cs))) for d, cs in counts.items()}}
    assert claim.accuracies(runs, "restaurants", "s1").status == "holds"
    assert claim.accuracies(runs, "yelp", "s2").status == "fails"
    record = claim.counterexample(runs)
    assert list(record["rows"]) == ["Yelp/Random Forest"] and record["rows"]["Yelp/Random Forest"]["reproduced"] \
        == "93/125"
    assert record["satisfies_hypotheses"] is True
