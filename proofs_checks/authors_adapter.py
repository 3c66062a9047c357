"""The authors' released code (github gianluigilopardo/fred) as a client of the conformance kit.

That code is used as an external program only (it has no license): :class:`ReleasedFredProcess` runs it in a
subprocess (``proofs_checks/_authors_driver.py``; its package is named ``fred``, like this project's) from a
checkout whose path is given or read from ``$FRED_AUTHORS_CHECKOUT``. Its public signature:

    Fred(classifier_fn, class_names=None, mask='UNK', pos=False, pos_dataset=None)
    explain_instance(example, perturb_proba=0.5, eps=0.15, max_len=10, beam_size=4, n_sample=5000,
                     label=None, verbose=False)

It lowercases the example and deletes every character other than ASCII letters, digits and whitespace before
splitting it, so its positions refer to the cleaned text; its explanation has ``best_ids`` and
``token_drops_ids`` (position -> drop of that singleton), and no "found".

:class:`AuthorsExplainerAdapter` maps that signature to the kit's protocol and nothing else: it passes p and
n_samples through, maps positions of the cleaned text back to positions of ``text.split()``, reads
``token_drops_ids`` as importances, and never validates an argument on the wrapped explainer's behalf (the kit
tests the explainer, not the adapter). Its tags (:data:`AUTHORS_TAGS`) say what the code offers.

The released package seeds numpy's global generator once, at import (42): in one process, successive
explanations draw successive samples, so the explainer is not ``seeded`` in the kit's sense, and
``FRED_STATISTICAL_SEED`` cannot re-draw its samples. Each factory gets its own process, so a kit run on a fresh
factory is reproducible.
"""

from __future__ import annotations

import builtins
import math
import os
import re
import subprocess
import sys
import tempfile
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from fred_constants import EPS, MAX_LEN, P, RELEASED_BASELINE

from ._authors_driver import receive_message, send_message  # the one definition of the pipe's framing
from .kit.tags import ExplainerTags

#: Environment variable holding the path of a checkout of the authors' repository.
CHECKOUT_ENV = "FRED_AUTHORS_CHECKOUT"
#: What the released code offers: Monte Carlo only, p and n settable, importances, no found flag, one global
#: seed per process, drops and threshold from f(xi), a width-4 beam.
AUTHORS_TAGS = ExplainerTags(exact=False, settable_p=True, settable_n_samples=True, importances=True, found=False,
                             seeded=False, baseline=RELEASED_BASELINE, search="beam")
_DRIVER = Path(__file__).with_name("_authors_driver.py")
#: What the released code deletes before splitting (ASCII letters, decimal digits and whitespace are kept).
_DELETED = re.compile(r"[^a-zA-Z\d\s]")


def cleaned_positions(text: str) -> list[int]:
    """Position in ``text.split()`` of each token of the released code's cleaned text.

    A token that loses every character to the cleaning disappears, shifting the positions after it.

    >>> cleaned_positions("The FOOD was Great !")
    [0, 1, 2, 3]
    >>> cleaned_positions("so - good")
    [0, 2]
    """
    return [i for i, token in enumerate(text.split()) if _DELETED.sub("", token)]


@dataclass(frozen=True)
class AdaptedExplanation:
    """The fields the kit reads; None where the wrapped explainer gives nothing."""

    best_ids: tuple[int, ...]
    found: bool | None = None
    importances: tuple[float, ...] | None = None


class AuthorsExplainerAdapter:
    """The kit's ``explain`` over an object with the released ``explain_instance`` signature.

    ``best_ids`` keep the wrapped explainer's order (the released code lists positions in the order its beam
    added them); positions of the cleaned text are mapped to positions of ``text.split()``. ``importances``
    hold ``token_drops_ids`` at those positions, NaN where the wrapped explainer gives no drop (a token removed
    by its cleaning). Arguments are passed as given (``n_samples=None`` leaves the wrapped default).
    """

    def __init__(self, explainer):
        if not callable(getattr(explainer, "explain_instance", None)):
            raise TypeError(f"explainer must have explain_instance(...), got {type(explainer).__name__}")
        self.explainer = explainer

    def explain(self, text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None) -> AdaptedExplanation:
        kwargs = {"perturb_proba": p, "eps": eps, "max_len": max_len, "label": label}
        if n_samples is not None:
            kwargs["n_sample"] = n_samples
        exp = self.explainer.explain_instance(text, **kwargs)
        where = cleaned_positions(text) if isinstance(text, str) else None

        def back(k) -> int:  # outside the cleaned text (or no text to map): passed on unchanged
            k = int(k)
            return where[k] if where is not None and 0 <= k < len(where) else k

        best_ids = tuple(back(k) for k in exp.best_ids)
        drops = getattr(exp, "token_drops_ids", None)
        importances = None
        if isinstance(drops, Mapping) and where is not None:
            values = [math.nan] * len(text.split())
            for k, v in drops.items():
                if 0 <= back(k) < len(values):
                    values[back(k)] = float(v)
            importances = tuple(values)
        return AdaptedExplanation(best_ids, None, importances)


# -------------------------------------------------------------------------------------- the subprocess
def _reraise(reply: dict) -> Exception:
    """The released code's exception as its most derived builtin class (numpy's UFuncTypeError is a TypeError),
    with the original type and message."""
    message = f"in the released code: {reply['type']}: {reply['message']}"
    for name in reply["builtin_bases"]:
        kind = getattr(builtins, name, None)
        if isinstance(kind, type) and issubclass(kind, Exception):
            try:
                return kind(message)
            except TypeError:  # a builtin needing other arguments (UnicodeDecodeError, ...)
                continue
    return RuntimeError(message)


def _stop(process: subprocess.Popen, log) -> None:
    if process.poll() is None:
        process.stdin.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    log.close()


class ReleasedFredProcess:
    """The released package in a subprocess, started at the first explainer; one global numpy seed for all.

    ``checkout`` defaults to ``$FRED_AUTHORS_CHECKOUT``; FileNotFoundError when it holds no ``fred/explainer.py``.
    """

    def __init__(self, checkout: str | os.PathLike | None = None):
        checkout = checkout if checkout is not None else os.environ.get(CHECKOUT_ENV)
        if not checkout or not (Path(checkout) / "fred" / "explainer.py").is_file():
            raise FileNotFoundError(f"no checkout of the authors' repository (a folder holding fred/explainer.py) at "
                                    f"{checkout!r}; set {CHECKOUT_ENV} or pass checkout=")
        self.checkout = str(Path(checkout).resolve())
        self.module: str | None = None
        self._process: subprocess.Popen | None = None
        self._next_id = 0

    def _start(self) -> subprocess.Popen:
        if self._process is None or self._process.poll() is not None:
            log = tempfile.TemporaryFile(mode="w+b")
            self._process = subprocess.Popen([sys.executable, str(_DRIVER), self.checkout], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=log, cwd=tempfile.gettempdir())
            self._log = log
            self._finalizer = weakref.finalize(self, _stop, self._process, log)
            ready = self._read()
            self.module = ready["module"]
            if not Path(self.module).resolve().is_relative_to(self.checkout):
                raise RuntimeError(f"the driver imported fred from {self.module}, not from {self.checkout}")
        return self._process

    def _read(self) -> dict:
        reply = receive_message(self._process.stdout)
        if reply is None:
            self._log.seek(0)
            tail = self._log.read().decode(errors="replace")[-3000:]
            raise RuntimeError(f"the released code's process ended (exit status {self._process.wait()}):\n{tail}")
        return reply

    def fred(self, classifier_fn: Callable, **init) -> "RemoteFred":
        """``fred.explainer.Fred(classifier_fn, **init)`` in the subprocess."""
        process = self._start()
        self._next_id += 1
        send_message(process.stdin, {"op": "new", "id": self._next_id, "init": init})
        return RemoteFred(self, self._next_id, classifier_fn)

    def explain(self, explainer_id: int, classifier_fn: Callable, example, kwargs: dict):
        """Run explain_instance, answering the subprocess' classifier calls with ``classifier_fn``."""
        process = self._start()
        send_message(process.stdin, {"op": "explain", "id": explainer_id, "example": example, "kwargs": kwargs})
        raised = None
        while True:
            reply = self._read()
            if reply["op"] == "classify":
                try:
                    send_message(process.stdin, {"scores": classifier_fn(reply["texts"])})
                except Exception as err:  # noqa: BLE001 - re-raised once the released code has unwound
                    raised = err
                    send_message(process.stdin, {"abort": f"{type(err).__name__}: {err}"})
                continue
            if reply["op"] == "result":
                return reply
            if raised is not None and reply.get("parent_abort"):
                raise raised
            raise _reraise(reply)

    def close(self) -> None:
        """Stop the subprocess (also done when the object is collected)."""
        if self._process is not None:
            self._finalizer()
            self._process = None


class RemoteFred:
    """Stands for one ``fred.explainer.Fred`` of the subprocess: ``explain_instance`` with the released signature,
    returning an object with ``best_ids``, ``token_drops_ids`` and ``example``."""

    def __init__(self, process: ReleasedFredProcess, explainer_id: int, classifier_fn: Callable):
        self.process, self.explainer_id, self.classifier_fn = process, explainer_id, classifier_fn

    def explain_instance(self, example, **kwargs):
        reply = self.process.explain(self.explainer_id, self.classifier_fn, example, kwargs)
        return _ReleasedExplanation(tuple(reply["best_ids"]), reply["token_drops_ids"], reply["example"])


@dataclass(frozen=True)
class _ReleasedExplanation:
    best_ids: tuple[int, ...]
    token_drops_ids: dict
    example: str


def authors_factory(explainer_class=None, *, checkout: str | os.PathLike | None = None,
                    tags: ExplainerTags = AUTHORS_TAGS, **init) -> Callable:
    """A kit factory over explainers with the released ``explain_instance`` signature.

    With ``explainer_class``, ``explainer_class(classifier_fn, **init)`` in this process; without, the released
    code from ``checkout`` (default ``$FRED_AUTHORS_CHECKOUT``) in one subprocess per factory, started at its
    first explainer (``make_explainer.process``). ``exact=True`` raises NotImplementedError (no exact mode).
    """
    process = None if explainer_class is not None else ReleasedFredProcess(checkout)

    def make_explainer(classifier_fn, exact: bool = False):
        if exact:
            raise NotImplementedError("the released explain_instance has no exact mode")
        inner = explainer_class(classifier_fn, **init) if explainer_class is not None else \
            process.fred(classifier_fn, **init)
        return AuthorsExplainerAdapter(inner)

    make_explainer.__name__ = f"authors_{getattr(explainer_class, '__name__', 'released_fred')}"
    make_explainer.fred_tags = tags
    make_explainer.process = process
    return make_explainer


_RELEASED: dict[str, Callable] = {}


def released_fred(classifier_fn, exact: bool = False):
    """Kit factory of the released code from ``$FRED_AUTHORS_CHECKOUT``, one subprocess per checkout and Python
    process (for ``python -m proofs_checks --explainer proofs_checks.authors_adapter:released_fred``)."""
    checkout = os.environ.get(CHECKOUT_ENV, "")
    if checkout not in _RELEASED:
        _RELEASED[checkout] = authors_factory(checkout=checkout or None)
    return _RELEASED[checkout](classifier_fn, exact=exact)


released_fred.fred_tags = AUTHORS_TAGS
