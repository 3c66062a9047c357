"""The runner on dask.distributed (issue 16): a LocalCluster of 2 worker processes writes the same CSV as the run in
process, a worker killed while it explains a document loses no document and duplicates none, and Ctrl-C or SIGTERM
stops a run on a cluster, which the same command then resumes.

Both start a cluster of 2 processes (a few seconds each on a 2-core machine), hence ``slow``.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from fred.evaluation.config import RunConfig
from fred.evaluation.runner import run
from tests.evaluation.conftest import write_data

distributed = pytest.importorskip("distributed")

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")]


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    """The configuration (12 documents, FRED and LIME) and its run in process, shared by the tests."""
    data = tmp_path_factory.mktemp("data")
    write_data(data, n_reviews=200)
    config = RunConfig(dataset="restaurants", model="logistic", explainers=("fred", "lime"), n_docs=12,
                       k_robust=2, n_samples=200, lime_samples=300, data_dir=str(data))
    return config, run(config, tmp_path_factory.mktemp("serial"), workers=0, progress=False)


def _csv_without_time(path):
    """The CSV's header and rows as written (strings, file order), the time column left out."""
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    drop = rows[0].index("time")
    return [r[:drop] + r[drop + 1:] for r in rows]


def test_local_cluster_of_two_workers_writes_the_serial_csv(serial, tmp_path):
    """Same configuration in process and on a LocalCluster of 2 single-threaded worker processes: the two CSV files
    are equal line by line, every column but time (floats as written, so bit for bit), and the run record names
    the cluster. Catches seeds that depend on the worker or the order of completion, rows left in completion
    order, BLAS threads that differ between the client and the workers, and a cluster not recorded."""
    config, serial = serial
    cluster = run(config, tmp_path / "cluster", workers=2, progress=False)
    assert _csv_without_time(cluster.csv_path) == _csv_without_time(serial.csv_path)
    assert len({r["doc"] for r in cluster.rows}) == 12
    (session,) = cluster.sessions
    assert session["cluster"] == {"kind": "LocalCluster", "processes": True, "threads_per_worker": 1,
                                  "workers": 2, "threads": 2}
    assert "LocalCluster: 2 workers, 2 threads" in cluster.md_path.read_text()


def test_a_killed_worker_loses_no_document_and_duplicates_none(serial, tmp_path):
    """A run on a 2-worker LocalCluster (via --scheduler); as soon as a worker is processing a document, its
    process is killed (SIGKILL; the nanny starts another). The run completes with every document exactly once
    and the rows of the run in process (but time). Catches rows written by a task rather than by the client on
    completion (a retried document twice), a lost task's document missing, and a context lost with its worker."""
    config, serial = serial
    outcome: dict = {}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            distributed.Client(lc) as client:

        def target():
            try:
                outcome["result"] = run(config, tmp_path / "cluster", scheduler=lc.scheduler_address,
                                        progress=False)
            except BaseException as err:  # reported by the assertion below
                outcome["error"] = err

        thread = threading.Thread(target=target)
        thread.start()
        deadline, killed = time.monotonic() + 120, None
        while killed is None and thread.is_alive() and time.monotonic() < deadline:
            busy = [w for w, keys in client.processing().items() if any("fred-doc-" in str(k) for k in keys)]
            if busy:
                pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
                os.kill(pid, signal.SIGKILL)
                killed = busy[0]
                lines = (tmp_path / "cluster" / f"{config.stem}.csv").read_text().count("\n")
                documents_before = (lines - 1) // len(config.explainers)
            else:
                time.sleep(0.005)
        thread.join(timeout=300)
        workers_after = set(client.nthreads())
    assert killed is not None, "no worker was seen processing a document"
    assert documents_before < 12, "the worker was killed after the last document"
    assert "error" not in outcome, outcome.get("error")
    result = outcome["result"]
    docs = [r["doc"] for r in result.rows if r["explainer"] == "fred"]
    assert sorted(docs) == list(range(12)), docs
    assert _csv_without_time(result.csv_path) == _csv_without_time(serial.csv_path)
    assert killed not in workers_after, "the killed worker is still registered"


def _cli_args(config, out):
    return [sys.executable, "-m", "fred.evaluation", "--dataset", config.dataset, "--model", config.model,
            "--explainers", ",".join(config.explainers), "--n-docs", str(config.n_docs),
            "--k-robust", str(config.k_robust), "--n-samples", str(config.n_samples),
            "--lime-samples", str(config.lime_samples), "--data-dir", config.data_dir, "--out", str(out),
            "--workers", "2"]


def _default_sigint():
    # A child of a shell job started with & inherits SIGINT ignored, and Python then keeps ignoring it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_a_cluster_run_which_the_same_command_resumes(serial, tmp_path, signum):
    """``python -m fred.evaluation --workers 2`` gets the signal as soon as its first document is in the CSV. It
    must exit (within 120 s, with a non-zero status) with the session recorded as interrupted and the documents it
    wrote counted; the same command then completes the run, whose CSV equals the run in process (but time).
    Catches a Ctrl-C that leaves the client waiting on the cluster (seen once, and then traced to SIGINT being
    ignored in a background job), a SIGTERM that ends the process before the session is recorded, and a resume
    that duplicates or loses a document."""
    config, serial = serial
    args = _cli_args(config, tmp_path)
    csv_path, record_path = tmp_path / f"{config.stem}.csv", tmp_path / f"{config.stem}.run.json"
    log = tmp_path / "stderr.txt"  # a file, not a pipe: dask's logging could fill a pipe nobody reads yet
    with open(log, "wb") as handle:
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=handle, start_new_session=True,
                                   preexec_fn=_default_sigint)
    try:
        deadline = time.monotonic() + 120
        while process.poll() is None and time.monotonic() < deadline:
            if csv_path.is_file() and csv_path.read_text().count("\n") > len(config.explainers):
                process.send_signal(signum)
                break
            time.sleep(0.01)
        returncode = process.wait(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    stderr = log.read_text(errors="replace")
    assert returncode != 0, f"the run was not stopped (status {returncode}); stderr:\n{stderr[-2000:]}"
    sessions = json.loads(record_path.read_text())["sessions"]
    assert len(sessions) == 1, f"the stopped session was not recorded: {sessions}"
    (session,) = sessions
    written = {r["doc"] for r in _csv_rows(csv_path)}
    assert session.get("interrupted") and session["documents"] == len(written) < config.n_docs, (session, written)
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    assert _csv_without_time(csv_path) == _csv_without_time(serial.csv_path)
    sessions = json.loads(record_path.read_text())["sessions"]
    assert [s["documents"] for s in sessions] == [len(written), config.n_docs - len(written)], sessions


def _csv_rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))
