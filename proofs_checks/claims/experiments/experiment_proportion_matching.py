"""Appendix B.1, "Explainers": LIME's and SHAP's explanations have the size of FRED-pos's, so their proportion
column is FRED-pos's in every table.

The protocol (lines 1167-1169): LIME's and SHAP's explanation of a document is "the first k tokens ranked by
importance, where k is the size of FRED's explanation (fredpos) for the same example", and it "is used for
computing ... proportion" (the column ``proport.``: the mean over the documents of |e| / |xi|, line 680). Every
explainer of a table is evaluated on the same documents (line 1172), so under the protocol the three explainers'
per-document proportions are equal and so are their printed means and standard deviations. Two readings:

* ``as-written`` (headline): exactly k tokens, as the sentence says and as "a fair evaluation" (line 1167)
  needs. Then LIME's and SHAP's printed proportion means equal FRED-pos's up to the printing: a different
  summation order could move a mean across a rounding boundary, so a gap of at most 0.001 is allowed.
* ``at-most-k`` (weaker): "ranked by importance" counts only tokens of positive score (the positive class is the
  one explained, line 1116, and only positive-score tokens are perturbed for AUC-MoRF, line 567), and the
  explainers run "with all default parameters" (line 1164; LIME's documented default reports 10 features), so an
  explanation may hold fewer than k tokens. Then LIME's and SHAP's means are at most FRED-pos's (+ 0.001).

What the tables imply under the weaker reading: where LIME's mean proportion is below FRED-pos's by ``gap``, the
documents A on which LIME kept fewer than k tokens satisfy, with ``p_i`` FRED-pos's proportion on document i
(``m``, ``s`` its printed mean and standard deviation over n documents) and the shortfall ``0 < d_i <= p_i``,
n gap = sum_{i in A} d_i <= sum_{i in A} p_i <= sqrt(|A| sum_i p_i^2) <= sqrt(|A| n (m^2 + s^2)) (Cauchy-Schwarz;
``sum_i p_i^2`` is n (m^2 + s^2) for a standard deviation over n and less over n - 1), so
|A| >= n gap^2 / (m^2 + s^2); also |A| >= n gap since d_i <= 1. Both are taken at the worst rounding
(:func:`short_documents_bound`).
"""

from __future__ import annotations

import math
from fractions import Fraction

from ...paper import yardstick
from ...paper.tables import METRICS, SECTION4, TABLES, row_line
from ...paper.yardstick import documents
from ...verdicts.results import (
    Claim,
    ClaimResult,
    Quote,
    Reading,
    StepResult,
    hypotheses,
)

CLAIM = Claim("experiment-proportion-matching")
AS_WRITTEN, AT_MOST_K = "as-written", "at-most-k"
PROTOCOL = Quote(1168, r"We use as explanation set $\explanation$ for LIME and SHAP the first $k$ tokens ranked by "
                       r"importance, where $k$ is the size of FRED's explanation (\texttt{fredpos}) for the same "
                       r"example.")
USED_FOR = Quote(1169, "This is used for computing comprehensiveness, sufficiency, robustness, and proportion.")
FAIR = Quote(1167, "We apply the following scheme to perform a fair evaluation.")
SOURCE = (
    FAIR, PROTOCOL, USED_FOR,
    Quote(680, r"the average proportion of document (\emph{i.e.}, $\size{\explanation} / \size{\xi}$) used for "
               r"explanation"),
    Quote(1172, r"Finally, the metrics are computed over the first $100$ instances ranked by length of positively "
                r"classified documents from each test set."),
    Quote(1164, "of these methods with all default parameters."),
    Quote(1116, "we always consider documents with positive predictions, and we explain the positive class."),
    Quote(567, "We stress out that only the tokens with positive score are perturbed for this computation."),
    Quote(589, r"\texttt{proport.} $\downarrow$"),
)
READINGS = (
    Reading(AS_WRITTEN, "headline",
            "LIME's and SHAP's explanation of each document has exactly k tokens, k the size of FRED-pos's: their "
            "printed mean proportion equals FRED-pos's in every table (up to 0.001 of printing)",
            why=(PROTOCOL, USED_FOR, FAIR)),
    Reading(AT_MOST_K, "weaker",
            "LIME's and SHAP's explanation has at most k tokens (only tokens of positive score, among those the "
            "explainer reports with its default parameters, are ranked): their printed mean proportion is at most "
            "FRED-pos's in every table (+ 0.001)",
            why=(Quote(1164, "of these methods with all default parameters."),
                 Quote(567, "only the tokens with positive score are perturbed for this computation."))),
)
#: A gap up to one unit of the printed third decimal can come from rounding one real number two ways.
PRINTING = Fraction(str(yardstick.MEAN_UNIT))
#: The yardstick's rounding of a printed mean and standard deviation, exactly.
MEAN_ROUNDING, SD_ROUNDING = Fraction(str(yardstick.MEAN_ROUNDING)), Fraction(str(yardstick.SD_ROUNDING))
PROPORTION = METRICS.index("proportion")


def _printed(label: str, explainer: str) -> tuple[Fraction, Fraction]:
    mean, sd = TABLES[label].rows[explainer][PROPORTION]
    return Fraction(str(mean)), Fraction(str(sd))


def table_hypotheses(label: str, explainer: str) -> dict:
    """Whether a table's row speaks to the protocol: a comparison table of the paper (the appendix's setting covers
    "the experiments reported in this Section and in the main paper", line 1103), with a proportion column and the
    rows of FRED-pos and of ``explainer`` (LIME or SHAP), evaluated on the same documents."""
    return hypotheses(table_of_the_paper=label in TABLES, proportion_column="proportion" in METRICS,
                      rows_of_fredpos_and_the_explainer=label in TABLES
                      and {"fredpos", explainer} <= set(TABLES[label].rows),
                      explainer_is_lime_or_shap=explainer in ("lime", "shap"))


def short_documents_bound(fredpos_mean: Fraction, fredpos_sd: Fraction, mean: Fraction, n: int) -> int:
    """The fewest of ``n`` documents on which an explainer kept fewer tokens than FRED-pos, given the printed means
    of their proportions and FRED-pos's printed standard deviation, under the at-most-k reading: max(n gap,
    n gap^2 / (m^2 + s^2)) rounded up (module docstring), with the gap as small and FRED-pos's mean and standard
    deviation as large as the printing allows; 0 when the gap is within the printing.

    >>> short_documents_bound(Fraction("0.363"), Fraction("0.23"), Fraction("0.164"), 100)
    21
    """
    gap = fredpos_mean - mean - PRINTING
    if gap <= 0:
        return 0
    m, s = fredpos_mean + MEAN_ROUNDING, fredpos_sd + SD_ROUNDING
    return max(math.ceil(n * gap), math.ceil(n * gap * gap / (m * m + s * s)))


def fewest_short_documents(label: str, explainer: str = "lime") -> int:
    """:func:`short_documents_bound` on table ``label`` (its caption's number of documents)."""
    (m, s), (mean, _) = _printed(label, "fredpos"), _printed(label, explainer)
    return short_documents_bound(m, s, mean, documents(TABLES[label]))


def _row(label: str, explainer: str) -> dict:
    (m, s), (mean, sd) = _printed(label, "fredpos"), _printed(label, explainer)
    return {"table": label, "explainer": explainer, "line": row_line(label, explainer),
            "fredpos_line": row_line(label, "fredpos"), "mean": float(mean), "sd": float(sd),
            "fredpos_mean": float(m), "fredpos_sd": float(s), "gap": float(m - mean),
            "equal": abs(m - mean) <= PRINTING, "at_most": mean <= m + PRINTING,
            "section4": label in SECTION4}


def _rows() -> list[dict]:
    return [_row(label, e) for label in TABLES for e in ("lime", "shap")]


STATEMENT = ('Appendix B.1, "Explainers" (lines 1167-1169): "We apply the following scheme to perform a fair '
             'evaluation. We use as explanation set e for LIME and SHAP the first k tokens ranked by importance, '
             'where k is the size of FRED\'s explanation (fredpos) for the same example. This is used for computing '
             'comprehensiveness, sufficiency, robustness, and proportion." The proportion (line 680) is the mean of '
             '|e| / |xi| over a table\'s documents, the same documents for every explainer (line 1172): LIME\'s and '
             'SHAP\'s column must be FRED-pos\'s in every table.')
CONDITIONS = (f"All {len(TABLES)} comparison tables (section 4 and appendix B.2), read at their printed precision: "
              "two means of one real number can differ by 0.001 after rounding, never more. The bound on the "
              "documents LIME kept short uses the printed standard deviation of FRED-pos's proportion, taken 0.005 "
              "larger and its mean 0.0005 larger (worst rounding), and the caption's number of documents (100, or "
              "$n=70$).")


def check() -> ClaimResult:
    """Every table's LIME and SHAP proportion against FRED-pos's, under each reading; then the corrected
    statement."""
    rows = _rows()
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS,
                        counterexample=counterexample(rows),
                        steps=(exactly_k(rows), at_most_k(rows), paper_tables(rows)), corrected=corrected(rows),
                        source=SOURCE, readings=READINGS)


def _differ(rows: list[dict]) -> list[dict]:
    """The rows whose proportion differs from FRED-pos's by more than the printing."""
    return [r for r in rows if not r["equal"]]


def exactly_k(rows: list[dict]) -> StepResult:
    """st1: every table's LIME and SHAP printed proportion equal to FRED-pos's, up to the printing."""
    differ = _differ(rows)
    by = {e: sum(r["explainer"] == e for r in differ) for e in ("lime", "shap")}
    note = (f"Tables whose printed proportion differs from FRED-pos's by more than the printing (0.001): LIME "
            f"{by['lime']} of {len(TABLES)}, SHAP {by['shap']} of {len(TABLES)}"
            + ("; " + "; ".join(f"{r['table']} (line {r['line']}): {r['explainer']} {r['mean']:.3f} against "
                                f"FRED-pos's {r['fredpos_mean']:.3f} (line {r['fredpos_line']})" for r in differ)
               if differ else "") + ".")
    return CLAIM.checked("st1-exactly-k", "statement", "exhaustive", note, holds=not differ, reading=AS_WRITTEN,
                         values={"printing": float(PRINTING), "differ": differ, "rows": len(rows)})


def counterexample(rows: list[dict]) -> dict | None:
    """The row farthest from FRED-pos's proportion, with its hypotheses record (None when every row equals it)."""
    differ = _differ(rows)
    if not differ:
        return None
    worst = max(differ, key=lambda r: r["gap"])
    return {**table_hypotheses(worst["table"], worst["explainer"]), **worst,
            "section4_tables_that_differ": sorted({r["table"] for r in differ if r["section4"]})}


def at_most_k(rows: list[dict]) -> StepResult:
    """st2: no LIME or SHAP printed proportion above FRED-pos's, and how many documents LIME kept short where its
    proportion is lower."""
    above = [r for r in rows if not r["at_most"]]
    short = {r["table"]: fewest_short_documents(r["table"], r["explainer"]) for r in rows
             if r["explainer"] == "lime" and not r["equal"]}
    note = (f"LIME's or SHAP's printed proportion above FRED-pos's by more than 0.001 in {len(above)} of "
            f"{len(rows)} rows. Where LIME's is lower, the reading implies LIME kept fewer than k tokens on at "
            "least this many documents of the table: "
            + ", ".join(f"{t.removeprefix('exp-tab:')} {k} of {documents(TABLES[t])}" for t, k in short.items())
            + "; its rows there evaluate smaller explanations than FRED-pos's.")
    return CLAIM.checked("st2-at-most-k", "statement", "exhaustive", note, holds=not above, reading=AT_MOST_K,
                         values={"above": above, "fewest_short_documents": short, "printing": float(PRINTING)})


def _lime_lower(rows: list[dict]) -> list[dict]:
    """LIME's rows lower than FRED-pos's by more than the printing, in the order of the paper."""
    return sorted((r for r in rows if r["explainer"] == "lime" and r["gap"] > PRINTING), key=lambda r: r["line"])


def corrected(rows: list[dict]) -> str:
    """The corrected statement: SHAP's proportion is FRED-pos's, LIME's never above it and lower in some tables."""
    lime_lower = _lime_lower(rows)
    gaps = [r["gap"] for r in lime_lower]
    return (f"SHAP's proportion (mean and standard deviation) is FRED-pos's in all {len(TABLES)} tables. LIME's is "
            f"never above it, and is lower in {len(lime_lower)} tables, by {min(gaps):.3f} to {max(gaps):.3f} "
            f"({', '.join(r['table'].removeprefix('exp-tab:') for r in lime_lower)}): there LIME's explanations "
            "were not of FRED-pos's size k on some documents (at least "
            f"{min(fewest_short_documents(r['table']) for r in lime_lower)} per table, by the bound of the module), "
            "so its faithfulness cells compare smaller explanations than FRED-pos's.")


def paper_tables(rows: list[dict]) -> StepResult:
    """c1: the corrected statement on every table."""
    lime_lower = _lime_lower(rows)
    shap_equal = all(r["equal"] and r["sd"] == r["fredpos_sd"] for r in rows if r["explainer"] == "shap")
    lime_never_above = all(r["at_most"] for r in rows if r["explainer"] == "lime")
    return CLAIM.checked("c1-tables", "correction", "exhaustive",
                         f"SHAP equal to FRED-pos in every table (mean and sd): {shap_equal}; LIME never above: "
                         f"{lime_never_above}; LIME lower in {len(lime_lower)} tables.",
                         holds=shap_equal and lime_never_above and bool(lime_lower),
                         values={"lime_lower": [{k: r[k] for k in ("table", "line", "mean", "fredpos_mean", "gap")}
                                                for r in lime_lower],
                                 "shap_equal": shap_equal, "lime_never_above": lime_never_above})
