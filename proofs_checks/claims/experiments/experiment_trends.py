"""Introduction: "FRED performs better on more modern models, and larger documents".

The paper has no absolute scale of faithfulness across models and datasets, and its sentences compare FRED "against
well-established explainers" (line 166), so "performs better" is read as FRED's standing among the five explainers
of a table: a faithfulness cell (sufficiency, comprehensiveness, AUC-MoRF: section 4's three faithfulness metrics,
line 552) counts for FRED when FRED-mask or FRED-pos has the best printed mean by the column's arrow, ties included
(:func:`fred_best_cells`). The groups are the paper's own: "more modern models" are the pre-trained transformers
RoBERTa and DistilBERT (line 549: "Additionally, we applied pre-trained ..."; line 1115: "cutting-edge transformer
models") against the three scikit-learn models; "larger documents" are Yelp (about 150 tokens) and IMDb (230)
against Restaurants and Tweets (about 10), the lengths of line 1109.

Readings, each with its own verdict:

* ``descriptive`` (headline): what the printed tables show. Line 168 reports what "the empirical results highlight"
  and line 166 what section 4 is "demonstrating"; neither claims significance, and the authors write
  "significantly" when they mean it (line 689). A factor holds when FRED's share of the best cells, pooled over all
  34 tables, is strictly higher in the claimed group; the sentence is the conjunction of its two factors. Each step
  records whether the direction survives other measures (:func:`measures`).
* ``trend`` (stronger): the same beyond chance, by an exact permutation test whose unit is a (dataset, model)
  configuration (18 of them): its tables at p = 0.1 and p = 0.5 share the model, the documents and the LIME, SHAP
  and Anchors explainers, so they are not independent. Under the null hypothesis every assignment of the
  configurations to the two groups, with the group sizes fixed, is equally likely; the statistic is the difference
  of the pooled shares, and its distribution is counted exactly (:func:`permutation_test`). A factor holds when its
  one-sided p is at most 0.05 (the conjunction needs no correction: an intersection-union test). A trend beyond
  chance in the tables implies that their shares point its way, so this reading is never milder than the
  descriptive one: a factor whose shares point the other way fails it, whether or not the reversal is itself
  beyond chance; a factor whose shares point the claimed way without reaching the level is inconclusive, with the
  smallest p the test can attain recorded (:func:`trend_outcome`).
* ``section4`` (alternative): line 166 attributes the finding to section 4, whose six tables (one per
  configuration) are tested the same way; with three tables a side the smallest attainable p is 1/2.
* ``joint`` (alternative): one reading of the paper's own words "more suitable for realistic cases" (line 168): the
  transformers on Yelp and IMDb as one group, against every other configuration (printed shares; the exact p is
  recorded). The main clause lists its two factors separately, so this is not the headline.

The precise statement (:func:`_correction`) says what the tables show: the models half holds descriptively, not
beyond chance; the lengths half is reversed, pooled and within most models. A section-4 step whose shares point the
other way fails on the printed shares (a one-cell difference), not on its test, and is labelled descriptive.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from statistics import median

from fred_constants import LEVEL

from ...paper.tables import BETTER, EXPLAINERS, FAITHFULNESS, SECTION4, TABLES
from ...paper.yardstick import better, gap
from ...verdicts.results import (
    Claim,
    ClaimResult,
    Quote,
    Reading,
    StepResult,
    hypotheses,
)

CLAIM = Claim("experiment-trends")
DESCRIPTIVE, TREND, SECTION4_READING, JOINT = "descriptive", "trend", "section4", "joint"
#: The two parts of line 168's "FRED performs better on more modern models, and larger documents" each st1 step checks.
PARTS = {"models": "better on more modern models", "lengths": "better on larger documents"}
SENTENCE = Quote(168, "The empirical results highlight an interesting trajectory: FRED performs better on more modern "
                      "models, and larger documents, making it more suitable for realistic cases.")
SECTION4_SENTENCE = Quote(166, r"In Section~\ref{sec:experiments}, we empirically evaluate FRED against "
                               r"well-established explainers on a variety of models, including state-of-the-art "
                               r"models, demonstrating its effectiveness, especially on more complex models and "
                               r"larger documents.")
LENGTHS_QUOTE = Quote(1109, r"Note that the datasets have a substantial difference in document length: while the "
                            r"average length of tokens in Restaurants and Tweets is about $10$, for Yelp it is about "
                            r"$150$, in IMDb it is $230$.")
HIGHLIGHT = Quote(168, "The empirical results highlight an interesting trajectory")
SIGNIFICANTLY = Quote(689, "Both FRED-mask and FRED-pos produce significantly more faithful explanations than the "
                           "others.")
SOURCE = (
    SENTENCE, SECTION4_SENTENCE, LENGTHS_QUOTE,
    Quote(1110, "As shown below, this difference has a relevant impact on explainers' behavior."),
    Quote(548, "We trained logistic regression, decision trees, and random forests on each dataset."),
    Quote(549, r"Additionally, we applied pre-trained RoBERTa \citep{liu2019roberta} and DistilBERT "
               r"\citep{sanh2019distilbert} models."),
    Quote(1115, "These are two cutting-edge transformer models for sentiment analysis"),
    Quote(552, r"Faithfulness is evaluated using \textbf{Comprehensiveness} and \textbf{Sufficiency}"),
    SIGNIFICANTLY,
)
READINGS = (
    Reading(DESCRIPTIVE, "headline",
            "what the paper's tables show: FRED's share of the best faithfulness cells, pooled over all 34 tables, "
            "is higher on the transformers than on the scikit-learn models, and higher on Yelp and IMDb than on "
            "Restaurants and Tweets. Line 168 reports what 'the empirical results highlight' and line 166 what "
            "section 4 is 'demonstrating', with no claim of significance; the authors say 'significantly' when they "
            "mean it (line 689)",
            why=(HIGHLIGHT, SECTION4_SENTENCE, SIGNIFICANTLY)),
    Reading(TREND, "stronger",
            "the same two differences beyond chance (exact permutation test over the 18 configurations, one-sided, "
            "0.05); it implies the descriptive reading, so a factor whose printed shares point the other way fails "
            "it too",
            why=(Quote(168, "making it more suitable for realistic cases"),)),
    Reading(SECTION4_READING, "alternative",
            "the trend, tested the same way on the six tables of section 4 only",
            why=(SECTION4_SENTENCE,)),
    Reading(JOINT, "alternative",
            "one reading of the paper's own words 'more suitable for realistic cases': the transformers on Yelp and "
            "IMDb against every other configuration, printed shares; not the headline, since the main clause lists "
            "two factors separately",
            why=(Quote(168, "making it more suitable for realistic cases"),)),
)
#: Pre-trained transformers (line 549), against the scikit-learn models of line 548.
MODERN = ("roberta", "distilbert")
SCIKIT_LEARN = ("logistic", "tree", "forest")
#: Average document length in tokens by dataset, line 1109.
LENGTH = {"restaurants": 10, "tweets": 10, "yelp": 150, "imdb": 230}
FRED_VARIANTS = ("fred", "fredpos")
#: The level of the tests, in exact arithmetic (the binomial p-values are Fractions).
LEVEL_EXACT = Fraction(str(LEVEL))


def modern(dataset: str, model: str) -> bool:
    """A transformer (line 549)."""
    return model in MODERN


def long_documents(dataset: str, model: str) -> bool:
    """Yelp or IMDb, about 150 and 230 tokens (line 1109)."""
    return LENGTH[dataset] >= 150


#: factor -> (the claimed-better group's predicate on (dataset, model), its name, the other group's name, the
#: other factor: the factor is also compared within each of its classes).
FACTORS = {
    "models": (modern, "RoBERTa and DistilBERT", "scikit-learn models", "lengths"),
    "lengths": (long_documents, "Yelp and IMDb (about 150 and 230 tokens)", "Restaurants and Tweets (about 10)",
                "models"),
}


def configuration(label: str) -> tuple[str, str]:
    """``(dataset, model)`` of a table label.

    >>> configuration("exp-tab:imdb_roberta_5")
    ('imdb', 'roberta')
    """
    dataset, model, _ = label.removeprefix("exp-tab:").split("_")
    return dataset, model


def table_hypotheses(label: str) -> dict:
    """Whether a table speaks to the sentence: a comparison table of the paper whose dataset has a length at line
    1109 and whose model is one of lines 548-549, with every faithfulness column and a FRED row."""
    dataset, model = configuration(label)
    return hypotheses(table_of_the_paper=label in TABLES, dataset_length_given=dataset in LENGTH,
                      model_of_the_paper=model in MODERN + SCIKIT_LEARN,
                      fred_rows=set(FRED_VARIANTS) <= set(TABLES[label].rows))


def tables_hypotheses(labels, in_group) -> dict:
    """:func:`table_hypotheses` of every table of ``labels``, and both groups of ``in_group`` present: the record of
    a pooled comparison."""
    records = [table_hypotheses(label)["hypotheses"] for label in labels]
    groups = {in_group(*configuration(label)) for label in labels}
    return hypotheses(**{name: all(r[name] for r in records) for name in records[0]},
                      both_groups_present=groups == {True, False})


def cell_margins(label: str, variants: tuple[str, ...] = FRED_VARIANTS) -> dict[str, Fraction]:
    """``metric -> margin`` over the faithfulness cells of table ``label``: the best printed mean of ``variants``
    minus the best of the other explainers, by the column's arrow, in exact decimals (>= 0: a best cell, ties
    included).

    >>> cell_margins("exp-tab:restaurants_roberta_5")["sufficiency"]  # Anchors 0.509 against FRED's 0.517
    Fraction(-1, 125)
    """
    table = TABLES[label]
    out = {}
    for metric in FAITHFULNESS:
        score = {e: BETTER[metric] * Fraction(str(table.mean(e, metric))) for e in EXPLAINERS}
        out[metric] = (max(score[v] for v in variants)
                       - max(score[e] for e in EXPLAINERS if e not in variants))
    return out


def fred_best_cells(label: str, variants: tuple[str, ...] = FRED_VARIANTS) -> int:
    """The faithfulness cells of table ``label`` where one of ``variants`` has the best printed mean by the column's
    arrow, ties included (0 to 3).

    >>> fred_best_cells("exp-tab:restaurants_roberta_5")  # Anchors has the best sufficiency, 0.509
    2
    """
    return sum(margin >= 0 for margin in cell_margins(label, variants).values())


def units(labels, by_configuration: bool = True, variants: tuple[str, ...] = FRED_VARIANTS) -> dict:
    """``unit -> (FRED's best cells, cells)`` over ``labels``; a unit is a (dataset, model) configuration (its
    tables pooled), or a table when ``by_configuration`` is False."""
    out: dict = {}
    for label in labels:
        key = configuration(label) if by_configuration else label
        won, cells = out.get(key, (0, 0))
        out[key] = (won + fred_best_cells(label, variants), cells + len(FAITHFULNESS))
    return out


def _key_configuration(key) -> tuple[str, str]:
    return key if isinstance(key, tuple) else configuration(key)


def permutation_test(scores: dict, in_group) -> dict:
    """The exact permutation test of the module docstring: the pooled share of the units ``in_group`` (a predicate on
    (dataset, model)) minus that of the others, against its distribution over every relabelling with the group size
    fixed; ``p_up`` = P(difference >= observed), ``p_down`` = P(difference <= observed), and the smallest p each
    direction can attain. The subsets are counted by (size, best cells, cells), not listed."""
    group = [k for k in scores if in_group(*_key_configuration(k))]
    won, cells = sum(w for w, _ in scores.values()), sum(c for _, c in scores.values())
    counts = Counter({(0, 0, 0): 1})
    for w, c in scores.values():
        step = Counter()
        for (size, a, b), ways in counts.items():
            step[(size, a, b)] += ways
            step[(size + 1, a + w, b + c)] += ways
        counts = step
    size = len(group)
    dist = Counter()
    for (s, a, b), ways in counts.items():
        if s == size:
            dist[Fraction(a, b) - Fraction(won - a, cells - b)] += ways
    ga, gb = sum(scores[k][0] for k in group), sum(scores[k][1] for k in group)
    observed = Fraction(ga, gb) - Fraction(won - ga, cells - gb)
    total = sum(dist.values())

    def share(pred) -> Fraction:
        return Fraction(sum(ways for d, ways in dist.items() if pred(d)), total)

    return {"units": len(scores), "group_units": size, "arrangements": total,
            "group": [ga, gb], "others": [won - ga, cells - gb], "difference": observed,
            "p_up": share(lambda d: d >= observed), "p_down": share(lambda d: d <= observed),
            "attainable_p_up": share(lambda d: d == max(dist)), "attainable_p_down": share(lambda d: d == min(dist))}


def trend_outcome(test: dict) -> tuple[bool, bool]:
    """``(holds, conclusive)`` of a factor's :func:`permutation_test` under the trend reading: it holds when the
    printed shares point the claimed way and its one-sided p is at most :data:`LEVEL_EXACT`; it fails (conclusively)
    when the shares do not point the claimed way, since a trend beyond chance implies they do; otherwise it is
    inconclusive."""
    claimed_way = test["difference"] > 0
    holds = claimed_way and test["p_up"] <= LEVEL_EXACT
    return holds, holds or not claimed_way


def clearly_best(label: str, metric: str, variants: tuple[str, ...] = FRED_VARIANTS) -> bool:
    """Whether the best printed mean of ``variants`` in the cell is clearly better, by the yardstick
    (:func:`proofs_checks.paper.yardstick.better`), than every other explainer's.

    >>> clearly_best("exp-tab:restaurants_roberta_1", "comprehensiveness"), clearly_best(
    ...     "exp-tab:restaurants_roberta_5", "comprehensiveness")
    (True, False)
    """
    table = TABLES[label]
    best = max(variants, key=lambda v: BETTER[metric] * Fraction(str(table.mean(v, metric))))
    return all(better(gap(table, best, e, metric)) > 0 for e in EXPLAINERS if e not in variants)


def shares(labels, in_group, variants: tuple[str, ...] = FRED_VARIANTS, metrics=FAITHFULNESS,
           strict: bool = False, clear: bool = False) -> dict:
    """FRED's best cells ``[won, cells]`` over the cells of ``labels`` and ``metrics`` in the claimed-better group
    (``in_group``, a predicate on (dataset, model)) and in the others; ``strict`` leaves ties out of the best,
    ``clear`` counts only the cells where FRED is clearly best by the yardstick (:func:`clearly_best`)."""
    out = {"claimed_better": [0, 0], "other": [0, 0]}
    for label in labels:
        side = out["claimed_better" if in_group(*configuration(label)) else "other"]
        margins = cell_margins(label, variants)
        for metric in metrics:
            side[0] += (clearly_best(label, metric, variants) if clear else
                        margins[metric] > 0 if strict else margins[metric] >= 0)
            side[1] += 1
    return out


def _claimed_way(pair: dict) -> bool:
    return Fraction(*pair["claimed_better"]) > Fraction(*pair["other"])


def measures(factor: str) -> dict:
    """The factor's direction under other measures than the headline's, each ``{claimed_better, other,
    claimed_way}``: ties excluded; clearly best by the yardstick (:func:`clearly_best`); FRED-mask alone; the p = 0.5
    tables; the mean and median margin of FRED's best over the best other explainer (:func:`cell_margins`); each
    metric; and within each class of the other factor, with that subset's exact one-sided p."""
    in_group, _, _, other_factor = FACTORS[factor]
    other_class, *class_names, _ = FACTORS[other_factor]
    labels, p5 = tuple(TABLES), tuple(label for label in TABLES if label.endswith("_5"))
    out = {"ties excluded": shares(labels, in_group, strict=True),
           "clearly best (the yardstick)": shares(labels, in_group, clear=True),
           "FRED-mask alone": shares(labels, in_group, ("fred",)), "p = 0.5 tables": shares(p5, in_group),
           "FRED-mask alone, p = 0.5 tables": shares(p5, in_group, ("fred",)),
           **{metric: shares(labels, in_group, metrics=(metric,)) for metric in FAITHFULNESS}}
    out = {name: {**pair, "claimed_way": _claimed_way(pair)} for name, pair in out.items()}
    margins = {side: [m for label in labels if in_group(*configuration(label)) == (side == "claimed_better")
                      for m in cell_margins(label).values()] for side in ("claimed_better", "other")}
    for name, stat in (("mean margin", lambda ms: sum(ms) / len(ms)), ("median margin", median)):
        pair = {side: float(stat(ms)) for side, ms in margins.items()}
        out[name] = {**pair, "claimed_way": pair["claimed_better"] > pair["other"]}
    for inside, class_name in zip((True, False), class_names):
        subset = tuple(label for label in labels if other_class(*configuration(label)) == inside)
        pair, test = shares(subset, in_group), permutation_test(units(subset), in_group)
        out[f"within {class_name}"] = {**pair, "claimed_way": _claimed_way(pair), "p_claimed": float(test["p_up"])}
    return out


def _ratio(pair) -> str:
    return f"{pair[0]}/{pair[1]} = {pair[0] / pair[1]:.2f}"


def _by(labels, index: int) -> dict:
    """FRED's best cells over the cells of ``labels``, as 'won/cells = share', by dataset (``index`` 0) or model
    (1), in increasing order of the share."""
    out: dict = {}
    for label in labels:
        name = configuration(label)[index]
        won, cells = out.get(name, (0, 0))
        out[name] = (won + fred_best_cells(label), cells + len(FAITHFULNESS))
    return {name: _ratio(pair) for name, pair in sorted(out.items(), key=lambda item: Fraction(*item[1]))}


def _measure_text(name: str, m: dict) -> str:
    if "margin" in name:
        return f"{name} {m['claimed_better']:.4f} against {m['other']:.4f}"
    text = f"{name} {_ratio(m['claimed_better'])} against {_ratio(m['other'])}"
    return text + (f" (p = {m['p_claimed']:.3g})" if "p_claimed" in m else "")


STATEMENT = ('Introduction, "Organization of the paper" (line 168): "The empirical results highlight an interesting '
             'trajectory: FRED performs better on more modern models, and larger documents, making it more suitable '
             'for realistic cases."; line 166: "In Section 4, we empirically evaluate FRED against well-established '
             'explainers ..., demonstrating its effectiveness, especially on more complex models and larger '
             'documents."')
CONDITIONS = ("'Performs better' is FRED's share of the faithfulness cells (sufficiency, comprehensiveness, AUC-MoRF) "
              "where FRED-mask or FRED-pos has the best printed mean of the five explainers, ties included. Modern "
              "models: RoBERTa and DistilBERT (DistilBERT's accuracy is at chance on the sentiment sets, "
              "tab:model_accuracy); the others: logistic regression, decision tree, random forest. Larger "
              "documents: Yelp and IMDb; smaller: Restaurants and Tweets (line 1109). The headline reads the "
              "printed shares over all 34 tables. The tests take a (dataset, model) configuration as the unit (18 "
              "in all, 6 in section 4), count every relabelling exactly and decide at 0.05 one-sided; a factor "
              "whose printed shares point the other way fails them too.")


def check() -> ClaimResult:
    """Each factor (models, lengths) under each reading: the printed shares, the permutation test on all tables,
    the permutation test on section 4's tables; then the joint reading and the precise statement."""
    descriptive = tuple(descriptive_share(f) for f in FACTORS)
    steps = (*descriptive,
             *(trend_test(f"st2-trend-{f}", f, tuple(TABLES), True, TREND) for f in FACTORS),
             *(trend_test(f"st3-section4-{f}", f, SECTION4, False, SECTION4_READING) for f in FACTORS),
             joint(), paper_tables())
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS,
                        counterexample=counterexample(descriptive), steps=steps, corrected=corrected(),
                        source=SOURCE, readings=READINGS)


def counterexample(descriptive) -> dict | None:
    """The first factor whose printed shares point the other way (its descriptive step fails), None if neither."""
    failing = next(((factor, s) for factor, s in zip(FACTORS, descriptive) if s.status == "fails"), None)
    if failing is None:
        return None
    factor, step = failing
    return {"factor": factor, "claimed_better_group": FACTORS[factor][1], "other_group": FACTORS[factor][2],
            "tables": len(TABLES), **{k: step.values[k] for k in ("claimed_better", "other", "satisfies_hypotheses",
                                                                  "hypotheses")}}


def descriptive_share(factor: str) -> StepResult:
    """st1: FRED's share of the best faithfulness cells in the claimed-better group against the others, pooled over
    all tables, with the direction under other measures."""
    in_group, better, worse, _ = FACTORS[factor]
    labels = tuple(TABLES)
    main = shares(labels, in_group)
    holds = _claimed_way(main)
    others = measures(factor)
    same = [n for n, m in others.items() if m["claimed_way"] == holds]
    differ = [n for n, m in others.items() if m["claimed_way"] != holds]
    by = _by(labels, 1 if factor == "models" else 0)
    note = (f"FRED best in {_ratio(main['claimed_better'])} of the faithfulness cells on {better} against "
            f"{_ratio(main['other'])} on {worse} (all {len(labels)} tables): "
            f"{'the claimed' if holds else 'the opposite'} direction. By "
            f"{'model' if factor == 'models' else 'dataset'}, increasing: "
            + ", ".join(f"{k} {v}" for k, v in by.items())
            + ". The same direction under " + "; ".join(_measure_text(n, others[n]) for n in same)
            + (". The other direction under " + "; ".join(_measure_text(n, others[n]) for n in differ) if differ
               else "") + ".")
    return CLAIM.checked(f"st1-descriptive-{factor}", "statement", "exhaustive", note, holds=holds,
                         reading=DESCRIPTIVE, part=PARTS[factor],
                         values={**main, "difference_exact": str(Fraction(*main["claimed_better"])
                                                                 - Fraction(*main["other"])),
                                 "by": by, "measures": others, **tables_hypotheses(labels, in_group)})


def _test_verdict(test: dict, holds: bool) -> str:
    """A permutation test's outcome under the trend reading, in words."""
    if holds:
        return "beyond chance"
    if not test["difference"] > 0:
        return ("the shares point the other way, so no trend in the claimed direction can be beyond chance here; "
                f"the reversal itself is {'' if test['p_down'] <= LEVEL_EXACT else 'not '}beyond chance at "
                f"{float(LEVEL_EXACT)}")
    return f"the claimed direction, not beyond chance at {float(LEVEL_EXACT)}"


def trend_test(step: str, factor: str, labels, by_configuration: bool, reading: str) -> StepResult:
    """st2, st3: the factor's exact permutation test over ``labels`` (units: configurations, or tables); a
    section-4 step whose shares point the other way is decided by the printed shares (descriptive)."""
    in_group, better, worse, _ = FACTORS[factor]
    test = permutation_test(units(labels, by_configuration), in_group)
    holds, conclusive = trend_outcome(test)
    unit = f"{len(labels)} tables, {test['units']} configurations" if by_configuration else f"{len(labels)} tables"
    p = (f"exact one-sided p = {float(test['p_up']):.3g} for the claimed direction ({test['arrangements']} "
         f"arrangements, smallest attainable {float(test['attainable_p_up']):.3g}), {float(test['p_down']):.3g} for "
         f"the opposite one (smallest attainable {float(test['attainable_p_down']):.3g})")
    descriptive = reading == SECTION4_READING and not test["difference"] > 0
    same_size = test["group"][1] == test["others"][1]
    cells_apart = abs(test["group"][0] - test["others"][0]) if same_size else None
    note = (("Descriptive (the printed shares decide, not the test"
             + (f"; a {cells_apart}-cell difference" if same_size else "") + "): " if descriptive else "")
            + f"{unit} as units: FRED best in {_ratio(test['group'])} of the cells on {better} against "
            f"{_ratio(test['others'])} on {worse}; {p}: {_test_verdict(test, holds)}.")
    values = {**{k: (float(v) if isinstance(v, Fraction) else v) for k, v in test.items()},
              "difference_exact": str(test["difference"]), "alpha": float(LEVEL_EXACT),
              "false_alarm_probability": float(LEVEL_EXACT), "seed": None,
              "test": "exact permutation of the group labels over the units, pooled share difference",
              "basis": "descriptive" if descriptive else "statistical"}
    if descriptive:
        values["cells_apart"] = cells_apart
    return CLAIM.checked(step, "statement", "exhaustive" if descriptive else "statistical", note, holds=holds,
                         conclusive=conclusive, reading=reading, values=values)


def joint() -> StepResult:
    """st4, reading ``joint``: the transformers on Yelp and IMDb against every other configuration."""
    def in_group(dataset, model):
        return modern(dataset, model) and long_documents(dataset, model)

    labels = tuple(TABLES)
    main, test = shares(labels, in_group), permutation_test(units(labels), in_group)
    note = (f"FRED best in {_ratio(main['claimed_better'])} of the faithfulness cells on the transformers for Yelp "
            f"and IMDb against {_ratio(main['other'])} elsewhere; not beyond chance: exact one-sided p = "
            f"{float(test['p_up']):.3g} ({test['arrangements']} arrangements of the {test['units']} "
            f"configurations, smallest attainable {float(test['attainable_p_up']):.3g}).")
    return CLAIM.checked("st4-joint", "statement", "exhaustive", note, holds=_claimed_way(main),
                         reading=JOINT, values={**main, "p_claimed": float(test["p_up"]),
                                                "attainable_p": float(test["attainable_p_up"]),
                                                "arrangements": test["arrangements"]})


def within_models(factor: str = "lengths") -> dict:
    """The lengths factor within each model: ``model -> {claimed_better, other, direction}`` (``direction``:
    'claimed', 'reversed' or 'tied' by the printed shares)."""
    in_group = FACTORS[factor][0]
    out = {}
    for model in SCIKIT_LEARN + MODERN:
        pair = shares(tuple(label for label in TABLES if configuration(label)[1] == model), in_group)
        a, b = Fraction(*pair["claimed_better"]), Fraction(*pair["other"])
        out[model] = {**pair, "direction": "claimed" if a > b else "reversed" if a < b else "tied"}
    return out




def _correction_facts() -> dict:
    """What the precise statement says, from the same computations as the statement steps: both factors' pooled
    shares, the models' permutation test and the lengths factor within each model."""
    within = within_models()
    return {"models": shares(tuple(TABLES), modern), "lengths": shares(tuple(TABLES), long_documents),
            "test": permutation_test(units(tuple(TABLES)), modern), "within": within,
            "reversed_in": [m for m, w in within.items() if w["direction"] == "reversed"]}


def corrected() -> str:
    """The precise statement: the models half holds on the printed shares, not beyond chance; the lengths half is
    reversed, pooled and within most models."""
    facts = _correction_facts()
    models, lengths, within = facts["models"], facts["lengths"], facts["within"]
    return (
        f"Descriptively, FRED's share of the best faithfulness cells is higher on the transformers than on the "
        f"scikit-learn models ({_ratio(models['claimed_better'])} against {_ratio(models['other'])}; not beyond "
        f"chance, exact one-sided p = {float(facts['test']['p_up']):.3f} over the 18 configurations), but lower on "
        f"Yelp and IMDb than on Restaurants and Tweets ({_ratio(lengths['claimed_better'])} against "
        f"{_ratio(lengths['other'])}; reversed within {len(facts['reversed_in'])} of the {len(within)} models: "
        + ", ".join(f"{m} {w['claimed_better'][0]}/{w['claimed_better'][1]} against {w['other'][0]}/"
                    f"{w['other'][1]}" for m, w in within.items())
        + "). The models half of line 168 holds on the printed tables, not beyond chance; the lengths half is "
          "reversed.")


def paper_tables() -> StepResult:
    """c1: each part of the precise statement."""
    facts = _correction_facts()
    models, lengths, test, within, reversed_in = (facts[k] for k in ("models", "lengths", "test", "within",
                                                                     "reversed_in"))
    models_descriptive = _claimed_way(models)
    models_chance = test["p_up"] > LEVEL_EXACT
    lengths_reversed = Fraction(*lengths["claimed_better"]) < Fraction(*lengths["other"])
    most_reversed = 2 * len(reversed_in) > len(within)
    return CLAIM.checked("c1-tables", "correction", "exhaustive",
                         f"Transformers' share higher: {models_descriptive}; not beyond chance (p = "
                         f"{float(test['p_up']):.3f} > {float(LEVEL_EXACT)}): {models_chance}; lengths reversed "
                         f"pooled: {lengths_reversed}; reversed within {len(reversed_in)} of {len(within)} models "
                         f"({', '.join(reversed_in)}): a majority {most_reversed}.",
                         holds=models_descriptive and models_chance and lengths_reversed and most_reversed,
                         values={"models": models, "lengths": lengths, "models_p_claimed": float(test["p_up"]),
                                 "alpha": float(LEVEL_EXACT), "lengths_within_models": within,
                                 "reversed_in": reversed_in})
