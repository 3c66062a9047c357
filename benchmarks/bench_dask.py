"""Documents per second of the evaluation runner, in process and on a dask LocalCluster (issue 16).

Setting: ``python -m fred.evaluation``'s run (:func:`fred.evaluation.runner.run`) on the first ``--n-docs``
positively classified Restaurants test documents (shared data, ``$FRED_DATA_DIR``), ``TfidfVectorizer()`` +
``LogisticRegression()`` by default, explainers FRED, LIME and SHAP, ``--k-robust`` re-runs each; every run starts
from an empty output directory. Three ways to run the same documents:

* in process (``--workers 0``);
* ``--workers N``: the run starts its own LocalCluster of N single-threaded worker processes, so the time includes
  starting the cluster and each worker's imports and explainers (what a user of the command waits for);
* the same cluster started beforehand, warmed by a one-document run (the workers' imports), and passed as
  ``--scheduler``: the steady state of a long run, where starting the cluster (reported on its own) is paid once.

Every cluster run's CSV is checked equal to the in-process one but for the time column. Prints one Markdown table.

Usage::

    python benchmarks/bench_dask.py [--n-docs 40] [--workers 2] [--model logistic] [--explainers fred,lime,shap]
                                    [--k-robust 10] [--append FILE] [--note TEXT]
"""

from __future__ import annotations

import csv
import dataclasses
import os
import tempfile
import time
from pathlib import Path

from fred.command_line import OneLineParser
from _common import emit, provenance

from fred.evaluation.config import RunConfig
from fred.evaluation.runner import run
from fred.markdown_tables import markdown_table


def rows_without_time(path: Path) -> list[list[str]]:
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    drop = rows[0].index("time")
    return [r[:drop] + r[drop + 1:] for r in rows]


def main() -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="restaurants")
    parser.add_argument("--model", default="logistic")
    parser.add_argument("--explainers", default="fred,lime,shap")
    parser.add_argument("--n-docs", type=int, default=40)
    parser.add_argument("--k-robust", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--append", default=None, help="also append the report to this Markdown file")
    parser.add_argument("--note", default="")
    args = parser.parse_args()
    from distributed import LocalCluster

    config = RunConfig(dataset=args.dataset, model=args.model, explainers=tuple(args.explainers.split(",")),
                       n_docs=args.n_docs, k_robust=args.k_robust)
    table, reference = [], None
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        def timed(label: str, **where) -> None:
            nonlocal reference
            start = time.perf_counter()
            result = run(config, Path(tmp) / label, progress=False, **where)
            seconds = time.perf_counter() - start
            n = len({r["doc"] for r in result.rows})
            rows = rows_without_time(result.csv_path)
            same = "reference" if reference is None else ("yes" if rows == reference[1] else "NO")
            if reference is None:
                reference = (n / seconds, rows)
            table.append([label, n, f"{seconds:.1f}", f"{n / seconds:.2f}", f"{n / seconds / reference[0]:.2f}x",
                          same])

        timed("in process", workers=0)
        timed(f"LocalCluster, {args.workers} workers (started by the run)", workers=args.workers)
        start = time.perf_counter()
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
            started = time.perf_counter() - start
            run(dataclasses.replace(config, n_docs=args.workers), Path(tmp) / "warm-up",
                scheduler=cluster.scheduler_address, progress=False)
            timed(f"LocalCluster, {args.workers} workers (started beforehand in {started:.1f} s, warm)",
                  scheduler=cluster.scheduler_address)
    report = "\n".join([
        f"{args.dataset}/{args.model}, explainers {args.explainers}, k_robust={args.k_robust}, FRED n = Lemma 2 "
        "size; wall time of `fred.evaluation.runner.run` (training, explaining, writing), one run each. "
        f"Load average (1 min) before / after: {load_before:.2f} / {os.getloadavg()[0]:.2f}.", "",
        *provenance(args.note), "",
        markdown_table(["execution", "documents", "wall s", "documents / s", "vs in process",
                        "CSV equal (but time)"], table)])
    emit(report, args.append, "a", "## Evaluation runner on dask (bench_dask.py)")


if __name__ == "__main__":
    main()
