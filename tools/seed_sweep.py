"""Re-run every statistical test and every statistical report step under many seeds.

    python tools/seed_sweep.py [--seeds 20] [--out FILE]

For s = 1 .. seeds, sets ``FRED_STATISTICAL_SEED=s`` (see :mod:`proofs_checks.statistics.seeds`), runs
``pytest -m statistical`` and the report's claims that have statistical steps. A test must pass under
every seed; a statistical report step must keep the status it has under the default seeds (a step may
fail by design: it then records a finding, e.g. that beam and exhaustive search disagree, and the sweep
checks that the finding does not hang on one seed). Each statistical check states a false-alarm
probability delta <= 1e-6, so a correct implementation trips the sweep with probability at most
(number of checks) * seeds * delta.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from fred.command_line import OneLineParser
from fred.markdown_tables import markdown_table

ROOT = Path(__file__).resolve().parents[1]


def _statistical_steps(env: dict, claims: list[str] | None = None) -> dict[str, str]:
    """Status of every statistical step of the report (of ``claims`` only, when given) under ``env``."""
    args = [sys.executable, "-m", "proofs_checks", "--json"] + (["--claims", *claims] if claims else [])
    report = json.loads(subprocess.run(args, cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout)
    return {s["id"]: s["status"] for c in report["claims"] for s in c["steps"] if s["evidence"] == "statistical"}


def run(seeds: int) -> list[list[object]]:
    default_env = {k: v for k, v in os.environ.items() if k != "FRED_STATISTICAL_SEED"}
    default = _statistical_steps(default_env)
    claims = sorted({step.split(".")[0] for step in default})
    rows = [["default", "", ", ".join(f"{k}: {v}" for k, v in default.items())]]
    for seed in range(1, seeds + 1):
        env = dict(os.environ, FRED_STATISTICAL_SEED=str(seed))
        tests = subprocess.run([sys.executable, "-m", "pytest", "-m", "statistical", "-q", "-p", "no:cacheprovider"],
                               cwd=ROOT, env=env, capture_output=True, text=True).stdout
        summary = re.findall(r"^(?:=+ )?(\d+ (?:passed|failed).*?)(?: in [\d.]+s.*)?$", tests, re.M)
        steps = _statistical_steps(env, claims)
        changed = [k for k in default if steps.get(k) != default[k]]
        rows.append([seed, summary[-1] if summary else tests.strip().splitlines()[-1],
                     f"{len(default) - len(changed)}/{len(default)} as with the default seeds"
                     + (f" (changed: {changed})" if changed else "")])
    return rows


def main() -> int:
    parser = OneLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--out", help="also write the Markdown table here")
    args = parser.parse_args()
    rows = run(args.seeds)
    table = markdown_table(["FRED_STATISTICAL_SEED", "pytest -m statistical", "statistical report steps (status)"],
                           rows)
    print(table)
    if args.out:
        Path(args.out).write_text(table + "\n")
    # a collection error is no pass: pytest prints "N errors" without "failed"
    failed = [r for r in rows[1:] if "failed" in str(r[1]) or "error" in str(r[1]) or "changed" in str(r[2])]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
