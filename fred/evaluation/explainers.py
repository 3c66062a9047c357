"""One protocol over FRED, LIME, SHAP and Anchors: ``explain(text, seed, k) -> Attribution``.

Every adapter works on the whitespace tokens of the text (the positions FRED
perturbs) and explains class 1 (the runner only explains positively classified
documents). An :class:`Attribution` carries

* ``ids``: the explanation set e (positions) used for comprehensiveness,
  sufficiency, robustness and proportion;
* ``ranking``: e+, the positively scored positions by decreasing score, used
  for AUC-MoRF.

How each explainer fills them (paper, appendix B "Explainers"):

* FRED (mask or pos sampling): e = ``best_ids``; e+ = tokens with importance
  s_i > 0 (Eq. 5).
* LIME (``LimeTextExplainer(bow=False)``, whitespace split, weights of every
  token) and SHAP (partition explainer over ``shap.maskers.Text`` with a
  whitespace tokenizer and ``"UNK "`` as mask, values of class 1): e = the k
  highest-scored tokens, k = the size of FRED's explanation of the same
  document (passed by the runner); e+ = positively scored tokens.
* Anchors (``AnchorText(spacy.blank("en"), ..., use_unk_distribution=True)``):
  e = the anchor's tokens; e+ = the same tokens in the anchor's order. Anchors
  tokenises with spaCy; its character offsets are mapped back to whitespace
  positions.

Optional explainers are imported lazily; a missing package or model raises
:class:`Unavailable` with the reason, which the runner reports.
"""

from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

import numpy as np

from fred_constants import MAX_LEN

from .._optional import import_optional
from ..validation import check_int
from ..explainer import Fred
from .metrics import positive_ranking

#: Class names passed to the explainers: class 0 is negative, class 1 positive.
CLASS_NAMES = ("negative", "positive")
#: Explained class (the runner selects positively classified documents).
POSITIVE = 1
#: The explainers the evaluation compares, by name (``fredpos``: FRED with POS-based replacements).
EXPLAINERS = ("fred", "fredpos", "lime", "shap", "anchor")
#: LIME's samples per explanation: its own default (``LimeTextExplainer.explain_instance``'s ``num_samples``).
LIME_SAMPLES = 5000


class Unavailable(RuntimeError):
    """An explainer cannot be built here; the message says why."""


@dataclass(frozen=True)
class Attribution:
    """Explanation set ``ids`` (sorted positions) and AUC-MoRF ranking ``ranking`` (most important first)."""

    ids: tuple[int, ...]
    ranking: tuple[int, ...]


class Adapter(Protocol):
    """What the runner needs from an explainer."""

    name: str
    #: Whether the explanation set is a top-k of a score vector (k given by the runner).
    needs_k: bool

    def explain(self, text: str, seed: int, k: int | None = None) -> Attribution:
        """Explain class 1 of ``text``, seeding the explainer's randomness with ``seed``; ``k`` is the explanation's
        size for the explainers that return a top-k (``needs_k``)."""


def top_k(scores: Sequence[float], k: int) -> tuple[int, ...]:
    """Sorted positions of the k highest scores (ties: smaller position first).

    >>> top_k([0.1, 0.5, -1.0, 0.5], 2)
    (1, 3)
    """
    s = np.asarray(scores, dtype=float)
    k = check_int(k, "k", 0)
    order = sorted(range(s.size), key=lambda i: (-s[i], i))
    return tuple(sorted(order[:k]))


def _require_k(k: int | None, name: str) -> int:
    if k is None:
        raise ValueError(f"{name} needs k (the size of FRED's explanation of the same document)")
    return k


def _import(module: str, extra: str = "eval"):
    try:
        return import_optional(module, extra, "this explainer")
    except ImportError as err:  # the reason is shown to the user, not swallowed
        raise Unavailable(str(err)) from err


class FredAdapter:
    """FRED with a given sampler ("mask" or a :class:`fred.pos.PosSampler`)."""

    needs_k = False

    def __init__(self, name: str, predict_proba: Callable, sampler, p: float, eps: float,
                 n_samples: int | None, max_len: int = MAX_LEN, baseline: str = "mean", search: str = "auto"):
        self.name = name
        self.predict_proba = predict_proba
        self.sampler = sampler
        self.baseline = baseline
        self.search = search
        self.params = dict(p=p, eps=eps, n_samples=n_samples, max_len=max_len)

    def explain(self, text: str, seed: int, k: int | None = None) -> Attribution:
        """FRED's explanation of class 1, its selection and importances (``k`` unused: FRED chooses the size)."""
        fred = Fred(self.predict_proba, class_names=CLASS_NAMES, sampler=self.sampler, baseline=self.baseline,
                    search=self.search, random_state=seed)
        exp = fred.explain(text, label=POSITIVE, **self.params)
        return Attribution(tuple(exp.best_ids), positive_ranking(exp.importances))


def make_fredpos(predict_proba: Callable, corpus: Sequence[str], **params) -> FredAdapter:
    """FRED with POS sampling, its dictionaries built on ``corpus`` (the training texts)."""
    pos = _import("fred.pos", "pos")
    try:
        sampler = pos.PosSampler(corpus)
    except (ImportError, OSError) as err:  # spaCy model or VADER missing
        raise Unavailable(f"PosSampler could not be built ({err}); install the 'pos' extra") from err
    return FredAdapter("fredpos", predict_proba, sampler, **params)


class LimeAdapter:
    """LIME ``LimeTextExplainer(bow=False, split_expression=r"\\s+")``, all tokens weighted, :data:`LIME_SAMPLES`
    samples by default."""

    name = "lime"
    needs_k = True

    def __init__(self, predict_proba: Callable, num_samples: int = LIME_SAMPLES):
        self.lime_text = _import("lime.lime_text")
        self.predict_proba = predict_proba
        self.num_samples = num_samples

    def explain(self, text: str, seed: int, k: int | None = None) -> Attribution:
        """LIME's explanation: the ``k`` positions of largest coefficient (``k`` required)."""
        k = _require_k(k, self.name)
        n = len(text.split())
        explainer = self.lime_text.LimeTextExplainer(class_names=list(CLASS_NAMES), bow=False,
                                                     split_expression=r"\s+", random_state=seed)
        exp = explainer.explain_instance(text, self.predict_proba, labels=(POSITIVE,), num_features=n,
                                         num_samples=self.num_samples)
        scores = np.zeros(n)
        for position, weight in exp.as_map()[POSITIVE]:
            scores[position] = weight
        return Attribution(top_k(scores, k), positive_ranking(scores))


class ShapAdapter:
    """SHAP's default (partition) explainer over a whitespace ``Text`` masker with mask ``"UNK "``.

    The mask carries the separator because the masker replaces a token together
    with its trailing whitespace; a bare ``"UNK"`` would glue it to the next word.
    SHAP is deterministic, so ``seed`` is unused. One warm-up call at
    construction keeps SHAP's one-off start-up cost out of the measured times.
    """

    name = "shap"
    needs_k = True

    def __init__(self, predict_proba: Callable):
        shap = _import("shap")
        masker = shap.maskers.Text(r"\s+", mask_token="UNK ", collapse_mask_token=False)
        self.explainer = shap.Explainer(lambda texts: predict_proba(list(texts)), masker,
                                        output_names=list(CLASS_NAMES))
        self.explainer(["warm up call"], silent=True)

    def explain(self, text: str, seed: int, k: int | None = None) -> Attribution:
        """SHAP's explanation: the ``k`` positions of largest value for class 1 (``k`` required)."""
        k = _require_k(k, self.name)
        values = self.explainer([text], silent=True).values[0][:, POSITIVE]
        n = len(text.split())
        if values.shape != (n,):
            raise RuntimeError(f"SHAP returned {values.shape[0]} token values for {n} whitespace tokens")
        return Attribution(top_k(values, k), positive_ranking(values))


def token_starts(text: str) -> list[int]:
    """Character offset of each whitespace token of ``text``.

    >>> token_starts(" ab  c d")
    [1, 5, 7]
    """
    starts, inside = [], False
    for i, ch in enumerate(text):
        if not ch.isspace() and not inside:
            starts.append(i)
        inside = not ch.isspace()
    return starts


#: Held while anchor-exp runs on numpy's global generator (:class:`AnchorAdapter`).
_GLOBAL_RNG_LOCK = threading.Lock()


class AnchorAdapter:
    """Anchors (anchor-exp) with ``spacy.blank("en")`` and ``use_unk_distribution=True``, default parameters.

    anchor-exp draws from numpy's global generator and takes no seed, so the global
    generator is seeded for the duration of the call and its previous state restored
    afterwards: the only way to make a run reproducible without leaking global seeding.
    Calls are serialised by a lock, so that two threads of one dask worker cannot
    draw from the global generator at once.
    """

    name = "anchor"
    needs_k = False

    def __init__(self, predict: Callable):
        anchor_text = _import("anchor.anchor_text")
        spacy = _import("spacy")
        self.explainer = anchor_text.AnchorText(spacy.blank("en"), list(CLASS_NAMES), use_unk_distribution=True)
        self.predict = predict

    def explain(self, text: str, seed: int, k: int | None = None) -> Attribution:
        """The anchor anchor-exp returns, under numpy's global generator seeded with ``seed`` and restored after
        (``k`` unused)."""
        with _GLOBAL_RNG_LOCK:
            saved = np.random.get_state()
            np.random.seed(seed)
            try:
                exp = self.explainer.explain_instance(text, lambda texts: np.asarray(self.predict(list(texts))))
            finally:
                np.random.set_state(saved)
        starts = token_starts(text)
        order: list[int] = []
        for offset in exp.exp_map["positions"]:
            position = bisect.bisect_right(starts, offset) - 1
            if position not in order:
                order.append(position)
        return Attribution(tuple(sorted(order)), tuple(order))


def build_adapter(name: str, model, train_texts: Sequence[str], p: float, eps: float,
                  n_samples: int | None = None, lime_samples: int = LIME_SAMPLES, baseline: str = "mean",
                  search: str = "auto") -> Adapter:
    """The adapter ``name`` for a fitted scikit-learn text ``model``; :class:`Unavailable` if it cannot be built.
    ``n_samples``, ``baseline`` and ``search`` are FRED's (both samplers)."""
    fred_params = dict(p=p, eps=eps, n_samples=n_samples, baseline=baseline, search=search)
    if name == "fred":
        return FredAdapter("fred", model.predict_proba, "mask", **fred_params)
    if name == "fredpos":
        return make_fredpos(model.predict_proba, train_texts, **fred_params)
    if name == "lime":
        return LimeAdapter(model.predict_proba, lime_samples)
    if name == "shap":
        return ShapAdapter(model.predict_proba)
    if name == "anchor":
        return AnchorAdapter(model.predict)
    raise ValueError(f"explainer must be one of {EXPLAINERS}, got {name!r}")
