"""The explainer's argument checks, public for explainers written against the same contract (the kit's planted
modifications, a researcher's FRED): ``ValueError``/``TypeError`` naming the parameter and its allowed range."""

from ._validation import check_positive_int, check_probability, check_text

__all__ = ["check_positive_int", "check_probability", "check_text"]
