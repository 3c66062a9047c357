"""Section 4: Anchors behaves poorly only [on] documents classified with a high confidence.

The paper gives no data for the remark (it cites lopardo2022sea, naming no result of it) and defines neither
"behaves poorly" nor "high confidence". The definitions used here are this project's, fixed before looking at the
outcome: on a document, Anchors **fails** when its comprehensiveness is strictly below that of each of the four
other explainers, and the document has **high confidence** when the model's score on it is above the median score
of the run's documents (every run explains positively classified documents, so all scores are above 1/2). A
document is **not** classified with a high confidence, for the literal reading, when it is below that median and
its score is at most :data:`NOT_HIGH` (the model at most 3:2 for the class), a bound no reading of "high" reaches.

**Readings.** The sentence lacks a word ("it behaves poorly only documents"). Its two one-word repairs are "only
[on]" and "on" (with "only" a slip for it); the text does not choose between them, and the citation names no
result that would. Both say that where Anchors behaves poorly is tied to high confidence: "only on" confines it
there, "on" singles those documents out, which a remark ("We also note") does only when they differ from the rest.
What both say, the headline ('concentrate'), is that failures are more frequent on the documents classified with
high confidence than on the others ("only [on]" implies it; "on", read as that contrast, is it). What goes beyond
it is reported beside it: 'confined' (never on the others) and 'on' read as an absolute (it fails on most
high-confidence documents), each needing a bound the paper does not give.

**Tests.** 'concentrate': one Fisher exact test per run on the 2 x 2 table (fails or not) x (high confidence or
not), one-sided each way; 'on': one binomial test per run of the failure rate among the high-confidence documents
against 1/2, one-sided each way. The one-sided tests of one reading's runs (two per run) form one family, adjusted
by Holm (family-wise level :data:`fred_constants.LEVEL`): a run's step holds when the test toward the
reading rejects, fails when the test the other way rejects, and is inconclusive otherwise (a non-rejection is no
evidence; the values give the smallest p-values each direction could reach). 'confined' is a universal statement:
a counterexample is a document of a run in the setting that satisfies its hypotheses.

**The setting.** Failing is defined against FRED, FRED-pos, LIME and SHAP, and LIME's and SHAP's explanations are
the size of FRED-pos's in the authors' setting and of FRED-mask's in this project's: as in the sibling claims,
the readings of the paper's sentence are tested on the runs in the authors' setting (paired_tests.AUTHORS_SETTING;
this project's FRED-pos), and the runs with FRED's 'mean' threshold, and the MiniLM model the paper has no table
for, are this project's extension ('our-setting'). A run whose documents all have one score (a decision tree with
pure leaves scores 1.0 everywhere) cannot say anything about confidence and is not tested.

**The anchor's size.** Removing fewer tokens lowers comprehensiveness, and Anchors' explanations are the shortest:
it has the smallest proportion in 31 of the paper's 34 tables. Line 691 ties Anchors' behaviour to exactly this
("conservative on the size of the anchor"), so a short anchor may be how Anchors behaves poorly rather than a
nuisance: each step records failures against a strictly shortest anchor, and this does not discount its outcome.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from scipy import stats

from fred.evaluation.statistics import holm
from fred_constants import LEVEL

from ...paper.tables import TABLES
from ...verdicts.results import (
    Claim,
    ClaimResult,
    Quote,
    Reading,
    StepResult,
    hypotheses,
)
from .paired_tests import (
    FIVE_EXPLAINER_RUNS,
    Run,
    load_run,
    missing_step,
    run_step,
    setting_hypotheses,
    setting_label,
)

CLAIM = Claim("experiment-anchors-confidence")
SENTENCE = Quote(692, "We also note that it behaves poorly only documents classified with a high confidence (as "
                      "proved \\citep{lopardo2022sea}).")
CONTEXT = Quote(691, "In general, Anchor performs well on small documents (Restaurant dataset), while its behavior on "
                     "larger documents is highly nonlinear, as it tends to be conservative on the size of the anchor.")
SOURCE = (SENTENCE, CONTEXT, Quote(840, "\\newblock {A Sea of Words: An In-Depth Analysis of Anchors for Text Data}."))
READINGS = (
    Reading("concentrate", "headline",
            "Anchors' failures are more frequent on the documents classified with high confidence than on the "
            "others. The sentence lacks a word ('behaves poorly only documents'); its repairs 'only [on]' and "
            "'[on]' (with 'only' a slip for it) both tie where Anchors behaves poorly to high confidence, the first "
            "confining it there, the second singling those documents out in a remark ('We also note') set among "
            "remarks on tendencies ('In general', 'tends to'): the first implies this reading, the second, read "
            "as that contrast, is it. The citation names no result, so it chooses neither.", (SENTENCE, CONTEXT)),
    Reading("confined", "stronger",
            "'Only [on]' literally: Anchors never fails on a document that is not classified with high confidence."),
    Reading("on", "alternative",
            "'On', with 'only' a slip, read as an absolute rather than a contrast: Anchors behaves poorly on the "
            "documents classified with high confidence, i.e. fails on more than half of them."),
    Reading("our-setting", "alternative",
            "Ours, an extension and not the paper's sentence: the headline reading on this project's runs outside "
            "the authors' setting (FRED's 'mean' threshold, LIME/SHAP k = |FRED-mask|, the MiniLM model)."),
)
FILES = FIVE_EXPLAINER_RUNS
OTHERS = ("fred", "fredpos", "lime", "shap")
#: The highest model score counted as "not classified with a high confidence" by the literal reading: odds 3:2.
NOT_HIGH = 0.6
DEFINITION = ("Anchors fails on a document when its comprehensiveness is strictly below that of each of fred, "
              "fredpos, lime and shap; high confidence is a model score above the median over the run's documents")


def _documents(run: Run) -> dict:
    """Per document explained by all five: score, high confidence, fails, and whether the anchor is strictly the
    shortest explanation."""
    comp = {e: run.column(e, "comprehensiveness") for e in ("anchor", *OTHERS)}
    docs = sorted(set.intersection(*(set(c) for c in comp.values())))
    score = {d: run.values["anchor"][d]["score"] for d in docs}
    median = float(np.median(list(score.values())))
    return {d: {"score": score[d], "high": score[d] > median,
                "fails": all(comp["anchor"][d] < comp[e][d] for e in OTHERS),
                "shortest": all(run.values["anchor"][d]["k"] < run.values[e][d]["k"] for e in OTHERS)}
            for d in docs}


def _table(docs: dict, row: str, column: str = "fails") -> list[list[int]]:
    """[[column & row, not column & row], [column & not row, not column & not row]]."""
    return [[sum(v[column] and v[row] for v in docs.values()), sum(not v[column] and v[row] for v in docs.values())],
            [sum(v[column] and not v[row] for v in docs.values()),
             sum(not v[column] and not v[row] for v in docs.values())]]


def attainable_fisher(table) -> dict:
    """The smallest one-sided Fisher p-values the table's margins allow, exactly: the hypergeometric probability of
    the most extreme top-left cell in each direction (``greater``: as large as the margins allow; ``less``: as
    small).

    >>> attainable_fisher([[6, 4], [0, 10]])  # 6 failures among 20 documents, 10 of them high
    {'greater': '7/1292', 'less': '7/1292'}
    """
    (a, b), (c, d) = table
    row, col, n = a + b, a + c, a + b + c + d

    def prob(x):
        return Fraction(math.comb(col, x) * math.comb(n - col, row - x), math.comb(n, row))

    return {"greater": str(prob(min(row, col))), "less": str(prob(max(0, row + col - n)))}


def run_hypotheses(run: Run, docs: dict) -> dict:
    """Whether a run speaks to the sentence: the authors' setting (paired_tests.AUTHORS_SETTING), every document
    classified positive (score above 1/2), and scores that vary (otherwise no document has higher confidence than
    another)."""
    scores = [v["score"] for v in docs.values()]
    return hypotheses(**setting_hypotheses(run)["hypotheses"], classified_positive=min(scores) > 0.5,
                      confidence_varies=len(set(scores)) > 1)


def _adjust(cases: list[dict]) -> None:
    """Holm over the one-sided tests of ``cases`` (one reading's runs, both directions of each), in place: adds
    ``p_holm`` and ``p_holm_attainable`` ({greater, less}) and ``outcome`` (+1 toward, -1 against, 0 neither)."""
    for key, source in (("p_holm", "p"), ("p_holm_attainable", "attainable")):
        adjusted = holm([c[source][d] for c in cases for d in ("greater", "less")])
        for i, c in enumerate(cases):
            c[key] = {"greater": adjusted[2 * i], "less": adjusted[2 * i + 1]}
    for c in cases:
        c["outcome"] = (c["p_holm"]["greater"] <= LEVEL) - (c["p_holm"]["less"] <= LEVEL)


def _case(run: Run, docs: dict, record: dict, reading: str) -> dict:
    """One run's 2 x 2 table and Fisher tests (not yet adjusted)."""
    table = _table(docs, "high")
    reach = attainable_fisher(table)
    return {"run": run, "docs": docs, "record": record, "reading": reading, "table": table,
            "p": {d: float(stats.fisher_exact(table, alternative=d)[1]) for d in ("greater", "less")},
            "attainable": {d: float(Fraction(reach[d])) for d in ("greater", "less")}, "attainable_exact": reach}


def _binomial_case(c: dict) -> dict:
    """The 'on' reading's test on one run: failures among its high-confidence documents against 1/2."""
    fails, n = c["table"][0][0], sum(c["table"][0])
    return {**c, "reading": "on", "fails_high": fails, "high": n,
            "p": {d: float(stats.binomtest(fails, n, 0.5, alternative=d).pvalue) for d in ("greater", "less")},
            "attainable": {d: 0.5 ** n for d in ("greater", "less")}}


OUTCOMES = {1: "failures concentrate at high confidence", -1: "failures concentrate at lower confidence",
            0: "neither test rejects"}
STATEMENT = ('Section 4, "Results" (line 692), on Anchors: "We also note that it behaves poorly only [on] documents '
             'classified with a high confidence (as proved [lopardo2022sea])." (A word is missing in the paper: "only '
             '[on]", or "on" with "only" a slip.)')


def check() -> ClaimResult:
    """Fisher's exact tests on each committed five-explainer run, then the literal 'only' and the 'on' reading."""
    untested, cases = _cases()
    on = _adjust_families(cases)
    by_path = {**untested, **{c["run"].path: concentrate(c) for c in cases}}
    steps = (*(by_path[path] for path in FILES), confined([c for c in cases if c["reading"] == "concentrate"]),
             *(on_run(c) for c in on))
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=_conditions(_paper_anchor_shortest()),
                        counterexample=None, steps=steps, source=SOURCE, readings=READINGS)


def _conditions(paper: dict) -> str:
    """The conditions, with the paper's own count of tables where Anchors' explanations are the shortest."""
    return (f"Definitions (this project's; the paper gives none): {DEFINITION}; for the literal reading, a document "
            f"is not classified with high confidence when its score is below the median and at most {NOT_HIGH}. "
            "Every verdict here holds under these definitions only. The anchor's size: removing fewer tokens lowers "
            "comprehensiveness, and in the paper's own tables Anchors has strictly the smallest proportion in "
            f"{paper['smallest_proportion']} of {paper['tables']} and strictly the lowest comprehensiveness in "
            f"{paper['lowest_comprehensiveness']}; line 691 ties Anchors' behaviour to the anchor's size, so each "
            "step records failures against a strictly shortest anchor without discounting its outcome. The "
            "readings of the sentence are tested on the runs with the authors' threshold, n = 5000, beam, minimum "
            "length and LIME/SHAP k = |FRED-pos| (this project's FRED-pos); the runs with FRED's 'mean' threshold, "
            "where LIME and SHAP take FRED-mask's size, and the MiniLM runs are 'our-setting', as in the sibling "
            f"claims. Tests: one-sided each way, Holm over a reading's runs (family-wise level {LEVEL}); a test "
            "that rejects neither way is inconclusive. Our Anchors runs use the UNK distribution with spaCy's blank "
            "tokenizer (the authors: en_core_web_lg); every run explains positively classified test documents "
            "(results/README.md: 100 documents, 20 in the Yelp MiniLM run), so 'high confidence' is relative to "
            "scores above 1/2.")


def _cases() -> tuple[dict, list[dict]]:
    """Every run of :data:`FILES`: the argued step of a run that is not committed or whose score does not vary,
    by path, and the case (2 x 2 table and Fisher tests, not yet adjusted) of every other run."""
    untested, cases = {}, []
    for path in FILES:
        run = load_run(path)
        if run is None:
            untested[path] = missing_step(CLAIM, "st1-run", path)
            continue
        docs = _documents(run)
        record = run_hypotheses(run, docs)
        reading = "concentrate" if setting_hypotheses(run)["satisfies_hypotheses"] else "our-setting"
        if not record["hypotheses"]["confidence_varies"]:
            untested[path] = missing_step(CLAIM, "st1-run", path, f"the model's score is "
                                          f"{next(iter(docs.values()))['score']} on every document, so confidence "
                                          "does not vary", reading=reading)
            continue
        cases.append(_case(run, docs, record, reading))
    return untested, cases


def _adjust_families(cases: list[dict]) -> list[dict]:
    """Holm over each reading's one-sided tests, in place: the Fisher tests of the headline's runs, of the
    'our-setting' runs, and the 'on' reading's binomial tests on the headline's runs, which it returns."""
    on = [_binomial_case(c) for c in cases if c["reading"] == "concentrate"]
    for group in [[c for c in cases if c["reading"] == r] for r in ("concentrate", "our-setting")] + [on]:
        _adjust(group)
        for c in group:
            c["family"] = 2 * len(group)
    return on


def concentrate(c: dict) -> StepResult:
    """st1: one run's Fisher tests of failures against high confidence, Holm-adjusted over its reading's runs."""
    run, (fh, oh), (fl, ol) = c["run"], *c["table"]
    confound = _table(c["docs"], "shortest")
    note = (f"{run.tag} ({setting_label(run, setting_hypotheses(run))}): Anchors fails on {fh} of {fh + oh} "
            f"high-confidence and {fl} of {fl + ol} other documents; one-sided Fisher p = {c['p']['greater']:.2g} "
            f"toward high confidence, {c['p']['less']:.2g} the other way; Holm over the {c['family']} one-sided "
            f"tests of the reading's runs: {c['p_holm']['greater']:.2g} and {c['p_holm']['less']:.2g} (at best "
            f"{c['p_holm_attainable']['greater']:.2g} toward): {OUTCOMES[c['outcome']]}. It fails on "
            f"{confound[0][0]} of the {sum(confound[0])} documents where its anchor is strictly the shortest and "
            f"on {confound[1][0]} of the other {sum(confound[1])}.")
    return run_step(CLAIM, "st1-run", run, note, holds=c["outcome"] > 0, conclusive=c["outcome"] != 0,
                    reading=c["reading"],
                    values={**c["record"], "definition": DEFINITION, "table": c["table"],
                            "p_greater": c["p"]["greater"], "p_less": c["p"]["less"], "p_holm": c["p_holm"],
                            "family_size": c["family"],
                            "attainable_p": c["attainable_exact"], "p_holm_attainable": c["p_holm_attainable"],
                            "fails_by_shortest_anchor": confound,
                            "median_score": float(np.median([v["score"] for v in c["docs"].values()])),
                            "test": "scipy.stats.fisher_exact, one-sided each way, Holm over the reading's runs"})


def on_run(c: dict) -> StepResult:
    """st3: one headline run's binomial test of the failure rate among its high-confidence documents against 1/2."""
    run = c["run"]
    note = (f"{run.tag}: Anchors fails on {c['fails_high']} of the {c['high']} high-confidence documents; one-sided "
            f"binomial p = {c['p']['greater']:.2g} for more than half, {c['p']['less']:.2g} for fewer; Holm over "
            f"the {c['family']} one-sided tests of the reading's runs: {c['p_holm']['greater']:.2g} and "
            f"{c['p_holm']['less']:.2g}: " + {1: "it fails on most of them", -1: "it fails on fewer than half",
                                               0: "neither test rejects"}[c["outcome"]] + ".")
    return run_step(CLAIM, "st3-on-run", run, note, holds=c["outcome"] > 0, conclusive=c["outcome"] != 0,
                    reading="on",
                    values={**c["record"], "definition": DEFINITION, "fails_high": c["fails_high"],
                            "high": c["high"], "p": c["p"], "p_holm": c["p_holm"], "family_size": c["family"],
                            "p_holm_attainable": c["p_holm_attainable"], "test": "scipy.stats.binomtest against 1/2"})


def confined_hypotheses(score: float, median: float, fails: bool) -> dict:
    """The literal reading's hypotheses on a document of a run in the setting: classified positive, not classified
    with a high confidence (below the run's median score and at most :data:`NOT_HIGH`), and Anchors fails on it."""
    return hypotheses(classified_positive=score > 0.5, below_the_runs_median=score < median,
                      score_at_most_not_high=score <= NOT_HIGH, anchors_fails=fails)


def _shortfall(run: Run, doc: int) -> float:
    """How far Anchors' comprehensiveness on ``doc`` is below the lowest of the four others' (positive: it fails)."""
    return min(run.values[e][doc]["comprehensiveness"] for e in OTHERS) - run.values["anchor"][doc]["comprehensiveness"]




def _failing_not_high(c: dict) -> tuple[dict, list]:
    """One run's failures below its median score: a summary, and those inside the literal reading's hypotheses."""
    median = float(np.median([v["score"] for v in c["docs"].values()]))
    failing = sorted((v["score"], d) for d, v in c["docs"].items() if v["fails"] and not v["high"])
    inside = [d for s, d in failing if confined_hypotheses(s, median, True)["satisfies_hypotheses"]]
    return ({"file": c["run"].path, "median_score": median, "failing_below_median": len(failing),
             "lowest_failing_score_below_median": failing[0][0] if failing else None, "failing_not_high": len(inside)},
            [(_shortfall(c["run"], d), d, c, median) for d in inside])


def confined(cases: list[dict]) -> StepResult:
    """st2, 'only', literally: no failure on a document not classified with high confidence, on the headline's
    runs; the clearest failure is the counterexample."""
    runs, found = [], []
    for c in cases:
        summary, inside = _failing_not_high(c)
        runs.append(summary)
        found += inside
    note = ("On the runs the headline tests, Anchors fails on " + "; ".join(
        f"{r['failing_not_high']} documents with a score at most {NOT_HIGH} ({r['failing_below_median']} below the "
        f"median {r['median_score']:.3f}, the lowest scoring {r['lowest_failing_score_below_median']:.3f}) of "
        f"{r['file']}" for r in runs) + ". Under this project's definitions of both 'fails' and 'high confidence' "
        "(module docstring).")
    values = {"definition": DEFINITION, "not_high": NOT_HIGH, "runs": runs}
    if found:
        shortfall, doc, c, median = max(found, key=lambda f: f[0])
        score = c["docs"][doc]["score"]
        comp = {e: c["run"].values[e][doc]["comprehensiveness"] for e in ("anchor", *OTHERS)}
        note += (f" The clearest (Anchors furthest below the lowest of the four others): document {doc} of "
                 f"{c['run'].path}, score {score:.3f}, Anchors' comprehensiveness {comp['anchor']:.3f} against "
                 + ", ".join(f"{e} {comp[e]:.3f}" for e in OTHERS) + ".")
        values = {**confined_hypotheses(score, median, c["docs"][doc]["fails"]), "run_setting": c["record"],
                  "counterexample": {"file": c["run"].path, "doc": doc, "score": score, "comprehensiveness": comp,
                                     "shortfall": shortfall, "anchor_k": c["run"].values["anchor"][doc]["k"]},
                  **values}
    return CLAIM.checked("st2-confined", "statement", "counterexample" if found else "exhaustive", note,
                         holds=not found, reading="confined", values=values)


def _paper_anchor_shortest() -> dict:
    """In how many of the paper's tables Anchors has strictly the smallest proportion and strictly the lowest
    comprehensiveness."""
    def lowest(table, metric):
        return table.mean("anchor", metric) < min(table.mean(e, metric) for e in OTHERS)
    return {"tables": len(TABLES), "smallest_proportion": sum(lowest(t, "proportion") for t in TABLES.values()),
            "lowest_comprehensiveness": sum(lowest(t, "comprehensiveness") for t in TABLES.values())}
