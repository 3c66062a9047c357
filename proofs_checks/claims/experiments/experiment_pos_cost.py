"""Section 3's remark on pos-sampling (line 377): it "can be computationally costly, as it requires the computation of
the POS-tag and the sentiment for any token", against the time columns of the 34 tables.

The remark sets pos-sampling against the mask-sampling proposed next (line 379: "Alternatively, ... simply mask the
tokens to be removed with a predefined token"), and names the cost as the work mask-sampling does not do: the
headline reads it relative to FRED-mask. Every comparison of two printed cells is the yardstick's "faster"
(:mod:`proofs_checks.paper.yardstick`), the time column lower-is-better (line 589).

Readings:

* ``than-mask`` (headline): FRED-pos is slower than FRED-mask on the whole (the yardstick's directional rule, FRED-mask
  "faster"), with a sensitivity table over the minimum effect size of a clear gap, and the median time ratio.
* ``every-table`` (stronger): FRED-pos slower than FRED-mask in every table, clearly.
* ``among-explainers`` (alternative, absolute): "costly" among the explainers the paper runs: FRED-pos slower than each
  of LIME, SHAP and Anchors on the whole. The tables have no other absolute scale of cost.
* ``our-setting`` (alternative): this project's committed runs, FRED-pos against FRED-mask by a paired test (its
  PosSampler, not the authors' dictionaries; timed on 2 shared cores, not the paper's A100): an extension.
"""

from __future__ import annotations

from statistics import median

from ...paper.tables import TABLES
from ...paper.yardstick import MARGINS, gap, sensitivity, status_of, tally
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult
from .paired_tests import FIVE_EXPLAINER_RUNS, compare, each_run, run_step
from .paper_gaps import gaps_step

CLAIM = Claim("experiment-pos-cost", new=True)
THAN_MASK, EVERY_TABLE, AMONG, OURS = "than-mask", "every-table", "among-explainers", "our-setting"
REMARK = Quote(377, r"Note that this sampling scheme requires the availability of a corpus $\texts$, and can be "
                    r"computationally costly, as it requires the computation of the POS-tag and the sentiment for any "
                    r"token.")
ALTERNATIVE = Quote(379, r"Alternatively, we follow the default implementation of the official repositories from "
                         r"Anchor, LIME, and SHAP, and propose the \textbf{mask-sampling}: simply mask the tokens to be "
                         r"removed with a predefined token.")
SOURCE = (REMARK, ALTERNATIVE, Quote(589, r"\texttt{time (s)} $\downarrow$"),
          Quote(681, r"We refer below FRED under the \texttt{pos-sampling} scheme as FRED-pos (\texttt{fredpos} in the "
                     r"tables), and to FRED under the \texttt{mask-sampling} as FRED-mask (\texttt{fred} in the "
                     r"tables)."))
READINGS = (
    Reading(THAN_MASK, "headline",
            "FRED-pos takes longer per explanation than FRED-mask on the whole (the yardstick's 'faster', FRED-mask "
            "as the faster one). The remark names the cost as the POS-tag and sentiment computations that "
            "mask-sampling, proposed as the alternative in the next sentence, does not do.",
            why=(REMARK, ALTERNATIVE)),
    Reading(EVERY_TABLE, "stronger", "FRED-pos clearly slower than FRED-mask in every table."),
    Reading(AMONG, "alternative",
            "FRED-pos costly among the explainers the paper runs: slower than each of LIME, SHAP and Anchors on the "
            "whole.", why=(REMARK,)),
    Reading(OURS, "alternative",
            "Ours, an extension: FRED-pos significantly slower than FRED-mask in this project's committed runs "
            "(its PosSampler; 2 shared cores)."),
)
STATEMENT = ('Section 3, remark on pos-sampling (line 377): "this sampling scheme ... can be computationally costly, as '
             'it requires the computation of the POS-tag and the sentiment for any token". Cost is the mean time per '
             'explanation, the column time (s) of the 34 tables (lower is better).')
CONDITIONS = ("The tables are read by the yardstick (proofs_checks.paper.yardstick, printed above the experiment "
              "claims): a clear gap is one of at least 2.394 unpaired standard errors at the worst rounding of the "
              "printed numbers (conservative when two explainers' times on a document correlate non-negatively). "
              "'Can be' is read as a tendency, on the whole; the every-table reading is beside it. Our runs are "
              "timed in wall-clock seconds on 2 shared cores, FRED-pos with this project's PosSampler.")


def time_ratio(label: str) -> float:
    """FRED-pos's printed mean time over FRED-mask's in table ``label``.

    >>> round(time_ratio("exp-tab:tweets_forest_5"), 3)  # 0.379 s against 0.512 s
    0.74
    """
    return TABLES[label].mean("fredpos", "time") / TABLES[label].mean("fred", "time")


def _than_mask_at(min_effect: float) -> dict:
    t = tally(TABLES, "fred", "fredpos", ["time"], min_effect=min_effect)
    return {"status": status_of(t["favours"], "fred"),
            "slower-faster [clearly]": f"{t['won']}-{t['lost']} [{t['clear_won']}-{t['clear_lost']}]"}


def than_mask() -> StepResult:
    """st1, the headline: FRED-mask faster than FRED-pos on the whole, by the yardstick."""
    t = tally(TABLES, "fred", "fredpos", ["time"])
    ratios = [time_ratio(label) for label in TABLES]
    status = status_of(t["favours"], "fred")
    table = sensitivity(_than_mask_at, "minimum effect size of a clear gap (pooled SD)", 0.0, MARGINS)
    note = (f"The size: FRED-pos slower than FRED-mask by a median {median(ratios) - 1:.1%}, clearly in "
            f"{t['clear_won']} of {len(TABLES)} tables. "
            f"Tables where FRED-pos's mean time is above - below FRED-mask's [clearly]: {t['won']}-{t['lost']} "
            f"[{t['clear_won']}-{t['clear_lost']}], tied {t['tied']}, of {len(TABLES)}; FRED-pos/FRED-mask time "
            f"ratio median {median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}): slower on the "
            f"whole, by at most {max(ratios) - 1:.0%}. The step {status}.")
    return gaps_step(CLAIM, "st1-than-mask", note, holds=status == "holds", conclusive=status != "inconclusive",
                     reading=THAN_MASK, assumption="the two variants' times on a document correlate non-negatively",
                     values={"tally": t, "ratio_median": median(ratios), "median_slowdown": median(ratios) - 1,
                             "clearly_slower_tables": t["clear_won"], "ratio_min": min(ratios),
                             "ratio_max": max(ratios), "sensitivity": table})


def every_table() -> StepResult:
    """st2, stronger: FRED-pos clearly slower in every table; the tables where it is not."""
    gaps = {label: gap(TABLES[label], "fred", "fredpos", "time") for label in TABLES}
    faster = sorted(label for label, g in gaps.items() if g["gap"] < 0)
    clearly_faster = sorted(label for label, g in gaps.items() if g["clear"] < 0)
    unclear = sum(g["clear"] == 0 for g in gaps.values())
    note = (f"FRED-pos faster than FRED-mask by the printed means in {len(faster)} tables, clearly in "
            f"{len(clearly_faster)} ({', '.join(clearly_faster)}); within the tables' noise in {unclear}.")
    return gaps_step(CLAIM, "st2-every-table", note, holds=not faster and unclear == 0,
                     conclusive=bool(faster) or unclear == 0, reading=EVERY_TABLE,
                     values={"fredpos_faster": faster, "fredpos_clearly_faster": clearly_faster, "unclear": unclear})


def _among_at(min_effect: float) -> dict:
    per = {y: status_of(tally(TABLES, y, "fredpos", ["time"], min_effect=min_effect)["favours"], y)
           for y in ("lime", "shap", "anchor")}
    status = "fails" if "fails" in per.values() else "holds" if set(per.values()) == {"holds"} else "inconclusive"
    return {"status": status, **{f"slower than {y}": s for y, s in per.items()}}


def among_explainers() -> StepResult:
    """st3, the absolute reading: FRED-pos slower than each baseline on the whole."""
    tallies = {y: tally(TABLES, y, "fredpos", ["time"]) for y in ("lime", "shap", "anchor")}
    row = _among_at(0.0)
    note = ("Tables where FRED-pos's mean time is above - below the baseline's [clearly]: " + "; ".join(
        f"{y} {t['won']}-{t['lost']} [{t['clear_won']}-{t['clear_lost']}]" for y, t in tallies.items())
        + f". The step {row['status']}.")
    return gaps_step(CLAIM, "st3-among-explainers", note, holds=row["status"] == "holds",
                     conclusive=row["status"] != "inconclusive", reading=AMONG,
                     values={"tallies": tallies, **row,
                             "sensitivity": sensitivity(_among_at, "minimum effect size of a clear gap (pooled SD)",
                                                        0.0, MARGINS)})


def run_tested(run, step: str) -> StepResult:
    """st4: FRED-pos against FRED-mask on time on a committed run, by the paired signed-rank test."""
    (test,) = compare(run, [("fredpos", "fred")], ("time",))
    verdict = {"fred": "FRED-pos significantly slower", "fredpos": "FRED-pos significantly faster",
               None: "no significant difference"}[test.winner]
    note = (f"{run.tag}: FRED-pos minus FRED-mask time per document, mean {test.mean_difference:+.3f} s, median "
            f"{test.median_difference:+.3f} s over {test.n_documents} documents: {verdict} (p = {test.p_holm:.2g}).")
    return run_step(CLAIM, step, run, note, holds=test.winner == "fred", conclusive=test.significant,
                    reading=OURS, values={"tests": [test.to_dict()]})


def corrected() -> str:
    """The precise statement (the headline holds): slower on the whole, by little, and not in every table."""
    t, ratios = tally(TABLES, "fred", "fredpos", ["time"]), [time_ratio(label) for label in TABLES]
    return (f"FRED-pos is slower than FRED-mask on the whole ({t['won']} of {len(TABLES)} tables, clearly in "
            f"{t['clear_won']}), by a median {median(ratios) - 1:.1%} and at most {max(ratios) - 1:.0%}; it is "
            f"faster in {t['lost']} (clearly in {t['clear_lost']}). Among the explainers it is faster than LIME and "
            "Anchors on the whole.")


def paper_tables() -> StepResult:
    """c1: the precise statement's parts: FRED-pos slower than FRED-mask on the whole, and faster than LIME and
    Anchors on the whole (the yardstick); with the tables where it is not slower than FRED-mask."""
    gaps = {label: gap(TABLES[label], "fred", "fredpos", "time") for label in TABLES}
    not_slower = sorted(label for label, g in gaps.items() if g["gap"] <= 0)
    favours = {y: tally(TABLES, y, "fredpos", ["time"])["favours"] for y in ("fred", "lime", "anchor")}
    holds = favours == {"fred": "fred", "lime": "fredpos", "anchor": "fredpos"}
    return gaps_step(CLAIM, "c1-paper-tables", f"On the whole the printed times favour, against FRED-pos: "
                     + ", ".join(f"{y} {f}" for y, f in favours.items()) + f". Tables where FRED-pos is not slower "
                     f"than FRED-mask: {len(not_slower)} ({', '.join(not_slower)}).", holds=holds, reading=None,
                     role="correction", values={"favours": favours, "not_slower": not_slower})


def check() -> ClaimResult:
    """The tables (on the whole, every table, among the explainers), then each committed five-explainer run."""
    steps = (than_mask(), every_table(), among_explainers(), paper_tables(),
             *each_run(CLAIM, "st4-run", FIVE_EXPLAINER_RUNS, run_tested, reading=OURS))
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, corrected=corrected(), source=SOURCE, readings=READINGS)
