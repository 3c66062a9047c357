"""Appendix B.1, "Models" (line 1114): RoBERTa and DistilBERT were employed "for the three sentiment analysis
datasets".

Line 1108 names the three sentiment analysis datasets (Restaurants, Yelp, IMDb) and sets the fourth, Tweets hate
speech detection, apart. The paper's own tables say where the two transformers were used: an accuracy row of
``tab:model_accuracy`` and a comparison table (section 4, appendix B.2) each report a model run on a dataset.
Everything here is computed on the printed tables (:mod:`proofs_checks.paper.tables`).

Readings:

* ``only`` (headline): the transformers were used for the sentiment datasets and not for Tweets. The paragraph
  sets two scopes side by side: the scikit-learn models were trained "on each dataset" (line 1113), the
  transformers employed "for the three sentiment analysis datasets" (line 1114), "two cutting-edge transformer
  models for sentiment analysis" (line 1115); a scope named apart from "each dataset" and given a reason (sentiment
  models) says where they were used.
* ``used-for`` (weaker): the transformers were used on each of the three sentiment datasets, whatever else they
  were used on.

The headline fails: the accuracy table has RoBERTa and DistilBERT rows for Tweets, and one comparison table
(``exp-tab:tweets_distilbert_1``) compares the explainers on DistilBERT for Tweets; that table alone is the minimal
counterexample. The weaker reading holds.
"""

from __future__ import annotations

from ...paper.tables import MODEL_ACCURACY, MODEL_ACCURACY_LABEL, TABLES, accuracy_key, row_line
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses

CLAIM = Claim("experiment-transformer-datasets", new=True)
ONLY, USED_FOR = "only", "used-for"
#: The two pre-trained transformers of line 1114, as ``tab:model_accuracy`` names them.
TRANSFORMERS = ("RoBERTa", "DistilBERT")
#: The three sentiment analysis datasets of line 1108, as ``tab:model_accuracy`` names them; Tweets is the fourth.
SENTIMENT = ("Restaurants", "Yelp", "IMDB")
EMPLOYED = Quote(1114, r"Additionally, we employed a pretrained version of RoBERTa\footnote{https://huggingface.co/"
                       r"siebert/sentiment-roberta-large-english} \citep{hartmann2023} and DistilBERT\footnote{"
                       r"https://huggingface.co/distilbert/distilbert-base-uncased} for the three sentiment analysis "
                       r"datasets.")
DATASETS = Quote(1108, r"We employ three sentiment analysis datasets: Restaurants\footnote{https://www.kaggle.com/"
                       r"hj5992/restaurantreviews}, Yelp reviews\footnote{https://www.kaggle.com/omkarsabnis/"
                       r"yelp-reviews-dataset}, and IMDb\footnote{https://huggingface.co/datasets/imdb}, and the "
                       r"Tweets hate speech detection\footnote{https://huggingface.co/datasets/tweets\_hate\_speech\_"
                       r"detection} dataset.")
EACH = Quote(1113, "We trained a logistic classifier, a decision tree, and a random forest classifier on each dataset")
FOR_SENTIMENT = Quote(1115, "These are two cutting-edge transformer models for sentiment analysis sourced from the "
                            "Hugging Face repository.")
SOURCE = (EMPLOYED, DATASETS, EACH, FOR_SENTIMENT,
          Quote(547, "We evaluate on three sentiment analysis datasets (Restaurants, Yelp reviews, IMDb) and a hate "
                     "speech detection dataset (Tweets)"),
          Quote(1120, "Contrarily, we use pre-trained version of Roberta and DistilBERT on the datasets."),
          Quote(549, "Additionally, we applied pre-trained RoBERTa \\citep{liu2019roberta} and DistilBERT "
                     "\\citep{sanh2019distilbert} models."),
          Quote(1156, r"& RoBERTa & $0.273$  \\"),
          Quote(1157, r"& DistilBERT & $0.929$  \\"),
          Quote(1614, r"\caption{\label{exp-tab:tweets_distilbert_1}"),
          Quote(1615, r"Comparison on DistilBERT for tweets hate speech detection ($p=0.1$, $\epsilon=0.15$).}"))
READINGS = (
    Reading(ONLY, "headline",
            "RoBERTa and DistilBERT were used for the three sentiment datasets only, not for Tweets: the paragraph "
            "scopes the scikit-learn models 'on each dataset' (line 1113) and the transformers 'for the three "
            "sentiment analysis datasets' (line 1114), with the reason 'models for sentiment analysis' (line 1115).",
            why=(EACH, EMPLOYED, FOR_SENTIMENT)),
    Reading(USED_FOR, "weaker",
            "RoBERTa and DistilBERT were used on each of the three sentiment datasets, whatever else they were used "
            "on.", why=(EMPLOYED,)),
)
STATEMENT = ('Appendix B.1, "Models" (line 1114): "we employed a pretrained version of RoBERTa and DistilBERT for the '
             'three sentiment analysis datasets", the three of line 1108 (Restaurants, Yelp, IMDb), Tweets being the '
             'hate speech detection dataset.')
CONDITIONS = ("Computed on the paper's printed tables: a use of a model on a dataset is an accuracy row of "
              f"{MODEL_ACCURACY_LABEL} or a comparison table (section 4 and appendix B.2, 34 tables) for that "
              "dataset and model. The sentiment datasets are line 1108's three; Tweets is the fourth.")
CORRECTED = ("RoBERTa and DistilBERT were used on all four datasets: the accuracy table reports both on Tweets too "
             "(RoBERTa 0.273, DistilBERT 0.929, lines 1156-1157), and exp-tab:tweets_distilbert_1 compares the "
             "explainers on DistilBERT for Tweets; no table compares them on RoBERTa for Tweets. The paper is at odds "
             "with itself here (lines 549 and 1120 and the accuracy table name no restriction): line 1114 is a setup "
             "sentence that misdescribes the paper's own tables, not a wrong result.")


def uses() -> dict:
    """Per transformer, the datasets of its accuracy rows and of its comparison tables (with the tables' labels)."""
    seen = {}
    for model in TRANSFORMERS:
        tables = sorted(label for label in TABLES if accuracy_key(label)[1] == model)
        seen[model] = {"accuracy_rows": sorted(d for d, m in MODEL_ACCURACY if m == model),
                       "table_datasets": sorted({accuracy_key(label)[0] for label in tables}), "tables": tables}
    return seen


def outside(seen: dict) -> dict:
    """The uses of each transformer on a dataset that is not one of the three sentiment datasets."""
    return {model: {"accuracy_rows": {d: MODEL_ACCURACY[(d, model)] for d in s["accuracy_rows"] if d not in SENTIMENT},
                    "tables": [t for t in s["tables"] if accuracy_key(t)[0] not in SENTIMENT]}
            for model, s in seen.items()}


def check() -> ClaimResult:
    """Where the accuracy table and the comparison tables put RoBERTa and DistilBERT."""
    seen = uses()
    steps = (used_on_sentiment(seen), only_on_sentiment(seen), used_on_all_four(seen))
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS,
                        counterexample=counterexample(seen), steps=steps, corrected=CORRECTED, source=SOURCE,
                        readings=READINGS)


def table_hypotheses(label: str) -> dict:
    """When a comparison table contradicts the 'only' reading: its model is one of the two transformers, its dataset
    is not one of line 1108's three sentiment datasets, and it reports the explainers run on that model (five
    printed rows)."""
    dataset, model = accuracy_key(label)
    return hypotheses(model_is_roberta_or_distilbert=model in TRANSFORMERS,
                      dataset_is_not_a_sentiment_dataset=dataset not in SENTIMENT,
                      explainers_were_run_on_it=len(TABLES[label].rows) == 5)


def counterexample(seen: dict) -> dict | None:
    """The smallest counterexample to the 'only' reading: one comparison table of a transformer outside the sentiment
    datasets (the first such, with its printed source lines), beside the accuracy rows that also contradict it."""
    off = outside(seen)
    tables = [t for model in TRANSFORMERS for t in off[model]["tables"]]
    if not tables:
        return None
    label = tables[0]
    dataset, model = accuracy_key(label)
    return {"table": label, "dataset": dataset, "model": model, "caption": TABLES[label].caption,
            "rows_printed_at_lines": [row_line(label, e) for e in TABLES[label].rows],
            "also_accuracy_rows": {m: off[m]["accuracy_rows"] for m in TRANSFORMERS}, **table_hypotheses(label)}


def used_on_sentiment(seen: dict) -> StepResult:
    """st1 (used-for): each transformer has an accuracy row and a comparison table on each sentiment dataset."""
    covered = {m: {d: d in s["accuracy_rows"] and d in s["table_datasets"] for d in SENTIMENT}
               for m, s in seen.items()}
    return CLAIM.checked(
        "st1-used-on-sentiment", "statement", "exhaustive",
        f"Each of RoBERTa and DistilBERT has an accuracy row in {MODEL_ACCURACY_LABEL} and at least one comparison "
        f"table on each of {', '.join(SENTIMENT)}: "
        + "; ".join(f"{m}: " + ", ".join(f"{d} {ok}" for d, ok in c.items()) for m, c in covered.items()) + ".",
        holds=all(all(c.values()) for c in covered.values()), values={"uses": seen, "covered": covered},
        reading=USED_FOR)


def only_on_sentiment(seen: dict) -> StepResult:
    """st2 (only): no accuracy row and no comparison table of a transformer on a dataset outside the three."""
    off = outside(seen)
    found = sum(len(o["accuracy_rows"]) + len(o["tables"]) for o in off.values())
    return CLAIM.checked(
        "st2-only-on-sentiment", "statement", "exhaustive",
        "Uses of the two transformers outside the three sentiment datasets: "
        + "; ".join(f"{m}: accuracy rows {o['accuracy_rows'] or 'none'}, comparison tables {o['tables'] or 'none'}"
                    for m, o in off.items())
        + f" ({found} in all; the sentence, read as 'only', allows none).",
        holds=found == 0, values={"outside": off, "count": found}, reading=ONLY)


def used_on_all_four(seen: dict) -> StepResult:
    """c1: the corrected statement, on the same tables: both transformers have accuracy rows on all four datasets,
    DistilBERT has comparison tables on all four, RoBERTa on the three sentiment datasets only."""
    four = sorted((*SENTIMENT, "Tweets"))
    expected = {"RoBERTa": (four, sorted(SENTIMENT)), "DistilBERT": (four, four)}
    found = {m: (s["accuracy_rows"], s["table_datasets"]) for m, s in seen.items()}
    return CLAIM.checked(
        "c1-used-on-all-four", "correction", "exhaustive",
        "Datasets of each transformer's accuracy rows / comparison tables: "
        + "; ".join(f"{m}: {rows} / {tables}" for m, (rows, tables) in found.items())
        + f". Tweets accuracies: RoBERTa {MODEL_ACCURACY[('Tweets', 'RoBERTa')]:.3f}, DistilBERT "
          f"{MODEL_ACCURACY[('Tweets', 'DistilBERT')]:.3f}.",
        holds=found == {m: (list(a), list(t)) for m, (a, t) in expected.items()},
        values={"found": found, "expected": expected})
