"""A claim's pieces are found by its id alone: the check module, its tests, and a row of docs/claims.md."""

from __future__ import annotations

import re
from pathlib import Path

from proofs_checks.claim_index import CLAIMS, MODULES
from proofs_checks.verdicts.results import KINDS

ROOT = Path(__file__).resolve().parents[2]


def _rows() -> dict[str, str]:
    text = (ROOT / "docs" / "claims.md").read_text()
    return {m.group(1): m.group(0) for m in re.finditer(r"^\| `([a-z0-9-]+)` \|.*$", text, re.M)}


def test_every_claim_has_a_check_module_and_tests_named_by_its_id():
    """Catches a claim whose check or tests live under another name (e.g. algorithm1-beam in beam_search.py)."""
    for claim_id, check in CLAIMS.items():
        stem = claim_id.replace("-", "_")
        family = MODULES[claim_id].__name__.split(".")[-2]
        assert check.__module__ == f"proofs_checks.claims.{family}.{stem}", (claim_id, check.__module__)
        assert (ROOT / "tests" / "claims" / f"test_{stem}.py").is_file(), claim_id


def test_claim_map_has_one_row_per_claim_and_every_file_it_names_exists():
    """Catches docs/claims.md going stale: a claim without a row, a row for no claim, or a path that moved."""
    rows = _rows()
    assert list(rows) == list(CLAIMS)
    folders = {"closed form": "analytic", "check": "proofs_checks/claims", "figure": "proofs_checks/figures",
               "notebook": "notebooks"}
    for claim_id, row in rows.items():
        cells = [c.strip() for c in row.strip("|").split("|")]
        _, kind, _, closed, check, figure, notebook, tests = cells
        assert kind in KINDS, (claim_id, kind)
        for kind, cell in zip(folders, (closed, check, figure, notebook)):
            for name in re.findall(r"`([a-z0-9_]+\.py)`", cell):
                assert (ROOT / folders[kind] / name).is_file(), (claim_id, kind, name)
        for path in re.findall(r"`(tests/[a-z0-9_/]+\.py)`", tests):
            assert (ROOT / path).is_file(), (claim_id, path)
        assert f"tests/claims/test_{claim_id.replace('-', '_')}.py" in tests, claim_id
