"""Section 4, "Faithfulness": Comprehensiveness and Sufficiency, and what a high or low score means (lines 554-559).

The paper defines Comprehensiveness = f(xi) - f(xi \\ e) and Sufficiency = f(xi) - f(e) ("Thus," line 556, and the
display on line 557; removed tokens become UNK, line 571) and then says what the scores mean. Its sentence on
Comprehensiveness agrees with the formula (it falls as f(xi \\ e) rises). Its sentence on Sufficiency, "A low
Sufficiency score implies that the subset e does not sufficiently summarize the document, and more information is
needed to make an accurate prediction" (line 559), is read two ways, each with its own verdict:

* ``formula`` (headline): "Sufficiency score" is the number just defined, the one the tables report under "suffic.
  (arrow down)" (line 589); the parallel sentence on Comprehensiveness (line 558) reads its "score" so. The sentence
  then reverses the formula: Sufficiency falls as f(e) rises, so of two explanations of the same document the one
  with the lower score is the one whose words alone keep more of the prediction. Fails (step st2).
* ``plain`` (alternative): "Sufficiency score" in its everyday sense, how well e alone keeps the prediction (f(e)),
  or equivalently "low" a slip for "high". The sentence then holds, trivially, but no longer speaks of the number
  the tables report (step st3).

Steps: the Comprehensiveness sentence (symbolic), a minimal counterexample to the Sufficiency sentence (exhaustive
search over documents of at most three tokens on a bag-of-words classifier), the plain reading on the same pairs,
the authors' released metric functions on the same cases (run as an outside program when
``$FRED_AUTHORS_CHECKOUT`` is set), this project's proof of the corrected direction (sympy), and the tables: their
arrows (suffic. down, compreh. up, all 34 headers) and the underlines of section 4, which mark the lowest signed
Sufficiency (not the one closest to 0) and the highest Comprehensiveness (the appendix tables underline nothing).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from fred_constants import MASK_TOKEN

from ...paper.tables import BETTER, SECTION4, TABLES, UNDERLINED
from ...subject.authors_probe import NOT_RUN, checkout_path, probe
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .released_evaluation import agree, released_evaluation

CLAIM = Claim("metric-sufficiency")
FORMULA, PLAIN = "formula", "plain"
#: |float - Fraction| allowed when the released code's float value is compared with its exact value.
FLOAT_TOLERANCE = 1e-12
SOURCE = (
    Quote(552, r"Faithfulness is evaluated using \textbf{Comprehensiveness} and \textbf{Sufficiency} (as in "
               r"\citet{deyoung2020eraser})"),
    Quote(554, r"the \textbf{Comprehensiveness} is computed as the difference between the prediction confidence of the "
               r"entire document $\xi$ and the prediction confidence when the explanation $\explanation$ is removed."),
    Quote(555, r"The \textbf{Sufficiency} is computed as the difference between the prediction confidence of the "
               r"entire document $\xi$ and the prediction confidence based only on the explanation $\explanation$."),
    Quote(556, "Thus,"),
    Quote(557, r"\[ \text{Comprehensiveness} = \model(\xi) - \model(\xi \setminus \explanation) \qquad "
               r"\text{and} \qquad \text{Sufficiency} = \model(\xi) - \model(\explanation) \,. \]"),
    Quote(558, r"A high Comprehensiveness score implies that the subset $\explanation$ was indeed influential in the "
               r"prediction, while a low score suggests that it had little impact on the prediction outcome."),
    Quote(559, r"A low Sufficiency score implies that the subset $\explanation$ does not sufficiently summarize the "
               r"document, and more information is needed to make an accurate prediction."),
    Quote(571, r"For the faithfulness metrics, token removals are simulated by replacing the missing token with the "
               r"mask \texttt{UNK}."),
    Quote(233, r"$\model$ is a measurable function mapping textual inputs to confidence scores for $p$ different "
               r"classes, \emph{i.e.}, $\mathcal{Y} = [0,1]^p$"),
    Quote(1116, "we always consider documents with positive predictions, and we explain the positive class."),
    Quote(589, r"\texttt{suffic.} $\downarrow$ & \texttt{compreh.} $\uparrow$"),
    Quote(607, r"fred & \underline{$-0.142 (0.11)$} & \underline{$0.114 (0.04)$}"),
    Quote(611, r"anchor & $-0.049 (0.16)$"),
    Quote(1105, r"The code for FRED and the experiments is available at "
                r"\url{https://github.com/gianluigilopardo/fred}."),
)
#: The two parts of lines 558-559 the statement steps check apart (the claim says which fails).
COMPREHENSIVENESS = "a high Comprehensiveness: e influential (line 558)"
SUFFICIENCY = "a low Sufficiency: e does not summarize the document (line 559)"
READINGS = (
    Reading(FORMULA, "headline",
            "'Sufficiency score' is the number defined on line 557, f(xi) - f(e), the one the tables report under "
            "suffic. (lower is better): a low score means e alone keeps the confidence",
            why=(Quote(556, "Thus,"),
                 Quote(557, r"\text{Sufficiency} = \model(\xi) - \model(\explanation)"),
                 Quote(558, r"A high Comprehensiveness score implies that the subset $\explanation$ was indeed "
                            r"influential in the prediction"),
                 Quote(589, r"\texttt{suffic.} $\downarrow$"))),
    Reading(PLAIN, "alternative",
            "'Sufficiency score' in its everyday sense, how well e alone keeps the prediction (f(e)), or 'low' a "
            "slip for 'high': then a low score does mean that e alone loses the prediction, but the sentence no "
            "longer speaks of the number defined on line 557 and reported in the tables",
            why=(Quote(559, r"A low Sufficiency score implies that the subset $\explanation$ does not sufficiently "
                            r"summarize the document"),)),
)
STATEMENT = (
    'Section 4, "Faithfulness" (lines 554-559): "Comprehensiveness = f(xi) - f(xi \\ e) and Sufficiency = f(xi) - '
    'f(e). A high Comprehensiveness score implies that the subset e was indeed influential in the prediction, while a '
    'low score suggests that it had little impact on the prediction outcome. A low Sufficiency score implies that the '
    'subset e does not sufficiently summarize the document, and more information is needed to make an accurate '
    'prediction."'
)
CORRECTED = (
    "Comprehensiveness = f(xi) - f(xi \\ e) and Sufficiency = f(xi) - f(e). A high Comprehensiveness means that "
    "removing e lowers the confidence a lot (e was influential), a low one that it hardly moves it. A low Sufficiency "
    "means that e alone keeps the confidence (f(e) close to f(xi), or above it when the score is negative): e does "
    "summarize the document; a high one that e alone loses it and more information is needed. Lower Sufficiency is "
    "better, as the tables' arrows and the underlines of section 4 (at the lowest signed value) say."
)
CONDITIONS = (
    "Headline reading 'formula': 'score' is the number defined on line 557 (the parallel sentence on "
    "Comprehensiveness, line 558, reads its score so and agrees with its formula); e alone is the document with every "
    "token outside e masked (line 571). Step st4 checks that the authors' released metric functions, and their "
    "evaluation loop on every explainer's row (Anchor's included), score exactly this, run as an outside program when $FRED_AUTHORS_CHECKOUT is set (argued without it). 'Does not sufficiently "
    "summarize' is taken in its weakest sense that still contradicts the formula: e alone loses the positive class "
    "(f(e) <= 1/2), while the explanation with the lower score keeps all of f(xi)."
)
VOCABULARY = ("good", "food")
#: The classifier of the search: the confidence of the positive class is 9/10 when "good" occurs, else 3/10.
HIGH, LOW = Fraction(9, 10), Fraction(3, 10)
MAX_TOKENS = 3
ORDER = f"fewer tokens, then the documents over {VOCABULARY} in lexicographic order of the vocabulary's indices"


def confidence(tokens) -> Fraction:
    """The search's bag-of-words classifier: confidence in the positive class (the mask is no word of it)."""
    return HIGH if "good" in tokens else LOW


def kept(tokens, e) -> list[str]:
    """e "alone": the document with every token outside e masked (line 571, positions kept)."""
    return [t if i in e else MASK_TOKEN for i, t in enumerate(tokens)]


def removed(tokens, e) -> list[str]:
    """xi \\ e: the document with the tokens of e masked."""
    return [MASK_TOKEN if i in e else t for i, t in enumerate(tokens)]


def sufficiency(tokens, e) -> Fraction:
    """f(xi) - f(e), exactly."""
    return confidence(tokens) - confidence(kept(tokens, e))


def statement_hypotheses(tokens, explanations) -> dict:
    """The sentence's hypotheses on a document and the explanations compared: confidences in [0, 1] on every
    masked version of the document (line 233), the document classified positive (line 1116), each explanation a
    non-empty set of its positions (line 554: "a subset of words in the example")."""
    versions = [[t if (z >> i) & 1 else MASK_TOKEN for i, t in enumerate(tokens)] for z in range(2 ** len(tokens))]
    return hypotheses(confidences_in_unit_interval=all(0 <= confidence(v) <= 1 for v in versions),
                      classified_positive=confidence(tokens) > Fraction(1, 2),
                      explanations_nonempty_subsets=all(e and e <= set(range(len(tokens))) for e in explanations))


def _explanations(n: int) -> list[set[int]]:
    return [set(c) for r in range(1, n + 1) for c in itertools.combinations(range(n), r)]


def _documents():
    """Every document of 1..MAX_TOKENS tokens over the vocabulary, in the order of :data:`ORDER`."""
    for n in range(1, MAX_TOKENS + 1):
        for tokens in itertools.product(VOCABULARY, repeat=n):
            yield list(tokens)


def search() -> tuple[dict | None, dict]:
    """The first document (in :data:`ORDER`) with two explanations e, e' where the lower Sufficiency goes with e
    alone keeping the whole confidence (f(e) >= f(xi)) and the higher with e' alone losing the positive class
    (f(e') <= 1/2): the sentence says the lower score means "does not sufficiently summarize". On every pair of
    every document, also: the same search with the plain reading's score f(e) in place of Sufficiency, and the
    corrected direction, S(e) < S(e') exactly when f(e) > f(e')."""
    first, plain_breaks, corrected_breaks, pairs = None, [], [], 0
    for tokens in _documents():
        if confidence(tokens) <= Fraction(1, 2):
            continue  # outside the hypotheses: only positively classified documents are explained
        for e, e2 in itertools.permutations(_explanations(len(tokens)), 2):
            pairs += 1
            s, s2 = sufficiency(tokens, e), sufficiency(tokens, e2)
            f_e, f_e2 = confidence(kept(tokens, e)), confidence(kept(tokens, e2))
            if (s < s2) != (f_e > f_e2):
                corrected_breaks.append({"tokens": tokens, "e": sorted(e), "e2": sorted(e2)})
            if f_e < f_e2 and f_e >= confidence(tokens) and f_e2 <= Fraction(1, 2):
                plain_breaks.append({"tokens": tokens, "e": sorted(e), "e2": sorted(e2)})
            if first is None and s < s2 and f_e >= confidence(tokens) and f_e2 <= Fraction(1, 2):
                first = {"tokens": tokens, "e": sorted(e), "e_alone": kept(tokens, e), "f_e": str(f_e),
                         "sufficiency_e": str(s), "e_prime": sorted(e2), "e_prime_alone": kept(tokens, e2),
                         "f_e_prime": str(f_e2), "sufficiency_e_prime": str(s2), "f_xi": str(confidence(tokens)),
                         **statement_hypotheses(tokens, [e, e2])}
    smaller = [t for t in _documents() if len(t) < (len(first["tokens"]) if first else 0)]
    return first, {"order": ORDER, "classifier": f"{HIGH} if 'good' occurs, else {LOW}", "pairs_checked": pairs,
                   "documents_before_the_first": [" ".join(t) for t in smaller],
                   "explanations_of_one_token": len(_explanations(1)), "plain_breaks": plain_breaks,
                   "corrected_breaks": corrected_breaks}


def released_cases() -> list[dict]:
    """Every explanation of every positively classified document of the search, with the confidence of each of
    its masked versions (the table the stand-in model of the released code answers from)."""
    cases = []
    for tokens in _documents():
        if confidence(tokens) <= Fraction(1, 2):
            continue
        versions = [[t if (z >> i) & 1 else MASK_TOKEN for i, t in enumerate(tokens)] for z in range(2 ** len(tokens))]
        for e in _explanations(len(tokens)):
            cases.append({"tokens": tokens, "explanation": sorted(e), "confidence": float(confidence(tokens)),
                          "scores": {" ".join(v): float(confidence(v)) for v in versions}})
    return cases


def released_against_formula() -> dict | None:
    """The released compute_sufficiency and compute_comprehensiveness (run as an outside program) on
    :func:`released_cases`, against f(xi) - f(e alone) and f(xi) - f(xi \\ e) in Fractions, with the text each
    one queried against e alone and xi \\ e (line 571's masking); None without the checkout."""
    cases = released_cases()
    reply = probe("faithfulness", cases)
    if reply is None:
        return None
    rows = []
    for case, got in zip(cases, reply["values"]):
        tokens, e = case["tokens"], set(case["explanation"])
        exact = {"sufficiency": sufficiency(tokens, e),
                 "comprehensiveness": confidence(tokens) - confidence(removed(tokens, e))}
        texts = {"sufficiency": " ".join(kept(tokens, e)), "comprehensiveness": " ".join(removed(tokens, e))}
        rows.append({"tokens": tokens, "e": case["explanation"],
                     **{k: got[k] for k in exact}, **{f"{k}_exact": str(v) for k, v in exact.items()},
                     "agrees": all(abs(got[k] - float(v)) <= FLOAT_TOLERANCE and got[f"{k}_queried"] == [texts[k]]
                                   for k, v in exact.items())})
    return {"files": reply["files"], "rows": rows, "tolerance": FLOAT_TOLERANCE}


def check() -> ClaimResult:
    """The two sentences (each reading of line 559), the released metric functions, the corrected direction and the
    tables."""
    found, directions = search(), _directions()
    steps = (comprehensiveness(directions), sufficiency_counterexample(found), plain_reading(found), released_code(),
             direction(directions), corrected_direction(found), tables())
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS,
                        counterexample=_counterexample(found[0]), steps=steps, corrected=CORRECTED, source=SOURCE,
                        readings=READINGS)


def comprehensiveness(directions: tuple[bool, dict]) -> StepResult:
    """st1: Comprehensiveness falls as f(xi \\ e) rises, as line 558 says (sympy)."""
    _, seen = directions
    return CLAIM.checked(
        "st1-comprehensiveness", "statement", "symbolic",
        f"Comprehensiveness = f(xi) - f(xi \\ e) has derivative {seen['d_comprehensiveness/d_f(xi minus e)']} in "
        "f(xi \\ e) (sympy): a high score means removing e lowers the confidence a lot (e influential), a score near 0 "
        "that removing it changes little, as line 558 says.",
        holds=seen["d_comprehensiveness/d_f(xi minus e)"] == "-1", values=seen, part=COMPREHENSIVENESS)


def sufficiency_counterexample(found: tuple[dict | None, dict]) -> StepResult:
    """st2: the first document where the lower Sufficiency goes with the explanation that keeps the prediction."""
    first, seen = found
    return CLAIM.checked(
        "st2-sufficiency-counterexample", "statement", "counterexample",
        (f"No document of at most {MAX_TOKENS} tokens gives a counterexample." if first is None else
         f"Document '{' '.join(first['tokens'])}' (f(xi) = {first['f_xi']}, classifier of the search: "
         f"{seen['classifier']}): e = {first['e']} alone ('{' '.join(first['e_alone'])}') keeps the whole confidence, "
         f"f(e) = {first['f_e']}, and has the LOWER Sufficiency {first['sufficiency_e']}; e' = {first['e_prime']} "
         f"alone ('{' '.join(first['e_prime_alone'])}') loses the positive class, f(e') = {first['f_e_prime']}, and "
         f"has the higher Sufficiency {first['sufficiency_e_prime']}. Line 559 says the low score means e does not "
         f"sufficiently summarize the document. Minimal: a one-token document has "
         f"{seen['explanations_of_one_token']} explanation, nothing to compare ({ORDER})."),
        holds=first is None, values={**(first or hypotheses(search_only_inside_the_hypotheses=True)), "search": seen},
        reading=FORMULA, part=SUFFICIENCY)


def plain_reading(found: tuple[dict | None, dict]) -> StepResult:
    """st3: the same search with the plain reading's score f(e)."""
    _, seen = found
    return CLAIM.checked(
        "st3-plain-reading", "statement", "exhaustive",
        "The same search with the plain reading's score f(e) (how well e alone keeps the prediction; equivalently, "
        f"line 559 with 'high' Sufficiency for 'low'), on the same {seen['pairs_checked']} ordered pairs: pairs where "
        "the explanation with the lower score keeps all of f(xi) while the other loses the positive class: "
        f"{len(seen['plain_breaks'])}. This holds trivially (f(e) < f(e') <= 1/2 < f(xi) excludes f(e) >= f(xi)), "
        "and the score is then not the Sufficiency of line 557 that the tables report.",
        holds=not seen["plain_breaks"], values=seen, reading=PLAIN)


def released_code() -> StepResult:
    """st4: the released metric functions and the released evaluation loop (outside programs) against the formulas;
    argued without the checkout."""
    values = released_against_formula()
    if values is None:
        return CLAIM.argued(
            "st4-released-code", "statement",
            f"{NOT_RUN} With it, this step calls its compute_sufficiency and compute_comprehensiveness (the "
            f"experiments' code, line 1105) on the {len(released_cases())} explanations of the search's documents in a "
            "separate process, and its evaluation loop (experiments/evaluation.py) on the rows of all five explainers, "
            "Anchor's included, and checks that they score f(xi) - f(e alone) and f(xi) - f(xi \\ e) with the masking "
            "of line 571, so that the counterexample speaks of the tabulated numbers.", reading=FORMULA)
    loop = released_evaluation()
    ok = all(r["agrees"] for r in values["rows"])
    loop_ok = agree(loop, ("sufficiency", "comprehensiveness"))
    pair = [r for r in values["rows"] if r["tokens"] == ["good", "food"] and r["e"] in ([0], [1])]
    return CLAIM.checked(
        "st4-released-code", "statement", "exhaustive",
        f"The released compute_sufficiency and compute_comprehensiveness ({checkout_path()}), run as an outside "
        f"program on the {len(values['rows'])} explanations of the search's documents: each queries e alone (resp. "
        "xi \\ e) with the other tokens replaced by UNK and returns f(xi) minus its confidence, within "
        f"{FLOAT_TOLERANCE}, in every case: {ok}. On 'good food': "
        + ", ".join(f"e = {r['e']}: Sufficiency {r['sufficiency']:.6g}" for r in pair)
        + f". {_loop_sentence(loop)} Agrees in every row: {loop_ok}. The released code's Sufficiency is the number "
          "of line 557.", holds=ok and loop_ok, values={**values, "evaluation_loop": loop}, reading=FORMULA)


def _loop_sentence(loop: dict) -> str:
    """What the released evaluation loop scored, Anchor's row of the case whose anchor is longer than k."""
    case = next(c for c in loop["cases"] if len(c["anchor"]) > c["k"])
    anchor = case["rows"]["Anchor"]
    return (f"Its evaluation loop (the one that wrote the tables), on '{loop['document']}' ({loop['model']}) with "
            f"{len(loop['cases'])} sets of explanations, scores every row of FRED, FRED_pos, LIME, SHAP and Anchor by "
            "the same two formulas on the row's explanation; Anchor's row uses the anchor cut to k, the size of "
            f"FRED-pos's explanation: anchor {case['anchor']}, k = {case['k']}: Sufficiency "
            f"{anchor['sufficiency']:.6g} (exact {anchor['sufficiency_exact']}, that of {anchor['e']}; the whole "
            f"anchor's would be {anchor['whole_anchor']['sufficiency']}).")


def direction(directions: tuple[bool, dict]) -> StepResult:
    """p1: Sufficiency falls as f(e) rises (sympy)."""
    holds, seen = directions
    return CLAIM.checked(
        "p1-direction", "proof", "symbolic",
        f"Sufficiency = f(xi) - f(e) has derivative {seen['d_sufficiency/d_f(e)']} in f(e) (sympy): of two "
        "explanations the lower score is the one whose words alone keep more confidence, and the score is <= 0 "
        f"exactly when {seen['sufficiency<=0 iff']}.", holds=holds, values=seen)


def corrected_direction(found: tuple[dict | None, dict]) -> StepResult:
    """c1: S(e) < S(e') exactly when f(e) > f(e'), on every pair of the search."""
    _, seen = found
    return CLAIM.checked(
        "c1-corrected-direction", "correction", "exhaustive",
        f"Every ordered pair of explanations of every positively classified document of at most {MAX_TOKENS} tokens "
        f"over {VOCABULARY} ({seen['pairs_checked']} pairs): S(e) < S(e') exactly when f(e) > f(e'); exceptions: "
        f"{len(seen['corrected_breaks'])}.", holds=not seen["corrected_breaks"], values=seen)


def tables() -> StepResult:
    """c2: the tables' arrows and the underlines of section 4."""
    holds, seen = _tables()
    return CLAIM.checked(
        "c2-tables", "correction", "exhaustive",
        f"The arrows of all {seen['tables_with_these_arrows']} tables: suffic. down, compreh. up; in each of the 6 "
        "section-4 tables the underlined Sufficiency is the lowest signed mean and the underlined Comprehensiveness "
        "the highest. Reading the Sufficiency arrow as 'closest to 0' would move the underline in "
        f"{', '.join(seen['closest_to_0_disagrees_with_the_underline'])}. The {seen['appendix_tables']} appendix "
        f"tables underline nothing (with an underline: {len(seen['appendix_tables_with_underlines'])}).",
        holds=holds, values=seen)


def _directions() -> tuple[bool, dict]:
    """sympy: the derivative of each score in the confidence it subtracts."""
    f_xi, f_without, f_e = sp.symbols("f_xi f_xi_minus_e f_e")
    comp, suff = f_xi - f_without, f_xi - f_e
    d_comp, d_suff = sp.diff(comp, f_without), sp.diff(suff, f_e)
    return d_comp == -1 and d_suff == -1, {"comprehensiveness": str(comp), "d_comprehensiveness/d_f(xi minus e)":
                                           str(d_comp), "sufficiency": str(suff), "d_sufficiency/d_f(e)": str(d_suff),
                                           "sufficiency<=0 iff": str(sp.simplify(suff <= 0))}


def _tables() -> tuple[bool, dict]:
    """The arrows, and in each section-4 table the underlined cells against the lowest signed Sufficiency, the
    Sufficiency closest to 0 and the highest Comprehensiveness."""
    rows, ok = [], BETTER["sufficiency"] == -1 and BETTER["comprehensiveness"] == 1
    for label in SECTION4:
        t = TABLES[label]
        suff = {e: t.mean(e, "sufficiency") for e in t.rows}
        comp = {e: t.mean(e, "comprehensiveness") for e in t.rows}
        row = {"table": label, "underlined_sufficiency": sorted(UNDERLINED[label]["sufficiency"]),
               "lowest": sorted(e for e, v in suff.items() if v == min(suff.values())),
               "closest_to_0": sorted(e for e, v in suff.items() if abs(v) == min(map(abs, suff.values()))),
               "underlined_comprehensiveness": sorted(UNDERLINED[label]["comprehensiveness"]),
               "highest": sorted(e for e, v in comp.items() if v == max(comp.values()))}
        ok = ok and row["underlined_sufficiency"] == row["lowest"] and \
            row["underlined_comprehensiveness"] == row["highest"]
        rows.append(row)
    appendix_underlined = [label for label in TABLES if label not in SECTION4 and label in UNDERLINED]
    ok = ok and not appendix_underlined
    return ok, {"arrows": {"sufficiency": BETTER["sufficiency"], "comprehensiveness": BETTER["comprehensiveness"]},
                "tables_with_these_arrows": len(TABLES), "section4": rows,
                "appendix_tables": len(TABLES) - len(SECTION4), "appendix_tables_with_underlines": appendix_underlined,
                "closest_to_0_disagrees_with_the_underline": [r["table"] for r in rows
                                                              if r["closest_to_0"] != r["underlined_sufficiency"]]}


def _counterexample(first: dict | None) -> dict | None:
    """The claim's counterexample: step st2's document and its two explanations."""
    if first is None:
        return None
    return {"document": " ".join(first["tokens"]), "low_sufficiency_explanation": first["e"],
            "its_sufficiency": first["sufficiency_e"], "its_confidence_alone": first["f_e"],
            "high_sufficiency_explanation": first["e_prime"], "its_sufficiency_prime": first["sufficiency_e_prime"],
            "its_confidence_alone_prime": first["f_e_prime"], "satisfies_hypotheses": first["satisfies_hypotheses"],
            "hypotheses": first["hypotheses"]}
