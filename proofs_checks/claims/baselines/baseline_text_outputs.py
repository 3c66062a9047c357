"""Lines 194-195 (again at line 1166): LIME, SHAP and Anchors address text classification; "LIME and SHAP assign
importance scores to tokens, while Anchors target the most significant token set for the prediction."

Line 195 is related work describing the methods in general, so its headline reading is the methods' principle (line
1166: "share the principle of attributing an importance score for each token"): LIME and SHAP give the tokens of a
text importance scores, Anchors return a set of its tokens. It is checked on each official package (line 1164) at
its default parameters, on a document with a repeated word ("good food good service": 4 tokens, 3 distinct words),
where a score per token and a score per word type differ: lime (``LimeTextExplainer()``, bow=True), shap with
``maskers.Text()`` (shap's default text masker, the released call), anchor-exp's ``AnchorText`` (on
``spacy.blank('en')``: no model download). Every token receives a score; lime's defaults weight at most
num_features = 10 words, so the 'defaults' reading is limited to documents of at most 10 distinct words (on 12, lime
weights 10: step c2). At lime's default the score is per word type, so the occurrences of a repeated word share one score: a precision, in the precise statement, not a failing
reading. That the released explainer calls lime with bow=False (one score per position) is claim
experiment-protocol-defaults' (its step c1), not repeated here.
"""

from __future__ import annotations

import inspect

import numpy as np

from ...paper.baselines import ALL_DEFAULTS, absent_step, package_versions
from ...verdicts.results import (
    Claim,
    ClaimResult,
    Quote,
    Reading,
    StepResult,
)

CLAIM = Claim("baseline-text-outputs", new=True)
TEXT = Quote(194, "LIME, SHAP, and Anchors address text classification.")
TOKENS = Quote(195, "LIME and SHAP assign importance scores to tokens, while Anchors target the most significant token "
                    "set for the prediction.")
APPENDIX = Quote(1166, "Remark that while LIME and SHAP share the principle of attributing an importance score for "
                       "each token, Anchor aim at outputting the most significant subset of tokens")
SOURCE = (TOKENS, TEXT, APPENDIX, ALL_DEFAULTS)
READINGS = (
    Reading("principle", "headline", "The methods, as line 195 describes them in related work: LIME and SHAP give the "
            "tokens of a text importance scores, Anchors return a set of its tokens.",
            why=(TOKENS, APPENDIX)),
    Reading("defaults", "alternative", "Each official package called with all its default parameters (line 1164) "
            "does so on documents of at most num_features = 10 distinct words (lime's default; beyond, lime weights "
            "only 10 words, c2, as baseline-lime's 'defaults-any-length' finds): lime and shap give every token a "
            "score, anchor-exp returns a set of tokens.", why=(ALL_DEFAULTS,)),
)
STATEMENT = ("Lines 194-195 (again at 1166): LIME, SHAP and Anchors address text classification; LIME and SHAP "
             "assign importance scores to tokens, while Anchors target the most significant token set for the "
             "prediction.")
CONDITIONS = (
    "lime 0.2.0.1, shap, anchor-exp as installed (versions in the values), each at its default parameters: "
    "LimeTextExplainer() (bow=True), random_state=0, 500 samples (a short document: its 3 word types are within lime's "
    "default num_features = 10); shap.Explainer(f, shap.maskers.Text()) (shap's text masker with its defaults, the "
    "released call); AnchorText(spacy.blank('en'), classes).explain_instance(text, labels) (the released call loads "
    "en_core_web_lg, whose English tokenizer is the blank pipeline's), numpy's seed 0. The classifier: P(positive) = "
    "logistic(2 #good - 2 #bad). Document: 'good food good service' (4 tokens, 3 distinct words). A token is a "
    "position of the document in the package's own split (whitespace words here).")
DOCUMENT = "good food good service"
#: The classifier's word scores.
SCORES = {"good": 2.0, "bad": -2.0}
SEED, LIME_SAMPLES = 0, 500


def probabilities(texts) -> np.ndarray:
    """[P(negative), P(positive)] with P(positive) = logistic(sum of SCORES)."""
    s = np.array([sum(SCORES.get(w, 0.0) for w in str(t).split()) for t in texts])
    p = 1.0 / (1.0 + np.exp(-s))
    return np.column_stack([1.0 - p, p])


def lime_scores(document: str) -> list[list]:
    """lime's (feature id, word, weight, token positions) for class 1 at its defaults, one entry per feature it
    scored; the token positions are those of the feature's occurrences among the document's words."""
    from lime.lime_text import LimeTextExplainer

    exp = LimeTextExplainer(random_state=SEED).explain_instance(document, probabilities, num_samples=LIME_SAMPLES)
    words = exp.domain_mapper.indexed_string
    slots = sorted(int(i) for f in range(words.num_words()) for i in np.atleast_1d(words.positions[f]))
    return [[int(f), str(words.word(f)), float(w), [slots.index(int(i)) for i in np.atleast_1d(words.positions[f])]]
            for f, w in exp.as_map()[1]]


def shap_scores(document: str) -> list[list]:
    """shap's (token, value) for class 1 with the released masker."""
    import shap

    values = shap.Explainer(probabilities, shap.maskers.Text())([document])
    return [[str(t), float(v)] for t, v in zip(values.data[0], values.values[0][:, 1])]


def anchor_set(document: str) -> dict:
    """anchor-exp's explanation: the anchor's token positions and words, its precision, and whether the object
    carries anything per token beyond the set (its public attributes)."""
    import spacy
    from anchor.anchor_text import AnchorText

    state = np.random.get_state()
    try:
        np.random.seed(SEED)
        exp = AnchorText(spacy.blank("en"), ["negative", "positive"]).explain_instance(
            document, lambda texts: (probabilities(texts)[:, 1] > 0.5).astype(int))
    finally:
        np.random.set_state(state)
    return {"positions": [int(f) for f in exp.features()], "names": [str(n) for n in exp.names()],
            "precision": float(exp.precision()), "coverage": float(exp.coverage()),
            "attributes": sorted(a for a in dir(exp) if not a.startswith("_"))}


def address_text(seen: dict) -> StepResult:
    """s0: each package explained a text classifier on a document (each returned an explanation)."""
    returned = {"lime": bool(seen["lime"]), "shap": bool(seen["shap"]), "anchor-exp": bool(seen["anchor"]["positions"])}
    return CLAIM.checked(
        "s0-text-classification", "statement", "exhaustive",
        f"Each package's text explainer explained the text classifier on '{DOCUMENT}': an explanation returned by "
        f"{returned} (lime.lime_text.LimeTextExplainer, shap's maskers.Text, anchor.anchor_text.AnchorText).",
        holds=all(returned.values()), values=returned)


def every_token_scored(seen: dict) -> StepResult:
    """s1: at their defaults, lime and shap give every token of the document a score, anchor-exp a set of token
    positions; lime's scores are per word type (a token's score is its word's)."""
    n = len(DOCUMENT.split())
    lime_tokens = sorted(t for *_, tokens in seen["lime"] for t in tokens)
    anchor = seen["anchor"]["positions"]
    scored = {"lime": lime_tokens == list(range(n)), "shap": len(seen["shap"]) == n,
              "anchor_is_a_token_set": len(set(anchor)) == len(anchor) > 0 and set(anchor) <= set(range(n))}
    shared = {w: tokens for _, w, _, tokens in seen["lime"] if len(tokens) > 1}
    sharing = "; ".join(f"'{w}' at tokens {t}" for w, t in shared.items()) or "no word repeats"
    return CLAIM.checked(
        "s1-every-token-scored", "statement", "exhaustive",
        f"On '{DOCUMENT}' ({n} tokens, {len(set(DOCUMENT.split()))} distinct words), each package at its defaults: "
        f"lime (bow=True) returned {len(seen['lime'])} weights "
        f"{[[w, round(v, 4), tokens] for _, w, v, tokens in seen['lime']]} (word, weight, the tokens it scores), "
        f"shap {len(seen['shap'])} values {[[t, round(v, 4)] for t, v in seen['shap']]}, anchor-exp the token set "
        f"{anchor} ({seen['anchor']['names']}, precision {seen['anchor']['precision']}). Every token scored: lime "
        f"{scored['lime']}, shap {scored['shap']}; anchor a set of token positions: {scored['anchor_is_a_token_set']}. "
        f"Holds; lime's scores are per word type, so repeated words share one score ({sharing}: one weight).",
        holds=all(scored.values()), values={**scored, "tokens": n, "lime": seen["lime"], "shap": seen["shap"],
                                            "anchor": seen["anchor"], "lime_shared_scores": shared})


def methods_argued() -> StepResult:
    """s2 (principle): what the methods define, read from their papers (argued)."""
    return CLAIM.argued(
        "s2-methods", "statement",
        "Read from the cited papers, not computed: LIME (Ribeiro et al. 2016) explains a text by a sparse linear model "
        "on an interpretable representation, the presence or absence of its words, so its weights are scores of the "
        "text's words; SHAP (Lundberg and Lee 2017) attributes the prediction additively to its input features, for "
        "text the tokens; Anchors (Ribeiro et al. 2018) return a rule, for text a set of words (tokens) whose "
        "presence keeps the prediction. Step s1 runs each method's official package.", reading="principle")


def why_lime_shares() -> StepResult:
    """p1: lime scores its IndexedString's features; at its default (bow=True) there is one feature per distinct
    word, whose positions are every occurrence of the word (read from the package on the document)."""
    from lime.lime_text import IndexedString, LimeTextExplainer

    default = inspect.signature(LimeTextExplainer.__init__).parameters["bow"].default
    words = IndexedString(DOCUMENT, bow=default)
    occurrences = {str(words.word(f)): len(words.positions[f]) for f in range(words.num_words())}
    expected = {w: DOCUMENT.split().count(w) for w in DOCUMENT.split()}
    return CLAIM.checked(
        "p1-lime-features", "proof", "exhaustive",
        f"lime's feature space is its IndexedString: LimeTextExplainer's default bow is {default}, and there '"
        f"{DOCUMENT}' has {words.num_words()} features, one per distinct word, each covering the word's occurrences "
        f"{occurrences}. So every token gets its word's weight, shared by the occurrences of a repeated word.",
        holds=default is True and occurrences == expected,
        values={"default_bow": default, "features": words.num_words(), "occurrences": occurrences})


def anchors_target_argued() -> StepResult:
    """p2: what Anchors target (argued: 'most significant' is the paper's gloss, not a quantity)."""
    return CLAIM.argued(
        "p2-anchor-target", "proof",
        "Ribeiro et al. (2018) define an anchor as a set of tokens whose presence keeps the prediction with precision "
        "at least tau, seeking the one of largest coverage; anchor-exp's explain_instance searches sets of tokens by "
        "a beam (stop_on_first=True: the smallest set it finds over the threshold). Its explanation object carries "
        "the set (features, names) and the set's precision and coverage, no score per token (s1 values). That "
        "this set is 'the most significant' is the paper's gloss of that target, not a quantity computed here.")


def lime_word_types(seen: dict) -> StepResult:
    """c1: at lime's default the weights are one per distinct word (the precise statement)."""
    words = sorted(w for _, w, _, _ in seen["lime"])
    return CLAIM.checked("c1-lime-default-word-types", "correction", "exhaustive",
                         f"LimeTextExplainer() (bow=True): {len(words)} weights, one per distinct word {words} (the "
                         f"document has {len(DOCUMENT.split())} tokens, {len(set(DOCUMENT.split()))} distinct words).",
                         holds=words == sorted(set(DOCUMENT.split())), values={"words": words})


#: A document of 12 distinct words, more than lime's default num_features = 10.
LONG_DOCUMENT = "good food great service nice staff fine wine tasty bread warm room"
#: lime's default number of features (LimeTextExplainer.explain_instance's num_features).
LIME_NUM_FEATURES = 10


def lime_ten_words() -> StepResult:
    """c2: at its defaults lime weights at most num_features = 10 word types: on a 12-distinct-word document, 10."""
    from lime.lime_text import LimeTextExplainer

    default = inspect.signature(LimeTextExplainer.explain_instance).parameters["num_features"].default
    words = sorted(w for _, w, _, _ in lime_scores(LONG_DOCUMENT))
    distinct = len(set(LONG_DOCUMENT.split()))
    unweighted = sorted(set(LONG_DOCUMENT.split()) - set(words))
    return CLAIM.checked("c2-lime-default-ten-words", "correction", "exhaustive",
                         f"LimeTextExplainer() at explain_instance's default num_features = {default}, on "
                         f"'{LONG_DOCUMENT}' ({distinct} distinct words): {len(words)} weights; words without one: "
                         f"{unweighted}. So lime's defaults weight every token only on documents of at most "
                         f"{default} distinct words.",
                         holds=default == LIME_NUM_FEATURES and len(words) == min(distinct, default) < distinct,
                         values={"num_features_default": default, "distinct_words": distinct, "weights": len(words),
                                 "unweighted": unweighted})


CORRECTED = ("LIME, SHAP and Anchors address text classification: LIME and SHAP assign tokens importance scores "
             "and Anchors return a set of tokens. At lime's default (bow=True) the scores are per word type, so "
             "the occurrences of a repeated word share one score, and lime weights at most num_features = 10 word "
             "types: every token of a document of at most 10 distinct words, not beyond (12 distinct words: 10 "
             "weights, c2). The released explainer's bow=False, one score per position, is claim "
             "experiment-protocol-defaults'.")


def check() -> ClaimResult:
    """The three packages at their defaults on a document with a repeated word."""
    absent = absent_step(CLAIM, "s0-text-classification", "statement", "exhaustive",
                         ("lime", "shap", "anchor-exp", "spacy"))
    if absent:
        return CLAIM.result(kind="baseline", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                            steps=(absent,), source=SOURCE, readings=READINGS)
    seen = {"lime": lime_scores(DOCUMENT), "shap": shap_scores(DOCUMENT), "anchor": anchor_set(DOCUMENT)}
    steps = (address_text(seen), every_token_scored(seen), methods_argued(), why_lime_shares(),
             anchors_target_argued(), lime_word_types(seen), lime_ten_words())
    return CLAIM.result(kind="baseline", statement=STATEMENT, conditions=CONDITIONS + f" Versions: "
                        f"{package_versions()}.", counterexample=None, steps=steps,
                        corrected=CORRECTED, source=SOURCE, readings=READINGS)
