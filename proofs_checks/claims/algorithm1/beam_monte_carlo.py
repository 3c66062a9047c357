"""Monte Carlo drops at the paper's n and the released code's n: on one sample, does the width-4 beam return what
Algorithm 1 returns? (claim algorithm1-beam, steps s4)

The paper's n is Lemma 2's at alpha = 0.95, p = 1/2, l_max = 10 (3067, "n approx 3000", line 374); the released
code's is 5000. Both searches run in the explainer under check (``search="exhaustive"`` and ``"beam"``) on the
same sample (same ``random_state``), as a classifier whose positive-class probability is f = t / max(t) for an
integer table t; every run is recomputed exactly: the Monte Carlo drops of Eq. (3) from the sample's rows in
Fractions (integer sums of t), both searches by :func:`analytic.search.search_on_drops`. A disagreement counts only
when the exact recomputation shows it and the explainer's two answers are the exact ones.

Two models: the table of the claim's step s2 (its exact drops separate the searches), and linear scores with
nearly tied weights, b = 8: t = 1600 + sum of w_i over the kept positions, w_i = max(1, 100 + round(10 z_i)) with
z_i standard normal (weights 1 + z_i/10 and intercept 2b, in hundredths), f = t / max t; each run draws its own
weights, which the values record (``near_tied_models``). On their exact drops the searches agree (the best set of
each size nests) but their estimated drops are close enough for the sample to reorder them.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from analytic import all_drops_rational, code_of, sample_size_rational, search_on_drops, table_classifier
from analytic.exact_cache import exact_cache
from analytic.patterns import table_b
from fred_constants import ALPHA_EXACT, DELTA, EPS, EPS_EXACT, MAX_LEN, P_EXACT, RELEASED_N_SAMPLES, RELEASED_WIDTH, P

from ...statistics.intervals import clopper_pearson
from ...statistics.seeds import statistical_seed
from ...subject.explainer import explainer

PAPER_N = sample_size_rational(ALPHA_EXACT, P_EXACT, MAX_LEN)
RUNS = 40  # per model and n
SEED = 20261127
NEAR_TIED_B = 8


def near_tied_table(rng: np.random.Generator, b: int = NEAR_TIED_B) -> np.ndarray:
    """Integer table of t = 200 b + sum over kept positions of w_i, w_i = 100 + round(10 z_i) (at least 1), z
    standard normal: a linear score with weights 1 + z/10 and intercept 2b, in hundredths."""
    weights = np.maximum(1, 100 + np.rint(10 * rng.normal(size=b))).astype(np.int64)
    codes = np.arange(2**b)
    kept = ((codes[:, None] >> np.arange(b)) & 1) == 0
    return 200 * b + kept.astype(np.int64) @ weights


def linear_parameters(table: np.ndarray) -> dict:
    """The intercept (t with every position perturbed) and the weights (t(xi) - t(xi with i perturbed)) of a linear
    integer table, and its scale max t: what a near-tied run's model is, read back from its table."""
    b = table_b(table)
    return {"intercept": int(table[-1]), "weights": [int(table[0] - table[1 << i]) for i in range(b)],
            "scale": int(table.max())}


def sample_drops(table, perturbed: np.ndarray) -> tuple[Fraction, dict[int, Fraction]]:
    """The Monte Carlo drops of Eq. (3) of one sample, in Fractions, keyed by pattern code: drop(S) = mean t -
    (sum of t over the rows perturbing all of S) / their number (integer sums: exact); sets no row perturbs are
    undefined (absent). Returns (the sample mean of t, the drops)."""
    n, b = perturbed.shape
    codes = perturbed.astype(np.int64) @ (1 << np.arange(b))
    count = np.bincount(codes, minlength=2**b).astype(np.int64)
    total = np.zeros(2**b, np.int64)
    np.add.at(total, codes, np.asarray(table, np.int64)[codes])  # integer sums: exact
    for i in range(b):  # superset sums over the codes: the rows perturbing all of S
        bit = 1 << i
        lower = np.flatnonzero((np.arange(2**b) & bit) == 0)
        count[lower] += count[lower | bit]
        total[lower] += total[lower | bit]
    mean = Fraction(int(total[0]), n)
    return mean, {c: mean - Fraction(int(total[c]), int(count[c])) for c in range(1, 2**b) if count[c]}


def exact_on_sample(table: np.ndarray, perturbed: np.ndarray, eps: Fraction) -> dict:
    """Algorithm 1 and the width-4 beam on the Monte Carlo drops (Eq. 3) of one sample (:func:`sample_drops`), in
    Fractions. A boolean sample is looked up by its packed bits (the same sample from another subject is searched
    once)."""
    integers = tuple(int(v) for v in np.asarray(table).ravel())
    if perturbed.dtype == bool:
        a, c = _searches_on_packed(integers, np.packbits(perturbed, axis=None).tobytes(), perturbed.shape, eps)
    else:
        a, c = _searches_on_sample(integers, perturbed, eps)
    return {"algorithm1": a, "beam": c}


def _searches_on_sample(table: tuple, perturbed: np.ndarray, eps: Fraction) -> tuple:
    """(Algorithm 1, the width-4 beam) on the sample's drops of Eq. (3), in Fractions."""
    mean, drops = sample_drops(table, perturbed)
    b = perturbed.shape[1]
    return tuple(search_on_drops(drops, b, eps * mean, MAX_LEN, width=width) for width in (None, RELEASED_WIDTH))


@exact_cache  # a pure function of the table and the sample's bits; the outcomes are frozen
def _searches_on_packed(table: tuple, packed: bytes, shape: tuple, eps: Fraction) -> tuple:
    """:func:`_searches_on_sample` on the boolean sample of ``shape`` whose bits ``np.packbits`` packed."""
    bits = np.unpackbits(np.frombuffer(packed, np.uint8), count=int(np.prod(shape)))
    return _searches_on_sample(table, bits.reshape(shape).astype(bool), eps)


@exact_cache  # the same tables for every subject (they come from the seed)
def _exact_full_drops_agree(table: tuple) -> bool:
    """Algorithm 1 and the beam agree on the exact drops (p = 1/2, Eq. 1) of the integer table ``table``."""
    b = table_b(table)
    mean, drops = all_drops_rational(list(table), P_EXACT)
    by_code = {code_of(s): d for s, d in drops.items()}
    a, c = (search_on_drops(by_code, b, EPS_EXACT * mean, MAX_LEN, width=w) for w in (None, RELEASED_WIDTH))
    return (a.best_ids, a.found) == (c.best_ids, c.found)


def monte_carlo(s2_table) -> dict:
    """Runs of both searches at n = PAPER_N and RELEASED_N_SAMPLES on the two models (the claim's s2 table, and a
    fresh near-tied linear model per run); per model and n the confirmed disagreements (explanation: another
    candidate or found flag; solution: another size or found flag, so the beam's answer is no solution of the
    empirical Eq. 4), Clopper-Pearson intervals, the first examples, and each near-tied run's intercept, weights and
    scale."""
    seed = statistical_seed(SEED)
    models = {"s2 table": lambda rng: np.asarray(s2_table, np.int64),
              f"near-tied linear, b = {NEAR_TIED_B}": near_tied_table}
    out = {}
    for m, (name, make) in enumerate(models.items()):
        for n in (PAPER_N, RELEASED_N_SAMPLES):
            rec = {"runs": RUNS, "explanation": 0, "solution": 0, "explainer_not_exact": 0,
                   "exact_drops_agree": 0, "examples": []}
            if name.startswith("near"):
                rec["near_tied_models"] = []
            for r in range(RUNS):
                table = make(np.random.default_rng([seed, m, n, r, 0]))
                if name.startswith("near"):
                    rec["near_tied_models"].append({"run": r, **linear_parameters(table)})
                b = table_b(table)
                tokens = [f"t{i}" for i in range(b)]
                clf = table_classifier(tokens, table / table.max(), n_classes=2)
                state = np.random.SeedSequence([seed, m, n, r, 1])
                runs = {s: explainer(clf, search=s, beam_width=RELEASED_WIDTH, random_state=state).explain(
                    " ".join(tokens), label=1, p=P, eps=EPS, max_len=MAX_LEN, n_samples=n)
                    for s in ("exhaustive", "beam")}
                if not np.array_equal(runs["exhaustive"].sample_perturbed, runs["beam"].sample_perturbed):
                    raise AssertionError("the same random_state gave two different samples")
                exact = exact_on_sample(table, runs["exhaustive"].sample_perturbed, EPS_EXACT)
                a, c = exact["algorithm1"], exact["beam"]
                matches = all((tuple(runs[s].best_ids), runs[s].found) == (exact[k].best_ids, exact[k].found)
                              for s, k in (("exhaustive", "algorithm1"), ("beam", "beam")))
                rec["explainer_not_exact"] += not matches
                rec["exact_drops_agree"] += _exact_full_drops_agree(tuple(int(v) for v in table))
                kinds = {"explanation": (a.best_ids, a.found) != (c.best_ids, c.found),
                         "solution": (len(a.best_ids), a.found) != (len(c.best_ids), c.found)}
                for kind, differs in kinds.items():
                    rec[kind] += bool(differs and matches)
                if kinds["explanation"] and matches and len(rec["examples"]) < 2:
                    rec["examples"].append({"run": r, "seed_sequence": [seed, m, n, r, 1],
                                            "table_weights_seed": [seed, m, n, r, 0],
                                            "algorithm1": list(a.best_ids), "beam": list(c.best_ids),
                                            "algorithm1_drop": str(a.drop), "beam_drop": str(c.drop)})
            for kind in ("explanation", "solution"):
                rec[f"{kind}_rate"] = rec[kind] / RUNS
                rec[f"{kind}_clopper_pearson"] = [float(x) for x in clopper_pearson(rec[kind], RUNS, DELTA)]
            out[f"{name}, n = {n}"] = rec
    return {"runs_per_model_and_n": RUNS, "paper_n": PAPER_N, "released_n": RELEASED_N_SAMPLES, "p": P,
            "eps": str(EPS_EXACT), "max_len": MAX_LEN, "sampler": "mask", "seed": seed,
            "false_alarm_probability": DELTA,
            "near_tied_model": f"t = intercept + sum of w_i over the kept positions, intercept = {200 * NEAR_TIED_B}, "
                               "w_i = max(1, 100 + round(10 z_i)), z_i standard normal from numpy's "
                               "default_rng([seed, 1, n, run, 0]); f = t / scale, scale = max t = intercept + sum "
                               "w_i; each run's values in near_tied_models",
            "delta_is": "the error probability of each Clopper-Pearson interval; a confirmed disagreement is a "
                        "fact of its seed (no false alarm is possible)", "by_model_and_n": out}
