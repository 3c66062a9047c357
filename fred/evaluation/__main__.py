"""CLI: ``python -m fred.evaluation --dataset restaurants --model logistic --explainers fred,lime,shap,anchor``.

Each document is one task: by default on a dask LocalCluster with one single-threaded worker process per core
(in this process for fewer than 20 pending documents, where starting the cluster costs more than it saves);
``--workers N`` sizes it, ``--workers 0`` runs in this process, ``--scheduler tcp://HOST:PORT`` uses a running
cluster (start its workers with ``--nthreads 1``). Rows are appended to ``OUT/<stem>.csv`` as documents
complete (``OUT`` by default the committed results, ``results/`` in a checkout, where the experiment claims read);
the same command run again resumes (finished documents are skipped); ``--restart`` starts over.
Ctrl-C (SIGINT) or SIGTERM stops a run, on a cluster too: the rows of finished documents stay in the CSV and the
session is recorded as interrupted. A process started with ``&`` from a non-interactive shell ignores SIGINT
(POSIX); stop it with SIGTERM.
The authors' setting is ``--n-samples 5000 --search released-beam --min-tokens 4 --k-from fredpos --baseline
original`` (what each changes: ``--help``).
``--explainers fred,mine=pkg.module:make_explainer`` runs a conformance-kit factory beside FRED on the same
documents, with the paired tests (:mod:`fred.evaluation.factories`); a bad ``NAME=module:factory`` exits 2 with
one line.
"""

from __future__ import annotations

import argparse
import shlex
import signal
import sys
from dataclasses import fields

from fred_constants import (
    ALPHA,
    BASELINES,
    MAX_LEN,
    RELEASED_EXTENSIONS,
    RELEASED_N_SAMPLES,
    RELEASED_WIDTH,
    SEARCHES,
)

from ..search import DEFAULT_MAX_CANDIDATES
from .config import K_FROM, RESULTS_PACKAGE, RunConfig, results_dir
from .datasets import DATASETS
from .execution import SMALL_RUN
from .explainers import EXPLAINERS
from .factories import load_factory, parse_factory
from .models import MODELS
from .runner import run
from fred.command_line import OneLineParser, usage_error

PROG = "python -m fred.evaluation"

#: The options' defaults are RunConfig's.
DEFAULTS = {f.name: f.default for f in fields(RunConfig)}


def _load(spec: str) -> None:
    """Load the factory ``NAME=module:factory`` names; ValueError (a usage error) naming the spec otherwise."""
    target = parse_factory(spec)[1]
    try:
        load_factory(target)
    except (ValueError, TypeError) as error:
        raise ValueError(f"factory {target!r}: {error}") from None


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = OneLineParser(prog=PROG, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dataset", choices=DATASETS, required=True)
    parser.add_argument("--model", choices=MODELS, required=True)
    parser.add_argument("--explainers", default="fred,lime,shap,anchor",
                        help=f"comma-separated subset of {','.join(EXPLAINERS)}, and explainers from outside as "
                             "NAME=module:factory (a conformance-kit factory, run beside FRED with the paired tests; "
                             "see fred.evaluation.factories)")
    parser.add_argument("--n-docs", type=int, default=DEFAULTS["n_docs"])
    parser.add_argument("--p", type=float, default=DEFAULTS["p"])
    parser.add_argument("--eps", type=float, default=DEFAULTS["eps"])
    parser.add_argument("--k-robust", type=int, default=DEFAULTS["k_robust"],
                        help="re-runs per document for robustness (0: skip)")
    parser.add_argument("--seed", type=int, default=DEFAULTS["seed"],
                        help="split, model and, with each document's test index, the explainers' seeds")
    parser.add_argument("--n-samples", type=int, default=DEFAULTS["n_samples"],
                        help=f"FRED's samples per explanation; default Lemma 2's sample_size({ALPHA}, p, "
                             f"min({MAX_LEN}, b)) (766 for 8 tokens, 47 for 4 at p=0.5); the authors fix "
                             f"{RELEASED_N_SAMPLES}")
    parser.add_argument("--search", choices=SEARCHES, default=DEFAULTS["search"],
                        help=f"FRED's search: auto (Algorithm 1 up to {DEFAULT_MAX_CANDIDATES} candidates, else a "
                             f"width-{RELEASED_WIDTH} beam), exhaustive, beam, or released-beam (the authors' released "
                             f"beam: each of the {RELEASED_WIDTH} kept candidates extended only by the "
                             f"{RELEASED_EXTENSIONS} tokens of largest singleton drop outside it)")
    parser.add_argument("--min-tokens", type=int, default=DEFAULTS["min_tokens"],
                        help="leave out documents of fewer tokens before taking the first --n-docs; the "
                             "authors' main.py drops documents of 3 tokens or fewer (--min-tokens 4)")
    parser.add_argument("--lime-samples", type=int, default=DEFAULTS["lime_samples"])
    parser.add_argument("--k-from", choices=K_FROM, default=DEFAULTS["k_from"],
                        help="LIME and SHAP return as many tokens as this explainer's explanation of the same "
                             "document; the authors' code takes FRED-pos's (fredpos)")
    parser.add_argument("--baseline", choices=BASELINES, default=DEFAULTS["baseline"],
                        help="FRED's drop baseline: mean (paper, threshold eps*E[f]) or original (authors' code, "
                             "threshold eps*f(xi))")
    parser.add_argument("--data-dir", default=DEFAULTS["data_dir"], help="directory of restaurants.tsv and yelp.csv")
    parser.add_argument("--out", default=None,
                        help="directory of the run's files (default: the committed results, the data package "
                             f"{RESULTS_PACKAGE}, i.e. results/ in a checkout, where the experiment claims read them)")
    parser.add_argument("--workers", type=int, default=None,
                        help="size of the LocalCluster (default: one worker process per core, or in this process "
                             f"for fewer than {SMALL_RUN} pending documents); 0: in this process")
    parser.add_argument("--scheduler", default=None, help="address of a running dask scheduler, tcp://HOST:PORT")
    parser.add_argument("--restart", action="store_true",
                        help="discard the files of a previous run of this configuration instead of resuming it")
    return parser.parse_args(argv)


def _exit_on_sigterm(signum, frame):
    # SystemExit unwinds through run()'s finally, which records the interrupted session; the default
    # SIGTERM action would end the process before it.
    sys.exit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    items = [e.strip() for e in args.explainers.split(",") if e.strip()]
    factories = tuple(e for e in items if "=" in e)
    try:
        for spec in factories:  # a bad factory is a usage error now, not a failure in the middle of the run
            _load(spec)
        config = _config(args, argv, tuple(e.partition("=")[0] for e in items), factories)
    except ValueError as error:  # a factory, or an option RunConfig refuses
        return usage_error(PROG, str(error))
    out = args.out if args.out is not None else results_dir()
    result = run(config, out, workers=args.workers, scheduler=args.scheduler, restart=args.restart)
    print(result.md_path.read_text(encoding="utf-8"))
    print(f"wrote {result.csv_path} and {result.md_path}")
    return 0


def _config(args: argparse.Namespace, argv: list[str], explainers: tuple[str, ...],
            factories: tuple[str, ...]) -> RunConfig:
    return RunConfig(dataset=args.dataset, model=args.model, explainers=explainers, factories=factories,
                     n_docs=args.n_docs, p=args.p, eps=args.eps, k_robust=args.k_robust, seed=args.seed,
                     n_samples=args.n_samples, lime_samples=args.lime_samples, k_from=args.k_from,
                     baseline=args.baseline, search=args.search, min_tokens=args.min_tokens, data_dir=args.data_dir,
                     command="python -m fred.evaluation " + " ".join(map(shlex.quote, argv)))


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    sys.exit(main())
