"""Fixtures shared by the claim tests."""

from __future__ import annotations

import pytest

from proofs_checks.claims.transformer.neural_cases import minilm_setting


@pytest.fixture(scope="session")
def minilm():
    """The MiniLM classifier and its documents of the ``minilm-*`` claims; skips without the neural extra or the
    Restaurants file (the reason is the skip message)."""
    built, why = minilm_setting()
    if built is None:
        pytest.skip(why)
    return built
