"""Seconds per explanation against the classifier's own time, before and after, and the authors' code (issue 17).

Rows: the first 10-token review of ``restaurants.tsv`` (n = 3067, Lemma 2's
default, exhaustive search) and the first 150-token review of ``yelp.csv``
(n = 5000, beam search of width 4), explained with ``random_state=0`` for
``TfidfVectorizer()`` + ``LogisticRegression()`` or ``RandomForestClassifier(random_state=0)``
(fitted on the data set without the document) through

* the fast path (``classifier_fn`` the pipeline's bound ``predict_proba``),
* strings (the same, ``fast_path=False``),
* a black box: a plain function around the forest pipeline (so no fast path),
  once as is and once sleeping 1 ms per text, standing in for a model such as a
  transformer whose every text costs milliseconds.

Columns, per row: n; the distinct perturbation patterns among the n rows; the
texts (or, on the fast path, count-matrix rows) the classifier was asked in one
explanation, the explained text and the fast path's check included; the median
total seconds; the median seconds inside the classifier (``classifier_fn``, or
on the fast path the pipeline's own steps: vectorizer, TF-IDF transform, model;
see ``_timing.PipelineStepTimer``), the floor any explainer calling it pays; the
median seconds the sampler takes to draw the ``(n, b)`` design, the floor outside
the classifier for any explainer drawing the same design; the share of the total
outside the classifier; the authors' released code on the same document,
classifier and n (their only path: strings, beam of width 4) and its ratio to
ours. "before" is an earlier checkout of ``fred`` (``--before``), "after" the
installed one; every cell comes from its own fresh interpreter
(``_worker.py``), all in one run on one machine.

Usage::

    python benchmarks/bench_speed.py [--repeats 5] [--before DIR [--before-label TEXT]] [--authors DIR]
                                     [--append FILE] [--note TEXT]

``--before DIR``: a directory holding an earlier ``fred`` package, e.g. made by
``git archive <commit> fred | tar -x -C DIR``; without it the "before" cells are
empty. ``--authors DIR``: the authors' checkout (default ``$FRED_AUTHORS_CHECKOUT``);
without it the authors' columns are empty. ``benchmarks/regenerate.sh`` runs
every benchmark of ``RESULTS.md`` with both.

Issue 17's target "time outside the classifier at most 20% of the total" on the
Yelp logistic fast path is reported as issued, and called unreachable when the
measured design draw alone exceeds the time it allows outside: the fast path
replaces the classifier's vectorizer by a count matrix, so the pipeline's
remaining steps take less time than any explainer needs to draw the same
design (changing the draw would change every seeded result). The restated
target compares the whole fast-path explanation with the classifier's own time
on the same n texts (the strings row's time inside ``classifier_fn``): at most 20%.
"""

from __future__ import annotations

import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from fred.command_line import OneLineParser
from _common import emit, fit_pipeline, load_restaurants, load_yelp, pick_document, provenance

from fred.markdown_tables import markdown_table

WORKER = Path(__file__).with_name("_worker.py")
#: Latency per text of the expensive black box (seconds).
LATENCY = 0.001
#: Documents: loader, tokens, n, our search.
DOCUMENTS = {"restaurants, 10 tokens": (load_restaurants, 10, 3067, "auto"),
             "yelp, 150 tokens": (load_yelp, 150, 5000, "beam")}
TARGET_AUTHORS_RATIO = 30.0
TARGET_OUTSIDE = 0.20
#: Restated target (issue 17): the fast path's whole explanation at most this share of the classifier's own time
#: on the same n texts (the string path's time inside ``classifier_fn``), the floor of any explainer asking them.
TARGET_FAST_VS_CLASSIFIER = 0.20
#: Rows the fast path's check adds to what the model is asked: none, all and every other position masked, 3 rows.
CHECK_ROWS = 6


@dataclass(frozen=True)
class Row:
    document: str
    model: str
    mode: str  # "fast", "strings" or "blackbox"
    latency: float = 0.0

    @property
    def label(self) -> str:
        if self.mode != "blackbox":
            return {"fast": "fast path", "strings": "strings"}[self.mode]
        return f"black box, {self.latency * 1000:g} ms per text" if self.latency else "black box (plain function)"


ROWS = [
    Row("restaurants, 10 tokens", "logistic", "fast"),
    Row("restaurants, 10 tokens", "logistic", "strings"),
    Row("restaurants, 10 tokens", "forest", "fast"),
    Row("restaurants, 10 tokens", "forest", "strings"),
    Row("restaurants, 10 tokens", "forest", "blackbox"),
    Row("restaurants, 10 tokens", "forest", "blackbox", LATENCY),
    Row("yelp, 150 tokens", "logistic", "fast"),
    Row("yelp, 150 tokens", "logistic", "strings"),
    Row("yelp, 150 tokens", "forest", "fast"),
    Row("yelp, 150 tokens", "forest", "strings"),
]


def run_worker(spec: dict, workdir: str) -> dict:
    """Run ``_worker.py`` on ``spec`` in a fresh interpreter and return its JSON result."""
    path = Path(workdir) / "spec.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    out = subprocess.run([sys.executable, str(WORKER), str(path)], capture_output=True, text=True,
                         cwd=WORKER.parent)
    if out.returncode != 0:
        sys.exit(f"worker failed on {spec['impl']} {spec['mode']}:\n{out.stderr}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if spec.get("path") and not Path(result["module"]).resolve().is_relative_to(Path(spec["path"]).resolve()):
        sys.exit(f"worker imported {result['module']}, not the explainer under {spec['path']}")
    return result


def share_outside(result: dict | None) -> float | None:
    """Median share of the total spent outside the classifier."""
    if result is None:
        return None
    return statistics.median((t - c) / t for t, c in zip(result["total"], result["inside"]))


def cell(before, after, fmt: str) -> str:
    """``before -> after``, or ``after`` alone when there is no before."""
    return f"{format(before, fmt)} → {format(after, fmt)}" if before is not None else format(after, fmt)


def main() -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--before", help="directory holding an earlier fred package")
    parser.add_argument("--before-label", help="what --before holds, for the report (default: its path)")
    parser.add_argument("--authors", default=os.environ.get("FRED_AUTHORS_CHECKOUT"),
                        help="the authors' checkout (default $FRED_AUTHORS_CHECKOUT)")
    parser.add_argument("--append", help="also append the report to this markdown file")
    parser.add_argument("--note", default="", help="a remark on the conditions, printed under the machine line")
    args = parser.parse_args()
    authors = args.authors if args.authors and (Path(args.authors) / "fred" / "explainer.py").is_file() else None
    if args.authors and authors is None:
        print(f"no authors' fred/explainer.py under {args.authors}: their columns stay empty", file=sys.stderr)

    results = []
    with tempfile.TemporaryDirectory() as workdir:
        pipelines, authors_cache = {}, {}
        for row in ROWS:
            load, n_tokens, n, search = DOCUMENTS[row.document]
            if (row.document, row.model) not in pipelines:
                texts, labels = load()
                doc = pick_document(texts, n_tokens)
                pickled = Path(workdir) / f"pipe{len(pipelines)}.pkl"
                pickled.write_bytes(pickle.dumps(fit_pipeline(row.model, texts, labels, held_out=doc)))
                pipelines[(row.document, row.model)] = (str(pickled), texts[doc], doc)
            pickled, text, doc = pipelines[(row.document, row.model)]
            spec = dict(pipeline=pickled, text=text, mode=row.mode, latency=row.latency, n_samples=n,
                        search=search, repeats=args.repeats)
            after = run_worker({**spec, "impl": "fred"}, workdir)
            before = run_worker({**spec, "impl": "fred", "path": args.before}, workdir) if args.before else None
            authors_key = (row.document, row.model, row.mode == "blackbox", row.latency)
            if authors and authors_key not in authors_cache:
                mode = row.mode if row.mode == "blackbox" else "strings"  # their only path
                authors_cache[authors_key] = run_worker({**spec, "mode": mode, "impl": "authors", "path": authors},
                                                        workdir)
            for result in (before, after):
                if result is not None and result["fast_path"] != (row.mode == "fast"):
                    sys.exit(f"{row}: the explanation's fast_path.active is {result['fast_path']}")
            results.append((row, doc, before, after, authors_cache.get(authors_key)))
            print(f"done: {row.document}, {row.model}, {row.label}", file=sys.stderr)

    rows = []
    for row, doc, before, after, theirs in results:
        total = statistics.median(after["total"])
        total_before = statistics.median(before["total"]) if before else None
        same = "" if before is None else ("yes" if (before["best_ids"], before["found"]) ==
                                          (after["best_ids"], after["found"]) else "NO")
        rows.append((
            f"{row.document} (#{doc})", row.model, row.label, str(after["n"]), str(after["distinct_patterns"]),
            cell(before and before["asked"], after["asked"], "d"),
            cell(total_before, total, ".3f"),
            f"{total_before / total:.1f}x" if before else "", same,
            f"{statistics.median(after['inside']):.4f}",
            f"{statistics.median(after['draw']):.4f}",
            cell(share_outside(before), share_outside(after), ".0%"),
            f"{statistics.median(theirs['total']):.3f}" if theirs else "",
            f"{statistics.median(theirs['total']) / total:.1f}x" if theirs else "",
        ))
    header = ["document", "model", "classifier_fn", "n", "distinct patterns", "asked (before → after)",
              "total s (before → after)", "speed-up", "same best_ids", "in classifier s", "design draw s",
              "outside classifier",
              "authors s", "authors / ours"]

    def find(document, model, mode, latency=0.0):
        return next(r for r in results if r[0] == Row(document, model, mode, latency))

    _, _, _, fast, theirs = find("yelp, 150 tokens", "logistic", "fast")
    strings = find("yelp, 150 tokens", "logistic", "strings")[3]
    total = statistics.median(fast["total"])
    ratio = statistics.median(theirs["total"]) / total if theirs else None
    inside, draw = statistics.median(fast["inside"]), statistics.median(fast["draw"])
    # outside / (inside + outside) <= TARGET_OUTSIDE  <=>  outside <= inside * TARGET_OUTSIDE / (1 - TARGET_OUTSIDE)
    allowed = inside * TARGET_OUTSIDE / (1 - TARGET_OUTSIDE)
    outside_ok = share_outside(fast) <= TARGET_OUTSIDE
    floor = (f"; drawing the design alone takes {draw * 1e3:.2f} ms, "
             f"{'more' if draw > allowed else 'less'} than the {allowed * 1e3:.2f} ms the target leaves outside "
             f"the classifier's {inside * 1e3:.2f} ms")
    # The fast path replaces the classifier's work on the texts by a count matrix, so its own "inside" time
    # shrinks below the sampler's draw; the restated target compares with the classifier's time on the texts.
    classifier_on_texts = statistics.median(strings["inside"])
    verdicts = [(f"yelp 150 tokens, logistic, fast path, beam: >= {TARGET_AUTHORS_RATIO:.0f}x faster than the "
                 "authors' code", None if ratio is None else ratio >= TARGET_AUTHORS_RATIO,
                 "authors' checkout not given" if ratio is None else f"{ratio:.1f}x"),
                (f"same row: time outside the classifier <= {TARGET_OUTSIDE:.0%} of the total",
                 outside_ok if outside_ok or draw <= allowed else "unreachable", f"{share_outside(fast):.0%}{floor}"),
                (f"same row, restated: whole explanation <= {TARGET_FAST_VS_CLASSIFIER:.0%} of the classifier's own "
                 "time on the same n texts (strings row, in classifier)",
                 total <= TARGET_FAST_VS_CLASSIFIER * classifier_on_texts,
                 f"{total * 1e3:.1f} ms = {total / classifier_on_texts:.1%} of {classifier_on_texts * 1e3:.1f} ms")]
    for row, _, _, after, _ in results:
        if row.document.startswith("restaurants") and row.mode != "strings":
            allowed = after["distinct_patterns"] + 1 + (CHECK_ROWS if row.mode == "fast" else 0)
            verdicts.append((f"10 tokens, {row.model}, {row.label}: asked <= distinct patterns + the text"
                             + (f" + {CHECK_ROWS} check rows" if row.mode == "fast" else ""),
                             after["asked"] <= allowed, f"{after['asked']} <= {allowed}"))
    labels = {None: "not measured", True: "met", False: "MISSED",
              "unreachable": "MISSED, unreachable (the design draw alone exceeds it)"}
    lines = [f"- {labels[ok]}: {what} ({detail})" for what, ok, detail in verdicts]
    report = "\n".join([
        f"Seconds per explanation, median of {args.repeats} runs after a warm-up, each cell in a fresh interpreter; "
        "FRED random_state=0; before = "
        + (f"`fred` of {args.before_label or args.before}" if args.before else "not run")
        + "; authors = " + (f"their checkout at `{authors}`" if authors else "not run") + ".",
        "",
        *provenance(args.note),
        "",
        markdown_table(header, rows),
        "",
        "Targets (issue 17; the third, every row of bench_compare faster than LIME and SHAP, is checked there; "
        "the second is restated, see the module docstring):",
        "",
        *lines,
    ])
    emit(report, args.append, "a", "\n## The classifier's own time, before and after, and the authors' code "
                                   "(bench_speed.py)")


if __name__ == "__main__":
    main()
