"""Train a scikit-learn text model, explain test documents with each explainer, score and tabulate.

Protocol (paper, section 4 and appendix B, with our fixed choices stated):

* data: :func:`fred.evaluation.datasets.load_dataset` (authors' preprocessing);
* split: ``train_test_split(test_size=0.25, random_state=seed)``;
* model: ``TfidfVectorizer()`` then ``LogisticRegression()``,
  ``DecisionTreeClassifier(random_state=seed)`` or
  ``RandomForestClassifier(random_state=seed)``, otherwise defaults;
* documents: the test documents the model classifies as positive with at least
  ``min_tokens`` tokens, ordered by number of tokens (stable), the first
  ``n_docs``; class 1 is explained;
* per document and explainer: one explanation timed, then ``k_robust`` re-runs
  for robustness, with the seeds :func:`document_seeds` derives from (run seed,
  the document's index in the test split), so that no result depends on the
  cluster, the order in which documents complete, or a retry (with the MiniLM
  model, up to a few times 1e-7: see :data:`MINILM_ORDER_NOTE`); LIME and SHAP
  take k = |FRED's explanation| (``k_from``, FRED mask by default);
* FRED: ``baseline="mean"`` (the paper) unless ``baseline="original"`` (the
  authors' code, threshold eps * f(xi)), the sample size of Lemma 2 unless
  ``n_samples`` is given, ``search`` as in :class:`fred.Fred`;
* metrics: :mod:`fred.evaluation.metrics` with mask token ``UNK`` and f = P(class 1);
* statistics: :mod:`fred.evaluation.statistics` (mean with standard error,
  paired Wilcoxon signed-rank tests of FRED against each other explainer,
  Holm-corrected over the table).

**Execution.** Each document is one task: in the process (``workers=0``), on a
``dask.distributed.LocalCluster`` of ``workers`` single-threaded worker
processes, or on the cluster whose scheduler is at ``scheduler``. The default
(``workers=None``) is a LocalCluster of one worker per available core, except for
runs of fewer than :data:`SMALL_RUN` pending documents (or on one core), which
stay in process. Tasks run with one BLAS thread, so a document's
numbers do not depend on where it ran. The client appends a document's rows to
the CSV as soon as it completes (one write, flushed to disk); a rerun of the same
configuration into the same directory skips the documents already there (a
document is there when it has a row for every explainer), so an interrupted run
resumes. A worker of an existing cluster should run one thread (``dask worker
--nthreads 1``): the BLAS limit is per process, and SHAP's explainer object is
shared by the tasks of a worker.
When every document is done the CSV is rewritten in document order, so
that it does not depend on the order of completion, and the Markdown summary is
written from it. The ``.run.json`` beside them records the configuration (a rerun
with another one is refused unless ``restart``), the explainers available, and
every session's wall time, documents and cluster (an interrupted session too).
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import math
import os
import threading
import time
import uuid
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np
from threadpoolctl import threadpool_limits

from .._markdown import markdown_table
from .._optional import import_optional
from .._progress import progress as show_progress
from .._provenance import describe, environment
from .._validation import check_int
from ..search import STRATEGIES
from . import metrics
from .datasets import load_dataset
from .explainers import EXPLAINERS, POSITIVE, Adapter, Unavailable, build_adapter
from .models import MODELS, make_model
from .neural import NEURAL_PACKAGES
from .paper_tables import PAPER_COLUMNS, paper_table
from .statistics import LEVEL, compare_paired, mean_and_standard_error

TEST_SIZE = 0.25
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
#: Our column compared with each of the paper's columns (the paper's tables come from the authors' code).
PAPER_MATCH = dict(zip(PAPER_COLUMNS, ("sufficiency", "comprehensiveness", "robustness", "aucmorf_authors",
                                       "time", "proportion")))
#: The explainer every other one is tested against in the tables.
REFERENCE = "fred"
#: Columns of the per-document CSV, in order, with their types.
ROW_COLUMNS = {"doc": int, "test_index": int, "explainer": str, "score": float, "n_tokens": int, "k": int,
               "explanation": str, "ids": str, "n_positive": int, "sufficiency": float, "sufficiency_alone": float,
               "comprehensiveness": float, "robustness": float, "aucmorf": float, "aucmorf_authors": float,
               "time": float, "proportion": float}
#: FRED searches a run can ask for (:class:`fred.Fred`'s ``search``).
SEARCHES = ("auto", *STRATEGIES)
#: With the default ``workers=None``, runs of fewer pending documents stay in process: starting a LocalCluster
#: (10 to 30 s on a 2-core machine, its workers importing and building the explainers) would cost more than
#: it saves (benchmarks/bench_dask.py).
SMALL_RUN = 20
#: Packages the evaluation's numbers depend on beyond the core ones.
PACKAGES = ("lime", "shap", "anchor-exp", "spacy")


@dataclass(frozen=True)
class RunConfig:
    """Everything a run's numbers depend on (written into the Markdown and the ``.run.json``).

    The options that reproduce the authors' setting (their ``main.py`` and
    released ``fred/explainer.py``), each changing one thing:

    * ``n_samples=5000``: FRED draws 5000 samples per explanation instead of
      Lemma 2's ``sample_size(0.95, p, min(10, b))`` (766 for an 8-token
      document, 47 for a 4-token one at p = 1/2);
    * ``search="released-beam"``: FRED's search is the released code's beam (each
      of the 4 kept candidates extended only by the 10 positions of largest
      singleton drop outside it; :mod:`fred.search`) instead of ``"auto"``
      (Algorithm 1 when at most 100 000 candidates exist, else fred's width-4 beam);
    * ``min_tokens=4``: documents of 3 tokens or fewer are dropped before the
      first ``n_docs`` are taken (``main.py`` keeps texts with more than 2 spaces);
    * ``k_from="fredpos"``: LIME and SHAP return as many tokens as FRED-pos's
      explanation of the same document instead of FRED-mask's;
    * ``baseline="original"``: FRED's threshold is eps * f(xi) instead of eps * E[f].
    """

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
    search: str = "auto"
    min_tokens: int = 1
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
        if self.search not in SEARCHES:
            raise ValueError(f"search must be one of {SEARCHES}, got {self.search!r}")
        if any(e in ("lime", "shap") for e in self.explainers) and self.k_from not in self.explainers:
            raise ValueError(f"lime and shap take k from {self.k_from!r}, which must be among the explainers")
        for name, low in (("n_docs", 1), ("k_robust", 0), ("lime_samples", 1), ("seed", 0), ("min_tokens", 1)):
            check_int(getattr(self, name), name, low)
        if self.n_samples is not None:
            check_int(self.n_samples, "n_samples", 1)

    @property
    def stem(self) -> str:
        """``{dataset}_{model}_p{p}_eps{eps}``, then a suffix per option away from its default, in the order
        baseline, n_samples, search, min_tokens, k_from: ``yelp_logistic_p0.5_eps0.15_original_n5000_released-beam
        _min4_kfredpos`` for the authors' setting."""
        parts = [f"{self.dataset}_{self.model}_p{self.p:g}_eps{self.eps:g}"]
        if self.baseline != "mean":
            parts.append(self.baseline)
        if self.n_samples is not None:
            parts.append(f"n{self.n_samples}")
        if self.search != "auto":
            parts.append(self.search)
        if self.min_tokens != 1:
            parts.append(f"min{self.min_tokens}")
        if self.k_from != "fred":
            parts.append(f"k{self.k_from}")
        return "_".join(parts)

    def describe(self) -> dict:
        """The configuration without the command, JSON-able (what a resumed run must match)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items() if k != "command"}


def select_documents(model, texts: Sequence[str], n_docs: int, min_tokens: int = 1) -> list[int]:
    """Indices of the first ``n_docs`` positively classified texts of at least ``min_tokens`` tokens, shortest
    first (stable order)."""
    positive = np.flatnonzero(model.predict(list(texts)) == POSITIVE)
    order = sorted((i for i in positive.tolist() if len(texts[i].split()) >= min_tokens),
                   key=lambda i: len(texts[i].split()))
    return order[:n_docs]


def document_seeds(seed: int, index: int, k_robust: int) -> list[int]:
    """The seeds of one document's explanations: the first for the scored explanation, then one per re-run.

    Drawn from ``numpy.random.SeedSequence(seed, spawn_key=(index,))``, the
    ``index``-th child of the run's seed sequence, so they depend on the run seed
    and the document's index in the test split only.

    >>> document_seeds(0, 7, 2) == document_seeds(0, 7, 2) != document_seeds(0, 8, 2)
    True
    """
    state = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(k_robust + 1)
    return [int(s) for s in state]


def score_document(adapter: Adapter, f, text: str, seeds: Sequence[int], k: int | None) -> dict:
    """One row of per-document metrics for one explainer: the explanation with ``seeds[0]`` scored and timed,
    robustness over the re-runs with ``seeds[1:]``."""
    tokens = text.split()
    result, seconds = metrics.timed(adapter.explain, text, seeds[0], k)
    reruns = [adapter.explain(text, s, k).ids for s in seeds[1:]]
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


# ----------------------------------------------------------------------------------------------------------
# One document as a task
# ----------------------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Context:
    """What a task needs: the configuration, the fitted model, the training texts (FRED-pos's dictionaries)
    and the explainers to run, in order. Sent once to each worker, which builds the adapters once
    (:func:`adapters_for`); ``key`` names this context among those a worker has seen."""

    config: RunConfig
    model: object
    train_texts: tuple[str, ...]
    explainers: tuple[str, ...]
    key: str = field(default_factory=lambda: uuid.uuid4().hex)


_BUILT: dict[str, dict[str, Adapter]] = {}
_BUILT_LOCK = threading.Lock()


def adapters_for(context: Context) -> dict[str, Adapter]:
    """The adapters of ``context``'s explainers, built at the first call in this process and kept (only the
    latest context's: a worker serves one run at a time)."""
    with _BUILT_LOCK:
        if context.key not in _BUILT:
            c = context.config
            built = {name: build_adapter(name, context.model, context.train_texts, c.p, c.eps, c.n_samples,
                                         c.lime_samples, c.baseline, c.search) for name in context.explainers}
            _BUILT.clear()
            _BUILT[context.key] = built
        return _BUILT[context.key]


def explain_document(context: Context, doc: int, index: int, text: str) -> list[dict]:
    """The rows of one document (rank ``doc`` in the selection, ``index`` in the test split): every explainer of
    the context, FRED first (LIME and SHAP take k from ``k_from``), with one BLAS thread."""
    c = context.config
    model = context.model

    def f(texts):
        return model.predict_proba(list(texts))[:, POSITIVE]

    seeds = document_seeds(c.seed, index, c.k_robust)
    rows, k = [], None
    with threadpool_limits(limits=1, user_api="blas"):
        score = float(f([text])[0])
        for name, adapter in adapters_for(context).items():
            row = score_document(adapter, f, text, seeds, k if adapter.needs_k else None)
            if name == c.k_from:
                k = row["k"]
            rows.append({"doc": doc, "test_index": index, "explainer": name, "score": score, **row})
    return rows


# ----------------------------------------------------------------------------------------------------------
# Executors: in process, or dask.distributed
# ----------------------------------------------------------------------------------------------------------

def _serial(context: Context, pending: Sequence[tuple[int, int, str]]) -> Iterator[list[dict]]:
    for doc, index, text in pending:
        yield explain_document(context, doc, index, text)


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _on_cluster(workers: int | None, scheduler: str | None, n_pending: int) -> bool:
    """Whether the pending documents go to dask (see :func:`run`)."""
    if n_pending == 0:
        return False
    if scheduler is not None:
        return True
    if workers is None:
        return n_pending >= SMALL_RUN and default_workers() > 1
    return workers > 0


def _cluster_facts(client) -> dict:
    threads = client.nthreads()  # worker address -> threads
    return {"workers": len(threads), "threads": int(sum(threads.values()))}


def open_client(stack: ExitStack, workers: int | None, scheduler: str | None, purpose: str):
    """A dask client on ``scheduler``, or on a LocalCluster of ``workers`` single-threaded worker processes (one
    per core when None), closed with ``stack``; and the facts a run summary records about the cluster."""
    distributed = import_optional("distributed", "eval", purpose)
    if scheduler is not None:
        client = stack.enter_context(distributed.Client(scheduler))
        facts = {"kind": "scheduler", "address": scheduler}
    else:
        n = default_workers() if workers is None else workers
        local = stack.enter_context(distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                              dashboard_address=None))
        client = stack.enter_context(distributed.Client(local))
        client.wait_for_workers(n)
        facts = {"kind": "LocalCluster", "processes": True, "threads_per_worker": 1}
    return client, {**facts, **_cluster_facts(client)}


def _distributed(context: Context, pending: Sequence[tuple[int, int, str]], stack: ExitStack, cluster: dict,
                 workers: int | None, scheduler: str | None) -> Iterator[list[dict]]:
    """Submit every pending document to a dask cluster and yield the rows as they complete; fills ``cluster``."""
    distributed = import_optional("distributed", "eval", "running the evaluation on a dask cluster")
    client, facts = open_client(stack, workers, scheduler, "running the evaluation on a dask cluster")
    cluster.update(facts)
    # Every worker gets the context once (its replicas survive a lost worker); tasks refer to it.
    shared = client.scatter(context, broadcast=True, hash=False)
    futures = [client.submit(explain_document, shared, doc, index, text, key=f"fred-doc-{index}-{context.key}")
               for doc, index, text in pending]
    for future in distributed.as_completed(futures):
        yield future.result()
        future.release()


# ----------------------------------------------------------------------------------------------------------
# Files: the CSV appended to, the run record, the summary
# ----------------------------------------------------------------------------------------------------------

def _parse(row: dict) -> dict:
    return {c: t(row[c]) if t is not float or row[c] not in ("", "nan") else math.nan
            for c, t in ROW_COLUMNS.items()}


def read_rows(path: Path) -> list[dict]:
    """The complete, typed rows of a per-document CSV; a line cut short (an interrupted write) is left out."""
    if not path.is_file():
        return []
    rows = []
    with open(path, newline="", encoding="utf-8") as handle:
        for raw in csv.DictReader(handle):
            if any(raw.get(c) is None for c in ROW_COLUMNS):
                continue
            try:
                rows.append(_parse(raw))
            except ValueError:
                continue
    return rows


def _write_rows(path: Path, rows: Sequence[dict]) -> None:
    """Replace ``path`` by a CSV of ``rows`` (written beside it, then renamed: never half a file)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(ROW_COLUMNS))
        writer.writeheader()
        writer.writerows(rows)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def _append_rows(handle, rows: Sequence[dict]) -> None:
    """One document's rows in one write, flushed to disk before the next document."""
    buffer = io.StringIO()
    csv.DictWriter(buffer, fieldnames=list(ROW_COLUMNS)).writerows(rows)
    handle.write(buffer.getvalue())
    handle.flush()
    os.fsync(handle.fileno())


def _complete(rows: Sequence[dict], explainers: Sequence[str]) -> list[dict]:
    """The rows of the documents that have exactly one row per explainer (one per document and explainer kept)."""
    by_doc: dict[int, dict[str, dict]] = {}
    for r in rows:
        by_doc.setdefault(r["doc"], {}).setdefault(r["explainer"], r)
    return [by_doc[d][e] for d in sorted(by_doc) if set(by_doc[d]) == set(explainers) for e in explainers]


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


def output_paths(config: RunConfig, out: str | os.PathLike) -> tuple[Path, Path, Path]:
    """The per-document CSV, the Markdown summary and the run record of ``config`` under ``out``."""
    out = Path(out)
    return out / f"{config.stem}.csv", out / f"{config.stem}.md", out / f"{config.stem}.run.json"


def run(config: RunConfig, out: str | os.PathLike, *, workers: int | None = None, scheduler: str | None = None,
        restart: bool = False, progress: bool = True) -> RunResult:
    """Train, explain the pending documents, append their rows, and write the summary (module docstring).

    Parameters
    ----------
    config : what the numbers depend on.
    out : directory of the files (:func:`output_paths`).
    workers : 0 runs the documents in this process; N > 0 on a LocalCluster of N single-threaded worker
        processes; None (default) on a LocalCluster of one worker per available core (:func:`default_workers`),
        in process when fewer than :data:`SMALL_RUN` documents are pending or there is one core.
    scheduler : address of an existing dask scheduler (``tcp://host:port``); ``workers`` is then ignored.
    restart : discard the files of a previous run of this stem instead of resuming it.
    progress : a progress bar counting documents (on a terminal only).

    Raises
    ------
    ValueError
        If the files of another configuration are at the same place and ``restart`` is False.
    """
    from sklearn.model_selection import train_test_split

    if workers is not None:
        check_int(workers, "workers", 0)
    start = time.perf_counter()
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    csv_path, md_path, record_path = output_paths(config, out)
    csv_path.parent.mkdir(parents=True, exist_ok=True)
    record = json.loads(record_path.read_text()) if record_path.is_file() and not restart else None
    if record is not None and record["config"] != config.describe():
        raise ValueError(f"{record_path} holds another configuration ({record['config']}); pass restart=True "
                         "(--restart) to start over, or choose another output directory")
    if record is None and csv_path.is_file() and not restart:
        raise ValueError(f"{csv_path} exists without its run record {record_path.name}; pass restart=True "
                         "(--restart) to replace it, or choose another output directory")

    data = load_dataset(config.dataset, config.data_dir)
    x_train, x_test, y_train, y_test = train_test_split(list(data.texts), data.labels, test_size=TEST_SIZE,
                                                        random_state=config.seed)
    model = make_model(config.model, config.seed).fit(x_train, y_train)
    accuracy = float(np.mean(model.predict(x_test) == y_test))
    docs = select_documents(model, x_test, config.n_docs, config.min_tokens)

    # k for LIME and SHAP comes from FRED, so FRED runs first.
    ordered = sorted(config.explainers, key=lambda e: (e not in ("fred", "fredpos"), EXPLAINERS.index(e)))
    adapters: dict[str, Adapter] = {}
    unavailable: dict[str, str] = {}
    for name in ordered:
        try:
            adapters[name] = build_adapter(name, model, x_train, config.p, config.eps, config.n_samples,
                                           config.lime_samples, config.baseline, config.search)
        except Unavailable as err:
            unavailable[name] = str(err)
    if any(e in adapters for e in ("lime", "shap")) and config.k_from not in adapters:
        raise Unavailable(f"lime/shap need k from {config.k_from}, which is unavailable: "
                          f"{unavailable.get(config.k_from)}")
    context = Context(config, model, tuple(x_train), tuple(adapters))
    if record is not None and record["explainers"] != list(adapters):
        raise ValueError(f"{record_path} was made with explainers {record['explainers']}, here {list(adapters)} are "
                         "available; install what is missing or pass restart=True (--restart)")
    with _BUILT_LOCK:  # the in-process executor uses the adapters just built
        _BUILT.clear()
        _BUILT[context.key] = adapters

    done = _complete(read_rows(csv_path), list(adapters)) if record is not None else []
    _write_rows(csv_path, done)  # drops the rows of documents cut short, and a line cut in the middle
    finished = {r["doc"] for r in done}
    pending = [(doc, index, x_test[index]) for doc, index in enumerate(docs) if doc not in finished]
    sessions = list(record["sessions"]) if record is not None else []
    cluster: dict = {"kind": "in process", "workers": 0, "threads": 1}

    def save_record() -> None:
        record_path.write_text(json.dumps({"config": config.describe(), "explainers": list(adapters),
                                           "unavailable": unavailable, "sessions": sessions}, indent=1),
                               encoding="utf-8")

    save_record()
    try:
        with ExitStack() as stack:
            if _on_cluster(workers, scheduler, len(pending)):
                results = _distributed(context, pending, stack, cluster, workers, scheduler)
            else:
                results = _serial(context, pending)
            if progress:
                results = show_progress(results, f"{config.dataset}/{config.model}: documents", len(pending))
            with open(csv_path, "a", newline="", encoding="utf-8") as handle:
                for rows in results:
                    _append_rows(handle, rows)
    finally:  # an interrupted session is recorded too, with the documents it wrote
        # Counted in the file, not as they are appended: a signal handled between a document's write and its count
        # (during the fsync, say) would otherwise leave a session that wrote documents unrecorded.
        rows = _complete(read_rows(csv_path), list(adapters))
        written = len({r["doc"] for r in rows} - finished)
        if written:
            sessions.append({"started": started, "wall_seconds": time.perf_counter() - start,
                             "documents": written, "cluster": cluster, "command": config.command,
                             **({} if written == len(pending) else {"interrupted": True})})
            save_record()
    _write_rows(csv_path, rows)
    save_record()
    result = RunResult(config, rows, unavailable, accuracy, len(x_train), len(x_test),
                       int(np.sum(model.predict(x_test) == POSITIVE)), sessions, csv_path, md_path)
    md_path.write_text(markdown(result), encoding="utf-8")
    return result


# ----------------------------------------------------------------------------------------------------------
# The summary
# ----------------------------------------------------------------------------------------------------------

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


def markdown(result: RunResult) -> str:
    """Summary in the paper's layout: per explainer our row (mean ± standard error, significance marks against
    FRED) then the paper's row (mean (std)) where the paper has the setting; the tests; notes; cluster, machine."""
    c = result.config
    present = [e for e in EXPLAINERS if any(r["explainer"] == e for r in result.rows)]
    summary = summarise(result.rows, present)
    tests = (compare_paired(_values(result.rows, present), REFERENCE, [(col, up) for col, _, up in SUMMARY_COLUMNS])
             if REFERENCE in present and len(present) > 1 else [])
    winner = {(t.other, t.column): t.winner for t in tests}
    paper = paper_table(c.dataset, c.model, c.p) if math.isclose(c.eps, 0.15) else None
    n_docs = len({r["doc"] for r in result.rows})
    sessions = result.sessions
    # A session killed before it could record itself (SIGKILL, or SIGTERM to a runner older than c979120) leaves
    # documents in the CSV that no recorded wall time covers.
    recorded = sum(s["documents"] for s in sessions)
    unrecorded = (f", which computed {recorded} of the {n_docs} documents (the sessions that computed the others "
                  "were not recorded, so their time is not known)" if recorded < n_docs else "")
    length = f" of at least {c.min_tokens} tokens" if c.min_tokens > 1 else ""
    lines = [f"# {c.dataset} / {c.model} (p={c.p}, eps={c.eps})", "",
             f"Command: `{c.command}`", "",
             f"{n_docs} documents (first positively classified test documents{length} by length), "
             f"robustness over k={c.k_robust} re-runs, LIME/SHAP top-k with k = |{c.k_from}|, "
             f"FRED search {c.search!r} with n = {c.n_samples or 'Lemma 2 size'}. "
             f"Model test accuracy {result.accuracy:.3f} (train {result.n_train}, test {result.n_test}, "
             f"{result.n_positive_test} test documents classified positive). "
             f"Wall time: {result.wall_seconds:.1f} s over {len(sessions)} session(s){unrecorded}.", ""]
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
    headers = [f"{label} {'↑' if up else '↓'}" for _, label, up in SUMMARY_COLUMNS]
    lines.append(markdown_table(["explainer", "source"] + headers, table))
    lines.append("")
    if tests:
        lines += [f"Ours: mean ± standard error over the documents. {BETTER_MARK} / {WORSE_MARK}: significantly "
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
        lines += [markdown_table(["test"] + headers, rows), ""]
    else:
        lines += [f"Ours: mean ± standard error over the documents (no tests: {REFERENCE} and another explainer "
                  "are needed). Paper: mean (std) as printed.", ""]
    if not paper:
        lines += [f"The paper has no table for {c.dataset}/{c.model} at p={c.p}, eps={c.eps}.", ""]
    undefined = {e: sum(1 for r in result.rows if r["explainer"] == e and not np.isfinite(r["aucmorf"]))
                 for e in present}
    lines += ["Notes:",
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
    for name, reason in result.unavailable.items():
        lines.append(f"- {name} unavailable: {reason}")
    lines += ["", "Sessions: " + "; ".join(
        f"{s['started']}, {s['documents']} documents in {s['wall_seconds']:.1f} s ({_describe_cluster(s['cluster'])}"
        + (", interrupted)" if s.get("interrupted") else ")") for s in sessions) + ".",
              "", "Machine: " + describe(environment(PACKAGES + ("dask", "distributed")
                                                      + (NEURAL_PACKAGES if c.model == "minilm" else ()))),
              "", "Configuration: " + ", ".join(f"{k}={v}" for k, v in asdict(c).items() if k != "command"), ""]
    return "\n".join(lines)
