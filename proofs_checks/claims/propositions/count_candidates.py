"""Section 3's candidates are count vectors c = (c_1, ..., c_d), 0 <= c_j <= m_j (lines 473-474), where section 2's are
non-empty sets of positions (line 240) whose size-1 members "correspond to the tokens in the example" (line 427).

On a model of the TF-IDF vector (section 3's setting, line 453; masking is removal, line 478) the model sees a
perturbed document only through the counts of the words it keeps, and tokens are perturbed i.i.d.: two position sets
with the same count vector then have the same exact drop (a permutation of the positions of one word maps one onto
the other and leaves both the pattern distribution and the model unchanged; equivalently, given the positions of a
set perturbed, word j's kept count is Binomial(m_j - c_j, 1 - p), a law that depends on the set only through its
count vector). Checked as an identity in the field QQ(p, g) for a general function g of the count vector, with the
binomial closed form in the counts, on four documents; argued for any document; on the fitted TF-IDF pipelines of
:mod:`proofs_checks.models.family` and on decision trees (the experiments' models), and shown to need the
bag-of-words hypothesis (a position-dependent model breaks it). The two spaces are not the same set: non-empty
against non-empty, the count vectors are fewer than the position sets (their quotient), and the size-1 candidates are
the d distinct words, not the b tokens; separately, line 473's 0 <= c_j admits the empty candidate that line 240
excludes.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from math import comb, prod

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.tree import DecisionTreeClassifier
from sympy import QQ, field

from analytic import all_drops, all_drops_rational, table_from_classifier
from analytic.patterns import positions_of
from fred_constants import P

from ...models.family import family, training_corpus
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses

CLAIM = Claim("count-candidates", new=True)
COUNTS = Quote(473, r"We call a \emph{candidate} explanation $\candidate$ any ordered sublist of words in $\xi$, "
                    r"formally defined as $\candidate = (\candidate_1, \candidate_2, \ldots, \candidate_d)$, where $0 "
                    r"\leq \candidate_j \leq \mult_j$ for all $ j \in [d]$.")
POSITIONS = Quote(240, r"Finally, we define a \emph{candidate} explanation as any non-empty ordered sublist of $[b]$, "
                       r"corresponding to words of $\xi$.")
SIZE_ONE = Quote(427, r"Note that the candidates of size $1$ correspond to the tokens in the example.")
TFIDF = Quote(453, r"Second, to simplify the analysis and obtain closed-form solutions, we consider classifiers that "
                   r"operate on the well-established TF-IDF (Term Frequency-Inverse Document Frequency) "
                   r"\citep{luhn1957statistical} vectorization $\Tfidf$ of documents.")
REMOVAL = Quote(478, "Thus, replacing any word with this token is equivalent to simply removing it, from the point of "
                     "view of TF-IDF.")
SOURCE = (
    COUNTS,
    Quote(474, r"We define the length $\length$ of a candidate $\length = \size{\candidate} = \sum_{j=1}^d "
               r"\candidate_j$."),
    POSITIONS, SIZE_ONE,
    Quote(431, r"\forall i \in [b]\,, \quad s_i = \Empdrop_{\{i\}}"),
    TFIDF, REMOVAL,
    Quote(237, r"For a given example $\xi = (\xi_1,\ldots,\xi_b)$ composed of $b$ ordered words (not necessarily "
               r"distinct), $\localdic_\xi = \{\word_1,\ldots,\word_d\} \in \dictionary$ captures the distinct words "
               r"in $\xi$, with $d\leq b$."),
)
READINGS = (
    Reading("same-drops", "headline",
            "on section 3's models (functions of the TF-IDF vector, mask = removal) a count vector stands for every "
            "position set with those counts: they all have its size and the same exact drop, so Eq. (2) over count "
            "vectors has the solutions' sizes and drops of Eq. (2) over position sets.",
            why=(TFIDF, REMOVAL, COUNTS)),
    Reading("same-candidates", "stronger",
            "the count vectors of line 473 are the candidates of line 240 one for one, and in both 'the candidates "
            "of size 1 correspond to the tokens in the example' (line 427).",
            why=(POSITIONS, SIZE_ONE, COUNTS)),
)
STATEMENT = (
    "Section 3 (lines 473-474) redefines a candidate as a count vector c = (c_1, ..., c_d), 0 <= c_j <= m_j, of size "
    "sum_j c_j, in place of section 2's non-empty position sets (line 240), whose size-1 members 'correspond to the "
    "tokens in the example' (line 427). On the TF-IDF models of section 3 this is sound when position sets with equal "
    "count vectors have equal exact drops (Eq. 1)."
)
CONDITIONS = (
    "A model that sees a document only through the counts of its kept words (a function of the TF-IDF vector; mask "
    "= removal, line 478, with the mask token outside the vocabulary), tokens perturbed i.i.d. with probability p in "
    "(0, 1). Documents with repeated words (d < b), so that several position sets share a count vector. The "
    "position-dependent model of p2 is outside the hypotheses: it shows they are needed, not a counterexample."
)
#: Documents of the symbolic check: every count vector of kept words gets its own symbol g.
SYMBOLIC_DOCS = (("a", "a"), ("a", "a", "b"), ("a", "b", "a", "b"), ("a", "a", "a", "b"))
#: Float tolerance of the fitted models' drops (the same float arithmetic on equal inputs, up to summation order).
TOL = 1e-12


def count_vector(tokens, code: int) -> tuple[int, ...]:
    """The count vector (over the document's distinct words, in first-appearance order) of the positions in ``code``."""
    words = list(dict.fromkeys(tokens))
    chosen = positions_of(code)
    return tuple(sum(1 for i in chosen if tokens[i] == w) for w in words)


def check() -> ClaimResult:
    """Exchangeability in a field, on fitted TF-IDF pipelines and trees; the hypothesis needed; both spaces counted."""
    steps = (exchangeable_in_field(), fitted_models(), needs_bag_of_words(), spaces_counted(), empty_candidate(),
             any_document())
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)


def _groups(tokens) -> dict[tuple, list[int]]:
    """Position sets (codes, non-empty) grouped by count vector."""
    out = defaultdict(list)
    for code in range(1, 2 ** len(tokens)):
        out[count_vector(tokens, code)].append(code)
    return out


def _field_case(tokens) -> dict:
    """f(pattern) = g[count vector of the kept words], g a symbol per count vector; exact drops in QQ(p, g)."""
    b = len(tokens)
    kept_vectors = sorted({count_vector(tokens, (2**b - 1) ^ z) for z in range(2**b)})
    _, p, *g = field(["p"] + [f"g{i}" for i in range(len(kept_vectors))], QQ)
    symbol = dict(zip(kept_vectors, g))
    table = [symbol[count_vector(tokens, (2**b - 1) ^ z)] for z in range(2**b)]
    _, drops = all_drops_rational(table, p)
    groups = _groups(tokens)
    shared = [codes for codes in groups.values() if len(codes) > 1]
    equal = all(len({drops[positions_of(c)] for c in codes}) == 1 for codes in shared)
    mult = [tokens.count(w) for w in dict.fromkeys(tokens)]
    closed = all(drops[positions_of(code)] == _binomial_drop(symbol, mult, counts, p)
                 for counts, codes in groups.items() for code in codes)
    return {"document": " ".join(tokens), "count_vectors_of_kept_words": len(kept_vectors),
            "groups_of_two_or_more_position_sets": len(shared), "equal_within_every_group": equal,
            "binomial_closed_form_in_the_counts": closed}


def _binomial_drop(g: dict, mult: list[int], counts: tuple, p) -> object:
    """Delta as a function of the count vector c only: sum_k g(k) [prod_j B(m_j, k_j) - prod_j B(m_j - c_j, k_j)],
    B(n, k) = C(n, k) (1 - p)^k p^(n - k), the law of word j's kept count (unconditioned, and given c perturbed)."""
    def law(sizes, kept):
        return prod((comb(n, k) * (1 - p) ** k * p ** (n - k) for n, k in zip(sizes, kept)), start=p ** 0)
    free = [m - c for m, c in zip(mult, counts)]
    return sum((value * (law(mult, kept) - law(free, kept)) for kept, value in g.items()), start=p * 0)


def exchangeable_in_field() -> StepResult:
    """p1: for a general function g of the kept words' count vector, position sets with one count vector have one
    exact drop, an identity in QQ(p, g), on documents with repeated words."""
    rows = [_field_case(tokens) for tokens in SYMBOLIC_DOCS]
    return CLAIM.checked(
        "p1-exchangeable-in-field", "proof", "symbolic",
        "f(x) = g(counts of the words x keeps), g a free symbol per count vector (every bag-of-words model), tokens "
        "perturbed i.i.d. with a symbolic p: in QQ(p, g), the exact drops of position sets with equal count vectors "
        "are equal on " + ", ".join(f"'{r['document']}' ({r['groups_of_two_or_more_position_sets']} groups)"
                                    for r in rows)
        + f": {all(r['equal_within_every_group'] for r in rows)}; and every position set's drop is the binomial "
        "closed form sum_k g(k) [prod_j B(m_j, k_j) - prod_j B(m_j - c_j, k_j)], a function of its count vector c "
        f"only: {all(r['binomial_closed_form_in_the_counts'] for r in rows)}. For any document: p3 (argued).",
        holds=all(r["equal_within_every_group"] and r["binomial_closed_form_in_the_counts"] for r in rows),
        values={"documents": rows})


def _spread(tokens, table: np.ndarray) -> float:
    """The largest difference of exact drops (p = 1/2) within a group of position sets with one count vector."""
    drops = all_drops(table, P)
    return max((float(np.ptp(drops[codes])) for codes in _groups(tokens).values() if len(codes) > 1), default=0.0)


def _trees() -> list[tuple[str, tuple, np.ndarray]]:
    """Decision trees on TF-IDF (as the experiments train them, scikit-learn defaults), each on the family's
    documents of its corpus with a repeated word."""
    out = []
    for seed in (0, 1):
        docs, labels = training_corpus(seed)
        vec = TfidfVectorizer().fit(docs)
        tree = DecisionTreeClassifier(random_state=seed).fit(vec.transform(docs), labels)
        for case in [c for c in family() if c.seed == seed and c.kind == "logistic-l2"]:
            table = table_from_classifier(lambda t, tree=tree, vec=vec: tree.predict_proba(vec.transform(t)),
                                          list(case.tokens), label=1)
            out.append((f"tree-{seed}", case.tokens, table))
    return out


def fitted_models() -> StepResult:
    """st1 (same-drops): on every fitted TF-IDF pipeline of the family (raw and L2-normalised, ridge and logistic)
    and on decision trees, the exact drops of position sets with one count vector agree (float rounding aside)."""
    rows = []
    for case in family():
        label = None if case.kind.startswith("ridge") else 1
        table = table_from_classifier(case.tabled_classifier_fn(), list(case.tokens), label=label)
        rows.append((case.kind, case.tokens, table))
    rows += _trees()
    spreads = [{"model": kind, "document": " ".join(tokens), "spread": _spread(tokens, table),
                "shared_groups": sum(len(c) > 1 for c in _groups(tokens).values())} for kind, tokens, table in rows]
    with_repeats = [r for r in spreads if r["shared_groups"]]
    worst = max(r["spread"] for r in spreads)
    return CLAIM.checked(
        "st1-fitted-models", "statement", "exhaustive",
        f"{len(spreads)} (model, document) cases: the family's TF-IDF pipelines (ridge and logistic, raw and "
        f"L2-normalised) and decision trees on TF-IDF, documents of 2..7 tokens, {len(with_repeats)} with a repeated "
        "word. Exact drops (p = 1/2, all 2^b patterns): the largest difference within a group of position sets with "
        f"one count vector is {worst:.1e} (tolerance {TOL:g}). So the importance scores s_i of line 431 are equal "
        "for the tokens of one word, and a count vector's drop is well defined.",
        holds=bool(with_repeats) and worst <= TOL, values={"cases": len(spreads), "with_repeated_word":
                                                           len(with_repeats), "largest_spread": worst,
                                                           "tolerance": TOL}, reading="same-drops")


def needs_bag_of_words() -> StepResult:
    """p2: outside the hypotheses, a model that reads a position (f = 1 when the first token is kept) gives the two
    singletons of 'w w' different drops: the bag-of-words hypothesis is what makes counts enough."""
    tokens = ("w", "w")
    table = np.array([1.0 if not z & 1 else 0.0 for z in range(4)])  # bit 0 set: the first token is perturbed
    drops = all_drops(table, P)
    return CLAIM.checked(
        "p2-needs-bag-of-words", "proof", "exhaustive",
        f"On 'w w' with f = 1 when the first token is kept (a function of positions, not of counts): the singletons "
        f"{{0}} and {{1}} share the count vector (1), with exact drops {drops[1]:.3f} and {drops[2]:.3f}. Outside "
        "the hypotheses, so no counterexample: it shows that the count space needs the bag-of-words model.",
        holds=bool(abs(drops[1] - drops[2]) > TOL) and count_vector(tokens, 1) == count_vector(tokens, 2),
        values={"document": "w w", "table_by_code": table.tolist(), "drops": [float(drops[1]), float(drops[2])]})


def _space_sizes(tokens) -> dict:
    """Both candidate spaces of a document: position sets (line 240) and count vectors (line 473), and their size-1
    members."""
    b, m = len(tokens), list(dict.fromkeys(tokens))
    mult = [tokens.count(w) for w in m]
    vectors = list(itertools.product(*(range(k + 1) for k in mult)))
    return {"document": " ".join(tokens), "b": b, "d": len(m), "position_sets": 2**b - 1,
            "count_vectors": len(vectors), "count_vectors_formula": prod(k + 1 for k in mult),
            "nonempty_count_vectors": sum(1 for v in vectors if any(v)),
            "empty_vector_included": (0,) * len(m) in vectors, "size1_positions": b,
            "size1_count_vectors": sum(1 for v in vectors if sum(v) == 1)}


def spaces_counted() -> StepResult:
    """st2 (same-candidates): like with like, non-empty against non-empty. The smallest document with a repeated
    word, 'w w': 3 non-empty position sets, 2 of size 1 (the tokens); 2 non-empty count vectors (1), (2), one of size
    1 (the word)."""
    case = _space_sizes(("w", "w"))
    more = [_space_sizes(t) for t in SYMBOLIC_DOCS[1:]]
    same = case["nonempty_count_vectors"] == case["position_sets"] and (
        case["size1_count_vectors"] == case["size1_positions"])
    return CLAIM.checked(
        "st2-spaces-counted", "statement", "counterexample",
        f"On '{case['document']}' (b = {case['b']}, d = {case['d']}, the smallest document with a repeated word), "
        f"non-empty against non-empty: {case['position_sets']} position sets, {case['size1_positions']} of size 1 "
        f"(the tokens, line 427), against {case['nonempty_count_vectors']} count vectors with 0 <= c_j <= m_j, "
        f"{case['size1_count_vectors']} of size 1 (the distinct word). The count space is the quotient of the "
        "position sets by the count vector, not the same set; its size-1 candidates are the d words. More documents "
        "(non-empty position sets vs non-empty count vectors): " + ", ".join(
            f"'{r['document']}' {r['position_sets']} vs {r['nonempty_count_vectors']}" for r in more) + ".",
        holds=same, values={**case, "more": more, **hypotheses(
            document_of_dictionary_words=all(isinstance(t, str) and t for t in ("w", "w")),
            b_at_least_one=case["b"] >= 1, repeated_word=case["d"] < case["b"])},
        reading="same-candidates")


def empty_candidate() -> StepResult:
    """st3 (same-candidates): line 473's 0 <= c_j <= m_j admits c = (0, ..., 0), of length 0 (line 474), a candidate
    line 240 ('non-empty') excludes; on the smallest document with a repeated word, 'w w'."""
    case = _space_sizes(("w", "w"))
    return CLAIM.checked(
        "st3-empty-candidate", "statement", "counterexample",
        f"On '{case['document']}' (b = {case['b']}): line 473's bounds 0 <= c_1 <= m_1 = {case['b']} give "
        f"{case['count_vectors']} count vectors, the empty one (0) among them ({case['empty_vector_included']}), "
        f"of length 0 by line 474; line 240's {case['position_sets']} candidates are all non-empty. A separate slip "
        "from st2's quotient: section 3's space admits the empty candidate section 2 excludes.",
        holds=not case["empty_vector_included"],
        values={**case, **hypotheses(b_at_least_one=case["b"] >= 1, repeated_word=case["d"] < case["b"])},
        reading="same-candidates")


def any_document() -> StepResult:
    """p3: the step from p1's four documents to any document, argued."""
    return CLAIM.argued(
        "p3-any-document", "proof",
        "For any document and any bag-of-words f = g(K), K the kept-count vector: tokens are perturbed i.i.d., so "
        "given that every position of a set S is perturbed, word j's kept count is a sum of m_j - c_j independent "
        "Bernoulli(1 - p) (the positions of word j outside S), i.e. Binomial(m_j - c_j, 1 - p), independently across "
        "words; E[f | S perturbed] = sum_k g(k) prod_j C(m_j - c_j, k_j) (1 - p)^k_j p^(m_j - c_j - k_j) and E[f] "
        "(c = 0) depend on S only through its count vector c. This is the closed form p1 checks in QQ(p, g) on four "
        "documents; for a general document it is argued (the number of kept-word choices, C(m_j - c_j, k_j), is "
        "counted, not computed symbolically in m_j).")
