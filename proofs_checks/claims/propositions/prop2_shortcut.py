"""Proposition 2 (presence of shortcuts) on f(z) = prod_{j in J} 1{w_j in z}; the steps of its proofs (the paper's
and this project's) are in :mod:`proofs_checks.claims.propositions.shortcut_proofs`.

Readings of "the resulting optimal candidate c*" (line 535), each with its own steps and verdict:

* ``eq2`` (headline): c* is the solution of Eq. (2), the notation line 255 defines, and where Eq. (2) has
  several solutions, one of largest drop (Algorithm 1 keeps one, lines 416-417; the proof picks c* within a size
  by F(c*) = 0 < F(c), line 1063); c* is a count vector, and the position sets with its counts tie. Fails in part:
  the count c*_1 = min{m_1, l_max} fails (step s1, a minimal counterexample at the paper's defaults), the word
  (c*_j = 0 for j >= 2: the least frequent one) holds (step s3, and the proof p1-p7); the verdict says so.
* ``every-solution`` (stronger): every solution of Eq. (2) is (min{m_1, l_max}, 0, ..., 0). Fails also because Eq.
  (2) can have several solutions (step s2); that alone never decides the headline.
* ``smallest-flip`` (alternative): the smallest set of positions whose removal changes the classification is all
  occurrences of the least frequent word (the gloss of lines 538-540). Holds (steps r1, r2).

Roles of the steps: ``statement`` (s1, s3, s2, r1), ``paper-proof`` (what the paper's proof writes: the absence
probability, the Hessian entry, the conclusion that never compares a drop with the threshold; never deciding),
``proof`` (this project's derivation of the corrected statement, and of the smallest-flip reading) and
``correction`` (the corrected statement on Fred(sampler="exact") over a finite family, both baselines, and on an
exact rational enumeration). Everything assumes f(xi) = 1 (every word of J occurs in the document).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

from analytic import (
    ShortcutModel,
    all_drops,
    expected_prediction,
    positions_of,
    search_on_drops,
    shortcut_minimal_size,
    table_from_classifier,
    tie_tolerance,
)
from analytic.exact_cache import exact_cache
from fred_constants import BASELINES, EPS_EXACT, MASK_TOKEN, MAX_LEN, P_EXACT

from ...models.tabled_scores import TabledClassifier
from ...subject.explainer import explainer
from ...verdicts.counterexamples import minimal_counterexample
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .shortcut_proofs import (
    document,
    increasing_multiplicities,
    paper_proof,
    project_proof,
    prop2_j_conditions,
    rational_referee,
)

#: Eq. (2) solved in Fractions on the shortcut model
#: (:func:`~proofs_checks.claims.propositions.shortcut_proofs.rational_referee`), once per case for every explainer the
#: claim is run against (a deep copy per call).
_referee = exact_cache(copy=True)(rational_referee)

CLAIM = Claim("prop2-shortcut")
EQ2, EVERY, FLIP = "eq2", "every-solution", "smallest-flip"
#: The two parts of line 535's conclusion the headline's statement steps check apart (the claim says which fails).
#: (Words, not c*_1 / c*_j: an asterisk would open emphasis in the Markdown report.)
COUNT, WORD = "the count min{m_1, l_max}", "the word (the least frequent one alone)"
SOURCE = (
    Quote(530, r"Let us assume that $\mult_1 < \mult_2 < \ldots < \mult_k$, where $k$ is the maximum number of "
               r"unique words in the document."),
    Quote(531, r"Consider the set $J = \{1, 2, \ldots, k\}$ as a subset of $[d]$"),
    Quote(535, r"Then, the resulting optimal candidate $\candidate^\star$ is characterized by $\candidate^\star_1 = "
               r"\min\{\mult_1, \length_{max}\}$ and $\candidate^\star_j = 0$ for $j \geq 2$."),
    Quote(255, r"The optimal candidate, denoted as $\candidate^\star$, is determined by minimizing the size of the "
               r"candidate subset while ensuring that it causes the average prediction $\expec{\model(x)}$ to drop by "
               r"a significant amount"),
    Quote(402, r"By default, we set $\epsilon=0.15$, $\ell_{max} = 10$, $p=0.5$"),
    Quote(237, r"captures the distinct words in $\xi$, with $d\leq b$."),
    Quote(451, r"We assume, without loss of generality, that the example $\xi$ is classified as positive."),
    Quote(477, r"We make the (realistic) assumption that the mask token is not in the fitted corpus"),
    Quote(538, r"In essence, if a model classifies a document based on the presence of specific words, removing all "
               r"occurrences of just one of those words is sufficient to change the classification."),
    Quote(539, r"FRED captures this information by identifying the minimal set of words whose removal would trigger "
               r"this change."),
    Quote(1044, r"& \iff \Minimize \quad \prod_{j \in J}(1 - p^{\mult_j - \candidate_j}) \tag{we use $p=1/2$}"),
)
READINGS = (
    Reading(EQ2, "headline",
            "c* is the solution of Eq. (2) (minimal size whose drop reaches eps E[f]); where Eq. (2) has several, "
            "one of largest drop, which Algorithm 1 returns and the proof's case (1) picks (c* is a count vector: "
            "the position sets with the same counts tie)",
            why=(Quote(535, r"Then, the resulting optimal candidate $\candidate^\star$ is characterized by"),
                 Quote(255, r"The optimal candidate, denoted as $\candidate^\star$, is determined by minimizing the "
                            r"size of the candidate subset"),
                 Quote(416, r"\If{$\Empdrop_\candidate \geq \Empdrop_{best}$}:"),
                 Quote(1063, r"Indeed, $F(\candidate^\star) = 0 < F(\candidate)$ for any $\candidate \neq "
                             r"\candidate^\star$ such that $\size{\candidate} = \size{\candidate^\star}$."))),
    Reading(EVERY, "stronger", "every solution of Eq. (2) (any minimiser, not only the largest drop) is "
                               "(min{m_1, l_max}, 0, ..., 0)",
            why=(Quote(258, r"\Minimize_{\substack{\candidate \in \candidates}} \size{\candidate}"),)),
    Reading(FLIP, "alternative",
            "the smallest set of positions whose removal changes the classification (f from 1 to 0) is all the m_1 "
            "occurrences of the least frequent word and nothing else, i.e. (m_1, 0, ..., 0) (l_max >= m_1)",
            why=(Quote(540, r"Proposition~\ref{prop:presence-words} pinpoints that the smallest set of words "
                            r"necessary to trigger this shift in prediction is composed of the word with the least "
                            r"number of occurrences in the document."),)),
)
STATEMENT = (
    "Prop. 2 (lines 530-536): 'Let us assume that m_1 < m_2 < ... < m_k, where k is the maximum number of unique "
    "words in the document. Consider the set J = {1, 2, ..., k} as a subset of [d], and suppose that the model is "
    "defined as f(z) = prod_{j in J} 1{w_j in z}. Then, the resulting optimal candidate c* is characterized by "
    "c*_1 = min{m_1, l_max} and c*_j = 0 for j >= 2.'"
)
ASSUMPTIONS = (
    "f(xi) = 1 (every word of J occurs in xi, each m_j >= 1); the threshold of Eq. (2) is eps E[f] (FRED's baseline "
    "'mean', the paper) unless the threshold eps f(xi) = eps of the authors' released code (baseline 'original') is "
    "stated; 'c*_1 = m_1' is read with l_max >= m_1 (else c*_1 = min(m_1, l_max)); p in (0, 1), eps in (0, 1]."
)
CORRECTED = (
    "Assume f(xi) = 1 (every word of J occurs in xi), m_1 < m_2 < ... < m_k, p in (0,1), eps in (0,1]; words outside "
    "J may occur (a mild generalisation: Prop. 2 takes J to be every distinct word of the document, k 'the maximum "
    "number of unique words in the document', line 530, as prop2-specular reads it). Every solution of "
    "Eq. (2) has the size l* <= m_1, where l* = min{l >= 1 : 1 - p^(m_1 - l) <= (1 - eps)(1 - p^(m_1))} with the "
    "paper's threshold eps E[f] (baseline 'mean'), and l* = min{l >= 1 : (1 - p^(m_1 - l)) prod_{j >= 2} "
    "(1 - p^(m_j)) <= 1 - eps} with the threshold eps f(xi) = eps of the authors' released code (baseline "
    "'original'). The solution need not be unique (m = (2, 3), p = 1/2, eps = 0.1: the counts (1, 0) and (0, 1) both "
    "solve Eq. (2)); the largest-drop solutions all have counts c* = (l*, 0, ..., 0), on the least frequent word "
    "(unique as a count vector only: the C(m_1, l*) sets of l* occurrences of w_1 tie, and which one FRED returns is "
    "its tie rule's choice). With l_max >= l*, FRED returns one of them and reports the threshold met; when "
    "l* > l_max no candidate within "
    "l_max meets it and FRED returns (l_max, 0, ..., 0). Prop. 2's c*_1 = m_1 (read with l_max >= m_1) holds iff "
    "m_1 = 1 or eps > 1 - (1 - p)/(1 - p^(m_1)) (mean), resp. (1 - p) prod_{j >= 2} (1 - p^(m_j)) > 1 - eps "
    "(original)."
)

#: The finite family on which the corrected statement is checked with Fred(sampler="exact").
MULTIPLICITIES = ((1,), (2,), (3,), (4,), (1, 2), (2, 3), (2, 4), (3, 4), (1, 2, 3), (2, 3, 4))
N_OTHER = (0, 1, 2)
PS = (0.1, 0.3, 0.5, 0.7, 0.9)
EPSS = (0.05, 0.15, 0.3, 0.5, 0.9, 1.0)
MAX_LENS = (1, 2, 10)

#: Counterexample search space: the paper's hypotheses (every word of the document is in J, m_1 < ... < m_k),
#: l_max = 10 (the paper's default, >= every document here), and p, eps in the order listed (the order of
#: "smaller": fewer tokens, then lexicographically smaller multiplicities, then p, then eps in these orders).
SEARCH_MAX_TOKENS = 5
SEARCH_PS = (Fraction(1, 2), Fraction(3, 10), Fraction(7, 10), Fraction(1, 10), Fraction(9, 10))
SEARCH_EPSS = (Fraction(15, 100), Fraction(5, 100), Fraction(3, 10), Fraction(1, 2), Fraction(1))
ORDER = ("fewer tokens (sum of m), then lexicographically smaller multiplicities m, then p earlier in "
         f"{[str(p) for p in SEARCH_PS]}, then eps earlier in {[str(e) for e in SEARCH_EPSS]}; l_max = {MAX_LEN}")
#: The m_1 of the claim's scope, at the paper's p, eps and l_max (Algorithm 1's caption, line 402).
SCOPE_M1 = range(1, 16)


def statement_hypotheses(m, p, eps, n_other: int = 0) -> dict:
    """Prop. 2's hypotheses computed on the document of ``m`` (:func:`hypotheses` record): those on J, read as
    prop2-specular reads them (:func:`~proofs_checks.claims.propositions.shortcut_proofs.prop2_j_conditions`:
    J = {1, ..., k} every distinct word of xi, m_1 < ... < m_k, the mask token no word of J), xi classified positive
    (line 451, f evaluated on the text), p in (0, 1) and eps in (0, 1] (Prop. 2 fixes neither; its proof uses
    p = 1/2, line 1044: :func:`_describe` records whether a case is at the paper's defaults)."""
    tokens, words = document(m, n_other)
    return hypotheses(
        **prop2_j_conditions(tokens, words),
        classified_positive=bool(ShortcutModel(words)([" ".join(tokens)])[0] == 1),
        p_in_0_1=bool(0 < p < 1), eps_in_0_1=bool(0 < eps <= 1))


@exact_cache
def shortcut_case(m: tuple[int, ...], n_other: int) -> tuple[tuple[str, ...], tuple[str, ...], ShortcutModel,
                                                                    TabledClassifier]:
    """The tokens and J of :func:`~proofs_checks.claims.propositions.shortcut_proofs.document`, the shortcut model on
    J, and its predict_proba with its rows on the document's 2^b masked texts asked once (f is 0 or 1 text by text,
    so the same floats however asked), built once per document for every case and explainer; all immutable."""
    tokens, words = document(m, n_other)
    model = ShortcutModel(words)
    return tuple(tokens), words, model, TabledClassifier.on_document(tokens, model.predict_proba, MASK_TOKEN)


def fred_choice(m, n_other, p, eps, max_len, *, baseline: str = "mean"):
    """What Fred(sampler='exact') returns on the shortcut classifier (predict_proba, class 1)."""
    tokens, words, model, classifier = shortcut_case(tuple(m), n_other)
    exp = explainer(classifier, exact=True, baseline=baseline).explain(
        " ".join(tokens), label=1, p=p, eps=eps, max_len=max_len)
    counts = [sum(tokens[i] == w for i in exp.best_ids) for w in words]
    return exp, counts, list(tokens), model


def _search_multiplicities() -> list[tuple[int, ...]]:
    """The search space's multiplicity vectors, in the order of :data:`ORDER`."""
    return increasing_multiplicities(SEARCH_MAX_TOKENS)


def _key(case) -> tuple:
    m, p, eps = case
    return (sum(m), tuple(m), SEARCH_PS.index(p), SEARCH_EPSS.index(eps))


def _search_space() -> list[tuple]:
    return sorted(itertools.product(_search_multiplicities(), SEARCH_PS, SEARCH_EPSS), key=_key)


def _claimed(m) -> tuple[int, ...]:
    return (min(m[0], MAX_LEN),) + (0,) * (len(m) - 1)


def _best_breaks(case, result) -> bool:
    """The count part: some largest-drop solution of Eq. (2) (reading ``eq2``) has c_1 != min(m_1, l_max), or Eq. (2)
    has none."""
    return not result["best_counts"] or any(c[0] != _claimed(case[0])[0] for c in result["best_counts"])


def _word_breaks(result) -> bool:
    """The word part: some largest-drop solution of Eq. (2) has c_j > 0 for a j >= 2, or Eq. (2) has none."""
    return not result["best_counts"] or any(any(c[1:]) for c in result["best_counts"])


def _non_unique_breaks(case, result) -> bool:
    """Eq. (2) has several solutions (count vectors over J) and one of them has c_j > 0 for some j >= 2."""
    return len(result["solutions"]) > 1 and any(any(c[1:]) for c in result["solutions"])


def _fred_breaks(example) -> bool:
    """FRED's choice (Fred(sampler='exact')) is not (min(m_1, l_max), 0, ..., 0): the search of step s1."""
    m, p, eps = example
    return tuple(fred_choice(m, 0, float(p), float(eps), MAX_LEN)[1]) != _claimed(m)


def _float_non_unique(example) -> bool:
    """The float referee (analytic.all_drops) finds several solutions of Eq. (2), one with c_j > 0, j >= 2: the
    search of step s2 (fast; every hit is confirmed in Fractions)."""
    m, p, eps = example
    tokens, words = document(m, 0)
    f_table = table_from_classifier(ShortcutModel(words), tokens)
    threshold = float(eps) * expected_prediction(f_table, float(p))
    eq2 = search_on_drops(all_drops(f_table, float(p)), len(tokens), threshold, len(tokens),
                          tol=tie_tolerance(f_table))
    sols = {tuple(sum(1 for i in s if tokens[i] == w) for w in words) for s in eq2.solutions}
    return len(sols) > 1 and any(any(c[1:]) for c in sols)


def _search(search_breaks, exact_breaks, table: dict) -> tuple[tuple | None, dict]:
    """Hypothesis searches with ``search_breaks``; the rational referee (``exact_breaks`` on ``table``) confirms the
    case and takes the first case in :data:`ORDER` up to it that breaks: the minimal counterexample (or None)."""
    strategy = st.tuples(st.sampled_from(_search_multiplicities()), st.sampled_from(SEARCH_PS),
                         st.sampled_from(SEARCH_EPSS))
    found = minimal_counterexample(strategy, search_breaks, max_examples=100)
    if found is None:
        return None, {"found": None}
    smaller = [case for case in _search_space() if _key(case) < _key(found)]
    minimal = next((case for case in smaller if exact_breaks(case, table[case])), found)
    info = {"search_found": {"m": list(found[0]), "p": str(found[1]), "eps": str(found[2])},
            "confirmed_by_rational_referee": exact_breaks(found, table[found]), "smaller": ORDER,
            "smaller_cases_checked": smaller.index(minimal) if minimal in smaller else len(smaller),
            "minimal": minimal == found}
    return (minimal if exact_breaks(minimal, table[minimal]) else None), info


def _describe(case, result, **extra) -> dict:
    """A case of the search space as the report shows it, with its hypotheses record."""
    m, p, eps = case
    return {"document": " ".join(result["tokens"]), "J": [f"w{j + 1}" for j in range(len(m))],
            "multiplicities": list(m), "p": str(p), "eps": str(eps), "l_max": MAX_LEN,
            "claimed_counts": list(_claimed(m)), "l_star": result["l_star"],
            "solutions": [list(c) for c in result["solutions"]],
            "largest_drop_counts": [list(c) for c in result["best_counts"]], "largest_drop": str(result["drop"]),
            "threshold": str(result["threshold"]), "mean_prediction": str(result["mean"]),
            "paper_defaults": (p, eps) == (P_EXACT, EPS_EXACT), **statement_hypotheses(m, p, eps), **extra}


def _counterexample(table: dict) -> tuple[dict | None, dict]:
    """Step s1: the minimal case where the largest-drop solution breaks the claim, FRED's answer on it, and the
    smallest such case with two words of J (where m_1 < m_2 is not vacuous)."""
    minimal, info = _search(_fred_breaks, _best_breaks, table)
    if minimal is None:
        return None, info
    exp, counts, _, _ = fred_choice(minimal[0], 0, float(minimal[1]), float(minimal[2]), MAX_LEN)
    two = next(case for case in _search_space() if len(case[0]) >= 2 and _best_breaks(case, table[case]))
    info["two_words"] = _describe(two, table[two], fred_counts=fred_choice(two[0], 0, float(two[1]),
                                                                           float(two[2]), MAX_LEN)[1])
    return _describe(minimal, table[minimal], fred_best=list(exp.best), fred_counts=counts, fred_drop=exp.drop,
                     fred_threshold=exp.threshold, order=ORDER,
                     smaller_cases_checked=info["smaller_cases_checked"]), info


@exact_cache(copy=True)
def _scope_at_defaults() -> dict:
    """At the paper's defaults (p = 1/2, eps = 0.15, l_max = 10), for which m_1 FRED's c*_1 = min(l*, l_max) (l* the
    closed form of the corrected statement, in Fractions) differs from Prop. 2's min(m_1, l_max), and where they
    agree, whether l* = m_1 or only both sides are capped at l_max."""
    l_star = {m1: shortcut_minimal_size((m1,), P_EXACT, EPS_EXACT) for m1 in SCOPE_M1}
    agree = [m1 for m1, l in l_star.items() if min(l, MAX_LEN) == min(m1, MAX_LEN)]
    return {"p": str(P_EXACT), "eps": str(EPS_EXACT), "l_max": MAX_LEN, "l_star_by_m1": l_star,
            "claim_fails_for_m1": [m1 for m1 in l_star if m1 not in agree], "claim_holds_for_m1": agree,
            "l_star_equals_m1": [m1 for m1 in agree if l_star[m1] == m1],
            "agree_only_through_the_cap": [m1 for m1 in agree if l_star[m1] != m1]}


def _non_unique_examples() -> list[dict]:
    """m = (2, 3), p = 1/2 at eps = 1/10 (l* = 1 < m_1) and eps = 2/5 (l* = m_1 = 2): the solutions of Eq. (2)."""
    cases = (((2, 3), Fraction(1, 2), Fraction(1, 10)), ((2, 3), Fraction(1, 2), Fraction(2, 5)))
    return [_describe(case, _referee(*case, MAX_LEN),
                      fred_counts=fred_choice(case[0], 0, float(case[1]), float(case[2]), MAX_LEN)[1])
            for case in cases]


# --------------------------------------------------------------------------- the smallest-flip reading
@exact_cache(copy=True)
def _smallest_flips() -> tuple[bool, dict]:
    """Reading ``smallest-flip`` by enumeration: the model evaluated on every masked text of every document of the
    search family (0 or 1 word outside J); the smallest position sets whose removal gives f = 0 must be exactly one,
    the occurrences of w_1 (counts (m_1, 0, ..., 0))."""
    wrong, documents = [], 0
    for m, n_other in itertools.product(_search_multiplicities(), (0, 1)):
        tokens, words = document(m, n_other)
        f = table_from_classifier(ShortcutModel(words), tokens)
        flips = [code for code in range(1, f.size) if f[code] == 0]
        size = min(bin(code).count("1") for code in flips)
        smallest = [positions_of(code) for code in flips if bin(code).count("1") == size]
        documents += 1
        if smallest != [tuple(i for i, t in enumerate(tokens) if t == words[0])]:
            wrong.append({"document": " ".join(tokens), "smallest": smallest})
    return not wrong, {"documents": documents, "multiplicities": _search_multiplicities(), "n_other": [0, 1],
                       "mask_token": MASK_TOKEN, "mismatches": wrong[:5]}


# --------------------------------------------------------------------------- the corrected statement
@exact_cache(copy=True)
def _closed_form_counts(m: tuple[int, ...], p: float, eps: float, max_len: int, baseline: str) -> tuple:
    """l* (closed form in Fractions, None when no size meets the threshold) and the counts FRED must return:
    min(l*, l_max) occurrences of the least frequent word (l_max when l* is None)."""
    size = shortcut_minimal_size(m, Fraction(str(p)), Fraction(str(eps)), max_len, baseline=baseline)
    want = [0] * len(m)
    want[int(np.argmin(m))] = min(size if size is not None else max_len, min(m))
    return size, want


def _corrected_on_fred(baseline: str) -> tuple[bool, dict]:
    """Fred(sampler='exact', baseline=...) against l* (closed form in Fractions) on every case of the family."""
    n_cases, wrong = 0, []
    for m, n_other, p, eps, max_len in itertools.product(MULTIPLICITIES, N_OTHER, PS, EPSS, MAX_LENS):
        exp, counts, _, _ = fred_choice(m, n_other, p, eps, max_len, baseline=baseline)
        size, want = _closed_form_counts(m, p, eps, max_len, baseline)
        n_cases += 1
        if not (counts == want and exp.found == (size is not None)):
            wrong.append({"m": m, "n_other": n_other, "p": p, "eps": eps, "max_len": max_len, "counts": counts,
                          "want": want, "found": exp.found})
    return not wrong, {"baseline": baseline, "cases": n_cases, "multiplicities": MULTIPLICITIES,
                       "n_other": N_OTHER, "p": PS, "eps": EPSS, "max_len": MAX_LENS, "mismatches": wrong[:5]}


@exact_cache(copy=True)
def _corrected_rational() -> tuple[bool, dict]:
    """The rational referee on the search space with 0-1 words outside J, both baselines: l* and the best counts."""
    n_cases, wrong, several = 0, [], 0
    for m, n_other, baseline in itertools.product(_search_multiplicities(), (0, 1), BASELINES):
        for p, eps in itertools.product(SEARCH_PS, SEARCH_EPSS):
            result = _referee(m, p, eps, MAX_LEN, baseline=baseline, n_other=n_other)
            size = shortcut_minimal_size(m, p, eps, MAX_LEN, baseline=baseline)
            want = [(size,) + (0,) * (len(m) - 1)]
            n_cases += 1
            several += len(result["solutions"]) > 1
            if not (result["found"] and result["l_star"] == size and result["best_counts"] == want):
                wrong.append({"m": m, "n_other": n_other, "baseline": baseline, "p": str(p), "eps": str(eps),
                              "referee": result["best_counts"], "want": want})
    return not wrong, {"cases": n_cases, "multiplicities": _search_multiplicities(), "n_other": [0, 1],
                       "baselines": BASELINES, "p": [str(p) for p in SEARCH_PS],
                       "eps": [str(e) for e in SEARCH_EPSS], "l_max": MAX_LEN,
                       "cases_with_several_solutions": several, "mismatches": wrong[:5]}


@exact_cache(copy=True)
def _non_unique_search() -> tuple[tuple | None, dict]:
    """Step s2's search (the float referee, confirmed by the rational one): no explainer in it, so run once."""
    return _search(_float_non_unique, _non_unique_breaks, _referee_table())


@exact_cache(copy=True)
def _proof_steps() -> tuple:
    """The paper's proof (judged on the rational referee's table) and this project's proof: no explainer in them."""
    return (*paper_proof(CLAIM, _referee_table(), MAX_LEN, ORDER), *project_proof(CLAIM, EQ2))


@exact_cache(copy=True)
def _referee_table() -> dict:
    """The rational referee on every case of :func:`_search_space`, built once (each call gets its own copy)."""
    return {case: _referee(*case, MAX_LEN) for case in _search_space()}


def _record(case: dict | None) -> dict:
    """The hypotheses record of a counterexample step: the case's own, or, when the search found none, that of the
    search space's first case (every case of the space lies inside the hypotheses)."""
    record = case if case is not None else statement_hypotheses(*_search_space()[0])
    return {"satisfies_hypotheses": record["satisfies_hypotheses"], "hypotheses": record["hypotheses"]}


def _conditions(scope: dict) -> str:
    """The conditions, with the m_1 for which the claim fails at the paper's defaults (step s1)."""
    return (
        "The headline reading is Eq. (2)'s: the proposition's own words are 'the resulting optimal candidate "
        "c*' (line 535), the notation line 255 defines as the solution of Eq. (2), and its proof compares drops "
        "of candidates of one size (line 1063); lines 538-540 gloss it ('In essence') and add that 'FRED "
        "captures this information by identifying the minimal set of words whose removal would trigger this "
        "change', i.e. that Eq. (2)'s answer is that set. On that gloss's own reading (the smallest set whose "
        "removal flips f) the statement holds (steps r1, r2); what the gloss says FRED does fails with the "
        f"counterexample of step s1. On reading eq2 the statement fails in its count (s1) and holds in its word: "
        "the largest-drop solutions put their counts on the least frequent word alone (s3, proof p1-p7). "
        f"Assumptions of every result here: {ASSUMPTIONS} On reading eq2 the largest-"
        "drop solutions have c*_1 = l* < m_1 unless m_1 = 1 or eps > 1 - (1-p)/(1-p^(m_1)) (e.g. eps > 1/3 for "
        "m_1 = 2, p = 1/2); at the paper's defaults it fails for m_1 in "
        f"{scope['claim_fails_for_m1']}. The stronger reading 'every solution' fails also because Eq. (2) can "
        "have several solutions (step s2). The proof (paper-proof steps, which decide nothing) is written for "
        "p = 1/2 with p the keep probability (pp1: a notation mismatch, exact at p = 1/2), its Hessian entry is "
        "off by a factor p^(2x) (pp2) and it never compares drops with the threshold (pp3).")


def check() -> ClaimResult:
    """Prop. 2 on each reading, the paper's proof, this project's proof, and the corrected statement."""
    table, scope = _referee_table(), _scope_at_defaults()
    cx, search = _counterexample(table)
    steps = (counterexample(cx, search, scope), least_frequent_word(table), non_unique(table), smallest_flip(scope),
             smallest_flip_proof(),
             *_proof_steps(), fred_mean(), fred_original(), rational_referee_cases())
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=_conditions(scope), counterexample=cx,
                        steps=steps, corrected=CORRECTED, source=SOURCE, readings=READINGS)


def counterexample(cx: dict | None, search: dict, scope: dict) -> StepResult:
    """s1: the minimal counterexample to c*_1 = min(m_1, l_max) for the largest-drop solutions, the smallest one with
    two words of J, and the m_1 for which the claim fails at the paper's defaults."""
    two = search.get("two_words")
    found = (f"m = {cx['multiplicities']} ('{cx['document']}'), p = {cx['p']}, eps = {cx['eps']}, l_max = {MAX_LEN} "
             f"(the paper's defaults, the proof's p: {cx['paper_defaults']}; inside Prop. 2's hypotheses: "
             f"{cx['satisfies_hypotheses']}): the largest drop of size {cx['l_star']} is {cx['largest_drop']} >= "
             f"threshold {cx['threshold']} (rational referee), so c*_1 = {cx['l_star']} < m_1; FRED returns "
             f"{cx['fred_counts']}. With two words of J (m_1 < m_2 not vacuous) the smallest case is m = "
             f"{two['multiplicities']} ('{two['document']}'), p = {two['p']}, eps = {two['eps']} (inside the "
             f"hypotheses: {two['satisfies_hypotheses']}): E[f] = {two['mean_prediction']}, threshold "
             f"{two['threshold']}, largest drop {two['largest_drop']} at counts {two['largest_drop_counts']}, not "
             f"{two['claimed_counts']}" if cx else "none found")
    return CLAIM.checked(
        "s1-counterexample", "statement", "counterexample",
        f"Counterexample to c*_1 = min(m_1, l_max) for the largest-drop solutions of Eq. (2): {found}. "
        f"Found by hypothesis on Fred(sampler='exact'), confirmed in Fraction arithmetic by enumerating all "
        f"2^b patterns, minimal over {ORDER} ({search.get('smaller_cases_checked')} smaller cases checked). "
        f"At the paper's defaults (p = 1/2, eps = 0.15, l_max = 10), FRED's c*_1 = min(l*, l_max) differs "
        f"from min(m_1, l_max) for every m_1 in {scope['claim_fails_for_m1']}, of m_1 = 1..{SCOPE_M1[-1]} "
        "checked (l* the closed form proved in steps p1-p7; under the paper's threshold eps E[f] it depends "
        f"on m_1 alone, whatever m_2 < ... < m_k). They agree for m_1 in {scope['claim_holds_for_m1']}: "
        f"l* = m_1 for m_1 in {scope['l_star_equals_m1']}, and for m_1 in "
        f"{scope['agree_only_through_the_cap']} only because both sides are capped at l_max = {MAX_LEN}.",
        holds=cx is None, reading=EQ2, part=COUNT,
        values={**_record(cx), **search, "counterexample": cx, "scope_at_defaults": scope})


def least_frequent_word(table: dict) -> StepResult:
    """s3: the word part: on every case of the search space the largest-drop solutions of Eq. (2) put their counts
    on w_1 alone (c*_j = 0 for j >= 2), in Fractions."""
    wrong = [_describe(case, result) for case, result in table.items() if _word_breaks(result)]
    outside = [case for case in table if not statement_hypotheses(*case)["satisfies_hypotheses"]]
    several = sum(len(result["best_counts"]) > 1 for result in table.values())
    return CLAIM.checked(
        "s3-least-frequent-word", "statement", "exhaustive",
        f"The word part of line 535 (c*_j = 0 for j >= 2: the optimal candidate removes only the least frequent word): "
        f"on all {len(table)} cases of the search space (m strictly "
        f"increasing with sum <= {SEARCH_MAX_TOKENS}, p in {[str(p) for p in SEARCH_PS]}, eps in "
        f"{[str(e) for e in SEARCH_EPSS]}, l_max = {MAX_LEN}; inside Prop. 2's hypotheses: "
        f"{len(table) - len(outside)} of {len(table)}), every largest-drop solution of Eq. (2) solved in Fractions "
        f"(all 2^b patterns) has c_j = 0 for every j >= 2; cases where it does not: {len(wrong)}"
        + (f" ({wrong[:3]})" if wrong else "") + f"; cases with several largest-drop count vectors: {several}. "
        "Only the count on w_1 can be wrong (step s1).",
        holds=not wrong and not outside, reading=EQ2, part=WORD,
        values={"cases": len(table), "cases_outside_hypotheses": [list(map(str, c[1:])) + [list(c[0])]
                                                                  for c in outside],
                "violations": wrong[:5], "violation_count": len(wrong), "several_largest_drop_vectors": several,
                "multiplicities": [list(m) for m in _search_multiplicities()], "p": [str(p) for p in SEARCH_PS],
                "eps": [str(e) for e in SEARCH_EPSS], "l_max": MAX_LEN, "baseline": "mean"})


def non_unique(table: dict) -> StepResult:
    """s2: reading 'every solution': Eq. (2) can have several solutions, some with c_j > 0 for j >= 2."""
    found, search = _non_unique_search()
    cx = None if found is None else _describe(
        found, table[found], fred_counts=fred_choice(found[0], 0, float(found[1]), float(found[2]), MAX_LEN)[1])
    brief, late = _non_unique_examples()
    shown = [c for c in (cx, brief, late) if c is not None]
    agree = sum(c["largest_drop_counts"] == [c["claimed_counts"]] for c in shown)
    found_text = (f"m = {cx['multiplicities']}, p = {cx['p']}, eps = {cx['eps']}: the solutions of Eq. (2) have "
                  f"counts {cx['solutions']} (rational referee); the largest drop is at {cx['largest_drop_counts']}, "
                  f"which FRED returns ({cx['fred_counts']})" if cx else "none found")
    return CLAIM.checked(
        "s2-non-unique", "statement", "counterexample",
        "Reading 'every solution' only (the headline takes the largest drop, as Algorithm 1 and the proof "
        f"do): Eq. (2) can have several solutions, some with c_j > 0 for j >= 2: {found_text}. Minimal over "
        f"{ORDER} ({search.get('smaller_cases_checked')} smaller cases checked). Also m = (2, 3), p = 1/2, "
        f"eps = 1/10: l* = {brief['l_star']}, solutions {brief['solutions']}, largest drop at "
        f"{brief['largest_drop_counts']}; and eps = 2/5: l* = {late['l_star']}, solutions "
        f"{late['solutions']}, largest drop at {late['largest_drop_counts']}. The largest-drop count vector is "
        f"Prop. 2's in {agree} of these {len(shown)} (where it is not, l* < m_1: step s1's failure): what "
        "fails here beyond step s1 is that Eq. (2) has several minimisers; step s1's counterexample breaks "
        "this reading too.",
        holds=cx is None, reading=EVERY,
        values={**_record(cx), **search, "counterexample": cx, "also": [brief, late]})


def smallest_flip(scope: dict) -> StepResult:
    """r1: reading smallest-flip by enumeration: the smallest removal that flips f is the occurrences of w_1."""
    holds, seen = _smallest_flips()
    return CLAIM.checked(
        "r1-smallest-flip", "statement", "exhaustive",
        f"On all {seen['documents']} documents of the search family (m strictly increasing with "
        f"sum <= {SEARCH_MAX_TOKENS}, 0 or 1 word outside J), the model evaluated on every masked text: the "
        "smallest position set whose removal changes f from 1 to 0 is unique and is all the occurrences of "
        "w_1, counts (m_1, 0, ..., 0)"
        + (f"; mismatches: {seen['mismatches'][:3]}" if not holds
           else ". Eq. (2)'s largest-drop solutions are that set iff m_1 = 1 or eps > 1 - (1 - p)/(1 - p^(m_1)) "
                "(step p7): at the paper's defaults FRED does not 'capture this information' (line 539) for "
                f"m_1 in {scope['claim_fails_for_m1']} (step s1)."),
        holds=holds, reading=FLIP, values=seen)


def smallest_flip_proof() -> StepResult:
    """r2: why the smallest removal that changes the classification is the m_1 occurrences of w_1."""
    return CLAIM.argued(
        "r2-smallest-flip", "proof",
        "f(z) = 0 iff some word w_j of J has none of its occurrences left (the mask token is no word of J). A "
        "removal that deletes all m_j occurrences of w_j has at least m_j >= m_1 positions, with equality only "
        "if it is exactly those occurrences and m_j = m_1, i.e. j = 1 by m_1 < m_2 < ... < m_k. So the "
        "smallest removal that changes the classification is the m_1 occurrences of w_1, and it is unique.",
        reading=FLIP)


def _correction(step: str, note: str, result: tuple[bool, dict]) -> StepResult:
    """A correction step over a family: ``note``, then the first mismatches when there are some."""
    holds, seen = result
    return CLAIM.checked(step, "correction", "exhaustive",
                         note + (f"; mismatches: {seen['mismatches'][:3]}" if not holds else "."),
                         holds=holds, values=seen)


def fred_mean() -> StepResult:
    """c1: Fred(sampler='exact', baseline='mean') returns min(l*, l_max) occurrences of w_1 on the family."""
    result = _corrected_on_fred("mean")
    return _correction(
        "c1-fred-mean",
        f"Fred(sampler='exact', baseline='mean') with the shortcut classifier's predict_proba over "
        f"{result[1]['cases']} cases (m in {MULTIPLICITIES}, 0-2 words outside J, p in {PS}, eps in "
        f"{EPSS}, l_max in {MAX_LENS}) returns min(l*, l_max) occurrences of the least frequent word and "
        "nothing else, and reports the threshold met iff l* <= l_max, with l* the closed form in Fraction "
        "arithmetic", result)


def fred_original() -> StepResult:
    """c2: the same with the threshold of the authors' released code (baseline 'original')."""
    result = _corrected_on_fred("original")
    return _correction(
        "c2-fred-original",
        f"The same {result[1]['cases']} cases with Fred(sampler='exact', baseline='original') "
        "(threshold eps f(xi) = eps, the authors' released code): FRED returns min(l*, l_max) occurrences "
        "of the least frequent word, l* = min{l : (1 - p^(m_1 - l)) prod_{j >= 2} (1 - p^(m_j)) <= "
        "1 - eps}", result)


def rational_referee_cases() -> StepResult:
    """c3: Eq. (2) solved in Fractions on the search space: every solution has size l*, the largest-drop ones
    counts (l*, 0, ..., 0)."""
    result = _corrected_rational()
    seen = result[1]
    return _correction(
        "c3-rational-referee",
        f"Eq. (2) solved in Fraction arithmetic (all 2^b patterns, every position set) on "
        f"{seen['cases']} cases (m strictly increasing with sum <= {SEARCH_MAX_TOKENS}, 0-1 words "
        f"outside J, both baselines, the search space's p and eps, l_max = {MAX_LEN}): every solution has "
        "size l* (closed form) and the largest-drop solutions all have counts (l*, 0, ..., 0); "
        f"{seen['cases_with_several_solutions']} cases have several solutions", result)
