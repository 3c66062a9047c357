"""Result records of the claim report: one :class:`ClaimResult` per claim, one :class:`StepResult` per proof step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Allowed statuses, from strongest to weakest.
STATUSES = ("holds", "holds-under-conditions", "fails")


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}, got {status!r}")


@dataclass(frozen=True)
class StepResult:
    """One step of an appendix proof, re-derived and checked."""

    id: str
    claim: str
    status: str
    note: str

    def __post_init__(self):
        _check_status(self.status)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"id": self.id, "claim": self.claim, "status": self.status, "note": self.note}


@dataclass(frozen=True)
class ClaimResult:
    """A claim of the paper as written, its verdict and how the verdict was reached.

    ``method`` says whether the verdict rests on a symbolic proof, an exhaustive
    check over a stated finite family, or a statistical check; a claim is
    "holds" only on the first two. ``counterexample`` is a minimal one (a dict
    of inputs and the values that contradict the statement) or None.
    """

    id: str
    statement: str
    status: str
    conditions: str
    counterexample: dict[str, Any] | None
    steps: tuple[StepResult, ...]
    method: str
    corrected: str | None = None
    evidence: tuple[str, ...] = field(default=())

    def __post_init__(self):
        _check_status(self.status)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (the schema of ``python -m proofs_checks --json``)."""
        return {
            "id": self.id,
            "statement": self.statement,
            "status": self.status,
            "conditions": self.conditions,
            "counterexample": self.counterexample,
            "steps": [s.to_dict() for s in self.steps],
            "method": self.method,
            "corrected": self.corrected,
            "evidence": list(self.evidence),
        }
