"""The pytest plugin: the kit's checks and the claims as items of any pytest run (registered by the light entry
point :mod:`fred_pytest`, which defines the options, only when one of them is given).

    pytest --fred-explainer mypkg.mod:make_explainer                 # one item per kit check
    pytest --fred-explainer mypkg.mod:make_explainer --fred-claims   # and one item per claim
    pytest --fred-explainer-cmd "python my_server.py"                # an explainer in another process

Both explainer options repeat. The items of ``--fred-explainer SPEC`` are ``fred[SPEC]::<check>`` and, with
``--fred-claims``, ``fred[SPEC]::claim[<claim id>]``; those of ``--fred-explainer-cmd COMMAND`` are
``fred-cmd[COMMAND]::...``. Each kit item is :func:`proofs_checks.kit.run_check` on the factory, so its outcome
is the one :func:`proofs_checks.kit.check_explainer` gives for the same factory and seed, read as pytest reads a
test: ``passed``; ``failed`` and ``error`` fail; ``skipped`` (not applicable) is a skip with the reason; an
expected failure the tags declare is an xfail, and one that passes fails, as a strict xfail does. A claim item
applies the comparison's rule (:class:`proofs_checks.comparison.Comparison`, ``ok``) to the claim run against the
reference FRED and against the factory: it fails when the factory breaks a guarantee the reference keeps or the
guarantee cannot be checked, passes when the guarantee is kept, and is skipped, with the reason, when there is
nothing to hold the factory to (not applicable, not involved, or no guarantee the reference keeps). Every item
records the kit's word for its outcome as the user property ``fred_status`` (a property in ``--junitxml``).

The entry point is loaded in every pytest run of an environment where the package is installed; this module only
when an option is given, so without them nothing is imported, registered or collected. The items are a function of the options alone (the kit's check names, the claim ids),
so pytest-xdist's workers collect the same items; ``-k``, ``-x`` and ``--junitxml`` see ordinary items.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pytest

from fred.evaluation.factories import load_factory as fred_load_factory

from .claim_index import CLAIMS
from .comparison import ClaimOutcome, Comparison, run_against, subject_runs
from .kit import CHECKS, CheckOutcome, fred_factory, run_check
from .subject.protocol import ProtocolError, command_factory


def load_factory(spec: str) -> Callable:
    """The factory ``MODULE:FACTORY`` names (:func:`fred.evaluation.factories.load_factory`, the one loader); a bad
    value raises :class:`pytest.UsageError` with one line.

    >>> load_factory("proofs_checks:fred_factory").__name__
    'fred_factory'
    >>> load_factory("proofs_checks")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pytest.UsageError: --fred-explainer: expected module:factory (...), got 'proofs_checks'
    """
    try:
        return fred_load_factory(spec)
    except (ValueError, TypeError) as err:
        raise pytest.UsageError(f"--fred-explainer: {' '.join(str(err).split())}") from None


@dataclass(frozen=True)
class Subject:
    """An explainer the items run: the node name its items sit under, and its factory."""

    name: str
    factory: Callable


def pytest_configure(config: pytest.Config) -> None:
    """Register the items' collection when an explainer option is given; nothing otherwise."""
    specs = list(dict.fromkeys(config.getoption("fred_explainer")))
    commands = list(dict.fromkeys(config.getoption("fred_explainer_cmd")))
    if config.getoption("fred_claims") and not (specs or commands):
        raise pytest.UsageError("--fred-claims needs --fred-explainer MODULE:FACTORY or --fred-explainer-cmd COMMAND")
    if not (specs or commands):
        return
    subjects = [Subject(f"fred[{spec}]", load_factory(spec)) for spec in specs]
    servers = [Subject(f"fred-cmd[{command}]", _serve(command)) for command in commands]
    config.pluginmanager.register(FredItems(tuple(subjects), tuple(servers), config.getoption("fred_claims")),
                                  "fred-items")


def _serve(command: str) -> Callable:
    """The factory of a server command, started and greeted now (in each process that collects); a command that
    cannot start or breaks the handshake is a :class:`pytest.UsageError` with the server's stderr."""
    try:
        return command_factory(command)
    except (ProtocolError, ValueError) as err:
        raise pytest.UsageError(f"--fred-explainer-cmd {command!r}: {str(err).splitlines()[0]}") from None


class FredItems:
    """The registered part of the plugin: adds the subjects' items to the collection, stops the servers at the end."""

    def __init__(self, subjects: tuple[Subject, ...], servers: tuple[Subject, ...], claims: bool):
        self.subjects, self.servers, self.claims = subjects + servers, servers, claims
        #: The reference FRED's run of each claim, once per process whatever the number of subjects.
        self.references: dict[str, ClaimOutcome] = {}

    @pytest.hookimpl(tryfirst=True)  # before the keyword and mark selection (-k, -m) reads the items
    def pytest_collection_modifyitems(self, session: pytest.Session, items: list[pytest.Item]) -> None:
        """Add one node per ``--fred-explainer`` / ``--fred-explainer-cmd`` value, with its kit (and claim) items."""
        for subject in self.subjects:
            # a child of the session, as a test file is; genitems reports its collection as pytest's own does
            node = ExplainerNode.from_parent(session, name=subject.name, nodeid=subject.name, subject=subject,
                                             claims=self.claims, references=self.references)
            items.extend(session.genitems(node))

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """The comparison's legend, once, when a claim item failed."""
        claims = tuple(f"{subject.name}::claim[" for subject in self.subjects)
        if any(report.nodeid.startswith(claims) for report in terminalreporter.stats.get("failed", [])):
            terminalreporter.write_sep("-", "the words of the failing claims")
            terminalreporter.write_line(Comparison.legend())

    def pytest_unconfigure(self) -> None:
        """Stop the protocol servers this run started."""
        for server in self.servers:  # the protocol's factories also stop at exit: this is sooner, in pytester too
            server.factory.close()


class ExplainerNode(pytest.Collector):
    """``fred[SPEC]``: one subject's items, a kit item per check and, when asked, a claim item per claim."""

    def __init__(self, *, subject: Subject, claims: bool, references: dict[str, ClaimOutcome], **kwargs):
        super().__init__(**kwargs)
        self.subject, self.claims, self.references = subject, claims, references

    def collect(self) -> list[pytest.Item]:
        """One item per kit check and, with ``--fred-claims``, one per claim of the report."""
        items = [KitItem.from_parent(self, name=check.__name__, check=check) for check in CHECKS]
        if self.claims:
            items += [ClaimItem.from_parent(self, name=f"claim[{claim_id}]", claim_id=claim_id,
                                            references=self.references) for claim_id in CLAIMS]
        return items


class Finding(Exception):
    """What an item found, reported as its message alone (the plugin's traceback says nothing about the explainer)."""


class _FredItem(pytest.Item):
    """What both kinds of item share: the explainer, the short failure report, the location."""

    @property
    def subject(self) -> Subject:
        return self.parent.subject

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, Finding):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.parent.name}::{self.name}"


class KitItem(_FredItem):
    """One kit check on one explainer: :func:`proofs_checks.kit.run_check`, as ``check_explainer`` runs it."""

    def __init__(self, *, check: Callable, **kwargs):
        super().__init__(**kwargs)
        self.check = check

    def runtest(self) -> None:
        """Run the check on the factory; skip, xfail or fail as ``check_explainer`` reports it."""
        outcome = run_check(self.check, self.subject.factory)
        self.user_properties.append(("fred_status", outcome.status))
        if outcome.status == "skipped":
            pytest.skip(f"not applicable: {outcome.message}")
        if outcome.status == "xfailed":
            pytest.xfail(f"declared: {outcome.reason}; it fails: {_first_line(outcome)}")
        if outcome.status != "passed":
            raise Finding(_kit_message(outcome))


def _first_line(outcome: CheckOutcome) -> str:
    return outcome.message.splitlines()[0] if outcome.message else ""


def _kit_message(outcome: CheckOutcome) -> str:
    """The finding first (pytest's short summary shows the first line; the item's id names the check)."""
    if outcome.status == "xpassed":
        return f"[XPASS(strict)] passes, declared as an expected failure: {outcome.reason}"
    if outcome.status == "error":
        return f"the explainer or its factory raised: {outcome.message}"
    return outcome.message


class ClaimItem(_FredItem):
    """One claim run against the reference FRED and the explainer, judged by the comparison's rule."""

    def __init__(self, *, claim_id: str, references: dict[str, ClaimOutcome], **kwargs):
        super().__init__(**kwargs)
        self.claim_id, self.references = claim_id, references

    def runtest(self) -> None:
        """Run the claim on the reference FRED (once per run) and on the factory; fail when the factory breaks
        a guarantee the reference keeps, or leaves it unchecked."""
        if self.claim_id not in self.references:
            (self.references[self.claim_id],) = run_against(fred_factory, [self.claim_id])
        reference = self.references[self.claim_id]
        (subject,) = subject_runs(self.subject.factory, (reference,))
        comparison = Comparison(self.subject.name, (reference,), (subject,))
        status = _claim_status(comparison, subject)
        self.user_properties.append(("fred_status", status))
        if not comparison.ok:
            # the legend once, in the terminal summary (FredItems), not under every failing claim
            text = comparison.to_text().removesuffix("\n\n" + Comparison.legend())
            raise Finding(f"{status}: {subject.describe()}\n\n{text}")
        if status == "not applicable":
            pytest.skip(f"not applicable: {subject.reason}")
        if status == "not involved":
            pytest.skip(f"not involved: the claim runs no explainer; its verdict is the paper's: "
                        f"{subject.describe().removeprefix('not involved, ')}")
        if status == "no guarantee":
            pytest.skip(f"the reference FRED keeps no guarantee of this claim ({reference.describe()}): nothing to "
                        f"hold the explainer to")


def _claim_status(comparison: Comparison, subject: ClaimOutcome) -> str:
    """The comparison's word for the claim: broken, inconclusive, not checked, kept; else why nothing is at stake
    (not applicable, not involved, no guarantee)."""
    if comparison.breaks:
        return "broken"
    if comparison.inconclusive:
        return "inconclusive"
    if not comparison.ok:
        return "not checked"
    if comparison.keeps:
        return "kept"
    return subject.outcome if subject.outcome in ("not applicable", "not involved") else "no guarantee"
