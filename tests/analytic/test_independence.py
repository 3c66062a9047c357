"""The referee is independent of what it referees: ``analytic`` never imports ``fred`` (nor the test-only
hypothesis)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ANALYTIC = Path(__file__).resolve().parents[2] / "analytic"


def test_importing_analytic_imports_neither_fred_nor_hypothesis():
    """Catches an import of the explainer (or of a test-only package) anywhere in analytic's import graph."""
    code = ("import sys, analytic; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'fred', 'hypothesis', 'proofs_checks'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_no_analytic_module_names_fred_in_an_import():
    """Catches a lazy ``import fred`` inside a function, which the import-graph test above cannot see."""
    pattern = re.compile(r"^\s*(from|import)\s+(fred|proofs_checks)\b", re.M)
    offenders = [p.name for p in ANALYTIC.glob("*.py") if pattern.search(p.read_text())]
    assert offenders == []
