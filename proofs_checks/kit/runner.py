"""Running the checks: outcomes, the report, and the pytest entry point.

``check_explainer`` never raises on what a check finds: each check ends as

* ``passed``; ``failed`` (an assertion of the check, with its message); ``error`` (any other exception, raised by
  the explainer or the factory, with its type and message); ``skipped`` (not applicable: a capability the tags do
  not declare, with the reason);
* ``xfailed`` / ``xpassed`` for checks the tags (or the caller) declare as expected failures: an xfailed outcome
  keeps the real message beside the declared reason, and a declared failure that passes is flagged.

An outcome's ``message`` is short (at most :data:`MAX_MESSAGE` characters, long lists of numbers abbreviated) so
that a report stays readable; its ``detail`` keeps everything the check said (every failure hypothesis found, its
falsifying example), and goes into ``to_dict()`` and ``--json``.
"""

from __future__ import annotations

import difflib
import json
import re
import textwrap
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

import pytest

from .checks import CHECKS
from .tags import ExplainerTags, NotApplicable, factory_name, get_tags

#: A check's possible outcomes, as pytest names them.
STATUSES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")
#: Statuses that leave a report ``ok``.
OK_STATUSES = ("passed", "skipped", "xfailed")
#: What each status means, for the report's legend.
STATUS_MEANINGS = {
    "passed": "the property holds on every input the check tried",
    "failed": "a counterexample: the check's assertion failed (the message says where)",
    "error": "the explainer or the factory raised something other than a failed assertion",
    "skipped": "not applicable: the check needs a capability the factory's tags do not declare",
    "xfailed": "failed as the tags' (or the caller's) expected_failures declare",
    "xpassed": "declared as an expected failure, but passed (remove the declaration)",
}
#: Longest ``message`` of an outcome (about five lines of a terminal); the full text is its ``detail``.
MAX_MESSAGE = 400
#: Longest ``detail`` kept (hypothesis can report many distinct failures, each with its falsifying example).
MAX_DETAIL = 20_000
#: A list of more numbers than this is abbreviated in a message (a black box's table has 2^b of them).
MAX_LISTED = 6
_NUMBER_LIST = re.compile(r"\[([-+0-9.eE]+(?:,\s*[-+0-9.eE]+)*)\]")


@dataclass(frozen=True)
class CheckOutcome:
    """One check's result. ``message`` is what happened (the failure, the error, the reason it is not applicable),
    in at most :data:`MAX_MESSAGE` characters; ``reason`` the declared reason of an expected failure; ``detail``
    the full text behind a shortened message (empty when the message is all there is)."""

    name: str
    status: str
    message: str = ""
    reason: str = ""
    detail: str = ""

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary; ``detail`` is the full text behind the short ``message``."""
        return {"name": self.name, "status": self.status, "message": self.message, "reason": self.reason,
                "detail": self.detail or self.message}


def _leaves(err: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups: hypothesis reports distinct failures as a group."""
    if isinstance(err, BaseExceptionGroup):
        return [leaf for sub in err.exceptions for leaf in _leaves(sub)]
    return [err]


def _text(leaf: BaseException) -> str:
    return str(leaf) if isinstance(leaf, AssertionError) else f"{type(leaf).__name__}: {leaf}"


def _abbreviate(match: re.Match) -> str:
    values = [v.strip() for v in match[1].split(",")]
    if len(values) <= MAX_LISTED:
        return match[0]
    return f"[{', '.join(values[:3])}, ..., {values[-1]}] ({len(values)} values)"


def _cut(text: str, limit: int, tail_share: float = 0.4) -> str:
    """``text`` when it fits in ``limit`` characters, else its start and its end (``tail_share`` of the room)
    around " ... "."""
    if len(text) <= limit:
        return text
    tail = int((limit - 5) * tail_share)
    return f"{text[: limit - 5 - tail]} ... {text[len(text) - tail:]}"


def shorten(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` on one line, lists of more than :data:`MAX_LISTED` numbers abbreviated, in at most ``limit``
    characters. A check's message ends with the run it failed on ("; on BlackBox(...), label=..., p=..., eps=...,
    max_len=... (tolerance)"): the finding and the run are cut separately (start ... end), so both stay readable.

    >>> shorten("table=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]   on a box")
    'table=[0.1, 0.2, 0.3, ..., 0.8] (8 values) on a box'
    >>> short = shorten("a" * 600 + "; on " + "z" * 400)
    >>> len(short), short[:2], "; on zz" in short, short[-2:]
    (400, 'aa', True, 'zz')
    """
    text = _NUMBER_LIST.sub(_abbreviate, " ".join(text.split()))
    finding, sep, run = text.rpartition("; on ")
    if not sep:
        return _cut(text, limit)
    # The run's end (label, p, eps, max_len, tolerance) says more than its middle (the model's table).
    run = _cut(sep + run, max(limit - len(finding), limit * 3 // 5), tail_share=0.55)
    return _cut(finding, limit - len(run)) + run


def _message(err: BaseException) -> tuple[str, str]:
    """(message, detail): the first failure, shortened, with how many more there are; and every failure in full,
    with the notes hypothesis adds (the falsifying example)."""
    leaves = _leaves(err)
    parts = ["\n".join([_text(leaf), *(n for n in getattr(leaf, "__notes__", []) if n.strip())]) for leaf in leaves]
    detail = "\n---\n".join(parts)
    detail = detail if len(detail) <= MAX_DETAIL else detail[: MAX_DETAIL - 3] + "..."
    more = f" (+{len(leaves) - 1} other failures; all in the detail, --json)" if len(leaves) > 1 else ""
    # Under pytest the checks' asserts are rewritten (the project ships a pytest11 plugin) and the assertion's
    # introspection follows the check's own message after "\nassert ": the detail keeps it, the message not.
    first = _text(leaves[0]).split("\nassert ", 1)[0]
    return shorten(first, MAX_MESSAGE - len(more)) + more, detail


def declared_failures(make_explainer, expected_failures: Mapping[str, str] | None = None) -> dict[str, str]:
    """The expected failures of the factory's tags, with (over them) ``expected_failures``.

    Raises
    ------
    ValueError
        When a key is not the name of a check (a misspelt key would otherwise declare nothing, silently), naming
        the key, the closest check names and where the valid names are listed.
    """
    declared = {**get_tags(make_explainer).expected_failures, **dict(expected_failures or {})}
    names = [c.__name__ for c in CHECKS]
    unknown = [key for key in declared if key not in names]
    if unknown:
        hints = "; ".join(f"{key!r}: did you mean {difflib.get_close_matches(key, names, 1, 0.0)[0]!r}?"
                          for key in unknown)
        raise ValueError(f"expected_failures names no check: {hints} The valid names are those of "
                         f"proofs_checks.kit.CHECKS: {', '.join(names)}")
    return declared


def run_check(check: Callable, make_explainer, expected_failures: Mapping[str, str] | None = None) -> CheckOutcome:
    """Run one check; never raises (but KeyboardInterrupt and SystemExit): even an ``expected_failures`` key that
    names no check is an "error" outcome here (:func:`check_explainer` refuses it before running anything)."""
    name = check.__name__
    expected = {}  # filled once the declaration is valid: a misspelt key must not turn this check into an xfail
    try:
        tags = get_tags(make_explainer)
        expected = declared_failures(make_explainer, expected_failures)
        tags.require(*getattr(check, "needs", ()))
        check(make_explainer)
    except NotApplicable as why:
        return CheckOutcome(name, "skipped", str(why))
    except Exception as err:  # noqa: BLE001 - the report records every exception
        message, detail = _message(err)
        if name in expected:
            return CheckOutcome(name, "xfailed", message, expected[name], detail)
        status = "failed" if all(isinstance(leaf, AssertionError) for leaf in _leaves(err)) else "error"
        return CheckOutcome(name, status, message, detail=detail)
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
        """Whether every check passed, was not applicable, or failed as declared."""
        return all(o.status in OK_STATUSES for o in self.outcomes)

    def status(self) -> dict[str, str]:
        """Check name -> status."""
        return {o.name: o.status for o in self.outcomes}

    def counts(self) -> dict[str, int]:
        """Status -> number of checks with it."""
        return {s: sum(o.status == s for o in self.outcomes) for s in STATUSES}

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary, each check's full detail included."""
        return {"explainer": self.explainer, "ok": self.ok, "counts": self.counts(),
                "tags": None if self.tags is None else self.tags.to_dict(),
                "checks": [o.to_dict() for o in self.outcomes]}

    def to_json(self) -> str:
        """:meth:`to_dict` as indented JSON (``--json``)."""
        return json.dumps(self.to_dict(), indent=2)

    def legend(self) -> str:
        """What the statuses of this report mean."""
        used = [s for s in STATUSES if self.counts()[s]]
        return "\n".join(["Legend (kit):", *(f"  {s:8} {STATUS_MEANINGS[s]}" for s in used),
                          "  (messages are shortened; --json, or each outcome's to_dict(), has the full detail)"])

    def __str__(self) -> str:
        lines = []
        for o in self.outcomes:
            lines.append(f"{o.status:8} {o.name}")
            if o.reason:
                lines.append(f"         declared: {o.reason}")
            lines += textwrap.wrap(o.message, 110, initial_indent=" " * 9, subsequent_indent=" " * 9)
        counts = ", ".join(f"{k} {v}" for k, v in self.counts().items() if v)
        return "\n".join(lines + [f"{'OK' if self.ok else 'FAILED'}: {len(self.outcomes)} checks ({counts})", "",
                                  self.legend()])


def check_explainer(make_explainer, expected_failures: Mapping[str, str] | None = None,
                    checks: Iterable[str] | None = None) -> KitReport:
    """Run every check (or those named in ``checks``) against ``make_explainer``; never raises on a finding.

    ``expected_failures`` adds to the tags' ``expected_failures``; a key of either that names no check raises
    ValueError (see :func:`declared_failures`).
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
    else:
        declared_failures(make_explainer, expected_failures)
    return KitReport(tuple(run_check(c, make_explainer, expected_failures) for c in chosen),
                     factory_name(make_explainer), tags)


def parametrize_with_checks(factories, expected_failures: Mapping[str, str] | None = None):
    """pytest decorator: one test per (factory, check), ids like ``fred_factory-check_prop2_shortcut_corrected``.

    Not applicable checks are skipped with the reason; declared expected failures are strict xfails (a key naming
    no check raises ValueError, see :func:`declared_failures`).
    """
    params = []
    for factory in factories:
        expected = declared_failures(factory, expected_failures)
        for check in CHECKS:
            marks = [pytest.mark.xfail(strict=True, reason=expected[check.__name__])] if check.__name__ in expected \
                else []
            params.append(pytest.param(factory, _pytest_check(check), marks=marks,
                                       id=f"{factory_name(factory)}-{check.__name__}"))
    return pytest.mark.parametrize("explainer, check", params)


def _pytest_check(check: Callable) -> Callable:
    """The check, turning :class:`NotApplicable` (and a missing capability) into pytest.skip."""

    def run(make_explainer):
        try:
            get_tags(make_explainer).require(*getattr(check, "needs", ()))
            check(make_explainer)
        except NotApplicable as why:
            pytest.skip(str(why))

    run.__name__ = check.__name__
    run.__doc__ = check.__doc__
    return run
