"""Lines 348-349: in the example of Figure 2, replacing "great" by "amazing" will probably not change the prediction
significantly; replacing it by "bad" or "awful" will.

The sentence is about the figure's document ("in the example of Figure 2") and an unspecified model; "probably" hedges
what such a model does on it. So the headline is the example under uncertainty about the model: the evaluation's
TF-IDF logistic regression (``fred.evaluation.models.make_model("logistic")``, sklearn defaults, deterministic) is
refitted on :data:`N_SPLITS` random training splits of the Restaurants reviews (``split_dataset(seed=s)``, the split
the evaluation uses, its seeds s drawn by ``numpy.random.default_rng``), and the figure's document is scored by each.
A change is *significant* when it reaches eps f(xi) (eps = 0.15, FRED's default threshold, line 402; FRED itself
measures it against the samples' mean prediction, not f(xi), and Figure 1 applies eps = 0.5 to this very document);
the sensitivity to eps is recorded.

The verdict rule for "probably", declared before the splits are drawn: with k of the n models meeting the three
conditions, the Clopper-Pearson interval for the share at the suite's false-alarm probability DELTA decides it: it
holds when the interval lies above 1/2, fails when it lies below, and is inconclusive when it straddles 1/2. The
headline has two parts: line 349 (bad and awful highlight the impact) and line 348 (amazing: no significant change);
the paper gives no threshold for 'significant', so line 348's part is undetermined (inconclusive) when the rule's
verdict changes between eps = 0.1 and 0.2: the choice of eps decides it, not the number of models. The
evaluation's own model (split seed 0) and the corpus of reviews holding 'great' are reported beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fred.evaluation.datasets import load_dataset, split_dataset
from fred.evaluation.models import make_model
from fred_constants import DELTA, EPS

from ...statistics.intervals import clopper_pearson
from ...statistics.seeds import statistical_seed
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult
from .figure2 import EXAMPLE, HIGHLIGHT
from .restaurants import logistic_model, missing_data

CLAIM = Claim("pos-great-amazing", new=True)
AMAZING = Quote(348, r"Indeed, in the example of Figure~\ref{fig:sampling-scheme}, replacing the word \say{great} with "
                     r"the word \say{amazing,} will probably not result in any significant change in prediction.")
PURPOSE = Quote(347, r"Additionally, to highlight the difference in prediction,")
EPS_DEFAULT = Quote(402, r"By default, we set $\epsilon=0.15$")
FIGURE1_EPS = Quote(134, r"\textbf{(a)} FRED identifies the minimal subset of tokens that, if removed, make the "
                         r"prediction drop by a specified threshold $\epsilon(=0.5$).")
SOURCE = (AMAZING, HIGHLIGHT, EXAMPLE, PURPOSE, EPS_DEFAULT, FIGURE1_EPS)
READINGS = (
    Reading("example", "headline", "On the figure's document (line 348: 'in the example of Figure 2'), the model "
            "unspecified: most models of the evaluation's kind, fitted on a random training split ('probably'), "
            "lower f by at least eps f(xi) under great -> bad and great -> awful (line 349's part) and change it by "
            "less than eps f(xi) under great -> amazing (line 348's part), eps = 0.15; 'significant' has no threshold "
            "in the paper, so the amazing part is decided over eps in [0.1, 0.2].", why=(AMAZING, EXAMPLE, EPS_DEFAULT)),
    Reading("one-model", "stronger", "The same on the figure's document for the evaluation's own model (split seed "
            "0), with certainty.", why=(AMAZING, EXAMPLE)),
    Reading("contrast", "weaker", "On the figure's document, great -> bad and great -> awful lower f more than great "
            "-> amazing changes it, for most models ('to highlight the difference in prediction', line 347: the "
            "point of lines 347-349).", why=(PURPOSE, HIGHLIGHT)),
    Reading("class", "alternative", "Significant means a change of predicted class (threshold 1/2): on the figure's "
            "document the evaluation's model keeps the class under amazing and changes it under bad and awful.",
            why=(AMAZING,)),
    Reading("corpus", "alternative", "This project's rewrite, supporting context only (line 348 names the figure's "
            "example): for most Restaurants reviews holding 'great', the evaluation's model meets the three "
            "conditions.", why=(AMAZING,)),
)
STATEMENT = ("Lines 348-349: on the figure's document, replacing 'great' by 'amazing' probably leaves the prediction "
             "about unchanged, while replacing it by 'bad' or 'awful' changes it significantly.")
CONDITIONS = ("TfidfVectorizer() + LogisticRegression() (sklearn defaults) fitted on Restaurants training splits "
              "(split_dataset(seed=s), 750 reviews): 100 random seeds s for the headline, s = 0 (the evaluation's) "
              "for the one-model, class and corpus readings; f = the positive class's probability; every token "
              "'great' of a preprocessed review replaced; significant = |change| >= eps f(xi), eps = 0.15 (FRED's "
              "default, which FRED measures against the samples' mean prediction; Figure 1 uses eps = 0.5 on this "
              "document).")
#: The figure's document, preprocessed as the evaluation reads reviews (line 301 prints it capitalised).
DOCUMENT = "poor drinks decent food great service"
#: The replacements the two sentences name.
WORDS = ("amazing", "bad", "awful")
#: 'Probably': more likely than not.
PROBABLY = 0.5
#: The eps of the sensitivity table.
EPS_GRID = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5)
#: Training splits refitted for the headline (about 4 s on this machine).
N_SPLITS = 100
#: Default seed of the split seeds (re-drawn by FRED_STATISTICAL_SEED).
SEED = 348


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


def split_swaps(rng: np.random.Generator) -> tuple[Swaps, list[int]]:
    """The figure's document and its three swaps scored by :data:`N_SPLITS` models, each refitted on the training
    split ``split_dataset(seed=s)`` of a seed s drawn from ``rng`` (one 'text' per split)."""
    data = load_dataset("restaurants")
    seeds = [int(s) for s in rng.integers(0, 2**31 - 1, N_SPLITS)]
    texts = [DOCUMENT, *(swap(DOCUMENT, w) for w in WORDS)]
    scores = np.array([make_model("logistic").fit(*split_dataset(data, seed=s)[::2]).predict_proba(texts)[:, 1]
                       for s in seeds])
    return Swaps(tuple(f"split {s}" for s in seeds), scores[:, 0],
                 {w: scores[:, k + 1] for k, w in enumerate(WORDS)}), seeds


def probably(k: int, n: int) -> tuple[str, list[float]]:
    """The declared rule for 'probably' (module docstring): k of n models, the Clopper-Pearson interval at DELTA
    above 1/2 holds, below fails, else inconclusive.

    >>> probably(100, 100)[0], probably(50, 100)[0], probably(0, 100)[0]
    ('holds', 'inconclusive', 'fails')
    """
    low, high = (float(v) for v in clopper_pearson(k, n, DELTA))
    return ("holds" if low > PROBABLY else "fails" if high < PROBABLY else "inconclusive"), [low, high]


def smallest_holding(n: int) -> int:
    """The smallest count k of n for which :func:`probably` holds."""
    low, _ = clopper_pearson(np.arange(n + 1), n, DELTA)
    return int(np.flatnonzero(low > PROBABLY)[0])


#: The two parts of lines 348-349 (steps' ``part=``).
HIGHLIGHTS, NO_CHANGE = "bad/awful highlight the impact (line 349)", "amazing: no significant change (line 348)"
#: The band of eps the amazing part is decided over: the paper gives no threshold for 'significant' (line 348).
EPS_BAND = (0.1, 0.2)


def splits_amazing(seen: Swaps, one: Swaps, seeds: list[int], seed: int) -> StepResult:
    """s1: line 348's part: the share of the refitted models where amazing's change stays below eps f(xi) on the
    figure's document, decided by the declared rule at eps = 0.15 and undetermined when the rule's verdict changes
    within EPS_BAND ('significant' is undefined: the knife-edge is the choice of eps, not the sample size)."""
    n, change = len(seeds), np.abs(seen.swapped["amazing"] - seen.base) / seen.base
    counts = {eps: int((change < eps).sum()) for eps in EPS_GRID}
    verdict, interval = probably(counts[EPS], n)
    band = {eps: probably(int((change < eps).sum()), n)[0] for eps in EPS_BAND}
    flips = (one.base[0] >= 0.5) != (one.swapped["amazing"][0] >= 0.5)
    return CLAIM.checked(
        "s1-splits-figure-document", "statement", "statistical",
        f"'{DOCUMENT}' scored by the evaluation's model refitted on {n} random training splits (seeds from "
        f"default_rng({seed})): amazing's change below eps f(xi) in " + ", ".join(
            f"{c} (eps = {e})" for e, c in counts.items()) + f" of {n}; median |change| {np.median(change):.3f} "
        f"f(xi), right at eps = {EPS}. The declared rule (Clopper-Pearson at {DELTA:g} against 1/2): {verdict} at "
        f"eps = {EPS} [{interval[0]:.3f}, {interval[1]:.3f}], {band[EPS_BAND[0]]} at eps = {EPS_BAND[0]}, "
        f"{band[EPS_BAND[1]]} at eps = {EPS_BAND[1]}. The paper gives no threshold for 'significant' (eps = {EPS} is "
        "FRED's default, measured against the samples' mean prediction; Figure 1 applies 0.5 to this document), so "
        "the choice of eps decides this part, not the number of models: undetermined. And amazing flips the "
        f"evaluation's model's class: {one.base[0]:.3f} -> {one.swapped['amazing'][0]:.3f} ({flips}).",
        holds=verdict == "holds", conclusive=len(set(band.values())) == 1 and verdict != "inconclusive",
        reading="example", part=NO_CHANGE,
        values={"splits": n, "count_by_eps": {str(e): c for e, c in counts.items()}, "interval": interval,
                "rule": verdict, "rule_in_band": {str(e): v for e, v in band.items()},
                "median_relative_change": float(np.median(change)), "split_seeds": seeds,
                "relative_change": {w: [float(v) for v in (seen.swapped[w] - seen.base) / seen.base] for w in WORDS},
                "seed0_amazing_flips_class": bool(flips), "seed0_f": [float(one.base[0]),
                                                                       float(one.swapped["amazing"][0])],
                "false_alarm_probability": DELTA, "seed": seed})


def splits_highlight(seen: Swaps, seed: int) -> StepResult:
    """s6: line 349's part: bad and awful both lower f by at least eps f(xi) on the figure's document, in most
    refitted models (the declared rule), and how often they flip the predicted class."""
    bar, n = EPS * seen.base, seen.base.size
    both = (seen.base - seen.swapped["bad"] >= bar) & (seen.base - seen.swapped["awful"] >= bar)
    flip = (seen.base >= 0.5) & (seen.swapped["bad"] < 0.5) & (seen.swapped["awful"] < 0.5)
    verdict, interval = probably(int(both.sum()), n)
    return CLAIM.checked(
        "s6-bad-awful-highlight", "statement", "statistical",
        f"On '{DOCUMENT}', over the {n} refitted models: bad's and awful's drops both at least eps f(xi) (eps = "
        f"{EPS}) in {int(both.sum())} of {n} (Clopper-Pearson at {DELTA:g} [{interval[0]:.3f}, {interval[1]:.3f}]: "
        f"{verdict}); both flip the predicted class (positive to negative) in {int(flip.sum())} of {n}.",
        holds=verdict == "holds", conclusive=verdict != "inconclusive", reading="example", part=HIGHLIGHTS,
        values={"splits": n, "count": int(both.sum()), "class_flips": int(flip.sum()), "interval": interval,
                "rule": verdict, "false_alarm_probability": DELTA, "seed": seed})


def on_the_example(seen: Swaps) -> StepResult:
    """s2: the evaluation's own model (split seed 0) on the figure's document at eps = 0.15, and the range of eps where
    the three conditions hold on it."""
    rel = seen.relative(0)
    low, high = abs(rel["amazing"]), min(-rel["bad"], -rel["awful"])
    return CLAIM.checked(
        "s2-seed0-figure-document", "statement", "exhaustive",
        f"The evaluation's model (split seed 0) on '{DOCUMENT}': f(xi) = {seen.base[0]:.4f}; great -> amazing changes "
        f"f by {rel['amazing']:+.4f} f(xi), -> bad by {rel['bad']:+.4f} f(xi), -> awful by {rel['awful']:+.4f} f(xi). "
        f"At eps = {EPS} amazing's change {'is' if low >= EPS else 'is not'} significant; the three conditions hold on "
        f"this document for this model exactly for eps in ({low:.4f}, {high:.4f}]"
        f"{', which leaves out the default' if not low < EPS <= high else ''}.",
        holds=bool(seen.holds_at(EPS)[0]), reading="one-model",
        values={"f": float(seen.base[0]), "relative_change": rel, "eps_range": [low, high], "eps": EPS})


def contrast(splits: Swaps, seen: Swaps, seed: int) -> StepResult:
    """s3: the weaker reading: bad's and awful's drops exceed amazing's change on the figure's document, in most
    refitted models (the declared rule), with the ratio of the changes."""
    amazing = np.abs(splits.swapped["amazing"] - splits.base)
    ratio = {w: (splits.base - splits.swapped[w]) / amazing for w in ("bad", "awful")}
    each = (ratio["bad"] > 1) & (ratio["awful"] > 1)
    verdict, interval = probably(int(each.sum()), each.size)
    smaller = np.minimum(ratio["bad"], ratio["awful"])
    one = {w: float(abs(seen.swapped[w][0] - seen.base[0])) for w in WORDS}
    return CLAIM.checked(
        "s3-contrast", "statement", "statistical",
        f"On '{DOCUMENT}', over the {each.size} refitted models: bad's and awful's drops both exceed amazing's change "
        f"in {int(each.sum())} of {each.size} (Clopper-Pearson at {DELTA:g} [{interval[0]:.3f}, {interval[1]:.3f}]: "
        f"{verdict}); median ratio drop / |amazing's change| {np.median(ratio['bad']):.2f} for bad, "
        f"{np.median(ratio['awful']):.2f} for awful (the smaller of the two from {smaller.min():.2f} to "
        f"{smaller.max():.2f}). The evaluation's model: |change| amazing {one['amazing']:.4f}, bad {one['bad']:.4f}, "
        f"awful {one['awful']:.4f}.",
        holds=verdict == "holds", conclusive=verdict != "inconclusive", reading="contrast",
        values={"splits": int(each.size), "count": int(each.sum()), "interval": interval, "rule": verdict,
                "median_ratio": {w: float(np.median(r)) for w, r in ratio.items()},
                "smaller_ratio_range": [float(smaller.min()), float(smaller.max())], "seed0_changes": one,
                "false_alarm_probability": DELTA, "seed": seed})


def class_change(seen: Swaps) -> StepResult:
    """s4: the alternative yardstick, a change of predicted class, on the figure's document (the evaluation's
    model)."""
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


def corpus_reviews(seen: Swaps) -> StepResult:
    """s5: supporting context (this project's rewrite): in most reviews holding 'great' the three changes are as the
    sentences say, at eps = 0.15, for the evaluation's model."""
    share = {eps: float(np.mean(seen.holds_at(eps))) for eps in EPS_GRID}
    bad = [i for i in np.flatnonzero(~seen.holds_at(EPS))]
    return CLAIM.checked(
        "s5-corpus-reviews", "statement", "exhaustive",
        f"Supporting context only (line 348 is about the figure's example): over the {len(seen.texts)} Restaurants "
        f"reviews holding 'great', at eps = {EPS}, the evaluation's model: amazing's change below eps f(xi) and bad's "
        f"and awful's drops at least eps f(xi) in {int(seen.holds_at(EPS).sum())} ({share[EPS]:.3f} > {PROBABLY}). "
        "Share against eps: " + ", ".join(f"{e}: {s:.3f}" for e, s in share.items()) + ".",
        holds=share[EPS] > PROBABLY, reading="corpus",
        values={"reviews": len(seen.texts), "share_by_eps": {str(e): s for e, s in share.items()},
                "not_so": [{"review": seen.texts[i], "relative_change": seen.relative(i)} for i in bad]})


def check() -> ClaimResult:
    """The three swaps on the figure's document for 100 refitted models, for the evaluation's model, and on every
    review holding 'great'."""
    why = missing_data()
    if why:
        return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                            steps=(CLAIM.argued("s1-splits-figure-document", "statement", f"Not run here: {why}.",
                                                reading="example"),), source=SOURCE, readings=READINGS)
    model, _ = logistic_model()
    corpus = load_dataset("restaurants").texts
    holding = [t for t in corpus if "great" in t.split()]
    seen = swaps(model, [DOCUMENT, *holding])
    reviews = Swaps(seen.texts[1:], seen.base[1:], {w: v[1:] for w, v in seen.swapped.items()})
    seed = statistical_seed(SEED)
    splits, seeds = split_swaps(np.random.default_rng(seed))
    steps = (deterministic(model, holding), splits_highlight(splits, seed), splits_amazing(splits, seen, seeds, seed),
             on_the_example(seen),
             contrast(splits, seen, seed), class_change(seen), corpus_reviews(reviews))
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)
