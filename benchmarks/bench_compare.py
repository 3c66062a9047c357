"""Seconds per explanation: FRED (string path, fast path), LIME and SHAP, side by side (issue 8).

One run, one machine, the same models and documents for every explainer:

* documents: the first 10-token review of ``restaurants.tsv`` and the first
  150-token review of ``yelp.csv``;
* models: ``TfidfVectorizer()`` + ``LogisticRegression()`` or
  ``RandomForestClassifier(random_state=0)`` (scikit-learn defaults otherwise),
  fitted on the data set the document comes from, without the document;
* FRED: ``n_samples=5000`` (LIME's default number of samples), defaults otherwise
  (``search="auto"``: exhaustive on 10 tokens, beam on 150), ``random_state=0``;
  string path ``fast_path=False``, fast path ``fast_path=True``;
* LIME: ``LimeTextExplainer(random_state=0).explain_instance(text, predict_proba)``
  (5000 samples, 10 features);
* SHAP: ``shap.Explainer(predict_proba, shap.maskers.Text())`` called on the
  text (partition explainer, its default budget), progress bar off.

Each cell is the median of ``--repeats`` timed calls after one untimed warm-up
(SHAP compiles code on its first call). The table also gives the share of the
string path's time spent outside ``classifier_fn`` and the largest difference
between the fast and string paths' drops. The targets of issue 8 are checked
and printed as met or missed.

Usage::

    python benchmarks/bench_compare.py [--repeats 5] [--out benchmarks/RESULTS.md] [--note TEXT]

``sh benchmarks/regenerate.sh`` runs it with ``--out benchmarks/RESULTS.md``, then
``bench_explain.py`` and ``bench_speed.py``, which append to that file.
"""

from __future__ import annotations

import statistics
import sys
import time
import warnings

import numpy as np

from fred.command_line import OneLineParser
from _common import (MODELS, emit, fit_pipeline, load_restaurants, load_yelp, median_seconds,
                     pick_document, provenance)
from _timing import TimedClassifier

from fred import Fred
from fred.markdown_tables import markdown_table

N_SAMPLES = 5000
SAME_DROPS_ATOL = 1e-12
TARGET_REST_FRACTION = 0.10
TARGET_SPEEDUP = 5.0
DOCUMENTS = {"restaurants, 10 tokens": (load_restaurants, 10), "yelp, 150 tokens": (load_yelp, 150)}


def drop_difference(pipe, text: str) -> tuple[float, bool]:
    """Largest |fast - string| over importances and the selected drop, and whether best_ids agree."""
    fast = Fred(pipe.predict_proba, random_state=0).explain(text, n_samples=N_SAMPLES)
    slow = Fred(pipe.predict_proba, random_state=0, fast_path=False).explain(text, n_samples=N_SAMPLES)
    diffs = np.abs(fast.importances - slow.importances)
    worst = float(np.nanmax(np.append(diffs, abs((fast.drop or 0.0) - (slow.drop or 0.0)))))
    return worst, fast.best_ids == slow.best_ids


def string_path_rest(pipe, text: str, repeats: int) -> float:
    """Median share of the string path's time spent outside classifier_fn."""
    timed = TimedClassifier(pipe.predict_proba)
    explainer = Fred(timed, random_state=0, fast_path=False)
    shares = []
    for _ in range(repeats):
        timed.seconds = 0.0
        start = time.perf_counter()
        explainer.explain(text, n_samples=N_SAMPLES)
        total = time.perf_counter() - start
        shares.append((total - timed.seconds) / total)
    return statistics.median(shares)


def time_row(pipe, text: str, repeats: int) -> dict[str, float]:
    """Median seconds per explanation of each explainer on one model and document."""
    import shap
    from lime.lime_text import LimeTextExplainer

    fast = Fred(pipe.predict_proba, random_state=0)
    if not fast.fast_path_status.active:
        sys.exit(f"fast path unexpectedly off: {fast.fast_path_status.reason}")
    strings = Fred(pipe.predict_proba, random_state=0, fast_path=False)
    lime = LimeTextExplainer(random_state=0)
    shap_explainer = shap.Explainer(pipe.predict_proba, shap.maskers.Text())
    return {
        "strings": median_seconds(lambda: strings.explain(text, n_samples=N_SAMPLES), repeats),
        "fast": median_seconds(lambda: fast.explain(text, n_samples=N_SAMPLES), repeats),
        "lime": median_seconds(lambda: lime.explain_instance(text, pipe.predict_proba), repeats),
        "shap": median_seconds(lambda: shap_explainer([text], silent=True), repeats),
    }


def main() -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", help="also write the table and verdicts to this markdown file")
    parser.add_argument("--note", default="", help="a remark on the conditions, printed under the machine line")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", category=FutureWarning)  # shap/lime deprecation chatter

    rows, results = [], []
    for doc_name, (load, n_tokens) in DOCUMENTS.items():
        texts, labels = load()
        doc = pick_document(texts, n_tokens)
        for model in MODELS:
            pipe = fit_pipeline(model, texts, labels, held_out=doc)
            t = time_row(pipe, texts[doc], args.repeats)
            rest = string_path_rest(pipe, texts[doc], args.repeats)
            worst, same_best = drop_difference(pipe, texts[doc])
            results.append((doc_name, model, t, rest, worst, same_best))
            rows.append((f"{doc_name} (#{doc})", model, f"{t['strings']:.3f}", f"{t['fast']:.3f}", f"{t['lime']:.3f}",
                         f"{t['shap']:.3f}", f"{t['strings'] / t['fast']:.1f}x", f"{t['lime'] / t['fast']:.1f}x",
                         f"{t['shap'] / t['fast']:.1f}x", f"{rest:.1%}", f"{worst:.1e}{'' if same_best else ' (best differs)'}"))
            print(f"done: {doc_name}, {model}", file=sys.stderr)

    header = ["document", "model", "FRED strings s", "FRED fast s", "LIME s", "SHAP s", "strings / fast",
              "LIME / fast", "SHAP / fast", "strings: outside classifier_fn", "largest fast vs strings drop difference"]
    table = markdown_table(header, rows)
    long_rows = [r for r in results if r[0] == "yelp, 150 tokens"]
    verdicts = [
        ("string path outside classifier_fn < 10% (150 tokens, n=5000)",
         all(r[3] < TARGET_REST_FRACTION for r in long_rows),
         ", ".join(f"{r[1]}: {r[3]:.1%}" for r in long_rows)),
        *((f"fast path >= {TARGET_SPEEDUP:.0f}x faster than strings (150 tokens, {r[1]}) with drops equal "
           f"to {SAME_DROPS_ATOL:g} and the same best_ids",
           r[2]["strings"] / r[2]["fast"] >= TARGET_SPEEDUP and r[4] <= SAME_DROPS_ATOL and r[5],
           f"{r[2]['strings'] / r[2]['fast']:.1f}x, max diff {r[4]:.1e}") for r in long_rows),
        ("fast path faster than LIME and SHAP on every row",
         all(r[2]["fast"] < min(r[2]["lime"], r[2]["shap"]) for r in results),
         "slowest margin " + f"{min(min(r[2]['lime'], r[2]['shap']) / r[2]['fast'] for r in results):.1f}x"),
    ]
    lines = [f"- {'met' if ok else 'MISSED'}: {what} ({detail})" for what, ok, detail in verdicts]
    report = "\n".join([
        f"Seconds per explanation, median of {args.repeats} runs after a warm-up; FRED n_samples={N_SAMPLES}, "
        "random_state=0; LIME and SHAP at their defaults.",
        "",
        *provenance(args.note),
        "",
        table,
        "",
        "Targets (issue 8):",
        "",
        *lines,
    ])
    emit(report, args.out, "w", "# Benchmark results\n\nRegenerate the whole file in one run with "
                                "`sh benchmarks/regenerate.sh` (see that script for its settings).")


if __name__ == "__main__":
    main()
