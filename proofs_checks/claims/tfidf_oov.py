"""Section 3 on out-of-vocabulary words: "its IDF term is zero", and masking "is equivalent to simply removing it".

The paper: "once the TF-IDF vectorizer is fitted on a corpus, the vocabulary is fixed: if a word is not part of the
initial corpus, its IDF term is zero. We make the (realistic) assumption that the mask token is not in the fitted
corpus [...]. Thus, replacing any word with this token is equivalent to simply removing it".

Checked with scikit-learn's ``TfidfVectorizer(norm=None)`` (Definition 1): an unseen word has no column at all, so
it contributes nothing, but the smooth idf of Definition 1 at N_j = 0 is 1 + log(N + 1), the largest idf, never 0.
And masking equals removal iff the mask token, after the vectorizer's own preprocessing (lowercasing, token
pattern), has no feature: "UNK" absent from the corpus is not enough when "unk" is in it. That condition is what
``analytic.check_vectorizer`` already requires.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import sympy as sp
from sklearn.feature_extraction.text import TfidfVectorizer

from analytic import all_drops_rational, check_vectorizer, eq2_solutions, idf

from ..results import ClaimResult, argued, checked
from ..subject import explainer

CLAIM = "tfidf-oov"
STATEMENT = (
    "Section 3: once the TF-IDF vectorizer is fitted, (a) a word that is not part of the corpus has IDF term zero, "
    "and (b) with the mask token not in the fitted corpus, replacing any word with the mask token is equivalent to "
    "removing it."
)
CORRECTED = (
    "With scikit-learn's TfidfVectorizer (Definition 1: norm=None, smooth idf), a word with no feature after the "
    "vectorizer's preprocessing has no column: it contributes 0 to phi whatever its idf would be (Definition 1's "
    "formula at N_j = 0 gives 1 + log(N + 1) >= 1 + log 2, not 0; every idf is >= 1). Masking with mask_token "
    "gives the same phi as removal on every perturbation, for every document, iff the vectorizer's analyzer maps "
    "mask_token to no vocabulary feature (the condition analytic.check_vectorizer enforces); the mask string being "
    "absent from the corpus is not enough ('UNK' is lowercased to 'unk')."
)
MASK = "UNK"
EPS = Fraction(3, 20)
P = Fraction(1, 2)
SEARCH_WORDS = ("good", "unk")  # "unk" is what the default analyzer makes of the mask "UNK"
SEARCH_MAX_CORPUS_TOKENS = 3
SMALLER = ("fewer corpus documents, then fewer corpus tokens, then earlier corpus (product order over "
           f"{list(SEARCH_WORDS)}), then a shorter document, then earlier document; corpora without the literal "
           "mask token 'UNK' (the paper's assumption), documents of vocabulary words other than the mask's feature")

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


def _texts(tokens, mask: str) -> tuple[list[str], list[str]]:
    """The 2^b masked texts and the 2^b texts with the same positions removed, code order."""
    b = len(tokens)
    masked = [" ".join(mask if code >> i & 1 else t for i, t in enumerate(tokens)) for code in range(2**b)]
    removed = [" ".join(t for i, t in enumerate(tokens) if not code >> i & 1) for code in range(2**b)]
    return masked, removed


def _in_vocabulary(vec, mask: str) -> list[str]:
    return [t for t in vec.build_analyzer()(mask) if t in vec.vocabulary_]


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
    """Fred(sampler='exact') with the mask token MASK."""
    return explainer(classifier_fn, mask_token=MASK, exact=True).explain(text, p=float(P), eps=float(EPS),
                                                                        max_len=len(text.split()))


def _drops(vec, tokens, mask_removed: bool) -> tuple:
    masked, removed = _texts(tokens, MASK)
    table = [Fraction(float(v)) for v in _phi(vec, removed if mask_removed else masked).sum(axis=1)]
    return table, all_drops_rational(table, P)


def _mask_counterexample() -> tuple[dict | None, int]:
    """The first (corpus, document) in the order SMALLER where masking and removal give different exact drops."""
    checked_cases = 0
    corpora = []
    for n_docs in (1, 2):
        for total in range(n_docs, SEARCH_MAX_CORPUS_TOKENS + 1):
            for lengths in itertools.product(range(1, total + 1), repeat=n_docs):
                if sum(lengths) == total:
                    corpora += itertools.product(*[itertools.product(SEARCH_WORDS, repeat=n) for n in lengths])
    for corpus in corpora:
        texts = [" ".join(d) for d in corpus]
        if any(MASK in d for d in corpus):
            continue
        vec = _vectorizer(texts)
        words = [w for w in sorted(vec.vocabulary_, key=SEARCH_WORDS.index) if w not in _in_vocabulary(vec, MASK)]
        for b in (1, 2):
            for tokens in itertools.product(words, repeat=b):
                checked_cases += 1
                (masked, (m_mean, m_drops)), (removed, (r_mean, r_drops)) = (_drops(vec, tokens, False),
                                                                             _drops(vec, tokens, True))
                if m_drops == r_drops:
                    continue
                text = " ".join(tokens)
                sol_m = eq2_solutions(masked, P, EPS, b, drops=(m_mean, m_drops))
                sol_r = eq2_solutions(removed, P, EPS, b, drops=(r_mean, r_drops))
                fred_m, fred_r = _fred(_linear(vec), text), _fred(_linear(vec, delete=MASK), text)
                return {"corpus": texts, "mask_token": MASK, "vocabulary": sorted(vec.vocabulary_),
                        "idf": {w: float(vec.idf_[j]) for w, j in vec.vocabulary_.items()},
                        "mask_features": _in_vocabulary(vec, MASK), "document": text,
                        "model": "f = sum_j phi_j (lambda_j = 1, lambda_0 = 0)", "p": str(P), "eps": str(EPS),
                        "masking": {"f_by_pattern_code": [str(v) for v in masked], "mean": str(m_mean),
                                    "drops": {" ".join(tokens[i] for i in s): str(d) for s, d in m_drops.items()},
                                    "eq2_solutions": [list(s) for s in sol_m.solutions],
                                    "fred_found": fred_m.found, "fred_best": list(fred_m.best)},
                        "removal": {"f_by_pattern_code": [str(v) for v in removed], "mean": str(r_mean),
                                    "drops": {" ".join(tokens[i] for i in s): str(d) for s, d in r_drops.items()},
                                    "eq2_solutions": [list(s) for s in sol_r.solutions],
                                    "fred_found": fred_r.found, "fred_best": list(fred_r.best)},
                        "check_vectorizer_refuses": _refused(vec, MASK)}, checked_cases - 1
    return None, checked_cases


def _unseen() -> tuple[bool, dict]:
    """An unseen word has no column and adds nothing to phi (every corpus of the family, both lowercase settings)."""
    rows = []
    for corpus, lowercase in itertools.product(CORPORA, LOWERCASE):
        vec = _vectorizer(corpus, lowercase)
        for word in UNSEEN:
            if _in_vocabulary(vec, word):
                continue
            same = np.array_equal(_phi(vec, [f"{d} {word}" for d in corpus]), _phi(vec, corpus))
            rows.append({"corpus": list(corpus), "lowercase": lowercase, "word": word, "phi_unchanged": bool(same)})
    bad = [r for r in rows if not r["phi_unchanged"]]
    return not bad and bool(rows), {"cases": len(rows), "unseen_words": list(UNSEEN), "failing": bad}


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


def check() -> ClaimResult:
    """(a) on the smallest corpus, (b) a minimal counterexample, then the family."""
    vec = _vectorizer(["good"])
    unseen_value = float(idf(1, 0))
    a_cx = {"corpus": ["good"], "unseen_word": "bad", "vocabulary": sorted(vec.vocabulary_),
            "has_column": "bad" in vec.vocabulary_,
            "phi_of_good_bad_equals_phi_of_good": bool(np.array_equal(_phi(vec, ["good bad"]), _phi(vec, ["good"]))),
            "definition1_idf_at_N_j_0": unseen_value, "definition1_idf_at_N_j_0_exact": "1 + log(2)",
            "sklearn_idf_of_seen_words": vec.idf_.tolist()}
    b_cx, smaller = _mask_counterexample()
    b_confirmed = b_cx is not None and b_cx["masking"]["drops"] != b_cx["removal"]["drops"]
    sym_ok, sym = _idf_symbolic()
    unseen_ok, unseen = _unseen()
    iff_ok, iff = _iff()
    steps = (
        checked(f"{CLAIM}.st1-idf-zero", CLAIM, "statement", "counterexample",
                f"(a) Corpus ['good'] (N = 1, the smallest), unseen word 'bad': scikit-learn has no column for it "
                f"(vocabulary {a_cx['vocabulary']}; phi('good bad') = phi('good'): "
                f"{a_cx['phi_of_good_bad_equals_phi_of_good']}), so it contributes nothing, but not because its idf "
                f"is 0: Definition 1's idf at N_j = 0 is 1 + log 2 = {unseen_value:.6f}, and 1 + log(N + 1) > 1 "
                "for every corpus size N >= 1 (p1).", holds=unseen_value == 0, values={"counterexample": a_cx}),
        checked(f"{CLAIM}.st2-mask-not-in-corpus", CLAIM, "statement", "counterexample",
                "(b) " + (f"Corpus {b_cx['corpus']} does not contain the mask token 'UNK', but TfidfVectorizer("
                          f"norm=None) lowercases it to the feature {b_cx['mask_features']}. On '{b_cx['document']}' "
                          f"with {b_cx['model']}, p = 1/2, eps = 3/20: masking gives f = "
                          f"{b_cx['masking']['f_by_pattern_code']} and drops {b_cx['masking']['drops']} (Eq. (2) "
                          f"solutions {b_cx['masking']['eq2_solutions']}, FRED found={b_cx['masking']['fred_found']}),"
                          f" removal f = {b_cx['removal']['f_by_pattern_code']} and drops "
                          f"{b_cx['removal']['drops']} (solutions {b_cx['removal']['eq2_solutions']}, FRED "
                          f"{b_cx['removal']['fred_best']}). Exact; minimal: {SMALLER} (the {smaller} smaller "
                          "(corpus, document) cases give equal drops)."
                          if b_cx else "no counterexample found."),
                holds=not b_confirmed, values={"counterexample": b_cx, "smaller_means": SMALLER,
                                               "smaller_cases_checked": smaller}),
        checked(f"{CLAIM}.p1-idf-at-least-one", CLAIM, "proof", "symbolic",
                "Definition 1's idf log((N + 1)/(N_j + 1)) + 1 >= 1 for all 0 <= N_j <= N (sympy: the ratio is "
                f"1 + k/(N_j + 1) with k >= 0 and log(1 + t) >= 0 for t >= 0); at N_j = 0 it is {sym['idf_at_N_j_0']}"
                ": no word's idf is 0.", holds=sym_ok, values=sym),
        argued(f"{CLAIM}.p2-why", CLAIM, "proof",
               "The fitted vocabulary has a column for each feature of the corpus; the analyzer's output for a word "
               "with no column is dropped by transform, so it adds nothing to phi. The analyzer acts token by token "
               "on whitespace-separated tokens, so phi(masked text) = phi(removed text) + (one count of each feature "
               "of analyzer(mask_token)) per masked position, times its idf >= 1: equal on every pattern iff "
               "analyzer(mask_token) has no vocabulary feature. If it has feature j, a linear model with lambda_j != 0 "
               "has different drops (b)."),
        checked(f"{CLAIM}.c1-unseen-no-column", CLAIM, "correction", "exhaustive",
                f"An unseen word appended to a corpus document leaves phi unchanged in all {unseen['cases']} cases "
                f"(corpora x lowercase x unseen words {list(UNSEEN)}).", holds=unseen_ok, values=unseen),
        checked(f"{CLAIM}.c2-iff", CLAIM, "correction", "exhaustive",
                f"On {iff['cases']} (corpus, lowercase, mask token, document) cases, mask tokens {list(MASKS)}: phi of "
                "the masked texts equals phi of the texts with those positions removed on every pattern iff the "
                "analyzer maps the mask token to no vocabulary feature, iff analytic.check_vectorizer accepts it"
                + (f"; failures {iff['failing'][:2]}" if iff["failing"] else "."),
                holds=iff_ok, values=iff),
    )
    return ClaimResult(
        id=CLAIM,
        kind="statement",
        statement=STATEMENT,
        conditions="scikit-learn TfidfVectorizer(norm=None) (Definition 1), word unigrams, default token pattern; "
                   "(a)'s conclusion (the word contributes nothing) holds, its reason (idf 0) does not; (b) holds "
                   "when the condition is read after preprocessing, which analytic.LinearTfidfModel and "
                   "analytic.check_vectorizer already require.",
        counterexample={"a_idf_zero": a_cx, "b_mask_not_in_corpus": b_cx},
        steps=steps,
        corrected=CORRECTED,
    )
