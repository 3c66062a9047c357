"""Faithfulness comparison of FRED with LIME, SHAP and Anchors (paper, section 4).

Run ``python -m fred.evaluation --help``; the pieces are :mod:`.explainers`
(one protocol over the explainers), :mod:`.runner` (model, documents, metrics,
the dask execution, Markdown), :mod:`.statistics` (standard errors, paired
Wilcoxon tests, Holm), :mod:`.metrics` and :mod:`.paper_tables` (the paper's numbers).
"""
