"""Lines 348-349: replacing "great" by "amazing" will probably not change the prediction significantly; replacing it by
"bad" or "awful" will.

On the evaluation's TF-IDF logistic regression (``fred.evaluation.models.make_model("logistic")``, sklearn defaults,
deterministic) fitted on the Restaurants training split the evaluation uses (seed 0, 750 reviews), the change of f
(the positive class's probability) when every "great" of a review becomes "amazing", "bad" or "awful". A change is
*significant* when it reaches eps f(xi), the paper's own yardstick of a drop that matters (Eq. 5's threshold, eps =
0.15 by default, line 402; ``fred_constants.EPS``); the sensitivity to eps is recorded. Checked on the figure's
document and on every Restaurants review holding the word "great".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fred.evaluation.datasets import load_dataset, split_dataset
from fred.evaluation.models import make_model
from fred_constants import EPS

from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult
from .figure2 import EXAMPLE
from .restaurants import logistic_model, missing_data

CLAIM = Claim("pos-great-amazing", new=True)
AMAZING = Quote(348, r"Indeed, in the example of Figure~\ref{fig:sampling-scheme}, replacing the word \say{great} with "
                     r"the word \say{amazing,} will probably not result in any significant change in prediction.")
BAD = Quote(349, r"Contrarily, replacing it with \say{bad} or \say{awful} will highlight its impact.")
PURPOSE = Quote(347, r"Additionally, to highlight the difference in prediction,")
EPS_DEFAULT = Quote(402, r"By default, we set $\epsilon=0.15$")
SOURCE = (AMAZING, BAD, EXAMPLE, PURPOSE, EPS_DEFAULT)
READINGS = (
    Reading("probably", "headline", "For most reviews holding 'great' (more than half: 'probably'), great -> amazing "
            "changes f by less than eps f(xi) while great -> bad and great -> awful each lower it by at least eps "
            "f(xi).", why=(AMAZING, EPS_DEFAULT)),
    Reading("example", "stronger", "The same on the figure's document itself, with certainty.", why=(AMAZING, EXAMPLE)),
    Reading("contrast", "weaker", "On the figure's document, great -> amazing changes f less than great -> bad and "
            "great -> awful lower it (line 347: 'to highlight the difference in prediction').", why=(PURPOSE, BAD)),
    Reading("class", "alternative", "Significant means a change of predicted class (threshold 1/2): on the figure's "
            "document amazing keeps the class, bad and awful change it.", why=(AMAZING,)),
)
STATEMENT = ("Lines 348-349: replacing 'great' by 'amazing' probably leaves the prediction about unchanged, while "
             "replacing it by 'bad' or 'awful' changes it significantly.")
CONDITIONS = ("TfidfVectorizer() + LogisticRegression() (sklearn defaults) fitted on the evaluation's Restaurants "
              "training split (split_dataset(seed=0), 750 reviews); f = the positive class's probability; every "
              "token 'great' of a preprocessed review replaced; significant = |change| >= eps f(xi), eps = 0.15.")
#: The figure's document, preprocessed as the evaluation reads reviews (line 301 prints it capitalised).
DOCUMENT = "poor drinks decent food great service"
#: The replacements the two sentences name.
WORDS = ("amazing", "bad", "awful")
#: 'Probably': more likely than not.
PROBABLY = 0.5
#: The eps of the sensitivity table.
EPS_GRID = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5)


@dataclass(frozen=True, eq=False)
class Swaps:
    """f of each review and of its swapped versions: ``base[i]`` and ``swapped[w][i]``."""

    texts: tuple[str, ...]
    base: np.ndarray
    swapped: dict

    def holds_at(self, eps: float) -> np.ndarray:
        """Per review: amazing's change below eps f, bad's and awful's drops at least eps f."""
        bar = eps * self.base
        return ((np.abs(self.swapped["amazing"] - self.base) < bar) & (self.base - self.swapped["bad"] >= bar)
                & (self.base - self.swapped["awful"] >= bar))

    def relative(self, i: int) -> dict[str, float]:
        """Review i's change for each word, as a fraction of its f (negative: a drop)."""
        return {w: float((self.swapped[w][i] - self.base[i]) / self.base[i]) for w in WORDS}


def swap(text: str, word: str) -> str:
    """Every token 'great' of ``text`` replaced by ``word``.

    >>> swap("great food great service not greatest", "bad")
    'bad food bad service not greatest'
    """
    return " ".join(word if t == "great" else t for t in text.split())


def swaps(model, texts) -> Swaps:
    """f before and after each swap, for ``texts``."""
    f = lambda batch: model.predict_proba(list(batch))[:, 1]
    return Swaps(tuple(texts), f(texts), {w: f([swap(t, w) for t in texts]) for w in WORDS})


def deterministic(model, texts) -> StepResult:
    """p1: the model is a deterministic function of the data (a second fit predicts the same), and the steps see every
    review holding 'great'."""
    data = load_dataset("restaurants")
    x_train, _, y_train, _ = split_dataset(data, seed=0)
    again = make_model("logistic").fit(x_train, y_train)
    gap = float(np.max(np.abs(again.predict_proba(list(texts))[:, 1] - model.predict_proba(list(texts))[:, 1])))
    holding = [t for t in data.texts if "great" in t.split()]
    trained = sum("great" in t.split() for t in x_train)
    return CLAIM.checked(
        "p1-deterministic-and-whole", "proof", "exhaustive",
        f"A second fit gives the same f on the reviews (largest difference {gap:.1e}); the corpus' reviews holding "
        f"'great': {len(holding)} of {len(data.texts)}, all checked ({trained} of them in the training split).",
        holds=gap == 0.0 and len(holding) == len(texts),
        values={"refit_gap": gap, "reviews_with_great": len(holding), "in_training_split": trained,
                "corpus": len(data.texts)})


def corpus_probably(seen: Swaps) -> StepResult:
    """s1: the headline: in most reviews holding 'great' the three changes are as the sentences say, at eps = 0.15."""
    share = {eps: float(np.mean(seen.holds_at(eps))) for eps in EPS_GRID}
    bad = [i for i in np.flatnonzero(~seen.holds_at(EPS))]
    return CLAIM.checked(
        "s1-most-reviews", "statement", "exhaustive",
        f"Over the {len(seen.texts)} Restaurants reviews holding 'great', at eps = {EPS}: amazing's change below eps "
        f"f(xi) and bad's and awful's drops at least eps f(xi) in {int(seen.holds_at(EPS).sum())} "
        f"({share[EPS]:.3f} > {PROBABLY}: 'probably'). Share against eps: "
        + ", ".join(f"{e}: {s:.3f}" for e, s in share.items()) + ".",
        holds=share[EPS] > PROBABLY, reading="probably",
        values={"reviews": len(seen.texts), "share_by_eps": {str(e): s for e, s in share.items()},
                "not_so": [{"review": seen.texts[i], "relative_change": seen.relative(i)} for i in bad]})


def on_the_example(seen: Swaps) -> StepResult:
    """s2: the figure's document at eps = 0.15, and the range of eps where the three conditions hold on it."""
    rel = seen.relative(0)
    low, high = abs(rel["amazing"]), min(-rel["bad"], -rel["awful"])
    return CLAIM.checked(
        "s2-figure-document", "statement", "exhaustive",
        f"'{DOCUMENT}': f(xi) = {seen.base[0]:.4f}; great -> amazing changes f by {rel['amazing']:+.4f} f(xi), -> bad "
        f"by {rel['bad']:+.4f} f(xi), -> awful by {rel['awful']:+.4f} f(xi). At eps = {EPS} amazing's change "
        f"{'is' if low >= EPS else 'is not'} significant; the three conditions hold on this document exactly for eps "
        f"in ({low:.4f}, {high:.4f}]{', which leaves out the default' if not low < EPS <= high else ''}.",
        holds=bool(seen.holds_at(EPS)[0]), reading="example",
        values={"f": float(seen.base[0]), "relative_change": rel, "eps_range": [low, high], "eps": EPS})


def contrast(seen: Swaps) -> StepResult:
    """s3: the weaker reading: amazing changes f less than bad and awful lower it, on the figure's document (and the
    share of reviews where it does)."""
    changes = {w: np.abs(seen.swapped[w] - seen.base) for w in WORDS}
    each = (changes["amazing"] < changes["bad"]) & (changes["amazing"] < changes["awful"])
    return CLAIM.checked(
        "s3-contrast", "statement", "exhaustive",
        f"On '{DOCUMENT}': |change| amazing {changes['amazing'][0]:.4f} < bad {changes['bad'][0]:.4f} and awful "
        f"{changes['awful'][0]:.4f}: {bool(each[0])} (amazing's change "
        f"{min(changes['bad'][0], changes['awful'][0]) / changes['amazing'][0]:.1f} times smaller); so in "
        f"{int(each[1:].sum())} of the {len(each) - 1} reviews holding 'great'.",
        holds=bool(each[0]), reading="contrast",
        values={"figure_document": {w: float(c[0]) for w, c in changes.items()},
                "reviews_where_so": int(each[1:].sum()), "reviews": len(each) - 1})


def class_change(seen: Swaps) -> StepResult:
    """s4: the alternative yardstick, a change of predicted class, on the figure's document."""
    side = {w: bool(seen.swapped[w][0] >= 0.5) for w in WORDS}
    base = bool(seen.base[0] >= 0.5)
    return CLAIM.checked(
        "s4-class-change", "statement", "exhaustive",
        f"On '{DOCUMENT}' (f = {seen.base[0]:.4f}, positive: {base}): after amazing f = "
        f"{seen.swapped['amazing'][0]:.4f}, "
        f"bad {seen.swapped['bad'][0]:.4f}, awful {seen.swapped['awful'][0]:.4f}; amazing keeps the class: "
        f"{side['amazing'] == base}, bad and awful change it: {side['bad'] != base and side['awful'] != base}.",
        holds=side["amazing"] == base and side["bad"] != base and side["awful"] != base, reading="class",
        values={"f": float(seen.base[0]), "after": {w: float(seen.swapped[w][0]) for w in WORDS}})


def check() -> ClaimResult:
    """The three swaps on the figure's document and on every review holding 'great'."""
    why = missing_data()
    if why:
        return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                            steps=(CLAIM.argued("s1-most-reviews", "statement", f"Not run here: {why}.",
                                                reading="probably"),), source=SOURCE, readings=READINGS)
    model, _ = logistic_model()
    corpus = load_dataset("restaurants").texts
    holding = [t for t in corpus if "great" in t.split()]
    seen = swaps(model, [DOCUMENT, *holding])
    reviews = Swaps(seen.texts[1:], seen.base[1:], {w: v[1:] for w, v in seen.swapped.items()})
    steps = (deterministic(model, holding), corpus_probably(reviews), on_the_example(seen), contrast(seen),
             class_change(seen))
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)
