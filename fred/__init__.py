"""FRED: Faithful and Robust Explainer for textual Documents (reference implementation)."""

from .explainer import Fred
from .explanation import Counterfactual, Explanation
from .sampling import ExactSampler, MaskSampler, Perturbations, Sampler, sample_size

__all__ = [
    "Counterfactual",
    "ExactSampler",
    "Explanation",
    "Fred",
    "MaskSampler",
    "Perturbations",
    "Sampler",
    "sample_size",
]
