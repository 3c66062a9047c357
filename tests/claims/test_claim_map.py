"""A claim's pieces are found by its id alone: the check module, its tests, and its row of the claim map, which the
site derives from the code and REPORT.json (docs/_ext/fred_docs/claim_map.py) rather than a hand-kept table."""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path

import pytest

from proofs_checks.claim_index import CLAIMS, MODULES

ROOT = Path(__file__).resolve().parents[2]


def _rows():
    """The claim map's rows, as the site's build derives them from the committed REPORT.json."""
    pytest.importorskip("sphinx", reason="the claim map is the site's (the docs extra)")
    if str(ROOT / "docs" / "_ext") not in sys.path:
        sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    from fred_docs.claim_map import claim_rows

    from proofs_checks.report import Report

    report = Report.from_dict(json.loads((ROOT / "proofs_checks" / "REPORT.json").read_text(encoding="utf-8")))
    return claim_rows(ROOT, report)


def test_every_claim_has_a_check_module_and_tests_named_by_its_id():
    """Catches a claim whose check or tests live under another name (e.g. algorithm1-beam in beam_search.py)."""
    for claim_id, check in CLAIMS.items():
        stem = claim_id.replace("-", "_")
        family = MODULES[claim_id].__name__.split(".")[-2]
        assert check.__module__ == f"proofs_checks.claims.{family}.{stem}", (claim_id, check.__module__)
        assert (ROOT / "tests" / "claims" / f"test_{stem}.py").is_file(), claim_id


def test_the_claim_map_has_one_row_per_claim_and_every_file_it_names_exists():
    """Catches the map's derivation naming a file that is not there (a module path built wrongly from an import, a
    test file assumed from a name, a notebook of no figure) or losing a claim of the report."""
    rows = _rows()
    assert sorted(row.id for row in rows) == sorted(CLAIMS)
    for row in rows:
        missing = [path for path in row.paths() if not (ROOT / path).is_file()]
        assert not missing, (row.id, missing)
        assert row.tests[0] == f"tests/claims/test_{row.id.replace('-', '_')}.py", row.id


def test_every_figure_draws_claims_of_the_report_and_has_its_notebook():
    """Catches a figure whose ``CLAIM_IDS`` names no claim (a typo, a renamed claim: the figure would vanish from
    every page), and a figure without its notebook or a notebook of no figure (the map would show no notebook)."""
    pytest.importorskip("matplotlib")
    from proofs_checks.figures.gallery import FIGURES

    for name in FIGURES:
        claim_ids = importlib.import_module(f"proofs_checks.figures.{name}").CLAIM_IDS
        assert isinstance(claim_ids, frozenset) and set(claim_ids) <= set(CLAIMS), (name, claim_ids)
    assert sorted(FIGURES) == sorted(p.stem for p in (ROOT / "notebooks").glob("*.py"))


def test_every_path_the_claim_map_introduction_names_exists():
    """Catches docs/claims.md (the map's hand-written introduction: kinds, shared pieces) naming a file that moved,
    as the flat ``proofs_checks/claims/<id>.py`` did when the claims went into family folders."""
    text = (ROOT / "docs" / "claims.md").read_text(encoding="utf-8")
    paths = re.findall(r"`((?:analytic|proofs_checks|tests|fred|notebooks)/[\w/]+\.py)`", text)
    assert "proofs_checks/verdicts/quotes.py" in paths
    assert [p for p in paths if not (ROOT / p).is_file()] == []
