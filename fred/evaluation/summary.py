"""The Markdown summary of an evaluation run, in the paper's layout, and the run's outcome it is written from.

Per explainer: our row (mean ± standard error over the documents, marked where a paired test finds it
significantly better or worse than FRED, :mod:`fred.evaluation.statistics`) then the paper's row where the paper
has the setting (:mod:`fred.evaluation.paper_tables`); the tests; notes; the sessions, machine and configuration.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from fred_constants import EPS

from ..markdown_tables import markdown_table
from ..provenance import describe, environment
from .config import RunConfig
from .explainers import EXPLAINERS
from .neural import NEURAL_PACKAGES
from .paper_tables import PAPER_COLUMNS, paper_table
from .statistics import LEVEL, compare_paired, mean_and_standard_error

#: Summary columns in the paper's order, then ours only: (CSV column, header, higher is better).
SUMMARY_COLUMNS = (
    ("sufficiency", "suffic.", False),
    ("comprehensiveness", "compreh.", True),
    ("robustness", "robust.", True),
    ("aucmorf_authors", "aucmorf (authors)", False),
    ("time", "time (s)", False),
    ("proportion", "proport.", False),
    ("aucmorf", "aucmorf (paper def.)", False),
)
#: The explainer every other one is tested against in the tables: the reference FRED.
REFERENCE = "fred"
#: Packages the evaluation's numbers depend on beyond the core ones.
PACKAGES = ("lime", "shap", "anchor-exp", "spacy")


@dataclass(frozen=True, eq=False)
class RunResult:
    """Per-document rows (every document of the run, from the CSV), the reasons explainers were skipped, run
    facts, and the sessions that computed the rows (wall time, documents, cluster)."""

    config: RunConfig
    rows: list[dict]
    unavailable: dict[str, str]
    accuracy: float
    n_train: int
    n_test: int
    n_positive_test: int
    sessions: list[dict]
    csv_path: Path
    md_path: Path

    @property
    def wall_seconds(self) -> float:
        """Wall time summed over the sessions."""
        return float(sum(s["wall_seconds"] for s in self.sessions))


#: Marks of a cell whose difference with the reference explainer is significant.
BETTER_MARK, WORSE_MARK = "▲", "▼"


def _values(rows: Sequence[dict], explainers: Sequence[str]) -> dict[str, dict[str, dict[int, float]]]:
    return {e: {c: {r["doc"]: float(r[c]) for r in rows if r["explainer"] == e} for c, _, _ in SUMMARY_COLUMNS}
            for e in explainers}


def summarise(rows: list[dict], explainers: Sequence[str]) -> dict[str, dict[str, tuple[float, float, int]]]:
    """``summary[explainer][column]`` = (mean, standard error, n) over the documents, NaNs left out."""
    values = _values(rows, explainers)
    return {e: {c: mean_and_standard_error(list(values[e][c].values())) for c, _, _ in SUMMARY_COLUMNS}
            for e in explainers}


#: Why a MiniLM run's numbers depend on the order of its documents, slightly (measured: a text's embedding encoded
#: alone and in a batch of 32 differed by 7e-8; the 100 Restaurants documents of the 10-re-run run against an
#: earlier 2-re-run one, commit cfd69dc: equal explanations, 7 documents with metric values differing, by at most
#: 1.5e-7 in absolute value, 8e-7 relative, in sufficiency).
MINILM_ORDER_NOTE = ("beyond a few times 1e-7 in absolute value: the encoder pads a batch to its longest text, which "
                     "changes its float32 sums slightly, and each worker's cache keeps a text's first embedding, so "
                     "which texts shared a batch depends on the documents a worker explained before")


def _cell(mean: float, se: float, mark: str = "") -> str:
    if math.isnan(mean):
        return "n/a"
    text = f"{mean:.3f} ± {se:.3f}" if math.isfinite(se) else f"{mean:.3f}"
    return f"{text} {mark}" if mark else text


def _describe_cluster(cluster: dict) -> str:
    if cluster["kind"] == "in process":
        return "in process"
    where = f" at {cluster['address']}" if "address" in cluster else ""
    return f"{cluster['kind']}{where}: {cluster['workers']} workers, {cluster['threads']} threads"


def _p(p: float) -> str:
    """Three significant digits, so that no p-value above the level prints as the level."""
    return f"{p:.3g}"


#: The table headers of :data:`SUMMARY_COLUMNS`, with the direction that is better.
_HEADERS = tuple(f"{label} {'↑' if up else '↓'}" for _, label, up in SUMMARY_COLUMNS)


def _heading(result: RunResult, n_docs: int) -> list[str]:
    """The title, the command, and the paragraph on the documents, the settings, the model and the wall time."""
    c, sessions = result.config, result.sessions
    # A session killed before it could record itself (SIGKILL, or SIGTERM to a runner older than c979120) leaves
    # documents in the CSV that no recorded wall time covers.
    recorded = sum(s["documents"] for s in sessions)
    unrecorded = (f", which computed {recorded} of the {n_docs} documents (the sessions that computed the others "
                  "were not recorded, so their time is not known)" if recorded < n_docs else "")
    length = f" of at least {c.min_tokens} tokens" if c.min_tokens > 1 else ""
    return [f"# {c.dataset} / {c.model} (p={c.p}, eps={c.eps})", "",
            f"Command: `{c.command}`", "",
            f"{n_docs} documents (first positively classified test documents{length} by length), "
            f"robustness over k={c.k_robust} re-runs, LIME/SHAP top-k with k = |{c.k_from}|, "
            f"FRED search {c.search!r} with n = {c.n_samples or 'Lemma 2 size'}. "
            f"Model test accuracy {result.accuracy:.3f} (train {result.n_train}, test {result.n_test}, "
            f"{result.n_positive_test} test documents classified positive). "
            f"Wall time: {result.wall_seconds:.1f} s over {len(sessions)} session(s){unrecorded}.", ""]


def _results_table(rows: list[dict], present: list[str], tests: list, paper: dict | None) -> str:
    """Per explainer our row (marked where a test finds it better or worse than the reference), then the paper's."""
    summary = summarise(rows, present)
    winner = {(t.other, t.column): t.winner for t in tests}
    table = []
    for name in present:
        cells = []
        for col, _, _ in SUMMARY_COLUMNS:
            mark = {None: "", name: BETTER_MARK, REFERENCE: WORSE_MARK}[winner.get((name, col))]
            cells.append(_cell(*summary[name][col][:2], mark))
        table.append([name, "ours"] + cells)
        if paper and name in paper:
            cells = dict(zip(PAPER_COLUMNS, paper[name]))
            table.append([name, "paper"] + [f"{cells[p][0]:.3f} ({cells[p][1]:.2f})" for p in PAPER_COLUMNS] + ["–"])
    return markdown_table(["explainer", "source"] + list(_HEADERS), table)


def _tests_section(present: list[str], tests: list) -> list[str]:
    """How to read the table, and the tests of the reference against each other explainer (when there are any)."""
    if not tests:
        return [f"Ours: mean ± standard error over the documents (no tests: {REFERENCE} and another explainer "
                "are needed). Paper: mean (std) as printed.", ""]
    lines = [f"Ours: mean ± standard error over the documents. {BETTER_MARK} / {WORSE_MARK}: significantly "
             f"better / worse than {REFERENCE} on that metric (two-sided paired Wilcoxon signed-rank test over "
             f"the documents both have a value for, documents with equal values left out, Holm-corrected over "
             f"the {len(tests)} tests of this table, family-wise level {LEVEL}); unmarked: no significant "
             f"difference. Paper: mean (std) as printed. Per test (Holm-adjusted p, the explainer the signed "
             f"ranks favour, documents that differ / paired):", ""]
    others = [e for e in present if e != REFERENCE]
    by = {(t.other, t.column): t for t in tests}
    rows = [[f"{REFERENCE} vs {o}"] + [f"{by[o, col].better or 'tie'}, p={_p(by[o, col].p_holm)} "
                                       f"({by[o, col].n_nonzero}/{by[o, col].n_documents})"
                                       for col, _, _ in SUMMARY_COLUMNS] for o in others]
    return lines + [markdown_table(["test"] + list(_HEADERS), rows), ""]


def _notes(result: RunResult, present: list[str], n_docs: int) -> list[str]:
    """The notes on the columns, the seeds, and the explainers that were unavailable."""
    c = result.config
    undefined = {e: sum(1 for r in result.rows if r["explainer"] == e and not np.isfinite(r["aucmorf"]))
                 for e in present}
    lines = ["Notes:",
             "- `aucmorf (authors)` is `fred.evaluation.metrics.aucmorf_authors` (normalised by f(xi), padded curve), "
             "the computation behind the paper's tables, so it is the column compared with the paper; "
             "`aucmorf (paper def.)` is the formula printed in section 4 (`fred.evaluation.metrics.aucmorf`), "
             "undefined (left out of the mean and the tests) when fewer than 2 tokens are positively scored: "
             + ", ".join(f"{e} {n}/{n_docs}" for e, n in undefined.items()) + ".",
             "- Sufficiency masks every token outside e with UNK (the paper's removal rule and the authors' "
             "code); the CSV also has `sufficiency_alone` (e's tokens only).",
             "- time is the wall-clock time of one explanation on a worker of the cluster below (shared cores), "
             "the paper's on an Nvidia A100 machine.",
             "- Seeds: each document's explanations use `document_seeds(seed, test_index, k_robust)`, so no "
             "number depends on the cluster or the order in which documents completed"
             + (f" {MINILM_ORDER_NOTE}." if c.model == "minilm" else ".")]
    return lines + [f"- {name} unavailable: {reason}" for name, reason in result.unavailable.items()]


def _provenance(result: RunResult) -> list[str]:
    """The sessions (when, documents, wall time, cluster), the machine and packages, and the configuration."""
    c = result.config
    return ["", "Sessions: " + "; ".join(
        f"{s['started']}, {s['documents']} documents in {s['wall_seconds']:.1f} s ({_describe_cluster(s['cluster'])}"
        + (", interrupted)" if s.get("interrupted") else ")") for s in result.sessions) + ".",
            "", "Machine: " + describe(environment(PACKAGES + ("dask", "distributed")
                                                    + (NEURAL_PACKAGES if c.model == "minilm" else ()))),
            "", "Configuration: " + ", ".join(f"{k}={v}" for k, v in asdict(c).items()
                                               if k != "command" and (k != "factories" or v)), ""]


def markdown(result: RunResult) -> str:
    """Summary in the paper's layout: per explainer our row (mean ± standard error, significance marks against
    FRED) then the paper's row (mean (std)) where the paper has the setting; the tests; notes; cluster, machine."""
    c = result.config
    present = [e for e in (*EXPLAINERS, *c.outside) if any(r["explainer"] == e for r in result.rows)]
    tests = (compare_paired(_values(result.rows, present), REFERENCE, [(col, up) for col, _, up in SUMMARY_COLUMNS])
             if REFERENCE in present and len(present) > 1 else [])
    paper = paper_table(c.dataset, c.model, c.p) if math.isclose(c.eps, EPS) else None
    n_docs = len({r["doc"] for r in result.rows})
    lines = _heading(result, n_docs) + [_results_table(result.rows, present, tests, paper), ""]
    lines += _tests_section(present, tests)
    if not paper:
        lines += [f"The paper has no table for {c.dataset}/{c.model} at p={c.p}, eps={c.eps}.", ""]
    return "\n".join(lines + _notes(result, present, n_docs) + _provenance(result))
