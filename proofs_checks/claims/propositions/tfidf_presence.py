"""Section 3.3: "the presence or absence of a word w_i in a document is straightforwardly captured by the condition
phi(doc)_i > 0", and Prop. 2's model written with it, prod_{j in J} 1{w_j in doc} = prod_{j in J} 1{phi(doc)_j > 0}.

A sentence of its own, not a reading of tfidf-oov's (lines 476-478, the IDF of an unseen word and masking): it
says what phi's coordinates tell of a document, and Prop. 2's model (line 533) rests on it. The sentence indexes
the word by phi's coordinate i, and in the paper's setting every word is a dictionary element with a coordinate
(lines 235-236, Definition 1's phi in R^D, line 465): read so (headline), phi(doc)_i = m_i(doc) idf_i with
idf_i >= 1 (Definition 1), positive iff the word occurs, also after the L2 normalisation of the default
``TfidfVectorizer()``. Line 476 itself names the words it cannot speak of: once fitted, the vocabulary is fixed, and
a word not part of the corpus has IDF term zero (or no column): such a word is present while its coordinate is 0, so
read of every word of a document (J inside [d], the words of the explained document, line 531), the sentence and
the last equality of line 533 fail. Checked on scikit-learn's TfidfVectorizer fitted on small corpora, every
document of <= 3 tokens over the vocabulary and one unseen word.
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy as sp
from sklearn.feature_extraction.text import TfidfVectorizer

from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses

CLAIM = Claim("tfidf-presence", new=True)
PRESENCE = Quote(526, r"This consideration stems from our utilization of the TF-IDF vectorizer, where the presence or "
                      r"absence of a word $\word_i$ in a document $\doc$ is straightforwardly captured by the condition "
                      r"$\tfidf{\doc}_i > 0$ (or $\tfidf{\doc}_i = 0$).")
MODEL = Quote(533, r"\model(\doc) = \indic{\word_j \in \doc,\; \forall j \in J} = \prod_{j \in J} \indic{\word_j \in "
                   r"\doc} = \prod_{j \in J} \indic{\tfidf{\doc}_j > 0}.")
DICTIONARY_WORDS = (
    Quote(235, r"We also define $\dictionary = \{\word_1,\ldots,\word_D\}$ as the \emph{global dictionary} "
               r"containing~$D$ unique terms."),
    Quote(236, "Any document is a finite sequence of these dictionary elements."),
    Quote(465, r"The TF-IDF of $\doc$ is the vector $\tfidf{\doc} \in \Reals^D$ such that"),
    Quote(470, r"where $\idf_j \defeq \log{\frac{N + 1}{N_j + 1}} + 1$ is the \emph{inverse document frequency}"),
)
UNSEEN_WORDS = (
    Quote(476, "Note that once the TF-IDF vectorizer is fitted on a corpus, the vocabulary is fixed: if a word is not "
               "part of the initial corpus, its IDF term is zero."),
    Quote(531, r"Consider the set $J = \{1, 2, \ldots, k\}$ as a subset of $[d]$"),
)
SOURCE = (PRESENCE, MODEL, *DICTIONARY_WORDS, *UNSEEN_WORDS)
READINGS = (
    Reading("vocabulary", "headline",
            "w_i is a word with a coordinate of phi, a feature of the fitted vocabulary: phi(doc)_i > 0 iff w_i occurs "
            "in doc, and Prop. 2's model (line 533) is the presence product for J inside the vocabulary. The "
            "sentence indexes the word by phi's coordinate, and in the paper's setting every word of a document is "
            "a dictionary element with a coordinate of phi in R^D (lines 235-236, 465).",
            why=(PRESENCE, *DICTIONARY_WORDS[:3])),
    Reading("any-word", "stronger",
            "w_i is any word of a document, one not part of the fitted corpus included (line 476 says such words "
            "exist and have IDF term zero), and J of line 533 any set of words of the explained document (J inside "
            "[d], line 531).", why=(PRESENCE, *UNSEEN_WORDS)),
)
STATEMENT = (
    "Section 3.3 (line 526): with the TF-IDF vectorizer, a word w_i occurs in a document iff phi(doc)_i > 0 (and is "
    "absent iff phi(doc)_i = 0); hence Prop. 2's model (line 533), prod_{j in J} 1{w_j in doc} = prod_{j in J} "
    "1{phi(doc)_j > 0}."
)
CONDITIONS = (
    "scikit-learn TfidfVectorizer (word unigrams, default token pattern and lowercasing), norm=None (Definition 1) and "
    "the default norm='l2', fitted on the corpora of st1; presence is the vectorizer's analyzer's token in the "
    "document. Headline: words of the fitted vocabulary (holds: idf >= 1, p1; every case enumerated). Read of every "
    "word of a document, a word outside the fitted corpus (line 476) is present while phi has no positive "
    "coordinate for it, and line 533's last equality fails for any J holding such a word."
)
#: The fitted corpora, the vectorizer's norms, the word no corpus contains, and the longest document enumerated.
CORPORA = (("good food", "bad service"), ("good", "bad"), ("good good bad", "food"))
NORMS = (None, "l2")
UNSEEN = "zzz"
MAX_DOCUMENT_TOKENS = 3


def _cases():
    """(corpus, norm, fitted vectorizer, documents, phi of the documents): every document of 1..3 tokens over the
    vocabulary and :data:`UNSEEN`."""
    for corpus, norm in itertools.product(CORPORA, NORMS):
        vec = TfidfVectorizer(norm=norm).fit(list(corpus))
        words = sorted(vec.vocabulary_) + [UNSEEN]
        documents = [" ".join(t) for b in range(1, MAX_DOCUMENT_TOKENS + 1) for t in itertools.product(words, repeat=b)]
        yield corpus, norm, vec, documents, vec.transform(documents).toarray()


def _presence(vec, documents) -> list[set[str]]:
    """The words each document contains, as the vectorizer's analyzer reads it (not through phi)."""
    analyzer = vec.build_analyzer()
    return [set(analyzer(d)) for d in documents]


def _vocabulary_words() -> tuple[bool, dict]:
    """Every (document, vocabulary word) of every case: the word occurs iff its coordinate of phi is > 0."""
    pairs, bad = 0, []
    for corpus, norm, vec, documents, phi in _cases():
        for row, present in enumerate(_presence(vec, documents)):
            for word, j in vec.vocabulary_.items():
                pairs += 1
                if (word in present) != bool(phi[row, j] > 0):
                    bad.append({"corpus": list(corpus), "norm": norm, "document": documents[row], "word": word})
    return not bad and pairs > 0, {"pairs": pairs, "failing": bad[:3]}


def _model(j_words, present: set[str], vec, phi_row: np.ndarray) -> tuple[int, int]:
    """Line 533's two products on one document: presence, and phi's coordinates (0 for a word with no column, as
    line 476's IDF term zero gives it)."""
    by_phi = [phi_row[vec.vocabulary_[w]] if w in vec.vocabulary_ else 0.0 for w in j_words]
    return int(all(w in present for w in j_words)), int(all(v > 0 for v in by_phi))


def _shortcut_model() -> tuple[bool, dict]:
    """Line 533's last equality on every document of every case, for every non-empty J of vocabulary words, and for
    every J that holds the unseen word."""
    seen = {"inside": 0, "inside_differ": 0, "with_unseen": 0, "with_unseen_differ": 0,
            "with_unseen_contains_all_of_j": 0}
    first = None
    for corpus, norm, vec, documents, phi in _cases():
        words = sorted(vec.vocabulary_) + [UNSEEN]
        sets = [s for k in range(1, len(words) + 1) for s in itertools.combinations(words, k)]
        for row, present in enumerate(_presence(vec, documents)):
            for j_words in sets:
                key = "with_unseen" if UNSEEN in j_words else "inside"
                by_presence, by_phi = _model(j_words, present, vec, phi[row])
                seen[key] += 1
                seen["with_unseen_contains_all_of_j"] += key == "with_unseen" and by_presence == 1
                if by_presence != by_phi:
                    seen[f"{key}_differ"] += 1
                    if first is None and key == "with_unseen":
                        first = {"corpus": list(corpus), "norm": norm, "J": list(j_words),
                                 "document": documents[row], "presence_product": by_presence,
                                 "phi_product": by_phi}
    return seen["inside"] > 0 and not seen["inside_differ"], {
        **seen, "first_with_unseen": first,
        "differ_exactly_where_doc_contains_j": seen["with_unseen_differ"] == seen["with_unseen_contains_all_of_j"]}


def smallest_unseen_case() -> dict:
    """The smallest case of the stronger reading: corpus ['good'], document 'bad': 'bad' occurs, phi has no column
    for it and phi('bad') = phi(''), with the record of the reading's hypotheses computed on it."""
    corpus, document, word = ["good"], "bad", "bad"
    vec = TfidfVectorizer(norm=None).fit(corpus)
    phi, empty = vec.transform([document]).toarray()[0], vec.transform([""]).toarray()[0]
    present = word in vec.build_analyzer()(document)
    return {"corpus": corpus, "document": document, "word": word, "vocabulary": sorted(vec.vocabulary_),
            "word_has_a_coordinate": word in vec.vocabulary_, "phi": phi.tolist(),
            "phi_equals_phi_of_the_empty_document": bool(np.array_equal(phi, empty)),
            "word_present": present,
            "coordinate_under_line_476": document.split().count(word) * 0.0,  # m_i times line 476's IDF term 0
            **hypotheses(word_in_document=present, word_not_in_fitted_corpus=word not in " ".join(corpus).split(),
                         fitted_tfidf_vectorizer=hasattr(vec, "idf_"))}


def _idf_at_least_one() -> tuple[bool, dict]:
    """Definition 1's idf, log((N + 1)/(N_j + 1)) + 1, is >= 1 on 0 <= N_j <= N: it decreases in N_j (sympy's
    derivative, negative for N_j >= 0) and equals 1 at N_j = N; and the fitted idf_ of every case is >= 1."""
    n, nj = sp.symbols("N N_j", nonnegative=True)
    value = sp.log((n + 1) / (nj + 1)) + 1
    derivative = sp.simplify(sp.diff(value, nj))
    decreasing = bool((-derivative).is_positive)
    at_n = sp.simplify(value.subs(nj, n))
    fitted = [float(v) for _, _, vec, _, _ in _cases() for v in vec.idf_]
    return decreasing and at_n == 1 and min(fitted) >= 1, {
        "idf": str(value), "derivative_in_N_j": str(derivative), "decreasing": decreasing, "at_N_j_equal_N": str(at_n),
        "smallest_fitted_idf": min(fitted)}


def check() -> ClaimResult:
    """Presence against phi's coordinates and line 533's model, for vocabulary words and for an unseen word."""
    model = _shortcut_model()
    steps = (idf_at_least_one(), vocabulary_words(), shortcut_model_inside_the_vocabulary(model),
             unseen_word(), shortcut_model_with_an_unseen_word(model))
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)


def idf_at_least_one() -> StepResult:
    """p1: phi(doc)_i = m_i(doc) idf_i (over a positive norm) with idf_i >= 1: positive iff m_i(doc) > 0."""
    holds, seen = _idf_at_least_one()
    return CLAIM.checked(
        "p1-idf-at-least-one", "proof", "symbolic",
        f"phi(doc)_i = m_i(doc) idf_i (Definition 1; divided by ||phi(doc)|| > 0 with the default L2 norm), and "
        f"idf_i = {seen['idf']} >= 1 on 0 <= N_j <= N: its derivative in N_j, {seen['derivative_in_N_j']}, is "
        f"negative, and it is {seen['at_N_j_equal_N']} at N_j = N (sympy); the fitted idf_ of every case is >= "
        f"{seen['smallest_fitted_idf']:.6f}. So a word with a coordinate has phi_i > 0 iff it occurs.",
        holds=holds, values=seen)


def vocabulary_words() -> StepResult:
    """st1: every (document, vocabulary word): the word occurs iff its coordinate is > 0."""
    holds, seen = _vocabulary_words()
    return CLAIM.checked(
        "st1-vocabulary-words", "statement", "exhaustive",
        f"Line 526 for the words of the fitted vocabulary: on all {seen['pairs']} (document, word) pairs (corpora "
        f"{[list(c) for c in CORPORA]}, norm None and 'l2', every document of 1..{MAX_DOCUMENT_TOKENS} tokens over "
        f"the vocabulary and '{UNSEEN}'), the word occurs (the analyzer's tokens) iff its coordinate of phi is > 0"
        + (f"; failures {seen['failing']}." if seen["failing"] else "."),
        holds=holds, values=seen, reading="vocabulary")


def shortcut_model_inside_the_vocabulary(model: tuple[bool, dict]) -> StepResult:
    """st2: line 533's last equality for every J inside the fitted vocabulary, on every document."""
    holds, seen = model
    return CLAIM.checked(
        "st2-shortcut-model-inside-the-vocabulary", "statement", "exhaustive",
        f"Line 533, prod_{{j in J}} 1{{w_j in doc}} = prod_{{j in J}} 1{{phi(doc)_j > 0}}, for every non-empty J of "
        f"vocabulary words on every document of the same cases: {seen['inside']} (J, document) pairs, "
        f"{seen['inside_differ']} where the products differ.",
        holds=holds, values={k: seen[k] for k in ("inside", "inside_differ")}, reading="vocabulary")


def unseen_word() -> StepResult:
    """st3: a word not part of the fitted corpus occurs while phi has no positive coordinate for it."""
    case = smallest_unseen_case()
    holds = not (case["satisfies_hypotheses"] and case["word_present"] and not case["word_has_a_coordinate"])
    return CLAIM.checked(
        "st3-unseen-word", "statement", "counterexample" if not holds else "exhaustive",
        f"Read of every word: corpus {case['corpus']}, document '{case['document']}': '{case['word']}' occurs "
        f"({case['word_present']}) but has no coordinate (vocabulary {case['vocabulary']}; phi = {case['phi']}, "
        f"the empty document's: {case['phi_equals_phi_of_the_empty_document']}); under line 476's 'its IDF term "
        f"is zero' its coordinate is {case['coordinate_under_line_476']}. Presence is not phi_i > 0 for a word "
        "outside the fitted corpus, the case line 476 names (hypotheses computed on the case: "
        f"{case['hypotheses']}).",
        holds=holds, values=case, reading="any-word")


def shortcut_model_with_an_unseen_word(model: tuple[bool, dict]) -> StepResult:
    """st4: line 533's last equality when J holds a word outside the fitted corpus."""
    _, seen = model
    return CLAIM.checked(
        "st4-shortcut-model-with-an-unseen-word", "statement", "exhaustive",
        f"Line 533 with J holding '{UNSEEN}', a word of no fitted corpus (its coordinate 0, line 476): on "
        f"{seen['with_unseen']} (J, document) pairs the products differ on {seen['with_unseen_differ']}; the "
        f"documents that contain all of J are {seen['with_unseen_contains_all_of_j']} (there the presence product "
        "is 1 and phi's 0), e.g. "
        f"{seen['first_with_unseen']}. The equality holds exactly when J is inside the fitted vocabulary (st2).",
        holds=not seen["with_unseen_differ"], values={k: seen[k] for k in (
            "with_unseen", "with_unseen_differ", "with_unseen_contains_all_of_j", "differ_exactly_where_doc_contains_j",
            "first_with_unseen")},
        reading="any-word")
