"""Section 4, "Results" (line 680): "the average proportion of document (|e|/|xi|) used for explanation (note that
AUC-MoRF is independent of this)".

AUC-MoRF masks the explainer's positively scored tokens e+ in order (lines 567-569), while the proportion is
|e|/|xi| for the explanation e scored by sufficiency and comprehensiveness; for LIME and SHAP, e is their first k
ranked tokens with k the size of FRED-pos's explanation (line 1168), and line 1169 lists the metrics computed on e
without AUC-MoRF. For Anchors, AUC-MoRF masks "the tokens ordered as in the anchor" (line 1170): e+ is e itself.

Readings (each with its own verdict):

* ``importance`` (headline): for the importance-based explainers, the ones AUC-MoRF is defined for (line 552),
  the value does not depend on e: by its definition (lines 564, 568-569) it is a function of e+, which the explainer
  sets, not e (argued, step p1: the formulas take no e, so no computation can test it); and the authors' released
  function, the experiments' code, returns the same value whatever explanation and k it receives (run as an outside
  program when ``$FRED_AUTHORS_CHECKOUT`` is set, step s1, with its evaluation loop's FRED-pos, LIME and SHAP rows;
  argued without it). The Anchor rows are the exception.
* ``every-row`` (stronger): for every explainer whose AUC-MoRF the tables print, Anchor included. Fails: on a
  two-token document whose score falls by 1/4 per masked token (so only the number of masked tokens matters),
  anchors of one and two tokens get different AUC-MoRF under the printed sum, the normalised area and the released
  quantity alike (step s2, the smallest such document). The released evaluation loop, which computes AUC-MoRF for
  every explainer, Anchor included, does the same on its Anchor rows (step s4, with the checkout), and the
  proportion it reports for them is that of the anchor cut to FRED-pos's size k, while AUC-MoRF masks the whole
  anchor.
* ``positive-part`` (alternative): e+ read as the positively scored tokens of e, as the notation suggests. Then, for
  LIME and SHAP, |e+| follows k, hence the proportion: on the same document, with both tokens positively scored,
  k = 1 and k = 2 give the same different values (step s3). Line 568 ("according to the explainer in exam") and
  line 1169 rule this reading out.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from fred.evaluation.metrics import MORF_MAX_PERTURBATIONS

from ...subject.authors_probe import NOT_RUN, checkout_path
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .aucmorf_formulas import RELEASED_CASES, area_value, printed_value, released_against_formula, released_value
from .released_evaluation import CASES as LOOP_CASES
from .released_evaluation import agree, masked_score, released_evaluation

CLAIM = Claim("metric-aucmorf-proportion")
IMPORTANCE, EVERY_ROW, POSITIVE_PART = "importance", "every-row", "positive-part"
SOURCE = (
    Quote(680, r"Along with the metrics above, we report here the average computing time, and the average proportion "
               r"of document (\emph{i.e.}, $\size{\explanation} / \size{\xi}$) used for explanation (note that "
               r"AUC-MoRF is independent of this)."),
    Quote(552, r"and \textbf{AUC-MoRF} (Area Under the Most Relevant First Perturbation Curve) "
               r"\citep{kakogeorgiou2021evaluating} for the importance-based explanations."),
    Quote(567, "We stress out that only the tokens with positive score are perturbed for this computation."),
    Quote(568, r"Let us call $\explanation^+$ the list of tokens with positive influence according to the explainer "
               r"in exam."),
    Quote(569, r"In our experiments, we set $D = \min{(20, \size{\explanation^+})}$."),
    Quote(1166, "Remark that while LIME and SHAP share the principle of attributing an importance score for each "
                "token, Anchor aim at outputting the most significant subset of tokens (while FRED has both the "
                "options)."),
    Quote(1168, r"We use as explanation set $\explanation$ for LIME and SHAP the first $k$ tokens ranked by "
                r"importance, where $k$ is the size of FRED's explanation (\texttt{fredpos}) for the same example."),
    Quote(1169, "This is used for computing comprehensiveness, sufficiency, robustness, and proportion."),
    Quote(1170, "Conversely, for computing the AUC-MoRF of Anchors we select the tokens ordered as in the anchor."),
)
READINGS = (
    Reading(IMPORTANCE, "headline",
            "for the rows of the importance-based explainers (FRED-mask, FRED-pos, LIME, SHAP), AUC-MoRF does not "
            "depend on the explanation e whose size the proportion reports: it masks their positively scored tokens "
            "e+; the Anchor rows are the exception (line 1170)",
            why=(Quote(552, "for the importance-based explanations."),
                 Quote(568, r"Let us call $\explanation^+$ the list of tokens with positive influence according to "
                            r"the explainer in exam."),
                 Quote(1168, r"We use as explanation set $\explanation$ for LIME and SHAP the first $k$ tokens ranked "
                             r"by importance"),
                 Quote(1169, "This is used for computing comprehensiveness, sufficiency, robustness, and "
                             "proportion."))),
    Reading(EVERY_ROW, "stronger",
            "for every explainer whose AUC-MoRF the tables print, Anchor included (whose AUC-MoRF masks the anchor "
            "itself)",
            why=(Quote(680, "(note that AUC-MoRF is independent of this)"),
                 Quote(1170, "Conversely, for computing the AUC-MoRF of Anchors we select the tokens ordered as in "
                             "the anchor."))),
    Reading(POSITIVE_PART, "alternative",
            "e+ is the positively scored part of the explanation e, as the notation suggests, so that for LIME and "
            "SHAP AUC-MoRF masks the positive tokens among their first k; lines 568 ('according to the explainer in "
            "exam') and 1169 (the metrics computed on e, AUC-MoRF not among them) rule it out",
            why=(Quote(568, r"Let us call $\explanation^+$ the list of tokens with positive influence"),)),
)
STATEMENT = (
    'Section 4, "Results" (line 680): "we report here the average computing time, and the average proportion of '
    'document (i.e., |e|/|xi|) used for explanation (note that AUC-MoRF is independent of this)." Headline reading: '
    "true for the rows of FRED-mask, FRED-pos, LIME and SHAP, whose AUC-MoRF masks the explainer's positively scored "
    "tokens; false for the Anchor rows, whose AUC-MoRF masks the anchor itself (line 1170)."
)
CONDITIONS = (
    "e+ is the explainer's positively scored tokens by decreasing score (lines 567-568); for LIME and SHAP, e is their "
    "first k ranked tokens (line 1168); for Anchors, AUC-MoRF masks the anchor (line 1170). The three formulas are "
    "those of claim metric-aucmorf (printed sum, normalised area, the released code's quantity): the verdicts do not "
    "depend on which one the tables used. The counterexamples to the every-row and positive-part readings are in "
    "steps s2 and s3, and the released evaluation loop's Anchor rows (run as an outside program when "
    "$FRED_AUTHORS_CHECKOUT is set; argued without it) in step s4; the headline reading has none."
)
#: Largest document of the size search; its symmetric classifier loses this much per masked token.
MAX_TOKENS, LOSS_PER_TOKEN = 3, Fraction(1, 4)


def symmetric_score(masked) -> Fraction:
    """The search's classifier: 1 - LOSS_PER_TOKEN per masked token (only how many are masked matters)."""
    return 1 - LOSS_PER_TOKEN * len(masked)


def _curve(score, ranking) -> list[Fraction]:
    """f(y^(0)), ..., f(y^(|ranking|)): the scores after masking the first m ranked tokens (``score`` of the set of
    masked positions)."""
    return [score(frozenset(ranking[:m])) for m in range(len(ranking) + 1)]


def _formulas(score, n: int, ranking) -> dict:
    """The three AUC-MoRF formulas (:mod:`proofs_checks.claims.metrics.aucmorf_formulas`, those of claim
    metric-aucmorf) on the ranking e+ (exact)."""
    depth = min(MORF_MAX_PERTURBATIONS, len(ranking))
    curve = _curve(score, ranking)
    return {"printed": printed_value(curve, depth), "area": area_value(curve, depth),
            "released": released_value(curve[:min(depth, n) + 1], n)}


def _shared_conditions(n: int, score) -> dict:
    """Confidences in [0, 1] on every masked version (line 233), the document classified positive (line 1116), and
    the classifier symmetric (its score depends only on how many tokens are masked), so two cases differ in the
    size of what AUC-MoRF masks only."""
    versions = [frozenset(c) for r in range(n + 1) for c in itertools.combinations(range(n), r)]
    by_count = {}
    for v in versions:
        by_count.setdefault(len(v), set()).add(score(v))
    return {"confidences_in_unit_interval": all(0 <= score(v) <= 1 for v in versions),
            "classified_positive": score(frozenset()) > Fraction(1, 2),
            "classifier_symmetric": all(len(s) == 1 for s in by_count.values())}


def anchor_hypotheses(n: int, score, anchors) -> dict:
    """Line 680 read for Anchors' rows (each anchor is the ranking AUC-MoRF masks, line 1170): the shared conditions
    and the anchors non-empty subsets of the document."""
    return hypotheses(**_shared_conditions(n, score),
                      anchors_nonempty_subsets=all(a and set(a) <= set(range(n)) for a in anchors))


def occlusion_scores(n: int, score) -> list[Fraction]:
    """The explainer's importance of each token in the positive-part case: the drop f(xi) - f(xi with it masked)."""
    return [score(frozenset()) - score(frozenset({i})) for i in range(n)]


def positive_part_hypotheses(n: int, score, explanations) -> dict:
    """Line 680 read with e+ the positive part of e, for LIME/SHAP rows: the shared conditions; each e the first k
    >= 1 tokens of the explainer's ranking (line 1168; ranking by decreasing importance, ties by position); every
    token of each e positively scored, so that e+ = e."""
    importance = occlusion_scores(n, score)
    ranking = sorted(range(n), key=lambda i: (-importance[i], i))
    return hypotheses(**_shared_conditions(n, score),
                      explanations_first_k_ranked=all(e and e == ranking[:len(e)] for e in explanations),
                      explanations_positively_scored=all(importance[i] > 0 for e in explanations for i in e))


def size_search() -> tuple[dict | None, dict]:
    """The smallest document (1..MAX_TOKENS tokens) with two token lists of different sizes, each a prefix of the
    positions, whose AUC-MoRF differs under all three formulas, on :func:`symmetric_score`. Anchors (every-row) and
    the positive part of LIME/SHAP's e (positive-part) both make AUC-MoRF mask such a list."""
    for n in range(1, MAX_TOKENS + 1):
        for small, large in itertools.combinations([list(range(size)) for size in range(1, n + 1)], 2):
            a, b = _formulas(symmetric_score, n, small), _formulas(symmetric_score, n, large)
            if all(a[f] != b[f] for f in a):
                return {"n_tokens": n, "masked_lists": [small, large],
                        "proportions": [f"{len(small)}/{n}", f"{len(large)}/{n}"],
                        "values": {f: [str(a[f]), str(b[f])] for f in a}}, {"searched_up_to": MAX_TOKENS}
    return None, {"searched_up_to": MAX_TOKENS}


def _values_text(case: dict) -> str:
    return (f"printed sum {' vs '.join(case['values']['printed'])}, area {' vs '.join(case['values']['area'])}, "
            f"released quantity {' vs '.join(case['values']['released'])}")


def check() -> ClaimResult:
    """The importance-based reading (the released code, the definition), then Anchors' rows and the positive-part
    reading on the smallest document that separates two sizes."""
    found = size_search()
    steps = (released_code(), function_of_e_plus(), anchor_size(found), positive_part(found), released_anchor_rows())
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)


#: The rows of the importance-based explainers whose explanation's size follows FRED-pos's (line 1168), and the two
#: cases of the released loop that differ only in that size (FRED-pos's explanation and the anchor: 1 then 2 tokens).
SIZED_ROWS = ("FRED_pos", "LIME", "SHAP")
SIZE_PAIR = (0, 1)


def _loop_pairs(loop: dict, rows) -> list[dict]:
    """For each row name, its proportion and AUC-MoRF in the two cases of :data:`SIZE_PAIR`, as the loop wrote them."""
    pair = [loop["cases"][i]["rows"] for i in SIZE_PAIR]
    return [{"row": name, "proportion": [r[name]["proportion"] for r in pair],
             "proportion_exact": [r[name]["proportion_exact"] for r in pair],
             "aucmorf": [r[name]["aucmorf"] for r in pair], "aucmorf_exact": [r[name]["aucmorf_exact"] for r in pair],
             "aucmorf_moved": pair[0][name]["aucmorf"] != pair[1][name]["aucmorf"]} for name in rows]


def _pairs_text(pairs: list[dict]) -> str:
    return "; ".join(f"{p['row']}: proportion {' -> '.join(p['proportion_exact'])}, AUC-MoRF "
                     f"{' -> '.join(p['aucmorf_exact'])}" for p in pairs)


def released_code() -> StepResult:
    """s1: the released compute_aucmorf (an outside program) with explanations of 1 to 4 tokens gives one value per
    curve, and the released evaluation loop's importance-based rows keep their AUC-MoRF when their proportion
    changes; argued without the checkout."""
    values = released_against_formula(RELEASED_CASES, sizes=range(1, 5))
    if values is None:
        return CLAIM.argued(
            "s1-released-code", "statement",
            f"{NOT_RUN} With it, this step calls its compute_aucmorf with explanations of 1 to 4 ranked tokens (and "
            "the matching k) on the same curves, and its evaluation loop (experiments/evaluation.py) with FRED-pos's "
            "explanation of 1 then 2 tokens, and checks that the AUC-MoRF of the FRED-pos, LIME and SHAP rows does "
            "not move while their proportion does.", reading=IMPORTANCE)
    by_case = {}
    for r in values["rows"]:
        by_case.setdefault((r["n_tokens"], tuple(r["ranking"])), []).append(r["released"])
    moved = [{"n_tokens": n, "ranking": list(rk), "values": v} for (n, rk), v in by_case.items() if len(set(v)) > 1]
    loop = released_evaluation()
    pairs = _loop_pairs(loop, SIZED_ROWS)
    exact = agree(loop, ("proportion", "aucmorf"), SIZED_ROWS)
    return CLAIM.checked(
        "s1-released-code", "statement", "exhaustive",
        f"The released compute_aucmorf ({checkout_path()}), run as an outside program on {len(by_case)} curves, each "
        f"with explanations of 1 to min(4, |e+|) ranked tokens and k = their size ({len(values['rows'])} runs): the "
        f"value moved with the explanation in {len(moved)} curves. Its evaluation loop on '{loop['document']}' "
        f"({loop['model']}), FRED-pos's explanation of 1 then 2 tokens: {_pairs_text(pairs)} (released values equal "
        f"to these exact ones: {exact}); AUC-MoRF moved in {sum(p['aucmorf_moved'] for p in pairs)} of these rows.",
        holds=not moved and exact and not any(p["aucmorf_moved"] for p in pairs),
        values={**values, "moved": moved, "evaluation_loop": loop, "loop_rows": pairs}, reading=IMPORTANCE)


def released_anchor_rows() -> StepResult:
    """s4: the released evaluation loop's Anchor rows: AUC-MoRF follows the anchor, whose cut to k the proportion
    reports (reading 'every-row'); argued without the checkout."""
    if released_evaluation() is None:
        return CLAIM.argued(
            "s4-released-anchor-rows", "statement",
            f"{NOT_RUN} With it, this step runs its evaluation loop (experiments/evaluation.py, the loop that wrote "
            "the tables) with anchors of 1 then 2 tokens and reads the proportion and AUC-MoRF of the Anchor rows.",
            reading=EVERY_ROW)
    loop = released_evaluation()
    pair, = _loop_pairs(loop, ("Anchor",))
    cut = next(c for c in loop["cases"] if len(c["anchor"]) > c["k"])
    anchors = [list(LOOP_CASES[i][1]) for i in SIZE_PAIR]
    record = {**anchor_hypotheses(len(loop["document"].split()), masked_score, anchors), "anchors": anchors,
              "rows": pair, "exact": agree(loop, ("proportion", "aucmorf"), ("Anchor",)),
              "anchor_cut_to_k": {"anchor": cut["anchor"], "k": cut["k"], **cut["rows"]["Anchor"]},
              "files": loop["files"]}
    return CLAIM.checked(
        "s4-released-anchor-rows", "statement", "exhaustive",
        f"The released evaluation loop ({checkout_path()}; it computes every metric for every explainer, Anchor "
        f"included), run as an outside program on '{loop['document']}' ({loop['model']}, symmetric, so only the "
        f"anchor's size differs) with anchors {anchors[0]} then {anchors[1]}: {_pairs_text([pair])} (released values "
        f"equal to these exact ones: {record['exact']}). The Anchor rows' AUC-MoRF follows the anchor, and the "
        f"proportion reports the anchor cut to k, FRED-pos's size: anchor {cut['anchor']} with k = {cut['k']} gives "
        f"proportion {cut['rows']['Anchor']['proportion_exact']} and AUC-MoRF {cut['rows']['Anchor']['aucmorf_exact']} "
        "(the whole anchor masked).",
        holds=not pair["aucmorf_moved"], values=record, reading=EVERY_ROW)


def function_of_e_plus() -> StepResult:
    """p1: by the definition, AUC-MoRF is a function of e+, not of e (argued)."""
    return CLAIM.argued(
        "p1-function-of-e-plus", "proof",
        "By the definition (lines 564, 568-569): y^(k) is xi after masking the first k tokens of e+, D = min(20, "
        "|e+|), and e+ is the list of tokens the explainer scores positively; so for FRED, LIME and SHAP the value is "
        "a function of the document, the classifier and the explainer's scores, and e, whose size the proportion "
        "reports, enters none of them (line 1169 lists the metrics computed on e, AUC-MoRF not among them). No "
        "computation tests this: the formulas take no e.", reading=IMPORTANCE)


def anchor_size(found: tuple[dict | None, dict]) -> StepResult:
    """s2: two anchors of different sizes on the smallest separating document (reading 'every-row')."""
    case, searched = found
    n = case["n_tokens"] if case else 0
    anchor = case and {**case, "anchors": case["masked_lists"],
                       **anchor_hypotheses(n, symmetric_score, case["masked_lists"])}
    note = (f"No document of at most {MAX_TOKENS} tokens separates two anchor sizes." if anchor is None else
            f"Anchors' AUC-MoRF masks the anchor itself (line 1170). A {n}-token document whose score is 1 - "
            f"{LOSS_PER_TOKEN} per masked token, anchors {anchor['anchors']} (proportions "
            f"{' and '.join(anchor['proportions'])}): {_values_text(anchor)}. The classifier is symmetric, so only the "
            "anchor's size differs. Minimal: a one-token document has a single anchor.")
    return _separating_step("s2-anchor-size", anchor, searched, note, EVERY_ROW)


def positive_part(found: tuple[dict | None, dict]) -> StepResult:
    """s3: two sizes k of LIME/SHAP's e on the same document, with e+ the positive part of e (reading
    'positive-part')."""
    case, searched = found
    n = case["n_tokens"] if case else 0
    positive = case and {**case, "k": [len(e) for e in case["masked_lists"]], "e_plus": case["masked_lists"],
                         "importance": [str(v) for v in occlusion_scores(n, symmetric_score)],
                         **positive_part_hypotheses(n, symmetric_score, case["masked_lists"])}
    note = (f"No document of at most {MAX_TOKENS} tokens separates two sizes of e." if positive is None else
            f"With e+ the positive part of e, LIME/SHAP's e = their first k ranked tokens (line 1168). The same "
            f"{n}-token document, every token scored {positive['importance'][0]} (its occlusion drop, > 0), k = "
            f"{' and '.join(map(str, positive['k']))} (proportions {' and '.join(positive['proportions'])}): e+ = e = "
            f"{' and '.join(map(str, positive['e_plus']))}, {_values_text(positive)}. Minimal: a one-token document "
            "has one size.")
    return _separating_step("s3-positive-part", positive, searched, note, POSITIVE_PART)


def _separating_step(step: str, record: dict | None, searched: dict, note: str, reading: str) -> StepResult:
    """A statement step that fails on ``record``, a case where AUC-MoRF follows the size (None: the search found
    none)."""
    return CLAIM.checked(step, "statement", "counterexample", note, holds=record is None,
                         values={**(record or hypotheses(search_only_inside_the_hypotheses=True)), "search": searched},
                         reading=reading)
