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
  c1 runs the released loop on stand-in explanations); this step is about which tokens SHAP's ranking hands it.

One reading per sentence: each names what the released code does, and the words leave no second reading of the
call. The probe document and model are in :mod:`proofs_checks.subject.authors_pipeline` (a positive prediction,
confidence sigmoid(1) = 0.73, with a token, "bad", that lowers the positive class).
"""

from __future__ import annotations

import math

from ...subject.authors_pipeline import (
    PIPELINE_MODELS,
    PROBE_BIAS,
    PROBE_DOCUMENT,
    PROBE_WEIGHTS,
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
    "and a stand-in logistic model of word counts; spaCy's en_core_web_lg is not installed (a blank English pipeline "
    "stands in: Anchor's default UNK distribution uses its tokenizer only). Line 1116's positive predictions are "
    "read on the released pipeline's Restaurants and Yelp runs (the data). Arguments naming what is explained "
    f"({', '.join(sorted(DATA_ARGUMENTS))}) are not parameters with a default to keep."
)
CORRECTED = (
    "The released code calls Anchor and SHAP with every default, and LIME with every default but bow=False (LIME then "
    "weights token positions, not words). It explains positively predicted documents, for the positive class; "
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
            "its arguments with the signatures' defaults.", EXPLAINERS))
    found = non_default(runs)
    calls = {name: [c["call"] for c in runs["explainers"][name]["calls"]] for name in BASELINES}
    return CLAIM.checked(
        "s1-all-defaults", "statement", "exhaustive",
        "Calls the released classes make: " + "; ".join(f"{n}: {', '.join(c)}" for n, c in calls.items())
        + ". Parameters passed with a value other than the signature's default (the arguments naming what is "
          "explained left out): "
        + ("; ".join(f"{n}: " + ", ".join(f"{k}={v[0]} (default {v[1]})" for k, v in f.items())
                     for n, f in found.items() if f) or "none") + ".",
        holds=not any(found.values()), values={"calls": {n: runs["explainers"][n]["calls"] for n in BASELINES},
                                               "non_default": found})


def positive_predictions(pipeline: dict | None) -> StepResult:
    """s2 (line 1116): every document the released pipeline explains is predicted positive by its model."""
    if pipeline is None:
        return CLAIM.argued("s2-positive-predictions", "statement", not_run(
            "predicts every document the released main.py hands its evaluation, with the model it trained.",
            "pipeline"))
    rows = {f"{d}/{m}": {"explained": len(run["explained_predicted"]), "positive": sum(run["explained_predicted"])}
            for d, models in pipeline["runs"].items() for m, run in models.items() if m in PIPELINE_MODELS}
    return CLAIM.checked(
        "s2-positive-predictions", "statement", "exhaustive",
        "Documents the released main.py explains, predicted positive by the model it trained: "
        + ", ".join(f"{k} {r['positive']}/{r['explained']}" for k, r in rows.items()) + ".",
        holds=all(r["positive"] == r["explained"] for r in rows.values()), values={"runs": rows})


def positive_class(runs: dict | None) -> StepResult:
    """s3 (line 1116): each released explainer ranks for the positive class on the probe document."""
    if runs is None:
        return CLAIM.argued("s3-positive-class", "statement", not_run(
            "runs each released explainer on a positively predicted probe document and reads which class it ranks "
            "for.", EXPLAINERS))
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
        holds=all(checks.values()), values={"top": top, "checks": checks, "confidence": probe_confidence()})


def prefixes(order: list[int], cap: int) -> list[list[int]]:
    """The masks of a most-relevant-first curve over ``order``: its first 1, 2, ... positions, at most ``cap``."""
    return [sorted(order[:k]) for k in range(1, min(cap, len(order)) + 1)]


def anchor_order(runs: dict | None) -> StepResult:
    """s4 (line 1170): Anchor's ranking is the anchor's features in the anchor's order, masked in that order."""
    if runs is None:
        return CLAIM.argued("s4-anchor-order", "statement", not_run(
            "runs the released Anchor class and compute_aucmorf and compares the masked tokens with the anchor.",
            EXPLAINERS))
    a = runs["explainers"]["Anchor"]
    same = a["ranked_ids"] == a["anchor_features"] and a["ranked_tokens"] == a["anchor_names"]
    follows = a["aucmorf_masks"] == prefixes(a["anchor_features"], MORF_CAP)
    return CLAIM.checked(
        "s4-anchor-order", "statement", "exhaustive",
        f"The anchor: features {a['anchor_features']} ({a['anchor_names']}); the released ranking "
        f"{a['ranked_ids']}; compute_aucmorf masks {a['aucmorf_masks']} (the anchor's prefixes: {follows}).",
        holds=same and follows, values=a)


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
            EXPLAINERS))
    seen = masked_scores(runs, "SHAP")
    words = PROBE_DOCUMENT.split()
    return CLAIM.checked(
        "s5-shap-positive-only", "statement", "exhaustive",
        "Line 567 read of the tokens SHAP's ranking hands the metric (the AUC-MoRF quantity is the claim "
        f"metric-aucmorf's). The released SHAP ranking on '{PROBE_DOCUMENT}': {seen['ranking']}; compute_aucmorf masks "
        f"{seen['masks']}; SHAP values of the masked tokens: "
        + ", ".join(f"{words[int(p)]} {v:+.4f}" for p, v in seen["scores"].items())
        + f". Masked with a value that is not positive: {[words[p] for p in seen['not_positive']]}.",
        holds=not seen["not_positive"], values=seen)


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


def shap_failures(runs: dict) -> list[dict]:
    """The positively predicted sub-documents of the probe on which SHAP's AUC-MoRF masks a token of non-positive
    SHAP value, shortest first, those with a negative value first among equals."""
    found = []
    for case in runs["shap_subdocuments"]:
        masked = sorted({p for mask in case["masks"] for p in mask})
        not_positive = [p for p in masked if not case["scores"][p] > 0]
        if not_positive:
            found.append({**case, "not_positive": not_positive,
                          "negative": any(case["scores"][p] < 0 for p in not_positive)})
    return sorted(found, key=lambda c: (len(c["document"].split()), not c["negative"]))


def counterexample(runs: dict | None) -> dict | None:
    """LIME's bow=False call, and the shortest positively predicted sub-document of the probe on which SHAP's
    AUC-MoRF masks a token of non-positive SHAP value, with their hypotheses computed (None: neither, or not run)."""
    if runs is None:
        return None
    lime, failures = non_default(runs)["LIME"], shap_failures(runs)
    if not lime or not failures:
        return None
    case = failures[0]
    words = case["document"].split()
    z = PROBE_BIAS + sum(PROBE_WEIGHTS.get(w, 0.0) for w in words)
    calls = [c["call"] for c in runs["explainers"]["LIME"]["calls"]]
    return {"lime_call": lime, "shap_document": case["document"], "shap_values": case["scores"],
            "shap_masks": case["masks"], "masked_not_positive": [words[p] for p in case["not_positive"]],
            "tokens": len(words), "minimal_over": f"the {len(runs['shap_subdocuments'])} positively predicted "
                                                  "sub-documents of the probe (its words in order)",
            **hypotheses(lime_call_made_by_the_released_class="LimeTextExplainer" in calls,
                         lime_default_is_bow_true=lime.get("LimeTextExplainer.bow", ["", ""])[1] == "True",
                         positive_prediction=1 / (1 + math.exp(-z)) > 0.5,
                         shap_token_masked_without_positive_value=bool(case["not_positive"]))}


def check() -> ClaimResult:
    """The released explainers on the probe document (one outside program) and the pipeline's explained documents
    (the other, shared with the claims on the pipeline: one run per report)."""
    runs, pipeline = explainer_runs(), pipeline_runs()
    steps = (defaults(runs), positive_predictions(pipeline), positive_class(runs), anchor_order(runs),
             shap_positive_only(runs), defaults_but_bow(runs), masking_rules(runs))
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS,
                        counterexample=counterexample(runs), steps=steps, corrected=CORRECTED, source=SOURCE)
