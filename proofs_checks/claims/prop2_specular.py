"""Prop. 2's proof, "Let us assume f(xi) = 1 (the case f(xi) = 0 is specular)": is the case f(xi) = 0 a mirror image?

For the word-presence model f(z) = prod_{j in J} 1{w_j in z}, f(xi) = 0 means a word of J is absent from xi.
Masking replaces words by the mask token and never adds one (the mask token is not a word of J, section 3's
assumption), so f = 0 on every perturbation: every drop is 0, for either class. The mirror image of the case
f(xi) = 1, where removing the least frequent word of J drops the prediction, would be a set of words whose removal
raises it; there is none. What FRED returns is decided by the threshold alone: explaining f (the positive-class
confidence of section 3) the threshold eps E[f] = 0 is met by every candidate, so Eq. (2)'s solutions are all the
single tokens and FRED returns the first one with found = True; explaining the predicted class 1 - f = 1, the
threshold eps > 0 is met by none and FRED returns found = False.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from analytic import ShortcutModel, all_drops_rational, eq2_solutions, table_from_classifier

from ..results import ClaimResult, argued, checked
from ..subject import explainer

CLAIM = "prop2-specular"
STATEMENT = (
    "Proof of Prop. 2: 'Let us assume f(xi) = 1 (the case f(xi) = 0 is specular)': for f(z) = prod_{j in J} "
    "1{w_j in z} with f(xi) = 0, the explanation of the prediction mirrors the case f(xi) = 1, i.e. some candidate "
    "of size <= l_max has a positive drop for the predicted class (its removal moves the prediction, as c* does)."
)
CORRECTED = (
    "Under mask sampling (mask token not in J) the case f(xi) = 0 is degenerate, not specular: a word of J is absent "
    "from xi and stays absent, so f = 0 on every perturbation and every drop is 0. Explaining f (the positive class, "
    "section 3's convention) the threshold eps E[f] = 0 is met by every candidate: Eq. (2)'s solutions are all the "
    "single tokens, and FRED returns found = True with the first token (its tie rule), with drop 0, whether or not "
    "it is a word of J. Explaining the predicted class (1 - f = 1) the threshold is eps > 0 and Eq. (2) has no "
    "solution: FRED returns found = False. Prop. 2 is a statement about f(xi) = 1 only."
)
WORDS = ("w1", "w2", "x")  # x is no word of any J
JS = (("w1",), ("w2",), ("w1", "w2"))
MAX_TOKENS = 3
PS = (Fraction(1, 2), Fraction(1, 10))
EPSS = (Fraction(3, 20), Fraction(1))
SMALLER = ("fewer tokens b, then fewer words in J, then earlier documents (sequences over w1, w2 in that order); "
           "Prop. 2's setting: every word of the document is in J, one word of J absent (m_1 = 0) so that f(xi) = 0")


def _fred(model: ShortcutModel, text: str, label: int | None, p, eps):
    """Fred(sampler='exact') on the shortcut classifier's probabilities [1 - f, f]; label None: the predicted one."""
    return explainer(model.predict_proba, exact=True).explain(text, label=label, p=float(p), eps=float(eps),
                                                               max_len=len(text.split()))


def case(tokens: tuple[str, ...], words: tuple[str, ...], p: Fraction, eps: Fraction) -> dict:
    """Both classes on one document: exact drops and Eq. (2) (rational), and FRED's explanations."""
    model = ShortcutModel(words)
    f = [Fraction(v) for v in table_from_classifier(model, list(tokens))]
    out = {"document": " ".join(tokens), "J": list(words), "multiplicities": [tokens.count(w) for w in words],
           "p": str(p), "eps": str(eps), "f_by_pattern_code": [str(v) for v in f]}
    for label, table, asked in ((1, f, 1), (0, [1 - v for v in f], None)):  # class 0: FRED's default label
        sol = eq2_solutions(table, p, eps, len(tokens), drops=all_drops_rational(table, p))
        fred = _fred(model, " ".join(tokens), asked, p, eps)
        out[f"class_{label}"] = {
            "fred_label": fred.label, "mean": str(sol.mean), "threshold": str(sol.threshold),
            "largest_drop": str(max(sol.drops.values())), "eq2_size": sol.size,
            "solutions": [[tokens[i] for i in s] for s in sol.solutions],
            "all_singletons": list(sol.solutions) == [(i,) for i in range(len(tokens))],
            "fred_found": fred.found, "fred_best_ids": list(fred.best_ids), "fred_best": list(fred.best),
            "fred_drop": fred.drop}
    return out


def _documents() -> tuple[list, int]:
    """(tokens, J, in Prop. 2's setting) with f(xi) = 0 and b <= MAX_TOKENS, those in Prop. 2's setting (every word of
    the document in J) first, in the order SMALLER; and how many (document, J) of the setting precede the first
    one (each has f(xi) = 1)."""
    pairs = [(tokens, words) for b in range(1, MAX_TOKENS + 1) for words in JS
             for tokens in itertools.product(WORDS, repeat=b)]
    pairs.sort(key=lambda t: (len(t[0]), len(t[1])))  # stable: documents keep their product order
    setting = [(t, w) for t, w in pairs if set(t) <= set(w)]
    first = next(i for i, (t, w) in enumerate(setting) if not set(w) <= set(t))
    zero = [(t, w, set(t) <= set(w)) for t, w in pairs if not set(w) <= set(t)]
    return sorted(zero, key=lambda r: not r[2]), first


def check() -> ClaimResult:
    """The minimal case, then every document of the family, both classes, at every p and eps."""
    docs, smaller = _documents()
    rows = [{**case(tokens, words, p, eps), "prop2_setting": setting}
            for tokens, words, setting in docs for p in PS for eps in EPSS]
    cx = next(r for r in rows if r["prop2_setting"] and r["p"] == "1/2" and r["eps"] == "3/20")
    mirror = [r for r in rows if Fraction(r["class_0"]["largest_drop"]) > 0]
    constant = [r for r in rows if any(v != "0" for v in r["f_by_pattern_code"])]
    class1_bad = [r for r in rows if not (r["class_1"]["all_singletons"] and r["class_1"]["fred_found"]
                                          and r["class_1"]["fred_best_ids"] == [0] and r["class_1"]["fred_drop"] == 0)]
    class0_bad = [r for r in rows if not (r["class_0"]["eq2_size"] is None and not r["class_0"]["fred_found"]
                                          and r["class_0"]["fred_label"] == 0)]
    family = {"runs": len(rows), "documents": len(docs), "words": list(WORDS), "J": [list(j) for j in JS],
              "max_tokens": MAX_TOKENS, "p": [str(p) for p in PS], "eps": [str(e) for e in EPSS],
              "in_prop2_setting": sum(d[2] for d in docs)}
    c0, c1 = cx["class_0"], cx["class_1"]
    steps = (
        checked(f"{CLAIM}.st1-minimal", CLAIM, "statement", "counterexample",
                f"Document '{cx['document']}', J = {cx['J']} (multiplicities {cx['multiplicities']}), p = 1/2, "
                f"eps = 3/20: f = "
                f"{cx['f_by_pattern_code']} on the patterns. Predicted class 0 (1 - f): largest drop "
                f"{c0['largest_drop']}, threshold {c0['threshold']}, no solution, FRED found={c0['fred_found']}. "
                f"Class 1 (f): largest drop {c1['largest_drop']}, threshold {c1['threshold']}, solutions "
                f"{c1['solutions']}, FRED found={c1['fred_found']} with {c1['fred_best']} (drop {c1['fred_drop']}). "
                f"No removal moves the prediction: nothing to mirror. Exact (rational); minimal: {SMALLER} "
                f"(the {smaller} smaller cases of the setting all have f(xi) = 1).",
                holds=Fraction(c0["largest_drop"]) > 0,
                values={"counterexample": cx, "smaller_means": SMALLER, "smaller_cases": smaller}),
        checked(f"{CLAIM}.st2-family", CLAIM, "statement", "exhaustive",
                f"On all {len(rows)} runs of the family ({len(docs)} (document, J) with f(xi) = 0, b <= {MAX_TOKENS},"
                f" p in {family['p']}, eps in {family['eps']}), a candidate with a positive drop for the predicted "
                f"class exists in {len(mirror)}.", holds=len(mirror) == len(rows),
                values={**family, "with_a_positive_drop": len(mirror)}),
        checked(f"{CLAIM}.p1-constant", CLAIM, "proof", "exhaustive",
                f"f = 0 on every one of the 2^b masked texts (analytic.table_from_classifier) of each of the "
                f"{len(docs)} family documents" + (f"; not on {constant[:2]}" if constant else "."),
                holds=not constant, values={**family, "not_constant": constant[:3]}),
        argued(f"{CLAIM}.p2-why", CLAIM, "proof",
               "Masking replaces a token by the mask token and adds no word of J (the mask token is not in J): a "
               "word of J absent from xi is absent from every perturbation, so f = 0 and 1 - f = 1 on all of them. "
               "Then every drop E[f] - E[f | c perturbed] is 0 for both classes. Class 1: eps E[f] = 0 <= 0, every "
               "candidate of size 1 meets it, the minimal size is 1 and every single token solves Eq. (2); FRED's tie "
               "rule returns position 0. Class 0: the threshold eps E[1 - f] = eps > 0 exceeds every drop (0): no "
               "solution, found = False."),
        checked(f"{CLAIM}.c1-positive-class", CLAIM, "correction", "exhaustive",
                f"Explaining f (label 1) on all {len(rows)} runs: Eq. (2)'s solutions are exactly the single tokens "
                "(rational), and Fred(sampler='exact') returns found = True, position 0, drop 0"
                + (f"; failures {class1_bad[:2]}" if class1_bad else "."),
                holds=not class1_bad, values={**family, "failures": class1_bad[:3]}),
        checked(f"{CLAIM}.c2-predicted-class", CLAIM, "correction", "exhaustive",
                f"Explaining the predicted class (label 0, FRED's default) on all {len(rows)} runs: Eq. (2) has no "
                "solution (rational) and Fred(sampler='exact') returns found = False"
                + (f"; failures {class0_bad[:2]}" if class0_bad else "."),
                holds=not class0_bad, values={**family, "failures": class0_bad[:3]}),
    )
    return ClaimResult(
        id=CLAIM,
        kind="proof-step",
        statement=STATEMENT,
        conditions="Mask sampling with a mask token that is not a word of J (if it were, masking could add it and "
                   "f would not be constant). Under Prop. 2's hypotheses as stated (J the document's words, every "
                   "m_j >= 1) f(xi) = 1 always; f(xi) = 0 needs a word of J absent from xi (m_1 = 0).",
        counterexample=cx,
        steps=steps,
        corrected=CORRECTED,
    )
