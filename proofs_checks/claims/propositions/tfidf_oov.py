"""Section 3 on out-of-vocabulary words: "its IDF term is zero", and masking "is equivalent to simply removing it".

The paper (a remark, "Note that"): "once the TF-IDF vectorizer is fitted on a corpus, the vocabulary is fixed: if a
word is not part of the initial corpus, its IDF term is zero. We make the (realistic) assumption that the mask token
is not in the fitted corpus [...]. Thus, replacing any word with this token is equivalent to simply removing it".

Read as the colon says (the vocabulary is fixed, so an unseen word has no feature and adds nothing to phi), (a)
holds on scikit-learn's ``TfidfVectorizer(norm=None)`` (Definition 1), and (b) follows from it ("Thus"): a mask with
no feature is removal. Read as a convention inside Definition 1 (an unseen word's IDF term is set to 0), line 476
conflicts with Definition 1's formula (line 470), which at N_j = 0 gives 1 + log(N + 1), not 0; the convention gives
the same phi as the missing column, so (b) follows from it too. For an implementation, "not in the fitted corpus"
must hold after the vectorizer's preprocessing: with lowercasing, the mask "UNK" is the feature "unk" of a corpus
containing "unk", a case outside the assumption (the project's caveat for the experiments that mask with UNK). The
condition is what ``analytic.check_vectorizer`` requires.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import sympy as sp
from sklearn.feature_extraction.text import TfidfVectorizer

from analytic import all_drops_rational, check_vectorizer, exact_explain, idf
from fred_constants import EPS, EPS_EXACT, MASK_TOKEN, P_EXACT, P

from ...subject.explainer import explainer
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses

CLAIM = Claim("tfidf-oov")
SOURCE = (
    Quote(235, r"We also define $\dictionary = \{\word_1,\ldots,\word_D\}$ as the \emph{global dictionary} "
               r"containing~$D$ unique terms."),
    Quote(236, "Any document is a finite sequence of these dictionary elements."),
    Quote(464, r"Let $N_j$ be the number of documents containing the word $\word_j \in \dictionary$."),
    Quote(470, r"where $\idf_j \defeq \log{\frac{N + 1}{N_j + 1}} + 1$ is the \emph{inverse document frequency} "
               r"(IDF) of $\word_j$ in $\texts$."),
    Quote(476, "Note that once the TF-IDF vectorizer is fitted on a corpus, the vocabulary is fixed: if a word is not "
               "part of the initial corpus, its IDF term is zero."),
    Quote(477, r"We make the (realistic) assumption that the mask token is not in the fitted corpus and consider the "
               r"\texttt{mask}-sampling seen in Section~\ref{sec:sampling}."),
    Quote(478, "Thus, replacing any word with this token is equivalent to simply removing it, from the point of view "
               "of TF-IDF."),
    Quote(571, r"For the faithfulness metrics, token removals are simulated by replacing the missing token with the "
               r"mask \texttt{UNK}."),
)
READINGS = (
    Reading("as-meant", "headline",
            "(a) Once fitted, the vocabulary is fixed, so a word that is not part of the corpus has no feature: its "
            "term in phi is zero and it adds nothing to the TF-IDF vector. (b) When the mask token is not a word of "
            "the fitted corpus, i.e. has no feature after the vectorizer's preprocessing, replacing any words with "
            "it gives the same phi as removing them (by (a): the mask has no column, 'Thus', line 478).",
            why=(Quote(476, "the vocabulary is fixed:"),
                 Quote(478, "Thus, replacing any word with this token is equivalent to simply removing it, from the "
                            "point of view of TF-IDF."))),
    Reading("convention", "alternative",
            "(a) as a convention inside Definition 1: a word that is not part of the corpus keeps its coordinate "
            "and its IDF term is set to 0. Line 476's convention conflicts with Definition 1 (line 470) at "
            "N_j = 0, whose formula gives 1 + log(N + 1) > 0, not 0; as a convention it gives the same phi as the "
            "fitted vectorizer's missing column, and (b) follows from it ('Thus', line 478).",
            why=(Quote(476, "if a word is not part of the initial corpus, its IDF term is zero."),
                 Quote(470, r"where $\idf_j \defeq \log{\frac{N + 1}{N_j + 1}} + 1$"))),
)
STATEMENT = (
    "Section 3: once the TF-IDF vectorizer is fitted, (a) a word that is not part of the corpus has IDF term zero, "
    "and (b) with the mask token not in the fitted corpus, replacing any word with the mask token is equivalent to "
    "removing it, from the point of view of TF-IDF."
)
CORRECTED = (
    "(a) a word with no feature after the vectorizer's preprocessing has no column, so it contributes 0 to phi; line "
    "476's 'its IDF term is zero' is a convention that conflicts with Definition 1's formula (line 470), which at "
    "N_j = 0 gives 1 + log(N + 1) >= 1 + log 2 (every idf is >= 1), and gives the same phi as the missing column. "
    "(b) For an implementation (the experiments mask with 'UNK', line 571) the assumption must hold after "
    "the vectorizer's preprocessing: masking gives the same phi as removal on every perturbation, for every "
    "document, iff the analyzer maps the mask token to no vocabulary feature (analytic.check_vectorizer's "
    "condition); the mask string being absent from the corpus text is not enough ('UNK' is lowercased to 'unk')."
)
CONDITIONS = (
    "A remark ('Note that'). scikit-learn TfidfVectorizer(norm=None) (Definition 1), word unigrams, default token "
    "pattern. (a)'s meaning (an unseen word adds nothing to phi) holds. Line 476's 'its IDF term is zero' read as a "
    "convention inside Definition 1 conflicts with line 470's formula at N_j = 0 (1 + log(N + 1), not 0) and gives "
    "the same phi as the missing column (reading convention); either way (b) follows ('Thus', line 478), not from "
    "Definition 1's formula, which would give a mask token kept as a dictionary element a positive coordinate. (b) "
    "holds under its assumption read as the vectorizer sees the mask (no feature after preprocessing); the "
    "lowercasing caveat for an implementation that masks with 'UNK' (line 571) is this project's, in the corrected "
    "statement."
)
SEARCH_WORDS = ("good", "unk")  # "unk" is what the default analyzer makes of the mask "UNK"
SEARCH_MAX_CORPUS_TOKENS = 3
SMALLER = ("fewer corpus documents, then fewer corpus tokens, then earlier corpus (product order over "
           f"{list(SEARCH_WORDS)}), then lowercase before not, then a shorter document, then earlier document")

#: The family of the iff check: corpora, vectorizer settings, mask tokens and documents (every 2^b pattern).
CORPORA = (("good food", "bad service"), ("good unk", "bad food"), ("Good UNK food", "bad"), ("mask good", "bad food"),
           ("good", "bad"))
LOWERCASE = (True, False)
MASKS = ("UNK", "unk", "[MASK]", "<unk>", "MASK", "_", "zz")
UNSEEN = ("zzz", "terrible", "Qq")


def _vectorizer(corpus, lowercase: bool = True) -> TfidfVectorizer:
    return TfidfVectorizer(norm=None, lowercase=lowercase).fit(list(corpus))


def _phi(vec, texts) -> np.ndarray:
    return vec.transform(list(texts)).toarray()


def _in_vocabulary(vec, word: str) -> list[str]:
    """The vocabulary features the fitted vectorizer's analyzer makes of ``word`` (its own preprocessing)."""
    return [t for t in vec.build_analyzer()(word) if t in vec.vocabulary_]


def _definition1(vec) -> bool:
    """Whether the fitted vectorizer is Definition 1's TF-IDF: raw counts times the smooth idf, no norm."""
    return vec.norm is None and vec.use_idf and vec.smooth_idf and not vec.sublinear_tf and not vec.binary


def unseen_hypotheses(vec, corpus, word: str) -> dict:
    """(a)'s hypotheses on one case: a fitted Definition-1 vectorizer, and the word is not part of the initial
    corpus (no corpus document contains it, and the analyzer maps it to no vocabulary feature)."""
    return hypotheses(definition1_tfidf=_definition1(vec),
                      word_not_in_corpus=not _in_vocabulary(vec, word)
                      and all(word not in doc.split() for doc in corpus))


def mask_hypotheses(vec, mask: str) -> dict:
    """(b)'s hypotheses on one case, on the headline reading: a fitted Definition-1 vectorizer, and the mask token
    is not in the fitted corpus, i.e. the vectorizer's analyzer maps it to no vocabulary feature."""
    return hypotheses(definition1_tfidf=_definition1(vec), mask_not_in_fitted_corpus=not _in_vocabulary(vec, mask))


def _texts(tokens, mask: str) -> tuple[list[str], list[str]]:
    """The 2^b masked texts and the 2^b texts with the same positions removed, code order."""
    b = len(tokens)
    masked = [" ".join(mask if code >> i & 1 else t for i, t in enumerate(tokens)) for code in range(2**b)]
    removed = [" ".join(t for i, t in enumerate(tokens) if not code >> i & 1) for code in range(2**b)]
    return masked, removed


def _refused(vec, mask: str) -> bool:
    try:
        check_vectorizer(vec, mask)
    except ValueError:
        return True
    return False


def _linear(vec, delete: str | None = None):
    """The black box f = sum_j phi_j (lambda_j = 1 on every feature, lambda_0 = 0); tokens equal to ``delete`` are
    dropped before vectorising (masking by ``delete`` then acts as removal)."""
    def f(texts):
        texts = list(texts) if delete is None else [" ".join(t for t in s.split() if t != delete) for s in texts]
        return _phi(vec, texts).sum(axis=1)
    return f


def _fred(classifier_fn, text: str):
    """Fred(sampler='exact') with the mask token MASK_TOKEN."""
    return explainer(classifier_fn, mask_token=MASK_TOKEN, exact=True).explain(text, p=P, eps=EPS,
                                                                        max_len=len(text.split()))


def _drops(vec, tokens, mask_removed: bool) -> tuple:
    masked, removed = _texts(tokens, MASK_TOKEN)
    table = [Fraction(float(v)) for v in _phi(vec, removed if mask_removed else masked).sum(axis=1)]
    return table, all_drops_rational(table, P_EXACT)


def _search_cases():
    """Every (corpus, lowercase, document) of the search, in the order SMALLER: corpora of 1 or 2 documents over
    SEARCH_WORDS with at most SEARCH_MAX_CORPUS_TOKENS tokens, documents of 1 or 2 vocabulary words that are not
    the mask's feature."""
    for n_docs in (1, 2):
        for total in range(n_docs, SEARCH_MAX_CORPUS_TOKENS + 1):
            for lengths in itertools.product(range(1, total + 1), repeat=n_docs):
                if sum(lengths) != total:
                    continue
                for corpus in itertools.product(*[itertools.product(SEARCH_WORDS, repeat=n) for n in lengths]):
                    texts = [" ".join(d) for d in corpus]
                    for lowercase in LOWERCASE:
                        vec = _vectorizer(texts, lowercase)
                        words = [w for w in sorted(vec.vocabulary_, key=SEARCH_WORDS.index)
                                 if w not in _in_vocabulary(vec, MASK_TOKEN)]
                        for b in (1, 2):
                            for tokens in itertools.product(words, repeat=b):
                                yield texts, lowercase, vec, tokens


def _masking_case(texts, lowercase, vec, tokens) -> dict:
    """One case where masking and removal differ, in full: exact drops and Eq. (2) under both, FRED under both, and
    (b)'s hypotheses record."""
    text = " ".join(tokens)
    (masked, (m_mean, m_drops)), (removed, (r_mean, r_drops)) = _drops(vec, tokens, False), _drops(vec, tokens, True)
    out = {"corpus": texts, "lowercase": lowercase, "mask_token": MASK_TOKEN, "vocabulary": sorted(vec.vocabulary_),
           "idf": {w: float(vec.idf_[j]) for w, j in vec.vocabulary_.items()},
           "mask_features": _in_vocabulary(vec, MASK_TOKEN), "document": text,
           "model": "f = sum_j phi_j (lambda_j = 1, lambda_0 = 0)", "p": str(P_EXACT), "eps": str(EPS_EXACT),
           "check_vectorizer_refuses": _refused(vec, MASK_TOKEN), **mask_hypotheses(vec, MASK_TOKEN)}
    for name, table, mean, drops, f in (("masking", masked, m_mean, m_drops, _linear(vec)),
                                        ("removal", removed, r_mean, r_drops, _linear(vec, delete=MASK_TOKEN))):
        sol = exact_explain(table, P_EXACT, EPS_EXACT, len(tokens), drops=(mean, drops))
        fred = _fred(f, text)
        out[name] = {"f_by_pattern_code": [str(v) for v in table], "mean": str(mean),
                     "drops": {" ".join(tokens[i] for i in s): str(d) for s, d in drops.items()},
                     "eq2_solutions": [list(s) for s in sol.solutions], "fred_found": fred.found,
                     "fred_best": list(fred.best)}
    return out


def _mask_search() -> tuple[bool, dict]:
    """(b) on every search case: inside the hypotheses masking and removal give the same exact drops; the first
    case outside them where they differ is reported in full (not a counterexample: the assumption excludes it)."""
    inside, outside, failing, excluded = 0, 0, [], None
    for texts, lowercase, vec, tokens in _search_cases():
        differ = _drops(vec, tokens, False)[1] != _drops(vec, tokens, True)[1]
        if mask_hypotheses(vec, MASK_TOKEN)["satisfies_hypotheses"]:
            inside += 1
            if differ:
                failing.append(_masking_case(texts, lowercase, vec, tokens))
        else:
            outside += 1
            if differ and excluded is None:
                excluded = _masking_case(texts, lowercase, vec, tokens)
    return not failing and inside > 0, {
        "cases_inside_hypotheses": inside, "cases_outside_hypotheses": outside, "failing": failing[:3],
        "first_differing_case_outside_hypotheses": excluded, "order": SMALLER, "mask_token": MASK_TOKEN}


def _unseen() -> tuple[bool, dict]:
    """An unseen word has no column and adds nothing to phi (every corpus of the family, both lowercase settings)."""
    rows = []
    for corpus, lowercase in itertools.product(CORPORA, LOWERCASE):
        vec = _vectorizer(corpus, lowercase)
        for word in UNSEEN:
            record = unseen_hypotheses(vec, corpus, word)
            if not record["satisfies_hypotheses"]:
                continue  # a word of the corpus: not a case of (a)
            same = np.array_equal(_phi(vec, [f"{d} {word}" for d in corpus]), _phi(vec, corpus))
            rows.append({"corpus": list(corpus), "lowercase": lowercase, "word": word, "phi_unchanged": bool(same),
                         **record})
    bad = [r for r in rows if not r["phi_unchanged"]]
    return not bad and bool(rows), {"cases": len(rows), "unseen_words": list(UNSEEN), "failing": bad}


def _definition1_phi(vec, corpus, texts, word: str, word_idf: float) -> np.ndarray:
    """Definition 1's phi of ``texts``, written here independently of ``transform``: counts of the vectorizer's
    analyzer tokens times idf_j = log((N + 1)/(N_j + 1)) + 1 (analytic.idf, N_j counted here on ``corpus``), over
    the fitted vocabulary (its column order) plus a last coordinate for the unseen ``word``, whose IDF term is
    ``word_idf``."""
    analyzer = vec.build_analyzer()
    columns = {**vec.vocabulary_, **{t: len(vec.vocabulary_) for t in analyzer(word)}}
    documents = [set(analyzer(d)) for d in corpus]
    weights = np.empty(len(vec.vocabulary_) + 1)
    for t, j in vec.vocabulary_.items():
        weights[j] = idf(len(corpus), sum(t in d for d in documents))
    weights[-1] = word_idf
    counts = np.zeros((len(texts), weights.size))
    for row, text in enumerate(texts):
        for t in analyzer(text):
            if t in columns:
                counts[row, columns[t]] += 1
    return counts * weights


def _convention() -> tuple[bool, dict]:
    """Reading 'convention' on (a)'s family (every corpus, both lowercase settings, every unseen word): Definition
    1's phi with the unseen word's IDF term set to 0 (line 476) equals the fitted vectorizer's phi (no column) with a
    zero coordinate appended. Also recorded: the conflict, line 470's formula at N_j = 0, and what a mask token kept
    as a dictionary element (line 236) with that formula would give instead of removal."""
    rows = []
    for corpus, lowercase in itertools.product(CORPORA, LOWERCASE):
        vec = _vectorizer(corpus, lowercase)
        formula = float(idf(len(corpus), 0))
        for word in UNSEEN:
            if not unseen_hypotheses(vec, corpus, word)["satisfies_hypotheses"]:
                continue  # a word of the corpus: not a case of (a)
            texts = [f"{d} {word}" for d in corpus]
            padded = np.hstack([_phi(vec, texts), np.zeros((len(texts), 1))])
            by_formula = _definition1_phi(vec, corpus, texts, word, formula)[:, -1]
            rows.append({"corpus": list(corpus), "lowercase": lowercase, "word": word,
                         "same_phi": bool(np.allclose(_definition1_phi(vec, corpus, texts, word, 0.0), padded,
                                                      rtol=1e-12, atol=0)),
                         "definition1_idf_at_N_j_0": formula, "word_coordinate_by_formula": by_formula.tolist()})
    vec = _vectorizer(["good"])
    without = {"corpus": ["good"], "document": "good", "mask_token": MASK_TOKEN,
               "masked_phi_by_formula": _definition1_phi(vec, ["good"], [MASK_TOKEN], MASK_TOKEN,
                                                         float(idf(1, 0)))[0].tolist(),
               "masked_phi_by_convention": _definition1_phi(vec, ["good"], [MASK_TOKEN], MASK_TOKEN, 0.0)[0].tolist(),
               "removed_phi": _definition1_phi(vec, ["good"], [""], MASK_TOKEN, 0.0)[0].tolist()}
    bad = [r for r in rows if not r["same_phi"]]
    return not bad and bool(rows), {
        "cases": len(rows), "unseen_words": list(UNSEEN), "failing": bad[:3],
        "conflict_in_every_case": all(r["definition1_idf_at_N_j_0"] > 0 for r in rows),
        "first": rows[0] if rows else None, "mask_as_dictionary_element": without}


def _iff() -> tuple[bool, dict]:
    """Masking = removal on every pattern iff the mask has no vocabulary feature iff check_vectorizer accepts."""
    rows, bad = 0, []
    for corpus, lowercase, mask in itertools.product(CORPORA, LOWERCASE, MASKS):
        vec = _vectorizer(corpus, lowercase)
        inside = bool(_in_vocabulary(vec, mask))
        words = sorted(w for w in vec.vocabulary_ if w not in _in_vocabulary(vec, mask))
        documents = [tuple(words[:2]), tuple(words[-3:])]
        for tokens in documents:
            masked, removed = _texts(tokens, mask)
            equal = np.array_equal(_phi(vec, masked), _phi(vec, removed))
            rows += 1
            if equal == inside or _refused(vec, mask) != inside:
                bad.append({"corpus": list(corpus), "lowercase": lowercase, "mask": mask, "document": list(tokens),
                            "mask_in_vocabulary": inside, "masking_equals_removal": bool(equal),
                            "check_vectorizer_refuses": _refused(vec, mask)})
    return not bad, {"cases": rows, "corpora": [list(c) for c in CORPORA], "lowercase": list(LOWERCASE),
                     "masks": list(MASKS), "failing": bad}


def _idf_symbolic() -> tuple[bool, dict]:
    """Definition 1's idf is >= 1 for every 0 <= N_j <= N (sympy, N = N_j + k, k >= 0), and 1 + log(N + 1) at
    N_j = 0."""
    k, nj = sp.symbols("k N_j", integer=True, nonnegative=True)
    t = sp.Symbol("t", nonnegative=True)
    ratio_ok = sp.simplify((nj + k + 1) / (nj + 1) - (1 + k / (nj + 1))) == 0 and (k / (nj + 1)).is_nonnegative
    at_least_one = sp.log(1 + t).is_nonnegative
    n = sp.Symbol("N", integer=True, nonnegative=True)
    unseen = sp.log((n + 1) / (0 + 1)) + 1
    return bool(ratio_ok and at_least_one and (unseen - 1).is_nonnegative), {
        "ratio": "(N + 1)/(N_j + 1) = 1 + k/(N_j + 1), k = N - N_j >= 0", "log_1_plus_t_nonnegative": at_least_one,
        "idf_at_N_j_0": str(unseen)}


def _smallest() -> dict:
    """(a)'s smallest case: corpus ['good'], unseen word 'bad': no column, phi unchanged, against Definition 1's
    formula at N_j = 0, with (a)'s hypotheses record."""
    corpus, word = ["good"], "bad"
    vec = _vectorizer(corpus)
    return {"corpus": corpus, "unseen_word": word, "vocabulary": sorted(vec.vocabulary_),
            "has_column": word in vec.vocabulary_,
            "phi_of_good_bad_equals_phi_of_good": bool(np.array_equal(_phi(vec, ["good bad"]), _phi(vec, ["good"]))),
            "definition1_idf_at_N_j_0": float(idf(1, 0)), "definition1_idf_at_N_j_0_exact": "1 + log(2)",
            "sklearn_idf_of_seen_words": vec.idf_.tolist(), **unseen_hypotheses(vec, corpus, word)}


def check() -> ClaimResult:
    """(a) as a convention and as meant, (b) as meant on searches inside their hypotheses, the iff."""
    smallest, unseen, mask = _smallest(), _unseen(), _mask_search()
    steps = (convention(smallest), unseen_no_feature(unseen, smallest), mask_removal(mask), idf_at_least_one(),
             why(), iff())
    headline_failures = unseen[1]["failing"][:1] + mask[1]["failing"][:1]  # each carries its hypotheses record
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS,
                        counterexample=headline_failures[0] if headline_failures else None, steps=steps,
                        corrected=CORRECTED, source=SOURCE, readings=READINGS)


def convention(smallest: dict) -> StepResult:
    """st1: (a) read as a convention inside Definition 1 gives the fitted vectorizer's phi; its conflict with line
    470's formula at N_j = 0."""
    holds, seen = _convention()
    without = seen["mask_as_dictionary_element"]
    return CLAIM.checked(
        "st1-convention", "statement", "exhaustive",
        f"(a) read as a convention inside Definition 1 (the unseen word keeps a coordinate, its IDF term set "
        f"to 0). On all {seen['cases']} cases of (a)'s family (corpora x lowercase x unseen words "
        f"{list(UNSEEN)}), Definition 1's phi computed here with that IDF term 0 equals the fitted "
        "vectorizer's phi (no column) with a zero coordinate appended"
        + (f"; failures {seen['failing'][:1]}." if seen["failing"] else ".")
        + " Line 476's convention conflicts with Definition 1 (line 470) at N_j = 0: the formula gives "
          f"1 + log(N + 1) (corpus ['good'], unseen 'bad': {smallest['definition1_idf_at_N_j_0']:.6f}; >= 1 for "
          "every N, p1), not 0. Without the convention, a mask token kept as a dictionary element (line 236) with "
          f"N_mask = 0 would not act as removal: corpus ['good'], 'good' masked gives phi "
          f"{[round(v, 6) for v in without['masked_phi_by_formula']]}, removal "
          f"{list(without['removed_phi'])}; (b) rests on (a) ('Thus', line 478).",
        holds=holds, reading="convention", values={**seen, "smallest": smallest})


def unseen_no_feature(unseen: tuple[bool, dict], smallest: dict) -> StepResult:
    """st2: (a) as meant: an unseen word leaves phi unchanged."""
    holds, seen = unseen
    same = smallest["phi_of_good_bad_equals_phi_of_good"]
    return CLAIM.checked(
        "st2-unseen-no-feature", "statement", "exhaustive",
        f"(a) as meant. An unseen word appended to a corpus document leaves phi unchanged in all "
        f"{seen['cases']} cases (corpora x lowercase x unseen words {list(UNSEEN)}, each inside (a)'s "
        f"hypotheses); on ['good'], phi('good bad') = phi('good'): {same}.",
        holds=holds and same, reading="as-meant", values=seen)


def mask_removal(mask: tuple[bool, dict]) -> StepResult:
    """st3: (b) as meant: masking and removal give the same exact drops when the mask has no feature; the first
    case outside that hypothesis, for context."""
    holds, seen = mask
    excluded = seen["first_differing_case_outside_hypotheses"]
    return CLAIM.checked(
        "st3-mask-removal", "statement", "exhaustive",
        f"(b) as meant, mask '{MASK_TOKEN}', f = sum_j phi_j, p = 1/2, eps = 3/20: on the "
        f"{seen['cases_inside_hypotheses']} (corpus, lowercase, document) cases whose mask has no feature "
        "after preprocessing (corpora of <= 2 documents and <= 3 tokens over "
        f"{list(SEARCH_WORDS)}, documents of <= 2 words), masking and removal give the same exact drops"
        + (f"; failures {seen['failing'][:1]}." if seen["failing"] else ".")
        + (f" Outside the hypothesis ({seen['cases_outside_hypotheses']} cases), e.g. corpus "
           f"{excluded['corpus']} with lowercase={excluded['lowercase']}: the vectorizer maps "
           f"'{MASK_TOKEN}' to the "
           f"fitted feature {excluded['mask_features']}, so the fitted corpus contains the mask token "
           f"(hypotheses hold: {excluded['satisfies_hypotheses']}); there masking gives drops "
           f"{excluded['masking']['drops']} and removal {excluded['removal']['drops']}. Not a "
           "counterexample: the assumption excludes it." if excluded else ""),
        holds=holds, reading="as-meant", values=seen)


def idf_at_least_one() -> StepResult:
    """p1: Definition 1's idf is >= 1 for every 0 <= N_j <= N (sympy)."""
    holds, seen = _idf_symbolic()
    return CLAIM.checked(
        "p1-idf-at-least-one", "proof", "symbolic",
        "Definition 1's idf log((N + 1)/(N_j + 1)) + 1 >= 1 for all 0 <= N_j <= N (sympy: the ratio is "
        f"1 + k/(N_j + 1) with k >= 0 and log(1 + t) >= 0 for t >= 0); at N_j = 0 it is {seen['idf_at_N_j_0']}"
        ": no word's idf is 0.", holds=holds, values=seen)


def why() -> StepResult:
    """p2: why (a) and (b) hold: transform drops what has no column, and the analyzer acts token by token."""
    return CLAIM.argued(
        "p2-why", "proof",
        "The fitted vocabulary has a column for each feature of the corpus; the analyzer's output for a word "
        "with no column is dropped by transform, so it adds nothing to phi ((a) as meant). The analyzer acts "
        "token by token on whitespace-separated tokens, so phi(masked text) = phi(removed text) + (one count "
        "of each feature of analyzer(mask_token)) per masked position, times its idf >= 1: equal on every "
        "pattern iff analyzer(mask_token) has no vocabulary feature ((b) under its assumption, and the iff "
        "c1). No result of the paper uses the value of an unseen word's idf: the proof of Prop. 1 needs only "
        "that a masked position adds nothing to phi, and that of Prop. 2 needs idf_j > 0 for the words of xi "
        "(line 1034), which Definition 1 gives (>= 1, p1).")


def iff() -> StepResult:
    """c1: masking = removal on every pattern iff the mask has no vocabulary feature iff check_vectorizer accepts."""
    holds, seen = _iff()
    return CLAIM.checked(
        "c1-iff", "correction", "exhaustive",
        f"On {seen['cases']} (corpus, lowercase, mask token, document) cases, mask tokens {list(MASKS)}: phi of "
        "the masked texts equals phi of the texts with those positions removed on every pattern iff the "
        "analyzer maps the mask token to no vocabulary feature, iff analytic.check_vectorizer accepts it"
        + (f"; failures {seen['failing'][:2]}" if seen["failing"] else "."),
        holds=holds, values=seen)
