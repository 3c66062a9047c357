"""proofs_checks/REPORT.json, the report's results beside REPORT.md: the documentation site's claim pages are
rendered from it (docs/_ext/fred_docs/claim_pages.py), so it must say exactly what REPORT.md says."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from proofs_checks.__main__ import main
from proofs_checks.report import Report

REPORT_DIR = Path(__file__).resolve().parents[2] / "proofs_checks"


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads((REPORT_DIR / "REPORT.json").read_text(encoding="utf-8"))


def test_report_json_renders_report_md(committed):
    """Catches REPORT.md regenerated (or edited) without REPORT.json, or the reverse: the site's claim pages would
    then disagree with REPORT.md. Rebuilt from the JSON, the report renders REPORT.md byte for byte."""
    report = Report.from_dict(committed)
    assert report.to_markdown() == (REPORT_DIR / "REPORT.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("edit", ["verdict", "step status", "summary"])
def test_a_verdict_edited_by_hand_is_refused(committed, edit):
    """Catches a from_dict that trusts the verdicts written in the file instead of recomputing them from the steps
    by the rule: a claim page could then show a verdict its steps do not give."""
    data = copy.deepcopy(committed)
    claim = next(c for c in data["claims"] if c["status"] == "fails")
    if edit == "verdict":
        claim["status"], claim["verdict"] = "holds", "holds"
    elif edit == "step status":
        step = next(s for s in claim["steps"] if s["status"] == "fails" and s["role"] == "statement")
        step["status"] = "holds"
    else:
        data["summary"]["steps"] += 1
    with pytest.raises(ValueError):
        Report.from_dict(data)


def test_markdown_option_writes_the_json_beside_it(tmp_path, capsys):
    """Catches ``--markdown FILE`` writing the Markdown alone (REPORT.json then goes stale at the next regeneration)
    or a JSON that is not the same run: FILE.json rebuilds FILE's Markdown."""
    markdown = tmp_path / "R.md"
    assert main(["--claims", "experiment-proportion-matching", "metric-sufficiency", "--markdown", str(markdown)]) == 0
    capsys.readouterr()
    written = json.loads(markdown.with_suffix(".json").read_text(encoding="utf-8"))
    assert "seconds_per_claim" not in written["environment"]
    assert [c["id"] for c in written["claims"]] == ["experiment-proportion-matching", "metric-sufficiency"]
    assert Report.from_dict(written).to_markdown() == markdown.read_text(encoding="utf-8")
