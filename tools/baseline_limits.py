"""LIME, SHAP and Anchors on one TF-IDF linear model: closed form, exact enumeration and the package, side by side.

    python tools/baseline_limits.py [--repeats 5] [--sizes 100 1000 5000 20000] [--out FILE]

The model is ``TfidfVectorizer(norm=None)`` + ``LogisticRegression`` fitted on a small inline corpus; f is its
decision function lambda^T phi(z) + lambda_0 (Eq. 6, additive over positions, weights a_i from
:class:`analytic.LinearTfidfModel`). Each package is called as ``fred/evaluation/explainers.py`` calls it:

* LIME (run by :mod:`proofs_checks.cases.lime_runs`): ``LimeTextExplainer(bow=False, split_expression=r"\\s+")`` on f
  (as column 1), every token weighted; its coefficients (mean and standard deviation over ``--repeats`` seeds) at
  each n against the closed form
  (:func:`analytic.lime_text.lime_additive`) and the enumeration (:func:`analytic.lime_text.lime_coefficients`),
  both at the limit and at that n (the deterministic equivalent: the ridge bias of n samples without their noise);
  then the same on the L2-normalised model of the evaluation's ``TfidfVectorizer()``, whose closed form
  (:func:`analytic.lime_text.lime_l2_linear`) is Mardaoui and Garreau's approximation;
* SHAP: ``shap.Explainer`` over ``shap.maskers.Text(r"\\s+", mask_token="UNK ")``, on f and on the evaluation's
  predict_proba (non-additive): exact Shapley and exact Owen values on the masker's own tree, against the
  package at several ``max_evals``;
* Anchors: ``AnchorText(spacy.blank("en"), use_unk_distribution=True)`` on the predicted class: the exact minimal
  anchors (:func:`analytic.anchors_text.anchors_meeting`), the precision of an anchor estimated by anchor-exp's own
  sampler at each n, and the anchors explain_instance returns over the seeds with their exact precision.

Heavy (shap compiles numba code on its first call); not part of the test suite.
"""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

from analytic import table_classifier, table_from_classifier
from analytic.anchors_text import anchor_precision, anchors_meeting
from analytic.shapley import (
    PARTITION_MAX_EVALS,
    owen_values,
    partition_evaluations,
    shapley_values,
)
from fred.command_line import OneLineParser
from fred.markdown_tables import markdown_table
from proofs_checks.cases.lime_runs import MODELS, lime_convergence, lime_table
from proofs_checks.paper.baselines import (
    CORPUS,
    DOCUMENT,
    fitted_model,
    two_columns,
)

PACKAGES = ("lime", "shap", "anchor-exp", "spacy", "scikit-learn", "numpy")


def lime_sections(sizes, repeats) -> str:
    """LIME on both models of :mod:`proofs_checks.paper.baselines`, run by :mod:`proofs_checks.cases.lime_runs`."""
    titles = {"definition-1": f"### LIME (bow=False, kernel width 25, Ridge(alpha=1); mean ± sd over {repeats} seeds)",
              "l2": "### LIME on the L2-normalised TF-IDF linear model (the evaluation's vectorizer; f its decision "
                    "function): the closed form is Mardaoui and Garreau's approximation |phi(z)| ~ |phi(x)| "
                    "sqrt(k/d), exact only for equal TF-IDF entries"}
    return "\n\n".join(f"{titles[model]}\n\n" + lime_table(lime_convergence(model, DOCUMENT, sorted(set(sizes)),
                                                                            repeats))
                       for model in MODELS)


def shap_section(model, tokens, evals) -> str:
    import shap

    text = " ".join(tokens)
    out = []
    logistic = lambda texts: 1.0 / (1.0 + np.exp(-model.predict(texts)))
    for name, f, additive in (("decision function f (additive)", model.predict, True),
                              ("predict_proba (logistic)", logistic, False)):
        masker = shap.maskers.Text(r"\s+", mask_token="UNK ", collapse_mask_token=False)
        explainer = shap.Explainer(lambda texts, f=f: two_columns(f)(list(texts)), masker)
        tree = masker.clustering(text)
        table = table_from_classifier(f, tokens, mask_token="UNK")
        exact_shapley = shapley_values(table).values
        exact_owen = owen_values(table, tree).values
        header = ["token", "closed form a_i" if additive else "closed form (none)", "exact Shapley", "exact Owen"]
        columns = [exact_shapley, exact_owen]
        for m in evals:
            header.append(f"shap max_evals={m}")
            columns.append(explainer([text], max_evals=m, silent=True).values[0][:, 1])
        closed = model.position_weights(tokens)
        rows = [[t, f"{closed[i]:.4f}" if additive else "-"] + [f"{c[i]:.4f}" for c in columns]
                for i, t in enumerate(tokens)]
        gaps = [float(np.max(np.abs(np.asarray(c, float) - np.asarray(exact_owen, float)))) for c in columns]
        rows.append(["max abs difference from exact Owen", "-"] + [f"{g:.1e}" for g in gaps])
        out.append(f"### SHAP on the {name}: partition explainer, tree from the Text masker "
                   f"(full tree: {partition_evaluations(tree, len(tokens))} evaluations; default max_evals "
                   f"{PARTITION_MAX_EVALS}); base value f(all UNK) = {table[-1]:.4f}\n\n"
                   + markdown_table(header, rows))
    return "\n\n".join(out)


def anchors_section(model, tokens, sizes, repeats) -> str:
    import spacy
    from anchor.anchor_text import AnchorText

    predict = lambda texts: (model.predict(list(texts)) > 0).astype(int)
    labels = table_from_classifier(predict, tokens, mask_token="UNK").astype(int)
    found = anchors_meeting(labels)
    minimal = [a for a in found if a.minimal]
    lines = [f"### Anchors (use_unk_distribution=True, threshold 0.95); predicted class {labels[0]}\n",
             f"Exact minimal anchors ({len(minimal)} of {len(found)} anchors meeting 0.95):\n"]
    lines.append(markdown_table(["anchor", "exact precision", "exact coverage"],
                                [[" ".join(tokens[i] for i in a.positions), f"{float(a.precision):.4f}",
                                  f"{float(a.coverage):.4f}"] for a in minimal[:8]]))
    explainer = AnchorText(spacy.blank("en"), ["-", "+"], use_unk_distribution=True)
    classify = table_classifier(tokens, labels)
    probes = [a.positions for a in minimal[:3]] or [()]
    rows = []
    saved = np.random.get_state()  # anchor-exp reads numpy's global generator only
    try:
        for probe in probes:
            row = [" ".join(tokens[i] for i in probe) or "(empty)", f"{float(anchor_precision(labels, probe)):.4f}"]
            for n in sizes:
                shares = []
                for seed in range(repeats):
                    np.random.seed(seed)
                    _, _, _, sample_fn = explainer.get_sample_fn(" ".join(tokens),
                                                                 lambda t: classify(list(t)).astype(int))
                    shares.append(sample_fn(list(probe), n)[2].mean())
                row.append(f"{np.mean(shares):.4f} ± {np.std(shares, ddof=1):.4f}")
            rows.append(row)
        returned = []
        for seed in range(repeats):
            np.random.seed(seed)
            exp = explainer.explain_instance(" ".join(tokens), lambda t: classify(list(t)).astype(int))
            positions = tuple(exp.exp_map["feature"])
            returned.append([seed, " ".join(exp.names()), f"{exp.precision():.4f}",
                             f"{float(anchor_precision(labels, positions)):.4f}", f"{exp.coverage():.2f}",
                             f"{2.0 ** -len(positions):.4f}"])
    finally:
        np.random.set_state(saved)
    lines.append(f"\nPrecision of the minimal anchors by anchor-exp's own sampler at n (mean ± sd over "
                 f"{repeats} seeds):\n")
    lines.append(markdown_table(["anchor", "exact precision"] + [f"n={n}" for n in sizes], rows))
    lines.append("\nAnchors returned by explain_instance (coverage estimated from 1 sample):\n")
    lines.append(markdown_table(["seed", "anchor", "reported precision", "exact precision", "reported coverage",
                                 "exact coverage"], returned))
    return "\n".join(lines)


def versions() -> str:
    found = []
    for name in PACKAGES:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} (absent)")
    return ", ".join(found)


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="seeds per package estimate (>= 2)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000, 20000], help="sample sizes n")
    parser.add_argument("--evals", type=int, nargs="+", default=[20, 60, 500], help="shap max_evals values")
    parser.add_argument("--out", type=Path, help="also write the tables to this Markdown file")
    args = parser.parse_args(argv)
    if args.repeats < 2 or min(args.sizes) < 2 or min(args.evals) < 3:
        parser.error("--repeats and every --sizes must be >= 2, every --evals >= 3")
    model = fitted_model()
    tokens = DOCUMENT.split()
    report = "\n\n".join([
        f"## Baselines against their exact limits\n\nDocument: '{DOCUMENT}' (b = {len(tokens)}); model: TF-IDF "
        f"(norm=None) + logistic regression on {len(CORPUS)} inline reviews, intercept {model.intercept:.4f}. "
        f"Packages: {versions()}.",
        lime_sections(args.sizes, args.repeats),
        shap_section(model, tokens, args.evals),
        anchors_section(model, tokens, args.sizes, args.repeats),
    ])
    print(report)
    if args.out:
        args.out.write_text(report + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
