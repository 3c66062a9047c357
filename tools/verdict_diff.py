"""Headline verdicts before and after, with the steps whose status changed: the audit's "before -> after" table.

Usage: ``python tools/verdict_diff.py BEFORE.json AFTER.json`` (two ``python -m proofs_checks --json`` reports) prints
a markdown table, one row per claim in the after report's order (then the claims only the before report has): the
headline verdict and the corrected statement's verdict in each, and the steps whose status changed, were added or
were removed. Nothing is typed: every cell is read from the two reports.
"""

from __future__ import annotations

import json
import sys

from fred.command_line import OneLineParser
from fred.markdown_tables import markdown_table


def _claims(report: dict) -> dict[str, dict]:
    return {claim["id"]: claim for claim in report["claims"]}


def _steps(claim: dict | None) -> dict[str, str]:
    return {} if claim is None else {step["id"]: step["status"] for step in claim["steps"]}


def _verdict(claim: dict | None) -> str:
    if claim is None:
        return "–"
    corrected = claim.get("corrected_status")
    return claim["verdict"] + (f" (corrected: {corrected})" if corrected else "")


def step_changes(before: dict | None, after: dict | None) -> list[str]:
    """The steps whose status differs between two versions of one claim, as ``id: before -> after`` (``–`` when a
    step exists in one version only), in the after version's order, then the removed ones."""
    old, new = _steps(before), _steps(after)
    changed = [f"{step}: {old.get(step, '–')} → {status}" for step, status in new.items() if old.get(step) != status]
    return changed + [f"{step}: {status} → –" for step, status in old.items() if step not in new]


def rows(before: dict, after: dict) -> list[tuple[str, str, str, list[str]]]:
    """(claim id, verdict before, verdict after, step changes) for every claim of either report."""
    old, new = _claims(before), _claims(after)
    ids = list(new) + [claim for claim in old if claim not in new]
    return [(claim, _verdict(old.get(claim)), _verdict(new.get(claim)), step_changes(old.get(claim), new.get(claim)))
            for claim in ids]


def table(before: dict, after: dict) -> str:
    """The markdown table of :func:`rows`; a changed headline is marked in bold."""
    return markdown_table(["claim", "before", "after", "steps whose status changed"],
                          [[claim, old, f"**{new}**" if new != old else new, "; ".join(changes) or "none"]
                           for claim, old, new, changes in rows(before, after)])


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the earlier report (python -m proofs_checks --json)")
    parser.add_argument("after", help="the later report")
    args = parser.parse_args(argv)
    with open(args.before, encoding="utf-8") as old, open(args.after, encoding="utf-8") as new:
        print(table(json.load(old), json.load(new)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
