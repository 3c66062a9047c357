"""A FRED explainer server speaking the kit's JSON-lines protocol (docs/protocol.md), in plain Python and numpy.

Run the conformance kit on it:

    python -m proofs_checks --explainer-cmd "python docs/examples/explainer_server.py" --only kit

FRED as the paper states it: each token of ``text.split()`` is replaced by a mask token with probability p,
independently (section 2.3); the drop of a candidate set S is the mean over the rows perturbing all of S of
E[f] - f(row) (Eq. 3; Eq. 1 in exact mode, where the rows are all 2^b patterns weighted p^k (1 - p)^(b - k));
Algorithm 1 walks the sizes 1..max_len and returns the first size whose best drop reaches eps E[f] (Eq. 2),
else the best drop seen (found = false). Without n_samples, Lemma 2 gives n. The model stays in the kit: the
server asks it to score texts (each distinct text once). This file imports nothing of the fred-theory project.
"""

import json
import math
import sys

import numpy as np

PROTOCOL = 1
TAGS = {"exact": True, "settable_p": True, "settable_n_samples": True, "importances": True, "found": True,
        "seeded": True, "baseline": "mean", "search": "exhaustive"}
ALPHA = 0.95  # Lemma 2's coverage probability for the default n
MAX_EXACT_TOKENS = 16  # 2^16 texts to score in exact mode
TIE_RTOL = 1e-12  # drops this close (relative to max |f|) are tied; the smallest position tuple wins


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
    return reply["scores"]


def number(value, name, low, high, high_open):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if not (low < value < high or (not high_open and value == high)):
        raise ValueError(f"{name} must lie in ({low}, {high}{')' if high_open else ']'}, got {value}")
    return float(value)


def integer(value, name, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be >= 1, got {value}")
    return value


def lemma2_n(p, size):
    """The smallest n with 1 - (1 - p^size)^n >= ALPHA."""
    miss = 1.0 - p ** size
    n = max(1, math.ceil(math.log1p(-ALPHA) / math.log(miss)))
    while n > 1 and 1.0 - miss ** (n - 1) >= ALPHA:
        n -= 1
    while 1.0 - miss ** n < ALPHA:
        n += 1
    return n


def column(scores, label, name):
    """The explained column of the scores, and the label (default: the predicted class)."""
    scores = np.asarray(scores, dtype=float)
    if scores.ndim == 1:
        if label is not None:
            raise ValueError("label must be null when the model returns one number per text (regression)")
        return scores, None
    if label is None:
        label = int(np.argmax(scores[0]))
    if isinstance(label, bool) or not isinstance(label, int):
        raise TypeError(f"label must be null or an integer, got {type(label).__name__}")
    if not 0 <= label < scores.shape[1]:
        raise ValueError(f"label must lie in [0, {scores.shape[1]}) for {name}, got {label}")
    return scores[:, label], label


def extend(prefixes, b):
    """Every sorted candidate one position longer than a prefix (in lexicographic order)."""
    if prefixes.shape[1] == 0:
        return np.arange(b)[:, None]
    last = prefixes[:, -1]
    counts = b - 1 - last
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    nxt = np.arange(counts.sum()) - starts + np.repeat(last + 1, counts)
    return np.column_stack([np.repeat(prefixes, counts, axis=0), nxt])


def drops_of(candidates, perturbed, weights, wd):
    """Drop of each candidate (Eq. 1/3), and whether some row perturbs all of it."""
    num, den = np.empty(len(candidates)), np.empty(len(candidates))
    step = max(1, 10_000_000 // (perturbed.shape[0] * candidates.shape[1]))
    for start in range(0, len(candidates), step):
        covered = perturbed[:, candidates[start:start + step]].all(axis=2)
        num[start:start + step], den[start:start + step] = wd @ covered, weights @ covered
    defined = den > 0
    return np.divide(num, den, out=np.zeros_like(num), where=defined), defined


def search(perturbed, weights, d, threshold, max_len, tol):
    """Algorithm 1, exhaustive: (best_ids, drop, found, importances)."""
    b = perturbed.shape[1]
    wd = weights * d
    candidates, best, importances = np.zeros((1, 0), dtype=np.int64), ((), None), None
    for size in range(1, min(max_len, b) + 1):
        candidates = extend(candidates, b)
        drops, defined = drops_of(candidates, perturbed, weights, wd)
        candidates, drops = candidates[defined], drops[defined]
        if size == 1:
            importances = [None] * b
            for (i,), v in zip(candidates, drops):
                importances[i] = float(v)
        if len(candidates) == 0:
            break
        top = int(np.flatnonzero(drops >= drops.max() - tol)[0])  # ties: the first in lexicographic order
        ids, drop = tuple(int(i) for i in candidates[top]), float(drops[top])
        if drop >= threshold - tol:
            return ids, drop, True, importances
        if best[1] is None or drop - best[1] > tol:
            best = (ids, drop)
    return best[0], best[1], False, importances or [None] * b


def explain(request):
    text = request["text"]
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    tokens = text.split()
    if not tokens:
        raise ValueError("text must hold at least one token")
    p = number(request["p"], "p", 0.0, 1.0, high_open=True)
    eps = number(request["eps"], "eps", 0.0, 1.0, high_open=False)
    max_len = integer(request["max_len"], "max_len")
    n = integer(request.get("n_samples"), "n_samples", allow_none=True)
    seed, exact, b = request.get("seed"), bool(request.get("exact")), len(tokens)
    f_text, label = column(score([text]), request.get("label"), "the model's classes")
    if exact:
        if b > MAX_EXACT_TOKENS:
            raise ValueError(f"exact mode enumerates 2^b patterns: text must have at most {MAX_EXACT_TOKENS} "
                             f"tokens, got {b}")
        perturbed = ((np.arange(2 ** b)[:, None] >> np.arange(b)) & 1).astype(bool)
        k = perturbed.sum(axis=1)
        weights = p ** k * (1 - p) ** (b - k)
    else:
        n = lemma2_n(p, min(max_len, b)) if n is None else n
        perturbed = np.random.default_rng(seed).random((n, b)) < p
        weights = np.ones(n)
    mask = "UNK"
    while mask in tokens:  # the mask must not be a word of the document
        mask += "_"
    texts = [" ".join(mask if z else t for z, t in zip(row, tokens)) for row in perturbed]
    distinct = list(dict.fromkeys(texts))
    f_distinct, _ = column(score(distinct), label, "the model's classes")
    where = {t: i for i, t in enumerate(distinct)}
    f = f_distinct[[where[t] for t in texts]]
    mean = float(weights @ f / weights.sum())
    tol = TIE_RTOL * max(1.0, float(np.max(np.abs(f))), abs(float(f_text[0])))
    best_ids, drop, found, importances = search(perturbed, weights, mean - f, eps * mean, max_len, tol)
    return {"op": "explanation", "best_ids": list(best_ids), "found": found, "importances": importances,
            "drop": drop, "threshold": eps * mean, "mean_prediction": mean, "original_prediction": float(f_text[0]),
            "label": label, "n_samples": len(weights)}


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
