"""Black boxes the kit explains, and the spy that records what an explainer sends to the model.

Every black box is a table of f over the 2^b perturbation patterns of one document (code bit i set when
position i is perturbed), read by the exact referee (:mod:`analytic.referee`). On texts, a position counts as
perturbed when its token differs from the document's: the box works whatever mask token (or replacement word)
the explainer uses, and refuses a text that does not keep the document's b positions.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from analytic import linear_table, table_from_classifier
from analytic.beam import COUNTEREXAMPLE_TABLE
from analytic.prop2_shortcut import ShortcutModel

#: The outputs a black box can give: two class columns, or one regression value.
OUTPUTS = ("two_class", "regression")


def position_classifier(tokens: Sequence[str], table, output: str = "two_class") -> Callable:
    """Black box on texts reading f from ``table``: [1 - f, f] (``"two_class"``) or f (``"regression"``).

    Raises AssertionError on a text with a number of tokens other than b (no position can be read from it).

    >>> clf = position_classifier(["a", "b"], [0.0, 0.25, 0.5, 1.0])
    >>> clf(["a b", "UNK b", "a [MASK]", "x y"])[:, 1].tolist()
    [0.0, 0.25, 0.5, 1.0]
    """
    tokens = tuple(tokens)
    table = np.asarray(table, dtype=float)
    if table.shape != (2 ** len(tokens),):
        raise ValueError(f"table must have 2**b = {2 ** len(tokens)} entries, got shape {table.shape}")
    if output not in OUTPUTS:
        raise ValueError(f"output must be one of {OUTPUTS}, got {output!r}")
    codes: dict[str, int] = {}  # rows repeat: at most 2^b distinct masked texts

    def code_of(text: str) -> int:
        if text not in codes:
            got = text.split()
            if len(got) != len(tokens):
                raise AssertionError(f"the model received {text!r} ({len(got)} tokens) while explaining "
                                     f"{' '.join(tokens)!r} ({len(tokens)} tokens): a row must keep every position")
            codes[text] = sum(1 << i for i, (g, t) in enumerate(zip(got, tokens)) if g != t)
        return codes[text]

    def classify(texts: Sequence[str]) -> np.ndarray:
        f = table[np.fromiter((code_of(t) for t in texts), dtype=np.int64, count=len(texts))]
        return f if output == "regression" else np.column_stack([1.0 - f, f])

    return classify


@dataclass(frozen=True, eq=False)
class BlackBox:
    """A model on the perturbations of one document: f over the 2^b patterns, and what generated it.

    ``kind`` is "table" (arbitrary f), "linear" (f = intercept + sum of the weights of kept positions, Eq. 6 per
    position), "logistic" (the sigmoid of that), "shortcut" (f = 1{every word of ``words`` is present}, Prop. 2),
    "bag_of_words" (f = intercept + sum over kept tokens of the weight of their word) or "review" (a lexicon
    sentiment model where negations and stop words count, :func:`review_box`). f is a class score when it lies in
    [0, 1] (:func:`in_unit_interval`); a real-valued f is explained as a regression output.
    """

    kind: str
    tokens: tuple[str, ...]
    table: np.ndarray
    weights: tuple[float, ...] | None = None
    intercept: float | None = None
    words: tuple[str, ...] | None = None

    @property
    def text(self) -> str:
        """The document: the tokens joined by spaces."""
        return " ".join(self.tokens)

    @property
    def b(self) -> int:
        """The number of tokens."""
        return len(self.tokens)

    def column(self, label: int | None) -> np.ndarray:
        """f of the explained output: column 1 is f, column 0 is 1 - f, None (regression) is f."""
        return 1.0 - self.table if label == 0 else self.table

    def classifier_fn(self, output: str = "two_class") -> Callable:
        """The black box as a classifier function of texts (:func:`position_classifier`)."""
        return position_classifier(self.tokens, self.table, output)

    def scaled(self, factor: float) -> "BlackBox":
        """The same model times ``factor``."""
        return BlackBox(self.kind, self.tokens, self.table * factor, self.weights, self.intercept, self.words)

    def __repr__(self) -> str:
        """Short and readable (a failure message's example): the text, f on it, what generated the model, and the
        table itself only for an arbitrary f (the other kinds are given by their parameters)."""
        extra = {"weights": None if self.weights is None else [round(w, 4) for w in self.weights],
                 "intercept": None if self.intercept is None else round(self.intercept, 4), "words": self.words}
        if self.kind == "table":
            extra["table"] = np.round(self.table, 3).tolist()
        described = "".join(f", {k}={v}" for k, v in extra.items() if v is not None)
        return f"BlackBox({self.kind}, text={self.text!r}, f(text)={self.table[0]:.4g}{described})"


def linear_box(tokens: Sequence[str], weights: Sequence[float], intercept: float, link: str = "identity") -> BlackBox:
    """f = link(intercept + sum of the weights of the kept positions); link "identity" or "logistic"."""
    z = linear_table(list(weights), intercept)
    if link == "identity":
        return BlackBox("linear", tuple(tokens), z, tuple(float(w) for w in weights), float(intercept))
    if link == "logistic":
        return BlackBox("logistic", tuple(tokens), 1.0 / (1.0 + np.exp(-z)), tuple(float(w) for w in weights),
                        float(intercept))
    raise ValueError(f"link must be 'identity' or 'logistic', got {link!r}")


def shortcut_box(tokens: Sequence[str], words: Sequence[str]) -> BlackBox:
    """Prop. 2's model f = prod_j 1{w_j present} on a document holding every w_j."""
    model = ShortcutModel(tuple(words))
    model.multiplicities(tokens)  # refuses a document missing a word of J
    return BlackBox("shortcut", tuple(tokens), table_from_classifier(model, list(tokens)), words=tuple(words))


def review_box(tokens: Sequence[str], sentiment: dict[str, float], negations: Sequence[str] = (),
               stop_weights: dict[str, float] | None = None, intercept: float = 0.0) -> BlackBox:
    """A lexicon sentiment model on a review snippet: f = sigmoid(z), a class score in (0, 1), with z = intercept
    + the sentiment weight of each kept word, its sign flipped when the position just before holds a kept negation
    ("not good" is negative; once "not" is masked it is positive again), + the weight of each kept stop word.

    Negations and stop words decide the prediction here: an explainer that never selects them is caught.

    >>> box = review_box(("not", "good"), {"good": 2.0}, negations=("not",))
    >>> [round(float(f), 3) for f in box.table]  # codes: nothing, "not", "good", both perturbed
    [0.119, 0.881, 0.5, 0.5]
    """
    tokens, stop_weights, negations = tuple(tokens), dict(stop_weights or {}), frozenset(negations)
    b = len(tokens)
    z = np.full(2**b, float(intercept))
    for code in range(2**b):
        kept = [not code >> i & 1 for i in range(b)]
        for i, token in enumerate(tokens):
            if not kept[i]:
                continue
            weight = sentiment.get(token, 0.0)
            if i > 0 and kept[i - 1] and tokens[i - 1] in negations:
                weight = -weight
            z[code] += weight + stop_weights.get(token, 0.0)
    return BlackBox("review", tokens, 1.0 / (1.0 + np.exp(-z)), intercept=float(intercept))


def in_unit_interval(box: BlackBox) -> BlackBox:
    """The box itself when every f lies in [0, 1] (class scores); else a positive affine map of it into
    [1/4, 3/4] by a power of two and a dyadic shift, so dyadic tables stay dyadic (exact ties stay exact) and a
    linear box stays linear (its weights and intercept mapped too). Eq. (2)'s selection is not invariant to the
    shift, so the mapped box is another problem, not the same one in other units."""
    low, high = float(box.table.min()), float(box.table.max())
    if low >= 0.0 and high <= 1.0:
        return box
    scale = 2.0 ** np.ceil(np.log2(2.0 * (high - low))) if high > low else 1.0
    shift = 0.25 - low / scale
    weights = None if box.weights is None else tuple(float(w / scale) for w in box.weights)
    intercept = None if box.intercept is None else float(box.intercept / scale + shift)
    return BlackBox(box.kind, box.tokens, box.table / scale + shift, weights, intercept, box.words)


def bag_of_words_box(tokens: Sequence[str], word_weights: dict[str, float], intercept: float) -> BlackBox:
    """f = intercept + sum over kept tokens of their word's weight: a function of the kept counts only."""
    a = [float(word_weights.get(t, 0.0)) for t in tokens]
    return BlackBox("bag_of_words", tuple(tokens), linear_table(a, intercept), tuple(a), float(intercept))


# ------------------------------------------------------------------------------------ fixed boxes of the checks
#: Prop. 1's linear model on six tokens: f in [0.05, 0.95]; at p = 1/2 the best drops of sizes 1, 2 are 0.2, 0.3.
LINEAR = linear_box(("t0", "t1", "t2", "t3", "t4", "t5"), (0.4, -0.1, 0.2, 0.02, -0.1, 0.08), 0.25)
#: Separates the paper's threshold from the released code's: f = (kept count) / 2 on two tokens. At p = 1/2 and
#: eps = 5/8, eps E[f] = 5/16 needs both tokens (drops 1/4, 1/2) while eps f(xi) = 5/8 is met by one (drop
#: f(xi) - E[f | one perturbed] = 3/4): margins 1/16 and 1/8, above the kit's Monte Carlo tolerances.
BASELINE_SPLIT = linear_box(("good", "great"), (0.5, 0.5), 0.0)
#: The eps at which :data:`BASELINE_SPLIT`'s two baselines select differently.
BASELINE_SPLIT_EPS = 0.625
#: Column 0 wins on the document (f(xi) = 0.45), and columns 0 and 1 select different tokens.
LABEL_SPLIT = linear_box(("bad", "good"), (-0.3, 0.3), 0.45)
#: Column 0 wins on the document (f(xi) = 0.45) and column 1 on every perturbation of it (f >= 0.51): a label read
#: on a perturbed text instead of the document is the other class except with probability 2^-8 at p = 1/2.
LABEL_FLIP = linear_box(tuple(f"w{i}" for i in range(8)), (-0.06,) * 8, 0.93)

#: Review snippets where the negation decides: masking "not" flips the sentiment (weights +-3), so at p = 1/2 the
#: drop of "not" alone is about 0.23 and every other token's at most 0 (class 0 of the first, class 1 of the
#: second). A stop-word filter cannot select it.
NEGATED_GOOD = review_box(("the", "plot", "was", "not", "good"), {"good": 3.0}, ("not",))
#: "not" decides "this was not bad" (class 1), as it does "the plot was not good" (class 0).
NEGATED_BAD = review_box(("this", "was", "not", "bad"), {"bad": -3.0}, ("not",))


def beam_counterexample() -> BlackBox:
    """A 5-token table (p = 1/2, eps = 0.15) on which a width-4 beam returns another size than Algorithm 1 under
    both baselines (:data:`analytic.beam.COUNTEREXAMPLE_TABLE`, the algorithm1-beam claim's kit table; its minimal
    counterexample is another, see the claim)."""
    return BlackBox("table", ("ca", "cb", "cc", "cd", "ce"), np.array(COUNTEREXAMPLE_TABLE, dtype=float))


def lenient_classifier(tokens: Sequence[str]) -> Callable:
    """[1 - f, f] with f the share of positions holding the document's token; accepts any text (for the checks
    that read the rows themselves)."""
    tokens = tuple(tokens)

    def classify(texts: Sequence[str]) -> np.ndarray:
        f = np.array([sum(map(operator.eq, text.split(), tokens)) / len(tokens) for text in texts])
        return np.column_stack([1.0 - f, f])

    return classify


def vocabulary_classifier(vocabulary: frozenset[str]) -> Callable:
    """A word-presence model knowing ``vocabulary`` (lowercase words): [1 - f, f] with f the share of a text's tokens
    that are, lowercased, words of the vocabulary (a text's case folded, as scikit-learn's vectorizers do)."""

    def classify(texts: Sequence[str]) -> np.ndarray:
        f = np.array([sum(token.lower() in vocabulary for token in text.split()) / max(1, len(text.split()))
                      for text in texts])
        return np.column_stack([1.0 - f, f])

    return classify


class Spy:
    """Wraps a black box on texts and records every call (the texts, in order).

    The explainer's *rows* are the texts of every call except those made of the document alone (how FRED
    scores f(xi)); an explainer scoring the document within its batch of rows shows one row more.
    """

    def __init__(self, classifier_fn: Callable):
        self.classifier_fn = classifier_fn
        self.calls: list[list[str]] = []

    def __call__(self, texts):
        texts = list(texts)
        self.calls.append(texts)
        return self.classifier_fn(texts)

    def texts(self) -> list[str]:
        """Every text scored so far, in order."""
        return [t for call in self.calls for t in call]

    def rows(self, document: str) -> list[str]:
        """The texts scored in calls other than the one scoring ``document`` alone: the perturbed rows."""
        return [t for call in self.calls if call != [document] for t in call]

    def reset(self) -> None:
        """Forget the calls recorded so far."""
        self.calls.clear()


def read_patterns(texts: Sequence[str], tokens: Sequence[str]) -> tuple[np.ndarray, set[str], list[str]]:
    """(perturbed positions of each text, the tokens found at perturbed positions, texts not keeping b positions).

    Position i of a text is perturbed when its token differs from ``tokens[i]``. Texts with another number of
    tokens get an all-False row and are listed.
    """
    tokens = tuple(tokens)
    b = len(tokens)
    first: dict[str, int] = {}  # rows repeat: each distinct text is split and compared once
    which = np.fromiter((first.setdefault(text, len(first)) for text in texts), dtype=np.intp, count=len(texts))
    split = [text.split() for text in first]
    kept = np.fromiter((len(got) == b for got in split), dtype=bool, count=len(split))
    patterns = np.zeros((len(split), b), dtype=bool)
    replacements: set[str] = set()
    if kept.any():
        # Object arrays hold the Python strings themselves: the comparison is str's, and the replacements stay str.
        words = np.array([got for got, keeps in zip(split, kept) if keeps], dtype=object).reshape(-1, b)
        perturbed = words != np.array(tokens, dtype=object)
        patterns[kept] = perturbed
        replacements.update(words[perturbed].tolist())
    broken = [text for text, row in zip(texts, which) if not kept[row]]
    return patterns[which], replacements, broken
