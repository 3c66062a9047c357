"""tools/verdict_diff.py: the audit's before -> after table is read from the two reports, never typed."""

from __future__ import annotations

from ._helpers import load_tool

verdict_diff = load_tool("verdict_diff")


def _claim(claim: str, verdict: str, steps: dict[str, str], corrected: str | None = None) -> dict:
    return {"id": claim, "verdict": verdict, "corrected_status": corrected,
            "steps": [{"id": f"{claim}.{step}", "status": status} for step, status in steps.items()]}


BEFORE = {"claims": [_claim("a", "holds", {"s1": "holds", "s2": "holds"}), _claim("gone", "fails", {"s1": "fails"}),
                     _claim("b", "fails", {"s1": "fails"}, corrected="argued")]}
SAME = _claim("same", "holds", {"s1": "holds"})
BEFORE["claims"].append(SAME)
AFTER = {"claims": [SAME, _claim("b", "fails", {"s1": "fails"}, corrected="holds"),
                    _claim("a", "inconclusive", {"s2": "inconclusive", "s3": "holds"}),
                    _claim("new", "holds", {"s1": "holds"})]}


def test_every_claim_of_either_report_has_its_row_with_the_changes_it_saw():
    """Catches a claim dropped from the table (removed or new), a changed corrected statement shown as unchanged,
    and a removed or added step left out of the changes: each row is checked against the planted reports by hand."""
    assert verdict_diff.rows(BEFORE, AFTER) == [
        ("same", "holds", "holds", []),
        ("b", "fails (corrected: argued)", "fails (corrected: holds)", []),
        ("a", "holds", "inconclusive", ["a.s2: holds → inconclusive", "a.s3: – → holds", "a.s1: holds → –"]),
        ("new", "–", "holds", ["new.s1: – → holds"]),
        ("gone", "fails", "–", ["gone.s1: fails → –"]),
    ]


def test_a_changed_headline_is_bold_and_an_unchanged_one_is_not():
    """Catches a table that marks every row (or none) as changed."""
    same, b, a = verdict_diff.table(BEFORE, AFTER).splitlines()[2:5]
    assert same == "| same | holds | holds | none |"
    assert a.startswith("| a | holds | **inconclusive** |") and b.startswith("| b | fails (corrected: argued) | **")
