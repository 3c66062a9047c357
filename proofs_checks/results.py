"""Result records of the claim report, and the one rule that turns step results into a claim's verdict.

A **step** is one check. Its ``status`` is never typed in: :func:`checked` takes the boolean a computation
returned together with the values it computed, and :func:`argued` marks a human-written step that no
computation checks (status ``"argued"``, never ``"holds"``).

Evidence kinds (:data:`EVIDENCE`):

* ``symbolic``: sympy proves the identity or inequality for every parameter value of the stated domain;
* ``exhaustive``: every case of a stated finite family is checked (the cases are in ``values``);
* ``counterexample``: found by search, confirmed in exact rational arithmetic by the referee, and minimal by an
  exhaustive search over everything smaller (``values`` says what "smaller" means);
* ``statistical``: a Monte Carlo check with its false-alarm probability and seed in ``values``;
* ``argument``: a human-written step no computation checks.

Roles (:data:`ROLES`) say what a step is evidence for:

* ``statement``: tests the claim as written, directly;
* ``correction``: tests the corrected statement, directly;
* ``proof``: a step of this project's proof of the claim (of the corrected claim when there is one);
* ``paper-proof``: checks what the paper's own proof writes; reported, never deciding a verdict.

Claim kinds (:data:`KINDS`): ``statement`` (a lemma, proposition, equation or algorithm of the paper as
written), ``proof-step`` (a step of one of the paper's proofs), ``extension`` (the statement beyond the
paper's hypotheses, e.g. on the models the experiments used), ``corollary`` (derived by this project),
``discrepancy`` (the paper against the authors' released code), and ``experiment`` (an empirical statement of
the paper's section 4, checked by paired tests on committed per-document results or on the paper's own tables;
it has no proof, so its verdict rests on its statement steps alone).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

EVIDENCE = ("symbolic", "exhaustive", "counterexample", "statistical", "argument")
ROLES = ("statement", "correction", "proof", "paper-proof")
KINDS = ("statement", "proof-step", "extension", "corollary", "discrepancy", "experiment")
#: Kinds whose claims are empirical: no proof steps, the verdict is decided by the statement steps alone.
EMPIRICAL_KINDS = ("experiment",)
STEP_STATUSES = ("holds", "fails", "argued")
#: Claim verdicts, strongest first; see :data:`RULE`.
VERDICTS = ("holds", "argued", "unproved", "fails")

#: The rule, printed at the top of the report.
RULE = (
    "A step holds or fails as its computation returned; a step no computation checks (evidence 'argument') "
    "is 'argued'. A claim's verdict: 'fails' if one of its statement steps fails (a counterexample to the "
    "claim as written); otherwise 'holds' if its proof steps all hold by computation, 'argued' if they hold or "
    "are argued, and 'unproved' if it has no proof steps or one fails (only the checked cases support it). The "
    "corrected statement's verdict follows the same rule with its correction steps in place of the statement "
    "steps. An experiment claim has no proof: it holds ('supported') when its statement steps, tests on "
    "committed results, all hold, and is 'unproved' when one of them could not be tested (argued). Steps checking the paper's own proof ('paper-proof') are reported and never decide a verdict."
)

#: How a verdict reads for each kind of claim (a paper statement "fails"; an extension "does not extend").
WORDING = {
    "statement": {"holds": "holds", "argued": "holds (argued)", "unproved": "unproved", "fails": "fails"},
    "proof-step": {"holds": "holds", "argued": "holds (argued)", "unproved": "unproved", "fails": "fails"},
    "extension": {"holds": "extends", "argued": "extends (argued)", "unproved": "unproved",
                  "fails": "does not extend"},
    "corollary": {"holds": "holds", "argued": "holds (argued)", "unproved": "unproved", "fails": "fails"},
    "discrepancy": {"holds": "code agrees", "argued": "code agrees (argued)", "unproved": "unproved",
                    "fails": "code differs"},
    "experiment": {"holds": "supported", "argued": "supported (argued)", "unproved": "unproved",
                   "fails": "not supported"},
}

_STATISTICAL_KEYS = ("false_alarm_probability", "seed")


def _jsonable(value: Any) -> Any:
    """Plain JSON values: numpy scalars and arrays, tuples and sets become numbers and lists."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


@dataclass(frozen=True)
class StepResult:
    """One check of a claim: build it with :func:`checked` or :func:`argued`, never with a typed status."""

    id: str
    claim: str
    role: str
    evidence: str
    status: str
    note: str
    values: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {self.role!r}")
        if self.evidence not in EVIDENCE:
            raise ValueError(f"evidence must be one of {EVIDENCE}, got {self.evidence!r}")
        if self.status not in STEP_STATUSES:
            raise ValueError(f"status must be one of {STEP_STATUSES}, got {self.status!r}")
        if (self.evidence == "argument") != (self.status == "argued"):
            raise ValueError(f"step {self.id}: status 'argued' goes with evidence 'argument' and only with it, "
                             f"got status {self.status!r} with evidence {self.evidence!r}")
        if self.evidence != "argument" and not self.values:
            raise ValueError(f"step {self.id}: a checked step must carry the values its check computed")
        if self.evidence == "statistical" and not all(k in self.values for k in _STATISTICAL_KEYS):
            raise ValueError(f"step {self.id}: a statistical step must record {_STATISTICAL_KEYS} in values")
        json.dumps(self.values)  # refuse values that the JSON report cannot carry

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"id": self.id, "claim": self.claim, "role": self.role, "evidence": self.evidence,
                "status": self.status, "note": self.note, "values": self.values}


def checked(id: str, claim: str, role: str, evidence: str, note: str, *, holds, values: dict) -> StepResult:
    """A step whose status is the outcome ``holds`` of a computation that saw ``values``."""
    if evidence == "argument":
        raise ValueError(f"step {id}: a checked step cannot have evidence 'argument'; use argued()")
    if not isinstance(holds, (bool, np.bool_)):
        raise TypeError(f"step {id}: holds must be the bool a check returned, got {type(holds).__name__}")
    return StepResult(id, claim, role, evidence, "holds" if holds else "fails", note, _jsonable(values))


def argued(id: str, claim: str, role: str, note: str) -> StepResult:
    """A human-written step that no computation checks: reported as 'argued', never as 'holds'."""
    return StepResult(id, claim, role, "argument", "argued", note)


def decide(tests: list[StepResult], proof: list[StepResult], empirical: bool = False) -> str:
    """:data:`RULE` applied to the direct tests (statement or correction steps) and the proof steps; an
    ``empirical`` claim (an experiment) needs no proof steps, only direct tests."""
    if any(s.status == "fails" for s in tests):
        return "fails"
    if empirical:
        # An experiment is supported by data only: an untested (argued) step leaves it unproved.
        if not tests or any(s.status == "argued" for s in tests):
            return "unproved"
    elif not proof or any(s.status == "fails" for s in proof):
        return "unproved"
    if any(s.status == "argued" for s in proof + tests):
        return "argued"
    return "holds"


@dataclass(frozen=True)
class ClaimResult:
    """A claim, how it was checked step by step, and the verdicts that follow from the steps by :data:`RULE`.

    ``counterexample`` is a minimal one (a dict of inputs and the values that contradict the statement) or
    None; ``corrected`` is the corrected statement when the claim fails as written (its verdict is
    :attr:`corrected_status`).
    """

    id: str
    kind: str
    statement: str
    conditions: str
    counterexample: dict[str, Any] | None
    steps: tuple[StepResult, ...]
    corrected: str | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        roles = {s.role for s in self.steps}
        if self.kind in EMPIRICAL_KINDS and roles & {"proof", "paper-proof"}:
            raise ValueError(f"claim {self.id}: an {self.kind} claim has no proof steps, got roles {sorted(roles)}")
        if "correction" in roles and self.corrected is None:
            raise ValueError(f"claim {self.id}: correction steps need a corrected statement")
        if self.counterexample is not None:
            json.dumps(self.counterexample)

    def _steps(self, role: str) -> list[StepResult]:
        return [s for s in self.steps if s.role == role]

    @property
    def status(self) -> str:
        """The verdict on the claim as written, by :data:`RULE`."""
        return decide(self._steps("statement"), self._steps("proof"), self.kind in EMPIRICAL_KINDS)

    @property
    def corrected_status(self) -> str | None:
        """The verdict on the corrected statement, by :data:`RULE` (None when there is no correction)."""
        if self.corrected is None:
            return None
        return decide(self._steps("correction"), self._steps("proof"), self.kind in EMPIRICAL_KINDS)

    @property
    def verdict(self) -> str:
        """:attr:`status` in the words of the claim's kind (an extension that fails "does not extend")."""
        return WORDING[self.kind][self.status]

    @property
    def evidence(self) -> tuple[str, ...]:
        """The evidence kinds of the steps, each once, in the order of :data:`EVIDENCE`."""
        kinds = {s.evidence for s in self.steps}
        return tuple(e for e in EVIDENCE if e in kinds)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (the schema of ``python -m proofs_checks --json``)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "statement": self.statement,
            "status": self.status,
            "verdict": self.verdict,
            "conditions": self.conditions,
            "counterexample": self.counterexample,
            "corrected": self.corrected,
            "corrected_status": self.corrected_status,
            "evidence": list(self.evidence),
            "steps": [s.to_dict() for s in self.steps],
        }
