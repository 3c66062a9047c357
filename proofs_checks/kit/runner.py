"""Running the checks: outcomes, the report, and the pytest entry point.

``check_explainer`` never raises on what a check finds: each check ends as

* ``passed``; ``failed`` (an assertion of the check, with its message); ``error`` (any other exception, raised by
  the explainer or the factory, with its type and message); ``skipped`` (not applicable: a capability the tags do
  not declare, with the reason);
* ``xfailed`` / ``xpassed`` for checks the tags (or the caller) declare as expected failures: an xfailed outcome
  keeps the real message beside the declared reason, and a declared failure that passes is flagged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from .checks import CHECKS
from .tags import ExplainerTags, NotApplicable, factory_name, get_tags

STATUSES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")
#: Statuses that leave a report ``ok``.
OK_STATUSES = ("passed", "skipped", "xfailed")
#: Longest message kept (hypothesis' falsifying examples can be long).
MAX_MESSAGE = 4000


@dataclass(frozen=True)
class CheckOutcome:
    """One check's result. ``message`` is what happened (the failure, the error, the reason it is not applicable);
    ``reason`` the declared reason of an expected failure."""

    name: str
    status: str
    message: str = ""
    reason: str = ""

    def to_dict(self) -> dict:
        return {"name": self.name, "status": self.status, "message": self.message, "reason": self.reason}


def _leaves(err: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups: hypothesis reports distinct failures as a group."""
    if isinstance(err, BaseExceptionGroup):
        return [leaf for sub in err.exceptions for leaf in _leaves(sub)]
    return [err]


def _message(err: BaseException) -> str:
    parts = []
    for leaf in _leaves(err):
        text = str(leaf) if isinstance(leaf, AssertionError) else f"{type(leaf).__name__}: {leaf}"
        notes = [n for n in getattr(leaf, "__notes__", []) if n.strip()]
        parts.append("\n".join([text, *notes]))
    text = "\n---\n".join(parts)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def run_check(check: Callable, make_explainer, expected_failures: Mapping[str, str] | None = None) -> CheckOutcome:
    """Run one check; never raises (but KeyboardInterrupt and SystemExit)."""
    name = check.__name__
    expected = dict(expected_failures or {})
    try:
        tags = get_tags(make_explainer)
        expected = {**tags.expected_failures, **expected}
        tags.require(*getattr(check, "needs", ()))
        check(make_explainer)
    except NotApplicable as why:
        return CheckOutcome(name, "skipped", str(why))
    except Exception as err:  # noqa: BLE001 - the report records every exception
        if name in expected:
            return CheckOutcome(name, "xfailed", _message(err), expected[name])
        status = "failed" if all(isinstance(leaf, AssertionError) for leaf in _leaves(err)) else "error"
        return CheckOutcome(name, status, _message(err))
    if name in expected:
        return CheckOutcome(name, "xpassed", "declared as an expected failure but passed", expected[name])
    return CheckOutcome(name, "passed")


@dataclass(frozen=True)
class KitReport:
    """All outcomes of :func:`check_explainer`, with the explainer's name and tags; ``ok`` when nothing failed,
    errored or passed unexpectedly."""

    outcomes: tuple[CheckOutcome, ...]
    explainer: str = ""
    tags: ExplainerTags | None = None

    @property
    def ok(self) -> bool:
        return all(o.status in OK_STATUSES for o in self.outcomes)

    def status(self) -> dict[str, str]:
        """Check name -> status."""
        return {o.name: o.status for o in self.outcomes}

    def counts(self) -> dict[str, int]:
        return {s: sum(o.status == s for o in self.outcomes) for s in STATUSES}

    def to_dict(self) -> dict:
        return {"explainer": self.explainer, "ok": self.ok, "counts": self.counts(),
                "tags": None if self.tags is None else self.tags.to_dict(),
                "checks": [o.to_dict() for o in self.outcomes]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def __str__(self) -> str:
        lines = []
        for o in self.outcomes:
            lines.append(f"{o.status:8} {o.name}")
            if o.reason:
                lines.append(f"         declared: {o.reason}")
            for line in o.message.splitlines()[:12]:
                lines.append(f"         {line}")
        counts = ", ".join(f"{k} {v}" for k, v in self.counts().items() if v)
        return "\n".join(lines + [f"{'OK' if self.ok else 'FAILED'}: {len(self.outcomes)} checks ({counts})"])


def check_explainer(make_explainer, expected_failures: Mapping[str, str] | None = None,
                    checks: Iterable[str] | None = None) -> KitReport:
    """Run every check (or those named in ``checks``) against ``make_explainer``; never raises on a finding.

    ``expected_failures`` adds to the tags' ``expected_failures``.
    """
    chosen = list(CHECKS)
    if checks is not None:
        names = list(checks)
        unknown = sorted(set(names) - {c.__name__ for c in CHECKS})
        if unknown:
            raise ValueError(f"unknown checks {unknown}; see proofs_checks.kit.CHECKS")
        chosen = [c for c in CHECKS if c.__name__ in names]
    try:
        tags = get_tags(make_explainer)
    except TypeError:
        tags = None  # each check reports the error
    return KitReport(tuple(run_check(c, make_explainer, expected_failures) for c in chosen),
                     factory_name(make_explainer), tags)


def parametrize_with_checks(factories, expected_failures: Mapping[str, str] | None = None):
    """pytest decorator: one test per (factory, check), ids like ``fred_factory-check_prop2_shortcut_corrected``.

    Not applicable checks are skipped with the reason; declared expected failures are strict xfails.
    """
    import pytest  # here, not at the top: pytest is a dev extra, and check_explainer runs without it

    params = []
    for factory in factories:
        expected = {**get_tags(factory).expected_failures, **(expected_failures or {})}
        for check in CHECKS:
            marks = [pytest.mark.xfail(strict=True, reason=expected[check.__name__])] if check.__name__ in expected \
                else []
            params.append(pytest.param(factory, _pytest_check(check), marks=marks,
                                       id=f"{factory_name(factory)}-{check.__name__}"))
    return pytest.mark.parametrize("explainer, check", params)


def _pytest_check(check: Callable) -> Callable:
    """The check, turning :class:`NotApplicable` (and a missing capability) into pytest.skip."""

    def run(make_explainer):
        import pytest  # a dev extra (see parametrize_with_checks)

        try:
            get_tags(make_explainer).require(*getattr(check, "needs", ()))
            check(make_explainer)
        except NotApplicable as why:
            pytest.skip(str(why))

    run.__name__ = check.__name__
    run.__doc__ = check.__doc__
    return run
