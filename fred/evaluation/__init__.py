"""Faithfulness comparison of FRED with LIME, SHAP and Anchors (paper, section 4).

Run ``python -m fred.evaluation --help``; the pieces are :mod:`.explainers`
(one protocol over the explainers), :mod:`.factories` (an explainer from outside,
a kit factory), :mod:`.config` (what a run's numbers depend on, and where the
committed results are), :mod:`.runner` (model, documents, resume), :mod:`.documents` (one document
as a task, its seeds), :mod:`.execution` (in process or on dask), :mod:`.store`
(the per-document CSV), :mod:`.summary` (the Markdown), :mod:`.statistics`
(standard errors, paired Wilcoxon tests, Holm), :mod:`.metrics` and
:mod:`.paper_tables` (the paper's numbers).
"""

__all__ = []  # each piece is imported from its module; `import fred.evaluation` stays light
