"""Result records of the claim report, and the one rule that turns step results into a claim's verdict.

A **step** is one check. Its ``status`` is never typed in: :func:`checked` takes the boolean a computation
returned together with the values it computed, and :func:`argued` marks a human-written step that no
computation checks (status ``"argued"``, never ``"holds"``). A statistical step whose test cannot reach its
level at the sample size it has, or whose test neither rejects nor confirms what the statement needs (a
non-rejection where "not worse" needs an equivalence test), is ``"inconclusive"``: ``checked(...,
conclusive=<computed bool>)``; it is evidence neither way. So is a step that needs a package the install lacks
(``values["installed"] is False``: it saw no sample).

A claim quotes the paper (:class:`Quote`: a 1-based line of ``fred-paper.tex`` and a verbatim substring
starting there; :mod:`proofs_checks.verdicts.quotes` checks them against the file). Where the quoted words admit
several readings, the claim lists them (:class:`Reading`), each with its own steps (``StepResult.reading``) and
its own verdict; the headline verdict is that of the reading the paper's text supports, chosen by quoted words
(``Reading.why``), never by which reading holds. A counterexample records whether it satisfies the statement's
hypotheses (:func:`hypotheses`, a predicate computed on the case): a case outside them is not a counterexample.

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
``discrepancy`` (the paper against the authors' released code), ``baseline`` (what the paper, or the theory it
cites, says of LIME, SHAP or Anchors, checked against their exact limits and the packages the evaluation pins; it
follows the rule of a statement), and ``experiment`` (an empirical statement of
the paper's section 4, checked by paired tests on committed per-document results or on the paper's own tables;
it has no proof, so its verdict rests on its statement steps alone).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Evidence kinds of a step (see the module docstring).
EVIDENCE = ("symbolic", "exhaustive", "counterexample", "statistical", "argument")
#: Roles of a step: what it is evidence for.
ROLES = ("statement", "correction", "proof", "paper-proof")
#: Kinds of claim.
KINDS = ("statement", "proof-step", "extension", "corollary", "discrepancy", "experiment", "baseline")
#: Kinds whose claims are empirical: no proof steps, the verdict is decided by the statement steps alone.
EMPIRICAL_KINDS = ("experiment",)
#: A step's statuses; 'argued' goes with evidence 'argument' only.
STEP_STATUSES = ("holds", "fails", "inconclusive", "argued")
#: Claim verdicts, strongest first; see :data:`RULE`.
VERDICTS = ("holds", "argued", "inconclusive", "unproved", "fails")
#: Claim verdicts that read "<verdict> in part" when the sentence's labelled parts differ (:attr:`ClaimResult.in_part`).
IN_PART_STATUSES = ("fails", "inconclusive")
#: How a reading stands to the headline one: the headline is the reading the paper's text supports.
READING_ROLES = ("headline", "stronger", "weaker", "alternative")

#: The rule, printed at the top of the report.
RULE = (
    "A step holds or fails as its computation returned; a step no computation checks (evidence 'argument') "
    "is 'argued'. A claim's verdict: 'fails' if one of its statement steps fails (a counterexample to the "
    "claim as written); otherwise 'holds' if its proof steps all hold by computation, 'argued' if they hold or "
    "are argued, and 'unproved' if it has no proof steps or one fails (only the checked cases support it). An "
    "argued statement step (one no computation checks) makes the claim 'argued' where it would otherwise hold, as "
    "an argued proof step does; a claim with no statement steps is decided by its proof steps alone. The "
    "corrected statement's verdict follows the same rule with its correction steps in place of the statement "
    "steps. A statistical step whose test cannot reach its level at its sample size, or that neither rejects nor "
    "confirms (a non-rejection offered as 'not worse', with no equivalence test), is 'inconclusive': evidence "
    "neither way. A claim with no failing statement step and an inconclusive one is 'inconclusive'; an "
    "inconclusive proof step leaves it 'unproved'. An experiment claim has no proof: it holds ('supported') when "
    "its statement steps, tests on committed results, all hold, and is 'unproved' when it has none or one of them "
    "could not be tested (argued). Steps checking the paper's own proof ('paper-proof') are reported and never "
    "decide a "
    "verdict: a slip in a proof is not a counterexample to the statement it proves. Where the quoted words admit "
    "several readings, each reading has its own steps and verdict, and the headline verdict is that of the "
    "reading the quoted context supports; a stronger reading that fails is reported beside it. A counterexample "
    "must satisfy the statement's hypotheses (computed, 'satisfies_hypotheses'): a claim that fails is refused a "
    "counterexample outside them. Where statement steps each check a labelled part of the sentence and the claim "
    "fails in some parts and not in others, its verdict reads 'fails in part', each part with its own verdict by "
    "this rule (its statement steps, the unlabelled ones and the proof steps); likewise a claim inconclusive in "
    "some parts and not in others reads 'inconclusive in part' (e.g. 'inconclusive in part: better supported; "
    "slightly inconclusive'). Extensions, corollaries and claims "
    "marked 'ours' are "
    "this project's statements, not the paper's. A baseline claim (what the paper, or the theory it cites, says of "
    "LIME, SHAP or Anchors) follows the rule of a statement, checked against the exact limits and the packages the "
    "evaluation runs; a step that needs a package the install lacks saw no sample and is 'inconclusive'. "
    "Verdicts are shown in the words of the claim's kind: 'argued' as "
    "'holds (argued)'; for an extension 'extends' / 'does not extend', for a discrepancy 'code agrees' / 'code "
    "differs', for an experiment 'supported' / 'not supported' in place of 'holds' / 'fails'."
)

#: How a verdict reads for each kind of claim (a paper statement "fails"; an extension "does not extend").
WORDING = {
    "statement": {"holds": "holds", "argued": "holds (argued)", "inconclusive": "inconclusive",
                  "unproved": "unproved", "fails": "fails"},
    "proof-step": {"holds": "holds", "argued": "holds (argued)", "inconclusive": "inconclusive",
                   "unproved": "unproved", "fails": "fails"},
    "extension": {"holds": "extends", "argued": "extends (argued)", "inconclusive": "inconclusive",
                  "unproved": "unproved", "fails": "does not extend"},
    "corollary": {"holds": "holds", "argued": "holds (argued)", "inconclusive": "inconclusive",
                  "unproved": "unproved", "fails": "fails"},
    "discrepancy": {"holds": "code agrees", "argued": "code agrees (argued)", "inconclusive": "inconclusive",
                    "unproved": "unproved", "fails": "code differs"},
    "baseline": {"holds": "holds", "argued": "holds (argued)", "inconclusive": "inconclusive",
                 "unproved": "unproved", "fails": "fails"},
    "experiment": {"holds": "supported", "argued": "supported (argued)", "inconclusive": "inconclusive",
                   "unproved": "unproved", "fails": "not supported"},
}
#: Kinds that are this project's statements, not the paper's: the report labels them as ours.
OWN_KINDS = ("extension", "corollary")

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
class Quote:
    """Words of the paper: ``text`` is a verbatim substring of ``fred-paper.tex`` (whitespace aside) that starts on
    its 1-based ``line``; :func:`proofs_checks.verdicts.quotes.quote_problems` checks it against the file."""

    line: int
    text: str

    def __post_init__(self):
        if isinstance(self.line, bool) or not isinstance(self.line, int) or self.line < 1:
            raise ValueError(f"a quote's line must be an integer >= 1, got {self.line!r}")
        if not isinstance(self.text, str) or not self.text.strip():
            raise ValueError(f"a quote's text must be a non-empty string, got {self.text!r}")

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"line": self.line, "text": self.text}

    @classmethod
    def from_dict(cls, data: dict) -> Quote:
        """The quote :meth:`to_dict` wrote."""
        return cls(data["line"], data["text"])


@dataclass(frozen=True)
class Reading:
    """One reading of a claim's quoted words. ``role`` says how it stands to the headline reading (the one the
    paper's text supports: exactly one per claim); ``why`` quotes the words that support (for the headline) or
    that the reading stretches (for the others). Steps whose ``reading`` is this ``id`` test it; steps with no
    reading test every reading."""

    id: str
    role: str
    meaning: str
    why: tuple[Quote, ...] = ()

    def __post_init__(self):
        if self.role not in READING_ROLES:
            raise ValueError(f"reading {self.id}: role must be one of {READING_ROLES}, got {self.role!r}")
        if self.role == "headline" and not self.why:
            raise ValueError(f"reading {self.id}: the headline reading must quote the words that support it (why)")

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"id": self.id, "role": self.role, "meaning": self.meaning, "why": [q.to_dict() for q in self.why]}

    @classmethod
    def from_dict(cls, data: dict) -> Reading:
        """The reading :meth:`to_dict` wrote (a claim's dictionary adds its verdict, which is recomputed)."""
        return cls(data["id"], data["role"], data["meaning"], tuple(Quote.from_dict(q) for q in data["why"]))


def hypotheses(**conditions) -> dict:
    """The record of a case checked against a statement's hypotheses: each named condition is the bool its
    predicate computed on the case; the case satisfies the hypotheses when all hold.

    >>> hypotheses(decreasing_weights=True, classified_positive=False)
    {'satisfies_hypotheses': False, 'hypotheses': {'decreasing_weights': True, 'classified_positive': False}}
    """
    if not conditions:
        raise ValueError("hypotheses needs at least one named condition")
    for name, value in conditions.items():
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"hypothesis {name!r} must be the bool a predicate returned, got {type(value).__name__}")
    values = {name: bool(value) for name, value in conditions.items()}
    return {"satisfies_hypotheses": all(values.values()), "hypotheses": values}


def _check_hypotheses_record(where: str, record: dict) -> None:
    if not isinstance(record.get("satisfies_hypotheses"), bool) or not isinstance(record.get("hypotheses"), dict):
        raise ValueError(f"{where}: a counterexample must record 'satisfies_hypotheses' and 'hypotheses', as "
                         "computed by results.hypotheses() on the case")
    # what hypotheses() builds: at least one condition, each a bool (no empty record vacuously inside them)
    conditions = record["hypotheses"]
    if not conditions or not all(isinstance(v, bool) for v in conditions.values()):
        raise ValueError(f"{where}: 'hypotheses' must name at least one condition, each the bool its predicate "
                         f"computed, got {conditions}")
    if record["satisfies_hypotheses"] != all(record["hypotheses"].values()):
        raise ValueError(f"{where}: 'satisfies_hypotheses' disagrees with its conditions {record['hypotheses']}")


@dataclass(frozen=True)
class StepResult:
    """One check of a claim: build it with :func:`checked` or :func:`argued`, never with a typed status.

    ``reading`` names the claim's :class:`Reading` the step tests (None: every reading); ``part`` names the part of
    the statement's sentence the step checks (None: the whole sentence), so that a claim failing in one part and
    holding in another says which (:attr:`ClaimResult.in_part`)."""

    id: str
    claim: str
    role: str
    evidence: str
    status: str
    note: str
    values: dict = field(default_factory=dict)
    reading: str | None = None
    part: str | None = None

    def __post_init__(self):
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {self.role!r}")
        if self.evidence not in EVIDENCE:
            raise ValueError(f"evidence must be one of {EVIDENCE}, got {self.evidence!r}")
        if self.status not in STEP_STATUSES:
            raise ValueError(f"status must be one of {STEP_STATUSES}, got {self.status!r}")
        if self.part is not None and (not isinstance(self.part, str) or not self.part.strip()
                                      or self.role == "paper-proof"):
            raise ValueError(f"step {self.id}: part must be a non-empty label of the statement's sentence, on a "
                             f"statement, correction or proof step, got {self.part!r} on a {self.role} step")
        if (self.evidence == "argument") != (self.status == "argued"):
            raise ValueError(f"step {self.id}: status 'argued' goes with evidence 'argument' and only with it, "
                             f"got status {self.status!r} with evidence {self.evidence!r}")
        if self.evidence != "argument" and not self.values:
            raise ValueError(f"step {self.id}: a checked step must carry the values its check computed")
        if self.evidence == "statistical" and not all(k in self.values for k in _STATISTICAL_KEYS):
            raise ValueError(f"step {self.id}: a statistical step must record {_STATISTICAL_KEYS} in values")
        unreached = self.values.get("conclusive") is False  # what checked() records of conclusive=False
        # a statistical test that cannot reach its level, or a step whose package is absent (it saw no sample)
        if self.status == "inconclusive" and not (unreached and (self.evidence == "statistical"
                                                                 or self.values.get("installed") is False)):
            raise ValueError(f"step {self.id}: only a statistical step whose check computed conclusive=False, or "
                             "a step whose package is absent (installed=False), is 'inconclusive'")
        if self.evidence == "counterexample":
            _check_hypotheses_record(f"step {self.id}", self.values)
            if self.status == "fails" and self.role != "paper-proof" and not self.values["satisfies_hypotheses"]:
                raise ValueError(f"step {self.id}: a case outside the statement's hypotheses is not a "
                                 f"counterexample ({self.values['hypotheses']})")
        json.dumps(self.values)  # refuse values that the JSON report cannot carry

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (``part`` only on a step that names one)."""
        data = {"id": self.id, "claim": self.claim, "role": self.role, "evidence": self.evidence,
                "status": self.status, "reading": self.reading, "note": self.note, "values": self.values}
        return data if self.part is None else {**data, "part": self.part}

    @classmethod
    def from_dict(cls, data: dict) -> StepResult:
        """The step :meth:`to_dict` wrote, validated again (a status its evidence and values cannot have is
        refused, as when the check built it)."""
        return cls(data["id"], data["claim"], data["role"], data["evidence"], data["status"], data["note"],
                   data["values"], data["reading"], data.get("part"))


def checked(id: str, claim: str, role: str, evidence: str, note: str, *, holds, values: dict,
            conclusive=True, reading: str | None = None, part: str | None = None) -> StepResult:
    """A step whose status is the outcome ``holds`` of a computation that saw ``values``.

    ``conclusive`` is the bool a statistical check computed: False when its test cannot reach its level at the
    sample size it has, or neither rejects nor confirms; the step is then 'inconclusive' whatever ``holds``."""
    if evidence == "argument":
        raise ValueError(f"step {id}: a checked step cannot have evidence 'argument'; use argued()")
    for name, flag in (("holds", holds), ("conclusive", conclusive)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"step {id}: {name} must be the bool a check returned, got {type(flag).__name__}")
    values = _jsonable(values)
    if not conclusive:
        values = {**values, "conclusive": False}
    status = "inconclusive" if not conclusive else "holds" if holds else "fails"
    return StepResult(id, claim, role, evidence, status, note, values, reading, part)


def argued(id: str, claim: str, role: str, note: str, *, reading: str | None = None,
           part: str | None = None) -> StepResult:
    """A human-written step that no computation checks: reported as 'argued', never as 'holds'."""
    return StepResult(id, claim, role, "argument", "argued", note, reading=reading, part=part)


def decide(tests: list[StepResult], proof: list[StepResult], empirical: bool = False) -> str:
    """:data:`RULE` applied to the direct tests (statement or correction steps) and the proof steps; an
    ``empirical`` claim (an experiment) needs no proof steps, only direct tests."""
    if any(s.status == "fails" for s in tests):
        return "fails"
    if any(s.status == "inconclusive" for s in tests):
        return "inconclusive"
    if empirical:
        # An experiment is supported by data only: an untested (argued) step leaves it unproved.
        if not tests or any(s.status == "argued" for s in tests):
            return "unproved"
    elif not proof or any(s.status in ("fails", "inconclusive") for s in proof):
        return "unproved"
    if any(s.status == "argued" for s in proof + tests):
        return "argued"
    return "holds"


class Claim(str):
    """A claim's id, written once in its module (``CLAIM = Claim("lemma2")``), and the steps and result built on it.

    It is the id itself (a ``str``: ``Claim("lemma2") == "lemma2"``), so a step's id ``"lemma2.s5-paper-n-covers"``
    is built from the step's name alone. ``new=True`` marks a claim added in the report's current revision (the
    report lists them).

    >>> CLAIM = Claim("my-claim")
    >>> step = CLAIM.checked("s1-sum", "statement", "exhaustive", "1 + 1 = 2", holds=1 + 1 == 2, values={"sum": 2})
    >>> step.id, step.claim, step.status
    ('my-claim.s1-sum', 'my-claim', 'holds')
    """

    new: bool

    def __new__(cls, id: str, *, new: bool = False) -> Claim:
        claim = super().__new__(cls, id)
        claim.new = new
        return claim

    def checked(self, step: str, role: str, evidence: str, note: str, *, holds, values: dict, conclusive=True,
                reading: str | None = None, part: str | None = None) -> StepResult:
        """:func:`checked`, for this claim's step ``step``."""
        return checked(f"{self}.{step}", str(self), role, evidence, note, holds=holds, values=values,
                       conclusive=conclusive, reading=reading, part=part)

    def argued(self, step: str, role: str, note: str, *, reading: str | None = None,
               part: str | None = None) -> StepResult:
        """:func:`argued`, for this claim's step ``step``."""
        return argued(f"{self}.{step}", str(self), role, note, reading=reading, part=part)

    def result(self, **fields) -> ClaimResult:
        """This claim's :class:`ClaimResult`, from every field but its id."""
        return ClaimResult(id=str(self), **fields)


@dataclass(frozen=True)
class ClaimResult:
    """A claim, the paper's words it is about, how it was checked step by step, and the verdicts that follow from
    the steps by :data:`RULE`.

    ``source`` quotes the paper (at least one :class:`Quote`); ``readings`` lists the readings of those words when
    they admit several (empty: one reading). ``counterexample`` is a minimal one (a dict of inputs and the values
    that contradict the statement, with its computed ``satisfies_hypotheses``) or None; ``corrected`` is the
    corrected statement when the claim fails as written (its verdict is :attr:`corrected_status`). ``own`` marks a
    statement this project makes under a kind that is otherwise the paper's (a baseline claim on what the theory the
    paper cites says, where the paper itself states nothing): the report labels it as ours, as it does every
    extension and corollary.
    """

    id: str
    kind: str
    statement: str
    conditions: str
    counterexample: dict[str, Any] | None
    steps: tuple[StepResult, ...]
    corrected: str | None = None
    source: tuple[Quote, ...] = ()
    readings: tuple[Reading, ...] = ()
    own: bool = False

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        roles = {s.role for s in self.steps}
        if self.kind in EMPIRICAL_KINDS and roles & {"proof", "paper-proof"}:
            raise ValueError(f"claim {self.id}: an {self.kind} claim has no proof steps, got roles {sorted(roles)}")
        if "correction" in roles and self.corrected is None:
            raise ValueError(f"claim {self.id}: correction steps need a corrected statement")
        if not all(isinstance(q, Quote) for q in self.source):
            raise TypeError(f"claim {self.id}: source must be a tuple of Quote")
        ids = [r.id for r in self.readings]
        if self.readings and (len(set(ids)) != len(ids) or [r.role for r in self.readings].count("headline") != 1):
            raise ValueError(f"claim {self.id}: readings need distinct ids and exactly one headline, got "
                             f"{[(r.id, r.role) for r in self.readings]}")
        stray = {s.reading for s in self.steps} - set(ids) - {None}
        if stray:
            raise ValueError(f"claim {self.id}: steps name unknown readings {sorted(stray)}")
        if self.counterexample is not None:
            _check_hypotheses_record(f"claim {self.id}", self.counterexample)
            json.dumps(self.counterexample)
            if self.status == "fails" and not self.counterexample["satisfies_hypotheses"]:
                raise ValueError(f"claim {self.id}: its counterexample lies outside the statement's hypotheses "
                                 f"(counterexample['satisfies_hypotheses'] is False: "
                                 f"{self.counterexample['hypotheses']}), so it cannot make the claim fail")

    def _steps(self, role: str, reading: str | None = None, part: str | None = None) -> list[StepResult]:
        """The steps of ``role`` for ``reading`` (its own and the shared ones) and, when ``part`` is given, for that
        part (its own and the unlabelled ones; every step when None)."""
        return [s for s in self.steps if s.role == role and s.reading in (None, reading)
                and (part is None or s.part in (None, part))]

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts of the sentence the headline reading's statement steps name, in step order (empty: none)."""
        headline = None if self.headline is None else self.headline.id
        return tuple(dict.fromkeys(s.part for s in self._steps("statement", headline) if s.part is not None))

    def part_status(self, part: str) -> str:
        """The verdict on one part of the sentence, by :data:`RULE`: the headline reading's statement steps that
        check it or the whole sentence, and the proof steps that prove it or the whole statement."""
        headline = None if self.headline is None else self.headline.id
        return decide(self._steps("statement", headline, part), self._steps("proof", headline, part),
                      self.kind in EMPIRICAL_KINDS)

    @property
    def in_part(self) -> tuple[tuple[str, str], ...] | None:
        """(part, verdict) of each part when the claim fails, or is inconclusive, in some parts of its sentence and
        not in others: every statement step of the headline with the claim's status names a part and some part has
        another verdict; None otherwise (and for every other status)."""
        if self.status not in IN_PART_STATUSES or len(self.parts) < 2:
            return None
        headline = None if self.headline is None else self.headline.id
        if any(s.status == self.status and s.part is None for s in self._steps("statement", headline)):
            return None  # the whole sentence fails (or is inconclusive)
        verdicts = tuple((p, self.part_status(p)) for p in self.parts)
        return verdicts if any(v != self.status for _, v in verdicts) else None

    @property
    def headline(self) -> Reading | None:
        """The reading the paper's text supports (None when the words admit one reading)."""
        return next((r for r in self.readings if r.role == "headline"), None)

    def reading_status(self, reading: str | None) -> str:
        """The verdict on the statement under ``reading`` (its own steps and the shared ones), by :data:`RULE`."""
        return decide(self._steps("statement", reading), self._steps("proof", reading),
                      self.kind in EMPIRICAL_KINDS)

    @property
    def status(self) -> str:
        """The verdict on the claim as written, on its headline reading, by :data:`RULE`."""
        return self.reading_status(None if self.headline is None else self.headline.id)

    @property
    def corrected_status(self) -> str | None:
        """The verdict on the corrected statement, by :data:`RULE` (None when there is no correction)."""
        if self.corrected is None:
            return None
        headline = None if self.headline is None else self.headline.id
        return decide(self._steps("correction", headline), self._steps("proof", headline),
                      self.kind in EMPIRICAL_KINDS)

    @property
    def verdict(self) -> str:
        """:attr:`status` in the words of the claim's kind (an extension that fails "does not extend"); a claim
        failing, or inconclusive, in part (:attr:`in_part`) says each part's verdict, e.g. "fails in part: the count
        fails; the word holds (argued)" or "inconclusive in part: slightly better inconclusive; more tokens supported"."""
        words = WORDING[self.kind]
        if self.in_part is None:
            return words[self.status]
        return f"{words[self.status]} in part: " + "; ".join(f"{p} {words[v]}" for p, v in self.in_part)

    @property
    def ours(self) -> bool:
        """True when the statement is this project's (an extension or corollary, or marked ``own``), not the
        paper's."""
        return self.kind in OWN_KINDS or self.own

    @property
    def evidence(self) -> tuple[str, ...]:
        """The evidence kinds of the steps, each once, in the order of :data:`EVIDENCE`."""
        kinds = {s.evidence for s in self.steps}
        return tuple(e for e in EVIDENCE if e in kinds)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (the schema of ``python -m proofs_checks --json``; ``parts``, each part's
        verdict, only on a claim whose statement steps name parts)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "ours": self.ours,
            "statement": self.statement,
            "source": [q.to_dict() for q in self.source],
            "status": self.status,
            "verdict": self.verdict,
            "readings": [dict(r.to_dict(), status=self.reading_status(r.id),
                              verdict=WORDING[self.kind][self.reading_status(r.id)]) for r in self.readings],
            "conditions": self.conditions,
            "counterexample": self.counterexample,
            "corrected": self.corrected,
            "corrected_status": self.corrected_status,
            "evidence": list(self.evidence),
            "steps": [s.to_dict() for s in self.steps],
            **({"parts": [{"part": p, "status": self.part_status(p), "verdict": WORDING[self.kind][self.part_status(p)]}
                          for p in self.parts]} if self.parts else {}),
        }

    @classmethod
    def from_dict(cls, data: dict) -> ClaimResult:
        """The claim :meth:`to_dict` wrote, e.g. in ``python -m proofs_checks --json``.

        The verdicts are recomputed from the steps by :data:`RULE`; a dictionary whose written verdicts (or any
        other field) differ from what its steps give raises ValueError, so a report edited by hand is refused.
        """
        kind = data["kind"]
        claim = cls(data["id"], kind, data["statement"], data["conditions"], data["counterexample"],
                    tuple(StepResult.from_dict(s) for s in data["steps"]), data["corrected"],
                    tuple(Quote.from_dict(q) for q in data["source"]),
                    tuple(Reading.from_dict(r) for r in data["readings"]),
                    own=data["ours"] and kind not in OWN_KINDS)
        if claim.to_dict() != data:
            changed = sorted(k for k, v in claim.to_dict().items() if data.get(k) != v)
            raise ValueError(f"claim {data['id']}: the fields {changed} differ from what its steps give")
        return claim
