"""LIME, SHAP and Anchors.

What the paper says of the baselines, against the packages as installed and their exact limits.
"""

__all__: list[str] = []
