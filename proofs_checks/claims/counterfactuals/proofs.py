"""The closed forms of :mod:`analytic.counterfactual` against the exact referee, for the claim counterfactuals-linear
(:mod:`proofs_checks.claims.counterfactuals.counterfactuals_linear`): its proof steps p2 (k*, every flipping set of every size and
the greedy set against the classes of all 2^b patterns) and p3 (the distribution of FRED's first counterfactual
against every design of n rows), and the fitted family both steps and the claim's runs use (:func:`fitted_family`).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from analytic import LinearTfidfModel, linear_table, linear_table_rational, positions_of
from analytic.counterfactual import (
    first_counterfactual_size_distribution,
    flip_sets,
    greedy_flip_positions,
    minimal_flip_probability,
    minimal_flip_sets,
    minimal_flip_size,
    predicted_class,
)
from analytic.exact_cache import exact_cache

from ...models.family import cases

#: The exhaustive check of the closed forms: every a in {-2..2}^b, b <= 3, these intercepts (0 gives exact ties).
EXACT_A = (-2, -1, 0, 1, 2)
EXACT_INTERCEPT = (Fraction(-2), Fraction(-1), Fraction(-1, 2), Fraction(0), Fraction(1, 2), Fraction(1), Fraction(2))
EXACT_B = 3
#: Designs enumerated row by row for the probability (all (2^b)^n of them), b <= 2 and n <= 3, at a p != 1 - p.
DESIGN_B, DESIGN_N, DESIGN_P = 2, 3, Fraction(1, 3)
#: Family scores closer than this to the decision boundary would make the float class ambiguous.
MARGIN = 1e-9


def referee_flips(a, intercept) -> dict[int, list[tuple[int, ...]]]:
    """Flipping position sets by size, read off the 2^b scores of the referee's table (rational)."""
    table = linear_table_rational(list(a), intercept)
    original = predicted_class(table[0])
    out: dict[int, list[tuple[int, ...]]] = {}
    for code, score in enumerate(table):
        if predicted_class(score) != original:
            s = positions_of(code)
            out.setdefault(len(s), []).append(s)
    return {k: sorted(v) for k, v in sorted(out.items())}


def closed_form_mismatch(a, intercept) -> dict | None:
    """k*, every flipping set of every size and the greedy set against the referee's table; None when they agree.

    Float weights are converted to Fractions first: the greedy check compares removal sums exactly, and float sums
    of a repeated word's equal weights taken in another order can differ by an ulp."""
    a, intercept = [Fraction(x) for x in a], Fraction(intercept)
    referee = referee_flips(a, intercept)
    size = minimal_flip_size(a, intercept)
    greedy = greedy_flip_positions(a, intercept)
    closed = {k: sorted(flip_sets(a, intercept, k)) for k in range(1, len(a) + 1)}
    closed = {k: v for k, v in closed.items() if v}
    signed = a if predicted_class(intercept + sum(a)) == 1 else [-x for x in a]
    ok = (closed == referee and size == (min(referee) if referee else None)
          and (greedy is None) == (size is None)
          and (greedy is None or (greedy in referee[size] and sum(signed[i] for i in greedy) ==
                                  max(sum(signed[i] for i in s) for s in referee[size]))))
    if ok:
        return None
    return {"a": [str(x) for x in a], "intercept": str(intercept), "k_star": size, "greedy": greedy,
            "referee": {str(k): v for k, v in referee.items()}}


def closed_forms(family_rows: list[dict]) -> tuple[bool, dict]:
    """Step p2: :func:`closed_form_mismatch` on every grid case and on the fitted family's rows (their
    ``closed_form_mismatch``)."""
    cases_checked, wrong = _grid_mismatches()
    family_wrong = [r["case"] for r in family_rows if r["closed_form_mismatch"]]
    return not wrong and not family_wrong, {
        "grid": f"a in {list(EXACT_A)}^b, b = 1..{EXACT_B}, lambda_0 in {[str(c) for c in EXACT_INTERCEPT]} "
                "(Fractions; lambda_0 = 0 and integer weights give scores exactly 0, class 0)",
        "grid_cases": cases_checked, "grid_mismatches": wrong[:5], "grid_mismatch_count": len(wrong),
        "family_cases": len(family_rows), "family_mismatches": family_wrong}


@exact_cache(copy=True)
def _grid_mismatches() -> tuple[int, list]:
    """(grid cases checked, :func:`closed_form_mismatch` of each grid case where it is not None): the same for
    every explainer (each call gets its own copy)."""
    cases_checked, wrong = 0, []
    for b in range(1, EXACT_B + 1):
        for a in itertools.product(EXACT_A, repeat=b):
            for c in EXACT_INTERCEPT:
                cases_checked += 1
                bad = closed_form_mismatch([Fraction(x) for x in a], c)
                if bad:
                    wrong.append(bad)
    return cases_checked, wrong


def _first_by_definition(design: tuple[int, ...], flips: set[int]) -> int | None:
    """The pattern FRED's first counterfactual must be: fewest perturbed positions, earliest on ties."""
    hits = [code for code in design if code in flips]
    return min(hits, key=lambda code: bin(code).count("1")) if hits else None  # min keeps the first on ties


@exact_cache(copy=True)
def designs() -> tuple[bool, dict]:
    """The distribution of the first counterfactual (and P(greedy)) against every design of n rows, in Fractions."""
    checked_cases, wrong = 0, []
    for b in range(1, DESIGN_B + 1):
        weight = [DESIGN_P ** bin(c).count("1") * (1 - DESIGN_P) ** (b - bin(c).count("1")) for c in range(2**b)]
        for a in itertools.product(EXACT_A, repeat=b):
            for c in EXACT_INTERCEPT:
                a_f = [Fraction(x) for x in a]
                flips = {sum(1 << i for i in s) for v in referee_flips(a_f, c).values() for s in v}
                greedy = greedy_flip_positions(a_f, c)
                for n in range(1, DESIGN_N + 1):
                    checked_cases += 1
                    dist: dict = {}
                    p_greedy = Fraction(0)
                    for design in itertools.product(range(2**b), repeat=n):
                        w = Fraction(1)
                        for code in design:
                            w *= weight[code]
                        first = _first_by_definition(design, flips)
                        size = None if first is None else bin(first).count("1")
                        dist[size] = dist.get(size, 0) + w
                        if greedy is not None and first == sum(1 << i for i in greedy):
                            p_greedy += w
                    closed = {k: v for k, v in first_counterfactual_size_distribution(a_f, c, n, DESIGN_P).items()
                              if v != 0 or k is None}
                    dist.setdefault(None, Fraction(0))
                    size, m = minimal_flip_size(a_f, c), len(minimal_flip_sets(a_f, c))
                    minimal = minimal_flip_probability(a_f, c, n, DESIGN_P)
                    ok = (dist == closed and minimal == (0 if size is None else dist[size])
                          and p_greedy * max(m, 1) == minimal)
                    if not ok:
                        wrong.append({"a": list(a), "intercept": str(c), "n": n,
                                      "enumerated": {str(k): str(v) for k, v in dist.items()},
                                      "closed_form": {str(k): str(v) for k, v in closed.items()}})
    return not wrong, {"b": f"1..{DESIGN_B}", "n": f"1..{DESIGN_N}", "p": str(DESIGN_P), "a": list(EXACT_A),
                       "intercepts": [str(c) for c in EXACT_INTERCEPT], "cases": checked_cases,
                       "designs_per_case": "(2^b)^n, all of them", "mismatches": wrong[:5]}


def fitted_family() -> list[dict]:
    """Every logistic-raw case of the family (:func:`proofs_checks.models.family.cases`): its weights, class, closed forms,
    and the check against the referee."""
    rows = []
    for index, case in enumerate(cases("logistic-raw")):
        linear = LinearTfidfModel.from_pipeline(case.vectorizer, case.model)
        a = linear.position_weights(list(case.tokens))
        table = linear_table(a, linear.intercept)
        label = int(np.argmax(case.classifier_fn()([case.text])[0]))
        margin = float(np.min(np.abs(table)))
        rows.append({"index": index, "case": case.describe(), "a": a, "intercept": linear.intercept,
                     "label": label, "margin": margin, "classifier": case.tabled_classifier_fn(),
                     "tokens": tuple(str(t) for t in case.tokens), "text": case.text,
                     "usable": margin > MARGIN and predicted_class(table[0]) == label,
                     "k_star": minimal_flip_size(a, linear.intercept),
                     "sets": minimal_flip_sets(a, linear.intercept),
                     "greedy": greedy_flip_positions(a, linear.intercept),
                     "closed_form_mismatch": closed_form_mismatch(list(a), linear.intercept)})
    return rows
