"""The lime package run as the evaluation runs it, or with its own defaults, at given n and seeds, beside its exact
limit; the convergence statistics of claim ``baseline-lime``, of the LIME figure and of ``tools/baseline_limits.py``.

Setting ``"evaluation"``: the package is called as ``fred/evaluation/explainers.py`` (``LimeAdapter``) calls it:
``LimeTextExplainer(class_names, bow=False, split_expression=r"\\s+", random_state=seed)`` and
``explain_instance(text, predict, labels=(1,), num_features=b, num_samples=n)``, every other argument at lime's
default; its features are the positions. Setting ``"defaults"`` (the paper's "all default parameters", line 1164):
``LimeTextExplainer(random_state=seed)`` and ``explain_instance(text, predict, num_samples=n)``, i.e. ``bow=True``
(one feature per distinct word, removing it deletes every occurrence), ``split_expression=r"\\W+"``, ``labels=(1,)``
and ``num_features=10`` (every word of the claims' documents, d <= 10); only the seed is set, for reproducibility.
``predict`` is :func:`proofs_checks.paper.baselines.two_columns` of a model's decision function f (models
``definition-1`` and ``l2``) or, as ``LimeAdapter`` is given it, the L2 model's ``predict_proba`` (model
``l2-proba``: columns 1 - sigma(f), sigma(f)). The
exact side comes from :mod:`analytic.lime_text`: the limit beta_inf and the deterministic equivalent beta*_n (the
value at n without the sampling noise) by enumeration over LIME's sampling law, and the closed form (exact on the
additive Definition-1 model, Mardaoui and Garreau's approximation on the L2-normalised one, none on predict_proba).

The convergence test is distribution-free: for two sample sizes n < n', R independent seeds at each (seeds drawn
from one ``SeedSequence``, distinct per rung: runs are not paired across rungs, run r at n and run r at n' are
two independent runs, which is all the sign test needs), the error e = max_i |beta_hat_i - beta_inf,i| of run r at n' is
compared with that of run r at n. If LIME did not improve with n, P(e' < e) <= 1/2 and the number of decreases is
stochastically at most Binomial(R, 1/2): the one-sided exact sign test rejects "no decrease" at level delta when
P(Binomial(R, 1/2) >= decreases) <= delta. It can reach delta only if 2^-R <= delta (R >= 20 at delta = 1e-6);
the reverse test ("no increase") is run the same way, so a rung is shown to improve, shown to worsen, or neither.

A falling error does not show *where* the package goes. At one n, :func:`median_band` brackets the median of each
coefficient distribution-free: over R independent seeds, [min, max] misses the median with probability at most
2^(1-R) (all R draws on one side of it), and it is compared with beta*_n plus or minus a margin m fixed in advance.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import numpy as np
from scipy.stats import binomtest

from analytic import table_from_classifier
from analytic.lime_text import (
    RIDGE_ALPHA,
    lime_additive,
    lime_coefficients,
    lime_l2_linear,
    lime_moments,
)
from fred.evaluation.explainers import CLASS_NAMES, LIME_SAMPLES, POSITIVE, top_k
from fred.markdown_tables import markdown_table
from fred_constants.paper import TIE_RTOL

from ..paper.baselines import DOCUMENT, fitted_l2_model, fitted_model, two_columns
from ..verdicts.results import hypotheses

#: The lime calls: the evaluation's (``LimeAdapter``) and the package's own defaults (line 1164's words).
SETTINGS = ("evaluation", "defaults")

#: The word LIME puts at a removed position with ``bow=False`` (``IndexedString.inverse_removing``): out of the
#: corpus' vocabulary, so removing a position deletes its word from the TF-IDF vector.
MASK_TOKEN = "UNKWORDZ"
#: The two models: Definition 1's (TF-IDF ``norm=None``, additive) and the evaluation's (L2-normalised TF-IDF).
MODELS = ("definition-1", "l2")
#: The evaluation's model as ``LimeAdapter`` is given it: its predict_proba (no closed form; enumeration only).
PROBA = "l2-proba"
#: The claim's ladder of sample sizes (the last is the evaluation's ``LIME_SAMPLES``) and seeds per rung: with 30
#: seeds the sign test reaches 1e-6 with up to 2 rungs out of order (P(Bin(30, 1/2) >= 28) = 4.3e-7).
LADDER = (50, 500, LIME_SAMPLES)
#: Seeds per rung of :data:`LADDER`.
REPEATS = 30
#: ``explain_instance``'s default ``num_features``.
DEFAULT_NUM_FEATURES = 10


def _check_setting(setting: str) -> str:
    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {SETTINGS}, got {setting!r}")
    return setting


def features(text: str, setting: str = "evaluation") -> list[str]:
    """LIME's features of ``text``: its positions (``evaluation``) or its distinct words in order of first
    occurrence (``defaults``, ``bow=True``; the order of lime's ``IndexedString``)."""
    tokens = text.split()
    return tokens if _check_setting(setting) == "evaluation" else list(dict.fromkeys(tokens))


def package_coefficients(predict, text: str, n_samples: int, seed: int, setting: str = "evaluation") -> np.ndarray:
    """LIME's coefficient of each feature of ``text`` (:func:`features`) for class 1, called in ``setting``."""
    from lime.lime_text import (
        LimeTextExplainer,  # the eval extra: absent from a plain install
    )

    d = len(features(text, setting))
    if setting == "evaluation":
        explainer = LimeTextExplainer(class_names=list(CLASS_NAMES), bow=False, split_expression=r"\s+",
                                      random_state=int(seed))
        exp = explainer.explain_instance(text, predict, labels=(POSITIVE,), num_features=d,
                                         num_samples=int(n_samples))
    else:
        if d > DEFAULT_NUM_FEATURES:
            raise ValueError(f"text has {d} distinct words; lime's default num_features={DEFAULT_NUM_FEATURES} "
                             "would not weight them all (see default_returned)")
        exp = _defaults_call(predict, text, n_samples, seed)
    coef = np.zeros(d)
    for feature, weight in exp.as_map()[POSITIVE]:
        coef[feature] = weight
    return coef


def _defaults_call(predict, text: str, n_samples: int, seed: int):
    """lime's explanation of ``text`` with its own defaults, only the seed (and n) set."""
    from lime.lime_text import LimeTextExplainer

    return LimeTextExplainer(random_state=int(seed)).explain_instance(text, predict, num_samples=int(n_samples))


def default_returned(predict, text: str, n_samples: int, seed: int) -> tuple[int, dict[str, float]]:
    """(d, {word: coefficient}) under lime's defaults, any number d of distinct words (lime's own count, its
    ``IndexedString`` of the ``r"\\W+"`` split, case-sensitive): the words the package returns a class-1 coefficient
    for. With d > num_features = 10 its 'auto' selection ('highest_weights') keeps only 10 of them."""
    exp = _defaults_call(predict, text, n_samples, seed)
    words = exp.domain_mapper.indexed_string
    return words.num_words(), {str(words.word(j)): float(c) for j, c in exp.as_map()[POSITIVE]}


def any_length_case(words, sweep_samples: int, seed: int) -> tuple[list[dict], dict]:
    """lime's defaults on Definition 1's linear score and the first d of ``words`` (distinct), d = 1..len(words):
    the sweep (at ``sweep_samples``: which words get a coefficient) and, on all ``words`` at every default
    (num_samples included), the case: the words left without a coefficient, their m_j a_j (m_j = 1), the
    returned coefficients, and the reading's hypotheses (:func:`~proofs_checks.verdicts.results.hypotheses`: Definition
    1's model additive on all 2^d deletion patterns, lime's default bow and num_features, lime's own word count)."""
    from lime.lime_text import (
        LimeTextExplainer,  # the eval extra: absent from a plain install
    )

    words = list(words)
    model = fitted_model()
    predict = two_columns(model.predict)
    sweep = []
    for d in range(1, len(words) + 1):
        counted, got = default_returned(predict, " ".join(words[:d]), sweep_samples, seed)
        sweep.append({"d": d, "lime_distinct_words": counted, "returned": len(got),
                      "unweighted": [w for w in words[:d] if w not in got]})
    text = " ".join(words)
    defaults = inspect.signature(LimeTextExplainer.explain_instance).parameters
    n = defaults["num_samples"].default
    counted, got = default_returned(predict, text, n, seed)
    own = dict(zip(words, (float(x) for x in model.position_weights(words))))
    table = table_from_classifier(model.predict, words, mask_token="")
    kept = (np.arange(2 ** len(words))[:, None] >> np.arange(len(words)) & 1) == 0
    additive_gap = float(np.abs(table - (table[-1] + kept @ np.array(list(own.values())))).max())
    omitted = [w for w in words if w not in got]
    case = {**hypotheses(definition_1_model=additive_gap <= TIE_RTOL * max(1.0, float(np.abs(table).max())),
                         bow_default=inspect.signature(LimeTextExplainer).parameters["bow"].default is True,
                         num_features_default=defaults["num_features"].default == DEFAULT_NUM_FEATURES,
                         d_distinct_words=counted == len(words)),
            "text": text, "d": counted, "num_samples": n, "seed": seed, "omitted": omitted, "m_j_a_j": own,
            "omitted_m_j_a_j": {w: own[w] for w in omitted}, "additive_gap": additive_gap,
            "returned_coefficients": got, "returned_minus_m_j_a_j": {w: got[w] - own[w] for w in got}}
    return sweep, case


def solve_tolerance(d: int, n_samples: int | None, scale: float) -> float:
    """How far two float solutions of LIME's normal equations for d features (at the limit, or at n samples with
    row 0 and the ridge penalty) may differ, from their stated accuracy: each right-hand side sums at most 2^d
    patterns (relative error <= 2^d u) and each backward-stable solve of the (d+1)-square system adds (d+1) u,
    both amplified by the Gram matrix's condition number kappa (built from :func:`analytic.lime_text.lime_moments`;
    z binary, so E[pi z_j^2] = m1): 2 (2^d + d + 1) u kappa scale, for the two solutions compared, ``scale`` the
    size of f.

    >>> 1e-13 < solve_tolerance(7, None, 1.0) < 1e-9
    True
    """
    m = lime_moments(d)
    gram = np.empty((d + 1, d + 1))
    gram[0, 0], gram[0, 1:], gram[1:, 0] = m.m0, m.m1, m.m1
    gram[1:, 1:] = m.m2 + (m.m1 - m.m2) * np.eye(d)
    if n_samples is not None:  # n - 1 random rows, row 0 (all kept, weight 1) and the penalty on the coefficients
        gram = (n_samples - 1) * gram + np.ones((d + 1, d + 1)) + np.diag([0.0, *[RIDGE_ALPHA] * d])
    return float(2 * (2**d + d + 1) * np.finfo(float).eps * np.linalg.cond(gram) * scale)


def solve_tolerances(gaps: dict, d: int, scale: float) -> dict:
    """:func:`solve_tolerance` for each sample size of ``gaps`` (keys ``str(n)``, "None" for the limit)."""
    return {key: solve_tolerance(d, None if key == "None" else int(key), scale) for key in gaps}


def within(row: dict) -> bool:
    """Every closed-form gap of ``row`` at most its :func:`solve_tolerances` entry."""
    return all(gap <= row["closed_form_tolerances"][key] for key, gap in row["closed_form_gaps"].items())


def rung_seeds(seed: int, rungs: int, repeats: int) -> np.ndarray:
    """[rung, repetition] seeds for ``random_state``: independent draws of ``SeedSequence([seed, rung])``."""
    return np.array([np.random.SeedSequence([int(seed), j]).generate_state(repeats) for j in range(rungs)],
                    dtype=np.int64)


@dataclass(frozen=True, eq=False)
class LimeConvergence:
    """The package's coefficients ``coef[rung, repetition, feature]`` at each n of ``ns`` on one model, text and
    setting, with the exact limit (enumeration), the closed form's limit (NaN on ``l2-proba``), and beta*_n by
    enumeration and closed form."""

    model: str
    text: str
    ns: tuple[int, ...]
    seeds: np.ndarray
    coef: np.ndarray
    limit: np.ndarray
    closed_limit: np.ndarray
    equivalents: np.ndarray
    closed_equivalents: np.ndarray
    weights: np.ndarray
    setting: str = "evaluation"

    @property
    def tokens(self) -> list[str]:
        """The features' names: positions' tokens, or distinct words with ``defaults``."""
        return features(self.text, self.setting)

    @property
    def errors(self) -> np.ndarray:
        """[rung, repetition] max_i |beta_hat_i - beta_inf,i|: the package against the exact limit."""
        return np.abs(self.coef - self.limit).max(axis=2)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (the median error per rung, not every run)."""
        return {"model": self.model, "text": self.text, "setting": self.setting, "ns": list(self.ns),
                "repeats": int(self.seeds.shape[1]), "limit": self.limit.tolist(),
                "closed_limit": self.closed_limit.tolist(), "median_error": np.median(self.errors, axis=1).tolist()}


def _probability(f):
    """sigma(f): the positive class' predict_proba of a logistic model whose decision function is f."""
    return lambda texts: 1.0 / (1.0 + np.exp(-np.asarray(f(texts), dtype=float)))


def exact_side(model: str, text: str, ns, setting: str = "evaluation") -> tuple:
    """(predict, limit, closed-form limit, beta*_n per n, closed-form beta*_n per n, the model's per-feature
    weights) of ``model`` on ``text`` in ``setting``. Weights: a_i = lambda_{w(i)} v_{w(i)} per position (or
    m_j lambda_j v_j per word with ``defaults``) for Definition 1; c_i = lambda_i phi_i / |phi(x)| for the L2
    model and its predict_proba, where the closed form is NaN (there is none)."""
    if model not in (*MODELS, PROBA):
        raise ValueError(f"model must be one of {(*MODELS, PROBA)}, got {model!r}")
    tokens, names = text.split(), features(text, setting)
    groups = None if setting == "evaluation" else tokens
    counts = np.array([tokens.count(w) for w in names]) if groups else np.ones(len(names))
    if model == "definition-1":
        fitted = fitted_model()
        f, weights = fitted.predict, np.asarray(fitted.position_weights(names)) * counts
        closed = lambda n: lime_additive(weights, fitted.intercept, n).coef
    else:
        fitted, idf = fitted_l2_model()
        f = fitted
        coef, phi = np.array([fitted.coef[t] for t in names]), np.array([idf[t] for t in names]) * counts
        weights = coef * phi / np.linalg.norm(phi)
        closed = lambda n: lime_l2_linear(coef, phi, fitted.intercept, n).coef
    if model == PROBA:
        f = _probability(f)
        closed = lambda n: np.full(len(names), np.nan)
    table = table_from_classifier(f, tokens, mask_token=MASK_TOKEN)

    def both(n) -> tuple[np.ndarray, np.ndarray]:
        return np.array(lime_coefficients(table, n, groups=groups).coef), np.array(closed(n))

    limit, closed_limit = both(None)
    at_n = [both(int(n)) for n in ns]
    predict = two_columns(f)
    if model == PROBA:  # predict_proba's two columns, 1 - sigma(f) and sigma(f)
        def predict(texts) -> np.ndarray:
            positive = f(list(texts))
            return np.column_stack([1.0 - positive, positive])
    d = len(names)
    return (predict, limit, closed_limit, np.array([e for e, _ in at_n]).reshape(len(at_n), d),
            np.array([c for _, c in at_n]).reshape(len(at_n), d), weights)


def lime_convergence(model: str = "definition-1", text: str = DOCUMENT, ns=LADDER, repeats: int = REPEATS,
                     seed: int = 0, setting: str = "evaluation") -> LimeConvergence:
    """Run the package ``repeats`` times at each n of ``ns`` (seeds :func:`rung_seeds`) on ``model`` and ``text``,
    called in ``setting``."""
    ns = tuple(int(n) for n in ns)
    if not ns or min(ns) < 2 or list(ns) != sorted(set(ns)):
        raise ValueError(f"ns must be increasing sample sizes >= 2, got {ns!r}")
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats must be an integer >= 1, got {repeats!r}")
    predict, limit, closed_limit, equivalents, closed_equivalents, weights = exact_side(model, text, ns, setting)
    seeds = rung_seeds(seed, len(ns), repeats)
    coef = np.array([[package_coefficients(predict, text, n, s, setting) for s in row] for n, row in zip(ns, seeds)])
    return LimeConvergence(model, text, ns, seeds, coef, limit, closed_limit, equivalents, closed_equivalents,
                           weights, setting)


@dataclass(frozen=True)
class MedianBand:
    """The distribution-free test at one n: per coefficient, [min, max] of R independent runs (it misses the
    median of the package's estimate with probability <= 2^(1-R)) against the band beta*_n +- margin.

    ``holds``: every interval lies inside its band (then, unless an interval missed, every median is within the
    margin of beta*_n). ``fails``: some interval lies wholly outside its band (that median is more than the margin
    away). Otherwise inconclusive. Whether each interval covers beta*_n itself is recorded, not decisive: the
    median of a ridge estimate is beta*_n only up to a higher-order term of the sample's fluctuations."""

    n: int
    repeats: int
    lower: tuple[float, ...]
    upper: tuple[float, ...]
    centre: tuple[float, ...]
    margin: float

    @property
    def miss_probability(self) -> float:
        """Probability bound that one interval misses its median: 2^(1-R)."""
        return 0.5 ** (self.repeats - 1)

    @property
    def holds(self) -> bool:
        """Whether every coefficient's interval lies within the margin of its centre."""
        return all(c - self.margin <= lo and hi <= c + self.margin
                   for lo, hi, c in zip(self.lower, self.upper, self.centre))

    @property
    def fails(self) -> bool:
        """Whether some coefficient's interval lies wholly outside the margin of its centre."""
        return any(hi < c - self.margin or lo > c + self.margin
                   for lo, hi, c in zip(self.lower, self.upper, self.centre))

    @property
    def covers_centre(self) -> list[bool]:
        """Per coefficient, whether its interval contains the centre."""
        return [lo <= c <= hi for lo, hi, c in zip(self.lower, self.upper, self.centre)]

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"n": self.n, "repeats": self.repeats, "lower": list(self.lower), "upper": list(self.upper),
                "beta_star_n": list(self.centre), "margin": self.margin, "miss_probability": self.miss_probability,
                "holds": self.holds, "fails": self.fails, "covers_beta_star_n": self.covers_centre}


def median_band(coef: np.ndarray, centre, margin: float, n: int) -> MedianBand:
    """:class:`MedianBand` of ``coef[repetition, feature]`` (independent runs at ``n`` samples) around ``centre``."""
    coef = np.asarray(coef, dtype=float)
    if coef.ndim != 2 or coef.shape[0] < 2:
        raise ValueError(f"coef must be [repetition, feature] with >= 2 repetitions, got shape {coef.shape}")
    if not margin >= 0:
        raise ValueError(f"margin must be >= 0, got {margin!r}")
    return MedianBand(int(n), coef.shape[0], tuple(coef.min(axis=0).tolist()), tuple(coef.max(axis=0).tolist()),
                      tuple(float(c) for c in centre), float(margin))


@dataclass(frozen=True)
class SignTest:
    """One rung of the ladder: the exact one-sided sign tests of "no decrease" and of "no increase" of the error
    from n to n' over R independent runs per rung, compared by index (ties count for neither)."""

    n: int
    n_next: int
    trials: int
    decreases: int
    increases: int
    p_no_decrease: float
    p_no_increase: float
    delta: float

    @property
    def reaches_level(self) -> bool:
        """The test can reject at delta at all: its smallest p-value 2^-R is <= delta."""
        return 0.5**self.trials <= self.delta

    @property
    def improves(self) -> bool:
        """Whether the error decreases significantly from n to n_next (at level delta)."""
        return self.p_no_decrease <= self.delta

    @property
    def worsens(self) -> bool:
        """Whether the error increases significantly from n to n_next (at level delta)."""
        return self.p_no_increase <= self.delta

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"n": self.n, "n_next": self.n_next, "trials": self.trials, "decreases": self.decreases,
                "increases": self.increases, "p_no_decrease": self.p_no_decrease,
                "p_no_increase": self.p_no_increase, "delta": self.delta, "reaches_level": self.reaches_level,
                "improves": self.improves, "worsens": self.worsens}


def sign_tests(errors: np.ndarray, ns, delta: float) -> tuple[SignTest, ...]:
    """The sign tests of each consecutive pair of rungs of ``errors[rung, repetition]``."""
    errors = np.asarray(errors, dtype=float)
    out = []
    for j in range(len(ns) - 1):
        now, later = errors[j], errors[j + 1]
        down, up = int(np.sum(later < now)), int(np.sum(later > now))
        trials = now.size
        out.append(SignTest(int(ns[j]), int(ns[j + 1]), trials, down, up,
                            float(binomtest(down, trials, 0.5, alternative="greater").pvalue),
                            float(binomtest(up, trials, 0.5, alternative="greater").pvalue), float(delta)))
    return tuple(out)


def top_k_agreement(coef: np.ndarray, limit: np.ndarray) -> dict[int, float]:
    """For k = 1..b-1: the share of runs ``coef[repetition, position]`` whose top-k positions (the evaluation's
    ``top_k``) are the exact limit's."""
    b = limit.size
    return {k: float(np.mean([top_k(run, k) == top_k(limit, k) for run in coef])) for k in range(1, b)}


def lime_table(runs: LimeConvergence) -> str:
    """Markdown: per position the model's weight, the closed form and the enumeration at the limit and at each n,
    and the package's mean ± sd over the seeds at each n."""
    closed = "closed form" if runs.model == "definition-1" else "approximation"
    header = ["token", "a_i" if runs.model == "definition-1" else "c_i", f"limit: {closed}", "limit: enumeration"]
    columns = [runs.closed_limit, runs.limit]
    mean = runs.coef.mean(axis=1)
    sd = runs.coef.std(axis=1, ddof=1) if runs.coef.shape[1] > 1 else np.full_like(mean, np.nan)
    for j, n in enumerate(runs.ns):
        header += [f"n={n}: {closed}", f"n={n}: enumeration", f"n={n}: lime mean ± sd"]
        columns += [runs.closed_equivalents[j], runs.equivalents[j],
                    [f"{m:.4f} ± {s:.4f}" for m, s in zip(mean[j], sd[j])]]
    rows = [[t, f"{runs.weights[i]:.4f}"] + [c[i] if isinstance(c[i], str) else f"{c[i]:.4f}" for c in columns]
            for i, t in enumerate(runs.tokens)]
    return markdown_table(header, rows)
