"""The claim report against any explainer, beside the reference FRED's (``python -m proofs_checks --explainer``).

Both runs are the same code: every claim's ``check()`` inside :func:`proofs_checks.subject.explainer.checking`, once with
the kit's ``fred_factory`` and once with the user's factory. For each claim and each run the outcome is

* ``checked``: the claim ran against that explainer; its verdicts follow from its steps by the report's rule;
* ``not applicable``: a step needs a capability the explainer's tags do not declare (the reason is kept);
* ``error``: the check raised (e.g. the explanation lacks an attribute the claim reads); the message is kept;
* ``not involved``: the claim never asked for an explainer (a closed form, the paper's tables): its verdict is
  the paper's, the same for every explainer.

A claim's **guarantee** is its corrected statement when it has one, else its statement. A guarantee the
reference keeps (verdict "holds" or "argued") is *broken* by an explainer whose run of the claim is checked and
ends "fails" or "unproved", and *kept* when it ends "holds" or "argued"; a run that is "not applicable" or an
"error" leaves it *not checked*, with the reason and what the factory would have to declare or offer to make it
checkable (:func:`remedy`). A broken or not checked guarantee makes the exit status 1: a guarantee that cannot be
checked is not a pass.
"""

from __future__ import annotations

import json
import re
import textwrap
import time
import traceback
from dataclasses import dataclass
from typing import Callable

from .claim_index import CLAIMS
from .kit import NotApplicable
from .kit.tags import fred_factory
from .statistics.isolation import without_local_constants
from .subject.explainer import checking
from .verdicts.results import ClaimResult

#: Statuses under which a guarantee is kept ...
KEPT = ("holds", "argued")
#: ... and broken.
BROKEN = ("fails", "unproved")

#: The words of the text output, for its legend.
LEGEND = (
    ("holds / fails / argued / unproved / inconclusive",
     "the verdict on the claim as written, by the report's rule (in its kind's words: 'extends', 'supported', "
     "'code differs', ...)"),
    ("fails; corrected: argued", "the claim fails as written; its corrected statement (its guarantee) is argued"),
    ("not involved", "the claim never asks for an explainer (a closed form, the paper's tables, the baselines): "
                     "the paper's verdict, the same for every explainer (run once, against the reference)"),
    ("not applicable", "a step needs what the explainer's tags or signature do not offer (the reason is given)"),
    ("error", "the claim's check raised on this explainer (the message is given)"),
    ("kept", "the guarantee the reference keeps also holds (or is argued) for this explainer"),
    ("broken", "the guarantee the reference keeps fails (or is unproved) for this explainer: exit status 1"),
    ("not checked", "a guarantee the reference keeps could not be checked on this explainer (not applicable, "
                    "or an error): exit status 1, with what to declare to make it checkable"),
    ("inconclusive", "a test that cannot reach its level on this explainer: neither kept nor broken; exit status 1"),
)

#: What a factory would declare or offer to make a "not applicable" claim checkable, keyed by the phrases of the
#: reasons (:meth:`proofs_checks.kit.ExplainerTags.missing` and :mod:`proofs_checks.subject.explainer`).
_REMEDIES = (
    (re.compile(r"tags\.(\w+)=False"), "declare {0}=True in the factory's ExplainerTags (and offer it)"),
    (re.compile(r"takes no random_state"), "accept a random_state keyword (factory(classifier_fn, random_state=s) "
                                           "seeds the explainer with s): the claims' independent replicates"),
    (re.compile(r"reads explanation\.(\w+)"), "give the explanations a {0} attribute (as fred.Explanation's)"),
)


def remedy(reason: str | None) -> str:
    """What the factory would declare or offer to make a claim that was not applicable for ``reason`` checkable.

    >>> remedy("the explainer declares no exact mode (...) (tags.exact=False)")
    "declare exact=True in the factory's ExplainerTags (and offer it)"
    """
    for pattern, fix in _REMEDIES:
        match = pattern.search(reason or "")
        if match:
            return fix.format(*match.groups())
    return "make the check run: see the reason"


@dataclass(frozen=True)
class ClaimOutcome:
    """One claim run against one explainer."""

    id: str
    outcome: str
    result: ClaimResult | None = None
    reason: str | None = None
    seconds: float = 0.0

    @property
    def guarantee(self) -> str | None:
        """The verdict on the claim's guarantee (corrected statement if any), None when not checked."""
        if self.result is None:
            return None
        return self.result.corrected_status if self.result.corrected else self.result.status

    def describe(self) -> str:
        """The outcome in the words of the text output (the verdict, with the correction's)."""
        if self.result is None:
            return f"{self.outcome}: {self.reason}"
        corrected = f"; corrected: {self.result.corrected_status}" if self.result.corrected else ""
        prefix = "not involved, " if self.outcome == "not involved" else ""
        return f"{prefix}{self.result.verdict}{corrected}"

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"id": self.id, "outcome": self.outcome, "status": None if self.result is None else self.result.status,
                "corrected_status": None if self.result is None else self.result.corrected_status,
                "guarantee": self.guarantee, "reason": self.reason, "seconds": self.seconds,
                "failing_steps": [] if self.result is None else
                [{"id": s.id, "role": s.role, "note": s.note} for s in self.result.steps if s.status == "fails"]}


def run_against(factory: Callable, ids=None) -> tuple[ClaimOutcome, ...]:
    """Every claim (or those in ``ids``) run against ``factory``; never raises on a finding or a broken check."""
    ids = list(CLAIMS) if ids is None else list(ids)
    unknown = [i for i in ids if i not in CLAIMS]
    if unknown:
        raise ValueError(f"unknown claim id(s) {unknown}; known: {list(CLAIMS)}")
    outcomes = []
    # the claims' hypothesis searches do not depend on the loaded modules (proofs_checks.statistics.isolation)
    with checking(factory) as subject, without_local_constants():
        for claim_id in ids:
            before, start = subject.requests, time.perf_counter()
            try:
                result = CLAIMS[claim_id]()
            except NotApplicable as e:
                outcome = ClaimOutcome(claim_id, "not applicable", reason=str(e))
            except Exception as e:  # a broken explainer must not stop the report
                last = traceback.extract_tb(e.__traceback__)[-1]
                outcome = ClaimOutcome(claim_id, "error", reason=f"{type(e).__name__}: {e} (at {last.filename}:"
                                                                 f"{last.lineno})")
            else:
                outcome = ClaimOutcome(claim_id, "checked" if subject.requests > before else "not involved", result)
            outcomes.append(ClaimOutcome(outcome.id, outcome.outcome, outcome.result, outcome.reason,
                                         round(time.perf_counter() - start, 2)))
    return tuple(outcomes)


@dataclass(frozen=True)
class Comparison:
    """The claims run against the reference FRED and against an explainer, claim by claim."""

    explainer: str
    reference: tuple[ClaimOutcome, ...]
    subject: tuple[ClaimOutcome, ...]

    def _pairs(self):
        return zip(self.reference, self.subject)

    def _guaranteed(self):
        return [(r, s) for r, s in self._pairs() if r.guarantee in KEPT and r.outcome == "checked"]

    @property
    def breaks(self) -> tuple[str, ...]:
        """Claims whose guarantee holds for the reference and fails (or is unproved) for the explainer."""
        return tuple(r.id for r, s in self._guaranteed() if s.outcome == "checked" and s.guarantee in BROKEN)

    @property
    def inconclusive(self) -> tuple[str, ...]:
        """Claims whose guarantee holds for the reference and whose check on the explainer is inconclusive (a
        test that could not reach its level): neither kept nor broken, so not checked."""
        return tuple(r.id for r, s in self._guaranteed() if s.outcome == "checked" and s.guarantee == "inconclusive")

    @property
    def keeps(self) -> tuple[str, ...]:
        """Claims whose guarantee holds for the reference and for the explainer."""
        return tuple(r.id for r, s in self._guaranteed() if s.outcome == "checked" and s.guarantee in KEPT)

    def new_failures(self, claim_id: str) -> tuple:
        """The claim's steps that fail for the explainer and hold for the reference (what the change broke)."""
        reference = {r.id: r for r in self.reference}[claim_id]
        subject = {s.id: s for s in self.subject}[claim_id]
        if reference.result is None or subject.result is None:
            return ()
        held = {s.id for s in reference.result.steps if s.status == "holds"}
        return tuple(s for s in subject.result.steps if s.status == "fails" and s.id in held)

    @property
    def errors(self) -> tuple[str, ...]:
        """Ids of the claims that raised on the explainer."""
        return tuple(s.id for s in self.subject if s.outcome == "error")

    @property
    def not_checked(self) -> tuple[ClaimOutcome, ...]:
        """The explainer's outcomes of the claims whose guarantee the reference keeps and that could not run on
        it ("not applicable" or "error")."""
        return tuple(s for _, s in self._guaranteed() if s.outcome in ("not applicable", "error"))

    @property
    def ok(self) -> bool:
        """No broken guarantee, no check that could not run, no guarantee left unchecked, and none that could not
        conclude."""
        return not self.breaks and not self.errors and not self.inconclusive and not self.not_checked

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (``--json``)."""
        return {"explainer": self.explainer, "ok": self.ok, "breaks": list(self.breaks), "keeps": list(self.keeps),
                "inconclusive": list(self.inconclusive), "errors": list(self.errors),
                "not_checked": [{"id": s.id, "outcome": s.outcome, "reason": s.reason, "to_check_it": remedy(s.reason)}
                                for s in self.not_checked],
                "claims": [{"id": r.id, "reference": r.to_dict(), "explainer": s.to_dict(),
                            "new_failures": [f.id for f in self.new_failures(r.id)]} for r, s in self._pairs()]}

    def to_json(self) -> str:
        """:meth:`to_dict` as indented JSON."""
        return json.dumps(self.to_dict(), indent=2)

    def to_text(self) -> str:
        """The text output: each claim's verdict for the reference and for the explainer, then what is broken,
        kept and not checked."""
        width = max(len(r.id) for r in self.reference)
        lines = [f"Claims: reference FRED against {self.explainer}", "",
                 f"{'claim':<{width}}  {'reference FRED':<34}  {self.explainer}"]
        unchecked = {s.id for s in self.not_checked}
        for r, s in self._pairs():
            mark = "not checked, " if s.id in unchecked else ""
            lines.append(f"{r.id:<{width}}  {r.describe():<34}  {mark}{s.describe()}")
        lines += ["", f"Guarantees this explainer breaks ({len(self.breaks)}):"]
        for claim_id in self.breaks:
            steps = self.new_failures(claim_id)
            lines.append(f"  {claim_id}: steps that hold for the reference and fail here: "
                         + "; ".join(f"{s.id}: {s.note}" for s in steps))
        lines += ["", f"Guarantees it keeps ({len(self.keeps)}): " + (", ".join(self.keeps) or "none")]
        if self.inconclusive:
            lines += ["", "Inconclusive on this explainer (a test that cannot reach its level; not checked): "
                      + ", ".join(self.inconclusive)]
        if self.not_checked:
            lines += ["", f"Guarantees the reference keeps, not checked on this explainer ({len(self.not_checked)}):"]
            for s in self.not_checked:
                lines += [f"  {s.id}: {s.outcome}: {s.reason}", f"    to check it: {remedy(s.reason)}"]
        others = [s for s in self.subject if s.outcome in ("not applicable", "error") and s.id not in unchecked]
        if others:
            lines += ["", "Also not run on this explainer (no guarantee of the reference at stake; an error still makes "
                      "the exit status 1, since a claim that raises on the explainer is not a pass):"]
            lines += [f"  {s.id}: {s.outcome}: {s.reason}" for s in others]
        return "\n".join(lines + ["", self.legend()])

    @staticmethod
    def legend() -> str:
        """What the words of :meth:`to_text` mean."""
        return "\n".join(["Legend (claims):", *(line for word, meaning in LEGEND for line in textwrap.wrap(
            f"{word}: {meaning}", 110, initial_indent="  ", subsequent_indent="      "))])


def subject_runs(factory: Callable, reference: tuple[ClaimOutcome, ...]) -> tuple[ClaimOutcome, ...]:
    """The claims of ``reference`` run against ``factory``, except those the reference run shows not involved:
    their run is the reference's. A claim reaches a factory only through :func:`proofs_checks.subject.explainer.explainer`,
    which the reference always answers (it has every capability), so a claim that never called it on the
    reference computed nothing that depends on the factory, and never calls it on another: running it again would
    give the same outcome (tests/kit/test_planted_claims.py checks that sameness on every planted explainer, and
    tests/claims/test_baseline_claims.py that the baseline claims cannot import the subject at all)."""
    ran = {o.id: o for o in run_against(factory, [r.id for r in reference if r.outcome != "not involved"])}
    return tuple(ran.get(r.id, r) for r in reference)


def compare(factory: Callable, ids=None) -> Comparison:
    """The claims (all, or ``ids``) against ``fred_factory`` and against ``factory`` (:func:`subject_runs`)."""
    name = getattr(factory, "__name__", type(factory).__name__)
    reference = run_against(fred_factory, ids)
    return Comparison(name, reference, subject_runs(factory, reference))
