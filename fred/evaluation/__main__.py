"""CLI: ``python -m fred.evaluation --dataset restaurants --model logistic --explainers fred,lime,shap,anchor``."""

from __future__ import annotations

import argparse
import shlex
import sys

from .datasets import DATASETS
from .explainers import EXPLAINERS
from .runner import MODELS, RunConfig, run, write_outputs


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m fred.evaluation", description=__doc__)
    parser.add_argument("--dataset", choices=DATASETS, required=True)
    parser.add_argument("--model", choices=MODELS, required=True)
    parser.add_argument("--explainers", default="fred,lime,shap,anchor",
                        help=f"comma-separated subset of {','.join(EXPLAINERS)}")
    parser.add_argument("--n-docs", type=int, default=100)
    parser.add_argument("--p", type=float, default=0.5)
    parser.add_argument("--eps", type=float, default=0.15)
    parser.add_argument("--k-robust", type=int, default=10, help="re-runs per document for robustness (0: skip)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-samples", type=int, default=None, help="FRED samples (default: Lemma 2 size)")
    parser.add_argument("--lime-samples", type=int, default=5000)
    parser.add_argument("--k-from", choices=("fred", "fredpos"), default="fred")
    parser.add_argument("--baseline", choices=("mean", "original"), default="mean",
                        help="FRED's drop baseline: mean (paper) or original (authors' code)")
    parser.add_argument("--data-dir", default=None, help="directory of restaurants.tsv and yelp.csv")
    parser.add_argument("--out", default="results")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    config = RunConfig(dataset=args.dataset, model=args.model,
                       explainers=tuple(e.strip() for e in args.explainers.split(",") if e.strip()),
                       n_docs=args.n_docs, p=args.p, eps=args.eps, k_robust=args.k_robust, seed=args.seed,
                       n_samples=args.n_samples, lime_samples=args.lime_samples, k_from=args.k_from,
                       baseline=args.baseline, data_dir=args.data_dir,
                       command="python -m fred.evaluation " + " ".join(map(shlex.quote, argv)))
    result = run(config)
    csv_path, md_path = write_outputs(result, args.out)
    print(md_path.read_text(encoding="utf-8"))
    print(f"wrote {csv_path} and {md_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
