"""tools/kit_power.py, the kit's measured power: its Monte Carlo mode, one run's verdict and the table's counts."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from proofs_checks import get_tags
from proofs_checks.kit import monte_carlo_mode
from proofs_checks.kit.checks import harness
from proofs_checks.kit.planted import CATALOGUE

_SPEC = importlib.util.spec_from_file_location("kit_power", Path(__file__).parents[2] / "tools" / "kit_power.py")
kit_power = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(kit_power)
ENTRIES = {entry.name: entry for entry in CATALOGUE}


def test_monte_carlo_mode_never_builds_the_exact_explainer():
    """Catches the Monte Carlo mode still declaring (or building) the exact mode: its tags say exact=False and the
    explainer it builds is the factory's sampled one even when a check asks for exact=True."""
    calls = []

    def factory(classifier_fn, exact=False):
        calls.append(exact)
        return object()

    factory.fred_tags = get_tags(ENTRIES["toy_fred"].factory)
    wrapped = monte_carlo_mode(factory)
    assert get_tags(factory).exact and not get_tags(wrapped).exact
    wrapped(lambda texts: texts, exact=True)
    assert calls == [False]


@pytest.mark.parametrize("mode", kit_power.MODES)
def test_one_run_flags_a_wrong_entry_at_its_pinned_check(mode, monkeypatch):
    """Catches a run that does not count a failing check as a flag, or stops on a passing one: clamping p is
    flagged by check_invalid_p_is_refused in both modes, whatever the sweep seed."""
    monkeypatch.setenv("FRED_STATISTICAL_SEED", "0")
    assert kit_power.run_one("clipped_p", mode, 3) == ("clipped_p", mode, 3, True, "check_invalid_p_is_refused")


@pytest.mark.parametrize("seed_before", [None, "7"], ids=["unset", "set"])
def test_a_run_leaves_the_seed_and_shrinking_as_it_found_them(seed_before, monkeypatch):
    """Catches run_one leaking its sweep seed or its unshrunk mode into the process: every later kit check in a test
    worker then ran without shrinking (a verdict can depend on it: an error found while shrinking), at seed 3."""
    if seed_before is None:
        monkeypatch.delenv("FRED_STATISTICAL_SEED", raising=False)
    else:
        monkeypatch.setenv("FRED_STATISTICAL_SEED", seed_before)
    assert harness.SHRINK_FAILURES is True
    kit_power.run_one("clipped_p", "exact", 3)
    assert os.environ.get("FRED_STATISTICAL_SEED") == seed_before
    assert harness.SHRINK_FAILURES is True


def test_the_table_counts_flags_for_wrong_entries_and_passes_for_correct_ones():
    """Catches the table reporting flags of a correct entry as its passes (or the reverse), and a count below the
    target not being marked: 19/20 flags meets the target, 19/20 passes of a correct entry does not."""
    results = [("clipped_p", "exact", s, s != 0, "c") for s in range(20)]
    results += [("toy_fred", "Monte Carlo", s, s == 5, "c") for s in range(20)]
    table = kit_power.render(results, 20, 1.0)
    assert "| clipped_p | wrong | 19/20 | not run |" in table
    assert "| toy_fred | correct | not run | 19/20 **below target** |" in table
