"""Claim experiment-transformer-datasets (proofs_checks/claims/experiments/experiment_transformer_datasets.py,
verdict "not supported" on the headline reading 'only', the weaker reading 'used-for' supported, the corrected
statement holds): line 1114 employs RoBERTa and DistilBERT "for the three sentiment analysis datasets", while the
accuracy table has both on Tweets and exp-tab:tweets_distilbert_1 compares the explainers on DistilBERT for Tweets.

The expectations are read here from the LaTeX source itself (the accuracy table's rows under each dataset's
multirow, the comparison tables' captions by the tests' own parser), not from proofs_checks.paper.tables.
"""

from __future__ import annotations

import re

import pytest

from proofs_checks.claims.experiments import experiment_transformer_datasets as claim
from tests.claims._paper_tex_tables import TEX, tex_tables

CLAIM = "experiment-transformer-datasets"


@pytest.fixture(scope="module")
def result():
    return claim.check()


def accuracy_rows_by_hand() -> set[tuple[str, str, str]]:
    """(dataset, model, printed accuracy) of every row of tab:model_accuracy, read line by line from the .tex."""
    lines = TEX.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if r"\label{tab:model_accuracy}" in line)
    rows, dataset = set(), None
    for line in lines[start:]:
        if r"\end{tabular}" in line:
            break
        head = re.search(r"\\multirow\{\d+\}\{\*\}\{(\w+)\}", line)
        if head:
            dataset = head.group(1)
        row = re.match(r"\s*&\s*([\w ]+?)\*?\s*&\s*\$([\d.]+)\$", line)
        if row and dataset:
            rows.add((dataset, row.group(1).strip(), row.group(2)))
    return rows


def test_verdicts_and_steps(result):
    """Pins each step's status and reading and both verdicts. Catches the headline taken from the weaker reading
    (which holds), or a step typed instead of computed."""
    assert {s.id: (s.role, s.status, s.reading) for s in result.steps} == {
        f"{CLAIM}.st1-used-on-sentiment": ("statement", "holds", "used-for"),
        f"{CLAIM}.st2-only-on-sentiment": ("statement", "fails", "only"),
        f"{CLAIM}.c1-used-on-all-four": ("correction", "holds", None),
    }
    assert (result.kind, result.verdict, result.corrected_status) == ("experiment", "not supported", "holds")
    assert {r.id: (r.role, result.reading_status(r.id)) for r in result.readings} == {
        "only": ("headline", "fails"), "used-for": ("weaker", "holds")}


def test_uses_outside_the_sentiment_datasets_read_from_the_tex(result):
    """The transformers' uses on Tweets, read from the LaTeX: the accuracy rows RoBERTa 0.273 and DistilBERT 0.929
    and the one comparison table whose caption names DistilBERT and tweets. Catches a transcription that drops or
    mislabels the Tweets rows (the claim would then find no counterexample), or a table attributed to the wrong
    dataset."""
    rows = accuracy_rows_by_hand()
    assert {(d, m, a) for d, m, a in rows if d == "Tweets" and m in ("RoBERTa", "DistilBERT")} == {
        ("Tweets", "RoBERTa", "0.273"), ("Tweets", "DistilBERT", "0.929")}
    by_caption = sorted(label for label, t in tex_tables().items()
                        if re.search(r"roberta|distilbert", t.caption, re.IGNORECASE)
                        and re.search(r"tweets", t.caption, re.IGNORECASE))
    assert by_caption == ["exp-tab:tweets_distilbert_1"]
    off = next(s for s in result.steps if s.id.endswith("st2-only-on-sentiment")).values["outside"]
    assert off == {"RoBERTa": {"accuracy_rows": {"Tweets": 0.273}, "tables": []},
                   "DistilBERT": {"accuracy_rows": {"Tweets": 0.929}, "tables": by_caption}}


def test_every_sentiment_dataset_has_both_transformers(result):
    """Line 1108's three datasets each have a RoBERTa and a DistilBERT accuracy row in the .tex (the weaker reading
    holds). Catches a weaker-reading step that passes on a missing row."""
    rows = accuracy_rows_by_hand()
    for dataset in ("Restaurants", "Yelp", "IMDB"):
        assert {m for d, m, _ in rows if d == dataset} >= {"RoBERTa", "DistilBERT"}
    step = next(s for s in result.steps if s.id.endswith("st1-used-on-sentiment"))
    assert all(all(c.values()) for c in step.values["covered"].values())


def test_counterexample_is_one_table_inside_the_hypotheses(result):
    """The counterexample is the single table exp-tab:tweets_distilbert_1, rows at lines 1621-1625 of the .tex, and
    satisfies the hypotheses (a transformer, not a sentiment dataset, five explainer rows). Catches a counterexample
    outside the hypotheses, e.g. a scikit-learn model's Tweets table."""
    cx = result.counterexample
    assert (cx["table"], cx["dataset"], cx["model"], cx["satisfies_hypotheses"]) == (
        "exp-tab:tweets_distilbert_1", "Tweets", "DistilBERT", True)
    lines = TEX.read_text().splitlines()
    assert [lines[n - 1].split("&")[0].strip() for n in cx["rows_printed_at_lines"]] == [
        "fred", "fredpos", "lime", "shap", "anchor"]
    assert tex_tables()["exp-tab:tweets_distilbert_1"].rows["fred"].line == cx["rows_printed_at_lines"][0]


def test_hypotheses_refuse_a_table_of_a_sentiment_dataset_or_a_tree():
    """Planted wrong inputs: a DistilBERT table on Restaurants and a decision tree on Tweets are not
    counterexamples. Catches a hypotheses predicate that accepts any table."""
    assert not claim.table_hypotheses("exp-tab:restaurants_distilbert_1")["satisfies_hypotheses"]
    assert not claim.table_hypotheses("exp-tab:tweets_tree_1")["satisfies_hypotheses"]
    assert claim.table_hypotheses("exp-tab:tweets_distilbert_1")["satisfies_hypotheses"]
