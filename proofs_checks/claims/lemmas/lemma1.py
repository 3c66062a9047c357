"""Lemma 1: the empirical drop converges in probability to E[f] - E[f 1{c not in x}] / P(c not in x)."""

from __future__ import annotations

import itertools

import numpy as np
import sympy as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.tree import DecisionTreeClassifier

from analytic import (
    ShortcutModel,
    drop_asymptotic_variance,
    exact_drop,
    lemma1_limit,
    pattern_weights,
    table_from_classifier,
)
from analytic.patterns import table_b

from ...cases.lemma1_monte_carlo import monte_carlo
from ...models.family import cases, training_corpus
from ...statistics.seeds import statistical_seed
from ...verdicts.results import Claim, ClaimResult, Quote, StepResult

CLAIM = Claim("lemma1")
SOURCE = (
    Quote(278, r"\begin{lemma}[Convergence of Empirical Drop $\Empdrop_\candidate$]"),
    Quote(280, r"For a candidate explanation $\candidate$, let $n_\candidate$ represent the count of instances in the "
               r"dataset $x$ where $\candidate$ is not included in the sample."),
    Quote(281, r"Then, as $n \to \infty$, the empirical drop in prediction $\Empdrop_\candidate$ associated to the "
               r"candidate $\candidate$  converges in probability to"),
    Quote(283, r"\expec{\model(x)} -\frac{\expec{\model(x) \indic{\candidate \notin x}}}{\proba{\candidate "
               r"\notin x}} \,."),
    Quote(276, r"This definition guarantees that, for a large amount of samples, the empirical drop is a good "
               r"estimate of Eq.~\eqref{eq:drop-candidate}, as expressed by the following:"),
    Quote(274, r"Note that the sampling scheme ensures that, \emph{with high probability}, for each candidate, there "
               r"is at least one sample in which the candidate is not present."),
    Quote(232, r"explaining the prediction of a generic model $\model : \texts \to \mathcal{Y}$ (the "
               r"\emph{black-box})"),
    Quote(337, "The samples where both tokens are perturbed are highlighted in gray."),
    Quote(975, r"\frac{1}{n_\candidate} \sum_{\candidate \notin x_i} \model(x_i) = \frac{n}{n_\candidate} "
               r"\frac{1}{n}\sum_{i=1}^n \model(x_i)\indic{\candidate \notin x_i} \, ."),
    Quote(977, "We can therefore apply the weak law of large numbers."),
    Quote(978, r"As $n$ grows infinitely, this empirical average converges in probability to the expected value of the "
               r"predictions for instances without $\candidate$:"),
    Quote(979, r"\[ \frac{1}{n}\sum_{i=1}^n \model(x_i)\indic{\candidate \notin x_i} \cvproba"),
    Quote(980, r"\frac{1}{n}\sum_{i=1}^n \model(x_i)\indic{\candidate \notin x_i} \cvproba "
               r"\expec{\model(x) \indic{\candidate \notin x}}"),
    Quote(983, r"Likewise, as $n\to + \infty$, $\frac{n}{n_\candidate}$ converges in probability to "
               r"$\frac{1}{\proba{\candidate \notin x}}$."),
    Quote(985, "By multiplying the two limits, we get:"),
    Quote(986, r"\[ \frac{1}{n_\candidate} \sum_{\candidate \notin x_i} \model(x_i) \cvproba "
               r"\frac{\expec{\model(x) \indic{\candidate \notin x}}}{\proba{\candidate \notin x}} \,.\]"),
    Quote(988, r"This approximation holds true when both $n$ and $n_\candidate$ are sufficiently large"),
)
STATEMENT = (
    "Lemma 1 (lines 278-283): for a candidate c, with n_c the number of samples in which c is not included, 'as "
    "n -> infinity, the empirical drop' (Eq. 3) 'converges in probability to' E[f(x)] - E[f(x) 1{c not in x}] / "
    "P(c not in x), for a generic black box f (line 232). 'c not in x' means that every token of c is perturbed "
    "(the caption of Figure 1, line 337), so P(c not in x) = p^|c|."
)
SEED = 20261125


def black_boxes():
    """(name, classifier_fn, tokens, label): a Ridge on raw TF-IDF, a logistic model, and a fitted decision tree."""
    ridge, logit = cases("ridge-raw")[1], cases("logistic-raw")[2]
    docs, labels = training_corpus(0)
    vec = TfidfVectorizer().fit(docs)
    tree = DecisionTreeClassifier(random_state=0).fit(vec.transform(docs), labels)
    tree_tokens = ("good", "food", "slow", "service", "great")
    return [
        ("ridge-raw", ridge.classifier_fn(), ridge.tokens, None),
        ("logistic-raw", logit.classifier_fn(), logit.tokens, 1),
        ("decision-tree", lambda texts: tree.predict_proba(vec.transform(texts)), tree_tokens, 1),
    ]


def _candidates(b: int):
    """The candidates the limit and the rate are checked on: the first three position sets of each size 1-3."""
    for size in (1, 2, 3):
        yield from itertools.islice(itertools.combinations(range(b), size), 3)


def _limit_is_eq1() -> tuple[bool, dict]:
    """lemma1_limit (E[f] - E[f 1{c}] / P(c)) against the referee's exact drop (Eq. 1), every table and candidate."""
    worst, checked_cases = 0.0, 0
    for name, clf, tokens, label in black_boxes():
        table = table_from_classifier(clf, list(tokens), label=label)
        for positions in _candidates(len(tokens)):
            for p in (0.3, 0.5):
                worst = max(worst, abs(lemma1_limit(table, positions, p) - exact_drop(table, positions, p)))
                checked_cases += 1
    return worst <= 1e-12, {"cases": checked_cases, "largest_difference": worst, "tolerance": 1e-12}


def _conditional_variance(table: np.ndarray, positions, p: float) -> tuple[float, float, float]:
    """Var f, Var(f | c perturbed) and P(c perturbed) by enumerating all patterns (independent of analytic.lemma1)."""
    b = table_b(table)
    w = pattern_weights(b, p)
    covered = np.array([all(code >> i & 1 for i in positions) for code in range(2**b)])
    pi = float(w[covered].sum())
    mean = float(w @ table)
    mean_c = float(w[covered] @ table[covered] / pi)
    return float(w @ (table - mean) ** 2), float(w[covered] @ (table[covered] - mean_c) ** 2 / pi), pi


def _variance_rate() -> tuple[bool, dict]:
    """sigma^2 = Var f + Var(f | c perturbed) (1/p^|c| - 2): the 1/p^|c| rate needs Var(f | c perturbed) > 0.

    Checked on the black boxes of the Monte Carlo step and on a shortcut model f = 1{"w" in z} over
    "w x w", where perturbing both w's makes f = 0, so Var(f | c) = 0 and sigma^2 = Var f whatever |c|.
    """
    rows = []
    shortcut = table_from_classifier(ShortcutModel(("w",)), ["w", "x", "w"])
    cases_ = [(name, table_from_classifier(clf, list(tokens), label=label), positions)
              for name, clf, tokens, label in black_boxes() for positions in _candidates(len(tokens))]
    cases_.append(("shortcut 1{w}, document 'w x w'", shortcut, (0, 2)))
    worst = 0.0
    for name, table, positions in cases_:
        for p in (0.3, 0.5):
            var_f, var_c, pi = _conditional_variance(table, positions, p)
            sigma2 = drop_asymptotic_variance(table, positions, p)
            worst = max(worst, abs(sigma2 - (var_f + var_c * (1 / pi - 2))))
            rows.append({"model": name, "positions": list(positions), "p": p, "sigma2": sigma2,
                         "var_f": var_f, "var_f_given_c": var_c})
    zero = [r for r in rows if r["var_f_given_c"] <= 1e-15]
    shortcut_ok = bool(zero) and all(abs(r["sigma2"] - r["var_f"]) <= 1e-12 for r in zero)
    return worst <= 1e-12 and shortcut_ok, {"cases": len(rows), "largest_difference": worst, "tolerance": 1e-12,
                                            "zero_conditional_variance_cases": zero}


CONDITIONS = (
    "p in (0,1); any black box (f is bounded on the finitely many perturbations of a document). The estimate is "
    "undefined when n_c = 0 and biased for finite n (a ratio estimator); its error is of order sqrt(sigma^2/n), "
    "sigma^2 = Var f + Var(f | c perturbed) (1/p^|c| - 2) (delta method, analytic.lemma1): sigma^2 grows like "
    "1/p^|c| (the error like p^(-|c|/2)) only when Var(f | c perturbed) > 0. The lemma states no rate, and these "
    "remarks are not used against it. The proof steps cover mask- and pos-sampling; the Monte Carlo step runs "
    "mask-sampling."
)


def check() -> ClaimResult:
    """Our proof step by step, the limit against Eq. (1), the rate's condition, and a statistical check of the
    subject's own drops."""
    steps = (rewrite(), law_of_large_numbers(), ratio(), product(), limit_is_eq1(), rate_condition(),
             subject_monte_carlo())
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE)


def rewrite() -> StepResult:
    """s1: the empirical drop's mean over the rows not containing c, rewritten as a product of two averages."""
    f_sum, n, n_c = sp.symbols("S n n_c", positive=True)
    residual = sp.simplify(f_sum / n_c - (n / n_c) * (f_sum / n))
    return CLAIM.checked(
        "s1-rewrite", "proof", "symbolic",
        "(1/n_c) sum_{c not in x_i} f(x_i) = (n/n_c) (1/n) sum_i f(x_i) 1{c not in x_i} (sympy), defined only when "
        "n_c >= 1 (line 975).", holds=residual == 0, values={"residual": str(residual)})


def law_of_large_numbers() -> StepResult:
    """s2: the weak law applies to f 1{c not in x} (argued)."""
    return CLAIM.argued(
        "s2-law-of-large-numbers", "proof",
        "f takes finitely many values on the perturbations of a document (2^b mask patterns; with pos-sampling, "
        "finitely many words of the two dictionaries per position), so f 1{c not in x} has a finite mean and the weak "
        "law applies to the i.i.d. rows (line 977), giving the limit of lines 978-980.")


def ratio() -> StepResult:
    """s3: n/n_c -> 1/p^|c| (argued), with the probability that the drop is undefined at the paper's n."""
    return CLAIM.argued(
        "s3-ratio", "proof",
        f"n_c/n -> P(c not in x) = p^|c| by the weak law; n/n_c -> p^(-|c|) by continuous mapping, which needs "
        f"p^|c| > 0, i.e. p > 0 (true for p in (0,1); at p = 0 the candidate is never perturbed). For finite n the "
        f"empirical drop is undefined with probability (1 - p^|c|)^n, e.g. "
        f"{sp.N((1 - sp.Rational(1, 2) ** 10) ** 3067, 3)} for |c| = 10, n = 3067, p = 1/2; this vanishes as n grows, "
        "so convergence in probability is unaffected.")


def product() -> StepResult:
    """s4: Slutsky (argued)."""
    return CLAIM.argued(
        "s4-product", "proof",
        "The product of two sequences converging in probability converges to the product (Slutsky; lines 985-986). "
        "The limit it gives is Eq. (1)'s drop (s5), and the subject's drops approach it (s7).")


def limit_is_eq1() -> StepResult:
    """s5: lemma1_limit against the referee's exact drop (Eq. 1), on every black box, candidate and p."""
    holds, seen = _limit_is_eq1()
    return CLAIM.checked(
        "s5-limit-is-eq1", "proof", "exhaustive",
        "E[f 1{c not in x}] / P(c not in x) = E[f | c not in x], so the limit is Delta_c of Eq. (1): "
        f"analytic.lemma1_limit equals the referee's exact drop on {seen['cases']} (black box, candidate, p) cases, "
        f"largest difference {seen['largest_difference']:.1e}.", holds=holds, values=seen)


def rate_condition() -> StepResult:
    """s6: the delta-method variance by enumeration, and the cases where it does not grow with |c|."""
    holds, seen = _variance_rate()
    return CLAIM.checked(
        "s6-rate-condition", "proof", "exhaustive",
        "The delta-method variance is sigma^2 = Var f + Var(f | c perturbed) (1/p^|c| - 2) and the error is of order "
        "sqrt(sigma^2/n); sigma^2 grows like 1/p^|c| (the error like p^(-|c|/2)/sqrt(n)) only when Var(f | c "
        "perturbed) > 0; when f is constant given c perturbed (a shortcut word of J fully perturbed) sigma^2 = Var f "
        "and the error is of order sqrt(Var f / n) whatever |c|. Not part of the lemma, which states no rate (line "
        f"281). Checked by enumeration on {seen['cases']} (model, candidate, p) cases, "
        f"{len(seen['zero_conditional_variance_cases'])} of them with Var(f | c) = 0.", holds=holds, values=seen)


def subject_monte_carlo() -> StepResult:
    """s7: the subject's own drops against the exact limit, within Hoeffding tolerances (statistical)."""
    note, seen = monte_carlo(black_boxes(), statistical_seed(SEED),
                             "a Ridge, a LogisticRegression and a fitted DecisionTreeClassifier")
    return CLAIM.checked(
        "s7-monte-carlo", "statement", "statistical",
        note + (f" Failures: {seen['failures'][:3]}" if seen["failures"] else ""),
        holds=not seen["failures"], values=seen)
