"""Section 4 and appendix B.2: "In general, Anchor performs well on small documents (Restaurant dataset), while its
behavior on larger documents is highly nonlinear, as it tends to be conservative on the size of the anchor."

The sentence is printed twice, line 691 for section 4's six tables and line 1178 for the appendix's 28; each is
checked on the tables it describes, and the claim is the two together. Every comparison of two printed cells is the
yardstick's (:mod:`proofs_checks.paper.yardstick`). The tables rank explainers: "performs well" has no absolute scale
in them, and the sentence sets small documents against larger ones ("while its behavior on larger documents").

**Anchor's standing** in a set of tables: over their faithfulness cells (sufficiency, comprehensiveness, AUC-MoRF,
line 552), Anchor's comparisons with each of the four other explainers, won minus lost by the printed means, and
clearly won minus clearly lost (the yardstick's clear gap), each per comparison. Small documents are the Restaurants
tables (the sentence's parenthesis), larger ones Yelp and IMDb (about 150 and 230 tokens against 10, line 1109).

Readings:

* ``as-written`` (headline): the sentence's own words, each sentence on the tables it describes, in three parts (each a
  statement step's ``part``, so the claim reads "<verdict> in part" when they differ): **performs well on small
  documents**, Anchor's faithfulness comparisons with the four other explainers on the Restaurants tables, together,
  by the yardstick's directional rule on the whole (holds when it wins more than it loses and its clear gaps are at
  least as many; fails when it loses more); **conservative on the size of the anchor**, its proportion (the printed
  column ``proport.``, |e| / |xi|) smaller than each other explainer's on the whole on Yelp and IMDb; **highly
  nonlinear**, which no table measures (the tables print means and standard deviations of six metrics per
  explainer; none relates Anchor's behaviour to a variable it could be linear or not in), so it is argued.
  "In general" and "tends to" mark tendencies, which is what the on-the-whole rule reads.
* ``relative`` (weaker): Anchor's standing is higher on Restaurants than on Yelp and IMDb, by the printed means, and
  the clear gaps do not point the other way (the yardstick's "on the whole", applied to the two standings): "performs
  well" rewritten as "less badly than on the larger documents", a lenient reading reported beside the headline.
* ``absolute`` (stronger): on every Restaurants table of the paper, against each other explainer separately, Anchor's
  printed means are not worse on the whole (no more comparisons lost than won).
* ``small-is-short`` (alternative): the relative reading with small documents as line 1109 groups them, Restaurants
  and Tweets (about 10 tokens), against Yelp and IMDb, over all 34 tables.
"""

from __future__ import annotations

from ...paper.tables import EXPLAINERS, FAITHFULNESS, SECTION4, TABLES, UNDERLINED
from ...paper.yardstick import directional, status_of, tally
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .paper_gaps import APPENDIX, gaps_step

CLAIM = Claim("experiment-anchor-small-documents", new=True)
AS_WRITTEN, RELATIVE, ABSOLUTE, SMALL_IS_SHORT = "as-written", "relative", "absolute", "small-is-short"
#: The labelled parts of the headline sentence (a statement step's ``part``).
WELL, CONSERVATIVE, NONLINEAR = ("performs well on small documents", "conservative on the size of the anchor",
                                 "highly nonlinear")
TEXT = ("In general, Anchor performs well on small documents (Restaurant dataset), while its behavior on larger "
        "documents is highly nonlinear, as it tends to be conservative on the size of the anchor.")
SECTION4_SENTENCE = Quote(691, TEXT)
#: AUC-MoRF is introduced for the importance-based explanations, and Anchors' is not one (a rule, no weights).
IMPORTANCE_BASED = Quote(552, "for the importance-based explanations")
#: The metrics every explainer's explanation is introduced for (line 552), without AUC-MoRF.
SUBSET_METRICS = ("sufficiency", "comprehensiveness")
APPENDIX_SENTENCE = Quote(1178, TEXT)
CONTRAST = Quote(691, "In general, Anchor performs well on small documents (Restaurant dataset), while its behavior "
                      "on larger documents")
TENDENCY = Quote(691, "as it tends to be conservative on the size of the anchor")
LENGTHS = Quote(1109, r"Note that the datasets have a substantial difference in document length: while the average "
                      r"length of tokens in Restaurants and Tweets is about $10$, for Yelp it is about $150$, in IMDb "
                      r"it is $230$.")
SOURCE = (SECTION4_SENTENCE, APPENDIX_SENTENCE, LENGTHS,
          Quote(1110, "As shown below, this difference has a relevant impact on explainers' behavior."),
          Quote(552, r"Faithfulness is evaluated using \textbf{Comprehensiveness} and \textbf{Sufficiency}"),
          IMPORTANCE_BASED,
          Quote(680, r"the average proportion of document (\emph{i.e.}, $\size{\explanation} / \size{\xi}$) used for "
                     r"explanation"),
          Quote(589, r"\texttt{proport.} $\downarrow$"))
READINGS = (
    Reading(AS_WRITTEN, "headline",
            "The sentence's own words, each sentence on the tables it describes, in three parts: Anchor performs "
            "well on small documents (on the Restaurants tables it wins more of its faithfulness comparisons with "
            "the four other explainers than it loses, the clear gaps not against it, by the yardstick on the "
            "whole); it is conservative on the size of the anchor (on Yelp and IMDb its proportion is smaller than "
            "each other explainer's on the whole); its behaviour on larger documents is highly nonlinear (no table "
            "measures it: argued). 'In general' and 'tends to' mark tendencies, read on the whole",
            why=(SECTION4_SENTENCE, APPENDIX_SENTENCE)),
    Reading(RELATIVE, "weaker",
            "Anchor's standing among the five explainers (its faithfulness comparisons with the four others, won "
            "minus lost per comparison) is higher on the Restaurants tables than on the Yelp and IMDb ones, by the "
            "printed means with the clear gaps not pointing the other way (the yardstick). The tables rank explainers, "
            "the sentence sets small documents against larger ones ('while its behavior on larger documents'), and "
            "'In general' and 'tends to' mark tendencies. Weaker than the words: it turns 'performs well' into "
            "'less badly than on Yelp and IMDb'",
            why=(CONTRAST, TENDENCY, LENGTHS)),
    Reading(ABSOLUTE, "stronger",
            "On all the Restaurants tables of the paper, against each other explainer separately, Anchor's printed "
            "means are not worse on the whole (no more faithfulness comparisons lost than won)."),
    Reading(SMALL_IS_SHORT, "alternative",
            "The relative reading's standing with small documents as line 1109 groups them, Restaurants and Tweets, "
            "against "
            "Yelp and IMDb, over all 34 tables.", why=(LENGTHS,)),
)
SCOPES = {"section4": (SECTION4_SENTENCE, SECTION4), "appendix": (APPENDIX_SENTENCE, APPENDIX)}
OTHERS = tuple(e for e in EXPLAINERS if e != "anchor")
SMALL, LARGE, SHORT = ("restaurants",), ("yelp", "imdb"), ("restaurants", "tweets")


def dataset(label: str) -> str:
    """The dataset of a table label.

    >>> dataset("exp-tab:imdb_roberta_5")
    'imdb'
    """
    return label.removeprefix("exp-tab:").split("_")[0]


def standing(labels, metrics=FAITHFULNESS) -> dict:
    """Anchor against each other explainer over ``labels`` and ``metrics`` (the yardstick's :func:`tally`), and its
    standing: (won - lost) / comparisons by the printed means, (clear won - clear lost) / comparisons."""
    labels = tuple(labels)
    pairs = {e: tally(labels, "anchor", e, metrics) for e in OTHERS}
    total = sum(t["comparisons"] for t in pairs.values())
    counts = {k: sum(t[k] for t in pairs.values()) for k in ("won", "lost", "clear_won", "clear_lost")}
    return {"tables": len(labels), "comparisons": total, **counts,
            "printed": (counts["won"] - counts["lost"]) / total if total else None,
            "clear": (counts["clear_won"] - counts["clear_lost"]) / total if total else None,
            "against": {e: {k: t[k] for k in ("won", "lost", "clear_won", "clear_lost", "favours")}
                        for e, t in pairs.items()}}


def compare_standings(small: dict, large: dict) -> str:
    """Whether Anchor stands higher on the small documents: holds when its printed standing is higher there and its
    clear standing not lower, fails when its printed standing is lower, else inconclusive (the yardstick's
    directional rule on the whole, applied to two standings)."""
    if small["printed"] is None or large["printed"] is None:
        return "inconclusive"
    return directional(small["printed"], large["printed"], small["clear"], large["clear"])


def _by(labels, names) -> tuple[str, ...]:
    return tuple(label for label in labels if dataset(label) in names)


def _text(s: dict) -> str:
    return (f"{s['won']}-{s['lost']} [{s['clear_won']}-{s['clear_lost']}] of {s['comparisons']} comparisons over "
            f"{s['tables']} tables (standing {s['printed']:+.3f}, clear {s['clear']:+.3f})" if s["comparisons"] else
            "no table")


def tables_hypotheses(labels, sentence: Quote) -> dict:
    """Whether tables speak to the sentence: the paper's tables, in the place the sentence describes, with an
    Anchor row."""
    place = "section 4" if sentence is SECTION4_SENTENCE else "appendix B.2"
    return hypotheses(tables_of_the_paper=all(label in TABLES for label in labels),
                      tables_the_sentence_describes=all(TABLES[label].place == place for label in labels),
                      anchor_row=all("anchor" in TABLES[label].rows for label in labels))


STATEMENT = ('Section 4, "Results" (line 691), and appendix B.2 (line 1178): "In general, Anchor performs well on '
             'small documents (Restaurant dataset), while its behavior on larger documents is highly nonlinear, as '
             'it tends to be conservative on the size of the anchor." Small documents: Restaurants; larger: Yelp and '
             'IMDb (line 1109). The claim is the two sentences together, each on the tables it describes.')
CONDITIONS = ("Every comparison of two printed cells is the yardstick's (proofs_checks.paper.yardstick, printed above "
              "the experiment claims): a clear gap is one of at least 2.394 unpaired standard errors at the worst "
              "rounding of the printed numbers (conservative when two explainers' values on a document correlate "
              "non-negatively). Anchor's standing: its faithfulness comparisons with FRED-mask, FRED-pos, LIME and "
              "SHAP, won minus lost per comparison, by the printed means and clearly. The proportion column is "
              "lower-is-better (line 589): Anchor 'conservative on the size of the anchor' is its proportion lower "
              "than each other explainer's on the whole. Section 4 has one Restaurants table "
              "(exp-tab:restaurants_roberta_5), so line 691's standing rests on it.")


def check() -> ClaimResult:
    """Per sentence, Anchor's standing (small against larger documents) and its proportion on the larger ones; then
    the absolute reading, Restaurants and Tweets together, and the nonlinear clause."""
    steps = (*(performs_well(scope) for scope in SCOPES), *(conservative(scope) for scope in SCOPES), nonlinear(),
             *(relative(scope) for scope in SCOPES), absolute(), small_is_short(), paper_tables())
    # The counterexample: a sentence whose Restaurants tables show Anchor losing on the whole (line 1178's).
    counterexample = next((s.values["counterexample"] for s in steps[:len(SCOPES)] if s.values["counterexample"]),
                          None)
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS, counterexample=counterexample,
                        steps=steps, corrected=corrected(), source=SOURCE, readings=READINGS)


def _facts() -> dict:
    """What the precise statement says, over all 34 tables: Anchor's standing on Restaurants and on Yelp and IMDb,
    and its proportion against the others' on Yelp and IMDb."""
    small, large = standing(_by(TABLES, SMALL)), standing(_by(TABLES, LARGE))
    proportion = standing(_by(TABLES, LARGE), ("proportion",))
    return {"restaurants": small, "yelp_imdb": large, "proportion_yelp_imdb": proportion,
            "higher_on_restaurants": compare_standings(small, large) == "holds",
            "loses_to_every_other_on_restaurants": all(t["favours"] == e for e, t in small["against"].items()),
            "smallest_anchor": all(t["favours"] == "anchor" for t in proportion["against"].values())}


def corrected() -> str:
    """The precise statement: Anchor stands higher on Restaurants than on Yelp and IMDb, yet loses to every other
    explainer even there; its anchors are the smallest on the larger documents."""
    f = _facts()
    small, large, proportion = f["restaurants"], f["yelp_imdb"], f["proportion_yelp_imdb"]
    return (f"Anchor performs better on Restaurants than on Yelp and IMDb relative to the other explainers (it wins "
            f"{small['won']} and loses {small['lost']} of its {small['comparisons']} faithfulness comparisons there, "
            f"clearly {small['clear_won']}-{small['clear_lost']}, against {large['won']}-{large['lost']}, clearly "
            f"{large['clear_won']}-{large['clear_lost']}, of {large['comparisons']} on Yelp and IMDb), but not well "
            "against them: even on Restaurants the printed means favour each of FRED-mask, FRED-pos, LIME and SHAP "
            f"over it. On Yelp and IMDb its explanations are the smallest: its proportion is below each other "
            f"explainer's in {proportion['won']} of {proportion['comparisons']} comparisons, clearly in "
            f"{proportion['clear_won']}.")


def paper_tables() -> StepResult:
    """c1: the precise statement's three parts, over all 34 tables."""
    f = _facts()
    return gaps_step(CLAIM, "c1-tables", f"Anchor stands higher on Restaurants than on Yelp and IMDb: "
                     f"{f['higher_on_restaurants']}; loses on the whole to every other explainer on Restaurants: "
                     f"{f['loses_to_every_other_on_restaurants']}; smallest proportion on the whole on Yelp and IMDb: "
                     f"{f['smallest_anchor']}.",
                     holds=f["higher_on_restaurants"] and f["loses_to_every_other_on_restaurants"]
                     and f["smallest_anchor"], reading=None, role="correction", values=f)


def on_the_whole(s: dict) -> str:
    """The yardstick's directional rule on the whole applied to Anchor's comparisons with the four others together
    (a :func:`standing`): holds when it wins more than it loses by the printed means and clearly at least as many as it
    clearly loses, fails when it loses more, else inconclusive.

    >>> on_the_whole({"won": 6, "lost": 6, "clear_won": 2, "clear_lost": 4})
    'inconclusive'
    """
    return directional(s["won"], s["lost"], s["clear_won"], s["clear_lost"])


def performs_well(scope: str) -> StepResult:
    """st0, the headline's first part: Anchor on the Restaurants tables the sentence describes, against the four other
    explainers together, by the yardstick on the whole; and each pair's direction."""
    sentence, labels = SCOPES[scope]
    small = standing(_by(labels, SMALL))
    status = on_the_whole(small)
    against = [e for e, t in small["against"].items() if t["favours"] == e]
    note = (f"Line {sentence.line}, the {small['tables']} Restaurants table(s) it describes: Anchor against the four "
            f"other explainers on faithfulness, won-lost [clearly]: {_text(small)}; by pair: " + "; ".join(
                f"{e} {t['won']}-{t['lost']} [{t['clear_won']}-{t['clear_lost']}]" for e, t in small["against"].items())
            + f"; the printed means go against Anchor in {len(against)} of {len(OTHERS)} pairs"
            + (" (every pair)" if len(against) == len(OTHERS) else "")
            + f". The step {'is ' * (status == 'inconclusive')}{status}"
            + (f": by the yardstick's rule {small['won']}-{small['lost']} printed is not 'favour the others in more "
               "cells', so it does not fail" if status == "inconclusive" and small["won"] == small["lost"] else "")
            + ". " + _subset_text(sentence, labels, status) + ".")
    restaurants = _by(labels, SMALL)
    counterexample = None if status != "fails" else {
        **hypotheses(**tables_hypotheses(restaurants, sentence)["hypotheses"],
                     small_documents=all(dataset(label) in SMALL for label in restaurants)),
        "sentence_line": sentence.line, "tables": list(restaurants),
        **{k: small[k] for k in ("won", "lost", "clear_won", "clear_lost")}, "pairs_against_anchor": against}
    return gaps_step(CLAIM, f"st0-{scope}-performs-well", note, holds=status == "holds",
                     conclusive=status != "inconclusive", reading=AS_WRITTEN, part=WELL,
                     assumption="two explainers' values on a document correlate non-negatively",
                     values={**tables_hypotheses(labels, sentence), "sentence_line": sentence.line,
                             "restaurants": small, "pairs_against_anchor": against,
                             "restaurants_without_aucmorf": standing(_by(labels, SMALL), SUBSET_METRICS),
                             "anchor_best": _anchor_best(labels), "counterexample": counterexample})


def _anchor_best(labels) -> list[dict]:
    """The Restaurants cells of sufficiency and comprehensiveness in ``labels`` where Anchor's printed mean is the
    best of its table, with whether the paper underlines it."""
    return [{"table": label, "metric": m, "mean": TABLES[label].mean("anchor", m),
             "underlined": "anchor" in UNDERLINED.get(label, {}).get(m, ())}
            for label in _by(labels, SMALL) for m in SUBSET_METRICS if "anchor" in TABLES[label].best(m)]


def _subset_text(sentence: Quote, labels, status: str) -> str:
    """Anchor's standing on sufficiency and comprehensiveness alone: line 552 introduces AUC-MoRF for the
    importance-based explanations, and Anchors is not one."""
    sub = standing(_by(labels, SMALL), SUBSET_METRICS)
    sub_status = on_the_whole(sub)
    return (f"Line {IMPORTANCE_BASED.line} introduces AUC-MoRF '{IMPORTANCE_BASED.text}', and Anchors is not one: on "
            f"sufficiency and comprehensiveness alone Anchor is {sub['won']}-{sub['lost']} "
            f"[{sub['clear_won']}-{sub['clear_lost']}] (by the yardstick, {sub_status})"
            + "".join(f"; its {b['metric']} {b['mean']:.3f} is the best of {b['table']}"
                      + (", underlined" if b["underlined"] else "") for b in _anchor_best(labels))
            + (f"; so line {sentence.line}'s part fails even without AUC-MoRF"
               if status == sub_status == "fails" else ""))


def relative(scope: str) -> StepResult:
    """st1: Anchor's standing on the Restaurants tables against the Yelp and IMDb ones the sentence describes."""
    sentence, labels = SCOPES[scope]
    small, large = standing(_by(labels, SMALL)), standing(_by(labels, LARGE))
    status = compare_standings(small, large)
    note = (f"Line {sentence.line}, Anchor against the four other explainers on faithfulness, won-lost [clearly]: "
            f"Restaurants {_text(small)}; Yelp and IMDb {_text(large)}. The step {status}.")
    return gaps_step(CLAIM, f"st1-{scope}-standing", note, holds=status == "holds",
                     conclusive=status != "inconclusive", reading=RELATIVE,
                     assumption="two explainers' values on a document correlate non-negatively",
                     values={**tables_hypotheses(labels, sentence), "sentence_line": sentence.line,
                             "restaurants": small, "yelp_imdb": large})


def conservative(scope: str) -> StepResult:
    """st2: Anchor's proportion against each other explainer's over the Yelp and IMDb tables the sentence
    describes (lower is better, the yardstick's on-the-whole rule), with the Restaurants tables for contrast."""
    sentence, labels = SCOPES[scope]
    large, small = standing(_by(labels, LARGE), ("proportion",)), standing(_by(labels, SMALL), ("proportion",))
    statuses = [status_of(t["favours"], "anchor") for t in large["against"].values()]
    status = "fails" if "fails" in statuses else "holds" if all(s == "holds" for s in statuses) else "inconclusive"
    note = (f"Line {sentence.line}, Anchor's proportion against each other explainer's, tables where it is smaller "
            "- larger [clearly]: Yelp and IMDb " + "; ".join(
                f"{e} {t['won']}-{t['lost']} [{t['clear_won']}-{t['clear_lost']}]" for e, t in large["against"].items())
            + f" (the step {status}); Restaurants, for contrast, {_text(small)}.")
    return gaps_step(CLAIM, f"st2-{scope}-conservative", note, holds=status == "holds",
                     conclusive=status != "inconclusive", reading=AS_WRITTEN, part=CONSERVATIVE,
                     assumption="two explainers' proportions on a document correlate non-negatively",
                     values={"sentence_line": sentence.line, "yelp_imdb": large, "restaurants": small})


def absolute() -> StepResult:
    """st3: the stronger reading, over every Restaurants table: against each other explainer, Anchor's printed
    means not worse on the whole; its widest losing pair, with the hypotheses record, is the counterexample to that
    reading (in the step's values)."""
    labels = _by(TABLES, SMALL)
    s = standing(labels)
    against = {e: t for e, t in s["against"].items() if t["favours"] == e}
    worst = max(against, key=lambda e: against[e]["lost"] - against[e]["won"], default=None)
    note = (f"The {len(labels)} Restaurants tables, Anchor against each other explainer on faithfulness, won-lost "
            "[clearly]: " + "; ".join(f"{e} {t['won']}-{t['lost']} [{t['clear_won']}-{t['clear_lost']}]"
                                      for e, t in s["against"].items())
            + f"; the printed means go against Anchor in {len(against)} of {len(OTHERS)} pairs.")
    counterexample = None if worst is None else {
        **hypotheses(restaurants_tables=all(dataset(label) in SMALL for label in labels),
                     tables_of_the_paper=all(label in TABLES for label in labels),
                     competitor_is_another_explainer=worst in OTHERS),
        "competitor": worst, **against[worst]}
    return gaps_step(CLAIM, "st3-absolute", note, holds=not against, reading=ABSOLUTE,
                     values={"restaurants": s, "counterexample": counterexample})


def small_is_short() -> StepResult:
    """st4: the standing with small documents as line 1109 groups them, Restaurants and Tweets, over all tables."""
    small, large = standing(_by(TABLES, SHORT)), standing(_by(TABLES, LARGE))
    status = compare_standings(small, large)
    note = (f"All {len(TABLES)} tables, Anchor against the four other explainers on faithfulness, won-lost "
            f"[clearly]: Restaurants and Tweets {_text(small)}; Yelp and IMDb {_text(large)}. The step {status}.")
    return gaps_step(CLAIM, "st4-small-is-short", note, holds=status == "holds", conclusive=status != "inconclusive",
                     reading=SMALL_IS_SHORT, values={"restaurants_tweets": small, "yelp_imdb": large})


def nonlinear() -> StepResult:
    """st5: 'highly nonlinear', which no table measures."""
    return CLAIM.argued("st5-nonlinear", "statement",
                        "Whether Anchor's behaviour on larger documents is 'highly nonlinear': every table prints, "
                        "per explainer, the mean and standard deviation of six metrics over its documents; none "
                        "relates Anchor's behaviour to a variable it could be linear or not in, so the tables cannot "
                        "check this clause: untestable from the tables.", reading=AS_WRITTEN, part=NONLINEAR)
