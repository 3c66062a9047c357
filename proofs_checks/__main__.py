"""``python -m proofs_checks``: the claim report, the conformance kit, or the figures.

    python -m proofs_checks                       # text report of every claim
    python -m proofs_checks --json                # the same as JSON
    python -m proofs_checks --markdown REPORT.md  # also write the Markdown report (and REPORT.json beside it)
    python -m proofs_checks --claims lemma2 prop2-shortcut
    python -m proofs_checks --workers 2                 # each claim a task on a dask LocalCluster (same verdicts)
    python -m proofs_checks --explainer mypkg.mod:make_explainer   # the kit and every claim on your explainer
    python -m proofs_checks --explainer mypkg.mod:make_explainer --only claims --claims lemma1 prop2-shortcut
    python -m proofs_checks --explainer-cmd "python docs/examples/explainer_server.py" --only kit  # any language
    python -m proofs_checks plots --out figures/  # the figures (see python -m proofs_checks plots --help)

Exit status with --explainer: 0 when every kit check passes (or is not applicable, or fails as declared) and every
guarantee the reference keeps is kept; 1 when a check fails or errs, or such a guarantee is broken, not checked or
inconclusive; 2 on a usage error (a bad --explainer or --claims value), printed on one line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from fred.command_line import OneLineParser, usage_error
from fred.evaluation.factories import load_factory

from .claim_index import CLAIMS
from .comparison import compare
from .kit import check_explainer
from .report import run_claims
from .subject.protocol import ProtocolError, command_factory


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["plots"]:
        from .figures import (
            cli,  # here, not at the top: the figures need matplotlib (plots extra), the report not
        )

        return cli(argv[1:])
    parser = OneLineParser(prog="python -m proofs_checks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--markdown", metavar="FILE",
                        help="also write the report as Markdown to FILE, and as JSON beside it (FILE.json)")
    parser.add_argument("--claims", nargs="+", metavar="ID", help="only these claim ids")
    subject = parser.add_mutually_exclusive_group()
    subject.add_argument("--explainer", metavar="MODULE:FACTORY",
                         help="run the conformance kit and the claims on this factory, beside the reference FRED")
    subject.add_argument("--explainer-cmd", metavar="COMMAND",
                         help="as --explainer, on a server command speaking the JSON-lines protocol (docs/protocol.md)")
    parser.add_argument("--only", choices=("kit", "claims"), help="with --explainer: only the kit, or only the claims")
    parser.add_argument("--workers", type=int, default=0, metavar="N",
                        help="run the claims as tasks on a dask LocalCluster of N processes (default 0: in process)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="run the claims on this dask scheduler (tcp://HOST:PORT)")
    args = parser.parse_args(argv)
    unknown = [i for i in args.claims or () if i not in CLAIMS]
    if unknown:
        return usage_error(parser.prog, f"--claims: unknown id(s) {', '.join(unknown)}; known: {', '.join(CLAIMS)}")

    if args.explainer is not None:
        try:
            factory = load_factory(args.explainer)
        except (ValueError, TypeError) as err:
            return usage_error(parser.prog, f"--explainer: {err}")
        return _check_explainer(factory, args)
    if args.explainer_cmd is not None:  # an empty command is a usage error, not the claim report
        try:
            factory = command_factory(args.explainer_cmd)
        except (ProtocolError, ValueError, TypeError) as err:
            return usage_error(parser.prog, f"--explainer-cmd: {str(err).splitlines()[0]}")
        return _check_explainer(factory, args)

    report = run_claims(args.claims, workers=args.workers, scheduler=args.scheduler)
    print(report.to_json() if args.json else report.to_text())
    if args.markdown:
        markdown = Path(args.markdown)
        markdown.write_text(report.to_markdown())
        # The same results as JSON beside it (REPORT.json): the documentation site's claim pages are rendered from
        # them, and a test checks that they render this Markdown; without timings, it changes only with a result.
        markdown.with_suffix(".json").write_text(json.dumps(report.to_dict(timings=False), indent=1) + "\n")
    return 0


def _check_explainer(factory, args) -> int:
    """The kit's checks and the claims (reference beside ``factory``); exit status 1 when a kit check fails or
    errs, or a guarantee the reference keeps is broken or cannot be checked (see :mod:`proofs_checks.comparison`)."""
    kit = None if args.only == "claims" else check_explainer(factory)
    claims = None if args.only == "kit" else compare(factory, args.claims)
    ok = (kit is None or kit.ok) and (claims is None or claims.ok)
    if args.json:
        print(json.dumps({"ok": ok, "kit": None if kit is None else kit.to_dict(),
                          "claims": None if claims is None else claims.to_dict()}, indent=2))
    else:
        print("\n\n".join(str(part) if part is kit else part.to_text() for part in (kit, claims) if part is not None))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
