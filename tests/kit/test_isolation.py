"""The kit draws the same examples whatever else is loaded (issue 28, item 5; proofs_checks/statistics/isolation.py).

Hypothesis mixes the literals of every loaded local module into its draws; the kit switches that off for its own
draws. The first test shows the workaround still works on the whole kit (outcomes byte-identical in a subprocess
that first imports modules full of odd literals and in one that does not), the second that it is still needed and still the right
internal: without it, the same modules change the kit's draws. If hypothesis drops local constants or moves them
elsewhere, the second test fails and the workaround must be revisited.
"""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis.internal.conjecture import providers

from proofs_checks.statistics import isolation
from proofs_checks.claim_index import CLAIMS
from proofs_checks.comparison import run_against
from proofs_checks.kit import ExplainerTags, fred_factory
from proofs_checks.kit.checks import harness
from proofs_checks.report import run_claims

ROOT = Path(__file__).parents[2]
#: One wrong entry and one generated check: its failure message shows the example hypothesis found.
OUTCOMES = [sys.executable, str(ROOT / "tools" / "kit_outcomes.py"), "--only", "unconditioned_drop",
            "--checks", "check_found_matches_the_threshold"]


def _odd_modules(directory: Path) -> list[str]:
    """Three modules of 1,000 literals each in the ranges the kit draws from (floats in (0, 1), short words)."""
    rng = random.Random(1)
    names = []
    for k in range(3):
        values = [round(rng.uniform(0.02, 0.98), 7) for _ in range(500)]
        values += ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 6)))
                   for _ in range(500)]
        (directory / f"odd_literals{k}.py").write_text("VALUES = [\n" + ",\n".join(map(repr, values)) + "]\n")
        names.append(f"odd_literals{k}")
    return names


def _outcomes(directory: Path, preload: list[str]) -> bytes:
    code = (f"import sys; sys.path.insert(0, {str(directory)!r}); "
            + "".join(f"import {name}; " for name in preload)
            + f"sys.argv = {OUTCOMES[1:]!r}; import runpy; runpy.run_path(sys.argv[0], run_name='__main__')")
    env = {k: v for k, v in os.environ.items() if k != "FRED_STATISTICAL_SEED"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, cwd=ROOT, timeout=120,
                          check=True)
    return done.stdout


def test_kit_outcomes_are_byte_identical_whatever_is_imported(tmp_path):
    """Catches the kit's draws depending on the loaded modules (the command line and the API loading different
    ones gave different verdicts): the outcomes JSON of a generated check must not change when modules of odd
    literals are imported first."""
    names = _odd_modules(tmp_path)
    plain = _outcomes(tmp_path, [])
    assert b"unconditioned_drop" in plain
    assert _outcomes(tmp_path, names) == plain


def _draws(seed: int) -> list[str]:
    """Hypothesis' own draws (no replayed record: the test is about what hypothesis generates)."""
    harness.forget_replays()
    drawn: list[str] = []
    harness.for_all(harness.problems(ExplainerTags(exact=True)), lambda example, delta: drawn.append(repr(example)),
                    shrink=False, seed=seed, examples=40)
    return drawn


def test_without_the_workaround_loaded_literals_change_the_draws(tmp_path, monkeypatch):
    """Catches hypothesis changing under the workaround: with hypothesis' own collector the same seed draws other
    problems once modules of odd literals are loaded (so the patch is needed and replaces the right function);
    with the patch the draws are unchanged by the same loading."""
    assert isolation.PATCHABLE, "hypothesis no longer has the internals isolation.py replaces: revisit it"
    monkeypatch.syspath_prepend(str(tmp_path))
    names = _odd_modules(tmp_path)
    for name in names:
        monkeypatch.delitem(sys.modules, name, raising=False)
    patched_before = _draws(11)
    monkeypatch.setattr(harness, "without_local_constants", contextlib.nullcontext)
    monkeypatch.setattr(providers, "_get_local_constants", isolation.HYPOTHESIS_LOCAL_CONSTANTS)
    providers.CONSTANTS_CACHE.cache.clear()
    unpatched_before = _draws(11)
    for name in names:
        __import__(name)
    try:
        assert _draws(11) != unpatched_before
    finally:
        monkeypatch.undo()
        providers.CONSTANTS_CACHE.cache.clear()
    assert _draws(11) == patched_before


class _Seen(Exception):
    """Raised by the probe claim once it has recorded the collector in force."""


@pytest.mark.parametrize("runner", ["report", "comparison"])
def test_every_claim_runs_without_local_constants(runner, monkeypatch):
    """A claim run by the report (``run_claims``) or against an explainer (``run_against``) sees hypothesis' local
    constants switched off, and the collector in force before is back afterwards. Catches a claim runner that leaves
    the claims' hypothesis searches depending on the loaded modules (the command line and the tests load others)."""
    seen = []

    def probe():
        seen.append(providers._get_local_constants)
        raise _Seen

    monkeypatch.setitem(CLAIMS, "probe", probe)
    monkeypatch.setattr(providers, "_get_local_constants", isolation.HYPOTHESIS_LOCAL_CONSTANTS)
    if runner == "report":
        with pytest.raises(_Seen):
            run_claims(["probe"])
    else:
        (outcome,) = run_against(fred_factory, ["probe"])
        assert outcome.outcome == "error" and "_Seen" in outcome.reason
    (collector,) = seen
    assert collector is not isolation.HYPOTHESIS_LOCAL_CONSTANTS and collector() == providers.Constants()
    assert providers._get_local_constants is isolation.HYPOTHESIS_LOCAL_CONSTANTS
