"""Where a run's documents are explained: in this process, or one task per document on a dask cluster.

The cluster is a ``dask.distributed.LocalCluster`` of single-threaded worker processes, or the cluster of a
running scheduler. Tasks run with one BLAS thread (:func:`fred.evaluation.documents.explain_document`), so a
document's numbers do not depend on where it ran. A worker of an existing cluster should run one thread (``dask
worker --nthreads 1``): the BLAS limit is per process, and SHAP's explainer object is shared by the tasks of a
worker.
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from typing import Iterator, Sequence

from .._optional import import_optional
from .documents import Context, explain_document

#: With the default ``workers=None``, runs of fewer pending documents stay in process: starting a LocalCluster
#: (10 to 30 s on a 2-core machine, its workers importing and building the explainers) would cost more than
#: it saves (benchmarks/bench_dask.py).
SMALL_RUN = 20


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _on_cluster(workers: int | None, scheduler: str | None, n_pending: int) -> bool:
    """Whether the pending documents go to dask (see :func:`explain_pending`)."""
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


def _serial(context: Context, pending: Sequence[tuple[int, int, str]]) -> Iterator[list[dict]]:
    for doc, index, text in pending:
        yield explain_document(context, doc, index, text)


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


def explain_pending(context: Context, pending: Sequence[tuple[int, int, str]], stack: ExitStack, cluster: dict,
                    workers: int | None, scheduler: str | None) -> Iterator[list[dict]]:
    """The rows of each pending ``(doc, index, text)``, one document at a time, as they complete.

    In this process when ``workers`` is 0 or nothing is pending; on the cluster of ``scheduler`` when given; else
    on a LocalCluster of ``workers`` processes (one per core when None, except that fewer than :data:`SMALL_RUN`
    pending documents, or one core, stay in process). The cluster is closed with ``stack``; ``cluster`` receives
    what the run records about where the documents ran (it is left as given in process).
    """
    if _on_cluster(workers, scheduler, len(pending)):
        return _distributed(context, pending, stack, cluster, workers, scheduler)
    return _serial(context, pending)
