"""The symbolic steps of the proof of Proposition 1 on the linear model of Eq. (6): the paper's and this project's.

The drop of a position set S on f = lambda_0 + sum_i a_i K_i (K_i = 1 when position i is kept, a_i = lambda_j idf_j
of the word at position i; mask = removal, line 478) is enumerated over all 2^b keep/perturb patterns with
symbolic a_i, lambda_0 and p (:func:`analytic.all_drops_rational`), p the main text's perturbation probability
(lines 334, 404), and compared with closed forms in sympy.

The proof (appendix, lines 1015-1017) writes E[M_j] = p m_j, E[M_i | c] = p (m_i - 1) with the tag M_i ~ B(m_i - c_i,
p), and Delta_c = p sum_j lambda_j idf_j c_j; the proof of Prop. 2 writes P(M_j = 0 | c) = (1 - p)^{m_j - c_j}
(line 1036). Each expression is compared with the enumeration under both readings of its p:

* the appendix's own use, p the probability of *keeping* a token (the main text's 1 - p): every expression is
  right for every p except the line p (m_i - 1), which is right only at c_i = 1 (its tag's p (m_i - c_i) is right);
* the main text's p, the probability of *perturbing* a token: each is right only at p = 1/2 (the paper's default,
  line 402), since the appendix never says that its p is the main text's 1 - p.

Used by the claims prop1-linear (the proof's steps) and importance-linear (the singleton drops, Eq. 5).
"""

from __future__ import annotations

import functools
import itertools
import json
from fractions import Fraction

import sympy as sp

from analytic import all_drops_rational, kept_count_sym, linear_table, linear_table_rational, table_classifier
from analytic.exact_cache import exact_cache
from fred_constants import P_EXACT

from ...subject.explainer import explainer
from ...verdicts.results import Claim, Quote, StepResult, hypotheses

MAX_SYMBOLIC_TOKENS = 3
MAX_MULTIPLICITY = 4
#: The one-token grid searched for an instance of the main-text reading's error, in the order "smaller" refers to.
SLIP_WEIGHTS = (Fraction(1), Fraction(2), Fraction(-1))
SLIP_PS = (Fraction(1, 2), Fraction(1, 4), Fraction(3, 4), Fraction(1, 10), Fraction(9, 10))
#: The proof's p read as the keep probability (the appendix's use) or as the perturbation probability (the main
#: text's), as a function of the main text's p.
READINGS_OF_P = {"keep": lambda p: 1 - p, "perturb": lambda p: p}


@functools.lru_cache(maxsize=None)
def symbolic_drops(b: int):
    """(a_1..a_b, lambda_0, p, E[f], {S: Delta_S}) with symbolic a, lambda_0, p, by enumerating the 2^b patterns."""
    p, l0 = sp.symbols("p lambda0")
    a = sp.symbols(f"a1:{b + 1}")
    mean, drops = all_drops_rational(linear_table_rational(a, l0), p)
    return a, l0, p, mean, drops


def drop_residuals(constant) -> list[tuple[int, tuple[int, ...], sp.Expr]]:
    """(b, S, Delta_S - constant(p) sum_{i in S} a_i) for every S, b <= :data:`MAX_SYMBOLIC_TOKENS`, factored.

    ``constant`` maps the main text's p (perturbation probability) to the factor the drop is compared with:
    ``lambda p: 1 - p`` (the exact drop; the proof's line 1017 with its p read as the keep probability) or
    ``lambda p: p`` (line 1017 with its p read as the main text's)."""
    out = []
    for b in range(1, MAX_SYMBOLIC_TOKENS + 1):
        a, _, p, _, drops = symbolic_drops(b)
        for s, drop in drops.items():
            out.append((b, s, sp.factor(sp.cancel(drop - constant(p) * sum(a[i] for i in s)))))
    return out


@exact_cache  # no explainer: the same for every subject (sympy expressions are immutable)
def reading_residuals(reading: str) -> tuple[tuple[int, tuple[int, ...], sp.Expr], ...]:
    """:func:`drop_residuals` with the factor of ``reading`` (a key of :data:`READINGS_OF_P`), computed once."""
    return tuple(drop_residuals(READINGS_OF_P[reading]))


def _residuals(enumerated, written, p) -> dict[str, sp.Expr]:
    """enumerated - written(proof's p) for each reading of the proof's p (:data:`READINGS_OF_P`), factored."""
    return {name: sp.factor(sp.expand(enumerated - written(as_p(p)))) for name, as_p in READINGS_OF_P.items()}


def paper_expected_multiplicity() -> tuple[bool, dict]:
    """E[M_j] by enumerating patterns (kept_count_sym) against the proof's p m_j (line 1015); holds when it is
    right for every p with the proof's p read as the keep probability."""
    p = sp.Symbol("p")
    rows = [(m, kept_count_sym(m, 0, p), _residuals(kept_count_sym(m, 0, p), lambda x, m=m: x * m, p))
            for m in range(1, MAX_MULTIPLICITY + 1)]
    return all(r["keep"] == 0 for _, _, r in rows), {
        "m": [m for m, _, _ in rows], "enumerated_in_main_text_p": [str(e) for _, e, _ in rows],
        "written": "p*m_j", "residual_p_as_keep_probability": [str(r["keep"]) for _, _, r in rows],
        "residual_p_as_perturbation_probability": [str(r["perturb"]) for _, _, r in rows]}


def paper_conditional_multiplicity() -> tuple[bool, dict]:
    """E[M_i | c_i of its occurrences perturbed] by enumeration against the proof's line, p (m_i - 1), and its
    tag, M_i ~ B(m_i - c_i, p) of mean p (m_i - c_i) (line 1016), under both readings of p; holds when the line
    and the tag are right for every p with p read as the keep probability."""
    p = sp.Symbol("p")
    rows = []
    for m in range(1, MAX_MULTIPLICITY + 1):
        for c in range(1, m + 1):
            got = kept_count_sym(m, c, p)
            line = _residuals(got, lambda x, m=m: x * (m - 1), p)
            tag = _residuals(got, lambda x, m=m, c=c: x * (m - c), p)
            rows.append({"m": m, "c": c, "enumerated_in_main_text_p": str(got),
                         **{f"{what}_equal_p_as_{name}": bool(r[name] == 0)
                            for what, r in (("line", line), ("tag", tag)) for name in READINGS_OF_P}})
    where = {key: [(r["m"], r["c"]) for r in rows if r[key]] for key in rows[0] if key.endswith(("keep", "perturb"))}
    # Which of the two gives line 1017's per-word term p c_i: p m_i - E[M_i | c] with the line's or the tag's value.
    x, m_i, c_i = sp.symbols("p m_i c_i")
    carried = {"line": sp.expand(x * m_i - x * (m_i - 1)), "tag": sp.expand(x * m_i - x * (m_i - c_i))}
    return all(r["line_equal_p_as_keep"] and r["tag_equal_p_as_keep"] for r in rows), {
        "cases": rows, "equal_at": where, "per_word_term_from": {k: str(v) for k, v in carried.items()},
        "line_1017_follows_from": [k for k, v in carried.items() if sp.expand(v - x * c_i) == 0]}


def _none_kept(m: int, c: int, p) -> sp.Expr:
    """P(M_j = 0 | c_j of the m_j occurrences perturbed), enumerating the patterns of the other m_j - c_j."""
    return sp.expand(sum(sp.Mul(*[p if zi else 1 - p for zi in z])
                         for z in itertools.product((0, 1), repeat=m - c) if all(z)))


def paper_zero_probability() -> tuple[bool, dict]:
    """P(M_j = 0 | c) by enumeration against the proof of Prop. 2's (1 - p)^{m_j - c_j} (line 1036), under both
    readings of p; holds when it is right for every p with p read as the keep probability."""
    p = sp.Symbol("p")
    rows = []
    for m in range(1, MAX_MULTIPLICITY + 1):
        for c in range(m + 1):
            r = _residuals(_none_kept(m, c, p), lambda x, m=m, c=c: (1 - x) ** (m - c), p)
            rows.append({"m": m, "c": c, **{f"equal_p_as_{name}": bool(r[name] == 0) for name in READINGS_OF_P}})
    return all(r["equal_p_as_keep"] for r in rows), {
        "cases": len(rows), "equal_p_as_keep_at": [(r["m"], r["c"]) for r in rows if r["equal_p_as_keep"]],
        "equal_p_as_perturb_at": [(r["m"], r["c"]) for r in rows if r["equal_p_as_perturb"]]}


def paper_drop_formula() -> tuple[bool, dict]:
    """The proof's Delta_c = p sum a_i c_i (line 1017) against the enumerated drop, b <= 3, every S, under both
    readings of p; holds when it is right for every p with p read as the keep probability."""
    rows = {name: [str(r) for _, _, r in reading_residuals(name)] for name in READINGS_OF_P}
    out = {name: [r for r in residuals if r != "0"] for name, residuals in rows.items()}
    return not out["keep"], {"max_tokens": MAX_SYMBOLIC_TOKENS, "sets": len(rows["keep"]),
                             "nonzero_residuals_p_as_keep_probability": len(out["keep"]),
                             "nonzero_residuals_p_as_perturbation_probability": len(out["perturb"]),
                             "example_residual_p_as_perturbation_probability": out["perturb"][:1]}


def kept_multiplicity() -> tuple[bool, dict]:
    """E[M_j | c_j perturbed] = (1 - p)(m_j - c_j) by enumeration, m_j <= 5, every c_j."""
    p = sp.Symbol("p")
    bad = [(m, c) for m in range(1, 6) for c in range(m + 1) if sp.expand(kept_count_sym(m, c, p) - (1 - p) * (m - c))]
    return not bad, {"max_multiplicity": 5, "cases": sum(m + 1 for m in range(1, 6)), "mismatches": bad}


def drop_formula() -> tuple[bool, dict]:
    """Enumerated drop = (1 - p) sum_{i in S} a_i for symbolic a, lambda_0, p, every S, b <= 3."""
    rows = reading_residuals("keep")
    bad = [[b, list(s)] for b, s, r in rows if r != 0]
    return not bad, {"max_tokens": MAX_SYMBOLIC_TOKENS, "sets": len(rows), "mismatches": bad}


@exact_cache(copy=True)  # no explainer: the same for every subject (each call gets its own copy)
def removal() -> tuple[bool, dict]:
    """Delta_S - Delta_{S minus i} = (1 - p) a_i (enumerated drops, every S with |S| >= 2, b <= 3), which is
    < 0 for a_i = -u, u > 0, 0 < p < 1 (sympy decides the sign with 1 - p = q > 0)."""
    bad, count = [], 0
    for b in range(2, MAX_SYMBOLIC_TOKENS + 1):
        a, _, p, _, drops = symbolic_drops(b)
        for s, drop in drops.items():
            for i in s if len(s) >= 2 else ():
                count += 1
                rest = tuple(j for j in s if j != i)
                if sp.cancel(drop - drops[rest] - (1 - p) * a[i]) != 0:
                    bad.append([b, list(s), i])
    u, q = sp.symbols("u q", positive=True)
    sign = (q * (-u)).is_negative  # (1 - p) a_i with 1 - p = q > 0, a_i = -u
    return not bad and sign is True, {"max_tokens": MAX_SYMBOLIC_TOKENS, "pairs": count, "mismatches": bad,
                                      "negative_weight_lowers_the_drop": sign}


def size_one() -> tuple[bool, dict]:
    """(a) a negative singleton misses eps E[f] when E[f] >= 0; (b) all weights negative and f(xi) > 0 give
    E[f] > 0, from E[f] - f(xi) = -p sum a_i (enumerated, b <= 3)."""
    u, q, eps = sp.symbols("u q epsilon", positive=True)
    e0 = sp.Symbol("e0", nonnegative=True)
    below = (q * (-u) - eps * e0).is_negative  # (1 - p) a_i - eps E[f], a_i = -u, E[f] = e0 >= 0
    identities = []
    for b in range(1, MAX_SYMBOLIC_TOKENS + 1):
        a, l0, p, mean, _ = symbolic_drops(b)
        identities.append(sp.expand(mean - (l0 + sum(a)) + p * sum(a)) == 0)
    us = sp.symbols("u1:4", positive=True)
    p_pos = sp.Symbol("p", positive=True)
    raised = (-p_pos * sum(-x for x in us)).is_positive  # E[f] - f(xi) = -p sum a_i with a_i = -u_i
    return below is True and all(identities) and raised is True, {
        "negative_singleton_below_threshold_when_mean_nonnegative": below,
        "mean_minus_original_is_minus_p_sum_a": identities, "all_negative_weights_raise_the_mean": raised}


def _one_token_drop(a: Fraction, p: Fraction) -> Fraction:
    return all_drops_rational(linear_table_rational([a]), p)[1][(0,)]


def main_text_p_instance() -> dict:
    """The first one-token case, in the order of :data:`SLIP_WEIGHTS` then :data:`SLIP_PS` (the main text's p),
    whose exact drop (= s_1 of Eq. 5) differs from the proof's p a read with the main text's p; exact rationals and
    Fred(sampler='exact'). The same formula with the proof's p read as the keep probability, (1 - p) a, is recorded
    beside it.

    Every earlier grid point is evaluated, so the case is minimal in that order. The record of the proof's own
    hypotheses on the case (:func:`proofs_checks.verdicts.results.hypotheses`) is merged in; ``at_the_papers_p`` says
    whether p is the paper's p = 1/2 (line 402), where the two readings of p coincide."""
    order = list(itertools.product(SLIP_WEIGHTS, SLIP_PS))
    at = next(k for k, (a, p) in enumerate(order) if _one_token_drop(a, p) != p * a)
    a, p = order[at]
    exact = _one_token_drop(a, p)
    fred = explainer(table_classifier(["w"], linear_table([float(a)])), exact=True).explain("w", p=float(p), eps=1.0)
    return {**hypotheses(p_strictly_between_0_and_1=0 < p < 1, classified_positive=a > 0),
            "document": "w", "position_weight": float(a), "position_weight_rational": str(a), "intercept": 0.0,
            "p": float(p), "p_exact": str(p), "at_the_papers_p": p == P_EXACT, "candidate": ["w"],
            "main_text_p_drop": float(p * a), "main_text_p_drop_rational": str(p * a),
            "main_text_p_drop_is_exact": exact == p * a, "keep_probability": str(1 - p),
            "keep_probability_drop_rational": str((1 - p) * a), "keep_probability_drop_is_exact": exact == (1 - p) * a,
            "exact_drop": float(exact), "exact_drop_rational": str(exact),
            "fred_exact_drop": float(fred.importances[0]),
            "smaller_means": f"earlier in the one-token grid: weights {[str(x) for x in SLIP_WEIGHTS]}, then p "
                             f"{[str(x) for x in SLIP_PS]}", "smaller_points_checked": at}


def paper_proof_steps(claim: Claim) -> tuple[StepResult, ...]:
    """The paper's proof of Prop. 1 (lines 1012-1017) step by step, under both readings of its p: role
    "paper-proof" (reported, deciding no verdict). s1-s3 hold when the step is right with p the keep probability
    (the appendix's use); s4 records whether the appendix's p is the main text's."""
    multiplicity, conditional = paper_expected_multiplicity(), paper_conditional_multiplicity()
    drop = paper_drop_formula()
    return (expected_multiplicity_as_written(claim, multiplicity),
            conditional_multiplicity_as_written(claim, conditional), drop_formula_as_written(claim, drop),
            same_p_as_the_main_text(claim, multiplicity, conditional, drop), third_equality_as_written(claim),
            bracket_of_line_1015_as_written(claim))


def expected_multiplicity_as_written(claim: Claim, multiplicity: tuple[bool, dict]) -> StepResult:
    """s1: the proof's E[M_j] = p m_j (line 1015) against the enumeration, under both readings of p."""
    holds, seen = multiplicity
    return claim.checked(
        "s1-expected-multiplicity", "paper-proof", "symbolic",
        "The proof's E[M_j] = p m_j (line 1015) against E[M_j] enumerated over the keep/perturb patterns of "
        f"m_j = 1..{MAX_MULTIPLICITY} occurrences: with p the keep probability, as the appendix uses p (line "
        f"1016's tag, line 1036), the residuals are {seen['residual_p_as_keep_probability']}: right for "
        "every p. With p the main text's perturbation probability (lines 334, 404) they are "
        f"{seen['residual_p_as_perturbation_probability']}, zero only at p = 1/2 (step s4).",
        holds=holds, values=seen)


def conditional_multiplicity_as_written(claim: Claim, conditional: tuple[bool, dict]) -> StepResult:
    """s2: line 1016's E[M_i | c] = p (m_i - 1) and its tag's p (m_i - c_i) against the enumeration."""
    holds, seen = conditional
    at = seen["equal_at"]
    return claim.checked(
        "s2-conditional-multiplicity", "paper-proof", "symbolic",
        "Line 1016 writes E[M_i | c] = p (m_i - 1) with the tag M_i ~ B(m_i - c_i, p), of mean p (m_i - c_i); "
        f"enumerated over the {len(seen['cases'])} cases 1 <= c_i <= m_i <= {MAX_MULTIPLICITY}, with p "
        f"the keep probability the tag is right in {len(at['tag_equal_p_as_keep'])} of them and the line "
        "only at (m_i, c_i) in "
        f"{at['line_equal_p_as_keep']} (c_i = 1): the one slip in the algebra of lines 1015-1017, "
        "p (m_i - 1) for p (m_i - c_i). Line 1017's per-word term p c_i follows from "
        f"{seen['line_1017_follows_from']} "
        f"(p m_i - E[M_i | c] is {seen['per_word_term_from']}), so the slip does not reach the drop "
        "formula. With the main text's p the tag is right only at "
        f"{at['tag_equal_p_as_perturb']} (no occurrence left).",
        holds=holds, values=seen)


def drop_formula_as_written(claim: Claim, drop: tuple[bool, dict]) -> StepResult:
    """s3: the proof's Delta_c = p sum lambda_j idf_j c_j (line 1017) against the enumerated drop, with the smallest
    one-token instance of the main-text reading's error."""
    holds, seen = drop
    instance = main_text_p_instance()
    shown = {k: instance[k] for k in ("document", "position_weight_rational", "p_exact", "main_text_p_drop_rational",
                                      "keep_probability", "keep_probability_drop_rational", "exact_drop_rational",
                                      "fred_exact_drop")}
    return claim.checked(
        "s3-drop-formula", "paper-proof", "symbolic",
        "The proof's Delta_c = p sum_j lambda_j idf_j c_j (line 1017) against the drop enumerated over every "
        f"pattern (symbolic a, lambda_0, p, b <= {MAX_SYMBOLIC_TOKENS}, all {seen['sets']} sets): with p "
        f"the keep probability, {seen['nonzero_residuals_p_as_keep_probability']} sets differ: right for "
        "every p. With the main text's p, "
        f"{seen['nonzero_residuals_p_as_perturbation_probability']} differ, e.g. residual "
        f"{seen['example_residual_p_as_perturbation_probability']}; smallest one-token instance "
        f"(Fred(sampler='exact')): {json.dumps(shown)}.",
        holds=holds, values={**seen, "instance": instance})


def same_p_as_the_main_text(claim: Claim, multiplicity: tuple[bool, dict], conditional: tuple[bool, dict],
                            drop: tuple[bool, dict]) -> StepResult:
    """s4: is the appendix's p the main text's? Each expression of s1-s3 and line 1036, right for every p under
    each reading of p."""
    (m_ok, m_values), (_, c_values), (d_ok, d_values) = multiplicity, conditional, drop
    z_ok, z_values = paper_zero_probability()
    at = c_values["equal_at"]
    main_text = {"expected_multiplicity_1015": all(r == "0"
                                                   for r in m_values["residual_p_as_perturbation_probability"]),
                 "tag_1016": len(at["tag_equal_p_as_perturb"]) == len(c_values["cases"]),
                 "drop_1017": d_values["nonzero_residuals_p_as_perturbation_probability"] == 0,
                 "zero_probability_1036": len(z_values["equal_p_as_perturb_at"]) == z_values["cases"]}
    keep = {"expected_multiplicity_1015": m_ok, "tag_1016": len(at["tag_equal_p_as_keep"]) == len(c_values["cases"]),
            "drop_1017": d_ok, "zero_probability_1036": z_ok}
    return claim.checked(
        "s4-same-p-as-the-main-text", "paper-proof", "symbolic",
        "Is the appendix's p the main text's, the probability of perturbing a token (lines 334, 404)? Each of "
        "the appendix's expressions E[M_j] = p m_j (1015), M_i ~ B(m_i - c_i, p) (1016), Delta_c = p sum "
        "lambda_i idf_i c_i (1017) and P(M_j = 0 | c) = (1 - p)^{m_j - c_j} (1036, proof of Prop. 2) is "
        f"right for every p read as the keep probability ({sum(keep.values())} of {len(keep)}: {keep}); read "
        f"as the perturbation probability, {sum(main_text.values())} of {len(main_text)} are right for every "
        f"p ({main_text}): each holds only at p = 1/2 (or with no occurrence left). The appendix uses p for "
        "the main text's 1 - p without saying so; at the paper's p = 1/2 (line 402) the two coincide.",
        holds=all(main_text.values()), values={"right_for_every_p_as_keep_probability": keep,
                                               "right_for_every_p_as_perturbation_probability": main_text,
                                               "zero_probability": z_values})


#: The words configurations of lines 1012 and 1015 are checked on: up to two words, each of multiplicity <= 2
#: (at most 4 positions, enumerated symbolically), every non-empty candidate c with 0 <= c_j <= m_j.
LINE_1015_MAX_MULTIPLICITY = 2


def _word_configurations() -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(m, c) for d in {1, 2} words, 1 <= m_j <= :data:`LINE_1015_MAX_MULTIPLICITY`, 0 <= c_j <= m_j, c != 0."""
    out = []
    for d in (1, 2):
        for m in itertools.product(range(1, LINE_1015_MAX_MULTIPLICITY + 1), repeat=d):
            out += [(m, c) for c in itertools.product(*(range(k + 1) for k in m)) if any(c)]
    return out


def _word_drop(m: tuple[int, ...], c: tuple[int, ...], a, p) -> sp.Expr:
    """The drop of perturbing the first c_j occurrences of each word j, enumerated over the 2^(sum m) patterns of
    the positions (word j repeated m_j times with weight a_j; symbolic a, lambda_0 cancels)."""
    weights = [a[j] for j, k in enumerate(m) for _ in range(k)]
    starts = [sum(m[:j]) for j in range(len(m))]
    chosen = tuple(sorted(starts[j] + i for j in range(len(m)) for i in range(c[j])))
    return sp.expand(all_drops_rational(linear_table_rational(weights, sp.Symbol("lambda0")), p)[1][chosen])


def paper_line_1015_unconditional() -> tuple[bool, dict]:
    """Line 1015's bracket as printed, sum_{c_j = 0} a_j E[M_j] + sum_{c_i != 0} a_i E[M_i] with the
    unconditional E[M_i], against the drop enumerated on every (m, c) of :func:`_word_configurations`; and the same
    line with the conditional E_c[M_i] (enumerated by kept_count_sym), under each reading of the proof's p. Holds
    when the printed line equals the drop."""
    p, rows = sp.Symbol("p"), []
    for m, c in _word_configurations():
        a = sp.symbols(f"a1:{len(m) + 1}")
        drop = _word_drop(m, c, a, p)
        for name, as_p in READINGS_OF_P.items():
            first = sum(a[j] * as_p(p) * m[j] for j in range(len(m)))  # sum_j lambda_j idf_j p m_j
            printed = sp.expand(first - sum(a[j] * kept_count_sym(m[j], 0, p) for j in range(len(m))))
            conditional = sp.expand(first - sum(a[j] * kept_count_sym(m[j], c[j], p) for j in range(len(m))))
            rows.append({"m": list(m), "c": list(c), "reading_of_p": name, "enumerated_drop": str(drop),
                         "printed": str(printed), "printed_is_zero": printed == 0,
                         "printed_equals_drop": sp.expand(printed - drop) == 0,
                         "conditional_equals_drop": sp.expand(conditional - drop) == 0})
    keep = [r for r in rows if r["reading_of_p"] == "keep"]
    return all(r["printed_equals_drop"] for r in keep), {
        "configurations": len(keep), "max_words": 2, "max_multiplicity": LINE_1015_MAX_MULTIPLICITY,
        "printed_zero_p_as_keep": sum(r["printed_is_zero"] for r in keep),
        "printed_equals_drop": {n: sum(r["printed_equals_drop"] for r in rows if r["reading_of_p"] == n)
                                for n in READINGS_OF_P},
        "conditional_equals_drop": {n: sum(r["conditional_equals_drop"] for r in rows if r["reading_of_p"] == n)
                                    for n in READINGS_OF_P},
        "printed_p_as_perturbation_probability": sorted({r["printed"] for r in rows
                                                         if r["reading_of_p"] == "perturb"})[:3],
        "example": keep[0]}


def paper_third_equality() -> tuple[bool, dict]:
    """Line 1012's third equality as printed, E[lambda^T phi(xi)] - E_c[lambda^T phi(x)], with phi(xi) the
    explained document (not random), against the enumerated drop (symbolic a, lambda_0, p, b <= 3, every S); the
    residual against p sum_i a_i (main-text p); and line 1013's E[sum a_j M_j] - E_c[sum a_j M_j] (the random
    document), per position by kept_count_sym, against the same drop. Holds when the printed equality is right."""
    rows = []
    for b in range(1, MAX_SYMBOLIC_TOKENS + 1):
        a, l0, p, mean, drops = symbolic_drops(b)
        original = sum(a)  # lambda^T phi(xi): every position kept, lambda_0 aside
        for s, drop in drops.items():
            conditional_mean = sp.expand(mean - drop - l0)  # E_c[lambda^T phi(x)], enumerated
            residual = sp.factor(sp.expand(original - conditional_mean - drop))
            next_line = sum(a[i] * (kept_count_sym(1, 0, p) - kept_count_sym(1, int(i in s), p)) for i in range(b))
            rows.append({"b": b, "S": list(s), "residual": str(residual),
                         "residual_is_p_sum_a": sp.expand(residual - p * sum(a)) == 0,
                         "line_1013_equals_drop": sp.expand(next_line - drop) == 0})
    return all(r["residual"] == "0" for r in rows), {
        "max_tokens": MAX_SYMBOLIC_TOKENS, "sets": len(rows),
        "printed_differs_from_drop": sum(r["residual"] != "0" for r in rows),
        "residual_is_p_sum_a_main_text_p": sum(r["residual_is_p_sum_a"] for r in rows),
        "line_1013_equals_drop": sum(r["line_1013_equals_drop"] for r in rows), "example": rows[-1]}


#: Line 1012's third equality and line 1015's bracket, as printed.
LINE_1012 = Quote(1012, r"\candrop_\candidate & = \expecunder{\drop(x)}{c} = \expec{\model(x)} - "
                        r"\expecunder{\model(x)}{c} = \expec{\lambda^\top\tfidf{\xi}} - "
                        r"\expecunder{\lambda^\top\tfidf{x})}{c} \\")
LINE_1015 = Quote(1015, r"& = \sum_{j=1}^d \lambda_j\idf_j p \mult_j - \left(\sum_{\candidate_j = 0} "
                        r"\lambda_j\idf_j\expec{\Mult_j} + \sum_{\candidate_i \neq 0} \lambda_i\idf_i"
                        r"\expec{\Mult_i} \right) \\")

#: Lines 1013-1014, which s5 (line 1013 against the drop) and s6 (line 1014's right-hand side, with E_c[M_j] of
#: each word given its own c_j, against the drop) compute.
LINES_1013_1014 = (
    Quote(1013, r"& = \expec{\sum_{j=1}^d \lambda_j\idf_j\Mult_j} - "
                r"\expecunder{\sum_{j=1}^d \lambda_j\idf_j\Mult_j}{c} \\"),
    Quote(1014, r"& = \sum_{j=1}^d \lambda_j\idf_j\expec{\Mult_j} - \sum_{j=1}^d "
                r"\lambda_j\idf_j\expecunder{\Mult_j}{\candidate_j}    \tag{since removals are \emph{i.i.d.}}"),
)
#: The proof's lines the paper-proof steps s5, s6 quote.
PROOF_LINES = (LINE_1012, *LINES_1013_1014, LINE_1015)


def third_equality_as_written(claim: Claim) -> StepResult:
    """s5: line 1012's third equality, E[lambda^T phi(xi)] - E_c[lambda^T phi(x)], as printed (phi(xi) for
    phi(x)), against the enumerated drop; line 1013 (the random document) against the same drop."""
    holds, seen = paper_third_equality()
    return claim.checked(
        "s5-third-equality-as-written", "paper-proof", "symbolic",
        "Line 1012's third equality writes E[lambda^T phi(xi)] - E_c[lambda^T phi(x)]: phi(xi) is the explained "
        "document, not random, so the first term is f(xi) - lambda_0, not E[f] - lambda_0. Against the drop "
        f"enumerated over every pattern (symbolic a, lambda_0, p, b <= {seen['max_tokens']}, all {seen['sets']} "
        f"sets) the printed expression differs in {seen['printed_differs_from_drop']}, each time by p sum_i a_i "
        f"(main-text p; {seen['residual_is_p_sum_a_main_text_p']} of {seen['sets']}): f(xi) - E[f]. A typo "
        "(phi(xi) for phi(x), with a stray parenthesis) and harmless: the next line (1013), E[sum_j lambda_j idf_j "
        "M_j] - E_c[sum_j lambda_j idf_j M_j], is over the random document, and equals the enumerated drop in "
        f"{seen['line_1013_equals_drop']} of {seen['sets']} sets (per position, E[M] by kept_count_sym).",
        holds=holds, values={**seen, "quote": LINE_1012.text})


def bracket_of_line_1015_as_written(claim: Claim) -> StepResult:
    """s6: line 1015's bracket with the unconditional E[M_i] as printed, against the enumerated drop; and with the
    conditional E_c[M_i] it needs."""
    holds, seen = paper_line_1015_unconditional()
    return claim.checked(
        "s6-line-1015-unconditional-expectation", "paper-proof", "symbolic",
        "Line 1015 subtracts sum_{c_j = 0} lambda_j idf_j E[M_j] + sum_{c_i != 0} lambda_i idf_i E[M_i], with the "
        "unconditional E[M_i] as printed: the bracket is then sum_j lambda_j idf_j E[M_j] whatever c, and the "
        "line does not depend on the candidate. Enumerated on all "
        f"{seen['configurations']} (m, c) with at most {seen['max_words']} words of multiplicity <= "
        f"{seen['max_multiplicity']} (symbolic lambda_j idf_j, p): with p the keep probability (the appendix's "
        f"use) the printed line is identically 0 in {seen['printed_zero_p_as_keep']} of them and equals the "
        f"drop in {seen['printed_equals_drop']['keep']}; with the main text's p it is "
        f"{seen['printed_p_as_perturbation_probability']}, the drop in {seen['printed_equals_drop']['perturb']}. "
        "It needs the conditional E_c[M_i] (line 1016 writes its value, p (m_i - c_i) by the tag): so written, "
        f"it equals the drop in {seen['conditional_equals_drop']['keep']} of {seen['configurations']} with p the "
        "keep probability: line 1014's right-hand side, each word's E_c[M_j] given its own c_j ('since removals are "
        "i.i.d.'), is right. A typo in the notation (E for E_c), not carried: line 1016 uses the conditional "
        "value.",
        holds=holds, values={**seen, "quote": LINE_1015.text})
