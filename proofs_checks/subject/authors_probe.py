"""Facts about the authors' released code (github gianluigilopardo/fred), read by running it as an outside program.

That code has no license: nothing of it is copied or imported into this project. :func:`probe` runs this file as
a script, ``python authors_probe.py CHECKOUT COMMAND``, in a subprocess whose ``sys.path`` starts with the checkout
(``$FRED_AUTHORS_CHECKOUT``); the cases go in as JSON on stdin and the answer comes back as JSON on stdout. In
that interpreter only, the script puts stand-ins for two third-party modules the released files import when they
load: ``transformers`` (the released DistilBERT module downloads its checkpoint at import) and ``tabulate``
(imported by the experiments' helpers, unused by the metric, not installed here). The released code's own files
run unchanged.

Commands:

* ``distilbert-train``: builds the DistilBERT model the way the released pipeline does (``main.py`` calls
  ``utils.setup.setup_model(args.model)`` and then ``model.train(X_train, y_train)``), with ``"distilbert"``,
  records which checkpoints it loads, then calls ``train`` on two labelled documents while recording every use
  made of the loaded tokenizer, model and trainer (each attribute read or write and each call) and every trainer
  built. A training step has to go through those objects (the stand-ins are the only ``transformers`` there is), so
  an empty record, the same attribute objects and the same module globals after the call mean that the weights the
  pipeline explains are exactly the ones loaded.
* ``aucmorf``: each case gives a document length L, a ranking (the explainer's ranked token ids), the score of
  the document after masking the first m ranked tokens (m = 0, 1, ...), and values for the ``explanation`` and
  ``k`` arguments; the released ``experiments.metrics.compute_aucmorf`` is called with a stand-in model whose
  score is that of the masked prefix (a mask that is not a prefix of the ranking is an error) and a stand-in
  explainer returning the ranking.
* ``faithfulness``: each case gives a document's tokens, an explanation (token positions), the document's
  confidence and the confidence of every text the metric may query (a table from text to score); the released
  ``experiments.metrics.compute_sufficiency`` and ``compute_comprehensiveness`` are called with a stand-in model
  that answers from that table (a text outside it is an error) and the answer lists the texts each one queried.
* ``evaluation``: the released evaluation loop itself, ``experiments.evaluation.Evaluation(...).evaluate()`` (the
  loop ``main.py`` runs, which writes one row per document and explainer: proportion and every metric), on one
  document per case, with the metrics sufficiency, comprehensiveness and aucmorf. Its model is a stand-in answering
  from the case's table (text -> confidence; a text outside it is an error). Its five explainers are the released
  classes FRED, FRED_pos, LIME, SHAP and Anchor with their own ``get_ranked_tokens`` and ``get_top_features``;
  only their ``explain`` is replaced, returning a stand-in explanation built from the case (FRED and FRED_pos:
  ``best_ids`` and ``token_drops_ids``; LIME: ``as_map()``; SHAP: ``values``; Anchor: ``features()``), and
  Anchor's spaCy pipeline (``en_core_web_lg``, not installed) is a stand-in that splits on whitespace. The answer
  is the CSV rows the loop wrote (time left out: it is a clock reading).
* ``robustness``: the released ``experiments.metrics.compute_robustness`` on planted cases. Each case names a
  released explainer class (``LIME`` or ``FRED``), the document's tokens, the row's explanation (token positions),
  the metric's ``repetitions`` and ``k`` arguments, and one stand-in explanation per re-run (LIME: the
  ``as_map()`` pairs (position, score); FRED: ``best_ids``). The released class is built as in ``evaluation``
  (only its ``explain`` replaced, returning the re-runs in turn) and reads each re-run with its own
  ``get_top_features``; the answer is the metric's value per case.
* ``vectorizers``: for each TF-IDF model of the released pipeline (``setup_model`` of ``logistic_classifier``,
  ``tree_classifier``, ``forest_classifier``), the class and parameters of its ``vectorizer`` as built, and the L2
  norms of the rows it gives after the model's own ``train`` on the case's labelled documents.

The modules the released files import but the commands never use (``spacy``, ``textblob``, ``lime``, ``shap``,
``anchor``; ``tabulate``, which only formats the loop's prints) are stand-ins in that interpreter; ``spacy`` and
``textblob`` are the driver's stubs (``_authors_driver._install_stubs``, loaded from its file), whose every use
raises.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import types
from pathlib import Path

#: Files of the checkout the commands run (relative to its root).
RELEASED_FILES = {"distilbert-train": ("utils/setup.py", "models/distilbert.py"),
                  "aucmorf": ("experiments/metrics.py",), "faithfulness": ("experiments/metrics.py",),
                  "evaluation": ("experiments/evaluation.py", "experiments/metrics.py", "explainers/anchor_explainer.py",
                                 "explainers/fred_explainer.py", "explainers/fred_pos_explainer.py",
                                 "explainers/lime_explainer.py", "explainers/shap_explainer.py"),
                  "robustness": ("experiments/metrics.py", "experiments/utils.py", "explainers/lime_explainer.py",
                                 "explainers/fred_explainer.py"),
                  "vectorizers": ("utils/setup.py", "models/logistic_classifier.py", "models/tree_classifier.py",
                                  "models/forest_classifier.py")}
#: The released loop's explainers, in the order of its default list (FRED_pos before those cut to its size).
EVALUATION_EXPLAINERS = ("FRED", "FRED_pos", "LIME", "SHAP", "Anchor")
#: The released pipeline's models built on TF-IDF (``utils/args.py``'s model names).
TFIDF_MODELS = ("logistic_classifier", "tree_classifier", "forest_classifier")
#: What the sentence of a step that needs the checkout says without it.
NOT_RUN = "Not run here: $FRED_AUTHORS_CHECKOUT is not set, so the released code cannot be run."
TIMEOUT_SECONDS = 120


def checkout_path() -> str | None:
    """``$FRED_AUTHORS_CHECKOUT``, or None when it is unset or empty."""
    from .authors import CHECKOUT_ENV  # here, not at the top: the script side imports nothing of ours

    return os.environ.get(CHECKOUT_ENV) or None


def probe(command: str, cases: list | None = None, checkout: str | os.PathLike | None = None) -> dict | None:
    """Run ``command`` on the released code and return its JSON answer; None when no checkout is given or set.

    Raises FileNotFoundError when the checkout lacks the files the command runs, and RuntimeError when the
    released code's process fails or imported its files from somewhere else.
    """
    checkout = checkout if checkout is not None else checkout_path()
    if checkout is None:
        return None
    root = Path(checkout).resolve()
    missing = [f for f in RELEASED_FILES[command] if not (root / f).is_file()]
    if missing:
        raise FileNotFoundError(f"{root} is not a checkout of the authors' repository: no {', '.join(missing)}")
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), str(root), command],
                          input=json.dumps(cases or []), capture_output=True, text=True, cwd=tempfile.gettempdir(),
                          timeout=TIMEOUT_SECONDS)
    if done.returncode != 0:
        raise RuntimeError(f"the released code's process failed ({done.returncode}):\n{done.stderr[-3000:]}")
    reply = json.loads(done.stdout)
    if not all(Path(f).resolve().is_relative_to(root) for f in reply["files"]):
        raise RuntimeError(f"the probe ran {reply['files']}, not files of {root}")
    return reply


# ------------------------------------------------------------------ the script side (runs in the subprocess)
class _Stand:
    """Stands for an object of ``transformers``: every attribute read or write and every call is logged."""

    def __init__(self, name: str, log: list):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_log", log)

    def __getattr__(self, attr):  # only for attributes the stand-in does not hold: every use of the object
        self._log.append(f"{self._name}.{attr}")
        return _Stand(f"{self._name}.{attr}", self._log)

    def __setattr__(self, attr, value):
        self._log.append(f"{self._name}.{attr} = ...")
        object.__setattr__(self, attr, value)

    def __call__(self, *args, **kwargs):
        self._log.append(f"{self._name}(...)")
        return _Stand(f"{self._name}()", self._log)


def _install_transformers(log: list, loaded: list, trainers: list) -> None:
    """A ``transformers`` module whose ``X.from_pretrained(name)`` records (X, name) and returns a logged stand-in,
    and whose ``Trainer(...)`` records its arguments and returns a logged stand-in holding ``wrapped``."""

    class _Loader:
        def __init__(self, cls: str):
            self.cls = cls

        def from_pretrained(self, name, *args, **kwargs):
            loaded.append([self.cls, str(name)])
            return _Stand(f"{self.cls}({name!r})", log)

    def trainer(*args, **kwargs):
        trainers.append(sorted(kwargs))
        made = _Stand("Trainer", log)
        object.__setattr__(made, "wrapped", kwargs.get("model", args[0] if args else None))
        return made

    module = types.ModuleType("transformers")
    module.__getattr__ = lambda name: trainer if name == "Trainer" else _Loader(name)
    sys.modules["transformers"] = module


def _distilbert_train(_cases: list) -> dict:
    log, loaded, trainers = [], [], []
    _install_transformers(log, loaded, trainers)
    from utils.setup import setup_model  # the released pipeline's model factory

    model = setup_model("distilbert")
    module = sys.modules[type(model).__module__]
    # vars(), not getattr: reading a missing attribute of a stand-in would be logged as a use.
    wrapped = [vars(v).get("wrapped") for v in vars(model).values() if isinstance(v, _Stand)]
    before_attrs = {k: id(v) for k, v in vars(model).items()}
    before_globals = {k: id(v) for k, v in vars(module).items()}
    built_before = len(trainers)
    log.clear()
    raised, returned = None, None
    try:
        returned = model.train(["a good film", "a bad film"], [1, 0])
    except Exception as err:  # noqa: BLE001 - reported to the parent, which decides
        raised = f"{type(err).__name__}: {err}"
    return {"files": [module.__file__, sys.modules[setup_model.__module__].__file__],
            "class": type(model).__name__, "loaded": loaded,
            "trainer_wraps": [vars(w)["_name"] for w in wrapped if isinstance(w, _Stand)],
            "uses_during_train": list(log), "trainers_built_during_train": len(trainers) - built_before,
            "attributes_unchanged": before_attrs == {k: id(v) for k, v in vars(model).items()},
            "globals_unchanged": before_globals == {k: id(v) for k, v in vars(module).items()},
            "returned": repr(returned), "raised": raised}


def _released_metrics():
    """The released ``experiments.metrics`` module, with ``tabulate`` (imported by its helpers) stood in for."""
    sys.modules["tabulate"] = types.ModuleType("tabulate")
    sys.modules["tabulate"].tabulate = None
    from experiments import metrics

    return metrics


def _aucmorf(cases: list) -> dict:
    import numpy as np

    metrics = _released_metrics()

    class Model:
        def __init__(self, ranking, curve):
            self.ranking, self.curve = ranking, curve

        def predict_proba(self, texts):
            out = []
            for text in texts:
                masked = {i for i, t in enumerate(text.split()) if t == "UNK"}
                if masked != set(self.ranking[:len(masked)]):
                    raise ValueError(f"masked {sorted(masked)} is not a prefix of the ranking {self.ranking}")
                out.append([1 - self.curve[len(masked)], self.curve[len(masked)]])
            return np.array(out)

    class Explainer:
        def __init__(self, ranking):
            self.ranking = ranking

        def get_ranked_tokens(self, example, exp):
            return None, self.ranking

    values = []
    for case in cases:
        tokens = [f"w{i}" for i in range(case["n_tokens"])]
        model = Model(case["ranking"] or [], case["curve"])
        value = metrics.compute_aucmorf(" ".join(tokens), tokens, case["curve"][0], case["explanation"],
                                        Explainer(case["ranking"]), None, model, 0, case["k"])
        values.append(float(value))
    return {"files": [metrics.__file__], "values": values}


def _faithfulness(cases: list) -> dict:
    import numpy as np

    metrics = _released_metrics()

    class Model:
        def __init__(self, scores):
            self.scores, self.queried = scores, []

        def predict_proba(self, texts):
            self.queried.extend(texts)
            return np.array([[1 - self.scores[t], self.scores[t]] for t in texts])  # KeyError: not in the table

    values = []
    for case in cases:
        row = {}
        for name, function in (("sufficiency", metrics.compute_sufficiency),
                               ("comprehensiveness", metrics.compute_comprehensiveness)):
            model = Model(case["scores"])
            row[name] = float(function(" ".join(case["tokens"]), case["tokens"], case["confidence"],
                                       case["explanation"], None, None, model, 0, len(case["explanation"])))
            row[f"{name}_queried"] = model.queried
        values.append(row)
    return {"files": [metrics.__file__], "values": values}


def _stub_packages() -> None:
    """Stand-ins for the third-party modules the released explainers and loop import and the commands never use:
    the driver's stubs of spacy and textblob, and modules whose every attribute is an unusable stub."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_authors_driver", Path(__file__).with_name("_authors_driver.py"))
    driver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(driver)
    driver._install_stubs()
    for name in ("lime", "lime.lime_text", "shap", "shap.maskers", "anchor", "anchor.anchor_text"):
        module = types.ModuleType(name)
        module.__getattr__ = lambda attr, name=name: driver._Unavailable(f"{name}.{attr}")
        sys.modules[name] = module
    sys.modules["tabulate"] = types.ModuleType("tabulate")
    sys.modules["tabulate"].tabulate = lambda rows, headers=(): ""  # formats the loop's prints only


class _Token:
    def __init__(self, text: str):
        self.text = text


def _stand_in_explanation(name: str, case: dict):
    """The explanation object the released class ``name`` reads, built from the case."""
    import numpy as np

    if name in ("FRED", "FRED_pos"):
        spec = case[name]
        return types.SimpleNamespace(best=[case["tokens"][i] for i in spec["best_ids"]], best_ids=spec["best_ids"],
                                     token_drops_ids={int(k): v for k, v in spec["drops"]})
    if name == "LIME":
        return types.SimpleNamespace(as_map=lambda: {1: [tuple(pair) for pair in case["LIME"]]})
    if name == "SHAP":
        values = np.array([[[-v, v] for v in case["SHAP"]]])
        return types.SimpleNamespace(values=values)
    return types.SimpleNamespace(features=lambda: list(case["Anchor"]))


def _evaluation(cases: list) -> dict:
    import argparse
    import importlib

    import numpy as np
    import pandas as pd

    _stub_packages()
    from experiments.evaluation import Evaluation

    class Model:
        def __init__(self, scores):
            self.scores = scores

        def predict_proba(self, texts):
            return np.array([[1 - self.scores[t], self.scores[t]] for t in texts])  # KeyError: not in the table

    modules, answers = set(), []
    for case in cases:
        explainers = {}
        for name in EVALUATION_EXPLAINERS:
            module = importlib.import_module(f"explainers.{name.lower()}_explainer")
            modules.add(module.__file__)
            made = getattr(module, name).__new__(getattr(module, name))  # the released class, not initialised
            made.name, made.model = name, None
            made.explain = lambda example, exp=_stand_in_explanation(name, case): exp
            if name == "Anchor":
                made.nlp = lambda text: [_Token(t) for t in text.split()]
            explainers[name] = made
        args = argparse.Namespace(metrics=["sufficiency", "comprehensiveness", "aucmorf"], repetitions=1,
                                  n_save=len(cases) + 1)
        with tempfile.TemporaryDirectory() as out:
            Evaluation([" ".join(case["tokens"])], Model(case["scores"]), out, explainers, args).evaluate()
            answers.append({name: {k: v for k, v in pd.read_csv(os.path.join(out, f"{name}.csv")).iloc[0].items()
                                   if k in ("proportion", "sufficiency", "comprehensiveness", "aucmorf")}
                            for name in EVALUATION_EXPLAINERS})
    evaluation = sys.modules[Evaluation.__module__]
    return {"files": sorted({evaluation.__file__, sys.modules["experiments.metrics"].__file__, *modules}),
            "rows": [{n: {k: float(v) for k, v in row.items()} for n, row in a.items()} for a in answers]}


def _rerun(name: str, tokens: list, spec: list):
    """The stand-in explanation of one re-run, as the released class ``name`` reads it."""
    if name == "LIME":
        return types.SimpleNamespace(as_map=lambda: {1: [tuple(pair) for pair in spec]})
    return types.SimpleNamespace(best=[tokens[i] for i in spec], best_ids=list(spec))


def _robustness(cases: list) -> dict:
    import importlib

    _stub_packages()
    metrics = importlib.import_module("experiments.metrics")
    modules, values = {metrics.__file__}, []
    for case in cases:
        name = case["explainer"]
        module = importlib.import_module(f"explainers.{name.lower()}_explainer")
        modules.add(module.__file__)
        made = getattr(module, name).__new__(getattr(module, name))  # the released class, not initialised
        made.name, made.model = name, None
        reruns = iter([_rerun(name, case["tokens"], spec) for spec in case["reruns"]])
        made.explain = lambda example, reruns=reruns: next(reruns)
        value = metrics.compute_robustness(" ".join(case["tokens"]), case["tokens"], None, case["explanation"],
                                           made, None, None, case["repetitions"], case["k"])
        values.append(float(value))
    return {"files": sorted(modules | {sys.modules["experiments.utils"].__file__}), "values": values}


def _vectorizers(cases: list) -> dict:
    import numpy as np

    from utils.setup import setup_model  # the released pipeline's model factory

    texts, labels = [c["text"] for c in cases], [c["label"] for c in cases]
    models, files = {}, []
    for name in TFIDF_MODELS:
        model = setup_model(name)
        files.append(sys.modules[type(model).__module__].__file__)
        built = {"class": type(model.vectorizer).__name__,
                 "params": {k: repr(v) for k, v in model.vectorizer.get_params().items()}}
        model.train(texts, labels)
        rows = model.vectorizer.transform(texts)
        models[name] = {**built, "row_l2_norms": [float(np.sqrt(rows[i].multiply(rows[i]).sum()))
                                                  for i in range(rows.shape[0])]}
    return {"files": files + [sys.modules[setup_model.__module__].__file__], "models": models}


def main(checkout: str, command: str) -> int:
    """Run ``command`` on the cases read from stdin; the answer goes to stdout as JSON, the released code's own
    prints to stderr."""
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    # The released packages come first, and this project's folder (the script's) is not searched at all.
    here = Path(__file__).resolve().parent
    sys.path[:] = [os.path.abspath(checkout)] + [p for p in sys.path if Path(p or ".").resolve() != here]
    cases = json.loads(sys.stdin.read() or "[]")
    reply = {"distilbert-train": _distilbert_train, "aucmorf": _aucmorf, "faithfulness": _faithfulness,
             "evaluation": _evaluation, "robustness": _robustness,
             "vectorizers": _vectorizers}[command](cases)
    answer.write(json.dumps(reply))
    answer.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
