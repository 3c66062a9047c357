"""One document of an evaluation run as a task: which documents, their seeds, and their rows.

A task is :func:`explain_document`: every explainer of the run on one document, with seeds drawn from the run's
seed and the document's index in the test split only (:func:`document_seeds`), so that no number depends on where
or in which order the documents ran. A worker builds the explainers once per run (:func:`adapters_for`).
"""

from __future__ import annotations

import math
import threading
import uuid
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from threadpoolctl import threadpool_limits

from . import metrics
from .config import RunConfig
from .explainers import POSITIVE, Adapter, build_adapter
from .factories import FactoryAdapter


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


def build_run_adapter(config: RunConfig, name: str, model, train_texts: Sequence[str]) -> Adapter:
    """The adapter of explainer ``name`` with the run's settings: an explainer from outside
    (:class:`fred.evaluation.factories.FactoryAdapter`) or a built-in one
    (:func:`fred.evaluation.explainers.build_adapter`; :class:`~fred.evaluation.explainers.Unavailable` if it cannot
    be built here)."""
    outside = config.outside
    if name in outside:
        return FactoryAdapter(name, outside[name], model.predict_proba, config.p, config.eps, config.n_samples)
    return build_adapter(name, model, train_texts, config.p, config.eps, config.n_samples, config.lime_samples,
                         config.baseline, config.search)


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
# Reentrant: adapters_for keeps what it built through keep_adapters while holding it.
_BUILT_LOCK = threading.RLock()


def keep_adapters(context: Context, adapters: dict[str, Adapter]) -> None:
    """Make ``adapters`` (built in this process) those of ``context``, in place of any earlier run's (a worker
    serves one run at a time)."""
    with _BUILT_LOCK:
        _BUILT.clear()
        _BUILT[context.key] = adapters


def adapters_for(context: Context) -> dict[str, Adapter]:
    """The adapters of ``context``'s explainers, built at the first call in this process and kept
    (:func:`keep_adapters`)."""
    with _BUILT_LOCK:
        if context.key not in _BUILT:
            keep_adapters(context, {name: build_run_adapter(context.config, name, context.model, context.train_texts)
                                    for name in context.explainers})
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
