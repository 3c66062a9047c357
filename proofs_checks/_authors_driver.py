"""Serve the authors' released FRED (github gianluigilopardo/fred) to a parent process over a pipe.

Started by :class:`proofs_checks.authors_adapter.ReleasedFredProcess` as a script,
``python _authors_driver.py CHECKOUT``, never imported by the project: the released package is named ``fred``,
like this project's, so it runs in its own interpreter with ``CHECKOUT`` first on ``sys.path``. Importing this
module does nothing.

Protocol: every message is an 8-byte big-endian length followed by a pickle. The driver sends ``{"op": "ready",
"module": <file of the imported fred.explainer>}``, then answers the parent's

* ``{"op": "new", "id": k, "init": {...}}``: build ``fred.explainer.Fred(classifier_fn, **init)`` whose
  ``classifier_fn`` asks the parent: ``{"op": "classify", "texts": [...]}``, answered by ``{"scores": <what the
  parent's classifier returned>}`` or ``{"abort": <message>}`` (the parent's classifier raised; the driver
  raises inside the released code, which unwinds);
* ``{"op": "explain", "id": k, "example": text, "kwargs": {...}}``: ``explain_instance(example, **kwargs)``,
  answered by ``{"op": "result", "best_ids": [...], "token_drops_ids": {...}, "example": <the cleaned text>}``
  or ``{"op": "error", "type", "message", "builtin_bases", "parent_abort", "traceback"}`` when the released
  code raised (``builtin_bases``: the builtin classes of the exception, most derived first).

End of input stops the driver. The released code's prints go to stderr, keeping stdout for the protocol.

Import-time stubs (documented choice): the released package imports ``spacy`` and ``textblob`` at import time
and loads the spaCy model ``en_core_web_lg`` (neither textblob nor that model is installed here), only for
POS sampling (``pos=True``), which the kit never asks for. The driver installs stub modules for both, whose
every use raises; installing textblob would not suffice (the model would still be missing). The package also
imports ``display`` from ``IPython.core.display``, which IPython 9 moved to ``IPython.core.display_functions``;
the driver puts the name back when it is missing. Nothing of the released code is changed or copied.
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
import traceback
import types


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


def send_message(stream, message: dict) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack(">Q", len(data)) + data)
    stream.flush()


def receive_message(stream) -> dict | None:
    head = stream.read(8)
    if len(head) < 8:
        return None
    (size,) = struct.unpack(">Q", head)
    return pickle.loads(stream.read(size))


class ParentClassifierError(RuntimeError):
    """The parent's classifier raised; raised inside the released code to unwind it."""


def main(checkout: str) -> int:
    incoming = sys.stdin.buffer
    outgoing = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # the released code's prints go to stderr
    _install_stubs()
    sys.path.insert(0, os.path.abspath(checkout))
    from fred.explainer import Fred  # the released package, first on sys.path

    def classifier_fn(texts):
        send_message(outgoing, {"op": "classify", "texts": [str(t) for t in texts]})
        reply = receive_message(incoming)
        if reply is None:
            raise SystemExit(0)
        if "abort" in reply:
            raise ParentClassifierError(reply["abort"])
        return reply["scores"]

    send_message(outgoing, {"op": "ready", "module": sys.modules[Fred.__module__].__file__})
    explainers = {}
    while (request := receive_message(incoming)) is not None:
        if request["op"] == "new":
            explainers[request["id"]] = Fred(classifier_fn, **request["init"])
            continue
        try:
            exp = explainers[request["id"]].explain_instance(request["example"], **request["kwargs"])
            send_message(outgoing, {"op": "result", "best_ids": [int(i) for i in exp.best_ids],
                             "token_drops_ids": {int(k): float(v) for k, v in exp.token_drops_ids.items()},
                             "example": str(exp.example)})
        except Exception as err:  # noqa: BLE001 - every error goes back to the parent
            send_message(outgoing, {"op": "error", "type": type(err).__name__, "message": str(err),
                             "builtin_bases": [c.__name__ for c in type(err).__mro__ if c.__module__ == "builtins"],
                             "parent_abort": isinstance(err, ParentClassifierError),
                             "traceback": traceback.format_exc(limit=8)})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
