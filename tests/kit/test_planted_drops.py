"""Planted wrong modifications of the drops and the threshold (proofs_checks/kit/planted.py): each fails exactly its set
of kit checks, and nothing errors.

The sets hold at the default seeds: the checks on generated black boxes draw their inputs from them, so the test
unsets ``FRED_STATISTICAL_SEED`` (a seed sweep re-draws those inputs; the reference must pass at every seed, which
tests/kit/test_kit*.py check, but a planted bug caught by one generated input need not be caught by another).
"""

from __future__ import annotations

import pytest

from proofs_checks.kit.planted import wrong
from tests._helpers import assert_fails_exactly

ENTRIES = wrong("drops")


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry.name for entry in ENTRIES])
def test_wrong_modification_fails_exactly_its_checks(entry, monkeypatch):
    """The released threshold eps f(xi), a drop not conditioned on the candidate, a drop conditioned on the rows
    perturbing the candidate only, an empty mean taken as 0, normalised importances: each is caught by exactly the
    checks listed for it (a missing failure means a check went blind, an extra one that a check blames the wrong
    property)."""
    assert_fails_exactly(entry, monkeypatch)
