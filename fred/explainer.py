"""The FRED explainer (section 2, Algorithm 1)."""

from __future__ import annotations

import numbers
from typing import Callable, Sequence

import numpy as np

from fred_constants import ALPHA, BASELINES, EPS, MASK_TOKEN, MAX_LEN, P, RELEASED_WIDTH, SEARCHES, TIE_RTOL

from ._validation import check_positive_int, check_probability, check_scores, check_text, check_token
from .explanation import Explanation
from .fastpath import FastPathStatus, setup_fast_path
from .sampling import ExactSampler, MaskSampler, Sampler, make_sampler, masked_text_groups, render_masked, sample_size
from .search import DEFAULT_MAX_CANDIDATES, resolve_strategy, search_candidates


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
        Eq. (1) (b <= 20).
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

    def _draws_nothing(self) -> bool:
        """Whether the sampler is the exact one with the mask rendering, which read no generator: making one from
        ``random_state`` None reads the system's entropy (20 us, a tenth of a small exact explanation)."""
        sampler = self.sampler
        return (getattr(sampler.draw, "__func__", None) is ExactSampler.draw
                and getattr(sampler.render, "__func__", None) is MaskSampler.render
                and not hasattr(sampler, "render_with_stats"))

    def _predict_perturbed(self, tokens: Sequence[str], perturbed: np.ndarray, rng: np.random.Generator | None,
                           exact_design: bool):
        """Scores of the perturbed samples, their texts (None when not rendered), how they were scored, and the
        sampler's statistics on them (None when it reports none). ``exact_design``: the rows are the built-in exact
        sampler's (:meth:`_draws_nothing`), every pattern once.

        The bag-of-words fast path returns no texts. When its check against the
        string path fails, this call scores strings; the explainer is left as it
        was, so the next call tries the fast path again.
        """
        if self._fast_path is not None:
            raw, problem = self._fast_path.predict(tokens, perturbed)
            if problem is None:
                return check_scores(raw, len(perturbed)), None, self.fast_path_status, None
            status = FastPathStatus(False, "fell back to strings: " + problem)
        else:
            status = self.fast_path_status
        with_stats = getattr(self.sampler, "render_with_stats", None)
        if callable(with_stats):
            texts, stats = with_stats(tokens, perturbed, rng)
            return self._score_texts(texts), tuple(texts), status, stats
        # Only the mask sampler's own rendering of a boolean design is grouped from patterns: a render replaced on
        # the class or the instance, or 0/1 floats, take the text path as before.
        plain = (isinstance(self.sampler, MaskSampler) and perturbed.dtype == bool
                 and getattr(self.sampler.render, "__func__", None) is MaskSampler.render)
        mask = self.sampler.mask_token if plain else None  # a sampler of its own need not have one
        if plain and exact_design and isinstance(mask, str) and mask.split() == [mask] and mask not in tokens:
            # The exact design lists every pattern once, and with no token equal to a one-token mask distinct
            # patterns render distinct texts: each row is asked, in order, without grouping the rows. The scores are
            # made row-major, as gathering the groups' rows made them: a column-major output (a DataFrame's)
            # would change how BLAS sums the weighted mean.
            texts = render_masked(tokens, perturbed, mask)
            return np.ascontiguousarray(check_scores(self.classifier_fn(texts), len(texts))), tuple(texts), status, None
        groups = masked_text_groups(tokens, perturbed, mask) if plain else None
        if groups is None:
            texts = self.sampler.render(tokens, perturbed, rng)
            return self._score_texts(texts), tuple(texts), status, None
        first, inverse = groups
        distinct = render_masked(tokens, perturbed[first], mask)
        texts = np.array(distinct, dtype=object)[inverse]
        return self._score_distinct(distinct, inverse), tuple(texts.tolist()), status, None

    def _score_distinct(self, distinct: list[str], inverse: np.ndarray) -> np.ndarray:
        """``classifier_fn`` on the distinct texts, each row given the scores of its text ``distinct[inverse]``."""
        return check_scores(self.classifier_fn(distinct), len(distinct))[inverse]

    def _score_texts(self, texts: Sequence[str]) -> np.ndarray:
        """``classifier_fn`` on the texts, asking each distinct text once (first occurrences in order) and
        giving every row the scores of its text.

        Deduplicating the rendered texts covers repeated patterns and patterns
        that render equal (a masked token equal to the mask token) alike, and
        is right for samplers whose rendering is random (POS sampling), where
        equal patterns may stand for different texts. Every row is rendered, so
        the sampler sees the generator as without deduplication. The mask
        sampler's texts are grouped from their patterns instead
        (:func:`fred.sampling.masked_text_groups`) and only the first row of
        each text is rendered (grouping, rendering and scattering the texts back
        to rows: 0.2 ms against 2.3 ms for rendering and hashing 3067 rows of
        10 tokens), except on documents of more than 62 tokens other than the
        mask token, whose rows are almost always distinct: there hashing the
        texts (1.2 ms for 5000 rows of 150 tokens) was measured faster than
        grouping the packed patterns with ``np.unique`` (3.4 ms).
        """
        index: dict[str, int] = {}
        inverse = np.fromiter((index.setdefault(t, len(index)) for t in texts), dtype=np.intp, count=len(texts))
        return self._score_distinct(list(index), inverse)

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

    def explain(
        self,
        text: str,
        label: int | None = None,
        p: float = P,
        eps: float = EPS,
        max_len: int = MAX_LEN,
        n_samples: int | None = None,
        alpha: float = ALPHA,
    ) -> Explanation:
        """Explain ``classifier_fn``'s prediction on ``text``.

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
        p = check_probability(p, "p")
        eps = check_probability(eps, "eps", high_open=False)
        max_len = check_positive_int(max_len, "max_len")
        alpha = check_probability(alpha, "alpha")
        if n_samples is not None:
            n_samples = check_positive_int(n_samples, "n_samples")
        b = len(tokens)
        raw = self.classifier_fn([text])
        original = check_scores(raw, 1)
        regression = np.ndim(raw) == 1
        label = self._resolve_label(label, original, regression)
        if self.class_names is not None and len(self.class_names) != original.shape[1]:
            raise ValueError(f"class_names has {len(self.class_names)} names but classifier_fn returns "
                             f"{original.shape[1]} columns")
        column = 0 if label is None else label
        strategy = resolve_strategy(self.search, b, max_len, self.max_candidates)
        if not self.sampler.exact and n_samples is None:
            n_samples = sample_size(alpha, p, min(max_len, b))

        exact_design = self._draws_nothing()
        rng = None if exact_design else np.random.default_rng(self.random_state)
        design = self.sampler.draw(b, p, n_samples, rng)
        scores, texts, fast_path, sampler_stats = self._predict_perturbed(tokens, design.perturbed, rng, exact_design)
        if scores.shape[1] != original.shape[1]:
            raise ValueError(f"classifier_fn returned {scores.shape[1]} columns on the samples but "
                             f"{original.shape[1]} on the text")
        f = scores[:, column]
        weights = design.weights
        mean_prediction = float(weights @ f / weights.sum())
        f_text = float(original[0, column])
        baseline_value = mean_prediction if self.baseline == "mean" else f_text
        d = baseline_value - f
        tie_tol = TIE_RTOL * max(1.0, float(np.max(np.abs(f))), abs(f_text))
        result = search_candidates(design.perturbed, weights, d, eps * baseline_value, max_len, strategy,
                                   self.beam_width, tie_tol)
        return Explanation(
            tokens=tuple(tokens),
            label=label,
            class_name=None if label is None or self.class_names is None else self.class_names[label],
            best_ids=result.best_ids,
            drop=result.drop,
            threshold=eps * baseline_value,
            found=result.found,
            mean_prediction=mean_prediction,
            original_prediction=f_text,
            importances=result.importances,
            n_samples=len(weights),
            p=p,
            eps=eps,
            max_len=max_len,
            baseline=self.baseline,
            sampler=self.sampler.name,
            search=strategy,
            class_names=self.class_names,
            mask_token=self.mask_token,
            sample_perturbed=design.perturbed,
            sample_scores=None if regression else scores,
            sample_texts=texts,
            fast_path=fast_path,
            sampler_stats=sampler_stats,
        )
