"""The metrics.

The evaluation metrics: sufficiency, AUC-MoRF and its proportion.
"""

__all__: list[str] = []
