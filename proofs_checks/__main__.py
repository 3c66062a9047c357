"""``python -m proofs_checks``: the claim report, the conformance kit, or the figures.

    python -m proofs_checks                       # text report of every claim
    python -m proofs_checks --json                # the same as JSON
    python -m proofs_checks --markdown REPORT.md  # also write the Markdown report
    python -m proofs_checks --claims lemma2 prop2-shortcut
    python -m proofs_checks --explainer mypkg.mod:make_explainer   # run the kit on your explainer
    python -m proofs_checks plots --out figures/  # the figures (see python -m proofs_checks plots --help)
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path


def _load(spec: str):
    module, _, name = spec.partition(":")
    if not name:
        raise SystemExit(f"--explainer takes module:factory, got {spec!r}")
    return getattr(importlib.import_module(module), name)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["plots"]:
        from .figures import cli

        return cli(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m proofs_checks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="also write the report as Markdown to FILE")
    parser.add_argument("--claims", nargs="+", metavar="ID", help="only these claim ids")
    parser.add_argument("--explainer", metavar="MODULE:FACTORY", help="run the conformance kit on this factory")
    args = parser.parse_args(argv)

    if args.explainer:
        from .kit import check_explainer

        report = check_explainer(_load(args.explainer))
        print(report.to_dict() if args.json else report)
        return 0 if report.ok else 1

    from .report import run_claims

    report = run_claims(args.claims)
    print(report.to_json() if args.json else report.to_text())
    if args.markdown:
        Path(args.markdown).write_text(report.to_markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())
