"""The authors' released code under the kit: the outcomes recorded in docs/authors_code.md, check by check.

Runs a checkout of github gianluigilopardo/fred named by $FRED_AUTHORS_CHECKOUT (skipped when unset or absent).
The released code seeds numpy once at import (42) and the factory starts a fresh process, so the outcomes are
reproducible; they are those of the kit's default seeds (FRED_STATISTICAL_SEED is unset for the run).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from proofs_checks import authors_factory, check_explainer
from proofs_checks.kit import CHECKS
from proofs_checks.statistics.seeds import SEED_ENV
from proofs_checks.subject.authors import CHECKOUT_ENV

DOC = Path(__file__).parents[2] / "docs" / "authors_code.md"
CHECKOUT = os.environ.get(CHECKOUT_ENV, "")


def documented_outcomes() -> dict[str, str]:
    """check name -> outcome, from the table of docs/authors_code.md."""
    rows = re.findall(r"^\| `(check_\w+)` \| (\w+) \|", DOC.read_text(), flags=re.M)
    return dict(rows)


def test_the_document_lists_every_check_once():
    """The document stays in step with the kit: one row per check, no stale names."""
    rows = re.findall(r"^\| `(check_\w+)` \|", DOC.read_text(), flags=re.M)
    assert sorted(rows) == sorted(c.__name__ for c in CHECKS)


@pytest.mark.statistical
@pytest.mark.skipif(not CHECKOUT or not (Path(CHECKOUT) / "fred" / "explainer.py").is_file(),
                    reason=f"set {CHECKOUT_ENV} to a checkout of github gianluigilopardo/fred")
def test_released_code_gives_the_documented_outcomes(monkeypatch):
    """Each check's outcome on the released code is the documented one (the document's "why" column explains it):
    catches an adapter that validates on the code's behalf, drops p or n_samples, misreads positions, and a
    document gone stale. Statistical checks keep their false-alarm probability DELTA = 1e-6 each."""
    monkeypatch.delenv(SEED_ENV, raising=False)
    report = check_explainer(authors_factory(checkout=CHECKOUT))
    assert report.status() == documented_outcomes(), str(report)
