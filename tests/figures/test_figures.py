"""The figures API: what each figure plots is checked against an independent computation, files are
byte-for-byte reproducible from the seed, and the CLI skips the data-dependent figure without the data."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from numpy.testing import assert_allclose

pytest.importorskip("matplotlib")

from analytic import (  # noqa: E402
    ShortcutModel,
    empirical_drop,
    exact_drop,
    shortcut_minimal_size,
    table_classifier,
    table_from_classifier,
)
from fred import Fred, MaskSampler  # noqa: E402
from fred.evaluation.datasets import DATA_ENV, data_dir  # noqa: E402
from proofs_checks.figures import (  # noqa: E402
    FIGURES,
    cli,
    lemma2_coverage_data,
    make_figures,
    prop1_linear_data,
    prop2_shortcut_data,
)
from proofs_checks.figures import lemma1_convergence as l1  # noqa: E402
from proofs_checks.figures import prop1_linear as p1  # noqa: E402
from proofs_checks.statistics.seeds import statistical_seed  # noqa: E402

#: False-alarm probability of each statistical test (union bound over every point it checks).
DELTA = 1e-6


@pytest.fixture(scope="module")
def lemma1():
    return l1.lemma1_convergence_data(seed=statistical_seed(3), quick=True)


@pytest.fixture(scope="module")
def lemma2():
    """The quick Lemma 2 data, computed once: its simulations are what the statistical test checks, its exact
    joint coverage (the same whatever the seed) what the right panel's test checks."""
    return lemma2_coverage_data(seed=statistical_seed(5), quick=True)


def _eq3(table, perturbed, positions) -> float:
    """Eq. (3) written out: mean f over all rows minus mean f over the rows perturbing every position."""
    f = table[perturbed.astype(int) @ (2 ** np.arange(perturbed.shape[1]))]
    covered = perturbed[:, list(positions)].all(axis=1)
    return f.mean() - f[covered].mean() if covered.any() else math.nan


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lemma1_empirical_drop_is_eq3_and_freds(seed, lemma1):
    """Catches the Lemma 1 figure plotting something other than FRED's empirical drop: on the rows drawn for a
    (p, n, repetition) seed, the drop the figure uses (analytic.empirical_drop) equals Eq. (3) written out and,
    for singletons, the importance Fred(random_state=that seed) reports (the same rows, so the same drop); and
    the figure's own errors (repetition ``seed``, every p, n and candidate) are |Eq. (3) - limit| on its rows."""
    for i, p in enumerate(lemma1.ps):
        table = table_from_classifier(lemma1.case.classifier_fn(), lemma1.case.tokens)
        b = len(lemma1.case.tokens)
        for j, n in enumerate(lemma1.ns):
            draw = np.random.default_rng(l1.sample_seed(lemma1.seed, i, int(n), seed))
            rows = MaskSampler().draw(b, p, int(n), draw).perturbed
            for k, c in enumerate(lemma1.candidates[i]):
                want = abs(_eq3(table, rows, c) - lemma1.limits[i, k])
                assert_allclose(lemma1.errors[i, k, j, seed], want, rtol=0, atol=1e-12, equal_nan=True,
                                err_msg=f"p={p} n={n} c={c} repetition={seed}")
    case = l1.black_box_case()
    table = table_from_classifier(case.classifier_fn(), case.tokens)
    b, p, n = len(case.tokens), 0.5, 200
    rows = MaskSampler().draw(b, p, n, np.random.default_rng(l1.sample_seed(seed, 1, n, 0))).perturbed
    f = table[rows @ (1 << np.arange(b))]
    for positions in [(0,), (1, 4), (0, 2, 3)]:
        assert_allclose(empirical_drop(f, rows, positions)[0], _eq3(table, rows, positions), rtol=0, atol=1e-12,
                        err_msg=f"seed={seed} positions={positions}")
    black_box = table_classifier(case.tokens, table, n_classes=2)  # its column 1 is the tabulated f
    exp = Fred(black_box, random_state=l1.sample_seed(seed, 1, n, 0)).explain(case.text, label=1, p=p, n_samples=n,
                                                                               max_len=1)
    for i in range(b):
        assert_allclose(empirical_drop(f, rows, (i,))[0], exp.importances[i], rtol=0, atol=1e-12,
                        err_msg=f"seed={seed} position {i}")


def test_lemma1_limits_are_exact_drops(lemma1):
    """Catches a wrong reference in the Lemma 1 figure: its limits must equal the exact drop of Eq. (1),
    computed by analytic.exact_drop (enumeration with conditional means, not Lemma 1's formula)."""
    table = table_from_classifier(lemma1.case.classifier_fn(), lemma1.case.tokens)
    for i, p in enumerate(lemma1.ps):
        for k, c in enumerate(lemma1.candidates[i]):
            assert len(c) == lemma1.sizes[k]
            assert_allclose(lemma1.limits[i, k], exact_drop(table, c, p), rtol=0, atol=1e-12, err_msg=f"p={p} c={c}")


@pytest.mark.statistical
def test_lemma1_errors_obey_hoeffding(lemma1):
    """Catches errors that do not shrink as Lemma 1 says (e.g. a biased estimator). Given n_c >= 1 the error is
    below R sqrt(log(2/d)/(2n)) + R sqrt(log(2/d)/(2 n_c)) w.p. >= 1 - 2d (Hoeffding, analytic's bound); with
    n_c >= n p^|c| / 2 (Chernoff, failure exp(-n p^|c| / 8)) we check points with n p^|c| >= 400 and split
    DELTA over them."""
    table = table_from_classifier(lemma1.case.classifier_fn(), lemma1.case.tokens)
    value_range = table.max() - table.min()
    points = [(i, k, j) for i, p in enumerate(lemma1.ps) for k, s in enumerate(lemma1.sizes)
              for j, n in enumerate(lemma1.ns) if n * p**s >= 400]
    assert points, "quick parameters must give at least one checked point"
    d = DELTA / (3 * len(points) * lemma1.repetitions)
    for i, k, j in points:
        n, q = int(lemma1.ns[j]), lemma1.ps[i] ** lemma1.sizes[k]
        assert math.exp(-n * q / 8) <= d
        bound = value_range * (math.sqrt(math.log(2 / d) / (2 * n)) + math.sqrt(math.log(2 / d) / (n * q)))
        worst = np.nanmax(lemma1.errors[i, k, j])
        assert worst <= bound, f"p={lemma1.ps[i]} |c|={lemma1.sizes[k]} n={n}: error {worst} > bound {bound} (seed {lemma1.seed})"


@pytest.mark.statistical
def test_lemma2_simulation_matches_closed_form(lemma2):
    """Catches a coverage simulation that does not follow 1 - (1 - p^l)^n (e.g. rows not drawn i.i.d. with
    probability p, or an off-by-one in the first covering row). Each simulated coverage is a mean of n_sims
    indicators: Hoeffding gives |sim - exact| <= sqrt(log(2K/DELTA)/(2 n_sims)) for all K points at once."""
    data = lemma2
    checks = []
    for k, size in enumerate(data.sizes):
        ns = np.array([1, 2, 5, 20, 100, 1000, data.horizon[k]])
        ns = ns[ns <= data.horizon[k]]
        checks += [(size, n, s, 1 - (1 - data.p**size) ** n) for n, s in zip(ns, data.simulated_coverage(k, ns))]
    for k, max_len in enumerate(data.joint_max_lens):
        checks += [(f"joint l_max={max_len}", n, s, e) for n, s, e in zip(
            data.mc_ns, data.joint_mc[k], np.interp(data.mc_ns, data.joint_ns, data.joint_exact[k]))
            if n in data.joint_ns]
    tol = math.sqrt(math.log(2 * len(checks) / DELTA) / (2 * data.n_sims))
    for size, n, simulated, exact in checks:
        assert abs(simulated - exact) <= tol, f"l={size} n={n}: simulated {simulated}, exact {exact}, tol {tol}"


def test_lemma2_joint_coverage_below_alpha_at_freds_n(lemma2):
    """Catches the figure's right panel losing its point: at FRED's n = sample_size(0.95, 1/2, l_max) the joint
    coverage of the b=5 document, (1 - 2^-n)^5 for l_max = 1 by independence of positions, is below 0.95."""
    data = lemma2
    at_five = data.joint_exact[0][list(data.joint_ns).index(5)]
    assert_allclose(at_five, (1 - 0.5**5) ** 5, rtol=1e-12)
    assert at_five < 0.95


def test_prop1_data_matches_closed_form_and_fred():
    """Catches a Prop. 1 figure whose lines are not what they claim: the best exact drop of size l is (1 - p)
    times the sum of the l largest position weights (sorted independently here), the exact choice is the
    first size reaching eps E[f], and FRED's points are the largest Eq. (3) drops of each size on the rows FRED
    drew (brute force over every subset here), FRED's own answer being the one it reports."""
    data = prop1_linear_data(seed=4)
    expected = (1 - data.p) * np.cumsum(np.sort(data.a)[::-1])
    assert_allclose(data.best_exact, expected, rtol=0, atol=1e-12)
    first = next(l for l in range(1, len(expected) + 1) if expected[l - 1] >= data.threshold)
    assert len(data.chosen) == first, (data.chosen, first)
    assert all(data.a[i] > 0 for i in data.chosen), "Prop. 1 (i): no negative weight in the optimal candidate"
    case = p1.model_case()
    table = table_from_classifier(case.classifier_fn(), data.tokens)
    exp = Fred(case.classifier_fn(), random_state=4).explain(p1.DOCUMENT, p=data.p, eps=data.eps, max_len=data.max_len)
    b = len(data.tokens)
    brute = [np.nanmax([_eq3(table, exp.sample_perturbed, c) for c in combinations(range(b), l)])
             for l in range(1, b + 1)]
    assert_allclose(data.empirical_best, brute, rtol=0, atol=1e-12)
    assert_allclose(_eq3(table, exp.sample_perturbed, exp.best_ids), exp.drop, rtol=0, atol=1e-12)
    assert (exp.best_ids, exp.drop) == (data.fred_ids, data.fred_drop)


def test_prop2_data_shows_the_counterexample():
    """Catches a Prop. 2 figure that misstates the shortcut drops or what FRED returns: the closed form equals
    the drops of a brute-force enumeration written here, and FRED (exact sampler) removes l* = 2 < m_1 = 3
    occurrences of the rarest word at eps = 0.15, agreeing with l* on the whole eps grid."""
    data = prop2_shortcut_data(seed=0, quick=True)
    tokens, p = list(data.tokens), data.p
    b = len(tokens)
    model = ShortcutModel(data.words)
    patterns = [[(code >> i) & 1 for i in range(b)] for code in range(2**b)]
    weights = np.array([p ** sum(z) * (1 - p) ** (b - sum(z)) for z in patterns])
    f = model([" ".join("UNK" if z[i] else tokens[i] for i in range(b)) for z in patterns])
    for j, word in enumerate(data.words):
        where = [i for i, t in enumerate(tokens) if t == word]
        for k in range(1, data.m[j] + 1):
            rows = np.array([all(z[i] for i in where[:k]) for z in patterns])
            brute = weights @ f - weights[rows] @ f[rows] / weights[rows].sum()
            assert_allclose(data.closed[j][k], brute, rtol=0, atol=1e-12, err_msg=f"{word} k={k}")
    assert data.m == (3, 4) and data.l_star == 2 and len(data.exact_ids) == 2
    assert all(tokens[i] == "good" for i in data.exact_ids)
    assert data.fred_size_grid.tolist() == [shortcut_minimal_size(data.m, p, e) for e in data.eps_grid]


def _files(directory):
    return {f.name: f.read_bytes() for f in sorted(directory.iterdir())}


def test_cli_is_reproducible_bit_for_bit(tmp_path, capsys):
    """Catches non-deterministic output (dates or random ids in SVG/PNG, unseeded randomness): two runs with the
    same seed give identical bytes; another seed changes the Monte Carlo figure (the only one the third run
    draws)."""
    only = ["--only", "prop1_linear", "prop2_shortcut", "--quick"]
    assert cli(["--out", str(tmp_path / "a"), "--seed", "1", *only]) == 0
    assert cli(["--out", str(tmp_path / "b"), "--seed", "1", *only]) == 0
    assert cli(["--out", str(tmp_path / "c"), "--seed", "2", "--only", "prop1_linear", "--quick"]) == 0
    a, b, c = (_files(tmp_path / d) for d in "abc")
    assert set(a) == {"prop1_linear.png", "prop1_linear.svg", "prop2_shortcut.png", "prop2_shortcut.svg"}
    assert a == b
    assert a["prop1_linear.png"] != c["prop1_linear.png"]
    assert a["prop1_linear.png"][:8] == b"\x89PNG\r\n\x1a\n" and a["prop1_linear.svg"].lstrip().startswith(b"<?xml")
    assert b"<dc:date>" not in a["prop1_linear.svg"]
    assert "prop1_linear" in capsys.readouterr().out


def test_review_example_is_skipped_without_data(tmp_path, monkeypatch, capsys):
    """Catches the data-dependent figure crashing the whole CLI when restaurants.tsv is absent."""
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "empty"))
    assert cli(["--out", str(tmp_path / "out"), "--only", "review_example"]) == 0
    assert "review_example: skipped (data file missing" in capsys.readouterr().out
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.skipif(not (data_dir() / "restaurants.tsv").is_file(), reason="restaurants.tsv not available")
def test_review_example_counterfactuals_are_negative():
    """Catches Figure 1 (c) showing samples that are not counterfactuals: each has its perturbed positions
    masked in its text and a positive-class score below 1/2 (so the model predicts "negative")."""
    from proofs_checks.figures import review_example_data

    data = review_example_data(seed=0)
    assert data.explanation.found and len(data.counterfactuals) == 3
    for cf in data.counterfactuals:
        words = cf.text.split()
        assert [i for i, w in enumerate(words) if w == "UNK"] == list(cf.perturbed_ids)
        assert cf.score < 0.5 and cf.predicted_class == "negative"


def test_unknown_figure_is_refused(tmp_path):
    """Catches a typo in --only silently producing nothing."""
    with pytest.raises(ValueError, match="unknown figure"):
        make_figures(tmp_path, only=["lemma3"])
    with pytest.raises(SystemExit):
        cli(["--only", "lemma3"])
    assert list(FIGURES) == ["lemma1_convergence", "lemma1_selection", "lemma2_coverage", "prop1_linear", "prop2_shortcut",
                             "review_example", "lime_convergence"]
