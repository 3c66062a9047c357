"""Claim experiment-distilbert-sentiment (proofs_checks/claims/experiments/experiment_distilbert_sentiment.py, verdict "not
supported" on the headline reading, the checkpoint the experiments explain; corrected: supported when the released
code's checkout is set, unproved (one argued step) otherwise): the paper calls its DistilBERT a cutting-edge
sentiment model, but its own accuracy table gives 0.500 / 0.472 / 0.500 on the three sentiment datasets, no better
than a constant answer, and the released pipeline never trains the base checkpoint it loads.
"""

from __future__ import annotations

import textwrap
from fractions import Fraction

import pytest

from proofs_checks.paper.tables import MODEL_ACCURACY, TABLES
from proofs_checks.subject.authors_probe import probe
from tests._helpers import needs_authors_checkout

CLAIM = "experiment-distilbert-sentiment"
needs_checkout = needs_authors_checkout


@pytest.fixture
def result(monkeypatch):
    """The claim without the released code (the CI setting)."""
    from proofs_checks.claims.experiments import experiment_distilbert_sentiment

    monkeypatch.delenv("FRED_AUTHORS_CHECKOUT", raising=False)
    return experiment_distilbert_sentiment.check()


def test_steps_and_verdicts(result):
    """Pins every step, the readings and both verdicts without the checkout: the headline reading fails on the
    accuracy table, the weaker (family) reading is only argued, and the correction's released-code step is argued,
    which leaves an experiment's corrected statement unproved. Catches a step typed as holding when nothing ran."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == {
        f"{CLAIM}.st1-accuracy": ("statement", "exhaustive", "fails", "checkpoint"),
        f"{CLAIM}.st2-family": ("statement", "argument", "argued", "family"),
        f"{CLAIM}.c1-chance": ("correction", "exhaustive", "holds", None),
        f"{CLAIM}.c2-insensitive": ("correction", "exhaustive", "holds", None),
        f"{CLAIM}.c3-never-trained": ("correction", "argument", "argued", None),
    }
    assert (result.kind, result.status, result.verdict, result.corrected_status) == (
        "experiment", "fails", "not supported", "unproved")
    assert {r.id: (r.role, result.reading_status(r.id)) for r in result.readings} == {
        "checkpoint": ("headline", "fails"), "family": ("weaker", "unproved")}
    assert result.steps[-1].note.startswith("Not run here: $FRED_AUTHORS_CHECKOUT is not set")


def test_counterexample_satisfies_the_hypotheses(result):
    """The failing accuracies are the DistilBERT rows of the three sentiment datasets, read independently from the
    transcribed table here, and the record says they satisfy the sentence's conditions, two classes included (the
    bound 1/2 needs it; R2G review). Catches a counterexample taken from the Tweets row (not a sentiment dataset),
    a record that is not computed, or one silent on the two-class hypothesis."""
    expected = {d: MODEL_ACCURACY[(d, "DistilBERT")] for d in ("Restaurants", "Yelp", "IMDB")}
    assert result.counterexample["distilbert_accuracy"] == expected == {"Restaurants": 0.5, "Yelp": 0.472,
                                                                        "IMDB": 0.5}
    assert result.counterexample["satisfies_hypotheses"] is True
    assert result.counterexample["hypotheses"] == {"sentiment_dataset": True, "distilbert_row": True,
                                                   "accuracy_is_a_proportion": True, "two_classes": True}


def test_the_hypotheses_exclude_tweets():
    """The Tweets row is outside the sentence's hypotheses (not a sentiment dataset, no class list from the paper).
    Catches a predicate that is true whatever the dataset."""
    from proofs_checks.claims.experiments.experiment_distilbert_sentiment import statement_hypotheses

    record = statement_hypotheses("Tweets")
    assert record["satisfies_hypotheses"] is False
    assert (record["hypotheses"]["sentiment_dataset"], record["hypotheses"]["two_classes"]) == (False, False)


def test_without_two_classes_only_yelp_stays_below_by_hand(result):
    """Without the two-class hypothesis the constant answer still scores at least r/2, r RoBERTa's accuracy (a
    two-class model is right only on documents of its two classes): 0.972/2 = 0.486 < 0.500, 0.988/2 = 0.494 >
    0.472, 0.950/2 = 0.475 < 0.500, in decimals here. Catches a fallback bound computed the wrong way round or on
    the wrong rows."""
    from decimal import Decimal

    acc = {d: (Decimal(str(MODEL_ACCURACY[(d, "RoBERTa")])), Decimal(str(MODEL_ACCURACY[(d, "DistilBERT")])))
           for d in ("Restaurants", "Yelp", "IMDB")}
    below = [d for d, (r, a) in acc.items() if a <= r / 2]
    assert below == ["Yelp"]
    values = result.steps[0].values["without_two_classes"]
    assert [d for d, v in values.items() if v["distilbert_not_above"]] == below
    assert "This project's criterion, not the paper's" in result.steps[0].note


def test_statement_cites_line_685_and_the_correction_states_only_what_was_computed(result):
    """Regression (R2G review): the table exp-tab:imdb_distilbert_5 is referenced on line 685 (line 549 only applies
    the models), and the corrected statement no longer says the prediction 'hardly depends on the words', which no
    step computed. Catches the wrong line again or an uncomputed phrase in the correction."""
    from proofs_checks.claims.experiments import experiment_distilbert_sentiment as m

    assert "(line 685)" in result.statement and "(line 549) reports" not in result.statement
    assert [q.line for q in m.SOURCE if "imdb_distilbert_5" in q.text] == [685]
    assert "hardly" not in result.corrected
    assert "0.145" in result.steps[3].note and "14%" not in result.steps[3].note


def test_a_constant_classifier_reaches_one_half_whatever_the_balance():
    """The bound the statement step uses: answering the majority class is right on max(pi, 1 - pi) of the documents,
    at least 1/2 for every share pi of positives (checked on a rational grid, pi = k/100). Catches a bound that
    would need the class balance, which the paper does not give."""
    assert min(max(Fraction(k, 100), 1 - Fraction(k, 100)) for k in range(101)) == Fraction(1, 2)


def test_distilbert_tables_have_the_smallest_fred_comprehensiveness_of_their_dataset(result):
    """Every DistilBERT table of a sentiment dataset against every other model's on the same dataset, by a scan of
    all tables here. Catches a comparison across datasets or a table left out."""
    def dataset(label):
        return label.split(":")[1].split("_")[0]

    distil = {l: t.mean("fred", "comprehensiveness") for l, t in TABLES.items()
              if "_distilbert_" in l and dataset(l) != "tweets"}
    others = {l: t.mean("fred", "comprehensiveness") for l, t in TABLES.items() if "_distilbert_" not in l}
    assert len(distil) == 6
    for label, value in distil.items():
        assert value < min(v for l, v in others.items() if dataset(l) == dataset(label)), label
    rows = result.steps[3].values["rows"]
    assert {r["table"] for r in rows} == set(distil) and all(r["below"] for r in rows)
    assert max(r["fred_proportion"] for r in rows) == 0.7  # restaurants_distilbert_5: 70% of the document


def test_tweets_is_left_out_of_every_step(result):
    """Regression (R7 review): the Conditions leave Tweets out, and no step may use a Tweets table or row. Catches
    the inconsistency the review found (c2 listed exp-tab:tweets_distilbert_1)."""
    assert "Tweets" in result.conditions
    for step in result.steps:
        assert "tweets" not in (step.note + repr(step.values)).lower(), step.id


# ------------------------------------------------------------------ the released code, run as an outside program
_SETUP = '''
import importlib


def setup_model(name):
    module = importlib.import_module("models." + name)
    return next(v for k, v in vars(module).items() if k.lower() == name)()
'''
_MODEL = '''
from transformers import DistilBertTokenizer, DistilBertForSequenceClassification, Trainer

tokenizer = DistilBertTokenizer.from_pretrained("distilbert-base-uncased")
model = DistilBertForSequenceClassification.from_pretrained("distilbert-base-uncased")


class DistilBert:
    def __init__(self):
        self.model = Trainer(model=model)

    def train(self, x, y, **kwargs):
        {body}
'''


def _fake_checkout(tmp_path, body: str) -> str:
    """A folder laid out like the released repository, with a DistilBERT module whose train() runs ``body`` (this
    test's own code, standing for variants of the released file)."""
    (tmp_path / "utils").mkdir()
    (tmp_path / "models").mkdir()
    (tmp_path / "utils" / "setup.py").write_text(_SETUP)
    (tmp_path / "models" / "distilbert.py").write_text(textwrap.dedent(_MODEL).format(body=body))
    return str(tmp_path)


@pytest.mark.parametrize("body, trained", [
    ("pass", False),
    ("self.model.train()", True),
    ("self.model = Trainer(model=model)", True),
    ("model.classifier.weight = None", True),
])
def test_the_probe_sees_a_training_call(tmp_path, body, trained):
    """The released-code step on stand-in modules: a train() that does nothing passes; one that calls the trainer,
    builds a new one or writes a weight fails. Catches a probe (or a reading of its answer) that reports 'never
    trained' whatever train() does."""
    from proofs_checks.claims.experiments.experiment_distilbert_sentiment import _never_trained

    reply = probe("distilbert-train", checkout=_fake_checkout(tmp_path, body))
    assert _never_trained(reply)[0] is not trained


def test_the_probe_refuses_a_folder_that_is_not_a_checkout(tmp_path):
    """Catches a probe that answers (vacuously) on a folder without the released files."""
    with pytest.raises(FileNotFoundError):
        probe("distilbert-train", checkout=str(tmp_path))


@needs_checkout
def test_the_released_pipeline_never_trains_its_distilbert():
    """With the authors' checkout: c3 holds, the pipeline loads the footnote's checkpoint and train() returns None
    without using it, and the corrected statement becomes supported. Catches a c3 that stays argued when the
    released code can be run."""
    from proofs_checks.claims.experiments import experiment_distilbert_sentiment

    result = experiment_distilbert_sentiment.check()
    step = result.steps[-1]
    assert (step.evidence, step.status) == ("exhaustive", "holds")
    assert step.values["loaded"] == [["DistilBertTokenizer", "distilbert-base-uncased"],
                                     ["DistilBertForSequenceClassification", "distilbert-base-uncased"]]
    assert step.values["uses_during_train"] == [] and step.values["returned"] == "None"
    assert "nothing is downloaded here" in step.note and "not loaded or run here" in step.note
    assert (result.status, result.corrected_status) == ("fails", "holds")
