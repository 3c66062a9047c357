"""Checks of the selection: Eq. (2) and Algorithm 1's search on generated black boxes, and what must not move it.

The selection must be the minimal size whose best drop reaches eps E[f], with the largest drop of that size (any
tied one), found exactly then, never above max_len, as sorted positions of the document; the explained column is
``label``; and the selection is reproducible (seeded explainers), monotone in eps, invariant to a positive scaling
of f and, for a bag-of-words model, equivariant under a permutation of the document.
"""

from __future__ import annotations

import numbers

import numpy as np
from hypothesis import strategies as st

from analytic import all_drops, code_of
from fred_constants import EPS, MAX_LEN, P

from ..black_boxes import (
    LABEL_FLIP,
    LABEL_SPLIT,
    LINEAR,
    NEGATED_BAD,
    NEGATED_GOOD,
    BlackBox,
    Spy,
    bag_of_words_box,
    read_patterns,
)
from ..strategies import bag_of_words_models, black_boxes, epsilons, review_models
from ..tags import get_tags
from ..tolerances import as_positions, decided_size
from .harness import (
    DELTA,
    EXAMPLES,
    N_LAW,
    N_MONTE_CARLO,
    N_STATISTICAL,
    CheckRun,
    assert_admissible,
    build_explainer,
    check_needing,
    for_all,
    n_samples_if_settable,
    problems,
    same_values,
)


@check_needing()
def check_selection_solves_eq2(make_explainer) -> None:
    """Eq. (2) and Algorithm 1 on generated black boxes: the selection has the minimal size whose best drop reaches
    eps E[f] and the largest drop of that size (any tied one), or, when no size <= max_len does, the largest drop
    over all sizes. Exact mode: up to rounding; Monte Carlo: up to Hoeffding tolerances."""
    tags = get_tags(make_explainer)

    def body(problem, delta):
        box, p, eps, max_len = problem
        assert_admissible(CheckRun(make_explainer, tags, box, exact=tags.exact, p=p, eps=eps, max_len=max_len,
                                   delta=delta))

    for_all(problems(tags), body, shrink=tags.exact, seed=102)


@check_needing("found")
def check_found_matches_the_threshold(make_explainer) -> None:
    """Algorithm 1's stopping rule: ``found`` is True exactly when the selection's drop reaches eps E[f], i.e. when
    some size <= max_len reaches it; the selection is then read as found, else as the best over all sizes."""
    tags = get_tags(make_explainer)

    def body(problem, delta):
        box, p, eps, max_len = problem
        assert_admissible(CheckRun(make_explainer, tags, box, exact=tags.exact, p=p, eps=eps, max_len=max_len,
                                   delta=delta), use_found=True)

    for_all(problems(tags), body, shrink=tags.exact, seed=103)


#: Eq. (2)'s boundary in exact mode (p = 1/2): (tokens, table, eps, the selection) where the selection's drop equals
#: eps E[f] and every smaller size falls short. The values are dyadic, so the sums and quotients of Eq. (1) are exact
#: in any order of summation. Table entry k is f with the positions of k's bits perturbed.
EXACT_BOUNDARY = (
    (("fine",), (0.75, 0.25), 0.5, (0,)),  # E[f] = 1/2, D({0}) = 1/4 = eps E[f]
    (("good", "food"), (0.75, 0.5, 0.5, 0.25), 0.5, (0, 1)),  # E[f] = 1/2, D({0, 1}) = 1/4, singletons 1/8
    (("tasty",), (0.5, 0.0), 1.0, (0,)),  # E[f] = 1/4 = D({0}): eps = 1
)
#: The boundary however the means are computed (a running mean, any order, any rows): f = 0 everywhere, so E[f] and
#: every drop are 0 and every singleton meets Eq. (2) at the paper's eps. The only case of Monte Carlo mode at the
#: threshold: its rows are drawn, and a mean of non-zero values may round either way.
ZERO_BOUNDARY = (("cold", "soup"), (0.0, 0.0, 0.0, 0.0), EPS, 1)
#: "Just below": f with every position perturbed raised by this much (about 1.5e-5), which puts the selection's drop
#: below eps E[f] by more than ten thousand times the kit's exact tolerance, every smaller size staying below. In
#: Monte Carlo mode (the eps = 1 cases, n_samples = 64) the gap is at least BELOW on any rows: the drop of the whole
#: document is E[f] - BELOW, a singleton's E[f] - E[f | it perturbed] < E[f].
BELOW = 2.0 ** -16


def _boundary_cases(exact: bool):
    """(box, eps, size found or 0 for not found) of the mode's pinned cases: at the threshold, and just below it."""
    yield BlackBox("table", ZERO_BOUNDARY[0], np.array(ZERO_BOUNDARY[1])), ZERO_BOUNDARY[2], ZERO_BOUNDARY[3]
    for tokens, table, eps, selection in EXACT_BOUNDARY if exact else EXACT_BOUNDARY[2:]:
        below = np.array(table, dtype=float)
        below[-1] += BELOW
        if exact:
            yield BlackBox("table", tokens, np.array(table, dtype=float)), eps, len(selection)
        yield BlackBox("table", tokens, below), eps, 0
    if not exact:  # two tokens, f = 1/2 unless both are perturbed: the pair falls BELOW short on any rows
        yield BlackBox("table", ("good", "food"), np.array([0.5, 0.5, 0.5, BELOW])), 1.0, 0


@check_needing("found")
def check_threshold_is_reached_at_equality(make_explainer) -> None:
    """Eq. (2) asks D_c >= eps E[f] (line 258; Algorithm 1's test, line 420): a drop equal to eps E[f] is found, one
    just below it is not. Pinned cases where the equality is exact in floating point: f = 0 (every drop and E[f] are
    0) in both modes, and dyadic tables at p = 1/2 in exact mode; just below, by BELOW, in both modes (Monte Carlo
    mode: n_samples = 64)."""
    tags = get_tags(make_explainer)
    if not tags.exact:
        tags.require("settable_n_samples")
    for box, eps, size in _boundary_cases(tags.exact):
        exp = build_explainer(make_explainer, box.classifier_fn(), tags.exact).explain(
            box.text, label=1, p=P, eps=eps, max_len=box.b, n_samples=None if tags.exact else 64)
        where = f"on {box!r}, p={P}, eps={eps}, max_len={box.b}"
        if size:
            assert bool(exp.found) and len(exp.best_ids) == size, (
                f"found={exp.found}, best_ids {tuple(exp.best_ids)} {where}: a candidate of size {size} has a drop "
                f"equal to eps E[f] and no smaller one does (Eq. 2: D_c >= eps E[f], line 258)")
        else:
            assert not bool(exp.found), (f"found=True, best_ids {tuple(exp.best_ids)} {where}: every drop is below "
                                         f"eps E[f] (by at least {BELOW:.3g}; Eq. 2, line 258)")


@check_needing()
def check_max_len_is_respected(make_explainer) -> None:
    """Algorithm 1's l_max: no selection has more than max_len positions (max_len from 1 to b + 1, and eps = 1,
    which pushes the search to its largest sizes)."""
    tags = get_tags(make_explainer)

    def body(problem, delta):
        box, p, eps, max_len = problem
        for e in (eps, 1.0):
            run = CheckRun(make_explainer, tags, box, exact=tags.exact, p=p, eps=e, max_len=max_len, n=N_LAW)
            assert len(run.best_ids) <= max_len, f"best_ids {tuple(run.best_ids)} exceeds max_len; {run.where()}"

    for_all(problems(tags), body, shrink=tags.exact or tags.seeded, seed=104, examples=EXAMPLES)


@check_needing()
def check_best_ids_are_sorted_unique_positions(make_explainer) -> None:
    """A candidate is an ordered sublist of [b] (section 2.1): ``best_ids`` are integers in [0, b), strictly
    increasing (at the generated eps and at eps = 1)."""
    tags = get_tags(make_explainer)

    def body(problem, delta):
        box, p, eps, max_len = problem
        for e in (eps, 1.0):  # eps = 1 gives larger selections
            run = CheckRun(make_explainer, tags, box, exact=tags.exact, p=p, eps=e, max_len=max_len, n=N_LAW)
            best_ids = list(run.best_ids)
            assert all(isinstance(i, numbers.Integral) and not isinstance(i, bool) for i in best_ids), \
                f"best_ids {best_ids!r} holds non-integers; {run.where()}"
            assert all(0 <= i < box.b for i in best_ids), f"best_ids {best_ids} outside [0, {box.b}); {run.where()}"
            assert all(i < j for i, j in zip(best_ids, best_ids[1:])), \
                f"best_ids {best_ids} not strictly increasing; {run.where()}"

    for_all(problems(tags), body, shrink=tags.exact or tags.seeded, seed=105, examples=EXAMPLES)


@check_needing("settable_n_samples")
def check_unperturbed_candidate_is_never_selected(make_explainer) -> None:
    """Eq. (3) is undefined for a candidate no row perturbs (n_c = 0): with 4 rows, the selection must be perturbed
    entirely in at least one row (an explainer taking an empty mean as 0 selects such a candidate)."""
    tags = get_tags(make_explainer)
    p = 0.25 if tags.settable_p else P

    def body(problem, delta):
        box, _, eps, max_len = problem
        run = CheckRun(make_explainer, tags, box, exact=False, p=p, eps=eps, max_len=max_len, n=4)
        rows, _, broken = read_patterns(run.spy.rows(box.text), box.tokens)
        best_ids = as_positions(run.best_ids, box.b)
        assert not isinstance(best_ids, str), f"{best_ids}; {run.where()}"
        if best_ids:
            assert rows[:, list(best_ids)].all(axis=1).any(), (
                f"best_ids {best_ids} is perturbed together in none of the {len(rows)} rows (its drop is undefined); "
                f"rows perturbed {[np.flatnonzero(r).tolist() for r in rows]}; {run.where()}")

    for_all(problems(tags, black_boxes(kinds=("table", "linear"))), body, shrink=tags.seeded, seed=106,
            examples=EXAMPLES)


@check_needing()
def check_larger_eps_never_gives_smaller_size(make_explainer) -> None:
    """Eq. (2)'s constraint tightens with eps: on the same rows, a larger eps never gives a smaller minimal size.
    Exact or seeded explainers are compared between the two calls; an unseeded Monte Carlo one is held to the
    referee on each (Eq. (2) up to tolerances)."""
    tags = get_tags(make_explainer)
    same_rows = tags.exact or tags.seeded

    def body(problem, delta):
        (box, p, eps, max_len), other = problem
        low, high = sorted((eps, other))
        # On the same rows the relation is exact: no tolerance, so few rows will do.
        n = N_LAW if same_rows else N_MONTE_CARLO
        runs = [CheckRun(make_explainer, tags, box, exact=tags.exact, p=p, eps=e, max_len=max_len, n=n,
                         delta=delta / 2) for e in (low, high)]
        if not same_rows:
            for run in runs:
                assert_admissible(run)
            return
        reached = [run.found if tags.found else decided_size(run.table, run.p, run.eps, run.max_len, run.tol)
                   for run in runs]
        if all(reached):
            size_low, size_high = (len(run.best_ids) for run in runs)
            assert size_low <= size_high, (
                f"eps={low:.6g} selects {tuple(runs[0].best_ids)} (size {size_low}) but the larger "
                f"eps={high:.6g} selects {tuple(runs[1].best_ids)} (size {size_high}); {runs[1].where()}")

    for_all(st.tuples(problems(tags), epsilons(0.01)), body, shrink=same_rows, seed=107)


@check_needing()
def check_labels_zero_and_one(make_explainer) -> None:
    """The explained column is ``label``: label 0 explains 1 - f and label 1 explains f (Eq. 2 on each column)."""
    _both_labels_solve_eq2(make_explainer, boxes=None, seed=108)


def _both_labels_solve_eq2(make_explainer, boxes, seed: int) -> None:
    """Eq. (2) for label 0 and label 1 on problems over ``boxes`` (the kit's default boxes when None), each label
    at half the check's false-alarm probability."""
    tags = get_tags(make_explainer)

    def body(problem, delta):
        box, p, eps, max_len = problem
        for label in (0, 1):
            assert_admissible(CheckRun(make_explainer, tags, box, exact=tags.exact, p=p, eps=eps, max_len=max_len,
                                       label=label, delta=delta / 2))

    for_all(problems(tags, boxes), body, shrink=tags.exact, seed=seed)


@check_needing()
def check_regression_output(make_explainer) -> None:
    """f may be real-valued (section 2.1's f, Prop. 1's linear model): a 1-d classifier output with label=None is
    explained by Eq. (2) on f itself."""
    tags = get_tags(make_explainer)

    def body(problem, delta):
        box, p, eps, max_len = problem
        assert_admissible(CheckRun(make_explainer, tags, box, exact=tags.exact, p=p, eps=eps, max_len=max_len,
                                   label=None, output="regression", delta=delta))

    for_all(problems(tags), body, shrink=tags.exact, seed=109)


@check_needing()
def check_default_label_is_the_predicted_class(make_explainer) -> None:
    """Without ``label`` the explained class is the one predicted on the document (section 2.1: f(xi) is the
    prediction explained): class 0 on a document where class 1's best token differs, and class 0 on one whose every
    perturbation predicts class 1 (a label read on a perturbed text is then the wrong one)."""
    tags = get_tags(make_explainer)
    for box in (LABEL_SPLIT, LABEL_FLIP):
        assert_admissible(CheckRun(make_explainer, tags, box, exact=tags.exact, p=P, eps=EPS, max_len=MAX_LEN,
                                   label=None, explained=0), use_found=tags.found)


@check_needing("seeded")
def check_same_seed_same_explanation(make_explainer) -> None:
    """Reproducibility of the factory's explainers: two calls of one Monte Carlo explainer, and a second explainer
    from the factory, give the same selection, found flag and importances."""
    tags = get_tags(make_explainer)
    spy = Spy(LINEAR.classifier_fn())
    first = build_explainer(make_explainer, spy, False)
    calls = [(first, "the first call"), (first, "a second call of the same explainer"),
             (build_explainer(make_explainer, spy, False), "a second explainer from the factory")]
    seen = []
    for explainer, what in calls:
        exp = explainer.explain(LINEAR.text, label=1, p=P, eps=EPS, max_len=3,
                                n_samples=n_samples_if_settable(tags, 500))
        seen.append((what, tuple(exp.best_ids), getattr(exp, "found", None), getattr(exp, "importances", None)))
    for what, best_ids, found, importances in seen[1:]:
        assert (best_ids, found) == seen[0][1:3] and same_values(importances, seen[0][3]), (
            f"{what} gives best_ids {best_ids}, found {found}, importances {importances}; the first call gave "
            f"{seen[0][1]}, {seen[0][2]}, {seen[0][3]}")


@check_needing()
def check_selection_invariant_to_positive_scaling(make_explainer) -> None:
    """Eq. (2) is homogeneous: multiplying f (column 1 of [1 - f, f]) by 4 or 1/4 scales every drop and the
    threshold eps E[f] alike, so the selection does not change (exact or seeded explainers; an unseeded one is held
    to the referee on each)."""
    tags = get_tags(make_explainer)
    same_rows = tags.exact or tags.seeded

    def body(problem, delta):
        box, p, eps, max_len = problem
        n = N_LAW if same_rows else N_MONTE_CARLO  # on the same rows the relation is exact
        runs = [CheckRun(make_explainer, tags, model, exact=tags.exact, p=p, eps=eps, max_len=max_len, n=n,
                         delta=delta / 3) for model in (box, box.scaled(4.0), box.scaled(0.25))]
        if not same_rows:
            for run in runs:
                assert_admissible(run)
            return
        for run, factor in zip(runs[1:], (4.0, 0.25)):
            assert tuple(run.best_ids) == tuple(runs[0].best_ids) and run.found == runs[0].found, (
                f"f x {factor} selects {tuple(run.best_ids)} (found {run.found}), f selects "
                f"{tuple(runs[0].best_ids)} (found {runs[0].found}); {runs[0].where()}")

    for_all(problems(tags), body, shrink=same_rows, seed=110)


@check_needing()
def check_bag_of_words_permutation_equivariance(make_explainer) -> None:
    """A bag-of-words model sees counts, not order: explaining a permutation of the document selects, mapped back,
    a candidate with the same drop (and, when the threshold is reached, the same size). Unseeded Monte Carlo
    explainers are held to the referee on each order."""
    tags = get_tags(make_explainer)

    def body(problem, delta):
        (box, p, eps, max_len), order = problem
        words = dict(zip(box.tokens, box.weights))
        permuted = bag_of_words_box([box.tokens[i] for i in order], words, box.intercept)
        runs = [CheckRun(make_explainer, tags, model, exact=tags.exact, p=p, eps=eps, max_len=max_len,
                         delta=delta / 2) for model in (box, permuted)]
        if not tags.exact:
            for run in runs:
                assert_admissible(run)
            return
        best_ids = [as_positions(run.best_ids, box.b) for run in runs]
        for positions, run in zip(best_ids, runs):
            assert not isinstance(positions, str), f"{positions}; {run.where()}"
            assert len(positions) <= max_len, f"best_ids {positions} exceeds max_len; {run.where()}"
        back = tuple(sorted(order[i] for i in best_ids[1]))
        drops = all_drops(box.table, p)
        d0, d1 = drops[code_of(best_ids[0])] if best_ids[0] else 0.0, drops[code_of(back)] if back else 0.0
        t = runs[0].tol.of_size(max(1, len(back)))
        assert abs(d0 - d1) <= 2 * t, (
            f"the document selects {best_ids[0]} (drop {d0:.6g}); its permutation {list(order)} selects "
            f"{best_ids[1]}, i.e. {back} of the document (drop {d1:.6g}); {runs[0].where()}")
        if decided_size(box.table, p, eps, max_len, runs[0].tol):
            assert len(best_ids[0]) == len(back), (f"sizes {len(best_ids[0])} and {len(back)} differ; "
                                                   f"{runs[0].where()}")

    permuted_problems = problems(tags, bag_of_words_models()).flatmap(
        lambda pr: st.tuples(st.just(pr), st.permutations(range(pr[0].b))))
    for_all(permuted_problems, body, shrink=tags.exact, seed=111)


@check_needing()
def check_negation_decides_the_selection(make_explainer) -> None:
    """Eq. (2) on review snippets where a negation (a stop word) decides the prediction: in "the plot was not
    good" (class 0) and "this was not bad" (class 1) masking "not" flips the sentiment, so "not" alone is the
    selection. Catches an explainer that filters stop words out of its candidates or its perturbations."""
    tags = get_tags(make_explainer)
    for box, label in ((NEGATED_GOOD, 0), (NEGATED_BAD, 1)):
        assert_admissible(CheckRun(make_explainer, tags, box, exact=tags.exact, p=P, eps=EPS, max_len=MAX_LEN,
                                   label=label, n=N_STATISTICAL, delta=DELTA / 2))


@check_needing()
def check_review_snippets_solve_eq2(make_explainer) -> None:
    """Eq. (2) on generated review snippets (real words, stop words, negations, repeated words) under lexicon
    sentiment models where negations and stop words count, for both classes. Catches explainers that treat words
    rather than positions (repeated words), or stop words and negations, differently from the paper."""
    _both_labels_solve_eq2(make_explainer, boxes=review_models(2, 5), seed=114)
