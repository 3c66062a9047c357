"""The FRED explainer (section 2, Algorithm 1).

:meth:`Fred.explain` reads as Algorithm 1: draw the perturbed samples, score them, take each row's drop, search
the candidates. How the rows are scored is one seam: :func:`choose_scoring` picks by one rule a scoring (the
bag-of-words fast path, the mask sampler's texts grouped from their patterns, a sampler's own texts, with or
without its statistics), a callable returning :class:`Scored`, when the explainer is built (again, for one
explanation, when ``Fred.sampler`` has been replaced since).
"""

from __future__ import annotations

import numbers
from typing import Callable, NamedTuple, Sequence

import numpy as np

from fred_constants import ALPHA, BASELINES, EPS, MASK_TOKEN, MAX_LEN, P, RELEASED_WIDTH, SEARCHES, TIE_RTOL

from .validation import check_positive_int, check_probability, check_scores, check_text, check_token
from .explanation import Explanation
from .fastpath import BagOfWordsFastPath, FastPathStatus, setup_fast_path
from .sampling import ExactSampler, MaskSampler, Sampler, make_sampler, masked_text_groups, render_masked, sample_size
from .search import DEFAULT_MAX_CANDIDATES, resolve_strategy, search_candidates


class Scored(NamedTuple):
    """The classifier's scores on the perturbed rows, and how they were obtained."""

    scores: np.ndarray  # (n, k): row i holds the scores of row i's text
    texts: tuple[str, ...] | None  # the rows' texts; None when none was rendered (the fast path)
    fast_path: FastPathStatus  # whether the fast path scored the rows, and why (not)
    sampler_stats: object | None  # what the sampler's ``render_with_stats`` reported; None without it


def score_distinct(classifier_fn: Callable, distinct: list[str], inverse: np.ndarray) -> np.ndarray:
    """``classifier_fn`` on the distinct texts, each row given the scores of its text ``distinct[inverse]``."""
    return check_scores(classifier_fn(distinct), len(distinct))[inverse]


def score_texts(classifier_fn: Callable, texts: Sequence[str]) -> np.ndarray:
    """``classifier_fn`` on the texts, asking each distinct text once (first occurrences in order) and
    giving every row the scores of its text.

    Deduplicating the rendered texts covers repeated patterns and patterns
    that render equal (a masked token equal to the mask token) alike, and
    is right for samplers whose rendering is random (POS sampling), where
    equal patterns may stand for different texts. Every row is rendered, so
    the sampler sees the generator as without deduplication. The mask
    sampler's texts are grouped from their patterns instead
    (:class:`MaskTexts`) and only the first row of
    each text is rendered (grouping, rendering and scattering the texts back
    to rows: 0.2 ms against 2.3 ms for rendering and hashing 3067 rows of
    10 tokens), except on documents of more than 62 tokens other than the
    mask token, whose rows are almost always distinct: there hashing the
    texts (1.2 ms for 5000 rows of 150 tokens) was measured faster than
    grouping the packed patterns with ``np.unique`` (3.4 ms).
    """
    index: dict[str, int] = {}
    inverse = np.fromiter((index.setdefault(t, len(index)) for t in texts), dtype=np.intp, count=len(texts))
    return score_distinct(classifier_fn, list(index), inverse)


class SamplerTexts:
    """Scoring of any sampler's rows: ``sampler.render`` makes every row's text, each distinct text is asked once
    (:func:`score_texts`).

    A scoring is called as ``scoring(classifier_fn, tokens, perturbed, rng, status)`` (``status``: the
    explainer's ``fast_path_status``) and returns :class:`Scored`. ``exact_design`` says the sampler draws the
    exact design (every pattern once) and renders it with the mask token, so that nothing reads a generator.
    :func:`choose_scoring` picks the scoring of a sampler.
    """

    __slots__ = ("sampler", "exact_design")

    def __init__(self, sampler: Sampler, exact_design: bool = False):
        self.sampler, self.exact_design = sampler, exact_design

    def __call__(self, classifier_fn: Callable, tokens: Sequence[str], perturbed: np.ndarray,
                 rng: np.random.Generator | None, status: FastPathStatus) -> Scored:
        texts = self.sampler.render(tokens, perturbed, rng)
        return Scored(score_texts(classifier_fn, texts), tuple(texts), status, None)


class SamplerStats(SamplerTexts):
    """Scoring of a sampler with ``render_with_stats``: its texts as :class:`SamplerTexts`, and its statistics on
    them (the explanation's ``sampler_stats``)."""

    __slots__ = ()

    def __call__(self, classifier_fn, tokens, perturbed, rng, status) -> Scored:
        texts, stats = self.sampler.render_with_stats(tokens, perturbed, rng)
        return Scored(score_texts(classifier_fn, texts), tuple(texts), status, stats)


class MaskTexts(SamplerTexts):
    """Scoring of a :class:`MaskSampler` rendering with its own ``render``: rows are grouped into distinct texts
    from their patterns (:func:`fred.sampling.masked_text_groups`) and only the first row of each is rendered.

    The exact design lists every pattern once, and with no token equal to a
    one-token mask distinct patterns render distinct texts: each row is asked,
    in order, without grouping. Rows that are no boolean design (0/1 floats),
    and documents the grouping declines, take the :class:`SamplerTexts` path.
    """

    __slots__ = ()

    def __call__(self, classifier_fn, tokens, perturbed, rng, status) -> Scored:
        mask = self.sampler.mask_token
        if perturbed.dtype != bool:
            return super().__call__(classifier_fn, tokens, perturbed, rng, status)
        if self.exact_design and isinstance(mask, str) and mask.split() == [mask] and mask not in tokens:
            # The scores are made row-major, as gathering the groups' rows made them: a column-major output (a
            # DataFrame's) would change how BLAS sums the weighted mean.
            texts = render_masked(tokens, perturbed, mask)
            scores = np.ascontiguousarray(check_scores(classifier_fn(texts), len(texts)))
            return Scored(scores, tuple(texts), status, None)
        groups = masked_text_groups(tokens, perturbed, mask)
        if groups is None:
            return super().__call__(classifier_fn, tokens, perturbed, rng, status)
        first, inverse = groups
        distinct = render_masked(tokens, perturbed[first], mask)
        texts = np.array(distinct, dtype=object)[inverse]
        return Scored(score_distinct(classifier_fn, distinct, inverse), tuple(texts.tolist()), status, None)


class FastPathFirst:
    """Scoring through the bag-of-words fast path (:mod:`fred.fastpath`): no texts are rendered.

    When its check against the string path fails, this call is scored by
    ``strings`` and records why; the explainer is left as it was, so the next
    call tries the fast path again.
    """

    __slots__ = ("fast", "strings")

    def __init__(self, fast: BagOfWordsFastPath, strings: SamplerTexts):
        self.fast, self.strings = fast, strings

    @property
    def sampler(self) -> Sampler:
        """The sampler of the string scoring this fast path falls back to."""
        return self.strings.sampler

    @property
    def exact_design(self) -> bool:
        """Whether the rows are the exact design, as the string scoring it wraps says."""
        return self.strings.exact_design

    def __call__(self, classifier_fn, tokens, perturbed, rng, status) -> Scored:
        raw, problem = self.fast.predict(tokens, perturbed)
        if problem is None:
            return Scored(check_scores(raw, len(perturbed)), None, status, None)
        return self.strings(classifier_fn, tokens, perturbed, rng,
                            FastPathStatus(False, "fell back to strings: " + problem))


_MISSING = object()  # no such attribute


def choose_scoring(sampler: Sampler, fast: BagOfWordsFastPath | None) -> FastPathFirst | SamplerTexts:
    """How the rows a sampler draws are scored, the one rule.

    1. The fast path, when the explainer set one up (:func:`fred.fastpath.setup_fast_path`), falling back
       to the string scoring below for a call whose check fails.
    2. :class:`SamplerStats` for a sampler with a callable ``render_with_stats``.
    3. :class:`MaskTexts` for a :class:`MaskSampler` whose ``render`` is :meth:`MaskSampler.render` (one
       replaced on its class or on the instance renders other texts).
    4. :class:`SamplerTexts` for any other sampler.

    ``exact_design`` is set when the sampler draws with :meth:`ExactSampler.draw`, renders with
    :meth:`MaskSampler.render` and reports no statistics: the explanation then makes no generator (making one
    from ``random_state`` None reads the system's entropy, 20 us, a tenth of a small exact explanation).
    """
    with_stats = getattr(sampler, "render_with_stats", _MISSING)
    mask_render = getattr(getattr(sampler, "render", None), "__func__", None) is MaskSampler.render
    exact_design = (with_stats is _MISSING and mask_render
                    and getattr(sampler.draw, "__func__", None) is ExactSampler.draw)
    if callable(with_stats):
        strings = SamplerStats(sampler)
    elif mask_render and isinstance(sampler, MaskSampler):
        strings = MaskTexts(sampler, exact_design)
    else:
        strings = SamplerTexts(sampler, exact_design)
    return strings if fast is None else FastPathFirst(fast, strings)


class Fred:
    """Faithful and Robust Explainer for textual Documents.

    Parameters
    ----------
    classifier_fn : callable
        ``classifier_fn(list_of_texts)`` returns an ``(n, k)`` array of class
        scores or an ``(n,)`` array (regression), one row per text, each row
        depending on its text only. An explanation asks it the text, then each
        distinct perturbed text once (rows whose texts are equal share the scores).
    class_names : sequence of str, optional
        Names of the k classes, used in printed explanations.
    mask_token : str
        Replacement of perturbed tokens; one whitespace-free token.
    sampler : {"mask", "exact"} or Sampler
        ``"mask"``: each position perturbed independently with probability p,
        drops are the Monte Carlo estimates of Eq. (3). ``"exact"``: all 2**b
        patterns weighted by their probability, drops are the expectations of
        Eq. (1) (b <= 20). How its rows are scored is chosen from its methods when the explainer is built
        (:func:`choose_scoring`; for a sampler assigned to ``sampler`` later, at each call).
    baseline : {"mean", "original"}
        ``"mean"`` (the paper): d(x) = mean f - f(x), threshold eps * mean f,
        where mean f is the (weighted) mean prediction over the samples.
        ``"original"`` (the authors' public code): d(x) = f(text) - f(x),
        threshold eps * f(text). The two select the same candidate at a given
        size (they differ by a constant) but differ in the threshold, hence in
        the size at which the search stops.
    search : {"auto", "exhaustive", "beam", "released-beam"}
        ``"exhaustive"`` is Algorithm 1 (all position subsets by increasing
        size); ``"beam"`` extends the ``beam_width`` best candidates of each size
        by one position; ``"auto"`` is exhaustive when at most
        ``max_candidates`` subsets of size <= max_len exist, else beam.
        ``"released-beam"`` is the beam of the authors' released code: each kept
        candidate is extended only by the 10 (``fred.search.RELEASED_EXTENSIONS``)
        positions outside it of largest singleton drop, and a set reached from two
        kept candidates counts twice, so it may fill two of the ``beam_width``
        places (:mod:`fred.search`); with ``baseline="original"`` and
        ``n_samples=5000`` in :meth:`explain` it is the released code's setting.
    beam_width : int
        Candidates kept per size by the beams (4, as in the authors' code).
    random_state : None, int, numpy SeedSequence or numpy Generator
        Passed to ``numpy.random.default_rng`` at every call: an int or a
        SeedSequence gives the same explanation at every call; a Generator is
        advanced by each call; None draws fresh entropy. The built-in exact
        sampler draws nothing, so it reads none of them.
    max_candidates : int
        Budget of the exhaustive search.
    fast_path : bool
        Score samples of bag-of-words pipelines without building strings
        (:mod:`fred.fastpath`): when ``classifier_fn`` is the bound
        ``predict_proba``, ``decision_function`` or ``predict`` of a scikit-learn
        Pipeline starting with a word-unigram Count/Tfidf vectorizer, the
        perturbed count matrix is (1 - Z) @ A and the texts are never rendered.
        Checked against the string path on a few samples of every explanation.
        ``fast_path_status`` (a :class:`fred.fastpath.FastPathStatus`) says
        whether the classifier qualifies and why (not); each explanation's
        ``fast_path`` says whether that call used it (a failed check falls back
        to strings for that call only). ``False`` forces the string path.
    """

    def __init__(
        self,
        classifier_fn: Callable[[list[str]], np.ndarray],
        class_names: Sequence[str] | None = None,
        mask_token: str = MASK_TOKEN,
        sampler: str | Sampler = "mask",
        baseline: str = "mean",
        search: str = "auto",
        beam_width: int = RELEASED_WIDTH,
        random_state=None,
        max_candidates: int = DEFAULT_MAX_CANDIDATES,
        fast_path: bool = True,
    ):
        if not callable(classifier_fn):
            raise TypeError(f"classifier_fn must be callable, got {type(classifier_fn).__name__}")
        if class_names is not None:
            if isinstance(class_names, str) or not all(isinstance(c, str) for c in class_names):
                raise TypeError("class_names must be a sequence of str or None")
            class_names = tuple(class_names)
        check_token(mask_token, "mask_token")
        if baseline not in BASELINES:
            raise ValueError(f"baseline must be one of {BASELINES}, got {baseline!r}")
        if search not in SEARCHES:
            raise ValueError(f"search must be one of {SEARCHES}, got {search!r}")
        if not isinstance(random_state, (type(None), numbers.Integral, np.random.Generator, np.random.SeedSequence)) \
                or isinstance(random_state, bool):
            raise TypeError("random_state must be None, an int, a numpy SeedSequence or a numpy Generator, got "
                            f"{type(random_state).__name__}")
        if isinstance(random_state, numbers.Integral) and random_state < 0:
            raise ValueError(f"random_state must be a non-negative int when an int, got {random_state}")
        self.classifier_fn = classifier_fn
        self.class_names = class_names
        self.mask_token = mask_token
        self.sampler = make_sampler(sampler, mask_token)
        self.baseline = baseline
        self.search = search
        self.beam_width = check_positive_int(beam_width, "beam_width")
        self.random_state = random_state
        self.max_candidates = check_positive_int(max_candidates, "max_candidates")
        if not isinstance(fast_path, bool):
            raise TypeError(f"fast_path must be a bool, got {type(fast_path).__name__}")
        self._fast_path, self.fast_path_status = (
            setup_fast_path(classifier_fn, self.sampler) if fast_path
            else (None, FastPathStatus(False, "disabled by fast_path=False")))
        self._scoring = choose_scoring(self.sampler, self._fast_path)

    def _scoring_now(self) -> FastPathFirst | SamplerTexts:
        """The scoring chosen when the explainer was built, or the rule's choice for a sampler assigned to
        ``sampler`` since (a sampler's methods are read when it is chosen)."""
        if self._scoring.sampler is self.sampler:
            return self._scoring
        return choose_scoring(self.sampler, self._fast_path)

    def _resolve_label(self, label, original: np.ndarray, regression: bool) -> int | None:
        n_classes = original.shape[1]
        if regression:
            if label is not None:
                raise ValueError("label must be None when classifier_fn returns a 1-d (regression) output")
            return None
        if label is None:
            return int(np.argmax(original[0]))
        if isinstance(label, bool) or not isinstance(label, numbers.Integral):
            raise TypeError(f"label must be None or an int, got {type(label).__name__}")
        if not 0 <= label < n_classes:
            raise ValueError(f"label must lie in [0, {n_classes}) for {n_classes} classes, got {label}")
        return int(label)

    def _explained(self, text: str, label) -> tuple[np.ndarray, bool, int | None]:
        """f(xi): the scores of the text as a (1, k) array, whether the output is a regression's (1-d), and the
        explained label (checked; the argmax by default, None for a regression)."""
        raw = self.classifier_fn([text])
        original = check_scores(raw, 1)
        regression = np.ndim(raw) == 1
        label = self._resolve_label(label, original, regression)
        if self.class_names is not None and len(self.class_names) != original.shape[1]:
            raise ValueError(f"class_names has {len(self.class_names)} names but classifier_fn returns "
                             f"{original.shape[1]} columns")
        return original, regression, label

    def explain(self, text: str, label: int | None = None, p: float = P, eps: float = EPS, max_len: int = MAX_LEN,
                n_samples: int | None = None, alpha: float = ALPHA) -> Explanation:
        """Explain ``classifier_fn``'s prediction on ``text``: Algorithm 1, step by step.

        Parameters
        ----------
        text : the document; its tokens are ``text.split()``.
        label : explained column; default the argmax on ``text``. None for regression.
        p : perturbation probability of each token, in (0, 1).
        eps : fraction of the baseline the drop must reach, in (0, 1].
        max_len : largest candidate size.
        n_samples : number of Monte Carlo samples; default ``sample_size(alpha, p, min(max_len, b))``
            (Lemma 2 in general form). Ignored by the exact sampler.
        alpha : coverage probability used when ``n_samples`` is None.
        """
        tokens = check_text(text)
        p, eps = check_probability(p, "p"), check_probability(eps, "eps", high_open=False)
        max_len, alpha = check_positive_int(max_len, "max_len"), check_probability(alpha, "alpha")
        n_samples = None if n_samples is None else check_positive_int(n_samples, "n_samples")
        original, regression, label = self._explained(text, label)
        column = 0 if label is None else label
        strategy = resolve_strategy(self.search, len(tokens), max_len, self.max_candidates)
        if not self.sampler.exact and n_samples is None:
            n_samples = sample_size(alpha, p, min(max_len, len(tokens)))

        # sample: x = generate_sample(xi, p, n)
        scoring = self._scoring_now()
        rng = None if scoring.exact_design else np.random.default_rng(self.random_state)
        design = self.sampler.draw(len(tokens), p, n_samples, rng)
        # score: f(x), each distinct text (or count vector) asked once
        scored = scoring(self.classifier_fn, tokens, design.perturbed, rng, self.fast_path_status)
        if scored.scores.shape[1] != original.shape[1]:
            raise ValueError(f"classifier_fn returned {scored.scores.shape[1]} columns on the samples but "
                             f"{original.shape[1]} on the text")
        # drops: d(x) = baseline - f(x), the baseline the weighted mean of f(x) (the paper) or f(xi)
        f = scored.scores[:, column]
        mean_prediction = float(design.weights @ f / design.weights.sum())
        f_text = float(original[0, column])
        baseline_value = mean_prediction if self.baseline == "mean" else f_text
        tie_tol = TIE_RTOL * max(1.0, float(np.max(np.abs(f))), abs(f_text))
        # search: sizes 1, 2, ..., max_len; the first whose best drop reaches eps * baseline
        result = search_candidates(design.perturbed, design.weights, baseline_value - f, eps * baseline_value,
                                   max_len, strategy, self.beam_width, tie_tol)
        return Explanation(
            tokens=tuple(tokens), label=label,
            class_name=None if label is None or self.class_names is None else self.class_names[label],
            best_ids=result.best_ids, drop=result.drop, threshold=eps * baseline_value, found=result.found,
            mean_prediction=mean_prediction, original_prediction=f_text, importances=result.importances,
            n_samples=len(design.weights), p=p, eps=eps, max_len=max_len, baseline=self.baseline,
            sampler=self.sampler.name, search=strategy, class_names=self.class_names, mask_token=self.mask_token,
            sample_perturbed=design.perturbed, sample_scores=None if regression else scored.scores,
            sample_texts=scored.texts, fast_path=scored.fast_path, sampler_stats=scored.sampler_stats)
