"""Ground truth for the committed runs: each explainer's selection against the exact optimum of its own definition.

    python tools/ground_truth.py [--runs STEM ...] [--max-b 12] [--results DIR] [--out DIR] [--data-dir DIR]

For each committed run (``results/<STEM>.csv`` and its ``.run.json``) the model is rebuilt as the run built it (data,
split, model and documents from the recorded configuration, :mod:`fred.evaluation`) and must reproduce the CSV's
``score`` column to :data:`SCORE_TOL` on every document, or the tool stops. Then, on each document of at most
``--max-b`` whitespace tokens, every explainer's returned set (the CSV's ``ids``) is compared with the exact optimum
of the explainer's own definition, computed by enumerating all 2^b patterns with :mod:`analytic`:

* ``fred`` (mask sampler): the solutions of Eq. (2) with the run's p, eps, baseline and fred's default max_len
  (:func:`analytic.exact_explain` on the table of P(class 1) with fred's default mask token). ``optimal``: the
  returned set is a solution (when Eq. (2) has none, equal to the exact search's fallback); ``equals_choice``: it
  is the exact search's choice among them (largest drop, ties to the smallest tuple); ``meets_threshold``: its
  exact drop reaches the threshold (a set that does but is not optimal is larger than the minimal size).
* ``lime``: the top-k (k of the row) of LIME's coefficients as n -> infinity
  (:func:`analytic.lime_text.lime_coefficients`) on the table of P(class 1) under LIME's own removal (texts built
  by lime's ``IndexedString`` with the adapter's ``bow=False`` and whitespace split, a removed word becoming
  ``UNKWORDZ``). ``optimal``: the set is a top-k, counting sets tied at the k-th value (within
  ``TIE_RTOL * max(1, max |coef|)``) as optimal.
* ``shap``: the top-k of the exact Owen values (:func:`analytic.shapley.owen_values`) on the tree of the
  evaluation's own masker (``ShapAdapter``; its masker builds every masked text). The package's values on the same
  document are computed too: their largest gap from the exact values (``package_gap``), and in ``note`` whether
  the package's top-k is the committed set (the rebuilt SHAP reproduces the run) and the evaluations the tree
  needs against shap's budget.
* ``anchor``: under anchor-exp's UNK distribution over the spaCy words of the evaluation's ``AnchorAdapter``, the
  returned anchor's exact precision for the predicted class (:func:`analytic.anchors_text.anchor_precision`);
  ``meets_threshold``: precision >= 0.95; ``optimal``: it meets and has the smallest size among the anchors that
  meet (anchor-exp's objective: coverage 2^-|A|, largest for the smallest anchor); ``minimal``: no proper subset
  meets. A document is left out (and counted) when a returned position holds several spaCy words (spaCy splits
  "didnt" into "did" and "nt": the committed positions then do not name the anchor's words), or when the spaCy
  words joined by spaces change the model's label.
* ``fredpos``: not enumerable (see :data:`NOT_ENUMERABLE`).

Writes ``<out>/ground_truth.csv`` (one row per run, document and explainer) and ``<out>/ground_truth.md`` (command,
packages, rates). Needs the ``eval`` extra and the data (``FRED_DATA_DIR`` or ``../shared/data``); shap compiles
numba code on its first call. The committed files were made with ``--max-b 15``: about 3.5 minutes (211 s measured)
on 2 shared cores (81 s with the default 12). Not part of the test suite.
"""

from __future__ import annotations

import bisect
import csv
import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass, replace
from fractions import Fraction
from inspect import signature
from pathlib import Path
from typing import Sequence

import numpy as np

from analytic import code_of, exact_explain, masked_texts, tie_tolerance
from analytic.anchors_text import ANCHOR_THRESHOLD, anchor_precision, anchors_meeting
from analytic.lime_text import lime_coefficients
from analytic.shapley import PARTITION_MAX_EVALS, owen_values, partition_evaluations
from fred import Fred
from fred.command_line import OneLineParser
from fred.evaluation.config import RunConfig, results_dir
from fred.evaluation.datasets import load_dataset, split_dataset
from fred.evaluation.documents import select_documents
from fred.evaluation.explainers import POSITIVE, AnchorAdapter, ShapAdapter, token_starts, top_k
from fred.evaluation.models import make_model
from fred.evaluation.store import read_rows
from fred.markdown_tables import markdown_table
from fred.provenance import describe, environment
from fred_constants import MAX_LEN, TIE_RTOL

#: The committed runs with per-document rows on scikit-learn models (the MiniLM runs are left out: rebuilding the
#: encoder's table of 2^b texts per document is not cheap on this machine).
RUNS = ("restaurants_logistic_p0.5_eps0.15", "restaurants_tree_p0.5_eps0.15", "restaurants_forest_p0.5_eps0.15",
        "restaurants_logistic_p0.5_eps0.15_original",
        "restaurants_logistic_p0.5_eps0.15_original_n5000_released-beam_min4_kfredpos",
        "yelp_logistic_p0.5_eps0.15", "yelp_forest_p0.5_eps0.15", "yelp_logistic_p0.5_eps0.15_original",
        "yelp_logistic_p0.5_eps0.15_original_n5000_released-beam_min4_kfredpos")
#: A rebuilt model's P(class 1) must match the CSV's ``score`` this closely on every document.
SCORE_TOL = 1e-12
#: Documents of at most this many tokens are enumerated by default (2^12 = 4096 patterns each).
MAX_B = 12
#: Why FRED-pos has no exact optimum here.
NOT_ENUMERABLE = ("not enumerable: FRED-pos replaces a perturbed token by a random word of its tag and opposite "
                  "polarity from dictionaries built on the training texts, so its law has up to (1 + |D|)^b "
                  "outcomes, not the 2^b mask patterns the referee enumerates")
COLUMNS = ("run", "doc", "test_index", "explainer", "b", "k", "ids", "exact_choice", "n_optima", "optimal",
           "equals_choice", "meets_threshold", "minimal", "precision", "package_gap", "note")
PACKAGES = ("lime", "shap", "anchor-exp", "spacy")
#: The mask token of fred's mask sampler (the adapter leaves ``Fred``'s default).
FRED_MASK = signature(Fred).parameters["mask_token"].default


@dataclass(frozen=True)
class Verdict:
    """One explainer's returned set on one document against the exact optimum of its definition.

    ``optimal``: the set is an exact optimum (ties counted); ``equals_choice``: it is ``exact_choice``, the optimum
    the exact computation picks by its tie rule (None where no single choice is defined); ``n_optima``: how many
    sets are optimal. ``meets_threshold`` is FRED's (exact drop) or the anchor's (exact precision); ``minimal`` and
    ``precision`` are the anchor's; ``package_gap`` is SHAP's largest gap between the package's values and the exact
    ones (None otherwise).
    """

    explainer: str
    b: int
    k: int
    ids: tuple[int, ...]
    exact_choice: tuple[int, ...]
    n_optima: int
    optimal: bool
    equals_choice: bool | None
    meets_threshold: bool | None = None
    minimal: bool | None = None
    precision: Fraction | None = None
    package_gap: float | None = None
    note: str = ""

    def to_dict(self) -> dict:
        row = asdict(self)
        row.update(ids=" ".join(map(str, self.ids)), exact_choice=" ".join(map(str, self.exact_choice)),
                   precision="" if self.precision is None else str(self.precision))
        return {key: "" if value is None else value for key, value in row.items()}


def top_k_optima(values: Sequence[float], k: int, tol: float) -> tuple[frozenset[int], frozenset[int]]:
    """The positions every top-k set contains (value above the k-th by more than ``tol``) and those it may
    contain (within ``tol`` of the k-th): a k-set is a top-k iff it holds the first and the rest from the second."""
    v = np.asarray(values, dtype=float)
    if not 0 <= k <= v.size:
        raise ValueError(f"k must lie in [0, {v.size}], got {k}")
    if k == 0:
        return frozenset(), frozenset()
    kth = np.sort(v)[::-1][k - 1]
    above = frozenset(np.flatnonzero(v > kth + tol).tolist())
    tied = frozenset(np.flatnonzero(np.abs(v - kth) <= tol).tolist())
    return above, tied


def top_k_verdict(name: str, values: Sequence[float], ids: tuple[int, ...], note: str = "") -> Verdict:
    """Whether ``ids`` is a top-|ids| set of ``values``, ties within ``TIE_RTOL * max(1, max |values|)``."""
    v = np.asarray(values, dtype=float)
    k = len(ids)
    tol = TIE_RTOL * max(1.0, float(np.max(np.abs(v)))) if v.size else 0.0
    above, tied = top_k_optima(v, k, tol)
    chosen = set(ids)
    optimal = above <= chosen and chosen <= above | tied
    choice = top_k(v, k)
    return Verdict(name, v.size, k, ids, choice, math.comb(len(tied), k - len(above)) if k else 1, optimal,
                   ids == choice, note=note)


def fred_verdict(table: np.ndarray, ids: tuple[int, ...], config: RunConfig, max_len: int = MAX_LEN) -> Verdict:
    """``ids`` against the exact solutions of Eq. (2) on ``table`` with the run's p, eps and baseline."""
    exact = exact_explain(table, config.p, config.eps, max_len, baseline=config.baseline)
    optimal = ids in exact.solutions if exact.found else ids == exact.best_ids
    meets = bool(ids) and exact.drops[code_of(ids)] >= exact.threshold - tie_tolerance(table)
    note = "" if exact.found else "Eq. (2) has no solution of size <= max_len; compared with the exact fallback"
    return Verdict("fred", int(table.size).bit_length() - 1, len(ids), ids, exact.best_ids,
                   len(exact.solutions) if exact.found else 1, optimal, ids == exact.best_ids, meets, note=note)


def anchor_verdict(labels: np.ndarray, ids: tuple[int, ...]) -> Verdict:
    """The anchor ``ids`` (kept positions) against the exact anchors of ``labels`` (code 0: the document)."""
    precision = anchor_precision(labels, ids)
    meeting = anchors_meeting(labels)
    smallest = len(meeting[0].positions)  # the full anchor always meets (precision 1), so meeting is never empty
    optima = [a.positions for a in meeting if len(a.positions) == smallest]
    meets = precision >= ANCHOR_THRESHOLD
    minimal = any(a.positions == ids and a.minimal for a in meeting)
    return Verdict("anchor", int(labels.size).bit_length() - 1, len(ids), ids, optima[0], len(optima),
                   meets and len(ids) == smallest, None, meets, minimal, precision)


def parse_ids(text: str) -> tuple[int, ...]:
    """The CSV's ``ids`` cell as sorted positions."""
    return tuple(sorted(int(x) for x in text.split()))


def load_config(path: Path) -> RunConfig:
    """The configuration recorded in a ``.run.json``."""
    recorded = json.loads(path.read_text(encoding="utf-8"))["config"]
    return RunConfig(**{key: tuple(v) if isinstance(v, list) else v for key, v in recorded.items()})


@dataclass(frozen=True, eq=False)
class Rebuilt:
    """A committed run rebuilt: its configuration, fitted model, test texts and committed rows."""

    stem: str
    config: RunConfig
    model: object
    x_test: list
    rows: list

    def f(self, texts: Sequence[str]) -> np.ndarray:
        """P(class 1), the explained output."""
        return self.model.predict_proba(list(texts))[:, POSITIVE]


def rebuild(stem: str, folder: Path, data_dir: str | None = None) -> Rebuilt:
    """Rebuild run ``stem`` from its ``.run.json``; ValueError unless it reproduces the CSV's documents and
    ``score`` column (to :data:`SCORE_TOL`)."""
    config = load_config(folder / f"{stem}.run.json")
    data = load_dataset(config.dataset, data_dir if data_dir is not None else config.data_dir)
    x_train, x_test, y_train, _ = split_dataset(data, config.seed)
    model = make_model(config.model, config.seed).fit(x_train, y_train)
    docs = select_documents(model, x_test, config.n_docs, config.min_tokens)
    rows = read_rows(folder / f"{stem}.csv")
    run = Rebuilt(stem, config, model, x_test, rows)
    for row in rows:
        if docs[row["doc"]] != row["test_index"]:
            raise ValueError(f"{stem}: document {row['doc']} is test text {docs[row['doc']]} here, "
                             f"{row['test_index']} in the CSV")
    indices = sorted({row["test_index"] for row in rows})
    scores = dict(zip(indices, run.f([x_test[i] for i in indices])))
    gap = max(abs(scores[row["test_index"]] - row["score"]) for row in rows)
    if gap > SCORE_TOL:
        raise ValueError(f"{stem}: the rebuilt model's scores differ from the CSV's by up to {gap:.3g} > "
                         f"{SCORE_TOL}; the run cannot be rebuilt here")
    return run


def lime_table(f, text: str) -> np.ndarray:
    """f on every removal pattern of the whitespace tokens, each text built by lime itself (bow=False, as the
    evaluation's LimeAdapter)."""
    from lime.lime_text import IndexedString

    indexed = IndexedString(text, bow=False, split_expression=r"\s+")
    b = indexed.num_words()
    texts = [indexed.inverse_removing([i for i in range(b) if code >> i & 1]) for code in range(2**b)]
    return np.asarray(f(texts), dtype=float)


def shap_verdict(run: Rebuilt, adapter: ShapAdapter, text: str, ids: tuple[int, ...]) -> Verdict:
    """The SHAP row: exact Owen values on the masker's tree and texts, and the package's values beside them."""
    masker = adapter.explainer.masker
    b = len(text.split())
    kept = [np.array([not code >> i & 1 for i in range(b)]) for code in range(2**b)]
    table = run.f([masker(mask, text)[0][0] for mask in kept])
    tree = masker.clustering(text)
    owen = owen_values(table, tree).values
    package = adapter.explainer([text], silent=True).values[0][:, POSITIVE]
    needed = partition_evaluations(tree, b) if b > 1 else 2
    note = (f"evaluations {needed} (budget {PARTITION_MAX_EVALS}); package top-k "
            f"{'=' if top_k(package, len(ids)) == ids else '!='} committed")
    gap = float(np.max(np.abs(package - np.asarray(owen, dtype=float))))
    return replace(top_k_verdict("shap", owen, ids, note), package_gap=gap)


def anchor_row(run: Rebuilt, adapter: AnchorAdapter, text: str, ids: tuple[int, ...]) -> Verdict | str:
    """The anchor row, or the reason the document is left out.

    anchor-exp perturbs the spaCy words of the adapter's tokenizer (joined by single spaces) and compares each
    label with the label of the text itself; the adapter maps the anchor's words back to whitespace positions.
    When a returned position holds one spaCy word each, the anchor in words is known: the verdict is computed on
    the words (``b`` counts them) and reported with the committed positions (``exact_choice`` mapped back).
    """
    words = list(adapter.explainer.nlp(text))
    starts = token_starts(text)
    owner = [bisect.bisect_right(starts, word.idx) - 1 for word in words]  # the adapter's mapping
    if any(owner.count(i) > 1 for i in ids):
        return "a returned position holds several spaCy words"
    labels = np.asarray(run.model.predict(masked_texts([w.text for w in words], adapter.explainer.mask_string)))
    if labels[0] != run.model.predict([text])[0]:
        return "the spaCy words joined by spaces change the model's label"
    verdict = anchor_verdict(labels, tuple(j for j, i in enumerate(owner) if i in ids))
    if len(words) == len(starts):
        return verdict
    return replace(verdict, ids=ids, exact_choice=tuple(sorted({owner[j] for j in verdict.exact_choice})),
                   note=f"{len(words)} spaCy words for {len(starts)} tokens; exact_choice mapped to tokens")


def document_verdicts(run: Rebuilt, rows: list[dict], adapters: dict, skipped: dict) -> list[Verdict]:
    """The verdicts of one document's rows (one per explainer with an exact optimum)."""
    text = run.x_test[rows[0]["test_index"]]
    tokens = text.split()
    verdicts = []
    for row in rows:
        ids, name = parse_ids(row["ids"]), row["explainer"]
        if name == "fred":
            verdicts.append(fred_verdict(run.f(masked_texts(tokens, FRED_MASK)), ids, run.config))
        elif name == "lime":
            verdicts.append(top_k_verdict("lime", lime_coefficients(lime_table(run.f, text)).coef, ids))
        elif name == "shap":
            verdicts.append(shap_verdict(run, adapters["shap"], text, ids))
        elif name == "anchor":
            found = anchor_row(run, adapters["anchor"], text, ids)
            if isinstance(found, str):
                skipped.setdefault((run.stem, "anchor"), []).append(row["doc"])
            else:
                verdicts.append(found)
    return verdicts


def ground_truth(stem: str, folder: Path, max_b: int, data_dir: str | None = None) -> tuple[list[dict], dict]:
    """The CSV rows of run ``stem`` and its counts (documents, enumerated, skipped per explainer)."""
    run = rebuild(stem, folder, data_dir)
    by_doc: dict[int, list[dict]] = {}
    for row in run.rows:
        by_doc.setdefault(row["doc"], []).append(row)
    explainers = {row["explainer"] for row in run.rows}
    adapters = {}
    if "shap" in explainers:
        adapters["shap"] = ShapAdapter(run.model.predict_proba)
    if "anchor" in explainers:
        adapters["anchor"] = AnchorAdapter(run.model.predict)
    out, skipped = [], {}
    enumerated = [doc for doc, rows in by_doc.items() if rows[0]["n_tokens"] <= max_b]
    for doc in enumerated:
        rows = by_doc[doc]
        for verdict in document_verdicts(run, rows, adapters, skipped):
            out.append({"run": stem, "doc": doc, "test_index": rows[0]["test_index"], **verdict.to_dict()})
    counts = {"documents": len(by_doc), "enumerated": len(enumerated), "explainers": sorted(explainers),
              "skipped": {name: docs for (_, name), docs in skipped.items()}}
    return out, counts


def rate(flags: Sequence[bool]) -> str:
    """``n/N (p%)`` of the true flags."""
    hits = sum(flags)
    return f"{hits}/{len(flags)} ({round(100 * hits / len(flags))}%)" if flags else "-"


def rates_table(rows: list[dict], counts: dict[str, dict]) -> str:
    """The agreement rates per run and explainer, as Markdown (recomputable from the CSV's rows)."""
    header = ["run", "explainer", "documents enumerated", "returned set is an exact optimum",
              "equals the exact choice", "meets the threshold", "anchor is minimal"]
    lines = []
    for stem, c in counts.items():
        for name in ("fred", "lime", "shap", "anchor"):
            if name not in c["explainers"]:
                continue
            mine = [r for r in rows if r["run"] == stem and r["explainer"] == name]
            left_out = len(c["skipped"].get(name, []))
            docs = f"{len(mine)} of {c['documents']}" + (f" ({left_out} left out)" if left_out else "")
            anchor = name == "anchor"
            lines.append([f"`{stem}`", name, docs, rate([r["optimal"] for r in mine]),
                          "-" if anchor else rate([r["equals_choice"] for r in mine]),
                          rate([r["meets_threshold"] for r in mine]) if name in ("fred", "anchor") else "-",
                          rate([r["minimal"] for r in mine]) if anchor else "-"])
    return markdown_table(header, lines)


def report(rows: list[dict], counts: dict[str, dict], command: str, max_b: int, seconds: float) -> str:
    """The Markdown of ``ground_truth.md``."""
    shap_rows = [r for r in rows if r["explainer"] == "shap"]
    reproduced = sum("!=" not in r["note"] for r in shap_rows)
    gap = max((r["package_gap"] for r in shap_rows), default=0.0)
    return "\n\n".join([
        "# Ground truth: each explainer's selection against the exact optimum of its own definition",
        f"Command: `{command}` ({seconds:.0f} s on this machine). Documents of at most {max_b} tokens are "
        "enumerated (all 2^b patterns); rows in `ground_truth.csv`. Every run was rebuilt from its `.run.json` and "
        f"reproduces its CSV's `score` column to {SCORE_TOL:g} on every document (the tool stops otherwise).",
        f"Environment: {describe(environment(PACKAGES))}.",
        "## Agreement rates",
        rates_table(rows, counts),
        "What each column means (the tool's docstring, `tools/ground_truth.py`). FRED: the returned set solves "
        "Eq. (2) exactly (the smallest size whose exact drop, over all 2^b patterns, reaches eps times the baseline "
        "value), it equals the exact search's choice among the solutions, and its exact drop reaches the threshold "
        "(a set that does without being optimal is larger than the minimal size). LIME: the set is a top-k of "
        "LIME's coefficients as n -> infinity, sets tied at the k-th value counting as optimal, and it equals the "
        "top-k with ties to the smaller position. SHAP: the same with the exact Owen values of shap's partition "
        "explainer. Anchors: the returned anchor has the smallest size among the anchors whose exact precision "
        f"meets {float(ANCHOR_THRESHOLD)} (the optimum: largest coverage), its own precision meets it, and no "
        "proper subset meets it; left out: documents where a returned token holds several spaCy words (or the words "
        "joined by spaces change the label). FRED-pos "
        f"(every run has it) is {NOT_ENUMERABLE}.",
        f"SHAP's package values were recomputed on every enumerated document: its top-k is the committed set on "
        f"{reproduced} of {len(shap_rows)} documents, and its values differ from the exact Owen values by at most "
        f"{gap:.1e} (column `package_gap`; the `note` gives the evaluations each document's tree needs against "
        f"the package's budget of {PARTITION_MAX_EVALS}).",
    ]) + "\n"


def write_csv(path: Path, rows: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", nargs="+", default=list(RUNS), help="run stems under --results")
    parser.add_argument("--max-b", type=int, default=MAX_B, help="largest document enumerated (1..16)")
    parser.add_argument("--results", type=Path, default=None, help="folder of the committed runs")
    parser.add_argument("--out", type=Path, default=None, help="folder of ground_truth.csv and .md")
    parser.add_argument("--data-dir", default=None, help="data directory (default: FRED_DATA_DIR or ../shared/data)")
    args = parser.parse_args(argv)
    if not 1 <= args.max_b <= 16:
        parser.error(f"--max-b must lie in [1, 16], got {args.max_b}")
    folder = args.results or results_dir()
    missing = [s for s in args.runs if not (folder / f"{s}.run.json").is_file()]
    if missing:
        parser.error(f"no run record for {', '.join(missing)} in {folder}")
    out = args.out or folder
    if not out.is_dir() or not os.access(out, os.W_OK):
        parser.error(f"--out must be an existing writable directory, got {out}")
    if args.data_dir is not None and not Path(args.data_dir).is_dir():
        parser.error(f"--data-dir must be an existing directory, got {args.data_dir}")
    start = time.perf_counter()
    rows, counts = [], {}
    for stem in args.runs:
        found, counts[stem] = ground_truth(stem, folder, args.max_b, args.data_dir)
        rows += found
        print(f"{stem}: {counts[stem]['enumerated']} of {counts[stem]['documents']} documents enumerated",
              file=sys.stderr)
    command = "python tools/ground_truth.py " + " ".join(sys.argv[1:] if argv is None else argv)
    write_csv(out / "ground_truth.csv", rows)
    (out / "ground_truth.md").write_text(report(rows, counts, command.strip(), args.max_b,
                                                time.perf_counter() - start), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
