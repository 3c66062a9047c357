"""What the kit reads of an explanation, for explainers whose own answer has other fields."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["AdaptedExplanation"]


@dataclass(frozen=True)
class AdaptedExplanation:
    """The fields the kit reads; None where the wrapped explainer gives nothing."""

    best_ids: tuple[int, ...]
    found: bool | None = None
    importances: tuple[float, ...] | None = None
