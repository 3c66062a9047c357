"""Lines 194-195 (again at line 1166): LIME, SHAP and Anchors address text classification; "LIME and SHAP assign
importance scores to tokens, while Anchors target the most significant token set for the prediction."

Each package is run on a text classifier and a document with a repeated word ("good food good service": 4 tokens, 3
distinct words), where a score per token and a score per word differ in number. What each returns is counted: lime
at the released call (``bow=False``, ``explainers/lime_explainer.py``) and at its default (``bow=True``), shap with
``maskers.Text()`` (the released call, shap's default masker), anchor-exp's ``AnchorText`` (the released call, on
``spacy.blank('en')``: no model download). The headline reading is the packages as the paper ran them: line 1168
ranks "the first $k$ tokens", which needs a score per token; the packages' defaults (line 1164, "all default
parameters") are a reading beside it, and there LIME scores word types, not tokens.
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
    hypotheses,
)

CLAIM = Claim("baseline-text-outputs", new=True)
TEXT = Quote(194, "LIME, SHAP, and Anchors address text classification.")
TOKENS = Quote(195, "LIME and SHAP assign importance scores to tokens, while Anchors target the most significant token "
                    "set for the prediction.")
APPENDIX = Quote(1166, "Remark that while LIME and SHAP share the principle of attributing an importance score for "
                       "each token, Anchor aim at outputting the most significant subset of tokens")
RANKED = Quote(1168, r"We use as explanation set $\explanation$ for LIME and SHAP the first $k$ tokens ranked by "
                     r"importance")
SOURCE = (TOKENS, TEXT, APPENDIX, RANKED, ALL_DEFAULTS)
READINGS = (
    Reading("as-run", "headline", "The packages as the paper ran them (the released explainers' calls: lime with "
            "bow=False, shap with maskers.Text(), anchor-exp's AnchorText) explain a text classifier; lime and shap "
            "return one importance score per token, anchor-exp a set of tokens.", why=(APPENDIX, RANKED)),
    Reading("defaults", "alternative", "The same with every package at its default parameters (lime's bow=True).",
            why=(ALL_DEFAULTS,)),
)
STATEMENT = ("Lines 194-195 (again at 1166): LIME, SHAP and Anchors address text classification; LIME and SHAP "
             "assign importance scores to tokens, while Anchors target the most significant token set for the "
             "prediction.")
CONDITIONS = (
    "lime 0.2.0.1, shap, anchor-exp as installed (versions in the values). Calls: LimeTextExplainer(bow=False) (the "
    "released explainers/lime_explainer.py) and LimeTextExplainer() (bow=True, lime's default), random_state=0, "
    "500 samples; shap.Explainer(f, shap.maskers.Text()) (the released call); AnchorText(spacy.blank('en'), classes) "
    ".explain_instance(text, labels) (the released call loads en_core_web_lg, whose English tokenizer is the blank "
    "pipeline's), numpy's seed 0. The classifier: P(positive) = logistic(2 #good - 2 #bad). Document: 'good food "
    "good service' (4 tokens, 3 distinct words); counterexample: 'good good'. A token is a position of the "
    "document in the package's own split (whitespace words here).")
DOCUMENT = "good food good service"
#: The smallest document on which a score per word type and a score per token differ in number.
SMALLEST = "good good"
#: The classifier's word scores.
SCORES = {"good": 2.0, "bad": -2.0}
SEED, LIME_SAMPLES = 0, 500


def probabilities(texts) -> np.ndarray:
    """[P(negative), P(positive)] with P(positive) = logistic(sum of SCORES)."""
    s = np.array([sum(SCORES.get(w, 0.0) for w in str(t).split()) for t in texts])
    p = 1.0 / (1.0 + np.exp(-s))
    return np.column_stack([1.0 - p, p])


def lime_scores(document: str, bow: bool) -> list[list]:
    """lime's (feature id, word, weight) for class 1, one entry per feature it scored."""
    from lime.lime_text import LimeTextExplainer

    exp = LimeTextExplainer(bow=bow, random_state=SEED).explain_instance(document, probabilities,
                                                                         num_samples=LIME_SAMPLES)
    words = exp.domain_mapper.indexed_string
    return [[int(f), str(words.word(f)), float(w)] for f, w in exp.as_map()[1]]


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
    returned = {"lime": bool(seen["lime-bow-false"]), "shap": bool(seen["shap"]),
                "anchor-exp": bool(seen["anchor"]["positions"])}
    return CLAIM.checked(
        "s0-text-classification", "statement", "exhaustive",
        f"Each package's text explainer explained the text classifier on '{DOCUMENT}': an explanation returned by "
        f"{returned} (lime.lime_text.LimeTextExplainer, shap's maskers.Text, anchor.anchor_text.AnchorText).",
        holds=all(returned.values()), values=returned)


def per_token(seen: dict, lime_key: str, reading: str) -> StepResult:
    """s1/s2: lime (``lime_key``'s run) and shap return one score per token, anchor-exp a set of token positions."""
    n = len(DOCUMENT.split())
    counts = {"lime": len(seen[lime_key]), "shap": len(seen["shap"]), "tokens": n,
              "lime_features": sorted(f for f, _, _ in seen[lime_key])}
    anchor = seen["anchor"]["positions"]
    is_set = len(set(anchor)) == len(anchor) > 0 and set(anchor) <= set(range(n))
    bow = "false" if lime_key.endswith("false") else "true"
    return CLAIM.checked(
        f"s{1 if reading == 'as-run' else 2}-scores-per-token-{reading}", "statement", "exhaustive",
        f"On '{DOCUMENT}' ({n} tokens, {len(set(DOCUMENT.split()))} distinct words): lime (bow={bow.title()}) "
        f"returned {counts['lime']} weights ({[[w, round(v, 4)] for _, w, v in seen[lime_key]]}), shap "
        f"{counts['shap']} values ({[[t, round(v, 4)] for t, v in seen['shap']]}), anchor-exp the token set "
        f"{anchor} ({seen['anchor']['names']}, precision {seen['anchor']['precision']}). One score per token: lime "
        f"{counts['lime'] == n}, shap {counts['shap'] == n}; anchor a set of token positions: {is_set}.",
        holds=counts["lime"] == n and counts["shap"] == n and is_set,
        values={**counts, "anchor": seen["anchor"], "anchor_is_a_token_set": is_set}, reading=reading)


def lime_features(bow: bool, document: str = DOCUMENT) -> int:
    """How many features lime's IndexedString gives ``document`` (what explain_instance scores)."""
    from lime.lime_text import IndexedString

    return IndexedString(document, bow=bow).num_words()


def why_lime_counts() -> StepResult:
    """p1: lime scores its IndexedString's features: one per distinct word at bow=True, one per position at
    bow=False (read from the package on the document), and its default is bow=True."""
    from lime.lime_text import LimeTextExplainer

    default = inspect.signature(LimeTextExplainer.__init__).parameters["bow"].default
    features = {"bow_true": lime_features(True), "bow_false": lime_features(False)}
    holds = (features == {"bow_true": len(set(DOCUMENT.split())), "bow_false": len(DOCUMENT.split())}
             and default is True)
    return CLAIM.checked(
        "p1-lime-features", "proof", "exhaustive",
        f"lime's feature space is its IndexedString: {features['bow_true']} features at bow=True (the distinct "
        f"words) and {features['bow_false']} at bow=False (the positions) for '{DOCUMENT}'; LimeTextExplainer's "
        f"default bow is {default}. So at its default every occurrence of a word shares one weight.",
        holds=holds, values={**features, "default_bow": default})


def anchors_target_argued() -> StepResult:
    """p2: what Anchors target (argued: 'most significant' is the paper's gloss, not a quantity)."""
    return CLAIM.argued(
        "p2-anchor-target", "proof",
        "Ribeiro et al. (2018) define an anchor as a set of tokens whose presence keeps the prediction with precision "
        "at least tau, seeking the one of largest coverage; anchor-exp's explain_instance searches sets of tokens by "
        "a beam (stop_on_first=True: the smallest set it finds over the threshold). Its explanation object carries "
        "the set (features, names) and the set's precision and coverage, no score per token (s1, s2 values). That "
        "this set is 'the most significant' is the paper's gloss of that target, not a quantity computed here.")


def smallest_defaults_case() -> StepResult:
    """s3: the smallest case of the defaults reading: lime at its defaults on 'good good' (2 tokens, 1 word)
    returns 1 weight (its hypotheses computed: the default bow, an explanation returned, two tokens)."""
    from lime.lime_text import LimeTextExplainer

    default = inspect.signature(LimeTextExplainer.__init__).parameters["bow"].default
    scores = lime_scores(SMALLEST, default)
    record = hypotheses(default_parameters=default is True, returned_an_explanation=bool(scores),
                        two_tokens=len(SMALLEST.split()) == 2)
    return CLAIM.checked(
        "s3-smallest-repeat-defaults", "statement", "counterexample",
        f"The smallest document with a repeated word, '{SMALLEST}' (2 tokens; a score per token and per word differ "
        f"in number only when a word repeats): LimeTextExplainer() (bow={default}) returns {len(scores)} weight(s) "
        f"{[[w, round(v, 4)] for _, w, v in scores]}, for {len(SMALLEST.split())} tokens.",
        holds=not (record["satisfies_hypotheses"] and len(scores) != len(SMALLEST.split())),
        values={**record, "document": SMALLEST, "tokens": len(SMALLEST.split()), "lime_weights": scores},
        reading="defaults")


def lime_corrected(seen: dict) -> list[StepResult]:
    """c-steps: lime's weights are per word type at bow=True, per position at bow=False (the corrected statement)."""
    types, n = len(set(DOCUMENT.split())), len(DOCUMENT.split())
    true_words = sorted(w for _, w, _ in seen["lime-bow-true"])
    false_ids = sorted(f for f, _, _ in seen["lime-bow-false"])
    return [CLAIM.checked("c-lime-default-word-types", "correction", "exhaustive",
                          f"LimeTextExplainer() (bow=True): {len(true_words)} weights, one per distinct word "
                          f"{true_words} (the document has {types}).",
                          holds=true_words == sorted(set(DOCUMENT.split())), values={"words": true_words}),
            CLAIM.checked("c-lime-released-positions", "correction", "exhaustive",
                          f"LimeTextExplainer(bow=False): {len(false_ids)} weights on positions {false_ids} "
                          f"(the document has {n}).", holds=false_ids == list(range(n)), values={"ids": false_ids})]


CORRECTED = ("LIME, SHAP and Anchors address text classification. SHAP's Text masker scores each token and Anchors "
             "returns a set of tokens; LIME scores each token (position) only with bow=False, as the released "
             "explainer calls it: at its default (bow=True) it scores word types, one weight shared by every "
             "occurrence of a word, so on a document with a repeated word it has fewer scores than tokens.")


def check() -> ClaimResult:
    """The three packages on a document with a repeated word; lime at both bow settings."""
    absent = absent_step(CLAIM, "s0-text-classification", "statement", "exhaustive",
                         ("lime", "shap", "anchor-exp", "spacy"))
    if absent:
        return CLAIM.result(kind="baseline", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                            steps=(absent,), source=SOURCE, readings=READINGS)
    seen = {"lime-bow-false": lime_scores(DOCUMENT, False), "lime-bow-true": lime_scores(DOCUMENT, True),
            "shap": shap_scores(DOCUMENT), "anchor": anchor_set(DOCUMENT)}
    steps = (address_text(seen), per_token(seen, "lime-bow-false", "as-run"), per_token(seen, "lime-bow-true",
             "defaults"), smallest_defaults_case(), why_lime_counts(), anchors_target_argued(),
             *lime_corrected(seen))
    return CLAIM.result(kind="baseline", statement=STATEMENT, conditions=CONDITIONS + f" Versions: "
                        f"{package_versions()}.", counterexample=None, steps=steps,
                        corrected=CORRECTED, source=SOURCE, readings=READINGS)
