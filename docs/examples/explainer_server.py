"""A FRED explainer server speaking the kit's JSON-lines protocol (docs/protocol.md), in plain Python and numpy.

Run the conformance kit on it:

    python -m proofs_checks --explainer-cmd "python docs/examples/explainer_server.py" --only kit

The algorithm is ``plain_fred.py`` beside this file (FRED written from scratch, Algorithm 1 as the paper states
it); this file only speaks the protocol: it reads requests, asks the kit's model to score texts, and writes
explanations. It imports nothing of the fred-theory project.
"""

import json
import sys

import numpy as np
from plain_fred import PlainFred

PROTOCOL = 1
TAGS = {"exact": True, "settable_p": True, "settable_n_samples": True, "importances": True, "found": True,
        "seeded": True, "baseline": "mean", "search": "exhaustive"}


class Aborted(Exception):
    """The kit's model raised while scoring: stop this explanation."""


def send(message):
    sys.stdout.write(json.dumps(message, allow_nan=False) + "\n")
    sys.stdout.flush()


def receive():
    line = sys.stdin.readline()
    return None if not line else json.loads(line)


def score(texts):
    """The kit's model on ``texts``: a list of rows of class scores, or of numbers (regression)."""
    send({"op": "score", "texts": texts})
    reply = receive()
    if reply is None:
        sys.exit(0)
    if reply["op"] == "abort":
        raise Aborted(reply.get("message", ""))
    return np.asarray(reply["scores"], dtype=float)


def explain(request):
    explainer = PlainFred(score, exact=bool(request.get("exact")), random_state=request.get("seed"))
    exp = explainer.explain(request["text"], label=request.get("label"), p=request["p"], eps=request["eps"],
                            max_len=request["max_len"], n_samples=request.get("n_samples"))
    return {"op": "explanation", "best_ids": list(exp.best_ids), "found": exp.found,
            "importances": list(exp.importances)}


def main():
    send({"op": "hello", "protocol": PROTOCOL, "name": "example_fred_server", "tags": TAGS})
    while (request := receive()) is not None:
        try:
            if request.get("op") != "explain":
                raise ValueError(f"unknown op {request.get('op')!r}")
            send(explain(request))
        except Aborted as why:
            send({"op": "error", "kind": "Aborted", "message": str(why)})
        except (ValueError, TypeError, KeyError) as err:
            kind = "ValueError" if isinstance(err, KeyError) else type(err).__name__
            send({"op": "error", "kind": kind, "message": str(err)})


if __name__ == "__main__":
    main()
