"""What a plain install carries (issue 28, item 1), checked without building: pyproject.toml's package list and
package data against the checkout, and the comparison tools/wheel_check.py makes (which builds the wheel, installs it
in a clean venv and runs the report; ``.ci/run`` runs it)."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

import pytest

from proofs_checks.claims.transformer.neural_cases import minilm_setting
from proofs_checks.paper.baselines import EVAL_EXTRA
from proofs_checks.verdicts.quotes import paper_lines
from tests._helpers import load_tool

ROOT = Path(__file__).resolve().parents[1]
CODE = ("fred_constants", "fred", "analytic", "proofs_checks")
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


wheel_check = load_tool("wheel_check")


def test_every_package_of_the_checkout_is_listed():
    """The wheel's package list (written out, since setuptools' find cannot rename results/) is every directory of
    the code packages with an __init__.py, plus the results' data package mapped to results/. Catches a new
    subpackage that a plain install would silently lack (its imports would fail only outside the checkout)."""
    found = {str(p.parent.relative_to(ROOT)).replace("/", ".") for package in CODE
             for p in (ROOT / package).rglob("__init__.py")}
    assert sorted(SETUPTOOLS["packages"]) == sorted(found | {"fred_results"})
    assert SETUPTOOLS["package-dir"] == {"fred_results": "results"}
    assert (ROOT / "results" / "__init__.py").is_file()


def test_every_committed_result_file_ships():
    """Each file of results/ matches a package-data pattern of fred_results. Catches a kind of result file (a new
    suffix) committed for the claims but left out of the wheel, which would turn their verdicts in a plain
    install."""
    patterns = SETUPTOOLS["package-data"]["fred_results"]
    files = [p.name for p in (ROOT / "results").iterdir() if p.is_file() and p.suffix != ".py"]
    assert files
    assert [f for f in files if not any(fnmatch.fnmatch(f, pattern) for pattern in patterns)] == []


def test_the_summary_table_of_the_committed_report_is_read_whole():
    """wheel_check reads one row per claim of REPORT.md: as many as the report has claim sections, with the
    verdicts the sections state. Catches a parser that stops early, splits a cell at an escaped '|', or keeps the
    Markdown link instead of the claim id."""
    text = (ROOT / "proofs_checks" / "REPORT.md").read_text()
    rows = wheel_check.summary_rows(text)
    sections = dict(re.findall(r"^## ([a-z0-9-]+)\n\n\*\*Kind: [^.]+\. Verdict: ([^*]+)\.\*\*", text, re.M))
    assert {claim: row["verdict"].strip("*") for claim, row in rows.items()} == sections


def _claim(claim_id: str, note: str = "computed", status: str = "argued") -> dict:
    evidence = "argument" if status == "argued" else "statistical"
    return {"id": claim_id, "steps": [{"evidence": evidence, "status": status, "note": note}]}


ROW = {"verdict": "**holds**", "other readings": "–", "corrected or precise statement": "–"}
UNPROVED = {**ROW, "verdict": "**unproved**"}
INCONCLUSIVE = {**ROW, "verdict": "**inconclusive**"}


@pytest.mark.parametrize("claim, found, note, ok", [
    ("lemma2", ROW, "computed", True),
    ("lemma2", UNPROVED, "computed", False),  # a verdict turned with every input shipped
    ("lemma2", UNPROVED, "Not run: $FRED_AUTHORS_CHECKOUT is not set", True),  # says which input is absent
    ("minilm-lemma1", UNPROVED, "Not run here: ... set FRED_DATA_DIR ...", True),
    ("minilm-lemma1", ROW, "computed", False),  # reads the reviews, yet does not say they are absent
    ("lemma2", None, "computed", False),  # a claim lost by the installed package
    ("baseline-lime", INCONCLUSIVE, f"Not run here: lime is not installed ({EVAL_EXTRA})", True),
    ("baseline-lime", INCONCLUSIVE, "computed", False),  # inconclusive without saying a package is absent
])
def test_a_claim_may_differ_only_where_it_says_an_input_is_absent(claim, found, note, ok):
    """wheel_check's rule (its docstring, step 5) on one claim. Catches a differing verdict accepted without a
    stated reason, a claim that needs unshipped data and stays silent about it, a claim whose package step could
    not run in the core install yet does not name the extra, and a claim missing from the installed run passing
    unnoticed."""
    found_rows = {} if found is None else {claim: found}
    status = "inconclusive" if found is INCONCLUSIVE else "argued"
    (outcome,) = wheel_check.compare({claim: ROW}, found_rows, {claim: _claim(claim, note, status)})
    assert outcome.ok is ok, outcome


def test_a_claim_on_the_reviews_says_which_file_and_variable_when_they_are_absent(tmp_path, monkeypatch):
    """The reviews do not ship: with $FRED_DATA_DIR at an empty folder, the MiniLM claims' reason names the file,
    that it is not shipped, and the variable to set (the words wheel_check looks for). Catches a reason that
    names neither, so that a plain install's 'unproved' could not be told from a failure."""
    monkeypatch.setenv("FRED_DATA_DIR", str(tmp_path))
    setting, why = minilm_setting.__wrapped__()  # past the per-process cache
    assert setting is None
    assert all(words in why for words in ("restaurants.tsv", "not shipped", "FRED_DATA_DIR")), why


def test_the_paper_when_absent_is_named_with_its_variable(tmp_path, monkeypatch):
    """The paper does not ship: with $FRED_PAPER at a missing file, the error names fred-paper.tex, that it is not
    shipped, and $FRED_PAPER. Catches a message pointing only at a checkout path that an installed package does
    not have."""
    monkeypatch.setenv("FRED_PAPER", str(tmp_path / "absent.tex"))
    with pytest.raises(FileNotFoundError) as error:
        paper_lines()
    assert all(words in str(error.value) for words in ("fred-paper.tex", "not shipped", "FRED_PAPER")), error.value

