"""Appendix B.1: the DistilBERT of the experiments is a "cutting-edge transformer model for sentiment analysis".

Readings of the sentence (line 1115), each with its own verdict:

* ``checkpoint`` (headline): the model the experiments explain, the footnote's checkpoint used as it was loaded
  (line 1114 names it; the caption of ``tab:model_accuracy`` says its weights were not fine-tuned, and that table
  reports its accuracy), is a sentiment classifier. The paper's own accuracy table says otherwise: on the three
  sentiment datasets it scores 0.500, 0.472 and 0.500. This project's criterion (not the paper's): a sentiment
  classifier must beat the constant answer. With two classes (positive and negative: line 1116 explains "the
  positive class" of "positive predictions"), a classifier that always answers the majority class scores max(pi,
  1 - pi) >= 1/2 whatever the share pi of positive documents, so an accuracy of at most 1/2 is no better than a
  constant answer; no sample size is needed for that comparison (the table gives none). Without the two-class
  hypothesis, RoBERTa's rows (a positive/negative model scoring 0.972, 0.988, 0.950) still put at least that share
  of the documents in two classes, so the constant answer scores at least half of it: Yelp's 0.472 stays below.
* ``family`` (weaker): DistilBERT, as a family of models (fine-tuned variants included), is a cutting-edge
  sentiment model. No computation here checks it (argued), and the experiments do not use such a variant.

The corrected statement is checked on the paper's tables (FRED-mask's mean comprehensiveness on DistilBERT is below
its value on every other model of the same dataset) and, when ``$FRED_AUTHORS_CHECKOUT`` is set, on the
authors' released code run as an outside program (:mod:`proofs_checks.subject.authors_probe`): the pipeline builds the
model from ``distilbert-base-uncased`` and its training call leaves every loaded object untouched. Without the
checkout that step is argued, with the reason.
"""

from __future__ import annotations

from fractions import Fraction

from ...paper.tables import MODEL_ACCURACY, MODEL_ACCURACY_CAPTION, MODEL_ACCURACY_LABEL, TABLES, accuracy_key
from ...subject.authors_probe import NOT_RUN, checkout_path, probe
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses

CLAIM = Claim("experiment-distilbert-sentiment")
CHECKPOINT, FAMILY = "checkpoint", "family"
#: The footnote's checkpoint (line 1114); the Hugging Face hub serves it under both names.
FOOTNOTE_CHECKPOINT = "distilbert/distilbert-base-uncased"
SOURCE = (
    Quote(1114, r"Additionally, we employed a pretrained version of RoBERTa\footnote{https://huggingface.co/siebert/"
                r"sentiment-roberta-large-english} \citep{hartmann2023} and DistilBERT\footnote{https://huggingface.co/"
                r"distilbert/distilbert-base-uncased} for the three sentiment analysis datasets."),
    Quote(1115, "These are two cutting-edge transformer models for sentiment analysis sourced from the Hugging Face "
                "repository."),
    Quote(1108, "We employ three sentiment analysis datasets: Restaurants"),
    Quote(549, r"Additionally, we applied pre-trained RoBERTa \citep{liu2019roberta} and DistilBERT "
               r"\citep{sanh2019distilbert} models."),
    Quote(685, r"DistilBERT and Roberta on IMDb (Tables~\ref{exp-tab:imdb_distilbert_5} and "
               r"\ref{exp-tab:imdb_roberta_5}, $k=2$ for Robustness),"),
    Quote(1116, "Finally, we remark that we always consider documents with positive predictions, and we explain the "
                "positive class."),
    Quote(1118, r"Table \ref{tab:model_accuracy} reports the accuracies for each model and dataset."),
    Quote(1120, "Contrarily, we use pre-trained version of Roberta and DistilBERT on the datasets."),
    Quote(1125, "RoBERTa and DistilBERT are leveraged here as pre-trained models, meaning their weights were not "
                "further fine-tuned on the individual datasets."),
    Quote(1136, r"& DistilBERT & $0.500$ \\"),
    Quote(1143, r"& DistilBERT & $0.472$ \\"),
    Quote(1150, r"& DistilBERT & $0.500$ \\"),
    Quote(1105, r"The code for FRED and the experiments is available at "
                r"\url{https://github.com/gianluigilopardo/fred}."),
)
READINGS = (
    Reading(CHECKPOINT, "headline",
            "the model the experiments explain, the footnote's checkpoint as loaded (not fine-tuned), is a "
            "sentiment classifier",
            why=(Quote(1114, r"DistilBERT\footnote{https://huggingface.co/distilbert/distilbert-base-uncased} for the "
                             r"three sentiment analysis datasets."),
                 Quote(1125, "RoBERTa and DistilBERT are leveraged here as pre-trained models, meaning their weights "
                             "were not further fine-tuned on the individual datasets."),
                 Quote(1118, r"Table \ref{tab:model_accuracy} reports the accuracies for each model and dataset."))),
    Reading(FAMILY, "weaker",
            "DistilBERT as a family of models, fine-tuned variants included, is a cutting-edge sentiment model",
            why=(Quote(1115, "These are two cutting-edge transformer models for sentiment analysis"),)),
)
STATEMENT = (
    'Appendix B.1, "Models" (lines 1114-1115): "we employed a pretrained version of RoBERTa and DistilBERT '
    '[footnote: https://huggingface.co/distilbert/distilbert-base-uncased] for the three sentiment analysis datasets. '
    'These are two cutting-edge transformer models for sentiment analysis sourced from the Hugging Face repository."; '
    'section 4 applies "pre-trained RoBERTa and DistilBERT models" (line 549) and reports table '
    'exp-tab:imdb_distilbert_5 as a comparison of explainers on such a model (line 685).'
)
CORRECTED = (
    "On Restaurants, Yelp and IMDb the DistilBERT of the experiments is no better than a constant classifier "
    "(accuracy <= 1/2 in tab:model_accuracy, two classes). In every DistilBERT table of these datasets, FRED-mask's "
    "mean comprehensiveness (the drop of the confidence when its explanation is removed) is below its value in every "
    "table of another model of the same dataset, including the table where its mean proportion of the document is "
    "0.700. The released code explains "
    "distilbert-base-uncased as loaded: the training call of its pipeline uses none of the loaded objects. The "
    "DistilBERT rows explain the footnote's base checkpoint, not a sentiment classifier."
)
SENTIMENT = ("Restaurants", "Yelp", "IMDB")
#: The classes of each sentiment dataset as the paper names them: it explains "the positive class" of documents with
#: "positive predictions" (line 1116), and the RoBERTa of the same tables is a positive/negative model (line 1114).
CLASSES = {dataset: ("negative", "positive") for dataset in SENTIMENT}
#: With two classes, the constant classifier that answers the majority class scores at least this, whatever the
#: balance (this project's criterion: a sentiment classifier must beat it).
CONSTANT_CLASSIFIER = Fraction(1, 2)


def statement_hypotheses(dataset: str) -> dict:
    """When an accuracy row speaks to the sentence: a sentiment dataset (line 1108), the DistilBERT row of
    tab:model_accuracy, an accuracy that is a proportion, and two classes (line 1116), which the bound 1/2 on the
    constant classifier needs."""
    accuracy = MODEL_ACCURACY.get((dataset, "DistilBERT"))
    return hypotheses(sentiment_dataset=dataset in SENTIMENT, distilbert_row=accuracy is not None,
                      accuracy_is_a_proportion=accuracy is not None and 0 <= accuracy <= 1,
                      two_classes=len(CLASSES.get(dataset, ())) == 2)


def without_two_classes() -> dict:
    """What is left without the two-class hypothesis: RoBERTa answers one of two classes (line 1114's checkpoint),
    so its accuracy r is at most the share of documents labelled with those two; the majority class then holds at
    least r/2, and so does the constant answer. Exact, on the printed accuracies."""
    rows = {}
    for d in SENTIMENT:
        r, a = Fraction(str(MODEL_ACCURACY[(d, "RoBERTa")])), Fraction(str(MODEL_ACCURACY[(d, "DistilBERT")]))
        rows[d] = {"roberta": str(r), "constant_at_least": str(r / 2), "distilbert": str(a),
                   "distilbert_not_above": a <= r / 2}
    return rows


def _accuracies() -> dict:
    return {"table": MODEL_ACCURACY_LABEL, "caption": MODEL_ACCURACY_CAPTION,
            "distilbert": {d: MODEL_ACCURACY[(d, "DistilBERT")] for d in SENTIMENT},
            "roberta": {d: MODEL_ACCURACY[(d, "RoBERTa")] for d in SENTIMENT},
            "classes": CLASSES, "constant_classifier_at_least": str(CONSTANT_CLASSIFIER),
            "without_two_classes": without_two_classes()}


CONDITIONS = ("Checked on the paper's own numbers (we did not run DistilBERT) and, when $FRED_AUTHORS_CHECKOUT is "
              "set, on the released code run as an outside program. Headline reading 'checkpoint', tested by this "
              "project's criterion: a sentiment classifier must beat the constant answer, which scores at least 1/2 "
              "on two classes (line 1116). The Tweets rows (DistilBERT "
              f"{MODEL_ACCURACY[('Tweets', 'DistilBERT')]}, RoBERTa {MODEL_ACCURACY[('Tweets', 'RoBERTa')]}; table "
              "exp-tab:tweets_distilbert_1) are left out of every step: the sentence is about the sentiment "
              "datasets, and the Tweets class balance, which sets the constant classifier's accuracy there, is not "
              "in the paper.")


def check() -> ClaimResult:
    """The accuracy table, the comparison tables of every DistilBERT model on a sentiment dataset, and the released
    pipeline's training call when its checkout is set."""
    acc = _accuracies()
    above = {d: Fraction(str(a)) > CONSTANT_CLASSIFIER for d, a in acc["distilbert"].items()}
    steps = (accuracy(acc, above), family(), chance(acc, above), insensitive(), never_trained())
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS,
                        counterexample=counterexample(acc, above), steps=steps, corrected=CORRECTED, source=SOURCE,
                        readings=READINGS)


def counterexample(acc: dict, above: dict) -> dict | None:
    """The DistilBERT rows no better than the constant answer, with the hypotheses they all satisfy (None: none)."""
    failing = {d: a for d, a in acc["distilbert"].items() if not above[d]}
    if not failing:
        return None
    records = [statement_hypotheses(d) for d in failing]
    return {"table": MODEL_ACCURACY_LABEL, "distilbert_accuracy": failing,
            "constant_classifier_at_least": str(CONSTANT_CLASSIFIER),
            **hypotheses(**{k: all(r["hypotheses"][k] for r in records) for k in records[0]["hypotheses"]})}


def accuracy(acc: dict, above: dict) -> StepResult:
    """st1: DistilBERT's accuracy on each sentiment dataset against the constant answer's (``above``: beats it)."""
    still_below = [d for d, r in acc["without_two_classes"].items() if r["distilbert_not_above"]]
    return CLAIM.checked(
        "st1-accuracy", "statement", "exhaustive",
        f"{MODEL_ACCURACY_LABEL} (appendix B.1), DistilBERT on the three sentiment datasets: "
        + ", ".join(f"{d} {a:.3f}" for d, a in acc["distilbert"].items())
        + ". This project's criterion, not the paper's: a sentiment classifier must beat the constant "
          f"answer, which scores >= {CONSTANT_CLASSIFIER} whatever the balance of the two classes (positive "
          "and negative, line 1116). RoBERTa, the other pre-trained model, scores "
        + ", ".join(f"{a:.3f}" for a in acc["roberta"].values()) + " on the same datasets. Without the "
          "two-class hypothesis, RoBERTa's accuracy r bounds the share of the documents in its two classes, "
          "so the constant answer scores >= r/2: DistilBERT is still not above it on "
        + (", ".join(still_below) or "none of them") + ".",
        holds=all(above.values()), values={**acc, "above_constant": above}, reading=CHECKPOINT)


def family() -> StepResult:
    """st2: DistilBERT as a family of models, which no computation here checks."""
    return CLAIM.argued(
        "st2-family", "statement",
        "DistilBERT checkpoints fine-tuned for sentiment exist; whether the family is 'cutting-edge' is not a "
        "computable statement, and the experiments use none of those checkpoints (footnote, line 1114).",
        reading=FAMILY)


def chance(acc: dict, above: dict) -> StepResult:
    """c1: DistilBERT's accuracy is at most the constant answer's on every sentiment dataset."""
    return CLAIM.checked("c1-chance", "correction", "exhaustive",
                         f"{MODEL_ACCURACY_LABEL}: DistilBERT's accuracy is at most {CONSTANT_CLASSIFIER} on each of "
                         f"{', '.join(SENTIMENT)}.",
                         holds=not any(above.values()), values={**acc, "above_constant": above})


def insensitive() -> StepResult:
    """c2: FRED-mask's comprehensiveness in each DistilBERT table of a sentiment dataset against its smallest one on
    the other models of the same dataset, with the share of the document its explanation covers."""
    rows = []
    for label, table in TABLES.items():
        dataset, model = accuracy_key(label)
        if model != "DistilBERT" or dataset not in SENTIMENT:
            continue
        others = {other: t.mean("fred", "comprehensiveness") for other, t in TABLES.items()
                  if accuracy_key(other)[0] == dataset and accuracy_key(other)[1] != "DistilBERT"}
        lowest = min(others, key=others.get)
        rows.append({"table": label, "fred_comprehensiveness": table.mean("fred", "comprehensiveness"),
                     "fred_proportion": table.mean("fred", "proportion"),
                     "lowest_other_model_table": lowest, "lowest_other_model": others[lowest],
                     "below": table.mean("fred", "comprehensiveness") < others[lowest]})
    return CLAIM.checked(
        "c2-insensitive", "correction", "exhaustive",
        "FRED-mask's mean comprehensiveness (the drop of the confidence when its explanation is removed) "
        "in every DistilBERT table of a sentiment dataset against its smallest value in a table of another "
        "model of the same dataset: "
        + "; ".join(f"{r['table']} {r['fred_comprehensiveness']:.3f} (proportion of the document "
                    f"{r['fred_proportion']:.3f}) against {r['lowest_other_model']} "
                    f"({r['lowest_other_model_table']})" for r in rows) + ".",
        holds=bool(rows) and all(r["below"] for r in rows), values={"datasets": list(SENTIMENT), "rows": rows})


def _never_trained(reply: dict) -> tuple[bool, dict]:
    """The released pipeline's DistilBERT: built from the footnote's checkpoint, and its training call uses none of
    the loaded objects, builds no trainer and rebinds no attribute or module global."""
    name = FOOTNOTE_CHECKPOINT.split("/")[-1]
    loads_footnote = bool(reply["loaded"]) and all(n.split("/")[-1] == name for _, n in reply["loaded"])
    explains_loaded = reply["trainer_wraps"] == [f"DistilBertForSequenceClassification({name!r})"]
    untouched = (not reply["uses_during_train"] and reply["trainers_built_during_train"] == 0
                 and reply["attributes_unchanged"] and reply["globals_unchanged"] and reply["raised"] is None)
    return loads_footnote and explains_loaded and untouched, {
        **reply, "loads_the_footnote_checkpoint": loads_footnote, "explains_the_loaded_model": explains_loaded,
        "train_leaves_it_untouched": untouched}




#: What the step does not run, and why (models/distilbert.py loads its checkpoint when imported).
DOWNLOAD = ("models/distilbert.py loads the checkpoint from the Hugging Face hub when it is imported (a download "
            "unless it is cached): nothing is downloaded here, so the probe runs it with a logging stand-in for transformers. That settles "
            "what the pipeline does with the objects it loads; the weights themselves (the classification head "
            "that from_pretrained adds to the base checkpoint) are not loaded or run here.")


def never_trained() -> StepResult:
    """c3: the released pipeline's DistilBERT, run as an outside program when its checkout is set; argued
    otherwise."""
    reply = probe("distilbert-train")
    if reply is None:
        return CLAIM.argued(
            "c3-never-trained", "correction",
            f"{NOT_RUN} With it, this step builds the released pipeline's DistilBERT (utils.setup.setup_model('distilbert'), as main.py does) in "
            "a separate process and checks that its training call uses none of the loaded objects. Without it, "
            "that the DistilBERT rows explain the checkpoint as loaded rests on the footnote "
            f"({FOOTNOTE_CHECKPOINT}) and the caption of {MODEL_ACCURACY_LABEL} (not fine-tuned).")
    ok, values = _never_trained(reply)
    return CLAIM.checked(
        "c3-never-trained", "correction", "exhaustive",
        f"The released code ({checkout_path()}), run as an outside program: setup_model('distilbert') builds "
        f"{reply['class']} from " + ", ".join(f"{c}.from_pretrained({n!r})" for c, n in reply["loaded"])
        + f"; its trainer wraps {reply['trainer_wraps']}; train(X, y) returned {reply['returned']}"
        + (f" (raised {reply['raised']})" if reply["raised"] else "")
        + f", used the loaded objects {len(reply['uses_during_train'])} times, built "
          f"{reply['trainers_built_during_train']} trainers, attributes unchanged: {reply['attributes_unchanged']}, "
          f"module globals unchanged: {reply['globals_unchanged']}. {DOWNLOAD}",
        holds=ok, values={**values, "stand_in": DOWNLOAD})
