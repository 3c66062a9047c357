"""Checks of the drops: the importances of Eq. (5) and their convergence (Lemma 1).

An importance s_i is the drop of the singleton {i} (Eq. 1); the checks compare the explainer's importances with
the exact singleton drops, and, in Monte Carlo mode, the importances and the selection with the exact answer up to
Hoeffding tolerances that shrink as 1/sqrt(n).
"""

from __future__ import annotations

import numpy as np

from analytic import all_drops
from fred_constants import EPS, MAX_LEN, P

from ..black_boxes import BASELINE_SPLIT, BASELINE_SPLIT_EPS, LINEAR, beam_counterexample
from ..tags import get_tags
from .harness import DELTA, N_STATISTICAL, CheckRun, assert_admissible, check_needing, for_all, problems


def _importance_gap(run: CheckRun) -> str | None:
    """Where ``importances`` differ from the exact singleton drops by more than the tolerance, or None."""
    got = getattr(run.explanation, "importances", None)
    if got is None:
        return "the explanation has no importances although tags.importances is True"
    got = np.asarray(got, dtype=float)
    drops = all_drops(run.table, run.p)
    want = np.array([drops[1 << i] for i in range(run.box.b)])
    t = run.tol.of_size(1)
    if got.shape != want.shape:
        return f"importances has shape {got.shape}, expected one score per position ({run.box.b},)"
    bad = [i for i in range(run.box.b) if not abs(got[i] - want[i]) <= t]
    if not bad:
        return None
    return (f"importances {np.round(got, 6).tolist()} differ from the exact drops {np.round(want, 6).tolist()} "
            f"(Eq. 5: s_i = E[f] - E[f | i perturbed]) at positions {bad} by up to "
            f"{max(abs(got[i] - want[i]) for i in bad):.4g} > {t:.3g}")


@check_needing("importances")
def check_importances_are_exact_drops(make_explainer) -> None:
    """Eq. (5) with Eq. (1) (Lemma 1 in Monte Carlo mode): s_i is the drop of {i} on Prop. 1's linear model, at
    p = 0.2 and 0.7 when p is settable (a sampler using 1 - p is caught), else at p = 1/2."""
    tags = get_tags(make_explainer)
    ps = (0.2, 0.7) if tags.settable_p else (P,)
    for p in ps:
        run = CheckRun(make_explainer, tags, LINEAR, exact=tags.exact, p=p, eps=EPS, max_len=2, n=N_STATISTICAL,
                       delta=DELTA / len(ps), max_size=1)
        gap = _importance_gap(run)
        assert gap is None, f"{gap}; {run.where()}"


@check_needing("importances")
def check_importances_on_random_black_boxes(make_explainer) -> None:
    """Eq. (5) on generated black boxes (tables, linear, logistic, shortcut models): importances are the exact
    singleton drops (exact mode) or within the Hoeffding bound (Monte Carlo mode)."""
    tags = get_tags(make_explainer)

    def body(problem, delta):
        box, p, _, _ = problem
        run = CheckRun(make_explainer, tags, box, exact=tags.exact, p=p, eps=EPS, max_len=1, delta=delta,
                       max_size=1)
        gap = _importance_gap(run)
        assert gap is None, f"{gap}; {run.where()}"

    for_all(problems(tags), body, shrink=tags.exact, seed=101)


@check_needing("importances", "settable_n_samples")
def check_lemma1_drops_converge(make_explainer) -> None:
    """Lemma 1: the Monte Carlo explainer's drops converge to Eq. (1): at n = 12 500 and n = 200 000 rows, every
    importance lies within its Hoeffding bound (which shrinks as 1/sqrt(n)), on a linear and a 5-token table."""
    tags = get_tags(make_explainer)
    cases = [(box, n) for box in (LINEAR, beam_counterexample()) for n in (N_STATISTICAL // 16, N_STATISTICAL)]
    for box, n in cases:
        run = CheckRun(make_explainer, tags, box, exact=False, p=P, eps=EPS, max_len=1, n=n,
                       delta=DELTA / len(cases), max_size=1)
        gap = _importance_gap(run)
        assert gap is None, f"{gap}; {run.where()}"


@check_needing("settable_n_samples")
def check_lemma1_selection_converges(make_explainer) -> None:
    """Lemma 1 for the selection: with n = 200 000 rows the Monte Carlo explainer returns the exact solution of
    Eq. (2) on inputs whose margins exceed the Hoeffding tolerance (Prop. 1's linear model at eps 0.2 and 0.5;
    the two-token model at eps 5/8)."""
    tags = get_tags(make_explainer)
    cases = [(LINEAR, 0.2), (LINEAR, 0.5), (BASELINE_SPLIT, BASELINE_SPLIT_EPS)]
    for box, eps in cases:
        run = CheckRun(make_explainer, tags, box, exact=False, p=P, eps=eps, max_len=MAX_LEN, n=N_STATISTICAL,
                       delta=DELTA / len(cases))
        assert_admissible(run, use_found=tags.found)
