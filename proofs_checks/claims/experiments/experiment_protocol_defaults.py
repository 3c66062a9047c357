"""Appendix B.1's protocol sentences on the baselines, checked by running the released explainers.

Four sentences of the protocol, each a statement step computed from the released code run as an outside program
(:mod:`proofs_checks.subject.authors_pipeline`, commands ``explainers`` and ``pipeline``):

* line 1164, the official implementations "with all default parameters": every call the released LIME, SHAP and
  Anchor classes make into the packages, its arguments against the signature's defaults (``inspect.signature``).
  The arguments that name what is explained (the model, the classes, the tokenizer, the document, SHAP's text
  masker) have no default to keep and are left out; every other argument passed must equal its default. This is the
  protocol sentence, not LIME's theory (the claim baseline-lime is about what LIME computes);
* line 1116, positive predictions and the positive class: every document the released pipeline explains is
  predicted positive (needs the data), and each released explainer ranks tokens for the positive class (LIME explains
  label 1, SHAP reads column 1, FRED the predicted label, Anchor the predicted class): on the probe document its
  first-ranked token raises the positive class, and Anchor's prediction is 1;
* line 1170, Anchor's AUC-MoRF follows the anchor: the released ranking is the anchor's features in the anchor's
  order, and compute_aucmorf masks their prefixes in that order;
* line 567, "only the tokens with positive score are perturbed", read here of SHAP's ranking only (the released
  SHAP class ranks every token by decreasing SHAP value, with no filter, and compute_aucmorf masks up to min(20,
  |xi|) of them). What the AUC-MoRF formula and the evaluation loop compute is the claim metric-aucmorf's (its step
  c1 runs the released loop on stand-in explanations); this step is about which tokens SHAP's ranking hands it. A
  second step reads the same on the first documents the released pipeline explains (logistic regression, both
  datasets). LIME's and FRED's rankings are masked where their score is >= 0, so their tokens of score 0 are masked
  too (step c2; said in s5's evidence).

Each sentence is a part of the statement (the step's ``part``): lines 1116 and 1170 hold, lines 1164 and 567 fail,
so the verdict reads "not supported in part", with each part's verdict. The counterexample meets the hypotheses of
a document the released pipeline explains, computed: predicted positive and at least 4 tokens (the released
filter, ``np.char.count(corpus, ' ') > 2``); it is the first document explained on Restaurants. Step c3 says how
much LIME's bow=False matters: the metrics need it (they index tokens by position); for the TF-IDF models it changes
LIME's features only on the documents with a repeated word.

One reading per sentence: each names what the released code does, and the words leave no second reading of the
call. The probe document and model are in :mod:`proofs_checks.subject.authors_pipeline` (a positive prediction,
confidence sigmoid(1) = 0.73, with a token, "bad", that lowers the positive class).
"""

from __future__ import annotations

import math
import re

from ...subject.authors_pipeline import (
    EXPLAINED_FIRST,
    EXPLAINED_MODEL,
    PIPELINE_MODELS,
    PROBE_BIAS,
    PROBE_DOCUMENT,
    PROBE_WEIGHTS,
    explained_runs,
    explainer_runs,
    not_run,
    pipeline_runs,
)
from ...verdicts.results import Claim, ClaimResult, Quote, StepResult, hypotheses

CLAIM = Claim("experiment-protocol-defaults", new=True)
#: The outside program of every step but s2 (which reads the pipeline's runs).
EXPLAINERS = "explainers"
#: Arguments that name what is explained, not how: they have no default to keep.
DATA_ARGUMENTS = frozenset({"class_names", "classifier_fn", "nlp", "text", "text_instance", "model", "masker",
                            "args"})
#: The released explainers whose calls into lime, shap and anchor line 1164 is about.
BASELINES = ("LIME", "SHAP", "Anchor")
#: AUC-MoRF masks at most this many tokens (the released compute_aucmorf's default, line 569's 20).
MORF_CAP = 20
#: The released main.py explains a positively predicted test document only if it has more than this many spaces
#: (``np.char.count(corpus, ' ') > 2``: at least 4 tokens when single-spaced).
RELEASED_MIN_SPACES = 2
#: LIME's default split expression (``LimeTextExplainer(split_expression=r'\W+')``): its words, by which bow=True
#: groups positions.
LIME_SPLIT = r"\W+"
#: The parts of the statement (one per sentence checked), each the label of its statement steps.
DEFAULTS, POSITIVE_PREDICTIONS, POSITIVE_CLASS, ANCHOR_ORDER, POSITIVE_SCORES = (
    "all default parameters (line 1164)", "positive predictions (line 1116)", "the positive class (line 1116)",
    "the anchor's order (line 1170)", "only positive scores perturbed, SHAP (line 567)")
SOURCE = (
    Quote(1164, r"We use the official implementation (respectively available and licensed at "
                r"\url{https://github.com/marcotcr/anchor}, \url{https://github.com/shap/shap}, "
                r"\url{https://github.com/marcotcr/lime}) of these methods with all default parameters."),
    Quote(1116, "Finally, we remark that we always consider documents with positive predictions, and we explain the "
                "positive class."),
    Quote(1170, "Conversely, for computing the AUC-MoRF of Anchors we select the tokens ordered as in the anchor."),
    Quote(567, "We stress out that only the tokens with positive score are perturbed for this computation."),
    Quote(1163, "FRED is compared to three well-known explainers: Anchors, SHAP, and LIME."),
)
STATEMENT = (
    "Appendix B.1: the official implementations of Anchors, SHAP and LIME are used \"with all default parameters\" "
    "(line 1164); \"we always consider documents with positive predictions, and we explain the positive class\" "
    "(line 1116); \"for computing the AUC-MoRF of Anchors we select the tokens ordered as in the anchor\" (line "
    "1170); section 4, of AUC-MoRF: \"only the tokens with positive score are perturbed\" (line 567), here of SHAP's "
    "ranking."
)
CONDITIONS = (
    "The released explainer classes and experiments/metrics.py (checkout at $FRED_AUTHORS_CHECKOUT) run as an "
    f"outside program with the installed lime, shap and anchor packages, on the probe document '{PROBE_DOCUMENT}' "
    "and a stand-in logistic model of word counts, and (command 'explained', the data needed) on the first "
    f"{EXPLAINED_FIRST} documents the released pipeline explains with {EXPLAINED_MODEL} on Restaurants and Yelp; spaCy's en_core_web_lg is not installed (a blank English pipeline "
    "stands in: Anchor's default UNK distribution uses its tokenizer only). Line 1116's positive predictions are "
    "read on the released pipeline's Restaurants and Yelp runs (the data). Arguments naming what is explained "
    f"({', '.join(sorted(DATA_ARGUMENTS))}) are not parameters with a default to keep."
)
CORRECTED = (
    "The released code calls Anchor and SHAP with every default, and LIME with every default but bow=False (LIME then "
    "weights token positions, not words, as the metrics need; for the TF-IDF models this changes LIME's features only "
    "on the documents with a repeated word). It explains positively predicted documents, for the positive class; "
    "Anchor's AUC-MoRF masks the anchor's tokens in the anchor's order. SHAP's AUC-MoRF masks the tokens in "
    "decreasing SHAP value, those of zero or negative value included, up to min(20, |xi|); LIME's and FRED's mask "
    "the tokens of score >= 0 only."
)


def probe_confidence() -> float:
    """The stand-in model's positive-class probability on the probe document (from its weights, in this
    process)."""
    z = PROBE_BIAS + sum(PROBE_WEIGHTS.get(w, 0.0) for w in PROBE_DOCUMENT.split())
    return 1 / (1 + math.exp(-z))


def non_default(runs: dict) -> dict:
    """Per baseline, the parameters (data arguments left out) the released calls pass with a non-default value."""
    return {name: {f"{c['call']}.{k}": v for c in runs["explainers"][name]["calls"]
                   for k, v in c["non_default"].items() if k not in DATA_ARGUMENTS} for name in BASELINES}


def defaults(runs: dict | None) -> StepResult:
    """s1 (line 1164): no released call into lime, shap or anchor passes a parameter other than its default."""
    if runs is None:
        return CLAIM.argued("s1-all-defaults", "statement", not_run(
            "records every call the released LIME, SHAP and Anchor classes make into their packages and compares "
            "its arguments with the signatures' defaults.", EXPLAINERS), part=DEFAULTS)
    found = non_default(runs)
    calls = {name: [c["call"] for c in runs["explainers"][name]["calls"]] for name in BASELINES}
    return CLAIM.checked(
        "s1-all-defaults", "statement", "exhaustive",
        "Calls the released classes make: " + "; ".join(f"{n}: {', '.join(c)}" for n, c in calls.items())
        + ". Parameters passed with a value other than the signature's default (the arguments naming what is "
          "explained left out): "
        + ("; ".join(f"{n}: " + ", ".join(f"{k}={v[0]} (default {v[1]})" for k, v in f.items())
                     for n, f in found.items() if f) or "none") + ".",
        holds=not any(found.values()), part=DEFAULTS, values={"calls": {n: runs["explainers"][n]["calls"] for n in BASELINES},
                                               "non_default": found})


def positive_predictions(pipeline: dict | None) -> StepResult:
    """s2 (line 1116): every document the released pipeline explains is predicted positive by its model."""
    if pipeline is None:
        return CLAIM.argued("s2-positive-predictions", "statement", not_run(
            "predicts every document the released main.py hands its evaluation, with the model it trained.",
            "pipeline"), part=POSITIVE_PREDICTIONS)
    rows = {f"{d}/{m}": {"explained": len(run["explained_predicted"]), "positive": sum(run["explained_predicted"])}
            for d, models in pipeline["runs"].items() for m, run in models.items() if m in PIPELINE_MODELS}
    return CLAIM.checked(
        "s2-positive-predictions", "statement", "exhaustive",
        "Documents the released main.py explains, predicted positive by the model it trained: "
        + ", ".join(f"{k} {r['positive']}/{r['explained']}" for k, r in rows.items()) + ".",
        holds=all(r["positive"] == r["explained"] for r in rows.values()), values={"runs": rows},
        part=POSITIVE_PREDICTIONS)


def positive_class(runs: dict | None) -> StepResult:
    """s3 (line 1116): each released explainer ranks for the positive class on the probe document."""
    if runs is None:
        return CLAIM.argued("s3-positive-class", "statement", not_run(
            "runs each released explainer on a positively predicted probe document and reads which class it ranks "
            "for.", EXPLAINERS), part=POSITIVE_CLASS)
    seen = runs["explainers"]
    top = {n: e["ranked_tokens"][0] for n, e in seen.items()}
    raises = {n: PROBE_WEIGHTS.get(t, 0.0) > 0 for n, t in top.items()}
    checks = {**raises, "LIME label 1": seen["LIME"]["labels"] == [1], "Anchor predicts 1": seen["Anchor"][
        "prediction"] == 1}
    return CLAIM.checked(
        "s3-positive-class", "statement", "exhaustive",
        f"On '{PROBE_DOCUMENT}' (positive-class probability {probe_confidence():.3f}), the first token each released "
        "explainer ranks: " + ", ".join(f"{n} '{t}'" for n, t in top.items())
        + f" (each raises the positive class: {all(raises.values())}); LIME explains labels {seen['LIME']['labels']}; "
          f"Anchor's prediction is {seen['Anchor']['prediction']}.",
        holds=all(checks.values()), values={"top": top, "checks": checks, "confidence": probe_confidence()},
        part=POSITIVE_CLASS)


def prefixes(order: list[int], cap: int) -> list[list[int]]:
    """The masks of a most-relevant-first curve over ``order``: its first 1, 2, ... positions, at most ``cap``."""
    return [sorted(order[:k]) for k in range(1, min(cap, len(order)) + 1)]


def anchor_order(runs: dict | None) -> StepResult:
    """s4 (line 1170): Anchor's ranking is the anchor's features in the anchor's order, masked in that order."""
    if runs is None:
        return CLAIM.argued("s4-anchor-order", "statement", not_run(
            "runs the released Anchor class and compute_aucmorf and compares the masked tokens with the anchor.",
            EXPLAINERS), part=ANCHOR_ORDER)
    a = runs["explainers"]["Anchor"]
    same = a["ranked_ids"] == a["anchor_features"] and a["ranked_tokens"] == a["anchor_names"]
    follows = a["aucmorf_masks"] == prefixes(a["anchor_features"], MORF_CAP)
    return CLAIM.checked(
        "s4-anchor-order", "statement", "exhaustive",
        f"The anchor: features {a['anchor_features']} ({a['anchor_names']}); the released ranking "
        f"{a['ranked_ids']}; compute_aucmorf masks {a['aucmorf_masks']} (the anchor's prefixes: {follows}).",
        holds=same and follows, values=a, part=ANCHOR_ORDER)


def masked_scores(runs: dict, name: str) -> dict:
    """The positions the released compute_aucmorf masks for ``name``, and the scores its ranking reads there."""
    e = runs["explainers"][name]
    masked = sorted({p for mask in e["aucmorf_masks"] for p in mask})
    return {"masked": masked, "scores": {str(p): e["scores"].get(str(p)) for p in masked},
            "not_positive": [p for p in masked if not (e["scores"].get(str(p)) or 0) > 0],
            "ranking": e["ranked_ids"], "masks": e["aucmorf_masks"]}


def shap_positive_only(runs: dict | None) -> StepResult:
    """s5 (line 567, SHAP's ranking): compute_aucmorf masks only tokens of positive SHAP value."""
    if runs is None:
        return CLAIM.argued("s5-shap-positive-only", "statement", not_run(
            "runs the released SHAP class and compute_aucmorf and reads the SHAP value of every masked token.",
            EXPLAINERS), part=POSITIVE_SCORES)
    seen = masked_scores(runs, "SHAP")
    words = PROBE_DOCUMENT.split()
    zero = {name: [words[p] for p in masked_scores(runs, name)["masked"]
                   if runs["explainers"][name]["scores"].get(str(p)) == 0] for name in ("LIME", "FRED")}
    return CLAIM.checked(
        "s5-shap-positive-only", "statement", "exhaustive",
        "Line 567 read of the tokens SHAP's ranking hands the metric (the AUC-MoRF quantity is the claim "
        f"metric-aucmorf's). The released SHAP ranking on '{PROBE_DOCUMENT}': {seen['ranking']}; compute_aucmorf masks "
        f"{seen['masks']}; SHAP values of the masked tokens: "
        + ", ".join(f"{words[int(p)]} {v:+.4f}" for p, v in seen["scores"].items())
        + f". Masked with a value that is not positive: {[words[p] for p in seen['not_positive']]}. (LIME's and "
          "FRED's rankings keep the tokens of score >= 0 (step c2), so their tokens of score 0 are masked too, not "
          f"only the positive ones (on the probe, masked with score exactly 0: LIME {zero['LIME'] or 'none'}, FRED "
          f"{zero['FRED'] or 'none'}); this step's verdict is SHAP's.)",
        holds=not seen["not_positive"], values={**seen, "masked_zero_score": zero}, part=POSITIVE_SCORES)


def not_positive_masked(case: dict) -> list[int]:
    """The positions compute_aucmorf masks on one explained document whose SHAP value is zero or negative."""
    return sorted({p for mask in case["masks"] for p in mask if not case["scores"][p] > 0})


def shap_explained_documents(explained: dict | None) -> StepResult:
    """s6 (line 567, SHAP's ranking, on the data): on no explained document does compute_aucmorf mask a token of
    non-positive SHAP value."""
    if explained is None:
        return CLAIM.argued("s6-shap-explained-documents", "statement", not_run(
            f"runs the released SHAP class and compute_aucmorf on the first {EXPLAINED_FIRST} documents the released "
            f"pipeline explains with {EXPLAINED_MODEL} on each dataset and reads the SHAP value of every masked token.",
            "explained"), part=POSITIVE_SCORES)
    rows = {}
    for dataset, run in explained["runs"].items():
        found = [not_positive_masked(c) for c in run["documents"]]
        rows[dataset] = {"documents": len(found), "non_positive_masked": sum(bool(f) for f in found),
                         "negative_masked": sum(any(c["scores"][p] < 0 for p in f)
                                                for c, f in zip(run["documents"], found))}
    return CLAIM.checked(
        "s6-shap-explained-documents", "statement", "exhaustive",
        f"The released SHAP class and compute_aucmorf on the first {EXPLAINED_FIRST} documents the released main.py "
        f"explains with {EXPLAINED_MODEL} (its order): documents on which a token of zero or negative SHAP value is "
        "masked: " + ", ".join(f"{d} {r['non_positive_masked']}/{r['documents']} (a negative one: "
                               f"{r['negative_masked']})" for d, r in rows.items()) + ".",
        holds=not any(r["non_positive_masked"] for r in rows.values()), values={"runs": rows},
        part=POSITIVE_SCORES)


def defaults_but_bow(runs: dict | None) -> StepResult:
    """c1: the only non-default parameter of the released calls is LIME's bow=False."""
    if runs is None:
        return CLAIM.argued("c1-defaults-but-bow", "correction", not_run(
            "checks that LIME's bow=False is the only parameter the released calls change.",
            EXPLAINERS))
    found = non_default(runs)
    expected = {"LIME": ["LimeTextExplainer.bow"], "SHAP": [], "Anchor": []}
    return CLAIM.checked(
        "c1-defaults-but-bow", "correction", "exhaustive",
        "Non-default parameters of the released calls: "
        + ", ".join(f"{n} {sorted(f) or 'none'}" for n, f in found.items())
        + (f" (LIME's bow: {found['LIME']['LimeTextExplainer.bow'][0]}, default "
           f"{found['LIME']['LimeTextExplainer.bow'][1]})" if "LimeTextExplainer.bow" in found["LIME"] else "") + ".",
        holds={n: sorted(f) for n, f in found.items()} == expected, values={"non_default": found})


def lime_words_repeat(document: str) -> bool:
    """Whether a word of LIME's (its default split, :data:`LIME_SPLIT`) occurs twice in ``document``."""
    words = [w for w in re.split(LIME_SPLIT, document) if w]
    return len(set(words)) < len(words)


def lime_bow_scope(explained: dict | None) -> StepResult:
    """c3: on the TF-IDF models, bow=False changes LIME's features only on the documents with a repeated word."""
    if explained is None:
        return CLAIM.argued("c3-lime-bow-scope", "correction", not_run(
            "counts the explained documents on which LIME's features under bow=False differ from bow=True's.",
            "explained"))
    rows = {}
    for dataset, run in explained["runs"].items():
        docs = run["documents"]
        differ = [i for i, c in enumerate(docs) if c["lime_features"]["True"] != c["lime_features"]["False"]]
        rows[dataset] = {"documents": len(docs), "features_differ": differ, "unk_in_vocabulary": run[
            "unk_in_vocabulary"], "repeated_word": [i for i, c in enumerate(docs) if lime_words_repeat(c["document"])]}
    return CLAIM.checked(
        "c3-lime-bow-scope", "correction", "exhaustive",
        "The released metrics index tokens by position (get_ranked_tokens reads LIME's feature ids as positions of "
        "the document's words), which bow=False's features are; bow=True's are distinct words. With bow=True a "
        "removed word is deleted, with bow=False replaced by UNK, which the TF-IDF vectorizer ignores when 'unk' is "
        "not in its vocabulary: then the two differ only on a document with a repeated word. On the first "
        f"{EXPLAINED_FIRST} documents explained with {EXPLAINED_MODEL}: LIME's features differ on "
        + ", ".join(f"{d} {len(r['features_differ'])}/{r['documents']}" for d, r in rows.items())
        + ", exactly the documents with a repeated word: "
        + str(all(r["features_differ"] == r["repeated_word"] for r in rows.values()))
        + "; 'unk' in the vocabulary: " + ", ".join(f"{d} {r['unk_in_vocabulary']}" for d, r in rows.items()) + ".",
        holds=all(r["features_differ"] == r["repeated_word"] and not r["unk_in_vocabulary"] for r in rows.values()),
        values={"runs": rows})


def most_relevant_first(masks: list[list[int]], scores: dict, candidates: set[int]) -> bool:
    """Whether ``masks`` are nested, the k-th of size k, drawn from ``candidates`` by decreasing score (ties in any
    order), and cover min(MORF_CAP, |candidates|) of them."""
    if len(masks) != min(MORF_CAP, len(candidates)):
        return False
    previous: set[int] = set()
    for k, mask in enumerate(masks, 1):
        inside, outside = set(mask), candidates - set(mask)
        if len(inside) != k or not previous <= inside or not inside <= candidates:
            return False
        if outside and min(scores[str(p)] for p in inside) < max(scores[str(p)] for p in outside):
            return False
        previous = inside
    return True


def masking_rules(runs: dict | None) -> StepResult:
    """c2: SHAP's AUC-MoRF masks every token by decreasing SHAP value (non-positive ones included); LIME's and FRED's
    the tokens of score >= 0 only, by decreasing score."""
    if runs is None:
        return CLAIM.argued("c2-masking-rules", "correction", not_run(
            "checks which tokens the released compute_aucmorf masks for SHAP, LIME and FRED, and in which order.",
            EXPLAINERS))
    n = len(PROBE_DOCUMENT.split())
    rules = {"SHAP": set(range(n))}
    for name in ("LIME", "FRED"):
        rules[name] = {int(p) for p, v in runs["explainers"][name]["scores"].items() if v >= 0}
    seen = {name: most_relevant_first(runs["explainers"][name]["aucmorf_masks"], runs["explainers"][name]["scores"],
                                      candidates) for name, candidates in rules.items()}
    return CLAIM.checked(
        "c2-masking-rules", "correction", "exhaustive",
        f"On '{PROBE_DOCUMENT}', compute_aucmorf masks, most relevant first: SHAP every token by decreasing value "
        f"({seen['SHAP']}); LIME and FRED the tokens of score >= 0 by decreasing score ({seen['LIME']}, "
        f"{seen['FRED']}).",
        holds=all(seen.values()), values={"candidates": {k: sorted(v) for k, v in rules.items()}, "follows": seen})


def released_filter(document: str) -> bool:
    """Whether the released main.py would explain ``document`` by its length (more than 2 spaces: 4 tokens or more
    when single-spaced)."""
    return document.count(" ") > RELEASED_MIN_SPACES


def explained_case(explained: dict | None) -> dict | None:
    """The first document the released pipeline explains (first dataset, its order) on which SHAP's AUC-MoRF masks a
    token of non-positive SHAP value (None: none, or not run)."""
    for dataset, run in (explained or {"runs": {}})["runs"].items():
        for i, case in enumerate(run["documents"]):
            if not_positive_masked(case):
                return {**case, "source": f"{dataset}, {EXPLAINED_MODEL}: explained document {i + 1} of "
                                          f"{run['explained']} (the released main.py's order)"}
    return None


def probe_case(runs: dict) -> dict | None:
    """Without the data: the shortest positively predicted sub-document of the probe that the released length filter
    admits on which SHAP's AUC-MoRF masks a token of non-positive SHAP value, a negative one first among equals."""
    found = [c for c in runs["shap_subdocuments"] if released_filter(c["document"]) and not_positive_masked(c)]
    found.sort(key=lambda c: (len(c["document"].split()), not any(c["scores"][p] < 0 for p in not_positive_masked(c))))
    if not found:
        return None
    z = PROBE_BIAS + sum(PROBE_WEIGHTS.get(w, 0.0) for w in found[0]["document"].split())
    return {**found[0], "confidence": 1 / (1 + math.exp(-z)),
            "source": "sub-document of the probe (stand-in model): the shortest the released length filter admits "
                      f"among its {len(runs['shap_subdocuments'])} positively predicted ones"}


def counterexample(runs: dict | None, explained: dict | None) -> dict | None:
    """LIME's bow=False call, and a document the released pipeline would explain (at least 4 tokens, predicted
    positive) on which SHAP's AUC-MoRF masks a token of non-positive SHAP value: the first explained document (the
    probe's shortest admitted sub-document without the data), its hypotheses computed (None: neither, or not run)."""
    if runs is None:
        return None
    lime, case = non_default(runs)["LIME"], explained_case(explained) or probe_case(runs)
    if not lime or case is None:
        return None
    words, not_positive = case["document"].split(), not_positive_masked(case)
    calls = [c["call"] for c in runs["explainers"]["LIME"]["calls"]]
    return {"lime_call": lime, "shap_document": case["document"], "source": case["source"],
            "shap_values": [[w, v] for w, v in zip(words, case["scores"])], "shap_masks": case["masks"],
            "masked_not_positive": [words[p] for p in not_positive], "tokens": len(words),
            "at_the_filters_minimum_length": len(words) == RELEASED_MIN_SPACES + 2,
            **hypotheses(lime_call_made_by_the_released_class="LimeTextExplainer" in calls,
                         lime_default_is_bow_true=lime.get("LimeTextExplainer.bow", ["", ""])[1] == "True",
                         positive_prediction=case["confidence"] > 0.5,
                         at_least_4_tokens_the_released_filter=len(words) >= 4 and released_filter(case["document"]),
                         shap_token_masked_without_positive_value=bool(not_positive))}


def check() -> ClaimResult:
    """The released explainers on the probe document (one outside program) and the pipeline's explained documents
    (the other, shared with the claims on the pipeline: one run per report)."""
    runs, pipeline, explained = explainer_runs(), pipeline_runs(), explained_runs()
    steps = (defaults(runs), positive_predictions(pipeline), positive_class(runs), anchor_order(runs),
             shap_positive_only(runs), shap_explained_documents(explained), defaults_but_bow(runs),
             masking_rules(runs), lime_bow_scope(explained))
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS,
                        counterexample=counterexample(runs, explained), steps=steps, corrected=CORRECTED, source=SOURCE)
