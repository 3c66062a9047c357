"""Claim experiment-distilbert-sentiment (proofs_checks/claims/experiment_distilbert_sentiment.py, verdict "not
supported"; corrected: supported (argued)): the paper calls its DistilBERT a cutting-edge sentiment model, but its own
accuracy table gives 0.500 / 0.472 / 0.500 on the three sentiment datasets, no better than a constant answer.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from proofs_checks.paper_experiments import TABLES


@pytest.fixture(scope="module")
def result():
    from proofs_checks.claims import experiment_distilbert_sentiment

    return experiment_distilbert_sentiment.check()


def test_steps_and_verdicts(result):
    """Pins every step and both verdicts: the statement fails on the accuracy table; the correction's two checks
    hold and its reading of the footnote is argued, which leaves an experiment's corrected statement unproved
    (not tested on data). Catches a correction made of typed claims only."""
    assert {s.id: (s.role, s.evidence, s.status) for s in result.steps} == {
        "experiment-distilbert-sentiment.st1-accuracy": ("statement", "exhaustive", "fails"),
        "experiment-distilbert-sentiment.c1-chance": ("correction", "exhaustive", "holds"),
        "experiment-distilbert-sentiment.c2-insensitive": ("correction", "exhaustive", "holds"),
        "experiment-distilbert-sentiment.c3-untrained-head": ("correction", "argument", "argued"),
    }
    assert (result.kind, result.status, result.verdict, result.corrected_status) == (
        "experiment", "fails", "not supported", "unproved")
    assert result.counterexample["distilbert_accuracy"] == {"Restaurants": 0.5, "Yelp": 0.472, "IMDB": 0.5}


def test_a_constant_classifier_reaches_one_half_whatever_the_balance():
    """The bound the statement step uses: answering the majority class is right on max(pi, 1 - pi) of the documents,
    at least 1/2 for every share pi of positives (checked on a rational grid, pi = k/100). Catches a bound that
    would need the class balance, which the paper does not give."""
    assert min(max(Fraction(k, 100), 1 - Fraction(k, 100)) for k in range(101)) == Fraction(1, 2)


def test_distilbert_tables_have_the_smallest_fred_comprehensiveness_of_their_dataset(result):
    """Every DistilBERT table's FRED-mask comprehensiveness against every other model's on the same dataset, by a
    scan of all tables here. Catches a comparison across datasets or a table left out."""
    def dataset(label):
        return label.split(":")[1].split("_")[0]

    distil = {l: t.mean("fred", "comprehensiveness") for l, t in TABLES.items() if "_distilbert_" in l}
    others = {l: t.mean("fred", "comprehensiveness") for l, t in TABLES.items() if "_distilbert_" not in l}
    assert len(distil) == 7
    for label, value in distil.items():
        assert value < min(v for l, v in others.items() if dataset(l) == dataset(label)), label
    rows = result.steps[2].values["rows"]
    assert {r["table"] for r in rows} == set(distil) and all(r["below"] for r in rows)
