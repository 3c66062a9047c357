"""Where the time of one FRED explanation goes (issue 2's speed target).

Setting: the first 150-token review of ``yelp.csv``, ``TfidfVectorizer()`` +
``LogisticRegression()`` fitted on the other reviews, ``n_samples=5000``, beam
search, the string path (``fast_path=False``). Prints, per run and as the
median, the total seconds of ``explain``, the seconds inside ``classifier_fn``
and the rest (sampling, rendering the texts, validation, search).
Target: the rest is under 10% of the total.

Usage::

    python benchmarks/bench_explain.py [--repeats 5] [--n-samples 5000] [--tokens 150] [--append FILE]

``--append`` adds the report as a section of a markdown file (run it after
``bench_compare.py --out``, which rewrites the file; ``sh benchmarks/regenerate.sh``
runs them all).
"""

from __future__ import annotations

import argparse
import statistics
import time

from _common import emit, fit_pipeline, load_yelp, pick_document, provenance
from _timing import TimedClassifier

from fred import Fred
from fred.markdown_tables import markdown_table

TARGET_REST_FRACTION = 0.10


def measure(explainer: Fred, timed: TimedClassifier, text: str, n_samples: int) -> tuple[float, float]:
    """Total seconds of one explanation and the seconds spent inside ``classifier_fn``."""
    timed.seconds = 0.0
    start = time.perf_counter()
    explainer.explain(text, n_samples=n_samples)
    return time.perf_counter() - start, timed.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n-samples", type=int, default=5000)
    parser.add_argument("--tokens", type=int, default=150)
    parser.add_argument("--append", help="also append the report to this markdown file")
    args = parser.parse_args()

    texts, labels = load_yelp()
    doc = pick_document(texts, args.tokens)
    pipe = fit_pipeline("logistic", texts, labels, held_out=doc)
    timed = TimedClassifier(pipe.predict_proba)
    explainer = Fred(timed, search="beam", random_state=0, fast_path=False)
    measure(explainer, timed, texts[doc], args.n_samples)  # warm-up
    runs = [measure(explainer, timed, texts[doc], args.n_samples) for _ in range(args.repeats)]
    rows = [(f"run {i + 1}", f"{t:.3f}", f"{c:.3f}", f"{t - c:.3f}", f"{(t - c) / t:.1%}")
            for i, (t, c) in enumerate(runs)]
    total = statistics.median(t for t, _ in runs)
    inside = statistics.median(c for _, c in runs)
    rest_seconds = statistics.median(t - c for t, c in runs)
    rest = statistics.median((t - c) / t for t, c in runs)
    rows.append(("median", f"{total:.3f}", f"{inside:.3f}", f"{rest_seconds:.3f}", f"{rest:.1%}"))
    verdict = "met" if rest < TARGET_REST_FRACTION else "MISSED"
    report = "\n".join([
        f"FRED string path, yelp review #{doc} ({len(texts[doc].split())} tokens), TF-IDF + LogisticRegression, "
        f"n_samples={args.n_samples}, beam search (width 4), max_len=10  ",
        *provenance(),
        "",
        markdown_table(["", "total s", "in classifier_fn s", "rest s", "rest / total"], rows),
        "",
        f"Target (issue 2) rest < {TARGET_REST_FRACTION:.0%} of total: {verdict} (median {rest:.1%})",
    ])
    emit(report, args.append, "a", "\n## Where the string path's time goes (bench_explain.py)")


if __name__ == "__main__":
    main()
