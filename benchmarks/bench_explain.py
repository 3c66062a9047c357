"""Where the time of one FRED explanation goes (issue 2's speed target).

Setting: the first 150-token review of ``yelp.csv``, ``TfidfVectorizer()`` +
``LogisticRegression()`` fitted on the other reviews, ``n_samples=5000``, beam
search, the string path (``fast_path=False``). Prints, per run and as the
median, the total seconds of ``explain``, the seconds inside ``classifier_fn``
and the rest (sampling, rendering the texts, validation, search).
Target: the rest is under 10% of the total.

With ``--small``, instead: the seconds per explanation of many small
documents (5 to 10 tokens, a cheap word-weight classifier, the mask and exact
samplers, baselines "mean" and "original", default n and max_len), where
FRED's own work rather than the classifier's dominates (the claims' planted
battery explains such documents thousands of times).

Usage::

    python benchmarks/bench_explain.py [--repeats 5] [--n-samples 5000] [--tokens 150] [--append FILE]
    python benchmarks/bench_explain.py --small [--documents 2000] [--repeats 5] [--append FILE]

``--append`` adds the report as a section of a markdown file (run it after
``bench_compare.py --out``, which rewrites the file; ``sh benchmarks/regenerate.sh``
runs them all).
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from fred.command_line import OneLineParser
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


def word_weight_classifier(weights: dict[str, float]):
    """Two-class scores [1 - f, f], f the logistic of the summed weights of a text's words (unknown words 0);
    each text's f computed once, as the kit's black boxes do, so that the classifier stays cheap."""
    seen: dict[str, float] = {}

    def score(text: str) -> float:
        if text not in seen:
            seen[text] = 1.0 / (1.0 + np.exp(-sum(weights.get(w, 0.0) for w in text.split())))
        return seen[text]

    def classify(texts):
        f = np.fromiter(map(score, texts), dtype=float, count=len(texts))
        return np.column_stack([1.0 - f, f])

    return classify


def small_documents(count: int, seed: int = 0) -> list[tuple[str, str, str, TimedClassifier]]:
    """``count`` (text, sampler, baseline, timed classifier) cases of 5 to 10 distinct tokens, samplers and
    baselines alternating."""
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(count):
        tokens = [f"w{j}" for j in range(int(rng.integers(5, 11)))]
        classify = TimedClassifier(word_weight_classifier(dict(zip(tokens, rng.normal(size=len(tokens))))))
        cases.append((" ".join(tokens), ("mask", "exact")[i % 2], ("mean", "original")[i // 2 % 2], classify))
    return cases


def run_small(args) -> None:
    """The ``--small`` report: seconds of FRED's own work (outside classifier_fn) per small-document explanation."""
    cases = small_documents(args.documents)

    def explain_all() -> tuple[float, float]:
        for *_, timed in cases:
            timed.reset()
        start = time.perf_counter()
        for seed, (text, sampler, baseline, timed) in enumerate(cases):
            Fred(timed, sampler=sampler, baseline=baseline, random_state=seed).explain(text)
        return time.perf_counter() - start, sum(timed.seconds for *_, timed in cases)

    explain_all()  # warm-up, which also fills the classifiers' memories
    runs = [explain_all() for _ in range(args.repeats)]
    per = 1e3 / len(cases)
    rows = [(f"run {i + 1}", f"{t:.3f}", f"{c:.3f}", f"{t - c:.3f}", f"{per * (t - c):.3f}")
            for i, (t, c) in enumerate(runs)]
    rest = statistics.median(t - c for t, c in runs)
    rows.append(("median", f"{statistics.median(t for t, _ in runs):.3f}",
                 f"{statistics.median(c for _, c in runs):.3f}", f"{rest:.3f}", f"{per * rest:.3f}"))
    report = "\n".join([
        f"{len(cases)} explanations of 5-10 token documents, word-weight classifier, mask and exact samplers, "
        "baselines mean and original, default n_samples and max_len  ",
        *provenance(),
        "",
        markdown_table(["", "total s", "in classifier_fn s", "rest s", "rest ms per explanation"], rows),
    ])
    emit(report, args.append, "a", "\n## Small documents: FRED's own time per explanation (bench_explain.py --small)")


def main() -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n-samples", type=int, default=5000)
    parser.add_argument("--tokens", type=int, default=150)
    parser.add_argument("--small", action="store_true", help="time many small documents instead (see above)")
    parser.add_argument("--documents", type=int, default=2000, help="with --small: number of documents")
    parser.add_argument("--append", help="also append the report to this markdown file")
    args = parser.parse_args()
    if args.small:
        run_small(args)
        return

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
