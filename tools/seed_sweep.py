"""Re-run every statistical test and every statistical report step under many seeds.

    python tools/seed_sweep.py [--seeds 20] [--out FILE]

For s = 1 .. seeds, sets ``FRED_STATISTICAL_SEED=s`` (see :mod:`proofs_checks.seeds`), runs
``pytest -m statistical`` and the report's claims that have statistical steps, and counts failures.
Each statistical check states a false-alarm probability delta <= 1e-6, so a correct implementation
fails anywhere in the sweep with probability at most (number of checks) * seeds * delta.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from fred._markdown import markdown_table

ROOT = Path(__file__).resolve().parents[1]


def _statistical_claims() -> list[str]:
    out = subprocess.run([sys.executable, "-m", "proofs_checks", "--json"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    claims = json.loads(out)["claims"]
    return [c["id"] for c in claims if any(s["evidence"] == "statistical" for s in c["steps"])]


def run(seeds: int) -> list[list[object]]:
    claims = _statistical_claims()
    rows = []
    for seed in range(1, seeds + 1):
        env = dict(os.environ, FRED_STATISTICAL_SEED=str(seed))
        tests = subprocess.run([sys.executable, "-m", "pytest", "-m", "statistical", "-q", "-p", "no:cacheprovider"],
                               cwd=ROOT, env=env, capture_output=True, text=True).stdout
        summary = re.findall(r"^(?:=+ )?(\d+ (?:passed|failed).*?)(?: in [\d.]+s.*)?$", tests, re.M)
        report = json.loads(subprocess.run([sys.executable, "-m", "proofs_checks", "--json", "--claims", *claims],
                                           cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout)
        steps = [s for c in report["claims"] for s in c["steps"] if s["evidence"] == "statistical"]
        failing = [s["id"] for s in steps if s["status"] != "holds"]
        rows.append([seed, summary[-1] if summary else tests.strip().splitlines()[-1],
                     f"{len(steps) - len(failing)}/{len(steps)} hold" + (f" (failing: {failing})" if failing else "")])
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--out", help="also write the Markdown table here")
    args = parser.parse_args()
    rows = run(args.seeds)
    table = markdown_table(["FRED_STATISTICAL_SEED", "pytest -m statistical", "statistical report steps"], rows)
    print(table)
    if args.out:
        Path(args.out).write_text(table + "\n")
    failed = [r for r in rows if "failed" in str(r[1]) or "failing" in str(r[2])]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
