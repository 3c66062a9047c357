"""Proposition 1 on L2-normalised TF-IDF (ours): scikit-learn's default ``TfidfVectorizer()`` with a linear model.

Definition 1 has no normalisation; scikit-learn's default ``TfidfVectorizer()`` divides each row by its L2 norm
(the paper does not say which normalisation its experiments used; the authors' released models build exactly that
vectorizer, step r1, run as an outside program when ``$FRED_AUTHORS_CHECKOUT`` is set). Removing a word then rescales every other
word's contribution, so the drop is not additive and need not follow lambda_j v_j: alone in a document a word
scores lambda_j whatever v_j, so the drops of a two-word document follow lambda, not lambda v. On a corpus of 7
documents (idf 1 + log 4 and 1, both Definition-1 idfs) the unique solution of Eq. (2), FRED's choice, is the word
of smaller lambda_j v_j: both readings of Prop. 1 (any solution, or FRED's choice) fail, so there is no corrected
statement.
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy as sp
from sklearn.feature_extraction.text import TfidfVectorizer

from analytic import (
    L2NormalisedLinearModel,
    all_drops_rational,
    code_of,
    exact_explain,
    idf,
    l2_table_sym,
    linear_table_rational,
    search_on_drops,
    tie_tolerance,
)
from analytic.exact_cache import exact_cache
from fred_constants import EPS, EPS_EXACT, P_EXACT, P

from ...cases.linear_conclusions import EPSS, PS, run
from ...models.family import cases
from ...subject.authors_probe import NOT_RUN, TFIDF_MODELS, checkout_path, probe
from ...subject.explainer import explainer
from ...verdicts.results import Claim, ClaimResult, Quote, StepResult, hypotheses
from .prop1_words import PROPOSITION

CLAIM = Claim("prop1-l2norm")
SOURCE = (
    Quote(453, "we consider classifiers that operate on the well-established TF-IDF"),
    Quote(465, r"The TF-IDF of $\doc$ is the vector $\tfidf{\doc} \in \Reals^D$ such that"),
    Quote(467, r"\forall j \in [D], \qquad\tfidf{\doc}_j \defeq \mult_j(\doc) \idf_j"),
    Quote(470, r"where $\idf_j \defeq \log{\frac{N + 1}{N_j + 1}} + 1$ is the \emph{inverse document frequency} "
               r"(IDF) of $\word_j$ in $\texts$."),
    *PROPOSITION,  # lines 492-494, shared with the other Prop. 1 claims
    Quote(1113, r"We trained a logistic classifier, a decision tree, and a random forest classifier on each dataset "
                r"(with the default parameters of \url{https://scikit-learn.org/})."),
)
STATEMENT = (
    "Ours (an extension): Prop. 1's conclusions (i) and (ii) for f(z) = lambda^T phi(z)/||phi(z)||_2 + lambda_0, "
    "the L2-normalised TF-IDF of scikit-learn's default TfidfVectorizer (norm='l2', smooth idf: the idfs of "
    "Definition 1), with a linear model. Prop. 1 is stated for Definition 1, which has no normalisation; the paper "
    "names scikit-learn's defaults for its classifiers (line 1113) and does not say which normalisation its "
    "experiments' vectorizer used. The authors' released models (logistic, tree, forest) build scikit-learn's "
    "default TfidfVectorizer(), which L2-normalises (step r1): the released logistic classifier applies a linear "
    "model, through a sigmoid, to exactly this representation, not to Definition 1's."
)
CONDITIONS = (
    "No ordering guarantee with L2-normalised TF-IDF: FRED's choice depends on the whole document through the norm. "
    "Prop. 1 covers Definition 1 (no normalisation) only; its proof is right there and does not carry over (s1). "
    "The counterexample's idfs are Definition 1's, realised by a corpus and checked against scikit-learn's fitted "
    "vectorizer."
)
#: lambda_j of the two words; the search runs over pairs of these.
LAMBDAS = (0.5, 1.0, 2.0, 3.0)
#: Corpus sizes searched, in increasing order; a word of the vocabulary is in 1 <= N_j <= N documents.
MAX_CORPUS = 12
WORDS = ("aa", "bb")  # two letters: scikit-learn's default token pattern drops one-letter words
#: The paper's p and eps as sympy Rationals, for the symbolic tables.
P_SYM, EPS_SYM = sp.Rational(P_EXACT), sp.Rational(EPS_EXACT)
SMALLER = ("a smaller corpus N, then earlier (N_aa, N_bb), then earlier (lambda_aa, lambda_bb) in the product order "
           f"of {list(LAMBDAS)}; one word cannot violate (ii)")


def definition1_corpus(n_docs: int, doc_freq: dict[str, int]) -> list[str]:
    """A corpus of ``n_docs`` documents in which word w occurs in the first ``doc_freq[w]`` documents (a document
    holding no word is empty): it realises the idfs log((N + 1)/(N_w + 1)) + 1 of Definition 1."""
    return [" ".join(w for w in doc_freq if k < doc_freq[w]) for k in range(n_docs)]


def statement_hypotheses(case: dict) -> dict:
    """The extension's hypotheses, computed on one case: the vectorizer L2-normalises (the extension's setting);
    every idf is a Definition-1 idf, i.e. >= 1 and equal to log((N + 1)/(N_j + 1)) + 1 for integers 1 <= N_j <= N of
    the case's corpus (absent corpus: not shown achievable); lambda_j v_j pairwise distinct (Prop. 1's strict order);
    xi classified positive (f(xi) > 0); 0 < p < 1 and 0 < eps <= 1."""
    lam, v = case["lambda"], case["idf"]
    n, freq = case.get("corpus_size"), case.get("document_frequency")
    from_corpus = (isinstance(n, int) and isinstance(freq, dict) and set(freq) == set(v)
                   and all(1 <= freq[w] <= n and abs(v[w] - float(idf(n, freq[w]))) <= 1e-12 for w in v))
    products = sorted(lam[w] * v[w] for w in v)
    return hypotheses(
        l2_normalised_tfidf=case["norm"] == "l2",
        idf_at_least_one=all(x >= 1 for x in v.values()),
        idf_from_a_corpus=bool(from_corpus),
        strictly_ordered=all(y - x > 1e-12 for x, y in zip(products, products[1:])),
        classified_positive=case["f_original"] > 0,
        p_in_open_unit_interval=0 < case["p"] < 1,
        eps_positive=0 < case["eps"] <= 1,
    )


def _pipeline(n_docs: int, n_a: int, n_b: int) -> TfidfVectorizer:
    """scikit-learn's default TfidfVectorizer() fitted on the corpus realising (N, N_aa, N_bb)."""
    return TfidfVectorizer().fit(definition1_corpus(n_docs, dict(zip(WORDS, (n_a, n_b)))))


def _coef(vec: TfidfVectorizer, lam: dict) -> np.ndarray:
    return np.array([lam[w] for w in vec.get_feature_names_out()])


def _classifier(vec: TfidfVectorizer, lam: dict):
    """f = lambda . phi(z) with phi the fitted vectorizer (its own preprocessing, norm='l2'), lambda_0 = 0."""
    coef = _coef(vec, lam)
    return lambda texts: vec.transform(list(texts)).toarray() @ coef


#: The four patterns of 'aa bb', code order (bit i set: position i removed).
PATTERNS = ("aa bb", "bb", "aa", "")


def _breaks(sol, lam: dict, v: dict) -> bool:
    """Every solution of Eq. (2) (``sol``, from float drops; the found case is confirmed exactly) violates (ii):
    none is the word of larger lambda_j v_j."""
    top = (int(np.argmax([lam[w] * v[w] for w in WORDS])),)
    return bool(sol.solutions) and top not in sol.solutions


def _search() -> tuple[dict | None, dict]:
    """The first (N, N_aa, N_bb, lambda_aa, lambda_bb) in the order SMALLER, among the cases inside the hypotheses
    (:func:`statement_hypotheses`), that breaks (ii) for every solution on the fitted default vectorizer; the
    number of smaller cases inside the hypotheses, and the smallest distance of their drops to the threshold
    (float decisions; a distance far above rounding makes them exact)."""
    point, scanned, margin = _scan()
    values = {"smaller_cases_checked": scanned, "smallest_drop_to_threshold_distance": margin}
    if point is None:
        return None, values
    n_docs, n_a, n_b, la, lb = point
    return _exact(n_docs, n_a, n_b, dict(zip(WORDS, (la, lb)))), values


@exact_cache  # no explainer: the same for every subject
def _scan() -> tuple:
    """:func:`_search`'s scan: (the first breaking (N, N_aa, N_bb, lambda_aa, lambda_bb) or None, the smaller cases
    checked, their smallest drop-to-threshold distance)."""
    scanned, margin = 0, float("inf")
    for n_docs in range(1, MAX_CORPUS + 1):
        for n_a, n_b in itertools.product(range(1, n_docs + 1), repeat=2):
            vec = _pipeline(n_docs, n_a, n_b)
            v = {w: float(vec.idf_[vec.vocabulary_[w]]) for w in WORDS}
            phi = vec.transform(PATTERNS).toarray()  # once per corpus: f is linear in lambda
            for la, lb in itertools.product(LAMBDAS, repeat=2):
                lam = dict(zip(WORDS, (la, lb)))
                table = phi @ _coef(vec, lam)
                case = {"lambda": lam, "idf": v, "corpus_size": n_docs, "norm": vec.norm, "p": P, "eps": EPS,
                        "document_frequency": dict(zip(WORDS, (n_a, n_b))), "f_original": float(table[0])}
                if not statement_hypotheses(case)["satisfies_hypotheses"]:
                    continue  # not a case of the statement (e.g. lambda_aa v_aa = lambda_bb v_bb)
                value, drops = all_drops_rational(list(table), P)  # float drops, as the pipeline computes f
                sol = search_on_drops({code_of(s): d for s, d in drops.items()}, 2, EPS * value, 2,
                                      tol=tie_tolerance(table))
                if _breaks(sol, lam, v):
                    return (n_docs, n_a, n_b, la, lb), scanned, margin
                margin = min([margin] + [abs(d - sol.threshold) for d in drops.values()])
                scanned += 1
    return None, scanned, margin


def _exact(n_docs: int, n_a: int, n_b: int, lam: dict) -> dict:
    """One case: the fitted default vectorizer's idfs against Definition 1 (exact, sympy), the exact drops and
    solutions of Eq. (2) (sympy: square roots and logarithms), the pipeline's float drops, FRED's exact choice on
    the pipeline, and the hypotheses record."""
    classifier = _classifier(_pipeline(n_docs, n_a, n_b), lam)
    exp = explainer(classifier, exact=True).explain("aa bb", p=P, eps=EPS, max_len=2)
    case = {**_exact_side(n_docs, n_a, n_b, tuple(lam.items())), "fred_importances": exp.importances.tolist(),
            "fred_best": list(exp.best)}
    return {**case, **statement_hypotheses(case)}


@exact_cache(copy=True)  # no explainer: the same for every subject (each call gets its own copy)
def _exact_side(n_docs: int, n_a: int, n_b: int, lam: tuple) -> dict:
    """:func:`_exact`'s record up to FRED's answers, for lambda given as (word, lambda) pairs."""
    lam = dict(lam)
    freq = dict(zip(WORDS, (n_a, n_b)))
    vec = _pipeline(n_docs, n_a, n_b)
    v = {w: float(vec.idf_[vec.vocabulary_[w]]) for w in WORDS}
    exact_v = {w: 1 + sp.log(sp.Rational(n_docs + 1, freq[w] + 1)) for w in WORDS}
    model = L2NormalisedLinearModel(lam, v)
    sol = exact_explain(l2_table_sym(model, list(WORDS), exact_idf=exact_v), P_SYM, EPS_SYM, 2)
    table = _classifier(vec, lam)(PATTERNS)
    floats = exact_explain(list(table), P, EPS, 2)
    products = {w: lam[w] * v[w] for w in WORDS}
    return {"corpus": definition1_corpus(n_docs, freq), "corpus_size": n_docs, "document_frequency": freq,
            "vectorizer": "TfidfVectorizer() (scikit-learn's defaults)", "norm": vec.norm, "idf": v,
            "idf_exact": {w: str(x) for w, x in exact_v.items()}, "lambda": lam, "intercept": 0.0,
            "document": "aa bb", "p": P, "eps": EPS, "lambda_v": products,
            "claimed_first": max(WORDS, key=products.get), "f_original": float(table[0]),
            "exact_drops": {" ".join(WORDS[i] for i in s): str(d) for s, d in sol.drops.items()},
            "exact_drops_float": {" ".join(WORDS[i] for i in s): float(d) for s, d in sol.drops.items()},
            "exact_threshold": str(sol.threshold), "exact_threshold_float": float(sol.threshold),
            "exact_solutions": [[WORDS[i] for i in s] for s in sol.solutions],
            "pipeline_solutions": [[WORDS[i] for i in s] for s in floats.solutions],
            "mask_features": [t for t in vec.build_analyzer()("UNK") if t in vec.vocabulary_]}


def _nonadditive(cx: dict | None) -> tuple[bool, dict]:
    """The proof's additivity Delta_{a,b} = Delta_a + Delta_b on the counterexample's words and lambda, exactly:
    it holds under Definition 1 (phi = counts * idf, no norm) and not with L2 normalisation; and alone in a
    document a word contributes lambda_j whatever v_j (sympy, v_j > 0)."""
    if cx is None:
        return _additivity(None)
    return _additivity(tuple(tuple(cx[k].items()) for k in ("lambda", "idf", "idf_exact")))


@exact_cache(copy=True)  # no explainer: the same for every subject (each call gets its own copy)
def _additivity(words: tuple | None) -> tuple[bool, dict]:
    """:func:`_nonadditive` on the counterexample's (lambda, idf, exact idf) as (word, value) pairs, or None."""
    lam, v = sp.Symbol("lambda", real=True), sp.Symbol("v", positive=True)
    alone = sp.simplify(lam * v / sp.sqrt(v**2) - lam)
    if words is None:
        return False, {"alone_minus_lambda": str(alone)}
    cx = dict(zip(("lambda", "idf", "idf_exact"), (dict(pairs) for pairs in words)))
    exact_v = {w: sp.sympify(cx["idf_exact"][w]) for w in WORDS}
    model = L2NormalisedLinearModel(cx["lambda"], cx["idf"])
    residual = {}
    for norm, table in (("l2", l2_table_sym(model, list(WORDS), exact_idf=exact_v)),
                        ("none", linear_table_rational([sp.Rational(cx["lambda"][w]) * exact_v[w] for w in WORDS]))):
        _, drops = all_drops_rational(table, P_SYM)
        residual[norm] = sp.simplify(drops[(0, 1)] - drops[(0,)] - drops[(1,)])
    holds = residual["none"] == 0 and bool(residual["l2"] != 0) and alone == 0
    return holds, {"residual_definition1": str(residual["none"]), "residual_l2": str(residual["l2"]),
                   "residual_l2_float": float(residual["l2"]), "alone_minus_lambda": str(alone)}


def _family() -> tuple[bool, dict]:
    """FRED's exact choice (a solution when found) against (i)/(ii) on the L2 pipelines of the family."""
    rows, counts = [], {}
    for kind in ("ridge-l2", "logistic-l2"):
        verdicts = run(cases(kind))
        scope = [v for v in verdicts if v.original > 0 and v.strict_order]
        bad = [{**v.describe(x["eps"]), "violates": x["violates"], "best": x["best"]} for v in scope
               for x in v.fred_violations]
        rows.extend(bad)
        counts[kind] = {"cases": sum(len(v.solution_checks) for v in scope), "fred_choice_violations": len(bad),
                        "every_solution_violations": sum(len(v.solution_violations_of("(i)")) +
                                                         len(v.solution_violations_of("(ii)")) for v in scope),
                        "sizes_where_top_set_not_best": sum(len(v.top_set_not_best) for v in scope)}
    rows.sort(key=lambda r: (len(r["document"].split()), r["document"], r["p"], r["eps"]))
    return not rows, {"unit": "(model, document, p, eps) with f(xi) > 0 and distinct lambda_j v_j", **counts,
                      "failing": rows}


def check() -> ClaimResult:
    """A minimal achievable counterexample (exact) and the L2 pipelines of the finite family."""
    cx, search = _search()
    steps = (proof_outside_definition1(cx), counterexample(cx, search), family(), released_models())
    return CLAIM.result(kind="extension", statement=STATEMENT, conditions=CONDITIONS, counterexample=cx,
                        steps=steps, source=SOURCE)


def proof_outside_definition1(cx: dict | None) -> StepResult:
    """s1: the proof's additive drop on the counterexample's words: exact under Definition 1, not with L2."""
    holds, seen = _nonadditive(cx)
    return CLAIM.checked(
        "s1-proof-outside-definition1", "paper-proof", "symbolic",
        "The proof's drop is additive over the candidate's words (Delta_c = p sum_j lambda_j v_j c_j): on the "
        "counterexample's words and lambda, Delta_{a,b} - Delta_a - Delta_b = "
        f"{seen.get('residual_definition1')} under Definition 1 (exact), so the proof is right there; "
        f"it does not carry over to L2 normalisation, where the residual is {seen.get('residual_l2')} "
        f"= {seen.get('residual_l2_float', float('nan')):.6g} != 0. Alone in a document a word "
        f"contributes lambda_j whatever v_j (sympy: lambda v / sqrt(v^2) - lambda = "
        f"{seen['alone_minus_lambda']}), so the order can follow lambda_j instead of lambda_j v_j.",
        holds=holds, values=seen)


def counterexample(cx: dict | None, search: dict) -> StepResult:
    """st1: the minimal achievable counterexample to (ii), for FRED's choice and every solution, confirmed exactly."""
    confirmed = (cx is not None and cx["satisfies_hypotheses"] and bool(cx["exact_solutions"])
                 and all(s != [cx["claimed_first"]] for s in cx["exact_solutions"])
                 and cx["pipeline_solutions"] == cx["exact_solutions"] and cx["fred_best"] in cx["exact_solutions"])
    record = ({k: cx[k] for k in ("satisfies_hypotheses", "hypotheses")} if cx
              else hypotheses(search_met_cases_inside_hypotheses=search["smaller_cases_checked"] > 0))
    return CLAIM.checked(
        "st1-counterexample", "statement", "counterexample",
        "(ii) fails for FRED's choice and for every solution, on an achievable model: "
        + (f"corpus of N = {cx['corpus_size']} documents, 'aa' in {cx['document_frequency']['aa']} and 'bb' "
           f"in {cx['document_frequency']['bb']} (scikit-learn's default TfidfVectorizer: idf {cx['idf']}, "
           f"exactly {cx['idf_exact']}, Definition 1's), lambda = {cx['lambda']} on 'aa bb', p = 1/2, "
           f"eps = 3/20: lambda_j v_j = {cx['lambda_v']} puts {cx['claimed_first']} first, but the exact "
           f"drops are {cx['exact_drops_float']} against the threshold {cx['exact_threshold_float']:.6g} "
           f"(sympy: {cx['exact_threshold']}), so Eq. (2)'s only solution is {cx['exact_solutions']}; FRED "
           f"(exact sampler, on the pipeline) picks {cx['fred_best']}. Hypotheses hold: "
           f"{cx['satisfies_hypotheses']}. Minimal: {SMALLER} ({search['smaller_cases_checked']} smaller "
           "cases, none breaking; their drops are at least "
           f"{search['smallest_drop_to_threshold_distance']:.2g} from the threshold)."
           if cx else f"no counterexample up to N = {MAX_CORPUS}."),
        holds=not confirmed, values={**record, "counterexample": cx, "smaller_means": SMALLER, **search})


def family() -> StepResult:
    """st2: FRED's exact choice against (i) and (ii) on the L2 pipelines of the family."""
    holds, seen = _family()
    return CLAIM.checked(
        "st2-family", "statement", "exhaustive",
        f"FRED's exact choice on the L2 pipelines of the family (f(xi) > 0), p in {PS}, eps in {EPSS}: it "
        f"violates (i) or (ii) in {seen['ridge-l2']['fred_choice_violations']} of "
        f"{seen['ridge-l2']['cases']} Ridge and {seen['logistic-l2']['fred_choice_violations']} "
        f"of {seen['logistic-l2']['cases']} LogisticRegression (model, document, p, eps) cases"
        + (f"; shortest: {seen['failing'][0]}." if seen["failing"] else "."),
        holds=holds, values=seen)


#: Labelled documents the released models are trained on before their vectorizer is read (any would do).
TRAINING = (("a good film", 1), ("a bad film", 0), ("good food and good service", 1), ("bad service", 0))
#: |norm - 1| allowed for a row of the released vectorizer's output.
NORM_TOLERANCE = 1e-12
RELEASED_MODEL_FILES = ", ".join(f"models/{name}.py" for name in TFIDF_MODELS)


def _released_vectorizers(reply: dict) -> tuple[bool, dict]:
    """Each released TF-IDF model's vectorizer against scikit-learn's default TfidfVectorizer(), built here: same
    class, same parameters (norm 'l2' among them), rows of unit L2 norm after the model's own training."""
    defaults = {k: repr(v) for k, v in TfidfVectorizer().get_params().items()}
    models = {name: {**m, "default_parameters": m["class"] == "TfidfVectorizer" and m["params"] == defaults,
                     "norm": m["params"].get("norm"),
                     "unit_rows": all(abs(x - 1) <= NORM_TOLERANCE for x in m["row_l2_norms"])}
              for name, m in reply["models"].items()}
    ok = set(models) == set(TFIDF_MODELS) and all(m["default_parameters"] and m["norm"] == repr("l2")
                                                   and m["unit_rows"] for m in models.values())
    return ok, {"files": reply["files"], "models": models, "training_documents": len(TRAINING),
                "tolerance": NORM_TOLERANCE}


def released_models() -> StepResult:
    """r1: the released pipeline's TF-IDF models build scikit-learn's default, L2-normalising TfidfVectorizer()
    (run as an outside program); argued, with the fact read from the files, without the checkout."""
    reply = probe("vectorizers", [{"text": t, "label": y} for t, y in TRAINING])
    if reply is None:
        return CLAIM.argued(
            "r1-released-models", "statement",
            f"{NOT_RUN} With it, this step builds the released pipeline's {', '.join(TFIDF_MODELS)} "
            "(utils.setup.setup_model, as main.py does) in a separate process and reads their vectorizer. Read from "
            f"the files ({RELEASED_MODEL_FILES} of github.com/gianluigilopardo/fred), not computed here: each builds "
            "its vectorizer as TfidfVectorizer() with no argument, whose default norm is 'l2', so the models the "
            "experiments explain are L2-normalised TF-IDF pipelines, the case of this extension.")
    ok, values = _released_vectorizers(reply)
    return CLAIM.checked(
        "r1-released-models", "statement", "exhaustive",
        f"The released code ({checkout_path()}), run as an outside program: setup_model builds "
        + "; ".join(f"{name} with a {m['class']} of norm {m['norm']}, every parameter scikit-learn's default: "
                    f"{m['default_parameters']}, rows of L2 norm 1 (within {NORM_TOLERANCE}) after its own training "
                    f"on {len(TRAINING)} documents: {m['unit_rows']}" for name, m in values["models"].items())
        + ". The models the experiments explain are L2-normalised TF-IDF pipelines, the case of this extension, not "
          "Definition 1's.", holds=ok, values=values)
