"""Faithfulness comparison of FRED with LIME, SHAP and Anchors (paper, section 4).

Run ``python -m fred.evaluation --help``; the pieces are :mod:`.adapters`
(one protocol over the explainers), :mod:`.runner` (model, documents, metrics,
Markdown) and :mod:`.paper_tables` (the paper's numbers).
"""
