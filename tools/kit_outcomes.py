"""Every kit check's outcome on the reference explainer and on each planted modification, as JSON.

Issue 27 asks that a restructuring leave the kit's outcomes on every planted modification identical: run this
before and after (``PYTHONPATH=<other checkout> python tools/kit_outcomes.py > before.json``; a checkout from issue 39
on, where the catalogue is ``proofs_checks.kit.planted``) and compare the two
files with ``diff``. Statuses and messages are both recorded, so a changed tolerance or value shows too. Runs at
the default seeds (``FRED_STATISTICAL_SEED`` unset), the seeds the planted catalogue pins.

    python tools/kit_outcomes.py [--only NAME ...] [--checks CHECK ...] > outcomes.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys

os.environ.pop("FRED_STATISTICAL_SEED", None)  # the catalogue's pinned outcomes are those of the default seeds
from proofs_checks import check_explainer, fred_factory
from proofs_checks.kit.planted import CATALOGUE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="planted entries to run (default: all)")
    parser.add_argument("--checks", nargs="*", default=None, help="kit checks to run (default: all)")
    args = parser.parse_args(argv)
    entries = [("reference", fred_factory)] + [(e.name, e.factory) for e in CATALOGUE]
    out = {}
    for name, factory in entries:
        if args.only is not None and name not in args.only:
            continue
        out[name] = check_explainer(factory, checks=args.checks).to_dict()
        print(f"{name}: {out[name]['counts']}", file=sys.stderr)
    json.dump(out, sys.stdout, indent=1, sort_keys=True, default=str)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
