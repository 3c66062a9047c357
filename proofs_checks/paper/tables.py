"""The paper's experiment tables read for the claims: every comparison table of section 4 and appendix B.2 by its
LaTeX label, and the accuracy table of appendix B.1 (``tab:model_accuracy``).

The numbers, labels, captions, source lines and underlined cells are transcribed once, in
:mod:`fred.evaluation.paper_tables` (the runner prints them beside its own, and ``fred`` never imports this
package); ``tests/claims/test_experiment_tables.py`` re-parses the source and checks them. This module reads them
and adds what the claims ask of them: a table as a :class:`PaperTable` (printed means, the order of two
explainers on a metric), the six tables of section 4, a row's source line, a table's accuracy key.

Each row is six ``(mean, std)`` pairs in the order of :data:`METRICS`, which are the columns of the paper's tables;
:data:`BETTER` holds their arrows (suffic. ↓, compreh. ↑, robust. ↑, aucmorf ↓, time ↓, proport. ↓).
Section 4 names Comprehensiveness, Sufficiency and AUC-MoRF as the faithfulness metrics (:data:`FAITHFULNESS`).
Its sentence "A low Sufficiency score implies that the subset e does not sufficiently summarize the document"
contradicts its own definition (Sufficiency = f(xi) - f(e), low when e alone keeps the prediction) and the tables'
arrow; the arrow and the definition are followed here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from fred.evaluation.paper_tables import (
    ACCURACY_NAMES,
    BETTER,
    FIRST_ROW_LINE,
    MODEL_ACCURACY,
    MODEL_ACCURACY_CAPTION,
    MODEL_ACCURACY_LABEL,
    PAPER_COLUMNS,
    PAPER_EXPLAINERS,
    TABLE_INDEX,
    TABLE_ROWS,
    UNDERLINED,
)

#: The columns of every comparison table, in the paper's order.
METRICS = PAPER_COLUMNS
#: Section 4, paragraph "Faithfulness": Comprehensiveness, Sufficiency and AUC-MoRF.
FAITHFULNESS = ("sufficiency", "comprehensiveness", "aucmorf")
#: The rows of every comparison table, in the printed order.
EXPLAINERS = PAPER_EXPLAINERS

__all__ = ["ACCURACY_NAMES", "BETTER", "EXPLAINERS", "FAITHFULNESS", "FIRST_ROW_LINE", "METRICS", "MODEL_ACCURACY",
           "MODEL_ACCURACY_CAPTION", "MODEL_ACCURACY_LABEL", "SECTION4", "TABLES", "UNDERLINED", "PaperTable",
           "accuracy_key", "row_line"]


class PaperTable(NamedTuple):
    """One comparison table: its LaTeX label, where it is printed, its caption as written, and per explainer six
    ``(mean, std)`` pairs in the order of :data:`METRICS`."""

    label: str
    place: str
    caption: str
    rows: dict[str, tuple[tuple[float, float], ...]]

    def mean(self, explainer: str, metric: str) -> float:
        """The printed mean of ``metric`` for ``explainer``."""
        return self.rows[explainer][METRICS.index(metric)][0]

    def order(self, x: str, y: str, metric: str) -> int:
        """+1 when the printed mean of ``x`` is strictly better than that of ``y`` on ``metric`` (by :data:`BETTER`),
        -1 when strictly worse, 0 on a tie.

        >>> TABLES["exp-tab:yelp_forest_5"].order("shap", "lime", "time")  # 0.638 s against 0.332 s
        -1
        """
        gap = BETTER[metric] * (self.mean(x, metric) - self.mean(y, metric))
        return (gap > 0) - (gap < 0)

    def best(self, metric: str) -> tuple[str, ...]:
        """The explainers whose printed mean of ``metric`` is the best of the table by :data:`BETTER` (every tied
        one, compared as the exact printed decimals), in the printed order.

        >>> TABLES["exp-tab:imdb_distilbert_5"].best("robustness")  # both 1.000
        ('shap', 'anchor')
        """
        score = {e: BETTER[metric] * Fraction(str(self.mean(e, metric))) for e in self.rows}
        return tuple(e for e in self.rows if score[e] == max(score.values()))


#: Every comparison table of the paper by label, in the order of the source (section 4 first).
TABLES: dict[str, PaperTable] = {
    label: PaperTable(label, place, caption, TABLE_ROWS[label]) for label, place, caption in TABLE_INDEX
}
#: The six tables section 4 reports and its "Results" paragraph (lines 679-695 of the source) describes.
SECTION4 = tuple(label for label, table in TABLES.items() if table.place == "section 4")


def row_line(label: str, explainer: str) -> int:
    """The 1-based line of the source where ``explainer``'s row of table ``label`` is printed.

    >>> row_line("exp-tab:restaurants_distilbert_1", "shap")
    1288
    """
    return FIRST_ROW_LINE[label] + EXPLAINERS.index(explainer)


def accuracy_key(label: str) -> tuple[str, str]:
    """The ``(dataset, model)`` key of :data:`MODEL_ACCURACY` for the comparison table ``label``.

    >>> accuracy_key("exp-tab:imdb_distilbert_5")
    ('IMDB', 'DistilBERT')
    """
    dataset, model, _ = label.removeprefix("exp-tab:").split("_")
    return ACCURACY_NAMES[dataset], ACCURACY_NAMES[model]
