"""LIME as the paper ran it, for claim ``baseline-lime``'s headline reading: the released explainer's call, on the
evaluation's models and on the documents the experiments explained.

The call. The released explainer (``explainers/lime_explainer.py`` of the authors' code: read, never copied or run
here) builds ``LimeTextExplainer(class_names=class_names, bow=False)`` and calls ``explain_instance(str(example),
classifier_fn=model.predict_proba)``: :data:`RELEASED_EXPLAINER` and :data:`RELEASED_EXPLAIN`, named once here.
Every other argument is lime's default (:func:`released_defaults` reads them from the installed package):
``split_expression=r"\\W+"``, ``num_features=10``, ``num_samples=5000``, ``feature_selection="auto"``,
``labels=(1,)``. The released call leaves ``random_state`` unset (lime then draws from numpy's global generator);
here it is set, for reproducible runs, which changes no law. With ``bow=False`` the features are the positions,
a removed position becoming ``UNKWORDZ``.

The models. ``models/logistic_classifier.py``: ``TfidfVectorizer()`` (L2 norm) then ``LogisticRegression()``,
explained through its ``predict_proba`` (class 1's column): :func:`fred.evaluation.models.make_model` ("logistic").

The documents (:func:`experiment_documents`): each dataset split as every evaluation run splits it (the run seed
of :class:`~fred.evaluation.config.RunConfig`), the model fitted on the training part, and the first ``n_docs``
positively classified test documents of at least :data:`MIN_TOKENS` tokens, shortest first: the released
``main.py``'s selection, which the committed ``results/*_min4_kfredpos.csv`` runs explained. The texts are
preprocessed as the authors do (ASCII letters, digits, single spaces), so lime's ``\\W+`` positions are the
whitespace tokens (checked on every document, :func:`released_scores`).

Feature selection. With ``num_features`` = 10 < b positions, 'auto' is 'highest_weights' (``lime_base.py``):
``Ridge(alpha=0.01)`` on all b positions, the 10 positions of largest |coefficient| (times ``data[0]`` = 1) kept,
and the final ``Ridge(alpha=1)`` fitted on those 10 columns alone, with the kernel of the distance over all b
positions; the other b - 10 positions get no score. :func:`selection_recomputed` redoes that from the package's
own samples. Its n -> infinity value is the restricted limit, :func:`analytic.lime_text.lime_coefficients` with
``columns``.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, fields
from functools import lru_cache

import numpy as np
from sklearn.linear_model import Ridge
from sklearn.metrics.pairwise import cosine_distances

from analytic import table_classifier, table_from_classifier
from analytic.lime_text import DISTANCE_SCALE, KERNEL_WIDTH, RIDGE_ALPHA, lime_coefficients
from fred.evaluation.config import RunConfig
from fred.evaluation.datasets import dataset_file, load_dataset, split_dataset
from fred.evaluation.documents import select_documents
from fred.evaluation.explainers import CLASS_NAMES, POSITIVE
from fred.evaluation.models import make_model

from ...cases.lime_runs import (
    DEFAULT_NUM_FEATURES,
    LADDER,
    MASK_TOKEN,
    REPEATS,
    LimeConvergence,
    rung_seeds,
    solve_tolerance,
)
from ...verdicts.results import hypotheses

#: ``LimeTextExplainer``'s arguments in the released explainer (its ``__init__``): the class names and bow=False.
RELEASED_EXPLAINER = {"class_names": list(CLASS_NAMES), "bow": False}
#: ``explain_instance``'s arguments in the released explainer (its ``explain``), besides the text: the model's
#: predict_proba as ``classifier_fn``, nothing else.
RELEASED_EXPLAIN = ("classifier_fn",)
#: The datasets whose lengths the headline covers: short (Restaurants) and long (Yelp) documents.
DATASETS = ("restaurants", "yelp")
#: The evaluation's model of the released ``models/logistic_classifier.py``.
MODEL = "logistic"
#: ``main.py`` keeps the test documents with more than 2 spaces (at least 4 tokens); the committed ``*_min4`` runs.
MIN_TOKENS = 4
_RUN = {f.name: f.default for f in fields(RunConfig)}
#: The run seed (the split) and the number of explained documents per dataset: RunConfig's defaults.
RUN_SEED, N_DOCS = _RUN["seed"], _RUN["n_docs"]
#: Ridge penalty of lime's 'highest_weights' selection (``lime_base.LimeBase.feature_selection``).
SELECTION_ALPHA = 0.01
#: Quantiles of the explained documents' lengths at which the package's selection is recomputed.
QUANTILES = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass(frozen=True, eq=False)
class ExplainedDocuments:
    """One dataset's explained documents (selection order, shortest first), their indices in the test split, and
    the fitted model that classified them."""

    dataset: str
    model: object
    texts: tuple[str, ...]
    test_index: tuple[int, ...]

    @property
    def lengths(self) -> list[int]:
        """The number of whitespace tokens of each document."""
        return [len(t.split()) for t in self.texts]

    def at_quantiles(self, quantiles=QUANTILES) -> list[tuple[float, str]]:
        """(q, the first document whose length is the q-quantile of the lengths, 'lower': a length seen)."""
        lengths = self.lengths
        out = []
        for q in quantiles:
            b = int(np.quantile(lengths, q, method="lower"))
            out.append((q, self.texts[lengths.index(b)]))
        return out

    def describe(self) -> dict:
        """Sizes and lengths, JSON-able."""
        lengths = np.array(self.lengths)
        return {"dataset": self.dataset, "documents": len(self.texts), "split_seed": RUN_SEED,
                "min_tokens": MIN_TOKENS, "model": "TfidfVectorizer() + LogisticRegression() (make_model('logistic'))",
                "length_quantiles": {str(q): int(np.quantile(lengths, q, method="lower")) for q in QUANTILES},
                "share_longer_than_num_features": float(np.mean(lengths > DEFAULT_NUM_FEATURES))}


def data_missing() -> str | None:
    """None when both datasets are found, else the reason (the data is not shipped with the package)."""
    try:
        for name in DATASETS:
            dataset_file(name)
    except FileNotFoundError as error:
        return (f"Not run here: the review datasets (restaurants.tsv and yelp.csv, not shipped with the package) are "
                f"not found ({error}); set FRED_DATA_DIR. This step saw no document.")
    return None


@lru_cache(maxsize=None)
def experiment_documents(dataset: str) -> ExplainedDocuments:
    """The documents the experiments explained on ``dataset`` with the evaluation's logistic model (built once)."""
    x_train, x_test, y_train, _ = split_dataset(load_dataset(dataset), RUN_SEED)
    model = make_model(MODEL).fit(x_train, y_train)
    chosen = select_documents(model, x_test, N_DOCS, MIN_TOKENS)
    return ExplainedDocuments(dataset, model, tuple(x_test[i] for i in chosen), tuple(chosen))


def released_defaults() -> dict:
    """lime's defaults for every argument the released call leaves unset, read from the installed signatures."""
    from lime.lime_text import LimeTextExplainer  # the eval extra: absent from a plain install

    init = inspect.signature(LimeTextExplainer).parameters
    call = inspect.signature(LimeTextExplainer.explain_instance).parameters
    return {"split_expression": init["split_expression"].default,
            "num_features": call["num_features"].default, "num_samples": call["num_samples"].default,
            "feature_selection": init["feature_selection"].default, "labels": list(call["labels"].default)}


def released_explanation(predict_proba, text: str, seed: int, n_samples: int | None = None):
    """The released call on ``text`` (``random_state`` = ``seed``; ``n_samples`` None keeps lime's default)."""
    from lime.lime_text import LimeTextExplainer

    explainer = LimeTextExplainer(**RELEASED_EXPLAINER, random_state=int(seed))
    extra = {} if n_samples is None else {"num_samples": int(n_samples)}
    return explainer.explain_instance(text, classifier_fn=predict_proba, **extra)


@dataclass(frozen=True)
class ReleasedScores:
    """What the released call returned on one document: a score per position (0 where it gave none), the positions
    it scored (in lime's order, largest |score| first) and lime's own tokens (its ``\\W+`` positions)."""

    coef: tuple[float, ...]
    scored: tuple[int, ...]
    lime_tokens: tuple[str, ...]

    @property
    def unscored(self) -> list[int]:
        """The positions with no score."""
        return sorted(set(range(len(self.lime_tokens))) - set(self.scored))


def released_scores(predict_proba, text: str, seed: int, n_samples: int | None = None) -> ReleasedScores:
    """:func:`released_explanation` read per position."""
    exp = released_explanation(predict_proba, text, seed, n_samples)
    words = exp.domain_mapper.indexed_string
    tokens = tuple(str(words.word(j)) for j in range(words.num_words()))
    coef = np.zeros(len(tokens))
    pairs = exp.as_map()[POSITIVE]
    for position, weight in pairs:
        coef[position] = weight
    return ReleasedScores(tuple(coef.tolist()), tuple(int(p) for p, _ in pairs), tokens)


def proba_table(model, tokens) -> np.ndarray:
    """Class 1's predict_proba of ``model`` on every mask pattern of ``tokens`` (a removed position UNKWORDZ)."""
    return table_from_classifier(model.predict_proba, list(tokens), mask_token=MASK_TOKEN, label=POSITIVE)


def limits(table, columns=None, ns=()) -> tuple[np.ndarray, np.ndarray]:
    """(the limit, beta*_n at each n of ``ns``) of LIME's fit by enumeration, over every position or over ``columns``
    alone (then extended by 0 to every position: the positions given no score)."""
    b = int(np.log2(len(table)))

    def spread(coef) -> np.ndarray:
        out = np.zeros(b)
        out[list(range(b)) if columns is None else list(columns)] = coef
        return out

    limit = spread(lime_coefficients(table, columns=columns).coef)
    at_n = np.array([spread(lime_coefficients(table, int(n), columns=columns).coef) for n in ns]).reshape(len(ns), b)
    return limit, at_n


def selection_recomputed(model, text: str, seed: int, n_samples: int | None = None) -> dict:
    """The released call on ``text``, and its selection redone from the package's own samples (the texts it passed
    to predict_proba, recorded): positions kept = the ``num_features`` largest |coefficient| of
    Ridge(alpha=0.01) on all positions, scores = Ridge(alpha=1) on those columns, kernel of the distance over all
    positions. Returns both, the gap between them and the positions left without a score."""
    seen: list[str] = []
    answers: list[np.ndarray] = []

    def recording(texts):
        seen.extend(texts)
        answers.append(model.predict_proba(list(texts)))
        return answers[-1]

    got = released_scores(recording, text, seed, n_samples)
    b = len(got.lime_tokens)
    data = np.array([[t != MASK_TOKEN for t in s.split()] for s in seen], dtype=float)
    labels = np.concatenate(answers)[:, POSITIVE]
    distances = cosine_distances(data, data[:1]).ravel() * DISTANCE_SCALE
    weights = np.sqrt(np.exp(-(distances**2) / KERNEL_WIDTH**2))
    wide = Ridge(alpha=SELECTION_ALPHA, fit_intercept=True).fit(data, labels, sample_weight=weights).coef_
    kept = sorted(np.argsort(-np.abs(wide), kind="stable")[:min(b, DEFAULT_NUM_FEATURES)].tolist())
    final = Ridge(alpha=RIDGE_ALPHA, fit_intercept=True).fit(data[:, kept], labels, sample_weight=weights).coef_
    redone = np.zeros(b)
    redone[kept] = final
    return {"text": text, "b": b, "n_samples": len(seen), "seed": int(seed), "scored": sorted(got.scored),
            "recomputed_kept": kept, "same_positions": sorted(got.scored) == kept,
            "max_score_gap": float(np.abs(np.array(got.coef) - redone).max()),
            "unscored": len(got.unscored), "scored_share": len(got.scored) / b,
            "positions_are_whitespace_tokens": list(got.lime_tokens) == text.split()}


def released_sweep(n_samples: int, seed: int) -> dict:
    """The released call on every explained document of :data:`DATASETS` at ``n_samples`` (only which positions get
    a score is read): per dataset, each document's b, distinct words and number of scored positions, and whether
    lime's positions are its whitespace tokens; the smallest b with a position left unscored."""
    out: dict = {}
    for name in DATASETS:
        docs = experiment_documents(name)
        rows = []
        for text in docs.texts:
            got = released_scores(docs.model.predict_proba, text, seed, n_samples)
            rows.append({"b": len(got.lime_tokens), "distinct_words": len(set(got.lime_tokens)),
                         "scored": len(got.scored), "whitespace": list(got.lime_tokens) == text.split()})
        out[name] = {**docs.describe(), "rows": rows}
    short = [r for v in out.values() for r in v["rows"]]
    dropped = sorted(r["b"] for r in short if r["scored"] < r["b"])
    return {"datasets": out, "n_samples": n_samples, "seed": seed,
            "smallest_b_with_an_unscored_position": dropped[0] if dropped else None,
            "every_short_document_fully_scored": all(r["scored"] == r["b"] for r in short
                                                      if r["b"] <= DEFAULT_NUM_FEATURES),
            "scored_is_min_b_10": all(r["scored"] == min(r["b"], DEFAULT_NUM_FEATURES) for r in short),
            "positions_are_whitespace_tokens": all(r["whitespace"] for r in short)}


def _hypotheses(model, text: str, lime_tokens) -> dict:
    """The released reading's hypotheses on a case, each computed: the call is the released one (bow=False and
    lime's default num_features and split), the model is the evaluation's (TfidfVectorizer with the L2 norm, then a
    logistic regression), the document is one the experiments explained, lime's positions are its tokens."""
    defaults = released_defaults()
    vectorizer, classifier = model.steps[0][1], model.steps[-1][1]
    return hypotheses(
        released_call=RELEASED_EXPLAINER["bow"] is False and defaults["num_features"] == DEFAULT_NUM_FEATURES
        and defaults["split_expression"] == r"\W+" and RELEASED_EXPLAIN == ("classifier_fn",),
        evaluation_model=type(vectorizer).__name__ == "TfidfVectorizer" and vectorizer.norm == "l2"
        and type(classifier).__name__ == "LogisticRegression",
        explained_document=text in experiment_documents(DATASETS[0]).texts,
        positions_are_tokens=list(lime_tokens) == text.split())


def released_case(seed: int) -> dict | None:
    """The minimal counterexample to 'every token gets a score, the framework's limit': the first explained
    Restaurants document of b = num_features + 1 positions on which the released call (every default, n = 5000)
    leaves a position without a score whose exact limit (enumeration over the 2^b patterns of predict_proba) is
    not 0 beyond the solve's tolerance; None if there is none. With the restricted limit over the scored positions
    and its gap to the full limit there."""
    docs = experiment_documents(DATASETS[0])
    for index, text in zip(docs.test_index, docs.texts):
        tokens = text.split()
        if len(tokens) != DEFAULT_NUM_FEATURES + 1:
            continue
        got = released_scores(docs.model.predict_proba, text, seed)
        table = proba_table(docs.model, tokens)
        full, _ = limits(table)
        tolerance = solve_tolerance(len(tokens), None, max(1.0, float(np.abs(table).max())))
        if not any(abs(full[j]) > tolerance for j in got.unscored):
            continue
        restricted, _ = limits(table, sorted(got.scored))
        kept = sorted(got.scored)
        return {**_hypotheses(docs.model, text, got.lime_tokens), "dataset": DATASETS[0], "text": text,
                "test_index": int(index), "b": len(tokens), "seed": int(seed),
                "num_samples": released_defaults()["num_samples"], "scored": kept, "unscored": got.unscored,
                "unscored_tokens": [tokens[j] for j in got.unscored], "scores": list(got.coef),
                "full_limit": full.tolist(), "unscored_limits": [float(full[j]) for j in got.unscored],
                "largest_limit": float(np.abs(full).max()), "tolerance": tolerance,
                "restricted_limit": restricted.tolist(),
                "restricted_minus_full_on_scored": float(np.abs(restricted[kept] - full[kept]).max()),
                "top_positions_of_the_limit": sorted(np.argsort(-np.abs(full), kind="stable")
                                                     [:DEFAULT_NUM_FEATURES].tolist())}
    return None


def first_of_length(dataset: str, b: int) -> str | None:
    """The first explained document of ``dataset`` with ``b`` tokens (None if there is none)."""
    return next((t for t in experiment_documents(dataset).texts if len(t.split()) == b), None)


def released_ladder(dataset: str, text: str, seed: int, restricted: bool = False) -> tuple[LimeConvergence, list]:
    """The released call on ``text`` (``dataset``'s model) ``REPEATS`` times at each n of ``LADDER``, beside the exact
    limit and beta*_n (enumeration) of LIME's fit over every position or, ``restricted``, over the
    ``num_features`` positions of largest |full limit| alone (0 elsewhere); and those positions (all, unrestricted).
    The closed form has no value here (predict_proba): NaN."""
    model = experiment_documents(dataset).model
    table = proba_table(model, text.split())
    full, _ = limits(table)
    columns = (sorted(np.argsort(-np.abs(full), kind="stable")[:DEFAULT_NUM_FEATURES].tolist()) if restricted
               else list(range(len(full))))
    limit, equivalents = limits(table, columns if restricted else None, LADDER)
    seeds = rung_seeds(seed, len(LADDER), REPEATS)
    # The model's predict_proba on LIME's texts, looked up in its table over every pattern: the same numbers, faster.
    predict = table_classifier(text.split(), table, MASK_TOKEN, n_classes=2)
    coef = np.array([[released_scores(predict, text, s, n).coef for s in row] for n, row in zip(LADDER, seeds)])
    nan = np.full(limit.shape, np.nan)
    runs = LimeConvergence(f"{dataset}-{MODEL}-predict-proba", text, LADDER, seeds, coef, limit, nan, equivalents,
                           np.full(equivalents.shape, np.nan), nan)
    return runs, columns
