"""Section 3's candidates are count vectors c = (c_1, ..., c_d), 0 <= c_j <= m_j (lines 473-474), where section 2's are
non-empty sets of positions (line 240) whose size-1 members "correspond to the tokens in the example" (line 427).

On a model of the TF-IDF vector (section 3's setting, line 453; masking is removal, line 478) the model sees a
perturbed document only through the counts of the words it keeps, and tokens are perturbed i.i.d.: two position sets
with the same count vector then have the same exact drop (a permutation of the positions of one word maps one onto
the other and leaves both the pattern distribution and the model unchanged). Checked as an identity in the field
QQ(p, g) for a general function g of the count vector, on the fitted TF-IDF pipelines of
:mod:`proofs_checks.models.family` and on decision trees (the experiments' models), and shown to need the
bag-of-words hypothesis (a position-dependent model breaks it). The two spaces are not the same set: the count space
holds the empty vector (line 240: non-empty), and its size-1 candidates are the d distinct words, not the b tokens.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from math import prod

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
    steps = (exchangeable_in_field(), fitted_models(), needs_bag_of_words(), spaces_counted())
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
    shared = [codes for codes in _groups(tokens).values() if len(codes) > 1]
    equal = all(len({drops[positions_of(c)] for c in codes}) == 1 for codes in shared)
    return {"document": " ".join(tokens), "count_vectors_of_kept_words": len(kept_vectors),
            "groups_of_two_or_more_position_sets": len(shared), "equal_within_every_group": equal}


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
        + f": {all(r['equal_within_every_group'] for r in rows)}. In general a permutation of one word's positions "
        "maps one such set onto the other and leaves the i.i.d. pattern law and f unchanged.",
        holds=all(r["equal_within_every_group"] for r in rows), values={"documents": rows})


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
            "empty_vector_included": (0,) * len(m) in vectors, "size1_positions": b,
            "size1_count_vectors": sum(1 for v in vectors if sum(v) == 1)}


def spaces_counted() -> StepResult:
    """st2 (same-candidates): the smallest document with a repeated word, 'w w': 3 position sets, 2 of size 1 (the
    tokens); count vectors (0), (1), (2): the empty one included, one of size 1 (the word)."""
    case = _space_sizes(("w", "w"))
    more = [_space_sizes(t) for t in SYMBOLIC_DOCS[1:]]
    same = (case["count_vectors"] - case["empty_vector_included"] == case["position_sets"]
            and case["size1_count_vectors"] == case["size1_positions"])
    return CLAIM.checked(
        "st2-spaces-counted", "statement", "counterexample",
        f"On '{case['document']}' (b = {case['b']}, d = {case['d']}, the smallest document with a repeated word): "
        f"{case['position_sets']} non-empty position sets, {case['size1_positions']} of size 1 (the tokens, line "
        f"427); {case['count_vectors']} count vectors with 0 <= c_j <= m_j, the empty one included "
        f"({case['empty_vector_included']}; line 240 says non-empty), {case['size1_count_vectors']} of size 1 (the "
        "distinct word). The count space is the quotient of the position sets by the count vector, not the same set; "
        "its size-1 candidates are the d words. More documents: " + ", ".join(
            f"'{r['document']}' {r['position_sets']} vs {r['count_vectors']}" for r in more) + ".",
        holds=same, values={**case, "more": more,
                            **hypotheses(document_of_dictionary_words=all(isinstance(t, str) and t for t in
                                                                          ("w", "w")), b_at_least_one=case["b"] >= 1)},
        reading="same-candidates")
