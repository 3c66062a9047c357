"""Eq. (1), the drop of a candidate, as a chain of equalities: E[f] - E[f | c not in x] = E[d(x) | c not in x] =
E_c[d(x)], with the drop in prediction d(x) = E[f] - f(x) of line 246.

The chain is checked as an identity of rational functions of p and of every value of f on the 2^b patterns (b = 1..4,
every non-empty candidate), in the field QQ(p, f_0, ..., f_{2^b - 1}); the step to any b is sympy's linearity of a
finite sum. The same computation checks the exact referee of this project (``analytic.all_drops_rational``, superset
sums) against Eq. (1) written out, and Lemma 1's form of the limit (line 283, P(c not in x) = p^|c|).

Line 253 glosses Eq. (1) as "the expected drop in prediction when a candidate is removed from the original document
xi". Read with line 246's drop in prediction (measured from E[f]) it is the chain itself (headline). Read as a drop
from f(xi), the prediction on the original document (what the authors' released code measures,
``fred_constants.RELEASED_BASELINE``), it is f(xi) - E[f | c not in x], which differs from Eq. (1) by f(xi) - E[f]
(computed), nonzero on the smallest table.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp
from sympy import QQ, field

from analytic import all_drops_rational
from analytic.patterns import positions_of
from fred_constants import P_EXACT, RELEASED_BASELINE

from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses

CLAIM = Claim("eq1-drop-chain", new=True)
CHAIN = Quote(250, r"\candrop_\candidate \defeq \expec{f(x)} - \expec{f(x) | \candidate \notin x} = "
                   r"\expec{\drop(x) | \candidate \notin x} = \expecunder{\drop(x)}{c} \,,")
DROP = Quote(246, r"For any sample $x$, we define this quantity as $\drop(x) \defeq \expec{\model(x)} - \model(x)$, "
                  r"where $\expec{\model(x)}$ is the expected prediction under the sampling distribution")
GLOSS = Quote(253, r"that is, the expected drop in prediction when a candidate is removed from the original document "
                   r"$\xi$.")
SOURCE = (
    CHAIN, DROP, GLOSS,
    Quote(254, r"In essence, using Eq.~\eqref{eq:drop-candidate}, we attribute to any candidate the drop in prediction "
               r"of samples where the candidate is perturbed."),
    Quote(245, r"To assess the impact of removing specific words on model predictions, we introduce the key concept of "
               r"\emph{drop in prediction}."),
    Quote(255, r"it causes the average prediction $\expec{\model(x)}$ to drop by a significant amount"),
    Quote(1012, r"\candrop_\candidate & = \expecunder{\drop(x)}{c} = \expec{\model(x)} - \expecunder{\model(x)}{c}"),
    Quote(283, r"\expec{\model(x)} -\frac{\expec{\model(x) \indic{\candidate \notin x}}}{\proba{\candidate "
               r"\notin x}} \,."),
    Quote(240, r"Finally, we define a \emph{candidate} explanation as any non-empty ordered sublist of $[b]$"),
)
READINGS = (
    Reading("from-mean", "headline",
            "line 253's 'expected drop in prediction' is the expectation of line 246's drop in prediction d(x) = "
            "E[f] - f(x) over the samples where c is perturbed: the chain of Eq. (1) itself, the drop measured from "
            "the average prediction E[f] (line 255: 'it causes the average prediction E[f(x)] to drop').",
            why=(DROP, Quote(253, "that is, the expected drop in prediction"), SOURCE[5])),
    Reading("from-xi", "alternative",
            "line 253's 'drop ... when a candidate is removed from the original document xi' read as a drop from "
            "the prediction on xi: Delta_c = f(xi) - E[f | c not in x] (the released code's baseline f(xi)).",
            why=(Quote(253, r"when a candidate is removed from the original document $\xi$"),)),
)
STATEMENT = (
    "Eq. (1) (lines 250-251): Delta_c := E[f(x)] - E[f(x) | c not in x] = E[d(x) | c not in x] = E_c[d(x)], with "
    "d(x) := E[f(x)] - f(x) (line 246), 'that is, the expected drop in prediction when a candidate is removed from "
    "the original document xi' (line 253). 'c not in x' means that every token of c is perturbed in x (line 254), an "
    "event of probability p^|c| > 0; E_c[.] is read as E[. | c not in x], the only reading under which line 1012 "
    "uses it (E_c[d] = E[f] - E_c[f])."
)
CONDITIONS = (
    "Any black box f (a table of its values on the 2^b perturbation patterns), p in (0, 1), tokens perturbed i.i.d. "
    "with probability p, c a non-empty set of positions (line 240). Checked as an identity of rational functions of "
    "p and of all 2^b table entries for b = 1..4 and every candidate (s1), and for any b by linearity of a finite sum "
    "(s2). The 'from-xi' reading of line 253 is reported beside the headline; its counterexample is the smallest "
    "table of 0/1 values."
)
#: The documents of the exhaustive identity check: b = 1..4 tokens, every non-empty candidate.
B_RANGE = (1, 2, 3, 4)


def check() -> ClaimResult:
    """The chain on every table (a field of rational functions), the step to any b, and the 'from-xi' reading."""
    cases = [case for b in B_RANGE for case in _chain_cases(b)]
    steps = (chain_on_every_table(cases), chain_for_any_b(), from_xi_counterexample(cases))
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)


def _weights(p, b: int) -> list:
    """P(pattern) = p^k (1 - p)^(b - k), k its perturbed positions, in the arithmetic of ``p``."""
    return [p ** z.bit_count() * (1 - p) ** (b - z.bit_count()) for z in range(2**b)]


def _sides(f: list, p, b: int, code: int, w: list | None = None) -> dict:
    """Eq. (1)'s members for the candidate ``code``, written out over the patterns that perturb all of it (``w``: the
    pattern weights, computed when not given)."""
    w = _weights(p, b) if w is None else w
    mean = sum(wi * fi for wi, fi in zip(w, f))
    rows = [z for z in range(2**b) if z & code == code]
    mass = sum(w[z] for z in rows)
    conditional = sum(w[z] * f[z] for z in rows) / mass
    return {"mass": mass, "mean": mean, "conditional": conditional, "first": mean - conditional,
            "second": sum(w[z] * (mean - f[z]) for z in rows) / mass,  # E[d(x) | c not in x], d of line 246
            "lemma1": mean - sum(w[z] * f[z] for z in rows) / p ** code.bit_count()}


def _chain_cases(b: int) -> list[dict]:
    """Every candidate of a b-token document: each member of the chain equal, in QQ(p, f_0, ..., f_{2^b - 1})."""
    _, p, *f = field(["p"] + [f"f{z}" for z in range(2**b)], QQ)
    _, referee = all_drops_rational(list(f), p)
    w, out = _weights(p, b), []
    for code in range(1, 2**b):
        s = _sides(f, p, b, code, w)
        out.append({"b": b, "candidate": list(positions_of(code)),
                    "mass_is_p_power": s["mass"] == p ** code.bit_count(),
                    "first_equals_second": s["first"] == s["second"], "lemma1_form": s["first"] == s["lemma1"],
                    "referee_agrees": referee[positions_of(code)] == s["first"],
                    # the drop from f(xi) exceeds Delta_c by f(xi) - E[f] (the 'from-xi' reading)
                    "from_xi_offset": (f[0] - s["conditional"]) - s["first"] == f[0] - s["mean"]})
    return out


def chain_on_every_table(cases: list[dict]) -> StepResult:
    """s1: E[f] - E[f | c] = E[d | c] (d = E[f] - f), P(c not in x) = p^|c|, Lemma 1's form and the referee, as
    identities of rational functions of p and of every table entry, b = 1..4, every non-empty candidate."""
    keys = ("mass_is_p_power", "first_equals_second", "lemma1_form", "referee_agrees")
    failed = [c for c in cases if not all(c[k] for k in keys)]
    return CLAIM.checked(
        "s1-chain-every-table", "statement", "symbolic",
        f"In the field QQ(p, f_0, ..., f_(2^b - 1)) (p and every value of f on the 2^b patterns symbols), for b = "
        f"{B_RANGE[0]}..{B_RANGE[-1]} and each of the {len(cases)} non-empty candidates: P(c not in x) = p^|c|, "
        "E[f] - E[f | c not in x] = E[d(x) | c not in x] with line 246's d(x) = E[f] - f(x), both equal to Lemma 1's "
        "E[f] - E[f 1{c not in x}] / p^|c| (line 283) and to the exact referee's drop (analytic.all_drops_rational, "
        f"superset sums). Candidates where one equality fails: {len(failed)}.",
        holds=not failed, values={"b": list(B_RANGE), "cases": len(cases), "failed": failed,
                                  "identities": list(keys)})


def chain_for_any_b() -> StepResult:
    """s2: for any finite pattern space, sum w 1{c} (mu - f) = mu sum w 1{c} - sum w 1{c} f (sympy), so
    E[d | c] = (mu W - S) / W = mu - S / W = E[f] - E[f | c] whenever W = P(c not in x) > 0."""
    i, n = sp.symbols("i N", integer=True, positive=True)
    mu, big_s = sp.Symbol("mu", real=True), sp.Symbol("S", real=True)
    big_w = sp.Symbol("W", positive=True)
    f, w, ind = sp.Function("f"), sp.Function("w"), sp.Function("I")
    linear = sp.simplify(sp.Sum(w(i) * ind(i) * (mu - f(i)), (i, 1, n)) - (
        mu * sp.Sum(w(i) * ind(i), (i, 1, n)) - sp.Sum(w(i) * ind(i) * f(i), (i, 1, n))))
    ratio = sp.simplify((mu * big_w - big_s) / big_w - (mu - big_s / big_w))
    return CLAIM.checked(
        "s2-chain-any-b", "proof", "symbolic",
        "For any b (N = 2^b patterns, weights w, indicator I of 'c not in x'): sum_i w_i I_i (mu - f_i) - (mu sum_i "
        f"w_i I_i - sum_i w_i I_i f_i) simplifies to {linear} (sympy, symbolic N), and with W = sum w I = P(c not in "
        f"x) > 0 and S = sum w I f: (mu W - S) / W - (mu - S / W) = {ratio}. So E[d(x) | c not in x] = E[f] - "
        "E[f | c not in x] for every b and every black box; the last member E_c[d(x)] is the same conditional "
        "expectation written with line 1012's notation.",
        holds=linear == 0 and ratio == 0, values={"linearity_residual": str(linear), "ratio_residual": str(ratio)})


def _smallest_from_xi_case() -> dict:
    """The first table (b = 1, then 0/1 entries in code order) at p = 1/2 on which the 'from xi' drop of c = {0}
    differs from Eq. (1)'s."""
    for table in itertools.product((0, 1), repeat=2):
        f = [Fraction(v) for v in table]
        s = _sides(f, P_EXACT, 1, 1)
        from_xi = f[0] - s["conditional"]
        if from_xi != s["first"]:
            return {"b": 1, "p": str(P_EXACT), "table_by_code": list(table), "candidate": [0],
                    "eq1_drop": str(s["first"]), "drop_from_f_xi": str(from_xi), "E_f": str(s["mean"]),
                    "f_xi": str(f[0]), "tables_before": [list(t) for t in itertools.product((0, 1), repeat=2)
                                                         if t < table],
                    **hypotheses(confidence_score=all(0 <= v <= 1 for v in f), p_in_open_unit=0 < P_EXACT < 1,
                                 candidate_non_empty=len([0]) >= 1)}
    raise AssertionError("every 0/1 table of one token has f(xi) = E[f]")


def from_xi_counterexample(cases: list[dict]) -> StepResult:
    """s3 (from-xi): the smallest table on which Eq. (1) is not the drop from f(xi), and the offset f(xi) - E[f]
    between the two on every table (an identity, b = 1..4)."""
    offsets = [c["from_xi_offset"] for c in cases]
    case = {**_smallest_from_xi_case(), "offset_identity_cases": len(offsets), "offset_identity_holds": sum(offsets)}
    return CLAIM.checked(
        "s3-from-xi-counterexample", "statement", "counterexample",
        f"Smallest case (b = 1 first, then 0/1 tables in code order, p = 1/2, c = {{0}}): f = {case['table_by_code']} "
        f"(f(xi) = {case['f_xi']}, E[f] = {case['E_f']}). Eq. (1) gives Delta_c = {case['eq1_drop']}, the drop from "
        f"f(xi) is {case['drop_from_f_xi']}: read from f(xi), line 253's gloss is not Eq. (1). The table before it "
        f"({case['tables_before']}) has f(xi) = E[f]. Inside the hypotheses: f a confidence score in [0, 1] (line "
        "233), p in (0, 1), c non-empty (computed). In general the drop from f(xi) (the released code's baseline "
        f"'{RELEASED_BASELINE}') exceeds Delta_c by f(xi) - E[f]: an identity in p and the table for b = "
        f"{B_RANGE[0]}..{B_RANGE[-1]} ({case['offset_identity_holds']} of {case['offset_identity_cases']} "
        "candidates), so the two agree only on tables with f(xi) = E[f].",
        holds=case["eq1_drop"] == case["drop_from_f_xi"], values=case, reading="from-xi")
