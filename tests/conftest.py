"""Hypothesis profiles, chosen with HYPOTHESIS_PROFILE (default ``dev``, ``ci`` under CI), draws that do not depend on
the loaded modules, and the reference FRED's claim runs that several test files read (``reference_runs``)."""

import os
import pickle
from contextlib import ExitStack
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from proofs_checks.isolation import without_local_constants

try:
    import fcntl
except ImportError:  # no POSIX file locks: each xdist worker runs the claims it needs itself
    fcntl = None

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
    hypothesis draws no literal of a loaded module for the whole session (:mod:`proofs_checks.isolation`)."""
    _ISOLATION.enter_context(without_local_constants())


def pytest_unconfigure(config):
    _ISOLATION.close()


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
        from proofs_checks.seeds import SEED_ENV

        seed = None if default_seeds else os.environ.get(SEED_ENV) or None
        key = (claim_id, seed)
        if key not in self._runs:
            shared = self.directory is not None and fcntl is not None
            self._runs[key] = self._shared(claim_id, seed) if shared else self._run(claim_id, seed)
        return self._runs[key]

    def result(self, claim_id: str):
        """The claim's :class:`proofs_checks.results.ClaimResult` against the reference FRED: what ``check()``
        returns, run once per session for every test file that reads it (an error is raised, not returned)."""
        outcome = self.outcome(claim_id)
        assert outcome.result is not None, f"{claim_id} gave no result against the reference: {outcome.reason}"
        return outcome.result

    @staticmethod
    def _run(claim_id: str, seed: str | None):
        from proofs_checks.comparison import run_against
        from proofs_checks.kit import fred_factory
        from proofs_checks.seeds import SEED_ENV

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
