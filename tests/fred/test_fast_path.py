"""The bag-of-words fast path (issue 8) against the string path it replaces.

The reference is always scikit-learn tokenising the rendered strings (the
string path, ``fast_path=False``, or ``CountVectorizer.transform`` on
``render_masked`` texts), never the incidence-matrix code under test. Every
equality test also asserts that the fast path stayed on: the fast path checks
itself against strings and falls back on a mismatch, which would otherwise make
a broken fast path pass unnoticed.
"""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import LogisticRegression, Ridge, RidgeClassifier
from sklearn.naive_bayes import MultinomialNB
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import MaxAbsScaler
from sklearn.svm import LinearSVC

from fred import Fred, MaskSampler
from fred.fastpath import FastPathStatus, setup_fast_path, token_pattern_problem
from fred.sampling import render_masked

#: Fast and string paths compute the same floating-point operations on the same inputs.
SAME_RTOL = 1e-12
MASK = "UNK"

# Words with case, accents, punctuation, one-letter and hyphenated forms, so that
# lowercasing, strip_accents and the token pattern all matter.
WORDS = ["good", "Good", "GREAT", "bad", "awful!", "tasty,", "café", "Cafe", "naïve", "x-ray", "a", "I",
         "don't", "the", "The", "and", "food", "service...", "10/10", ":)", "über", "Straße", "zero0", "no"]
SAFE_PATTERNS = [r"(?u)\b\w\w+\b", r"[A-Za-z]+", r"\w+", r"(?i)[a-zé]+(?:'[a-z]+)?", r"\S+", r"\b\w+\b|[!?]"]


@st.composite
def corpora(draw):
    """A training corpus with both labels, a document to explain (some words unseen in training), a seed."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    train = [" ".join(rng.choice(WORDS[:-4], size=rng.integers(2, 9))) for _ in range(24)]
    labels = np.arange(24) % 2
    doc = " ".join(rng.choice(WORDS, size=draw(st.integers(1, 9))))
    return train, labels, doc, seed


@st.composite
def pipelines(draw):
    """A fitted-to-be pipeline: Count/Tfidf vectorizer with drawn options, a model and the method to explain."""
    common = dict(
        lowercase=draw(st.booleans()),
        strip_accents=draw(st.sampled_from([None, "unicode", "ascii"])),
        token_pattern=draw(st.sampled_from(SAFE_PATTERNS)),
        stop_words=draw(st.sampled_from([None, "english"])),
    )
    if draw(st.booleans()):
        vectorizer = CountVectorizer(binary=draw(st.booleans()), **common)
    else:
        vectorizer = TfidfVectorizer(norm=draw(st.sampled_from(["l2", "l1", None])), use_idf=draw(st.booleans()),
                                     smooth_idf=draw(st.booleans()), sublinear_tf=draw(st.booleans()), **common)
    model, method = draw(st.sampled_from([
        (LogisticRegression, "predict_proba"), (LogisticRegression, "decision_function"),
        (RidgeClassifier, "decision_function"), (LinearSVC, "decision_function"), (MultinomialNB, "predict_proba"),
        (Ridge, "predict"),
    ]))
    steps = [vectorizer] + ([MaxAbsScaler()] if draw(st.booleans()) else []) + [model()]
    return make_pipeline(*steps), method


def both_paths(pipe, method, doc, seed, fred_kwargs, explain_kwargs):
    """Explanations of ``doc`` through the fast path (asserted active throughout) and through strings."""
    fn = getattr(pipe, method)
    fast = Fred(fn, random_state=seed, **fred_kwargs)
    assert fast.fast_path_status.active, fast.fast_path_status
    got = fast.explain(doc, **explain_kwargs)
    assert fast.fast_path_status.active, f"fast path fell back: {fast.fast_path_status.reason}"
    slow = Fred(fn, random_state=seed, fast_path=False, **fred_kwargs)
    return got, slow.explain(doc, **explain_kwargs)


def assert_same_explanation(got, want, context: str) -> None:
    assert got.best_ids == want.best_ids, f"{context}: best_ids fast={got.best_ids} strings={want.best_ids}"
    assert got.found == want.found, context
    assert_allclose(got.importances, want.importances, rtol=SAME_RTOL, atol=1e-12, equal_nan=True, err_msg=context)
    if want.drop is None:
        assert got.drop is None, context
    else:
        assert_allclose(got.drop, want.drop, rtol=SAME_RTOL, atol=1e-12, err_msg=context)
    assert_allclose(got.mean_prediction, want.mean_prediction, rtol=SAME_RTOL, atol=1e-12, err_msg=context)
    if want.sample_scores is not None:
        assert_allclose(got.sample_scores, want.sample_scores, rtol=SAME_RTOL, atol=1e-12, err_msg=context)
        assert [c.to_dict() for c in got.counterfactuals(3)] == [c.to_dict() for c in want.counterfactuals(3)], context


@given(corpora(), pipelines(), st.sampled_from(["mean", "original"]))
def test_fast_and_string_paths_give_identical_mask_explanations(corpus, pipeline, baseline):
    """Catches a wrong position-to-feature incidence (lowercasing, accents, stop words, tokens splitting
    into several features or none), a tf-idf step applied differently (idf, norm, sublinear_tf, binary),
    later pipeline steps skipped, or counterfactual texts lost when the fast path renders none."""
    train, labels, doc, seed = corpus
    pipe, method = pipeline
    pipe.fit(train, labels)
    context = f"doc={doc!r} seed={seed} pipeline={pipe} method={method} baseline={baseline} rtol={SAME_RTOL}"
    got, want = both_paths(pipe, method, doc, seed, {"baseline": baseline}, {"n_samples": 200, "max_len": 3})
    assert got.sample_texts is None and want.sample_texts is not None
    assert_same_explanation(got, want, context)


@given(corpora(), pipelines())
def test_fast_and_string_paths_give_identical_exact_explanations(corpus, pipeline):
    """Catches the fast path mishandling the exact sampler's rows (all 2**b patterns, including the
    all-masked row whose count vector is empty) or its weights."""
    train, labels, doc, seed = corpus
    pipe, method = pipeline
    pipe.fit(train, labels)
    context = f"doc={doc!r} seed={seed} pipeline={pipe} method={method}"
    got, want = both_paths(pipe, method, doc, seed, {"sampler": "exact"}, {"max_len": 2})
    assert_same_explanation(got, want, context)


@given(corpora(), pipelines(), st.floats(0.05, 0.95))
def test_count_matrix_equals_vectorizer_on_rendered_texts(corpus, pipeline, p):
    """Catches any row of (1 - Z) @ A differing from CountVectorizer.transform of the masked text, beyond
    the few rows the built-in check looks at (e.g. repeated tokens counted once, unsorted indices)."""
    train, labels, doc, seed = corpus
    pipe, method = pipeline
    pipe.fit(train, labels)
    fast, status = setup_fast_path(getattr(pipe, method), MaskSampler(MASK))
    assert status.active, status
    tokens = doc.split()
    perturbed = np.random.default_rng(seed).random((40, len(tokens))) < p
    got = fast.counts(tokens, perturbed)
    want = CountVectorizer.transform(pipe[0], render_masked(tokens, perturbed, MASK))
    assert (got != want).nnz == 0, f"doc={doc!r} seed={seed} p={p}: count matrices differ"
    unsorted = [i for i in range(got.shape[0]) if np.any(np.diff(got.indices[got.indptr[i]:got.indptr[i + 1]]) <= 0)]
    assert not unsorted, f"doc={doc!r} seed={seed}: rows {unsorted} have unsorted or repeated column indices"


@pytest.mark.parametrize("repeats", [255, 256, 300, 70_000])
def test_count_of_a_word_repeated_past_a_small_integer_range_is_not_wrapped(repeats):
    """Catches per-row counts accumulated in a fixed small integer type (uint8 wraps 300 to 44; uint16
    wraps 70000) instead of one wide enough for the most repeated word of the document."""
    pipe = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(TRAIN, LABELS)
    fast, status = setup_fast_path(pipe.predict_proba, MaskSampler(MASK))
    assert status.active, status
    tokens = ["good"] * repeats + ["bad", "good"]
    perturbed = np.zeros((3, len(tokens)), dtype=bool)
    perturbed[1, :2] = perturbed[2, -1] = True
    got = fast.counts(tokens, perturbed)
    want = CountVectorizer.transform(pipe[0], render_masked(tokens, perturbed, MASK))
    assert (got != want).nnz == 0, (f"repeats={repeats}: got counts {got.toarray()[:, got.indices[:2]].tolist()}, "
                                    f"want {want.toarray()[:, want.indices[:2]].tolist()}")


@functools.cache
def _tally_fast_path(binary: bool):
    """The fast path of a word-count pipeline whose vocabulary has "x" and "ray", and its vectorizer."""
    pipe = make_pipeline(CountVectorizer(token_pattern=r"\w+", binary=binary), LogisticRegression())
    pipe.fit(TRAIN + ["x ray zz the a"], LABELS + [1])
    fast, status = setup_fast_path(pipe.predict_proba, MaskSampler(MASK))
    assert status.active, status
    return fast, pipe[0]


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.sampled_from([2, 40, 800]), st.booleans())
def test_counts_of_many_repeated_words_equal_a_per_row_tally(seed, b, binary):
    """Catches the per-feature sums of the count matrix grouping the wrong slots when words repeat many times
    (a run boundary off by one, a token with two features, e.g. "x-ray", or a twice-occurring feature split
    across runs, a repeat count past 255 stored in a type too narrow), against a brute-force tally: each row
    counts the analyzer's features of its kept tokens one by one."""
    rng = np.random.default_rng(seed)
    words = ["good", "bad", "x-ray", "food", "zz-zz", "the", "unseen", "a"]
    fast, vectorizer = _tally_fast_path(binary)
    tokens = list(rng.choice(words, size=b, p=[0.5, 0.2, 0.1, 0.05, 0.05, 0.05, 0.03, 0.02]))
    perturbed = rng.random((6, b)) < rng.random() / 2  # "good" kept about 300 times at b = 800
    analyze, vocabulary = vectorizer.build_analyzer(), vectorizer.vocabulary_
    want = np.zeros((6, len(vocabulary)), dtype=np.int64)
    for i, j in zip(*np.nonzero(~perturbed)):
        for feature in analyze(tokens[j]):
            if feature in vocabulary:
                want[i, vocabulary[feature]] = 1 if binary else want[i, vocabulary[feature]] + 1
    got = fast.counts(tokens, perturbed)
    assert np.array_equal(got.toarray(), want), f"seed={seed} b={b} binary={binary}"


@given(st.lists(st.text(alphabet="aZé1_-'!?., \u00a8\u00df", min_size=1, max_size=6).map(lambda s: s.replace(" ", "")),
                min_size=1, max_size=6).map(lambda ts: [t for t in ts if t] or ["x"]),
       st.sampled_from(SAFE_PATTERNS), st.sampled_from([None, "unicode", "ascii"]), st.booleans())
def test_analysis_of_joined_text_is_sum_over_tokens_for_accepted_patterns(tokens, pattern, accents, lowercase):
    """Catches token_pattern_problem accepting a pattern (or preprocessing) under which a match spans two
    whitespace tokens or depends on its neighbours, which would make (1 - Z) @ A wrong."""
    assert token_pattern_problem(pattern) is None, pattern
    analyze = CountVectorizer(token_pattern=pattern, strip_accents=accents, lowercase=lowercase).build_analyzer()
    per_token = [f for t in tokens for f in analyze(t)]
    assert analyze(" ".join(tokens)) == per_token, f"tokens={tokens} pattern={pattern!r} accents={accents}"


@pytest.mark.parametrize("pattern, words", [
    (r"[^,]+", "can match a space"), (r"\w+\s\w+", "can match a space"), (r"\w.\w", "can match a space"),
    (r"[ -~]+", "can match a space"), (r"\w+(?=\W)", "lookaround"), (r"(?<=x)\w+", "lookaround"),
    (r"^\w+", "anchor"), (r"\w+$", "anchor"),
])
def test_token_patterns_that_can_cross_tokens_are_refused(pattern, words):
    """Catches the pattern check missing a construct that lets matches span or depend on neighbouring tokens."""
    problem = token_pattern_problem(pattern)
    assert problem is not None and words in problem, f"pattern={pattern!r}: got {problem!r}, expected {words!r}"
    # The refusal is not over-cautious: per-token analysis really differs on some text.
    analyze = CountVectorizer(token_pattern=pattern, lowercase=False).build_analyzer()
    tokens = ["ab,c", "x", "yz", "w"]
    differs = analyze(" ".join(tokens)) != [f for t in tokens for f in analyze(t)]
    assert differs or re.search(r"\(\?[=!<]", pattern), f"pattern={pattern!r} agrees on {tokens}"


TRAIN = ["good food", "bad food", "great service", "awful service", "good great", "bad awful"]
LABELS = [1, 0, 1, 0, 1, 0]


class DoublingVectorizer(CountVectorizer):
    """Qualifies structurally but transforms differently from CountVectorizer: only the check can tell."""

    def transform(self, raw_documents):
        return super().transform(raw_documents) * 2


class ScaledPipeline(Pipeline):
    def predict_proba(self, X, **params):
        return super().predict_proba(X, **params) ** 2


def _lr(vectorizer):
    return make_pipeline(vectorizer, LogisticRegression()).fit(TRAIN, LABELS)


class NotMaskSampler(MaskSampler):
    name = "reversed"

    def render(self, tokens, perturbed, rng):
        return render_masked(tokens[::-1], perturbed, self.mask_token)


NOT_BOUND = "classifier_fn is not the bound predict_proba, decision_function or predict of a scikit-learn Pipeline"


@pytest.mark.parametrize("make, reason", [
    (lambda: _lr(TfidfVectorizer(ngram_range=(1, 2))).predict_proba,
     "TfidfVectorizer has ngram_range=(1, 2), not (1, 1)"),
    (lambda: _lr(TfidfVectorizer(analyzer="char")).predict_proba, "TfidfVectorizer has analyzer='char', not 'word'"),
    (lambda: _lr(TfidfVectorizer(analyzer="char_wb")).predict_proba,
     "TfidfVectorizer has analyzer='char_wb', not 'word'"),
    (lambda: _lr(TfidfVectorizer(analyzer=str.split)).predict_proba, "TfidfVectorizer has a callable analyzer"),
    (lambda: _lr(CountVectorizer(tokenizer=str.split, token_pattern=None)).predict_proba,
     "CountVectorizer has a custom preprocessor or tokenizer"),
    (lambda: _lr(CountVectorizer(preprocessor=str.upper)).predict_proba,
     "CountVectorizer has a custom preprocessor or tokenizer"),
    (lambda: _lr(CountVectorizer(strip_accents=str.lower)).predict_proba,
     "CountVectorizer has a callable strip_accents"),
    (lambda: _lr(CountVectorizer(token_pattern=r"\w+\s\w+")).predict_proba,
     r"token_pattern '\\w+\\s\\w+' has an element ([...] or a class like \s, \W) that can match a space"),
    (lambda: make_pipeline(CountVectorizer(), LogisticRegression()).fit(TRAIN + ["unk food"], LABELS + [1])
     .predict_proba, "mask token 'UNK' maps to in-vocabulary feature(s) ['unk']"),
    (lambda: make_pipeline(TfidfVectorizer(), LogisticRegression()).predict_proba, "TfidfVectorizer is not fitted"),
    (lambda: (lambda texts: _lr(TfidfVectorizer()).predict_proba(texts)), NOT_BOUND),
    (lambda: _lr(TfidfVectorizer()).predict_log_proba, NOT_BOUND),
    (lambda: LogisticRegression().fit(np.eye(2), [0, 1]).predict_proba, NOT_BOUND),
    (lambda: ScaledPipeline([("v", TfidfVectorizer()), ("m", LogisticRegression())]).fit(TRAIN, LABELS)
     .predict_proba, NOT_BOUND),
    (lambda: make_pipeline(MaxAbsScaler(), LogisticRegression()).fit(np.eye(2), [0, 1]).predict_proba,
     "the pipeline's first step is MaxAbsScaler, not a CountVectorizer or TfidfVectorizer"),
])
def test_non_qualifying_classifiers_fall_back_with_a_reason(make, reason):
    """Catches the fast path switching on for a pipeline or callable whose output on masked texts it
    cannot reproduce (n-grams, character or custom analysis, a mask token in the vocabulary, wrappers), and a
    status that does not say exactly why."""
    assert Fred(make()).fast_path_status == FastPathStatus(False, reason)


def test_active_status_names_the_pipeline_steps_and_method():
    """Catches an uninformative status line for an active fast path."""
    assert Fred(_lr(TfidfVectorizer()).decision_function).fast_path_status == FastPathStatus(
        True, "active: TfidfVectorizer + LogisticRegression, decision_function")


@pytest.mark.parametrize("pattern, problem", [
    (r"\w.\w", "has an element (.) that can match a space"),
    (r"\w+ \w+", "has an element (' ') that can match a space"),
    (r"[^,]+", "has an element ([^...]) that can match a space"),
    (r"[ -~]+", r"has an element ([...] or a class like \s, \W) that can match a space"),
    (r"(?!x)\w+", "has a lookaround, so matches depend on neighbouring tokens"),
    (r"(.)", "has an element (.) that can match a space"),  # inside a group
    (r"(?:.)+?", "has an element (.) that can match a space"),  # inside a lazy repeat
    (r"(?:.)++", "has an element (.) that can match a space"),  # inside a possessive repeat
    (r"(?>.)", "has an element (.) that can match a space"),  # inside an atomic group
    (r"\w+|.", "has an element (.) that can match a space"),  # in the second branch
    (r"[^,;]+", "has an element ([^...]) that can match a space"),  # a negated class, not a negated literal
    (r"(x)?(?(1)\w|.)", "has an element (.) that can match a space"),  # in a conditional's else-branch
    (r"(x)?(?(1)\w|\w)", None),
    (r"(x)?(?(1).|\w)", "has an element (.) that can match a space"),  # in a conditional's then-branch
    (r"(x)?(?(1)\w)", None),  # a conditional without an else-branch
    (r"\w+?", None), (r"(\w\w+)", None), (r"(?>\w+)", None), (r"\w++", None), (r"(\w)\1", None),
])
def test_token_pattern_problem_walks_every_construct(pattern, problem):
    """Catches a construct the pattern walk skips or misnames (groups, lazy/possessive repeats, atomic groups,
    branches, lookarounds): the exact reason, or None for a safe pattern."""
    expected = None if problem is None else f"token_pattern {pattern!r} {problem}"
    assert token_pattern_problem(pattern) == expected


def test_close_is_relative_to_the_string_scale_and_exact_for_labels():
    """Catches the set-up check's comparison: 1e-12 relative to max(1, max |strings|), exact for class labels."""
    from fred.fastpath import _close

    assert _close([1e6], [1e6 + 2**-30]) and not _close([1e6], [1e6 + 2**-16])
    assert _close([0.0], [2**-41]) and not _close([0.0], [2**-39])  # 4.5e-13 and 1.8e-12 against 1e-12
    assert _close(np.array(["a", "b"]), np.array(["a", "b"])) and not _close(np.array(["a", "b"]), np.array(["a", "c"]))
    assert not _close([1.0, 2.0], [1.0])


def test_fast_path_off_for_other_samplers_and_when_disabled():
    """Catches the fast path ignoring a sampler that renders other words, or ignoring fast_path=False."""
    pipe = _lr(TfidfVectorizer())
    assert Fred(pipe.predict_proba, sampler=NotMaskSampler()).fast_path_status == FastPathStatus(
        False, "sampler 'reversed' renders other words than the mask token")
    assert Fred(pipe.predict_proba, fast_path=False).fast_path_status == FastPathStatus(False,
                                                                                        "disabled by fast_path=False")
    assert Fred(pipe.predict_proba, sampler="exact").fast_path_status.active
    with pytest.raises(TypeError, match="fast_path"):
        Fred(pipe.predict_proba, fast_path="yes")


def test_failed_check_against_strings_falls_back_and_explains_like_strings():
    """Catches a fast path that trusts its structural checks: a vectorizer subclass transforming differently
    must be caught by the comparison with the rendered strings, and the explanation must be the string path's."""
    pipe = _lr(DoublingVectorizer())
    explainer = Fred(pipe.predict_proba, random_state=3)
    assert explainer.fast_path_status.active, explainer.fast_path_status
    got = explainer.explain("good food and great service", n_samples=300, max_len=2)
    assert explainer.fast_path_status.active, "a failed check must not change the explainer"
    assert got.fast_path.active is False
    assert got.fast_path.reason.startswith("fell back to strings: "), got.fast_path
    assert "differs" in got.fast_path.reason, got.fast_path
    want = Fred(pipe.predict_proba, random_state=3, fast_path=False).explain("good food and great service",
                                                                             n_samples=300, max_len=2)
    assert_same_explanation(got, want, "DoublingVectorizer")
    # each call checks again and records its own fall-back; the explainer keeps its status
    again = explainer.explain("bad food", n_samples=50, max_len=1)
    assert again.fast_path == got.fast_path and again.n_samples == 50
