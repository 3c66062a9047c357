"""Appendix B.1: the accuracies of the TF-IDF models (table tab:model_accuracy) and their default parameters.

The table prints, for Restaurants and Yelp, the accuracies of the logistic regression, decision tree and random
forest "trained specifically on the corresponding dataset" (its caption's asterisk), and line 1113 says they were
trained "with the default parameters of scikit-learn". The released pipeline (``main.py``, the code line 1105 points
to) is run as an outside program (:mod:`proofs_checks.subject.authors_pipeline`): its seed (42), its loaders'
preprocessing and split (a quarter held out: 250 test documents, so every accuracy is a multiple of 1/250), its
models as it builds them; the accuracy is the one it writes to ``info.json``. Each printed value is compared
exactly (as fractions); each trained estimator's and vectorizer's parameters are compared with those of its class
built with no argument. One reading: the words name the models, the datasets and the numbers.

Not run here (the report says so in the claim's conditions): the RoBERTa and DistilBERT rows (their weights are
not on this machine and nothing is downloaded; DistilBERT's rows are the claim experiment-distilbert-sentiment's),
and every IMDb and Tweets row (those datasets are not on this machine). The verdict is computed on the six rows
that are run.
"""

from __future__ import annotations

from fractions import Fraction

import sklearn

from ...paper.tables import MODEL_ACCURACY, MODEL_ACCURACY_LABEL
from ...subject.authors_pipeline import PIPELINE_MODELS, not_run, pipeline_runs
from ...verdicts.results import Claim, ClaimResult, Quote, StepResult, hypotheses

CLAIM = Claim("experiment-model-accuracies", new=True)
#: The table's row names of the released pipeline's datasets and models.
DATASET_ROWS = {"restaurants": "Restaurants", "yelp": "Yelp"}
MODEL_ROWS = {"logistic_classifier": "Logistic Regression", "tree_classifier": "Decision Tree",
              "forest_classifier": "Random Forest"}
#: The seed the released pipeline's command line defaults to (utils/args.py), which the paper's runs used.
RELEASED_SEED = 42
SOURCE = (
    Quote(1132, r"& Logistic Regression* & $0.808$  \\"),
    Quote(1133, r"& Decision Tree* & $0.676$ \\"),
    Quote(1134, r"& Random Forest* & $0.748$  \\"),
    Quote(1139, r"& Logistic Regression*& $0.892$ \\"),
    Quote(1140, r"& Decision Tree* & $0.748$\\"),
    Quote(1141, r"& Random Forest* & $0.868$ \\"),
    Quote(1113, r"We trained a logistic classifier, a decision tree, and a random forest classifier on each dataset "
                r"(with the default parameters of \url{https://scikit-learn.org/})."),
    Quote(1118, r"Table \ref{tab:model_accuracy} reports the accuracies for each model and dataset."),
    Quote(1105, r"The code for FRED and the experiments is available at "
                r"\url{https://github.com/gianluigilopardo/fred}."),
    Quote(1135, r"& RoBERTa & $0.972$ \\"),
    Quote(1142, r"& RoBERTa & $0.988$ \\"),
)
STATEMENT = (
    "Appendix B.1, table tab:model_accuracy (lines 1132-1134 and 1139-1141): the TF-IDF logistic regression, "
    "decision tree and random forest score 0.808, 0.676, 0.748 on Restaurants and 0.892, 0.748, 0.868 on Yelp; "
    'line 1113: they were trained "on each dataset (with the default parameters of https://scikit-learn.org/)".'
)
NOT_RUN = {
    "RoBERTa rows (lines 1135, 1142, 1149, 1156)": "the weights of siebert/sentiment-roberta-large-english are not "
                                                    "on this machine and nothing is downloaded",
    "DistilBERT rows (lines 1136, 1143, 1150, 1157)": "the weights are not on this machine; these rows are the claim "
                                                      "experiment-distilbert-sentiment's",
    "IMDb and Tweets rows (lines 1146-1148, 1153-1155)": "the IMDb and Tweets datasets are not on this machine and "
                                                         "nothing is downloaded",
}
CONDITIONS = (
    "The released pipeline (main.py of the checkout at $FRED_AUTHORS_CHECKOUT) run as an outside program, with its "
    f"default seed ({RELEASED_SEED}), on restaurants.tsv and yelp.csv read in place; accuracies compared exactly. "
    f"scikit-learn {sklearn.__version__} (the paper does not name its version). Not run here: "
    + "; ".join(f"{rows}: {why}" for rows, why in NOT_RUN.items())
    + ". The verdict is computed on the six rows that are run."
)


def row_accuracies(runs: dict, dataset: str) -> dict:
    """Per model of ``dataset``: the printed accuracy, the reproduced one (exact, from the test set's size), equal."""
    rows = {}
    for model in PIPELINE_MODELS:
        run = runs["runs"][dataset][model]
        correct = round(run["accuracy"] * run["n_test"])
        reproduced = Fraction(correct, run["n_test"])
        printed = Fraction(str(MODEL_ACCURACY[(DATASET_ROWS[dataset], MODEL_ROWS[model])]))
        rows[MODEL_ROWS[model]] = {"printed": str(printed), "reproduced": str(reproduced),
                                   "reproduced_float": run["accuracy"], "correct": correct,
                                   "n_test": run["n_test"], "seed": run["seed"], "equal": reproduced == printed}
    return rows


def accuracies(runs: dict | None, dataset: str, step: str) -> StepResult:
    """s1/s2: the three TF-IDF accuracies of ``dataset`` retrained by the released pipeline, against the table."""
    name = DATASET_ROWS[dataset]
    if runs is None:
        return CLAIM.argued(step, "statement", not_run(
            f"runs the released main.py on {name} for each TF-IDF model (seed "
            f"{RELEASED_SEED}) and compares its accuracies with {MODEL_ACCURACY_LABEL}'s {name} rows."))
    rows = row_accuracies(runs, dataset)
    return CLAIM.checked(
        step, "statement", "exhaustive",
        f"The released main.py (seed {RELEASED_SEED}, its split: {rows['Decision Tree']['n_test']} test documents) "
        f"retrains each TF-IDF model on {name}: "
        + ", ".join(f"{m} {r['correct']}/{r['n_test']} = {float(Fraction(r['reproduced'])):.3f} (printed "
                    f"{float(Fraction(r['printed'])):.3f})" for m, r in rows.items()) + ".",
        holds=all(r["equal"] for r in rows.values()), values={"dataset": name, "rows": rows})


def default_parameters(runs: dict | None) -> StepResult:
    """s3: every trained estimator and its TF-IDF vectorizer have the parameters of their class built with no
    argument (scikit-learn's defaults), on both datasets."""
    if runs is None:
        return CLAIM.argued("s3-default-parameters", "statement", not_run(
            "compares the parameters of every estimator and vectorizer the released pipeline trains with those of "
            "the same class built with no argument."))
    rows = {f"{d}/{m}": {part: {"class": run[part]["class"], "non_default": sorted(
        k for k in run[part]["params"] if run[part]["params"][k] != run[part]["defaults"].get(k))}
        for part in ("estimator", "vectorizer")}
        for d, models in runs["runs"].items() for m, run in models.items()}
    default = all(not r[part]["non_default"] for r in rows.values() for part in r)
    classes = sorted({r[part]["class"] for r in rows.values() for part in r})
    return CLAIM.checked(
        "s3-default-parameters", "statement", "exhaustive",
        f"The {len(rows)} models the released pipeline trains ({', '.join(classes)}): parameters differing from "
        f"the class's defaults (scikit-learn {sklearn.__version__}): "
        + ("none" if default else "; ".join(f"{k} {v}" for k, v in rows.items())) + ".",
        holds=default, values={"sklearn": sklearn.__version__, "models": rows})


def counterexample(runs: dict | None) -> dict | None:
    """The printed rows the released pipeline does not reproduce, with its hypotheses (None: none, or not run)."""
    if runs is None:
        return None
    failing = {f"{DATASET_ROWS[d]}/{m}": r for d in DATASET_ROWS for m, r in row_accuracies(runs, d).items()
               if not r["equal"]}
    if not failing:
        return None
    return {"rows": failing, **hypotheses(
        released_pipeline=True, released_seed=all(r["seed"] == RELEASED_SEED for r in failing.values()),
        tfidf_model_row=all(k.split("/")[1] in MODEL_ROWS.values() for k in failing))}


def check() -> ClaimResult:
    """The released pipeline's six TF-IDF runs (one outside program, cached) against the printed accuracies."""
    runs = pipeline_runs()
    steps = (accuracies(runs, "restaurants", "s1-restaurants"), accuracies(runs, "yelp", "s2-yelp"),
             default_parameters(runs))
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS,
                        counterexample=counterexample(runs), steps=steps, source=SOURCE)
