"""Argument checks shared by the explainer, the samplers and the search, public for explainers written against the
same contract (the kit's planted modifications, a researcher's FRED): a ``ValueError`` or ``TypeError`` naming the
parameter and its allowed range."""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["check_int", "check_positive_int", "check_probability", "check_scores", "check_text", "check_token"]


def check_probability(value, name: str, *, high_open: bool = True) -> float:
    """Return ``value`` as a float after checking it lies in (0, 1), or in (0, 1] when ``high_open`` is False.

    Booleans are refused: ``True`` is an int in Python but never a probability.
    """
    interval = f"(0, 1{')' if high_open else ']'}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number in {interval}, got {type(value).__name__}")
    value = float(value)
    if math.isnan(value):
        raise ValueError(f"{name} must be a real number in {interval}, got nan")
    if value <= 0 or (value >= 1 if high_open else value > 1):
        raise ValueError(f"{name} must lie in {interval}, got {value!r}")
    return value


def check_int(value, name: str, low: int = 1, high: int | None = None) -> int:
    """Return ``value`` as an int after checking it is an integer in [low, high) (no upper end if None).

    TypeError for a non-integer (booleans included), ValueError for an integer out of range; both name the
    parameter and the allowed range.
    """
    allowed = f">= {low}" if high is None else f"in [{low}, {high})"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer {allowed}, got {type(value).__name__}")
    if value < low or (high is not None and value >= high):
        raise ValueError(f"{name} must be an integer {allowed}, got {value!r}")
    return int(value)


def check_positive_int(value, name: str) -> int:
    """Return ``value`` as an int after checking it is an integer >= 1."""
    return check_int(value, name, 1)


def check_token(value, name: str) -> str:
    """Return ``value`` after checking it is one non-empty token without whitespace (a mask token)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one non-empty token without whitespace, got {type(value).__name__}")
    if value.split() != [value]:
        raise ValueError(f"{name} must be one non-empty token without whitespace, got {value!r}")
    return value


def check_text(text) -> list[str]:
    """Return the whitespace tokens of ``text``; refuse non-strings and blank text."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    tokens = text.split()
    if not tokens:
        raise ValueError("text must contain at least one non-whitespace token, got a blank string")
    return tokens


def check_scores(raw, n_rows: int) -> np.ndarray:
    """Validate what ``classifier_fn`` returned for ``n_rows`` texts.

    Returns a float array of shape ``(n_rows, k)``; a 1-d regression output is
    returned as ``(n_rows, 1)``.
    """
    try:
        scores = np.asarray(raw)
    except Exception as exc:  # ragged lists and the like
        raise TypeError(f"classifier_fn must return an array of numbers, got {type(raw).__name__}") from exc
    # issubclass on the scalar type is np.issubdtype's test, without its argument conversions (an explanation
    # validates scores twice, and a small exact one costs 0.3 ms).
    if scores.dtype == bool or not issubclass(scores.dtype.type, (np.integer, np.floating)):
        raise TypeError(f"classifier_fn must return numeric scores, got dtype {scores.dtype}")
    if scores.ndim == 1:
        scores = scores[:, None]
    if scores.ndim != 2 or scores.shape[0] != n_rows or scores.shape[1] < 1:
        raise ValueError(
            f"classifier_fn must return shape ({n_rows},) or ({n_rows}, k) for {n_rows} texts, got {np.shape(raw)}"
        )
    scores = scores.astype(float)
    if not np.isfinite(scores).all():
        raise ValueError("classifier_fn returned NaN or infinite scores")
    return scores
