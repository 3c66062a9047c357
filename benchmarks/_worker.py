"""Time one explainer on one document in a fresh interpreter (run by :mod:`bench_speed`, not by hand).

Usage: ``python benchmarks/_worker.py SPEC.json``; prints one JSON line of results.

The spec names the implementation and where it lives, so that the current
``fred``, an earlier checkout of it, and the authors' released code (whose
package is also called ``fred``) each run alone in their own process:

* ``"impl": "fred"``: our ``fred.Fred``; ``"path"`` (optional) is a directory
  holding an earlier ``fred`` package, put first on ``sys.path`` (default: the
  installed one).
* ``"impl": "authors"``: ``fred.explainer.Fred`` of the authors' checkout at
  ``"path"`` (never copied, only imported from there). Two stand-ins are
  installed first, both documented here because they are ours, not theirs:
  ``fred.replacer`` (their POS replacer, which loads spaCy's ``en_core_web_lg``
  and textblob at import; mask sampling never uses it) becomes a module whose
  ``Replacer`` raises if constructed; and ``IPython.core.display.display``,
  moved to ``IPython.display`` in IPython 9, is re-exported where their
  ``explanation.py`` imports it from (only their HTML display uses it).

Other spec fields: ``pipeline`` (a pickled fitted scikit-learn pipeline),
``text``, ``mode`` (``"fast"``: ``classifier_fn`` is the pipeline's bound
``predict_proba``; ``"strings"``: the same with ``fast_path=False``;
``"blackbox"``: a plain function around it sleeping ``latency`` seconds per
text, standing in for a model such as a transformer whose every text costs
milliseconds), ``n_samples``, ``search``, ``repeats``.

Results: per timed run the total seconds and the seconds inside the classifier
(``classifier_fn``, or for the fast path the pipeline's own steps, see
:class:`_timing.PipelineStepTimer`); the texts (or count-matrix rows) the
classifier was asked in one explanation, the explanation's distinct perturbation
patterns, whether the fast path was used, the explanation itself, and the file
the explainer class came from (the driver checks it lies under ``path``); for
the installed ``fred``, also the seconds its sampler takes to draw the
``(n, b)`` design, per repeat.
"""

from __future__ import annotations

import importlib
import json
import pickle
import sys
import time
import types

import numpy as np

from _timing import PipelineStepTimer, TimedClassifier


def load_authors(checkout: str):
    """The authors' ``Fred`` class, imported from ``checkout`` with the two stand-ins of the module docstring."""
    import IPython.core.display as core_display
    from IPython.display import display

    if not hasattr(core_display, "display"):
        core_display.display = display
    package = types.ModuleType("fred")
    package.__path__ = [f"{checkout}/fred"]
    sys.modules["fred"] = package
    replacer = types.ModuleType("fred.replacer")

    class Replacer:  # stand-in for their POS replacer, never used by mask sampling
        def __init__(self, *args, **kwargs):
            raise RuntimeError("benchmark stand-in: the authors' POS replacer is not loaded (mask sampling only)")

    replacer.Replacer = Replacer
    sys.modules["fred.replacer"] = replacer
    return importlib.import_module("fred.explainer").Fred


def classifier(pipe, mode: str, latency: float):
    """The classifier_fn of a mode and the timer that reads its time."""
    if mode == "fast":
        return pipe.predict_proba, PipelineStepTimer(pipe, "predict_proba")

    def black_box(texts):
        if latency:
            time.sleep(latency * len(texts))
        return pipe.predict_proba(texts)

    timed = TimedClassifier(black_box if mode == "blackbox" else pipe.predict_proba)
    return timed, timed


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    with open(spec["pipeline"], "rb") as f:
        pipe = pickle.load(f)
    text, n = spec["text"], spec["n_samples"]
    fn, timer = classifier(pipe, spec["mode"], spec.get("latency", 0.0))
    if spec["impl"] == "authors":
        explainer = load_authors(spec["path"])(classifier_fn=fn)

        def run():
            return explainer.explain_instance(text, perturb_proba=0.5, eps=0.15, max_len=10, beam_size=4,
                                              n_sample=n)
    else:
        if spec.get("path"):
            sys.path.insert(0, spec["path"])
        from fred import Fred

        explainer = Fred(fn, search=spec["search"], random_state=0, fast_path=spec["mode"] == "fast")

        def run():
            return explainer.explain(text, n_samples=n)

    run()  # warm-up: imports, caches, BLAS start-up
    totals, insides = [], []
    for _ in range(spec["repeats"]):
        timer.reset()
        start = time.perf_counter()
        exp = run()
        totals.append(time.perf_counter() - start)
        insides.append(timer.seconds)
    result = {"total": totals, "inside": insides, "asked": timer.rows, "n": n,
              "module": sys.modules[type(explainer).__module__].__file__}
    if spec["impl"] == "fred":
        result.update(distinct_patterns=len(np.unique(exp.sample_perturbed, axis=0)), fast_path=exp.fast_path.active,
                      best_ids=list(exp.best_ids), drop=exp.drop, found=exp.found)
    if spec["impl"] == "fred" and not spec.get("path"):
        # The floor outside the classifier: no explainer of this sampler can skip drawing the design.
        draws = []
        for _ in range(spec["repeats"]):
            start = time.perf_counter()
            explainer.sampler.draw(len(exp.tokens), exp.p, n, np.random.default_rng(0))
            draws.append(time.perf_counter() - start)
        result["draw"] = draws
    print(json.dumps(result))


if __name__ == "__main__":
    main()
