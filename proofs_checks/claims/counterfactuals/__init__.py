"""The counterfactuals.

The counterfactual samples (section 2.4) on linear models.
"""

__all__: list[str] = []
