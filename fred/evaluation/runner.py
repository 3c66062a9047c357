"""Train a scikit-learn text model, explain test documents with each explainer, score and tabulate.

Protocol (paper, section 4 and appendix B, with our fixed choices stated):

* data: :func:`fred.evaluation.datasets.load_dataset` (authors' preprocessing);
* split: :func:`fred.evaluation.datasets.split_dataset`,
  ``train_test_split(test_size=0.25, random_state=seed)``;
* model: ``TfidfVectorizer()`` then ``LogisticRegression()``,
  ``DecisionTreeClassifier(random_state=seed)`` or
  ``RandomForestClassifier(random_state=seed)``, otherwise defaults;
* documents: the test documents the model classifies as positive with at least
  ``min_tokens`` tokens, ordered by number of tokens (stable), the first
  ``n_docs``; class 1 is explained;
* per document and explainer: one explanation timed, then ``k_robust`` re-runs
  for robustness, with the seeds :func:`fred.evaluation.documents.document_seeds`
  derives from (run seed, the document's index in the test split), so that no
  result depends on the cluster, the order in which documents complete, or a
  retry (with the MiniLM model, up to a few times 1e-7: see
  :data:`fred.evaluation.summary.MINILM_ORDER_NOTE`); LIME and SHAP take
  k = |FRED's explanation| (``k_from``, FRED mask by default);
* FRED: ``baseline="mean"`` (the paper) unless ``baseline="original"`` (the
  authors' code, threshold eps * f(xi)), the sample size of Lemma 2 unless
  ``n_samples`` is given, ``search`` as in :class:`fred.Fred`;
* metrics: :mod:`fred.evaluation.metrics` with mask token ``UNK`` and f = P(class 1);
* statistics: :mod:`fred.evaluation.statistics` (mean with standard error,
  paired Wilcoxon signed-rank tests of FRED against each other explainer,
  Holm-corrected over the table).

**Execution.** Each document is one task (:mod:`fred.evaluation.documents`): in
the process (``workers=0``), on a ``dask.distributed.LocalCluster`` of
``workers`` single-threaded worker processes, or on the cluster whose scheduler
is at ``scheduler`` (:mod:`fred.evaluation.execution`). The default
(``workers=None``) is a LocalCluster of one worker per available core, except for
runs of fewer than :data:`~fred.evaluation.execution.SMALL_RUN` pending documents
(or on one core), which stay in process. The client appends a document's rows to
the CSV as soon as it completes (one write, flushed to disk); a rerun of the same
configuration into the same directory skips the documents already there (a
document is there when it has a whole row for every explainer,
:mod:`fred.evaluation.store`), so an interrupted run resumes.
When every document is done the CSV is rewritten in document order, so
that it does not depend on the order of completion, and the Markdown summary is
written from it (:mod:`fred.evaluation.summary`). The ``.run.json`` beside them
records the configuration (a rerun with another one is refused unless
``restart``), the explainers available, and every session's wall time, documents
and cluster (an interrupted session too).
"""

from __future__ import annotations

import datetime
import json
import os
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..validation import check_int
from ..progress import progress as show_progress
from .config import RunConfig, output_paths
from .datasets import load_dataset, split_dataset
from .documents import Context, build_run_adapter, keep_adapters, select_documents
from .execution import explain_pending
from .explainers import EXPLAINERS, POSITIVE, Adapter, Unavailable
from .models import make_model
from .store import append_rows, read_documents, write_rows
from .summary import RunResult, markdown


def _previous_record(config: RunConfig, csv_path: Path, record_path: Path, restart: bool) -> dict | None:
    """The run record of an earlier session to resume (None to start afresh); ValueError when the files at this
    place belong to another configuration, or a CSV has lost its record, and ``restart`` is False."""
    record = json.loads(record_path.read_text()) if record_path.is_file() and not restart else None
    if record is not None and record["config"] != config.describe():
        raise ValueError(f"{record_path} holds another configuration ({record['config']}); pass restart=True "
                         "(--restart) to start over, or choose another output directory")
    if record is None and csv_path.is_file() and not restart:
        raise ValueError(f"{csv_path} exists without its run record {record_path.name}; pass restart=True "
                         "(--restart) to replace it, or choose another output directory")
    return record


def _train(config: RunConfig) -> tuple[object, list[str], list[str], float, list[int]]:
    """The model fitted on the training split, the two splits' texts, its test accuracy, and the test indices of
    the documents to explain (:func:`fred.evaluation.documents.select_documents`)."""
    data = load_dataset(config.dataset, config.data_dir)
    x_train, x_test, y_train, y_test = split_dataset(data, config.seed)
    model = make_model(config.model, config.seed).fit(x_train, y_train)
    accuracy = float(np.mean(model.predict(x_test) == y_test))
    return model, x_train, x_test, accuracy, select_documents(model, x_test, config.n_docs, config.min_tokens)


def _build_adapters(config: RunConfig, model, x_train) -> tuple[dict[str, Adapter], dict[str, str]]:
    """The explainers of the run that can be built, in the order they run, and why the others cannot."""
    # k for LIME and SHAP comes from FRED, so FRED runs first; explainers from outside run last.
    ordered = sorted(config.explainers, key=lambda e: (e not in ("fred", "fredpos"),
                                                       EXPLAINERS.index(e) if e in EXPLAINERS else len(EXPLAINERS)))
    adapters: dict[str, Adapter] = {}
    unavailable: dict[str, str] = {}
    for name in ordered:
        try:
            adapters[name] = build_run_adapter(config, name, model, x_train)
        except Unavailable as err:
            unavailable[name] = str(err)
    if any(e in adapters for e in ("lime", "shap")) and config.k_from not in adapters:
        raise Unavailable(f"lime/shap need k from {config.k_from}, which is unavailable: "
                          f"{unavailable.get(config.k_from)}")
    return adapters, unavailable


@dataclass
class _Record:
    """The ``.run.json`` of a run: its configuration, explainers, and sessions (earlier ones, then this one)."""

    path: Path
    config: RunConfig
    explainers: list[str]
    unavailable: dict[str, str]
    sessions: list[dict]
    started: str  # when this session started, UTC
    start: float  # its time.perf_counter() then
    cluster: dict = field(default_factory=lambda: {"kind": "in process", "workers": 0, "threads": 1})

    def save(self) -> None:
        self.path.write_text(json.dumps({"config": self.config.describe(), "explainers": self.explainers,
                                         "unavailable": self.unavailable, "sessions": self.sessions}, indent=1),
                             encoding="utf-8")

    def end_session(self, written: int, n_pending: int) -> None:
        """Record this session when it wrote documents (interrupted when fewer than were pending)."""
        if written:
            self.sessions.append({"started": self.started, "wall_seconds": time.perf_counter() - self.start,
                                  "documents": written, "cluster": self.cluster, "command": self.config.command,
                                  **({} if written == n_pending else {"interrupted": True})})
            self.save()


def _append_documents(context: Context, pending: list, csv_path: Path, cluster: dict, workers: int | None,
                      scheduler: str | None, progress: bool) -> None:
    """Explain the pending documents (:func:`fred.evaluation.execution.explain_pending`), appending each one's
    rows to the CSV as it completes."""
    config = context.config
    with ExitStack() as stack:
        results = explain_pending(context, pending, stack, cluster, workers, scheduler)
        if progress:
            results = show_progress(results, f"{config.dataset}/{config.model}: documents", len(pending))
        with open(csv_path, "a", newline="", encoding="utf-8") as handle:
            for rows in results:
                append_rows(handle, rows)


def run(config: RunConfig, out: str | os.PathLike, *, workers: int | None = None, scheduler: str | None = None,
        restart: bool = False, progress: bool = True) -> RunResult:
    """Train, explain the pending documents, append their rows, and write the summary (module docstring).

    Parameters
    ----------
    config : what the numbers depend on.
    out : directory of the files (:func:`fred.evaluation.config.output_paths`).
    workers : 0 runs the documents in this process; N > 0 on a LocalCluster of N single-threaded worker
        processes; None (default) on a LocalCluster of one worker per available core
        (:func:`fred.evaluation.execution.default_workers`), in process when fewer than
        :data:`~fred.evaluation.execution.SMALL_RUN` documents are pending or there is one core.
    scheduler : address of an existing dask scheduler (``tcp://host:port``); ``workers`` is then ignored.
    restart : discard the files of a previous run of this stem instead of resuming it.
    progress : a progress bar counting documents (on a terminal only).

    Raises
    ------
    ValueError
        If the files of another configuration are at the same place and ``restart`` is False.
    """
    if workers is not None:
        check_int(workers, "workers", 0)
    start = time.perf_counter()
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    csv_path, md_path, record_path = output_paths(config, out)
    csv_path.parent.mkdir(parents=True, exist_ok=True)
    previous = _previous_record(config, csv_path, record_path, restart)

    model, x_train, x_test, accuracy, docs = _train(config)
    adapters, unavailable = _build_adapters(config, model, x_train)
    context = Context(config, model, tuple(x_train), tuple(adapters))
    if previous is not None and previous["explainers"] != list(adapters):
        raise ValueError(f"{record_path} was made with explainers {previous['explainers']}, here {list(adapters)} "
                         "are available; install what is missing or pass restart=True (--restart)")
    keep_adapters(context, adapters)  # the in-process executor uses the adapters just built

    done = read_documents(csv_path, list(adapters)) if previous is not None else []
    write_rows(csv_path, done)  # drops the rows of documents cut short, and a line cut in the middle
    finished = {r["doc"] for r in done}
    pending = [(doc, index, x_test[index]) for doc, index in enumerate(docs) if doc not in finished]
    record = _Record(record_path, config, list(adapters), unavailable,
                     list(previous["sessions"]) if previous is not None else [], started, start)
    record.save()
    try:
        _append_documents(context, pending, csv_path, record.cluster, workers, scheduler, progress)
    finally:  # an interrupted session is recorded too, with the documents it wrote
        # Counted in the file, not as they are appended: a signal handled between a document's write and its count
        # (during the fsync, say) would otherwise leave a session that wrote documents unrecorded.
        rows = read_documents(csv_path, list(adapters))
        record.end_session(len({r["doc"] for r in rows} - finished), len(pending))
    write_rows(csv_path, rows)
    record.save()
    result = RunResult(config, rows, unavailable, accuracy, len(x_train), len(x_test),
                       int(np.sum(model.predict(x_test) == POSITIVE)), record.sessions, csv_path, md_path)
    md_path.write_text(markdown(result), encoding="utf-8")
    return result
