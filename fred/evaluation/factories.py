"""Explainers from outside the project on the paper's benchmark: a factory named by ``NAME=module:factory``.

``python -m fred.evaluation --explainers fred,mine=pkg.module:make_explainer`` runs the explainers that
``pkg.module.make_explainer`` builds beside FRED, on the same documents, with the same seeds, metrics and paired
tests. The factory follows the conformance kit's protocol (README, "the conformance kit"), read here by duck
typing only (the evaluation never imports the checking side):

* ``factory(classifier_fn, exact=False, random_state=seed)`` builds an explainer, where ``classifier_fn`` maps a
  list of texts to class probabilities (rows of the model's ``predict_proba``);
* ``explainer.explain(text, label=1, p=p, eps=eps, max_len=max_len)``, plus ``n_samples=n`` when the run fixes
  n (``--n-samples``; otherwise the factory's own default applies), returns an explanation with ``best_ids``
  (positions of ``text.split()``) and, optionally, ``importances`` (one score per position).

As FRED's adapter does, each explanation builds a fresh explainer seeded with that explanation's seed, so a
document's numbers depend on the run's seed and the document only. e = ``best_ids``; e+ (AUC-MoRF's ranking) = the
positions of positive importance by decreasing importance, or ``best_ids`` in the order given when the explanation
has no importances. A worker process of a cluster imports the module itself: it must be importable there.
"""

from __future__ import annotations

import importlib
import re
import traceback
from typing import Callable

import numpy as np

from fred_constants import MAX_LEN

from .explainers import EXPLAINERS, POSITIVE, Attribution
from .metrics import positive_ranking

#: An explainer name from outside: a file-name-safe word that is not a built-in explainer's name.
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
#: ``module:factory``, the module dotted, the factory an attribute of it.
TARGET = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


def parse_factory(spec: str) -> tuple[str, str]:
    """``"NAME=module:factory"`` as ``(NAME, "module:factory")``; ValueError saying what the spec must look like.

    >>> parse_factory("mine=pkg.module:make_explainer")
    ('mine', 'pkg.module:make_explainer')
    """
    name, sep, target = spec.partition("=")
    if not sep or not NAME.fullmatch(name) or not TARGET.fullmatch(target):
        raise ValueError(f"an explainer from outside must be NAME=module:factory (NAME a word of letters, digits, "
                         f"'_' or '-'), got {spec!r}")
    if name in EXPLAINERS:
        raise ValueError(f"the explainer name {name!r} is a built-in one ({', '.join(EXPLAINERS)}); choose another")
    return name, target


def load_factory(target: str) -> Callable:
    """The callable ``module:factory`` names, imported: the one loader of the command lines and the pytest plugin.

    ValueError names what could not be had (the form, the module, an exception the module raised while importing,
    the attribute); TypeError when the attribute is not callable. Each caller turns these into its own usage error.

    >>> load_factory("fred:Fred").__name__
    'Fred'
    >>> load_factory("fred")
    Traceback (most recent call last):
    ...
    ValueError: expected module:factory (e.g. proofs_checks:fred_factory), got 'fred'
    >>> load_factory("fred:__doc__")
    Traceback (most recent call last):
    ...
    TypeError: 'fred:__doc__' is a str, not a callable factory make_explainer(classifier_fn, exact=False)
    """
    if not isinstance(target, str) or not TARGET.fullmatch(target):
        raise ValueError(f"expected module:factory (e.g. proofs_checks:fred_factory), got {target!r}")
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import module {module_name!r} ({error})") from error
    except Exception as error:  # noqa: BLE001 - the user's module failed while importing: say where, in one line
        where = traceback.extract_tb(error.__traceback__)[-1]
        raise ValueError(f"importing module {module_name!r} raised {type(error).__name__}: {error} "
                         f"(at {where.filename}:{where.lineno})") from error
    if not hasattr(module, attribute):
        raise ValueError(f"module {module_name!r} has no attribute {attribute!r}")
    factory = getattr(module, attribute)
    if not callable(factory):
        raise TypeError(f"{target!r} is a {type(factory).__name__}, not a callable factory "
                        "make_explainer(classifier_fn, exact=False)")
    return factory


class FactoryAdapter:
    """The explainers a kit factory builds, run as FRED is in the evaluation (module docstring)."""

    needs_k = False

    def __init__(self, name: str, target: str, predict_proba: Callable, p: float, eps: float,
                 n_samples: int | None, max_len: int = MAX_LEN):
        self.name = name
        self.factory = load_factory(target)
        self.predict_proba = predict_proba
        self.params = dict(p=p, eps=eps, max_len=max_len, **({} if n_samples is None else {"n_samples": n_samples}))

    def explain(self, text: str, seed: int, k: int | None = None) -> Attribution:
        """The factory's explanation of class 1, built with ``random_state=seed``; the selection and, when present,
        the importances (``k`` unused)."""
        explainer = self.factory(self.predict_proba, exact=False, random_state=seed)
        exp = explainer.explain(text, label=POSITIVE, **self.params)
        b = len(text.split())
        ids = tuple(int(i) for i in exp.best_ids)
        if any(not 0 <= i < b for i in ids) or len(set(ids)) != len(ids):
            raise ValueError(f"explainer {self.name}: best_ids must be distinct positions of text.split() (0 to "
                             f"{b - 1}), got {list(ids)}")
        importances = getattr(exp, "importances", None)
        if importances is None:
            return Attribution(tuple(sorted(ids)), ids)
        if np.shape(importances) != (b,):
            raise ValueError(f"explainer {self.name}: importances must have one score per token ({b}), got shape "
                             f"{np.shape(importances)}")
        return Attribution(tuple(sorted(ids)), positive_ranking(importances))
