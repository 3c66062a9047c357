"""Hypothesis profiles, chosen with HYPOTHESIS_PROFILE (default ``dev``, ``ci`` under CI), draws that do not depend on
the loaded modules, and the reference FRED's claim runs that several test files read (``reference_runs``)."""

import os
import pickle
from contextlib import ExitStack
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from proofs_checks.statistics.isolation import without_local_constants

try:
    import fcntl
except ImportError:  # no POSIX file locks: each xdist worker runs the claims it needs itself
    fcntl = None
try:
    from xdist.scheduler import WorkStealingScheduling
except ImportError:  # without pytest-xdist the suite runs in one process
    WorkStealingScheduling = None

settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile(
    "ci",
    max_examples=50,
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=500,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

#: The session's isolation from hypothesis' local constants, entered at configure and left at unconfigure.
_ISOLATION = ExitStack()


def pytest_configure(config):
    """The same seed gives the same examples whatever else a run imports (one file, -k, xdist's split, the plugin):
    hypothesis draws no literal of a loaded module for the whole session (:mod:`proofs_checks.statistics.isolation`)."""
    _ISOLATION.enter_context(without_local_constants())


def pytest_unconfigure(config):
    _ISOLATION.close()


#: The planted-claims battery's items (tests/kit/test_planted_claims.py), one per (claim, planted entry).
BATTERY = "tests/kit/test_planted_claims.py::test_claims_broken_are_exactly_the_listed_ones["
#: The claim report's test, which reads every claim's reference run.
REPORT_TEST = "tests/claims/test_report.py::"
#: The session's node ids after it (what the order's test checks; --lf, --ff and --nf may reorder them later).
ORDERED = pytest.StashKey[list]()
#: The session's node ids before :func:`pytest_collection_modifyitems` reordered them (tested against the order).
COLLECTED = pytest.StashKey[list]()


@pytest.hookimpl(trylast=True)  # after -k, -m and --deselect: the test of the order compares what was left
def pytest_collection_modifyitems(session, config, items):
    """Each claim's battery items right after its test file (tests/claims/test_<claim>.py), whose first test runs
    the claim against the reference FRED; the report's test last. Runs after -k, -m and --deselect.

    A claim's first run in a process also computes its explainer-independent side (referee answers, exact
    enumerations, cached per process: :mod:`analytic.exact_cache`): lemma1-selection's first battery item took
    13.6 s on the worker that had not run the claim, 3.5 s on the one that had. xdist hands workers consecutive
    items (``worksteal``, :func:`pytest_xdist_make_scheduler`), so the worker holding those caches mostly runs the
    claim's battery items too. Only the order changes: every item is still collected and run.
    """
    config.stash[COLLECTED] = [item.nodeid for item in items]
    battery: dict[str, list] = {}
    for item in items:
        if item.nodeid.startswith(BATTERY):
            battery.setdefault(item.callspec.params["claim_id"], []).append(item)
    last = {}
    for position, item in enumerate(items):
        module = item.nodeid.split("::", 1)[0]
        if module.startswith("tests/claims/test_"):
            last[module] = position
    moved = {f"tests/claims/test_{claim.replace('-', '_')}.py": group for claim, group in battery.items()}
    moved = {module: group for module, group in moved.items() if module in last}
    # The report's test reads every claim's reference run: run last, it finds them computed by the claims' own tests
    # (each on the worker then running its battery items) instead of computing, early, those of claims not reached
    # yet, which the claims' tests would then read without having filled their caches.
    report = [item for item in items if item.nodeid.startswith(REPORT_TEST)]
    moving = {id(item) for group in moved.values() for item in group} | {id(item) for item in report}
    after = {last[module]: group for module, group in moved.items()}
    ordered = []
    for position, item in enumerate(items):
        if id(item) not in moving:
            ordered.append(item)
        ordered.extend(after.get(position, ()))
    items[:] = ordered + report
    config.stash[ORDERED] = [item.nodeid for item in items]


def dist_chosen(config) -> bool:
    """Whether the command (or PYTEST_ADDOPTS) names an xdist distribution mode."""
    given = [*config.invocation_params.args, *os.environ.get("PYTEST_ADDOPTS", "").split()]
    return bool(config.getoption("distload", False)) or any(a == "--dist" or a.startswith("--dist=") for a in given)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """xdist's ``worksteal`` scheduler for ``-n N`` when no ``--dist`` is given: an idle worker takes tests queued
    for the other, so a run does not end with one worker idle while the other finishes a long queue (42 s of a
    5-minute run with the default ``load``), and each worker gets runs of consecutive items, which keeps a claim's
    battery items with its caches (:func:`pytest_collection_modifyitems`). A ``--dist`` given is obeyed."""
    if WorkStealingScheduling is None or config.getvalue("dist") != "load" or dist_chosen(config):
        return None
    return WorkStealingScheduling(config, log)


class ReferenceRuns:
    """Each claim of the report run against the reference FRED (``run_against(fred_factory, [claim])``) once per
    test session: the claim report's test (tests/claims/test_report.py) and the planted-claims battery
    (tests/kit/test_planted_claims.py) read the same runs. Under pytest-xdist the workers share them through
    pickles in a directory of this run, one lock per run: a worker that needs a claim another is running waits for
    it instead of running it again.

    A run is kept per value of ``FRED_STATISTICAL_SEED`` (unset and "" are the default seeds); ``default_seeds=True``
    runs the claim with the variable unset, whatever the environment."""

    def __init__(self, directory: Path | None):
        self.directory, self._runs = directory, {}

    def outcome(self, claim_id: str, *, default_seeds: bool = False):
        """The claim's :class:`proofs_checks.comparison.ClaimOutcome` against the reference FRED."""
        from proofs_checks.statistics.seeds import SEED_ENV

        seed = None if default_seeds else os.environ.get(SEED_ENV) or None
        key = (claim_id, seed)
        if key not in self._runs:
            shared = self.directory is not None and fcntl is not None
            self._runs[key] = self._shared(claim_id, seed) if shared else self._run(claim_id, seed)
        return self._runs[key]

    def result(self, claim_id: str):
        """The claim's :class:`proofs_checks.verdicts.results.ClaimResult` against the reference FRED: what ``check()``
        returns, run once per session for every test file that reads it (an error is raised, not returned)."""
        outcome = self.outcome(claim_id)
        assert outcome.result is not None, f"{claim_id} gave no result against the reference: {outcome.reason}"
        return outcome.result

    @staticmethod
    def _run(claim_id: str, seed: str | None):
        from proofs_checks.comparison import run_against
        from proofs_checks.kit import fred_factory
        from proofs_checks.statistics.seeds import SEED_ENV

        with pytest.MonkeyPatch.context() as mp:
            if seed is None:
                mp.delenv(SEED_ENV, raising=False)
            (outcome,) = run_against(fred_factory, [claim_id])
        return outcome

    def _shared(self, claim_id: str, seed: str | None):
        path = self.directory / f"{claim_id}.seed-{seed}.pickle"
        with open(path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if path.exists():
                return pickle.loads(path.read_bytes())
            outcome = self._run(claim_id, seed)
            try:
                data = pickle.dumps(outcome)
            except Exception:  # an unpicklable result stays with this worker (the other runs the claim itself)
                return outcome
            partial = path.with_suffix(".partial")
            partial.write_bytes(data)
            partial.replace(path)
            return outcome


@pytest.fixture(scope="session")
def reference_runs(request, tmp_path_factory) -> ReferenceRuns:
    """The session's :class:`ReferenceRuns`: shared by the xdist workers of this run (a directory named by the run's
    id, so that a reused ``--basetemp`` never serves an earlier run's results) and by no other run."""
    base = tmp_path_factory.getbasetemp()
    workerinput = getattr(request.config, "workerinput", None)
    if workerinput is None:
        directory = base / "reference-claim-runs"  # this session's own base directory
    else:
        directory = base.parent / f"reference-claim-runs-{workerinput['testrunuid']}"
    directory.mkdir(exist_ok=True)
    return ReferenceRuns(directory)
