"""Appendix B.1: the average document length of each dataset ("about 10" for Restaurants, "about 150" for Yelp).

Line 1109 describes the datasets ("the datasets have a substantial difference in document length"), so the
headline reading is the datasets' mean token count, counted as the released pipeline counts tokens (its loaders'
cleaning, then whitespace tokens) over every document of the dataset. Line 1110 ("this difference has a relevant
impact on explainers' behavior") and line 1172 (the metrics are computed on "the first 100 instances ranked by
length of positively classified documents") make the documents the experiments explain matter: the alternative
reading is that those documents have the stated mean length. The released pipeline (``main.py``, run as an outside
program by :mod:`proofs_checks.subject.authors_pipeline`) hands its evaluation the positively classified test
documents with at least 4 tokens (a filter the paper does not mention), sorted by length, the first 100.

"About x" is read as within :data:`ABOUT` of x, relatively (a fifth: 10 covers 8 to 12, 150 covers 120 to 180);
each step records its verdict over :data:`TOLERANCES` and the tolerance at which it turns. Step s2 also shows the means
under other ways of counting tokens (:data:`COUNTINGS`, on the raw text: not deciding the step), and says the means
are over the files the released loaders read, not the Kaggle datasets the footnotes cite. "Varying" (line 547)
and "substantial difference" (line 1109) are read with the same yardstick: the largest mean is more than (1 +
ABOUT) times the smallest, so the two are not "about" each other.

The corrected statement says what the explained documents are, and adds a check that needs no data: FRED's
explanation has at most l_max = 10 tokens (the released default), so a table's printed mean proportion pi of FRED
(|e|/|xi| averaged over its documents) bounds the harmonic mean of its documents' lengths by 10 / (pi - 0.0005)
(rounding included). On the IMDb tables (IMDb is not on this machine) this bounds the explained documents far
below 230. A harmonic mean is at most the arithmetic mean, so the bound says the explained documents are mostly
short, not what their arithmetic mean is.

Not run here: the Tweets and IMDb datasets are not on this machine (nothing is downloaded); their lengths are not
computed, and the IMDb tables enter only through the bound.
"""

from __future__ import annotations

import re
from statistics import mean, median

from sklearn.feature_extraction.text import TfidfVectorizer

from fred.evaluation.datasets import dataset_available, load_dataset
from fred_constants import MAX_LEN

from ...paper.tables import TABLES, accuracy_key
from ...paper.yardstick import MEAN_ROUNDING
from ...paper.yardstick import sensitivity as yardstick_sensitivity
from ...subject.authors_pipeline import PIPELINE_MODELS, not_run, pipeline_runs
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult

CLAIM = Claim("experiment-document-lengths", new=True)
DATASETS, EXPLAINED = "datasets", "explained"
#: The paper's average lengths (line 1109) of the datasets run here.
STATED = {"restaurants": 10, "yelp": 150}
#: IMDb's stated length (line 1109: "in IMDb it is $230$"), which the correction's bound speaks to.
IMDB_STATED = 230
#: "About x": within this fraction of x. Also the yardstick of "varying" (no two means about each other).
ABOUT = 0.2
#: The tolerances each step's sensitivity table reports.
TOLERANCES = (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
#: The shortest document the released selection keeps (it keeps texts with more than two spaces).
RELEASED_MIN_TOKENS = 4
#: How many documents the metrics are computed on (line 1172).
N_EXPLAINED = 100
#: Other ways of counting a raw document's tokens (the sensitivity of s2 to the counting; the released one is the
#: loaders' cleaning, then whitespace): name -> the pattern whose matches are the tokens.
COUNTINGS = {"whitespace on the raw text": r"\S+",
             "scikit-learn's token pattern (TfidfVectorizer's, 2+ word characters, raw text)":
                 TfidfVectorizer().token_pattern,
             "words and punctuation marks (\\w+ and each other non-space character, raw text)": r"\w+|[^\w\s]"}
SENTENCE = Quote(1109, "Note that the datasets have a substantial difference in document length: while the average "
                       "length of tokens in Restaurants and Tweets is about $10$, for Yelp it is about $150$, in IMDb "
                       "it is $230$.")
SOURCE = (
    SENTENCE,
    Quote(1110, "As shown below, this difference has a relevant impact on explainers' behavior."),
    Quote(1108, r"We employ three sentiment analysis datasets: Restaurants\footnote{https://www.kaggle.com/hj5992/"
                r"restaurantreviews}, Yelp reviews\footnote{https://www.kaggle.com/omkarsabnis/yelp-reviews-dataset}"),
    Quote(547, r"with varying document lengths (details in Appendix~\ref{appendix-sec:experiments})."),
    Quote(1172, "Finally, the metrics are computed over the first $100$ instances ranked by length of positively "
                "classified documents from each test set."),
)
READINGS = (
    Reading(DATASETS, "headline", "each dataset's mean token count (every document, the released tokenisation) is "
            "about the stated value", why=(Quote(1109, "Note that the datasets have a substantial difference in "
                                                       "document length"),)),
    Reading(EXPLAINED, "alternative", "the documents the experiments explain, as line 1172 describes them (checked "
            "against the released selection), have about the stated mean length",
            why=(Quote(1110, "this difference has a relevant impact on explainers' behavior."),
                 Quote(1172, "the metrics are computed over the first $100$ instances ranked by length of "
                             "positively classified documents"))),
)
STATEMENT = (
    'Appendix B.1 (line 1109): "the datasets have a substantial difference in document length: while the average '
    'length of tokens in Restaurants and Tweets is about 10, for Yelp it is about 150, in IMDb it is 230"; section 4 '
    '(line 547): datasets "with varying document lengths".'
)
CONDITIONS = (
    f"'About x' read as within {ABOUT:.0%} of x (a sensitivity table over {list(TOLERANCES)} in each step); tokens "
    "as the released pipeline counts them; the explained documents are those the released main.py (outside program, "
    "seed 42) hands its evaluation; the means are over the files the released loaders read, not over the Kaggle "
    "datasets the footnotes cite (line 1108), which are not on this machine; s2 also shows the means under other "
    "ways of counting tokens. Not run here: Tweets and IMDb (the datasets are not on this machine and nothing is "
    "downloaded); IMDb enters only through the printed proportions' bound."
)
CORRECTED = (
    "The datasets' mean lengths are as stated (Restaurants about 10, Yelp about 150: 133 tokens, median 97). The "
    "documents the experiments explain are the shortest positively classified test documents of at least 4 tokens "
    "(a filter the paper does not state): on Yelp their mean length is far below the dataset's, and on IMDb the "
    "printed proportions of FRED bound their harmonic mean length far below 230 in every model's tables."
)


def relative_gap(value: float, stated: float) -> float:
    """|value - stated| / stated: the smallest tolerance at which ``value`` is "about" ``stated``."""
    return abs(value - stated) / stated


def within(gaps: dict, tolerance: float) -> dict:
    """The outcome at ``tolerance``: holds when every relative gap is within it, with how many are."""
    inside = sum(g <= tolerance for g in gaps.values())
    return {"status": "holds" if inside == len(gaps) else "fails", "within": f"{inside} of {len(gaps)}"}


def sensitivity(gaps: dict) -> dict:
    """The report's sensitivity table (:func:`proofs_checks.paper.yardstick.sensitivity`) of "every gap within the
    tolerance" over :data:`TOLERANCES`, :data:`ABOUT` declared; the verdict turns at the largest gap."""
    return yardstick_sensitivity(lambda t: within(gaps, t), "relative tolerance of 'about'", ABOUT, TOLERANCES)


def length_row(lengths: list[int], stated: float) -> dict:
    return {"n": len(lengths), "mean": mean(lengths), "median": median(lengths), "stated": stated,
            "relative_gap": relative_gap(mean(lengths), stated)}


def varying(runs: dict | None) -> StepResult:
    """s1: line 547's "varying document lengths": the largest dataset mean is more than 1 + ABOUT times the
    smallest."""
    if runs is None:
        return CLAIM.argued("s1-varying", "statement", not_run("compares the datasets' mean lengths."),
                            reading=DATASETS)
    means = {d: mean(runs["dataset_lengths"][d]) for d in STATED}
    ratio = max(means.values()) / min(means.values())
    return CLAIM.checked("s1-varying", "statement", "exhaustive",
                         f"Mean token counts {', '.join(f'{d} {m:.1f}' for d, m in means.items())}: ratio "
                         f"{ratio:.1f} > {1 + ABOUT}.",
                         holds=ratio > 1 + ABOUT, values={"means": means, "ratio": ratio}, reading=DATASETS)


def counting_sensitivity() -> dict | None:
    """Per dataset, the mean token count of the raw documents under each of :data:`COUNTINGS`, with its relative
    gap to the stated value (None without the data)."""
    if not all(dataset_available(d) for d in STATED):
        return None
    rows = {}
    for d, stated in STATED.items():
        raw = load_dataset(d, clean=False).texts
        rows[d] = {"documents": len(raw), **{name: length_row([len(re.findall(pattern, t)) for t in raw], stated)
                                             for name, pattern in COUNTINGS.items()}}
    return rows


def counting_note(rows: dict | None) -> str:
    """The sentence of s2 on the counting's sensitivity and on which documents the means are over."""
    if rows is None:
        return ""
    return (" Counted otherwise (not deciding the step): " + "; ".join(
        f"{d} " + ", ".join(f"{name} {r['mean']:.1f} (off {r['relative_gap']:.0%})" for name, r in row.items()
                            if name != "documents") for d, row in rows.items())
        + ". The means are over the files the released loaders read ("
        + ", ".join(f"{d} {row['documents']} documents" for d, row in rows.items())
        + "), not over the Kaggle datasets the footnotes cite (line 1108), which are not on this machine.")


def dataset_means(runs: dict | None, step: str = "s2-dataset-means", role: str = "statement") -> StepResult:
    """s2 (and c1, the same computation for the corrected statement): each dataset's mean token count is within
    ABOUT of the stated value (headline reading)."""
    reading = DATASETS if role == "statement" else None
    if runs is None:
        return CLAIM.argued(step, role, not_run(
            "counts the tokens of every document of restaurants.tsv and yelp.csv as the released loaders clean them."),
            reading=reading)
    rows = {d: length_row(runs["dataset_lengths"][d], STATED[d]) for d in STATED}
    gaps = {d: r["relative_gap"] for d, r in rows.items()}
    counted = counting_sensitivity() if role == "statement" else None
    return CLAIM.checked(
        step, role, "exhaustive",
        "Every document, tokens as the released loaders clean them: "
        + "; ".join(f"{d} mean {r['mean']:.1f} (median {r['median']:g}, {r['n']} documents) against 'about "
                    f"{r['stated']}': off by {r['relative_gap']:.1%}" for d, r in rows.items())
        + f". Within {ABOUT:.0%}: {max(gaps.values()) <= ABOUT}; it holds from a tolerance of "
          f"{max(gaps.values()):.1%}." + counting_note(counted),
        holds=max(gaps.values()) <= ABOUT, values={  # the tables once, on the statement step
            "rows": rows, "holds_from_tolerance": max(gaps.values()),
            **({"sensitivity": sensitivity(gaps), "counting_sensitivity": counted} if role == "statement" else {})},
        reading=reading)


def explained_rows(runs: dict) -> dict:
    return {f"{d}/{m}": length_row(runs["runs"][d][m]["explained_lengths"], STATED[d])
            for d in STATED for m in PIPELINE_MODELS}


def explained_means(runs: dict | None) -> StepResult:
    """s3: the documents the released pipeline explains, per dataset and model: mean length within ABOUT of the
    stated value (alternative reading)."""
    if runs is None:
        return CLAIM.argued("s3-explained-means", "statement", not_run(
            "reads the documents the released main.py hands its evaluation for each dataset and TF-IDF model."),
            reading=EXPLAINED)
    rows = explained_rows(runs)
    gaps = {k: r["relative_gap"] for k, r in rows.items()}
    return CLAIM.checked(
        "s3-explained-means", "statement", "exhaustive",
        "The documents the released main.py explains (positive predictions of at least "
        f"{RELEASED_MIN_TOKENS} tokens, shortest first, the first {N_EXPLAINED}): "
        + "; ".join(f"{k} mean {r['mean']:.1f} (median {r['median']:g}) against {r['stated']}"
                    for k, r in rows.items())
        + f". Within {ABOUT:.0%}: {max(gaps.values()) <= ABOUT}; it would hold from a tolerance of "
          f"{max(gaps.values()):.1%}.",
        holds=max(gaps.values()) <= ABOUT, values={"rows": rows, "holds_from_tolerance": max(gaps.values()),
                                                   "sensitivity": sensitivity(gaps)}, reading=EXPLAINED)


def described_selection(run: dict) -> dict:
    """Line 1172's selection on a run's test set (the first 100 positively classified documents by length, ties in
    the test set's order) against the documents the released pipeline explains."""
    positives = sorted((n, i) for i, (n, y) in enumerate(zip(run["test_lengths"], run["test_predicted"])) if y == 1)
    described = [n for n, _ in positives[:N_EXPLAINED]]
    kept = [n for n, _ in positives if n >= RELEASED_MIN_TOKENS][:N_EXPLAINED]
    short = sum(n < RELEASED_MIN_TOKENS for n, _ in positives)
    return {"positives": len(positives), "positives_below_min_tokens": short,
            "described_lengths_mean": mean(described), "explained_lengths_mean": mean(run["explained_lengths"]),
            "released_is_the_filtered_selection": kept == run["explained_lengths"],
            # the described selection's documents of at least 4 tokens are a prefix of the released one
            "documents_differing": sum(n < RELEASED_MIN_TOKENS for n in described),
            "same_documents": described == run["explained_lengths"]}


def selection(runs: dict | None) -> StepResult:
    """s4: line 1172 describes the documents the released pipeline explains (alternative reading: it defines them)."""
    if runs is None:
        return CLAIM.argued("s4-selection", "statement", not_run(
            "compares the documents the released main.py explains with line 1172's description."),
            reading=EXPLAINED)
    rows = {f"{d}/{m}": described_selection(runs["runs"][d][m]) for d in STATED for m in PIPELINE_MODELS}
    return CLAIM.checked(
        "s4-selection", "statement", "exhaustive",
        f"The released main.py explains the first {N_EXPLAINED} positively classified test documents by length "
        f"among those of at least {RELEASED_MIN_TOKENS} tokens (checked: "
        f"{all(r['released_is_the_filtered_selection'] for r in rows.values())}). Line 1172 does not state the "
        "filter: the selection it describes differs from the explained documents in "
        + ", ".join(f"{k} {r['documents_differing']}" for k, r in rows.items())
        + " documents (positives shorter than the filter keeps; mean lengths described/explained: "
        + ", ".join(f"{r['described_lengths_mean']:.1f}/{r['explained_lengths_mean']:.1f}" for r in rows.values())
        + ").",
        holds=all(r["same_documents"] for r in rows.values()), values={"rows": rows}, reading=EXPLAINED)


def explained_shorter(runs: dict | None) -> StepResult:
    """c2: the explained documents are the filtered selection, and on Yelp their mean length is below the
    dataset's by more than ABOUT, for every model."""
    if runs is None:
        return CLAIM.argued("c2-explained-shorter", "correction", not_run(
            "compares the explained documents' mean length with the dataset's."))
    rows = explained_rows(runs)
    dataset = {d: mean(runs["dataset_lengths"][d]) for d in STATED}
    below = {k: r["mean"] < (1 - ABOUT) * dataset[k.split("/")[0]] for k, r in rows.items() if k.startswith("yelp")}
    filtered = {f"{d}/{m}": described_selection(runs["runs"][d][m])["released_is_the_filtered_selection"]
                for d in STATED for m in PIPELINE_MODELS}
    return CLAIM.checked(
        "c2-explained-shorter", "correction", "exhaustive",
        f"Every run explains the first {N_EXPLAINED} positive test documents of at least {RELEASED_MIN_TOKENS} "
        f"tokens by length: {all(filtered.values())}. Yelp's explained documents against the dataset's mean "
        f"{dataset['yelp']:.1f}: " + ", ".join(f"{k} {rows[k]['mean']:.1f}" for k in below)
        + f", each below {1 - ABOUT:.0%} of it: {all(below.values())}.",
        holds=all(below.values()) and all(filtered.values()),
        values={"dataset_means": dataset, "explained": rows, "yelp_below": below, "filtered_selection": filtered})


def harmonic_bounds() -> dict:
    """Per comparison table: MAX_LEN / (pi - rounding), pi the printed mean proportion of FRED-mask and of
    FRED-pos, each explanation having at most MAX_LEN tokens (the bound on the documents' harmonic mean length)."""
    return {label: {"dataset": accuracy_key(label)[0], "model": accuracy_key(label)[1],
                    **{row: {"proportion": t.mean(row, "proportion"),
                             "harmonic_mean_at_most": MAX_LEN / (t.mean(row, "proportion") - MEAN_ROUNDING)}
                       for row in ("fred", "fredpos")}}
            for label, t in TABLES.items()}


def imdb_bound() -> StepResult:
    """c3: for every IMDb model, a table of its documents bounds their harmonic mean length below (1 - ABOUT) * 230
    (from the printed tables alone: no data)."""
    bounds = harmonic_bounds()
    per_model = {}
    for b in bounds.values():
        if b["dataset"] == "IMDB":
            best = min(b["fred"]["harmonic_mean_at_most"], b["fredpos"]["harmonic_mean_at_most"])
            per_model[b["model"]] = min(per_model.get(b["model"], best), best)
    far = {m: v < (1 - ABOUT) * IMDB_STATED for m, v in per_model.items()}
    yelp_distilbert = min(min(b["fred"]["harmonic_mean_at_most"], b["fredpos"]["harmonic_mean_at_most"])
                          for b in bounds.values() if (b["dataset"], b["model"]) == ("Yelp", "DistilBERT"))
    return CLAIM.checked(
        "c3-imdb-harmonic-bound", "correction", "exhaustive",
        f"FRED's explanation has at most {MAX_LEN} tokens, so a table's mean proportion pi (printed, less "
        f"{MEAN_ROUNDING} for rounding) bounds its documents' harmonic mean length by {MAX_LEN}/pi. IMDb, smallest "
        "bound over each model's tables and FRED rows: " + ", ".join(f"{m} {v:.1f}" for m, v in per_model.items())
        + f"; each below {(1 - ABOUT) * IMDB_STATED:g} ({1 - ABOUT:.0%} of {IMDB_STATED}): {all(far.values())} "
          f"(Yelp DistilBERT's: {yelp_distilbert:.1f}). A harmonic mean is at most the arithmetic mean: the "
          "documents are mostly short; their arithmetic mean is not bounded.",
        holds=bool(far) and all(far.values()), values={"imdb_bound_per_model": per_model, "far_below": far,
                                                       "tables": bounds})


def check() -> ClaimResult:
    """The released pipeline's datasets and explained documents (one outside program, cached), and the printed
    proportions' bound."""
    runs = pipeline_runs()
    steps = (varying(runs), dataset_means(runs), explained_means(runs), selection(runs),
             dataset_means(runs, "c1-dataset-means", "correction"), explained_shorter(runs), imdb_bound())
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, corrected=CORRECTED, source=SOURCE, readings=READINGS)
