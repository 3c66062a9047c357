"""Train a scikit-learn text model, explain test documents with each explainer, score and tabulate.

Protocol (paper, section 4 and appendix B, with our fixed choices stated):

* data: :func:`fred.evaluation.datasets.load_dataset` (authors' preprocessing);
* split: ``train_test_split(test_size=0.25, random_state=seed)``;
* model: ``TfidfVectorizer()`` then ``LogisticRegression()``,
  ``DecisionTreeClassifier(random_state=seed)`` or
  ``RandomForestClassifier(random_state=seed)``, otherwise defaults;
* documents: the test documents the model classifies as positive, ordered by
  number of tokens (stable), the first ``n_docs``; class 1 is explained;
* per document and explainer: one explanation (seed ``seed``) timed, then
  ``k_robust`` re-runs (seeds ``seed + 1 ...``) for robustness; LIME and SHAP
  take k = |FRED's explanation| (``k_from``, FRED mask by default);
* FRED: ``baseline="mean"`` (the paper) unless ``baseline="original"`` (the
  authors' code, threshold eps * f(xi)), default sample size (Lemma 2);
* metrics: :mod:`fred.evaluation.metrics` with mask token ``UNK`` and f = P(class 1).
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from .._markdown import markdown_table
from .._progress import progress as show_progress
from .._validation import check_int
from .._provenance import describe, environment
from . import metrics
from .datasets import load_dataset
from .explainers import EXPLAINERS, POSITIVE, Adapter, Unavailable, build_adapter
from .models import MODELS, make_model
from .paper_tables import PAPER_COLUMNS, paper_table

TEST_SIZE = 0.25
#: Summary columns in the paper's order, then ours only.
SUMMARY_COLUMNS = (
    ("sufficiency", "suffic. ↓"),
    ("comprehensiveness", "compreh. ↑"),
    ("robustness", "robust. ↑"),
    ("aucmorf_authors", "aucmorf (authors) ↓"),
    ("time", "time (s) ↓"),
    ("proportion", "proport. ↓"),
    ("aucmorf", "aucmorf (paper def.) ↓"),
)
#: Our column compared with each of the paper's columns (the paper's tables come from the authors' code).
PAPER_MATCH = dict(zip(PAPER_COLUMNS, ("sufficiency", "comprehensiveness", "robustness", "aucmorf_authors",
                                       "time", "proportion")))


@dataclass(frozen=True)
class RunConfig:
    """Everything a run depends on (written into the Markdown)."""

    dataset: str
    model: str
    explainers: tuple[str, ...]
    n_docs: int = 100
    p: float = 0.5
    eps: float = 0.15
    k_robust: int = 10
    seed: int = 0
    n_samples: int | None = None
    lime_samples: int = 5000
    k_from: str = "fred"
    baseline: str = "mean"
    data_dir: str | None = None
    command: str = field(default="", compare=False)

    def __post_init__(self):
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {MODELS}, got {self.model!r}")
        unknown = [e for e in self.explainers if e not in EXPLAINERS]
        if unknown or not self.explainers:
            raise ValueError(f"explainers must be a non-empty subset of {EXPLAINERS}, got {self.explainers}")
        if self.baseline not in ("mean", "original"):
            raise ValueError(f"baseline must be 'mean' or 'original', got {self.baseline!r}")
        if self.k_from not in ("fred", "fredpos"):
            raise ValueError(f"k_from must be 'fred' or 'fredpos', got {self.k_from!r}")
        if any(e in ("lime", "shap") for e in self.explainers) and self.k_from not in self.explainers:
            raise ValueError(f"lime and shap take k from {self.k_from!r}, which must be among the explainers")
        for name, low in (("n_docs", 1), ("k_robust", 0), ("lime_samples", 1)):
            value = getattr(self, name)
            check_int(value, name, low)


def select_documents(model, texts: Sequence[str], n_docs: int) -> list[int]:
    """Indices of the first ``n_docs`` positively classified texts, shortest first (stable order)."""
    positive = np.flatnonzero(model.predict(list(texts)) == POSITIVE)
    order = sorted(positive.tolist(), key=lambda i: len(texts[i].split()))
    return order[:n_docs]


def score_document(adapter: Adapter, f, text: str, seed: int, k: int | None, k_robust: int) -> dict:
    """One row of per-document metrics for one explainer."""
    tokens = text.split()
    result, seconds = metrics.timed(adapter.explain, text, seed, k)
    reruns = [adapter.explain(text, seed + r, k).ids for r in range(1, k_robust + 1)]
    return {
        "n_tokens": len(tokens),
        "k": len(result.ids),
        "explanation": " ".join(tokens[i] for i in result.ids),
        "ids": " ".join(map(str, result.ids)),
        "n_positive": len(result.ranking),
        "sufficiency": metrics.sufficiency(f, tokens, result.ids),
        "sufficiency_alone": metrics.sufficiency_alone(f, tokens, result.ids),
        "comprehensiveness": metrics.comprehensiveness(f, tokens, result.ids),
        "robustness": metrics.robustness(result.ids, reruns) if reruns else math.nan,
        "aucmorf": metrics.aucmorf(f, tokens, result.ranking),
        "aucmorf_authors": metrics.aucmorf_authors(f, tokens, result.ranking),
        "time": seconds,
        "proportion": metrics.proportion(result.ids, len(tokens)),
    }


@dataclass(frozen=True, eq=False)
class RunResult:
    """Per-document rows, the reasons explainers were skipped, and run facts."""

    config: RunConfig
    rows: list[dict]
    unavailable: dict[str, str]
    accuracy: float
    n_train: int
    n_test: int
    n_positive_test: int
    wall_seconds: float


def run(config: RunConfig, progress: bool = True) -> RunResult:
    """Train, explain and score; no files written (see :func:`write_outputs`)."""
    from sklearn.model_selection import train_test_split

    start = time.perf_counter()
    data = load_dataset(config.dataset, config.data_dir)
    x_train, x_test, y_train, y_test = train_test_split(list(data.texts), data.labels, test_size=TEST_SIZE,
                                                        random_state=config.seed)
    model = make_model(config.model, config.seed).fit(x_train, y_train)
    accuracy = float(np.mean(model.predict(x_test) == y_test))
    docs = select_documents(model, x_test, config.n_docs)

    adapters: dict[str, Adapter] = {}
    unavailable: dict[str, str] = {}
    # k for LIME and SHAP comes from FRED, so FRED runs first.
    ordered = sorted(config.explainers, key=lambda e: (e not in ("fred", "fredpos"), EXPLAINERS.index(e)))
    for name in ordered:
        try:
            adapters[name] = build_adapter(name, model, x_train, config.p, config.eps, config.n_samples,
                                           config.lime_samples, config.baseline)
        except Unavailable as err:
            unavailable[name] = str(err)
    if any(e in adapters for e in ("lime", "shap")) and config.k_from not in adapters:
        raise Unavailable(f"lime/shap need k from {config.k_from}, which is unavailable: "
                          f"{unavailable.get(config.k_from)}")

    def f(texts):
        return model.predict_proba(list(texts))[:, POSITIVE]

    rows = []
    iterator = docs if not progress else show_progress(docs, f"{config.dataset}/{config.model}", len(docs))
    for rank, index in enumerate(iterator):
        text = x_test[index]
        k = None
        for name, adapter in adapters.items():
            row = score_document(adapter, f, text, config.seed, k if adapter.needs_k else None, config.k_robust)
            if name == config.k_from:
                k = row["k"]
            rows.append({"doc": rank, "test_index": index, "explainer": name, "score": float(f([text])[0]),
                         **row})
    return RunResult(config, rows, unavailable, accuracy, len(x_train), len(x_test),
                     int(np.sum(model.predict(x_test) == POSITIVE)), time.perf_counter() - start)


def _cell(values: np.ndarray) -> str:
    values = values[np.isfinite(values)]
    if values.size == 0:
        return "n/a"
    return f"{np.mean(values):.3f} ({np.std(values):.2f})"


def summarise(rows: list[dict], explainers: Sequence[str]) -> dict[str, dict[str, str]]:
    """``summary[explainer][column]`` = "mean (std)" (population std, as the paper), NaNs left out."""
    out = {}
    for name in explainers:
        mine = [r for r in rows if r["explainer"] == name]
        if mine:
            out[name] = {c: _cell(np.array([r[c] for r in mine], dtype=float)) for c, _ in SUMMARY_COLUMNS}
    return out


#: Packages the evaluation's numbers depend on beyond the core ones.
PACKAGES = ("lime", "shap", "anchor-exp", "spacy")


def markdown(result: RunResult) -> str:
    """Summary in the paper's layout, our row then the paper's row per explainer where the paper has the setting."""
    c = result.config
    present = [e for e in EXPLAINERS if any(r["explainer"] == e for r in result.rows)]
    summary = summarise(result.rows, present)
    paper = paper_table(c.dataset, c.model, c.p) if math.isclose(c.eps, 0.15) else None
    n_docs = len({r["doc"] for r in result.rows})
    lines = [f"# {c.dataset} / {c.model} (p={c.p}, eps={c.eps})", "",
             f"Command: `{c.command}`", "",
             f"{n_docs} documents (first positively classified test documents by length), "
             f"robustness over k={c.k_robust} re-runs, LIME/SHAP top-k with k = |{c.k_from}|. "
             f"Model test accuracy {result.accuracy:.3f} (train {result.n_train}, test {result.n_test}, "
             f"{result.n_positive_test} test documents classified positive). "
             f"Wall time of the run: {result.wall_seconds:.1f} s.", ""]
    table = []
    for name in present:
        table.append([name, "ours"] + [summary[name][col] for col, _ in SUMMARY_COLUMNS])
        if paper and name in paper:
            cells = dict(zip(PAPER_COLUMNS, paper[name]))
            table.append([name, "paper"] + [f"{cells[p][0]:.3f} ({cells[p][1]:.2f})" for p in PAPER_COLUMNS] + ["–"])
    lines.append(markdown_table(["explainer", "source"] + [label for _, label in SUMMARY_COLUMNS], table))
    if not paper:
        lines += ["", f"The paper has no table for {c.dataset}/{c.model} at p={c.p}, eps={c.eps}."]
    undefined = {e: sum(1 for r in result.rows if r["explainer"] == e and not np.isfinite(r["aucmorf"]))
                 for e in present}
    lines += ["", "Notes:",
              "- `aucmorf (authors)` is `fred.evaluation.metrics.aucmorf_authors` (normalised by f(xi), padded curve), "
              "the computation behind the paper's tables, so it is the column compared with the paper; "
              "`aucmorf (paper def.)` is the formula printed in section 4 (`fred.evaluation.metrics.aucmorf`), "
              "undefined (left out of the mean) when fewer than 2 tokens are positively scored: "
              + ", ".join(f"{e} {n}/{n_docs}" for e, n in undefined.items()) + ".",
              "- Sufficiency masks every token outside e with UNK (the paper's removal rule and the authors' "
              "code); the CSV also has `sufficiency_alone` (e's tokens only).",
              "- time is the wall-clock time of one explanation on this machine (shared cores), "
              "the paper's on an Nvidia A100 machine."]
    for name, reason in result.unavailable.items():
        lines.append(f"- {name} unavailable: {reason}")
    lines += ["", "Machine: " + describe(environment(PACKAGES)),
              "", "Configuration: " + ", ".join(f"{k}={v}" for k, v in asdict(c).items() if k != "command"), ""]
    return "\n".join(lines)


def write_outputs(result: RunResult, out: str | os.PathLike) -> tuple[Path, Path]:
    """Write ``{dataset}_{model}_p{p}_eps{eps}[_original].csv`` (per document) and ``.md`` (summary) under ``out``."""
    import csv

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    c = result.config
    stem = f"{c.dataset}_{c.model}_p{c.p:g}_eps{c.eps:g}" + ("" if c.baseline == "mean" else f"_{c.baseline}")
    csv_path, md_path = out / f"{stem}.csv", out / f"{stem}.md"
    if result.rows:
        with open(csv_path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(result.rows[0]))
            writer.writeheader()
            writer.writerows(result.rows)
    md_path.write_text(markdown(result), encoding="utf-8")
    return csv_path, md_path
