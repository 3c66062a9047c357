"""LIME, SHAP and Anchors on one TF-IDF linear model: closed form, exact enumeration and the package, side by side.

    python tools/baseline_limits.py [--repeats 5] [--sizes 100 1000 5000 20000] [--out FILE]

The model is ``TfidfVectorizer(norm=None)`` + ``LogisticRegression`` fitted on a small inline corpus; f is its
decision function lambda^T phi(z) + lambda_0 (Eq. 6, additive over positions, weights a_i from
:class:`analytic.LinearTfidfModel`). Each package is called as ``fred/evaluation/explainers.py`` calls it:

* LIME: ``LimeTextExplainer(bow=False, split_expression=r"\\s+")`` on f (as column 1), every token weighted; its
  coefficients (mean and standard deviation over ``--repeats`` seeds) at each n against the closed form
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
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from fred.command_line import OneLineParser
from analytic import L2NormalisedLinearModel, LinearTfidfModel, table_classifier, table_from_classifier
from analytic.anchors_text import anchor_precision, anchors_meeting
from analytic.lime_text import lime_additive, lime_coefficients, lime_l2_linear
from analytic.shapley import PARTITION_MAX_EVALS, owen_values, partition_evaluations, shapley_values
from fred.markdown_tables import markdown_table

CORPUS = [
    ("the food was good and the staff friendly", 1), ("good food great service", 1),
    ("great place friendly staff", 1), ("the service was slow and the food bad", 0),
    ("bad food and rude staff", 0), ("slow service bad place", 0), ("good staff but slow service", 1),
    ("the place was bad", 0),
]
DOCUMENT = "the food was good but service slow"
PACKAGES = ("lime", "shap", "anchor-exp", "spacy", "scikit-learn", "numpy")


def fitted_model() -> LinearTfidfModel:
    texts, labels = zip(*CORPUS)
    vectorizer = TfidfVectorizer(norm=None)
    features = vectorizer.fit_transform(texts)
    model = LogisticRegression(C=10.0).fit(features, labels)
    return LinearTfidfModel.from_pipeline(vectorizer, model)


def fitted_l2_model() -> tuple[L2NormalisedLinearModel, dict]:
    """The evaluation's setting, ``TfidfVectorizer()`` (L2 norm) + ``LogisticRegression``, and the idf per word."""
    texts, labels = zip(*CORPUS)
    vectorizer = TfidfVectorizer()
    model = LogisticRegression(C=10.0).fit(vectorizer.fit_transform(texts), labels)
    words = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get)
    idf = dict(zip(words, vectorizer.idf_))
    return L2NormalisedLinearModel(dict(zip(words, model.coef_[0])), idf, float(model.intercept_[0])), idf


def lime_l2_section(tokens, sizes, repeats) -> str:
    from lime.lime_text import LimeTextExplainer

    model, idf = fitted_l2_model()
    table = table_from_classifier(model, tokens, mask_token="UNKWORDZ")
    closed = [lime_l2_linear([model.coef[t] for t in tokens], [idf[t] for t in tokens], model.intercept, n).coef
              for n in [None, *sizes]]
    exact = [lime_coefficients(table, n).coef for n in [None, *sizes]]
    header, columns = ["token", "lambda_j"], []
    for label, c, e in zip(["limit", *[f"n={n}" for n in sizes]], closed, exact):
        header += [f"{label}: approximation", f"{label}: enumeration"]
        columns += [c, e]
    for n in sizes:
        runs = []
        for seed in range(repeats):
            explainer = LimeTextExplainer(class_names=["-", "+"], bow=False, split_expression=r"\s+",
                                          random_state=seed)
            exp = explainer.explain_instance(" ".join(tokens), two_columns(model), labels=(1,),
                                             num_features=len(tokens), num_samples=n)
            runs.append([w for _, w in sorted(exp.as_map()[1])])
        header.append(f"n={n}: lime mean ± sd")
        columns.append([f"{m:.4f} ± {sd:.4f}" for m, sd in zip(np.mean(runs, 0), np.std(runs, 0, ddof=1))])
    rows = [[t, f"{model.coef[t]:.4f}"] + [c[i] if isinstance(c[i], str) else f"{c[i]:.4f}" for c in columns]
            for i, t in enumerate(tokens)]
    return ("### LIME on the L2-normalised TF-IDF linear model (the evaluation's vectorizer; f its decision "
            "function): the closed form is Mardaoui and Garreau's approximation |phi(z)| ~ |phi(x)| sqrt(k/d), "
            "exact only for equal TF-IDF entries\n\n" + markdown_table(header, rows))


def two_columns(f):
    """A black box with f as column 1 (what LIME and SHAP explain) and -f as column 0."""
    return lambda texts: np.column_stack([-f(texts), f(texts)])


def lime_section(model, tokens, sizes, repeats) -> str:
    from lime.lime_text import LimeTextExplainer

    weights = model.position_weights(tokens)
    table = table_from_classifier(model.predict, tokens, mask_token="UNKWORDZ")
    limit_closed = lime_additive(weights, model.intercept).coef
    limit_exact = lime_coefficients(table).coef
    header = ["token", "a_i", "limit: closed form", "limit: enumeration"]
    columns = [limit_closed, limit_exact]
    for n in sizes:
        runs = []
        for seed in range(repeats):
            explainer = LimeTextExplainer(class_names=["-", "+"], bow=False, split_expression=r"\s+",
                                          random_state=seed)
            exp = explainer.explain_instance(" ".join(tokens), two_columns(model.predict), labels=(1,),
                                             num_features=len(tokens), num_samples=n)
            coef = np.zeros(len(tokens))
            for position, weight in exp.as_map()[1]:
                coef[position] = weight
            runs.append(coef)
        runs = np.array(runs)
        header += [f"n={n}: closed form", f"n={n}: enumeration", f"n={n}: lime mean ± sd"]
        columns += [lime_additive(weights, model.intercept, n).coef, lime_coefficients(table, n).coef,
                    [f"{m:.4f} ± {s:.4f}" for m, s in zip(runs.mean(0), runs.std(0, ddof=1))]]
    rows = [[t, f"{a:.4f}"] + [c[i] if isinstance(c[i], str) else f"{c[i]:.4f}" for c in columns]
            for i, (t, a) in enumerate(zip(tokens, weights))]
    return ("### LIME (bow=False, kernel width 25, Ridge(alpha=1); mean ± sd over "
            f"{repeats} seeds)\n\n" + markdown_table(header, rows))


def shap_section(model, tokens, evals) -> str:
    import shap

    text = " ".join(tokens)
    out = []
    logistic = lambda texts: 1.0 / (1.0 + np.exp(-model.predict(texts)))  # noqa: E731 (predict_proba[:, 1])
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

    predict = lambda texts: (model.predict(list(texts)) > 0).astype(int)  # noqa: E731 (the predicted class)
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
        lime_section(model, tokens, args.sizes, args.repeats),
        lime_l2_section(tokens, args.sizes, args.repeats),
        shap_section(model, tokens, args.evals),
        anchors_section(model, tokens, args.sizes, args.repeats),
    ])
    print(report)
    if args.out:
        args.out.write_text(report + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
