"""Planted modifications of FRED: changes a researcher might make, each with the kit checks it must fail.

Wrong modifications are real mistakes (a sampler using 1 - p, the released code's threshold eps f(xi), LIME's
sampler, a beam search, clamping p, an empty mean taken as 0, a drop not conditioned on the candidate, best_ids
ordered by importance, lowercasing the text, a stop-word filter, one mask per distinct word, a wrong default n, a
drop conditioned on the rows perturbing the candidate only, normalised importances, a mask that is a real word,
``>`` for Eq. (2)'s ``>=``); correct ones are valid variants (ties to the last positions, another way of drawing the
same masks, two independent plain implementations, antithetic masks at p = 1/2, scores cached across calls) and
must pass every check they are capable of; the declared variant (baseline "original", declared) fails the paper's
checks and passes the check of its declaration.

``kit_fails`` is the exact set of failed kit checks at the default seeds (``FRED_STATISTICAL_SEED`` unset): the
checks on generated black boxes draw their inputs from those seeds. The claims' sets are added by the
report against any explainer (issue 15, section 1). tools/kit_power.py measures how often the kit flags each
entry under 20 other seeds (docs/kit_power.md).
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from fred import Fred
from fred.sampling import ExactSampler, MaskSampler, Perturbations, sample_size
from fred.validation import check_positive_int, check_probability, check_text
from fred_constants import ALPHA, EPS, MAX_LEN, TIE_RTOL, P

from ..statistics.seeds import statistical_seed
from .explanations import AdaptedExplanation
from .tags import ExplainerTags, explainer_tags


def seed() -> int:
    """The planted explainers' seed, read when an explainer is built: tools/kit_power.py sweeps
    ``FRED_STATISTICAL_SEED`` in one process, and the explainers' randomness must follow it."""
    return statistical_seed(0)


def _fred(classifier_fn, exact: bool, random_state=None, **kwargs) -> Fred:
    """A Fred with this module's seed unless the claim report asks for replicates (``random_state``)."""
    kwargs.setdefault("sampler", "exact" if exact else "mask")
    return Fred(classifier_fn, random_state=seed() if random_state is None else random_state, **kwargs)


# ------------------------------------------------------------------------------------ samplers
class FlippedMask(MaskSampler):
    """Perturbs each position with probability 1 - p (p read as the probability of keeping a token)."""

    def draw(self, n_tokens, p, n_samples, rng):
        return super().draw(n_tokens, 1 - p, n_samples, rng)


class FlippedExact(ExactSampler):
    """Exact weights computed with 1 - p."""

    def draw(self, n_tokens, p, n_samples, rng):
        return super().draw(n_tokens, 1 - p, n_samples, rng)


class LimeStyleMask(MaskSampler):
    """LIME's text sampler: the number of perturbed positions is uniform in 1..b, then which ones (p ignored)."""

    def draw(self, n_tokens, p, n_samples, rng):
        k = rng.integers(1, n_tokens + 1, size=n_samples)
        ranks = rng.random((n_samples, n_tokens)).argsort(axis=1).argsort(axis=1)
        return Perturbations(ranks < k[:, None], np.full(n_samples, 1.0 / n_samples))


class BinomialMask(MaskSampler):
    """The same law drawn differently: each position a Bernoulli(p) from ``rng.binomial``."""

    def draw(self, n_tokens, p, n_samples, rng):
        return Perturbations(rng.binomial(1, p, size=(n_samples, n_tokens)).astype(bool),
                             np.full(n_samples, 1.0 / n_samples))


class AntitheticMask(MaskSampler):
    """At p = 1/2, rows in complementary pairs (a mask and its complement, antithetic variates): each row has the
    paper's law, and a candidate's rows are never a row and its complement, so its drop still averages independent
    rows. Other p: the reference's masks."""

    def draw(self, n_tokens, p, n_samples, rng):
        if p != 0.5:
            return super().draw(n_tokens, p, n_samples, rng)
        half = rng.random(((n_samples + 1) // 2, n_tokens)) < 0.5
        rows = np.empty((2 * len(half), n_tokens), dtype=bool)
        rows[0::2], rows[1::2] = half, ~half
        return Perturbations(rows[:n_samples], np.full(n_samples, 1.0 / n_samples))


# ------------------------------------------------------------------------------------ factories
@explainer_tags(exact=True, fred_options=True)
def one_minus_p(classifier_fn, exact=False, random_state=None, **options):
    """Perturbs each token with probability 1 - p where the paper says p."""
    return _fred(classifier_fn, False, random_state, sampler=FlippedExact() if exact else FlippedMask(), **options)


@explainer_tags(exact=True, fred_options=True)
def released_threshold(classifier_fn, exact=False, random_state=None, **options):
    """Drops and threshold from f(xi), as the released code, while the tags claim the paper's baseline."""
    return _fred(classifier_fn, exact, random_state, **{**options, "baseline": "original"})


@explainer_tags(exact=True, baseline="original", fred_options=True)
def declared_original_baseline(classifier_fn, exact=False, random_state=None, **options):
    """The same variant, declared."""
    return _fred(classifier_fn, exact, random_state, **{**options, "baseline": "original"})


@explainer_tags(exact=False, fred_options=True)
def lime_sampler(classifier_fn, exact=False, random_state=None, **options):
    """LIME's sampling law in place of the paper's (:class:`LimeStyleMask`): p ignored."""
    return _fred(classifier_fn, False, random_state, sampler=LimeStyleMask(), **options)


@explainer_tags(exact=True, fred_options=True)
def beam_search(classifier_fn, exact=False, random_state=None, **options):
    """A width-4 beam for speed, the tags still claiming Algorithm 1's exhaustive search."""
    return _fred(classifier_fn, exact, random_state, **{**options, "search": "beam"})


class _Wrapper:
    """A modified ``explain`` around the reference."""

    def __init__(self, classifier_fn, exact):
        self.fred = _fred(classifier_fn, exact)


class ClippedP(_Wrapper):
    """Clamps p into [0.01, 0.99] "so that any p works"."""

    def explain(self, text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None):
        """The reference's explanation at p clamped into [0.01, 0.99]."""
        clipped = min(max(p, 0.01), 0.99) if isinstance(p, float) else p
        return self.fred.explain(text, label=label, p=clipped, eps=eps, max_len=max_len, n_samples=n_samples)


class MostImportantFirst(_Wrapper):
    """Lists the selected positions by decreasing importance (for display)."""

    def explain(self, text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None):
        """The reference's explanation, its positions by decreasing importance."""
        exp = self.fred.explain(text, label=label, p=p, eps=eps, max_len=max_len, n_samples=n_samples)
        best_ids = tuple(sorted(exp.best_ids, key=lambda i: -exp.importances[i]))
        return AdaptedExplanation(best_ids, exp.found, tuple(exp.importances))


class Lowercased:
    """Normalises the document to lowercase before explaining it."""

    def __init__(self, classifier_fn, exact):
        self.fred = _fred(classifier_fn, exact)

    def explain(self, text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None):
        """The reference's explanation of the lowercased document."""
        text = text.lower() if isinstance(text, str) else text
        return self.fred.explain(text, label=label, p=p, eps=eps, max_len=max_len, n_samples=n_samples)


class ReversedTies:
    """Explains the reversed document (and reverses the texts back for the model): exact ties go to the largest
    positions instead of the smallest, a valid resolution of Eq. (2)'s ties."""

    def __init__(self, classifier_fn, exact):
        self.fred = _fred(lambda texts: classifier_fn([" ".join(t.split()[::-1]) for t in texts]), exact)

    def explain(self, text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None):
        """The reference's explanation of the reversed document, its positions mapped back."""
        reversed_text = " ".join(text.split()[::-1]) if isinstance(text, str) else text
        exp = self.fred.explain(reversed_text, label=label, p=p, eps=eps, max_len=max_len, n_samples=n_samples)
        b = len(exp.tokens)
        return AdaptedExplanation(tuple(sorted(b - 1 - i for i in exp.best_ids)), exp.found,
                                  tuple(exp.importances[::-1]))


def _factory(cls, tags: ExplainerTags):
    def make_explainer(classifier_fn, exact=False):
        return cls(classifier_fn, exact)

    make_explainer.__name__ = cls.__name__
    make_explainer.fred_tags = tags
    return make_explainer


@explainer_tags(exact=True, fred_options=True)
def binomial_sampler(classifier_fn, exact=False, random_state=None, **options):
    """The same law as the reference's masks, drawn another way (:class:`BinomialMask`)."""
    return _fred(classifier_fn, exact, random_state, **({} if exact else {"sampler": BinomialMask()}), **options)


@explainer_tags(exact=True, fred_options=True)
def antithetic_pairs(classifier_fn, exact=False, random_state=None, **options):
    """Masks drawn in complementary pairs at p = 1/2 (:class:`AntitheticMask`): each row has the paper's law."""
    return _fred(classifier_fn, exact, random_state, **({} if exact else {"sampler": AntitheticMask()}), **options)


@explainer_tags(exact=True, fred_options=True)
def cached_scores(classifier_fn, exact=False, random_state=None, **options):
    """Scores kept across calls: a text the model already scored is not sent again (the model is deterministic)."""
    cache: dict[str, np.ndarray] = {}

    def cached(texts):
        texts = list(texts)
        new = list(dict.fromkeys(t for t in texts if t not in cache))
        if new:
            cache.update(zip(new, np.asarray(classifier_fn(new), dtype=float)))
        return np.array([cache[t] for t in texts])

    return _fred(cached, exact, random_state, **options)


class NormalisedImportances(_Wrapper):
    """Importances divided by the sum of their absolute values "so that they compare across documents"."""

    def explain(self, text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None):
        """The reference's explanation, its importances divided by the sum of their absolute values."""
        exp = self.fred.explain(text, label=label, p=p, eps=eps, max_len=max_len, n_samples=n_samples)
        importances = np.asarray(exp.importances, dtype=float)
        total = np.nansum(np.abs(importances))
        return AdaptedExplanation(tuple(exp.best_ids), exp.found,
                                  tuple(importances / total if total > 0 else importances))


# -------------------------------------------------------------------------- an independent plain FRED
class ToyFred:
    """Algorithm 1 written plainly (every candidate of each size, drops by direct averaging), with knobs for
    classic slips: ``empty_mean_as_zero`` (a candidate no row perturbs gets E[f | c] = 0, so its drop is E[f]),
    ``conditioned=False`` (divides by all rows instead of the rows perturbing c), ``only_candidate`` (conditions
    on the rows perturbing c and nothing else), ``stop_words`` (positions holding one are never perturbed
    nor selected), ``by_word`` (one mask per distinct word: repeated words are one unit), ``default_n`` (the
    number of rows without ``n_samples``, from p and min(max_len, b); Lemma 2's by default) and ``strict`` (a size
    is found when its best drop *exceeds* eps E[f], ``>`` where Eq. 2 says ``>=``, and without a tie tolerance); its
    mask is ``mask`` ("UNK" by default)."""

    def __init__(self, classifier_fn, exact=False, *, empty_mean_as_zero=False, conditioned=True,
                 only_candidate=False, stop_words=frozenset(), by_word=False, default_n=None, strict=False, mask="UNK"):
        self.classifier_fn, self.exact, self.strict, self.mask = classifier_fn, exact, strict, mask
        self.empty_mean_as_zero, self.conditioned, self.only_candidate = empty_mean_as_zero, conditioned, only_candidate
        self.stop_words, self.by_word = frozenset(stop_words), by_word
        self.default_n = default_n or (lambda p, size: sample_size(ALPHA, p, size))

    def _units(self, tokens) -> list[list[int]]:
        """What one mask covers: a position, or (``by_word``) every position of a word; never a stop word."""
        free = [i for i, t in enumerate(tokens) if t.lower() not in self.stop_words]
        if not self.by_word:
            return [[i] for i in free]
        words = dict.fromkeys(tokens[i] for i in free)
        return [[i for i in free if tokens[i] == w] for w in words]

    def explain(self, text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None):
        """Algorithm 1 on the units of ``text``, with this instance's knobs (the kit's explain contract)."""
        tokens = check_text(text)
        p, eps = check_probability(p, "p"), check_probability(eps, "eps", high_open=False)
        max_len = check_positive_int(max_len, "max_len")
        if n_samples is not None:
            n_samples = check_positive_int(n_samples, "n_samples")
        original = np.asarray(self.classifier_fn([text]), dtype=float)
        column = self._column(label, original)
        b, units = len(tokens), self._units(tokens)
        rows, weights = self._rows(units, b, p, max_len, n_samples)
        texts = self._texts(rows, tokens)
        scores = np.asarray(self.classifier_fn(texts), dtype=float)  # one text per row, in row order
        f = scores if column is None else scores[:, column]
        mean = float(weights @ f)
        tie = TIE_RTOL * max(1.0, float(np.max(np.abs(f))))

        def drop(candidate):
            covered = rows[:, list(candidate)].all(axis=1)
            if self.only_candidate:
                covered &= rows.sum(axis=1) == len(candidate)
            if not covered.any():
                return mean if self.empty_mean_as_zero else None
            total = weights[covered].sum() if self.conditioned else weights.sum()
            return mean - float(weights[covered] @ f[covered]) / total

        unit_of = {i: unit for unit in units for i in unit}
        importances = tuple(np.nan if (d := drop(unit_of[i]) if i in unit_of else 0.0) is None else d
                            for i in range(b))
        best = None
        for size in range(1, min(max_len, len(units)) + 1):
            scored = [(tuple(sorted(i for u in c for i in u)), d) for c in itertools.combinations(units, size)
                      if (d := drop([i for u in c for i in u])) is not None]
            if not scored:
                break
            top = max(d for _, d in scored)
            winner = min(c for c, d in scored if top - d <= tie)
            if (top > eps * mean) if self.strict else (top >= eps * mean - tie):
                return AdaptedExplanation(winner, True, importances)
            if best is None or top - best[1] > tie:
                best = (winner, top)
        return AdaptedExplanation(() if best is None else best[0], False, importances)

    def _rows(self, units, b: int, p: float, max_len: int, n_samples) -> tuple[np.ndarray, np.ndarray]:
        """The perturbation rows over positions (a unit's positions perturbed together) and their weights: every
        pattern of the units with its probability (exact), or n draws of weight 1/n."""
        if self.exact:
            drawn = np.array(list(itertools.product((False, True), repeat=len(units))), dtype=bool)
            k = drawn.sum(axis=1)
            weights = p**k * (1 - p) ** (len(units) - k)
        else:
            n = n_samples if n_samples is not None else self.default_n(p, min(max_len, b))
            drawn = np.random.default_rng(seed()).random((n, len(units))) < p
            weights = np.full(n, 1.0 / n)
        rows = np.zeros((len(drawn), b), dtype=bool)
        for j, unit in enumerate(units):
            rows[:, unit] = drawn[:, [j]]
        return rows, weights

    def _texts(self, rows: np.ndarray, tokens) -> list[str]:
        """One text per row, in row order: the perturbed positions replaced by the mask."""
        def render(row) -> str:
            return " ".join(self.mask if z else t for z, t in zip(row, tokens))

        b = len(tokens)
        if b < 63:  # each distinct row rendered once (the Lemma 1 checks draw 200,000 rows of at most 2^b patterns)
            _, first, inverse = np.unique(rows @ (1 << np.arange(b, dtype=np.int64)), return_index=True,
                                          return_inverse=True)
            distinct = [render(rows[i]) for i in first]
            return [distinct[i] for i in inverse.ravel()]
        return [render(row) for row in rows]

    @staticmethod
    def _column(label, original: np.ndarray) -> int | None:
        if original.ndim == 1:
            if label is not None:
                raise ValueError("label must be None for a 1-d (regression) output")
            return None
        if label is None:
            return int(np.argmax(original[0]))
        if isinstance(label, bool) or not isinstance(label, (int, np.integer)):
            raise TypeError(f"label must be None or an int, got {type(label).__name__}")
        if not 0 <= label < original.shape[1]:
            raise ValueError(f"label must lie in [0, {original.shape[1]}), got {label}")
        return int(label)


def _toy(name: str, **knobs):
    def make_explainer(classifier_fn, exact=False):
        return ToyFred(classifier_fn, exact, **knobs)

    make_explainer.__name__ = name
    make_explainer.fred_tags = ExplainerTags(exact=True)
    return make_explainer


#: The from-scratch FRED of the documentation (issue 38's mutation subject), in a source checkout only.
PLAIN_FRED_PATH = Path(__file__).resolve().parents[2] / "docs" / "examples" / "plain_fred.py"


@functools.cache
def _plain_fred_module():
    """:data:`PLAIN_FRED_PATH` loaded once (the kit builds an explainer per check: reading the file each time was
    repeated work); FileNotFoundError, saying why, where the package is installed without the checkout."""
    if not PLAIN_FRED_PATH.is_file():
        raise FileNotFoundError(f"plain_fred: {PLAIN_FRED_PATH} is part of a source checkout, not of the installed "
                                "package")
    spec = importlib.util.spec_from_file_location("plain_fred", PLAIN_FRED_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _plain_fred():
    """docs/examples/plain_fred.py (FRED written from scratch against the kit's contract) as a factory seeded like
    this module's explainers; the file is read at the factory's first call."""

    @explainer_tags(exact=True)
    def plain_fred(classifier_fn, exact=False):
        return _plain_fred_module().make_explainer(classifier_fn, exact, seed())

    return plain_fred


# ------------------------------------------------------------------------------------ the catalogue
@dataclass(frozen=True)
class Planted:
    """A modified explainer, what kind of change it is, and the kit checks and claims it must fail (exactly).

    ``part`` is what a wrong change touches: "sampling", "drops", "search" or "interface" (tested in
    test_planted_sampling.py, test_planted_drops.py and test_planted_search_interface.py).
    """

    name: str
    factory: Callable
    kind: str  # "wrong", "correct" or "declared variant"
    story: str
    kit_fails: frozenset[str] = field(default_factory=frozenset)
    part: str = ""
    #: Claims of the report whose guarantee the reference keeps and this modification breaks (tested in
    #: tests/kit/test_planted_claims.py).
    claims_break: frozenset[str] = field(default_factory=frozenset)
    #: Claims whose check on this modification is inconclusive, each with the reason (a known limit of the check,
    #: tested like ``claims_break``): for a correct modification the battery is otherwise decisive.
    claims_inconclusive: dict = field(default_factory=dict)  # claim id -> reason



#: Every planted modification, wrong and correct, with the kit checks and claims each must fail.
CATALOGUE: tuple[Planted, ...] = (
    Planted("one_minus_p", one_minus_p, "wrong", "the sampler perturbs with probability 1 - p", frozenset({
                "check_found_matches_the_threshold", "check_importances_are_exact_drops",
                "check_importances_on_random_black_boxes", "check_labels_zero_and_one",
                "check_perturbation_rate_is_p", "check_positions_perturbed_independently",
                "check_prop1_linear_corrected", "check_prop2_shortcut_corrected", "check_regression_output",
                "check_review_snippets_solve_eq2", "check_selection_solves_eq2"
            }), part="sampling", claims_break=frozenset({
        "lemma1", "importance-linear", "prop1-linear", "prop1-logistic", "prop1-step-link", "prop2-shortcut"})),
    Planted("released_threshold", released_threshold, "wrong",
            "drops and threshold from f(xi) (the released code), tags left at the paper's baseline", frozenset({
                "check_declared_baseline_is_used", "check_found_matches_the_threshold",
                "check_importances_are_exact_drops", "check_importances_on_random_black_boxes",
                "check_labels_zero_and_one", "check_lemma1_drops_converge", "check_lemma1_selection_converges",
                "check_prop1_linear_corrected", "check_prop2_shortcut_corrected", "check_regression_output",
                "check_review_snippets_solve_eq2", "check_selection_solves_eq2",
                "check_threshold_is_eps_times_mean_prediction", "check_threshold_is_reached_at_equality",
                "check_default_label_is_the_predicted_class"
            }), part="drops", claims_break=frozenset({
        "algorithm1-beam", "algorithm1-literal", "empirical-drop-average", "importance-linear", "lemma1",
        "lemma1-selection", "prop1-linear", "prop1-logistic", "prop1-step-link", "prop2-shortcut"})),
    # The n_samples check fails as a side effect: LIME's law repeats rows (one perturbed position 1/60 of the
    # time) and the reference asks the model each distinct text once, so the spy sees fewer rows than asked.
    Planted("lime_sampler", lime_sampler, "wrong", "LIME's sampler: a uniform number of perturbed positions",
            frozenset({
                "check_importances_are_exact_drops", "check_importances_on_random_black_boxes",
                "check_labels_zero_and_one", "check_lemma1_drops_converge", "check_n_samples_is_honoured",
                "check_perturbation_rate_is_p", "check_positions_perturbed_independently",
                "check_search_is_exhaustive_on_beam_counterexample", "check_selection_solves_eq2"
            }), part="sampling", claims_break=frozenset({"lemma1", "counterfactuals-linear"})),
    Planted("beam_search", beam_search, "wrong", "a width-4 beam search, tags left at exhaustive",
            frozenset({"check_search_is_exhaustive_on_beam_counterexample"}), part="search"),
    Planted("clipped_p", _factory(ClippedP, ExplainerTags(exact=True)), "wrong", "p clamped into [0.01, 0.99]",
            frozenset({"check_invalid_p_is_refused"}), part="interface"),
    Planted("empty_mean_as_zero", _toy("empty_mean_as_zero", empty_mean_as_zero=True), "wrong",
            "a candidate no row perturbs gets E[f | c] = 0 (drop E[f])",
            frozenset({"check_unperturbed_candidate_is_never_selected"}), part="drops"),
    Planted("unconditioned_drop", _toy("unconditioned_drop", conditioned=False), "wrong",
            "the candidate's rows averaged over all n rows instead of its n_c", frozenset({
                "check_declared_baseline_is_used", "check_found_matches_the_threshold",
                "check_importances_are_exact_drops", "check_importances_on_random_black_boxes",
                "check_labels_zero_and_one", "check_lemma1_drops_converge", "check_lemma1_selection_converges",
                "check_prop1_linear_corrected", "check_prop2_shortcut_corrected", "check_regression_output",
                "check_review_snippets_solve_eq2", "check_search_is_exhaustive_on_beam_counterexample",
                "check_selection_solves_eq2", "check_threshold_is_eps_times_mean_prediction",
                "check_threshold_is_reached_at_equality",
                "check_default_label_is_the_predicted_class"
            }), part="drops", claims_break=frozenset({
                "importance-linear", "lemma1", "prop1-linear", "prop1-logistic", "prop1-step-link"})),
    Planted("most_important_first", _factory(MostImportantFirst, ExplainerTags(exact=True)), "wrong",
            "best_ids listed by decreasing importance", frozenset({"check_best_ids_are_sorted_unique_positions"}),
            part="interface", claims_break=frozenset({"prop1-linear", "prop1-logistic", "prop1-step-link"})),
    Planted("lowercased", _factory(Lowercased, ExplainerTags(exact=True)), "wrong",
            "the document lowercased before it is explained",
            frozenset({"check_document_reaches_the_model_unchanged"}), part="interface"),
    Planted("stop_word_filter", _toy("stop_word_filter", stop_words=ENGLISH_STOP_WORDS), "wrong",
            "scikit-learn's English stop words are never perturbed nor selected", frozenset({
                "check_found_matches_the_threshold", "check_importances_on_random_black_boxes",
                "check_labels_zero_and_one", "check_negation_decides_the_selection", "check_prop2_shortcut_corrected",
                "check_regression_output", "check_review_snippets_solve_eq2", "check_selection_solves_eq2",
            }), part="sampling"),
    Planted("set_of_words", _toy("set_of_words", by_word=True), "wrong",
            "one mask per distinct word: repeated words are perturbed and selected as one", frozenset({
                "check_bag_of_words_permutation_equivariance", "check_found_matches_the_threshold",
                "check_importances_on_random_black_boxes", "check_labels_zero_and_one", "check_max_len_is_respected",
                "check_prop1_linear_corrected", "check_prop2_shortcut_corrected", "check_regression_output",
                "check_review_snippets_solve_eq2", "check_selection_solves_eq2",
            }), part="sampling",
            claims_break=frozenset({"importance-linear", "lemma1", "prop1-linear", "prop1-logistic"})),
    Planted("wrong_default_n", _toy("wrong_default_n", default_n=lambda p, size: sample_size(ALPHA, p, 1)), "wrong",
            "without n_samples, Lemma 2's n for one token whatever max_len",
            frozenset({"check_default_n_samples_is_lemma2"}), part="sampling"),
    Planted("only_candidate_drop", _toy("only_candidate_drop", only_candidate=True), "wrong",
            "a candidate's drop conditioned on the rows perturbing it and nothing else", frozenset({
                "check_found_matches_the_threshold", "check_importances_are_exact_drops",
                "check_importances_on_random_black_boxes", "check_labels_zero_and_one",
                "check_lemma1_drops_converge", "check_prop1_linear_corrected", "check_prop2_shortcut_corrected",
                "check_regression_output", "check_review_snippets_solve_eq2",
                "check_search_is_exhaustive_on_beam_counterexample", "check_selection_solves_eq2",
                "check_default_label_is_the_predicted_class"
            }), part="drops", claims_break=frozenset({
                "importance-linear", "lemma1", "prop1-linear", "prop1-logistic", "prop1-step-link"})),
    Planted("normalised_importances", _factory(NormalisedImportances, ExplainerTags(exact=True)), "wrong",
            "importances divided by the sum of their absolute values", frozenset({
                "check_importances_are_exact_drops", "check_importances_on_random_black_boxes",
                "check_lemma1_drops_converge"
            }), part="drops", claims_break=frozenset({"importance-linear", "lemma1"})),
    Planted("real_word_mask", _toy("real_word_mask", mask="the"), "wrong",
            "removed tokens masked with the word 'the' (a real word) instead of a token no document or model holds",
            frozenset({"check_mask_token_is_unseen", "check_review_snippets_solve_eq2"}), part="sampling",
            claims_break=frozenset({"importance-linear", "prop1-linear", "prop1-logistic", "prop1-step-link"})),
    Planted("strict_threshold", _toy("strict_threshold", strict=True), "wrong",
            "a size found when its best drop exceeds eps E[f] ('>' for Eq. 2's '>=')",
            frozenset({"check_threshold_is_reached_at_equality"}), part="search",
            claims_break=frozenset({"prop1-linear", "prop1-step-link"})),
    Planted("reversed_ties", _factory(ReversedTies, ExplainerTags(exact=True)), "correct",
            "exact ties resolved to the largest positions"),
    Planted("binomial_sampler", binomial_sampler, "correct", "masks drawn with rng.binomial"),
    Planted("toy_fred", _toy("toy_fred"), "correct", "an independent plain implementation of Algorithm 1"),
    Planted("plain_fred", _plain_fred(), "correct",
            "FRED written from scratch against the kit's contract (docs/examples/plain_fred.py)"),
    Planted("antithetic_pairs", antithetic_pairs, "correct",
            "at p = 1/2, rows in complementary pairs (antithetic masks; each row has the paper's law)",
            claims_inconclusive={"counterfactuals-linear": (
                "its corrected statement's rate 1 - (1 - q)^n of a globally minimal counterfactual assumes independent "
                "rows; a complementary pair holds a pattern with probability 2q, not 1 - (1 - q)^2, so the rate moves "
                "by less than the equivalence margin can settle at 2000 runs (neither confirmed nor refuted)")}),
    Planted("cached_scores", cached_scores, "correct", "the model's scores cached across calls"),
    Planted("declared_original_baseline", declared_original_baseline, "declared variant",
            "baseline 'original', declared in the tags", frozenset({
                "check_found_matches_the_threshold", "check_importances_are_exact_drops",
                "check_importances_on_random_black_boxes", "check_labels_zero_and_one",
                "check_lemma1_drops_converge", "check_lemma1_selection_converges", "check_prop1_linear_corrected",
                "check_prop2_shortcut_corrected", "check_regression_output", "check_review_snippets_solve_eq2",
                "check_selection_solves_eq2", "check_threshold_is_eps_times_mean_prediction",
                "check_threshold_is_reached_at_equality",
                "check_default_label_is_the_predicted_class"
            }), claims_break=frozenset({
        "algorithm1-beam", "algorithm1-literal", "empirical-drop-average", "importance-linear", "lemma1",
        "lemma1-selection", "prop1-linear", "prop1-logistic", "prop1-step-link", "prop2-shortcut"})),
)


def wrong(*parts: str) -> list[Planted]:
    """The wrong modifications touching one of ``parts``."""
    return [entry for entry in CATALOGUE if entry.kind == "wrong" and entry.part in parts]
