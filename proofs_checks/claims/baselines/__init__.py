"""What the paper says of the baselines LIME, SHAP and Anchors, against the packages as installed."""

__all__: list[str] = []
