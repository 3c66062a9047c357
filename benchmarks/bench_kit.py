"""The conformance kit and the claims for a CI: seconds of the kit on one explainer, in exact and in Monte Carlo mode,
and of the full kit-and-claims run (issue 28, item 8).

Each row is a fresh interpreter (``python -m proofs_checks ...`` or this script's ``--one`` mode), timed from the
outside, so the seconds include the imports a CI pays:

* kit, exact mode: ``check_explainer(factory)`` with the factory's own tags (the reference declares exact mode);
* kit, Monte Carlo mode: the same factory through :func:`proofs_checks.kit.monte_carlo_mode` (tags with
  ``exact=False``, so every check runs its Monte Carlo variant);
* kit and claims: ``python -m proofs_checks --explainer FACTORY`` (the kit, then every claim against the reference
  FRED and against the factory).

Targets on a 2-core machine: the kit at most 30 s, the full run at most 3 min. Prints one Markdown table.

Usage::

    python benchmarks/bench_kit.py [--explainer proofs_checks:fred_factory] [--skip-full] [--append FILE] [--note TEXT]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from fred.command_line import OneLineParser
from _common import emit, provenance

from fred.evaluation.factories import load_factory
from fred.markdown_tables import markdown_table
from proofs_checks.kit import check_explainer, monte_carlo_mode

#: Seconds each row must stay under (issue 28, item 8).
TARGETS = {"kit, exact mode": 30.0, "kit, Monte Carlo mode": 30.0, "kit and claims": 180.0}


def one(explainer: str, mode: str) -> int:
    """The kit on ``explainer`` in ``mode`` ("exact" or "monte-carlo") in this interpreter; exit 0 when it passes."""
    factory = load_factory(explainer)
    report = check_explainer(factory if mode == "exact" else monte_carlo_mode(factory))
    print(dict(report.counts()))
    return 0 if report.ok else 1


def timed(command: list[str]) -> tuple[float, int]:
    """Wall seconds and exit status of ``command``, its output discarded."""
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return time.perf_counter() - start, done.returncode


def main() -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--explainer", default="proofs_checks:fred_factory", metavar="MODULE:FACTORY")
    parser.add_argument("--skip-full", action="store_true", help="time the kit only")
    parser.add_argument("--one", choices=("exact", "monte-carlo"), help=argparse.SUPPRESS)
    parser.add_argument("--append", metavar="FILE", help="also append the table to FILE")
    parser.add_argument("--note", default="")
    args = parser.parse_args()
    if args.one:
        sys.exit(one(args.explainer, args.one))
    here = [sys.executable, __file__, "--explainer", args.explainer, "--one"]
    commands = {"kit, exact mode": here + ["exact"], "kit, Monte Carlo mode": here + ["monte-carlo"]}
    if not args.skip_full:
        commands["kit and claims"] = [sys.executable, "-m", "proofs_checks", "--explainer", args.explainer]
    rows = []
    for name, command in commands.items():
        seconds, status = timed(command)
        target = TARGETS[name]
        rows.append([name, f"{seconds:.1f}", f"{target:.0f}", "met" if seconds <= target else "NOT met",
                     "passes" if status == 0 else f"exit {status}"])
    table = markdown_table(["run", "seconds", "target (s)", "target", "outcome"], rows)
    emit("\n".join([table, "", *provenance(args.note)]), args.append, "a", f"## The kit for a CI ({args.explainer})")


if __name__ == "__main__":
    main()
