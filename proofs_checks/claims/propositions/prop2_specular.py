"""Prop. 2's proof, "Let us assume f(xi) = 1 (the case f(xi) = 0 is specular)" (line 1026), on the word-presence
model f(z) = prod_{j in J} 1{w_j in z}.

Readings of the remark, each with its own steps and verdict:

* ``within-hypotheses`` (headline): the remark speaks of Prop. 2's setting. "k is the maximum number of unique words
  in the document" (line 530) makes J = {1, ..., k} every distinct word of xi, labelled so that m_1 < ... < m_k, and
  J is "a subset of [d]" (line 531), [d] indexing "the distinct words in xi" (line 237): every word of J occurs in
  xi, so f(xi) = 1 always, the case f(xi) = 0 never arises and the remark is vacuous for Prop. 2's f. The claim
  prop2-shortcut reads J the same way
  (:func:`proofs_checks.claims.propositions.shortcut_proofs.prop2_j_conditions`). Step v1 computes it on a finite
  family, also under the weaker reading 'J any subset of [d]'.
* ``relabelled`` (alternative): "specular" as the class swap "without loss of generality" of line 451: a document
  classified negative by the mirrored model 1 - f is explained through the confidence of its predicted class, f,
  the same computation as the case f(xi) = 1. The convention holds: step m1 checks FRED on it.

The case f(xi) = 0 needs a word of J absent from xi, which lies outside Prop. 2's hypotheses: no reading of the
remark, and no counterexample to it. What happens there is this project's extension (ours), stated as the precise
statement and checked by the correction steps: it does not extend. Masking replaces words by the mask token and
never adds one (the mask token is no word of J, section 3's assumption), so f = 0 on every perturbation and every
drop is 0: nothing moves the prediction, so there is no mirror image of the least frequent word's removal. What
FRED returns is decided by the threshold alone: explaining f the threshold eps E[f] = 0 is met by every candidate
(Eq. (2)'s solutions are all the single tokens, FRED returns the first); explaining the predicted class 1 - f = 1,
the threshold eps > 0 is met by none.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from analytic import ShortcutModel, all_drops_rational, exact_explain, table_from_classifier
from fred_constants import MASK_TOKEN

from ...subject.explainer import explainer
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .shortcut_proofs import prop2_j_conditions

CLAIM = Claim("prop2-specular")
WITHIN, RELABELLED = "within-hypotheses", "relabelled"
SOURCE = (
    Quote(1026, r"Let us assume $\model(\xi) = 1$ (the case $\model(\xi) = 0$ is specular)."),
    Quote(530, r"Let us assume that $\mult_1 < \mult_2 < \ldots < \mult_k$, where $k$ is the maximum number of "
               r"unique words in the document."),
    Quote(531, r"Consider the set $J = \{1, 2, \ldots, k\}$ as a subset of $[d]$"),
    Quote(237, r"$\localdic_\xi = \{\word_1,\ldots,\word_d\} \in \dictionary$ captures the distinct words in $\xi$"),
    Quote(451, r"We assume, without loss of generality, that the example $\xi$ is classified as positive."),
    Quote(477, r"We make the (realistic) assumption that the mask token is not in the fitted corpus"),
)
READINGS = (
    Reading(WITHIN, "headline",
            "under Prop. 2's hypotheses (J = {1, ..., k} every distinct word of xi, m_1 < ... < m_k; a fortiori J a "
            "subset of the distinct words of xi) f(xi) = 1 always: the case f(xi) = 0 never arises and the remark "
            "is vacuous for Prop. 2's f",
            why=(Quote(530, r"where $k$ is the maximum number of unique words in the document."),
                 Quote(531, r"Consider the set $J = \{1, 2, \ldots, k\}$ as a subset of $[d]$"),
                 Quote(237, r"captures the distinct words in $\xi$"))),
    Reading(RELABELLED, "alternative",
            "the class-swap convention of line 451: a document classified negative by the mirrored model 1 - f is "
            "explained through its predicted class's confidence f, exactly as in the case f(xi) = 1",
            why=(Quote(451, r"We assume, without loss of generality, that the example $\xi$ is classified as "
                            r"positive."),)),
)
STATEMENT = "Proof of Prop. 2 (line 1026): 'Let us assume f(xi) = 1 (the case f(xi) = 0 is specular).'"
CORRECTED = (
    "Ours (an extension beyond Prop. 2's hypotheses, which does not extend): with J holding a word absent from xi "
    "(the only way f(xi) = 0) and mask sampling (mask token not in J), the case f(xi) = 0 is degenerate, not "
    "specular: the absent word stays absent, so f = 0 on every perturbation and every drop is 0. Explaining f (the "
    "positive class, section 3's convention) the threshold eps E[f] = 0 is met by every candidate: Eq. (2)'s "
    "solutions are all the single tokens, and FRED reports the threshold met with the first token (its tie rule), "
    "with drop 0, whether or not it is a word of J. Explaining the predicted class (1 - f = 1) the threshold is "
    "eps > 0 and Eq. (2) has no solution: FRED reports it not met. Prop. 2 is a statement about f(xi) = 1 only."
)
WORDS = ("w1", "w2", "x")  # x is no word of any J
JS = (("w1",), ("w2",), ("w1", "w2"))
MAX_TOKENS = 3
#: Documents of the vacuity check (step v1): every sequence over WORDS with at most this many tokens, every J of JS.
VACUITY_TOKENS = 4
PS = (Fraction(1, 2), Fraction(1, 10))
EPSS = (Fraction(3, 20), Fraction(1))
SMALLER = ("fewer tokens b, then fewer words in J, then earlier documents (sequences over w1, w2 in that order); "
           "closest to Prop. 2's setting first: every word of the document is in J, one word of J absent so that "
           "f(xi) = 0")


def prop2_hypotheses(tokens, words) -> dict:
    """Prop. 2's hypotheses on (document, J), computed (:func:`hypotheses` record), read as prop2-shortcut reads
    them (:func:`~proofs_checks.claims.propositions.shortcut_proofs.prop2_j_conditions`): J every distinct word of the
    document, labelled so that m_1 < ... < m_k in J's listed order, and the mask token no word of J."""
    return hypotheses(**prop2_j_conditions(tokens, words))


def subset_hypotheses(tokens, words) -> dict:
    """The weaker reading of line 531 alone, J any subset of [d] (words of xi outside J allowed), with the same order
    and mask condition (:func:`hypotheses` record)."""
    conditions = prop2_j_conditions(tokens, words)
    del conditions["J_every_distinct_word"]
    return hypotheses(**conditions)


def extension_hypotheses(tokens, words) -> dict:
    """The hypotheses of this project's extension (the precise statement), computed: the presence model on a
    non-empty J with the mask token no word of J (line 477), and xi with f(xi) = 0 (f evaluated on the text)."""
    return hypotheses(J_non_empty=len(words) > 0, mask_token_not_in_J=MASK_TOKEN not in words,
                      f_xi_zero=bool(ShortcutModel(tuple(words))([" ".join(tokens)])[0] == 0))


def _fred(classifier_fn, text: str, label: int | None, p, eps):
    """Fred(sampler='exact') on class probabilities; label None: the predicted one."""
    return explainer(classifier_fn, exact=True).explain(text, label=label, p=float(p), eps=float(eps),
                                                        max_len=len(text.split()))


def case(tokens: tuple[str, ...], words: tuple[str, ...], p: Fraction, eps: Fraction) -> dict:
    """Both classes on one document: exact drops and Eq. (2) (rational), and FRED's explanations."""
    model = ShortcutModel(words)
    f = [Fraction(v) for v in table_from_classifier(model, list(tokens))]
    out = {"document": " ".join(tokens), "J": list(words), "multiplicities": [tokens.count(w) for w in words],
           "p": str(p), "eps": str(eps), "f_by_pattern_code": [str(v) for v in f]}
    for label, table, asked in ((1, f, 1), (0, [1 - v for v in f], None)):  # class 0: FRED's default label
        sol = exact_explain(table, p, eps, len(tokens), drops=all_drops_rational(table, p))
        fred = _fred(model.predict_proba, " ".join(tokens), asked, p, eps)
        out[f"class_{label}"] = {
            "fred_label": fred.label, "mean": str(sol.mean_prediction), "threshold": str(sol.threshold),
            "largest_drop": str(max(sol.drops.values())), "eq2_size": sol.size,
            "solutions": [[tokens[i] for i in s] for s in sol.solutions],
            "all_singletons": list(sol.solutions) == [(i,) for i in range(len(tokens))],
            "fred_found": fred.found, "fred_best_ids": list(fred.best_ids), "fred_best": list(fred.best),
            "fred_drop": fred.drop}
    return out


def _pairs(max_tokens: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every (document over WORDS with at most ``max_tokens`` tokens, J of JS), in the order of :data:`SMALLER`."""
    pairs = [(tokens, words) for b in range(1, max_tokens + 1) for words in JS
             for tokens in itertools.product(WORDS, repeat=b)]
    return sorted(pairs, key=lambda t: (len(t[0]), len(t[1])))  # stable: documents keep their product order


def _vacuity() -> tuple[bool, dict]:
    """Step v1: among the (document, J) pairs inside Prop. 2's hypotheses (:func:`prop2_hypotheses`), and inside the
    weaker 'J any subset of [d]' (:func:`subset_hypotheses`), none has f(xi) = 0; every pair with f(xi) = 0 has a
    word of J absent from the document."""
    inside, subset, zero, zero_inside, zero_outside_J = 0, 0, 0, [], 0
    for tokens, words in _pairs(VACUITY_TOKENS):
        record, weaker = prop2_hypotheses(tokens, words), subset_hypotheses(tokens, words)
        f_xi = ShortcutModel(words)([" ".join(tokens)])[0]
        inside += record["satisfies_hypotheses"]
        subset += weaker["satisfies_hypotheses"]
        zero += f_xi == 0
        zero_outside_J += f_xi == 0 and not record["hypotheses"]["J_in_document"]
        if f_xi == 0 and weaker["satisfies_hypotheses"]:  # the weaker reading contains Prop. 2's
            zero_inside.append({"document": " ".join(tokens), "J": list(words)})
    return not zero_inside and zero_outside_J == zero, {
        "words": list(WORDS), "J": [list(j) for j in JS], "max_tokens": VACUITY_TOKENS,
        "J_convention": "J's words listed in label order (w1 before w2); Prop. 2's hypotheses: J every distinct "
                        "word of the document and m_1 < m_2 in that order; weaker: J any subset of the distinct "
                        "words, same order",
        "pairs": len(_pairs(VACUITY_TOKENS)), "inside_hypotheses": inside, "inside_weaker_subset_reading": subset,
        "f_xi_zero_inside": zero_inside[:5], "f_xi_zero_in_all": zero,
        "f_xi_zero_with_a_word_of_J_absent": zero_outside_J}


def _relabelled() -> tuple[bool, dict]:
    """Step m1: on every pair of the vacuity family inside Prop. 2's hypotheses, FRED explaining the mirrored model's
    predicted (negative) class, probabilities [f, 1 - f], returns what it returns explaining f's class 1,
    [1 - f, f]."""
    runs, wrong = 0, []
    for (tokens, words), (p, eps) in itertools.product(_pairs(VACUITY_TOKENS), zip(PS, EPSS)):
        if not prop2_hypotheses(tokens, words)["satisfies_hypotheses"]:
            continue
        model, text = ShortcutModel(words), " ".join(tokens)
        mirrored = _fred(lambda texts: model.predict_proba(texts)[:, ::-1], text, None, p, eps)
        direct = _fred(model.predict_proba, text, 1, p, eps)
        runs += 1
        if (mirrored.label, mirrored.best_ids, mirrored.drop, mirrored.found) != (0, direct.best_ids, direct.drop,
                                                                                  direct.found):
            wrong.append({"document": text, "J": list(words), "p": str(p), "eps": str(eps)})
    return not wrong, {"runs": runs, "max_tokens": VACUITY_TOKENS,
                       "p_eps": [[str(p), str(e)] for p, e in zip(PS, EPSS)], "mismatches": wrong[:5]}


def _documents() -> tuple[list, int]:
    """(tokens, J, closest to Prop. 2's setting) with f(xi) = 0 and b <= MAX_TOKENS, those closest to the setting
    (every word of the document in J) first, in the order SMALLER; and how many (document, J) of that kind precede
    the first one (each has f(xi) = 1)."""
    pairs = _pairs(MAX_TOKENS)
    setting = [(t, w) for t, w in pairs if set(t) <= set(w)]
    first = next(i for i, (t, w) in enumerate(setting) if not set(w) <= set(t))
    zero = [(t, w, set(t) <= set(w)) for t, w in pairs if not set(w) <= set(t)]
    return sorted(zero, key=lambda r: not r[2]), first


def _runs(docs: list) -> list[dict]:
    """:func:`case` on every family document (f(xi) = 0) at every p and eps, marked when closest to the setting."""
    return [{**case(tokens, words, p, eps), "closest_to_prop2_setting": setting}
            for tokens, words, setting in docs for p in PS for eps in EPSS]


def _family(docs: list, rows: list[dict]) -> dict:
    """What the correction steps say of the family they ran on."""
    return {"runs": len(rows), "documents": len(docs), "words": list(WORDS), "J": [list(j) for j in JS],
            "max_tokens": MAX_TOKENS, "p": [str(p) for p in PS], "eps": [str(e) for e in EPSS],
            "closest_to_prop2_setting": sum(d[2] for d in docs)}


def _conditions(vacuity: dict) -> str:
    """The conditions, with step v1's counts."""
    return (
        "The remark is vacuous for Prop. 2's f: J = {1, ..., k} is every distinct word of xi (k 'the maximum "
        "number of unique words in the document', line 530; 'a subset of [d]', line 531; [d] the distinct "
        "words of xi, line 237), so every word of J occurs and f(xi) = 1. Step v1 computes it on "
        f"{vacuity['pairs']} (document, J) pairs, with J's words in label order: "
        f"{vacuity['inside_hypotheses']} satisfy the hypotheses as read here and in prop2-shortcut, "
        f"{vacuity['inside_weaker_subset_reading']} the weaker 'J any subset of [d]', and none of either has "
        "f(xi) = 0. As the class-swap convention of line 451 (reading relabelled) it holds (steps m1, m2). The "
        "case f(xi) = 0 needs a word of J absent from xi, outside the hypotheses: no reading of the remark and "
        "no counterexample to it, but this project's extension (ours, the precise statement, correction steps), "
        "which does not extend: with mask sampling and a mask token that is no word of J (if it were, masking "
        "could add it and f would not be constant), the case is degenerate, not specular.")


def check() -> ClaimResult:
    """Vacuity under the hypotheses, the relabelled reading, then this project's extension beyond the hypotheses:
    every document of the family (the minimal one first), both classes, at every p and eps."""
    vacuity = _vacuity()
    docs, smaller = _documents()
    rows = _runs(docs)
    family = _family(docs, rows)
    steps = (vacuous(vacuity), vacuous_proof(), relabelled(), relabelled_proof(),
             degenerate(docs, rows, smaller, family), constant(rows, family), why(), positive_class(rows, family),
             predicted_class(rows, family))
    return CLAIM.result(kind="proof-step", statement=STATEMENT, conditions=_conditions(vacuity[1]),
                        counterexample=None, steps=steps, corrected=CORRECTED, source=SOURCE, readings=READINGS)


def vacuous(vacuity: tuple[bool, dict]) -> StepResult:
    """v1: no (document, J) pair inside Prop. 2's hypotheses (or the weaker subset reading) has f(xi) = 0."""
    holds, seen = vacuity
    return CLAIM.checked(
        "v1-vacuous", "statement", "exhaustive",
        f"Of the {seen['pairs']} (document, J) pairs (documents over {list(WORDS)} with at most "
        f"{VACUITY_TOKENS} tokens, J in {seen['J']}, its words listed in label order), "
        f"{seen['inside_hypotheses']} satisfy Prop. 2's hypotheses as prop2-shortcut reads them (J every "
        "distinct word of the document, m_1 < m_2 in J's listed order, mask token not in J) and "
        f"{seen['inside_weaker_subset_reading']} the weaker 'J any subset of [d]' with the same order; "
        f"{len(seen['f_xi_zero_inside'])} of those have f(xi) = 0. Of the {seen['f_xi_zero_in_all']} "
        f"pairs with f(xi) = 0, {seen['f_xi_zero_with_a_word_of_J_absent']} have a word of J absent from "
        "the document, outside 'J a subset of [d]'. The case the remark covers cannot occur: the remark is "
        "vacuous for Prop. 2's f.",
        holds=holds, reading=WITHIN, values=seen)


def vacuous_proof() -> StepResult:
    """v2: every word of J occurs in xi, so f(xi) = 1 under the hypotheses."""
    return CLAIM.argued(
        "v2-vacuous", "proof",
        "J = {1, ..., k} is a subset of [d] (line 531; with k the number of unique words, line 530, it is all "
        "of [d]), and [d] indexes the distinct words of xi (line 237): every w_j of J occurs in xi, so "
        "f(xi) = prod_{j in J} 1{w_j in xi} = 1. Under the hypotheses the case f(xi) = 0 never arises.",
        reading=WITHIN)


def relabelled() -> StepResult:
    """m1: FRED on the mirrored model's predicted class returns what it returns on f's class 1."""
    holds, seen = _relabelled()
    return CLAIM.checked(
        "m1-relabelled", "statement", "exhaustive",
        f"On all {seen['runs']} runs inside the hypotheses (the pairs of step v1, (p, eps) in "
        f"{seen['p_eps']}), Fred(sampler='exact') on the mirrored model [f, 1 - f] "
        "explains its predicted class 0 with the same positions, drop and outcome as it explains f's class 1"
        + (f"; mismatches: {seen['mismatches'][:2]}" if not holds else "."),
        holds=holds, reading=RELABELLED, values=seen)


def relabelled_proof() -> StepResult:
    """m2: swapping the classes swaps the columns and the predicted class: nothing FRED computes changes."""
    return CLAIM.argued(
        "m2-relabelled", "proof",
        "FRED explains the confidence of the class it is asked for, by default the predicted one. Swapping the "
        "classes swaps the columns and the predicted class with them, so the explained confidence, every drop "
        "and Eq. (2) are unchanged.", reading=RELABELLED)


def degenerate(docs: list, rows: list[dict], smaller: int, family: dict) -> StepResult:
    """c1: beyond the hypotheses (f(xi) = 0) every drop is 0 for both classes; the minimal case in full."""
    cx = next(r for r in rows if r["closest_to_prop2_setting"] and r["p"] == "1/2" and r["eps"] == "3/20")
    tokens, words = tuple(cx["document"].split()), tuple(cx["J"])
    cx = {**extension_hypotheses(tokens, words), **cx, "prop2_hypotheses": prop2_hypotheses(tokens, words)}
    outside_extension = [{"document": " ".join(t), "J": list(w)} for t, w, _ in docs
                         if not extension_hypotheses(t, w)["satisfies_hypotheses"]]
    moving = [r for r in rows if Fraction(r["class_0"]["largest_drop"]) != 0
              or Fraction(r["class_1"]["largest_drop"]) != 0]
    c0, c1 = cx["class_0"], cx["class_1"]
    return CLAIM.checked(
        "c1-degenerate", "correction", "exhaustive",
        f"Ours, beyond Prop. 2's hypotheses (a word of J absent from xi), so no counterexample to the remark: "
        f"on all {len(rows)} runs of the family ({len(docs)} (document, J) with f(xi) = 0, b <= "
        f"{MAX_TOKENS}, p in {family['p']}, eps in {family['eps']}; inside the extension's hypotheses: "
        f"{not outside_extension}), the largest drop is 0 for both classes"
        + (f" except in {len(moving)}" if moving else "")
        + f": no removal moves the prediction, nothing mirrors the case f(xi) = 1, the extension does not "
          f"extend. The minimal case ({SMALLER}; the {smaller} smaller cases of that kind all have "
          f"f(xi) = 1): '{cx['document']}', J = {cx['J']} (multiplicities {cx['multiplicities']}; inside "
          f"Prop. 2's hypotheses: {cx['prop2_hypotheses']['satisfies_hypotheses']}), p = 1/2, eps = 3/20: "
          f"f = {cx['f_by_pattern_code']} on the patterns; class 0 (1 - f): largest drop "
          f"{c0['largest_drop']}, threshold {c0['threshold']}, FRED found={c0['fred_found']}; class 1 (f): "
          f"largest drop {c1['largest_drop']}, threshold {c1['threshold']}, solutions {c1['solutions']}, "
          f"FRED found={c1['fred_found']} with {c1['fred_best']} (drop {c1['fred_drop']}). Exact (rational).",
        holds=not moving and not outside_extension,
        values={**family, "with_a_nonzero_drop": len(moving), "outside_extension": outside_extension[:3],
                "minimal": {**cx, "smaller_means": SMALLER, "smaller_cases": smaller}})


def constant(rows: list[dict], family: dict) -> StepResult:
    """p1: f = 0 on every masked text of every family document."""
    bad = [r for r in rows if any(v != "0" for v in r["f_by_pattern_code"])]
    return CLAIM.checked(
        "p1-constant", "proof", "exhaustive",
        f"f = 0 on every one of the 2^b masked texts (analytic.table_from_classifier) of each of the "
        f"{family['documents']} family documents" + (f"; not on {bad[:2]}" if bad else "."),
        holds=not bad, values={**family, "not_constant": bad[:3]})


def why() -> StepResult:
    """p2: masking adds no word of J, so f = 0 everywhere, every drop is 0, and the threshold alone decides."""
    return CLAIM.argued(
        "p2-why", "proof",
        "Masking replaces a token by the mask token and adds no word of J (the mask token is not in J): a "
        "word of J absent from xi is absent from every perturbation, so f = 0 and 1 - f = 1 on all of them. "
        "Then every drop E[f] - E[f | c perturbed] is 0 for both classes. Class 1: eps E[f] = 0 <= 0, every "
        "candidate of size 1 meets it, the minimal size is 1 and every single token solves Eq. (2); FRED's tie "
        "rule returns position 0. Class 0: the threshold eps E[1 - f] = eps > 0 exceeds every drop (0): no "
        "solution, found = False.")


def _class_step(step: str, note: str, bad: list[dict], family: dict) -> StepResult:
    """A correction step on one class over every run: ``note``, then the first failures when there are some."""
    return CLAIM.checked(step, "correction", "exhaustive", note + (f"; failures {bad[:2]}" if bad else "."),
                         holds=not bad, values={**family, "failures": bad[:3]})


def positive_class(rows: list[dict], family: dict) -> StepResult:
    """c2: explaining f (label 1): every single token solves Eq. (2), and FRED returns position 0 with drop 0."""
    bad = [r for r in rows if not (r["class_1"]["all_singletons"] and r["class_1"]["fred_found"]
                                   and r["class_1"]["fred_best_ids"] == [0] and r["class_1"]["fred_drop"] == 0)]
    return _class_step(
        "c2-positive-class",
        f"Explaining f (label 1) on all {len(rows)} runs: Eq. (2)'s solutions are exactly the single tokens "
        "(rational), and Fred(sampler='exact') returns found = True, position 0, drop 0", bad, family)


def predicted_class(rows: list[dict], family: dict) -> StepResult:
    """c3: explaining the predicted class (label 0): Eq. (2) has no solution and FRED reports the threshold not met."""
    bad = [r for r in rows if not (r["class_0"]["eq2_size"] is None and not r["class_0"]["fred_found"]
                                   and r["class_0"]["fred_label"] == 0)]
    return _class_step(
        "c3-predicted-class",
        f"Explaining the predicted class (label 0, FRED's default) on all {len(rows)} runs: Eq. (2) has no "
        "solution (rational) and Fred(sampler='exact') returns found = False", bad, family)
