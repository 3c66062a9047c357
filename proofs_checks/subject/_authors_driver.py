"""The authors' released FRED (github gianluigilopardo/fred) as a server of the kit's JSON-lines protocol.

Started by :func:`proofs_checks.subject.authors.authors_factory` through :func:`proofs_checks.subject.protocol.command_factory`
as a script, ``python _authors_driver.py CHECKOUT TAGS INIT`` (``TAGS``: the hello's tags as JSON, so that the
adapter's ``AUTHORS_TAGS`` stay their one definition; ``INIT``: keywords of ``fred.explainer.Fred`` as JSON). It
speaks the protocol of ``docs/protocol.md`` like any other server: hello (with ``module``, the file of the
imported ``fred.explainer``, which the adapter checks lies in the checkout), then for each ``explain`` request
``Fred(classifier_fn, **INIT).explain_instance(text, perturb_proba=p, eps=eps, max_len=max_len, label=label
[, n_sample=n_samples])``, whose ``classifier_fn`` sends ``score`` requests to the kit. Arguments go as received:
the released code validates what it validates (the kit tests it, not the driver). Its exceptions go back as
``error`` messages whose kind is the most derived builtin class (numpy's UFuncTypeError is a TypeError); an
``abort`` of the kit is raised inside the released code, which unwinds. It is never imported by the project's
code, but for the two functions the in-process adapter shares with it (:func:`cleaned_positions`,
:func:`answer_fields`), which import nothing: the released package is named ``fred``, like this project's, so the
script runs in its own interpreter with ``CHECKOUT`` first on ``sys.path``.

The released code prints on stdout; the driver moves those prints to stderr, keeping stdout for the protocol.

Import-time stubs (documented choice): the released package imports ``spacy`` and ``textblob`` at import time
and loads the spaCy model ``en_core_web_lg`` (neither textblob nor that model is installed here), only for
POS sampling (``pos=True``), which the kit never asks for. The driver installs stub modules for both, whose
every use raises; installing textblob would not suffice (the model would still be missing). The package also
imports ``display`` from ``IPython.core.display``, which IPython 9 moved to ``IPython.core.display_functions``;
the driver puts the name back when it is missing. Nothing of the released code is changed or copied. The probe
script (``authors_probe.py``, command ``evaluation``) loads these stubs from this file, in its own subprocess.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import traceback
import types
from typing import Mapping

import numpy as np

PROTOCOL_VERSION = 1
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


def answer_fields(text, best_ids, token_drops_ids) -> dict:
    """The protocol's fields of a released explanation of ``text``.

    ``best_ids`` keep the released order (the order its beam added them), mapped from positions of the cleaned
    text to positions of ``text.split()``; ``importances`` hold ``token_drops_ids`` at those positions, None where
    the code gives no drop (a token removed by its cleaning), and are None when there is no text to map.
    """
    where = cleaned_positions(text) if isinstance(text, str) else None

    def back(k) -> int:  # outside the cleaned text (or no text to map): passed on unchanged
        k = int(k)
        return where[k] if where is not None and 0 <= k < len(where) else k

    importances = None
    if isinstance(token_drops_ids, Mapping) and where is not None:
        importances = [None] * len(text.split())
        for k, v in token_drops_ids.items():
            if 0 <= back(k) < len(importances) and math.isfinite(float(v)):
                importances[back(k)] = float(v)
    return {"best_ids": [back(k) for k in best_ids], "importances": importances}


class _Unavailable:
    """What the stubs hand out: any use raises, naming the stubbed module."""

    def __init__(self, what: str):
        self._what = what

    def __getattr__(self, name):
        raise RuntimeError(f"{self._what} is a stub of the kit's driver (POS sampling is not available)")

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{self._what} is a stub of the kit's driver (POS sampling is not available)")


def _install_stubs() -> None:
    spacy = types.ModuleType("spacy")
    spacy.load = lambda name, *args, **kwargs: _Unavailable(f"spacy.load({name!r})")
    textblob = types.ModuleType("textblob")
    textblob.TextBlob = _Unavailable("textblob.TextBlob")
    sys.modules["spacy"], sys.modules["textblob"] = spacy, textblob
    import IPython.core.display as display

    if not hasattr(display, "display"):
        from IPython.core.display_functions import display as moved

        display.display = moved


class KitAbort(RuntimeError):
    """The kit's classifier raised; raised inside the released code to unwind it."""


def _builtin_kind(err: BaseException) -> str:
    """The most derived builtin class of ``err``."""
    return next(c.__name__ for c in type(err).__mro__ if c.__module__ == "builtins")


def main(checkout: str, tags: str, init: str) -> int:
    incoming = sys.stdin
    outgoing = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # the released code's prints go to stderr

    def send(message: dict) -> None:
        outgoing.write(json.dumps(message, allow_nan=False) + "\n")
        outgoing.flush()

    def receive() -> dict | None:
        line = incoming.readline()
        return json.loads(line) if line else None

    _install_stubs()
    sys.path.insert(0, os.path.abspath(checkout))
    from fred.explainer import Fred  # the released package, first on sys.path

    def classifier_fn(texts):
        send({"op": "score", "texts": [str(t) for t in texts]})
        reply = receive()
        if reply is None:
            raise SystemExit(0)
        if reply["op"] == "abort":
            raise KitAbort(reply.get("message", ""))
        return np.asarray(reply["scores"], dtype=float)

    send({"op": "hello", "protocol": PROTOCOL_VERSION, "name": "authors_released_fred", "tags": json.loads(tags),
          "module": sys.modules[Fred.__module__].__file__})
    while (request := receive()) is not None:
        try:
            if request.get("exact"):
                raise NotImplementedError("the released explain_instance has no exact mode")
            kwargs = {"perturb_proba": request["p"], "eps": request["eps"], "max_len": request["max_len"],
                      "label": request["label"]}
            if request.get("n_samples") is not None:
                kwargs["n_sample"] = request["n_samples"]
            exp = Fred(classifier_fn, **json.loads(init)).explain_instance(request["text"], **kwargs)
            send({"op": "explanation", **answer_fields(request["text"], exp.best_ids, exp.token_drops_ids),
                  "example": str(exp.example)})
        except Exception as err:  # noqa: BLE001 - every error goes back to the kit
            send({"op": "error", "kind": "Aborted" if isinstance(err, KitAbort) else _builtin_kind(err),
                  "message": f"in the released code: {type(err).__name__}: {err}",
                  "traceback": traceback.format_exc(limit=8)})
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
