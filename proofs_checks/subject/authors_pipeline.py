"""The authors' released training pipeline (``main.py``), run as an outside program on the review data.

That code has no license: nothing of it is copied or imported into this project. :func:`released_runs` runs this
file as a script, ``python authors_pipeline.py CHECKOUT``, in a subprocess whose ``sys.path`` starts with the
checkout and whose working directory is a fresh temporary folder holding ``data/``, two symbolic links to the data
files (read in place, never copied: ``data/restaurants.tsv`` -> ``restaurants.tsv`` and
``data/positive_negative_reviews_yelp.csv`` -> ``yelp.csv``, the names the released loaders open) and the
``results/`` folder ``main.py`` writes.

For each dataset (Restaurants, Yelp) and each TF-IDF model (logistic regression, decision tree, random forest) the
script calls the released ``main.main()`` with the command line ``--dataset D --model M --explainers FRED``: it
seeds numpy with its default seed (42), splits with the released loader, trains the released model, writes the
accuracy it prints to ``info.json``, selects the documents to explain and hands them to
``experiments.evaluation.Evaluation``. Only ``Evaluation.evaluate`` is replaced, by a function that records the
documents it was given and the model (no explainer runs). The answer, per run: the accuracy read back from
``info.json``, the test set's size, the token count (``str.split``, after the released preprocessing) and predicted
label of every test document, the token counts of the documents handed to the evaluation in their order, the
parameters of the trained estimator and vectorizer beside those of the same classes built with no argument (the
installed scikit-learn's defaults); per dataset, the token count of every document of the dataset.

Stand-ins in that interpreter only: the driver's stubs of ``spacy`` and ``textblob``
(:func:`proofs_checks.subject._authors_driver._install_stubs`, loaded from its file; the released ``fred`` package
imports them, the TF-IDF runs never use them) and a ``torch`` module whose ``cuda.is_available()`` is False
(``main.py`` imports torch only to name a device it never uses; the real import costs seconds), with a
``Tensor`` class no array is an instance of (scipy asks, once torch is in ``sys.modules``).
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import tempfile
import types
from pathlib import Path

#: The released pipeline's names of the datasets run here, with this project's dataset name and the file name the
#: released loader opens under ``data/``.
PIPELINE_DATASETS = {"restaurants": ("restaurants", "restaurants.tsv"),
                     "yelp": ("yelp", "positive_negative_reviews_yelp.csv")}
#: The released pipeline's TF-IDF models (``utils/args.py``'s names), in the order of the paper's table.
PIPELINE_MODELS = ("logistic_classifier", "tree_classifier", "forest_classifier")
#: Files of the checkout the script runs (relative to its root).
PIPELINE_FILES = ("main.py", "utils/setup.py", "utils/args.py", "data/restaurants.py", "data/yelp.py",
                  "models/logistic_classifier.py", "models/tree_classifier.py", "models/forest_classifier.py",
                  "experiments/evaluation.py")
TIMEOUT_SECONDS = 300


def missing_inputs() -> list[str]:
    """What the pipeline runs need and this machine lacks, each named with the way to provide it (empty: none)."""
    from fred.evaluation.datasets import DATA_ENV, dataset_available

    from .authors import CHECKOUT_ENV

    missing = [] if os.environ.get(CHECKOUT_ENV) else [f"${CHECKOUT_ENV} is not set (the released code)"]
    absent = [name for name, _ in PIPELINE_DATASETS.values() if not dataset_available(name)]
    if absent:
        missing.append(f"the data ({', '.join(absent)}: set ${DATA_ENV}, or ../shared/data beside the checkout)")
    return missing


def not_run(what: str) -> str:
    """The sentence of a step that needs the released pipeline and cannot run here, naming what is missing."""
    return f"Not run here: {'; '.join(missing_inputs())}. With them, this step {what}"


def pipeline_runs() -> dict | None:
    """The released pipeline's runs on the data of ``$FRED_DATA_DIR`` (or ``../shared/data``) with the checkout of
    ``$FRED_AUTHORS_CHECKOUT``; None when either is missing (:func:`missing_inputs` says which)."""
    if missing_inputs():
        return None
    from fred.evaluation.datasets import dataset_file

    from .authors import CHECKOUT_ENV

    files = tuple((released, str(dataset_file(name))) for name, released in PIPELINE_DATASETS.values())
    return released_runs(str(Path(os.environ[CHECKOUT_ENV]).resolve()), files)


@functools.lru_cache(maxsize=4)
def released_runs(checkout: str, files: tuple[tuple[str, str], ...]) -> dict:
    """Run the script on ``checkout`` with ``files`` (released file name, path of the data file) linked under
    ``data/``; the JSON answer, computed once per process and arguments.

    Raises FileNotFoundError when the checkout lacks a file the script runs, RuntimeError when the released code's
    process fails or ran files from somewhere else.
    """
    root = Path(checkout)
    missing = [f for f in PIPELINE_FILES if not (root / f).is_file()]
    if missing:
        raise FileNotFoundError(f"{root} is not a checkout of the authors' repository: no {', '.join(missing)}")
    with tempfile.TemporaryDirectory() as work:
        (Path(work) / "data").mkdir()
        for released, path in files:
            (Path(work) / "data" / released).symlink_to(Path(path).resolve())
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), str(root)], capture_output=True,
                              text=True, cwd=work, timeout=TIMEOUT_SECONDS, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the released pipeline's process failed ({done.returncode}):\n{done.stderr[-3000:]}")
    reply = json.loads(done.stdout)
    if not all(Path(f).resolve().is_relative_to(root) for f in reply["files"]):
        raise RuntimeError(f"the pipeline ran {reply['files']}, not files of {root}")
    return reply


# ------------------------------------------------------------------ the script side (runs in the subprocess)
def _install_stand_ins() -> None:
    """The driver's stubs of spacy and textblob, and a torch whose only use (naming a device) works."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_authors_driver", Path(__file__).with_name("_authors_driver.py"))
    driver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(driver)
    driver._install_stubs()
    torch = types.ModuleType("torch")
    torch.cuda = types.SimpleNamespace(is_available=lambda: False)
    torch.device = lambda name: name
    torch.Tensor = type("Tensor", (), {})  # array libraries ask whether an array is a torch.Tensor: never here
    sys.modules["torch"] = torch


def _params(estimator) -> dict:
    """The estimator's parameters as built by the pipeline and as the class builds them with no argument."""
    return {"class": type(estimator).__name__,
            "params": {k: repr(v) for k, v in estimator.get_params().items()},
            "defaults": {k: repr(v) for k, v in type(estimator)().get_params().items()}}


def _one_run(released, seen: dict, dataset: str, model: str) -> dict:
    """``main.main()`` on ``dataset`` and ``model``; what it wrote and what it handed to the evaluation."""
    import glob

    sys.argv = ["main.py", "--dataset", dataset, "--model", model, "--explainers", "FRED"]
    released.main()
    with open(max(glob.glob(os.path.join("results", dataset, model, "*", "info.json")))) as written:
        info = json.load(written)
    trained, test = seen["model"], seen["x_test"]
    return {"accuracy": info["accuracy"], "seed": info["args"]["seed"], "n_test": len(test),
            "test_lengths": [len(x.split()) for x in test],
            "test_predicted": [int(v) for v in trained.predict(list(test))],
            "explained_lengths": [len(str(x).split()) for x in seen["corpus"]],
            "estimator": _params(trained.model), "vectorizer": _params(trained.vectorizer)}


def _runs() -> dict:
    import numpy as np

    _install_stand_ins()
    import main as released  # the released pipeline's main.py, first on sys.path
    from experiments.evaluation import Evaluation
    from utils.setup import setup_dataset

    seen: dict = {}
    original_setup = released.setup_dataset

    def recording_setup(name):  # the released loader, its test documents recorded before main shuffles them
        split = original_setup(name)
        seen["x_test"] = list(split[1])
        return split

    def record(self):  # replaces Evaluation.evaluate: no explainer runs, the documents are recorded
        seen["corpus"], seen["model"] = list(self.corpus), self.model

    released.setup_dataset, Evaluation.evaluate = recording_setup, record
    runs = {d: {m: _one_run(released, seen, d, m) for m in PIPELINE_MODELS} for d in PIPELINE_DATASETS}
    np.random.seed(0)  # the split does not matter for the dataset's lengths
    lengths = {d: [len(x.split()) for part in setup_dataset(d)[:2] for x in part] for d in PIPELINE_DATASETS}
    return {"files": [released.__file__, sys.modules["data.restaurants"].__file__,
                      sys.modules["data.yelp"].__file__, sys.modules[Evaluation.__module__].__file__],
            "runs": runs, "dataset_lengths": lengths}


def main(checkout: str) -> int:
    """The runs as JSON on stdout; the released code's own prints go to stderr."""
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    here = Path(__file__).resolve().parent
    sys.path[:] = [os.path.abspath(checkout)] + [p for p in sys.path if Path(p or ".").resolve() != here]
    answer.write(json.dumps(_runs()))
    answer.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
