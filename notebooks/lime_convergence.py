# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # LIME converges to its exact limit (and, on a TF-IDF linear model, to the closed form)
#
# **Claim (the framework the paper leverages, lines 214 and 443).** LIME's coefficients $\hat\beta_n$ converge as
# its number of samples $n$ grows to $\beta_\infty$, the minimiser of its weighted ridge objective under its own
# sampling law (Garreau and von Luxburg; for text, Mardaoui and Garreau). On a TF-IDF linear model of Definition 1,
# $f(z) = \lambda_0 + \sum_i a_i z_i$, the limit is $\beta_\infty = a$ exactly; at finite $n$ the deterministic
# equivalent $\beta^*_n$ carries an $O(1/n)$ bias from `Ridge(alpha=1)` and the original row.
#
# **Check.** The lime package is run as the evaluation runs it (`LimeTextExplainer(bow=False,
# split_expression=r"\s+", random_state=seed)`, every token weighted; `proofs_checks.cases.lime_runs`) on one review and
# two models fitted on an inline corpus: Definition 1's (`TfidfVectorizer(norm=None)`, additive) and the
# evaluation's (`TfidfVectorizer()`, L2-normalised: there the closed form is Mardaoui and Garreau's approximation).
# The exact side is `analytic.lime_text`: enumeration over all $2^b$ patterns under LIME's law, and the closed form.
# Claim `baseline-lime` of the report tests the convergence with exact sign tests.
#
# Set `FRED_NOTEBOOK_QUICK=1` for small parameters (what the test suite runs).

# %%
import numpy as np
from IPython.display import Image

from fred_constants.paper import DELTA
from proofs_checks.figures import lime_convergence_data, lime_convergence_figure, notebook_settings, save_figure
from proofs_checks.cases.lime_runs import lime_table, sign_tests, top_k_agreement

settings = notebook_settings()
data = lime_convergence_data(seed=settings.seed, quick=settings.quick)
first = data.runs[0]
print(f"lime {data.lime_version}; document {first.text!r}; n = {list(first.ns)}; {first.seeds.shape[1]} seeds per n")

# %% [markdown]
# ## Closed form, exact enumeration and the package, side by side
#
# Per position: the model's own weight, the limit by closed form and by enumeration, and at each $n$ the
# deterministic equivalent $\beta^*_n$ (closed form and enumeration) beside the package's mean $\pm$ sd over seeds.

# %%
for runs in data.runs:
    print(f"### LIME on the {runs.model} model\n")
    print(lime_table(runs), "\n")

# %% [markdown]
# ## The convergence in numbers
#
# Median over seeds of the error $\max_i |\hat\beta_{n,i} - \beta_{\infty,i}|$ at each $n$, the exact sign test
# of each rung (with few seeds it cannot reach $\delta = 10^{-6}$; the claim uses 30 seeds and splits $\delta$
# over its rungs), and, at the largest $n$, how often the package's top-$k$ positions (the evaluation's
# explanation set) are the limit's.

# %%
for runs in data.runs:
    print(f"{runs.model}: max |closed form - exact limit| = {np.abs(runs.limit - runs.closed_limit).max():.2e}")
    print("  median error:", dict(zip(runs.ns, np.median(runs.errors, axis=1).round(5).tolist())))
    for test in sign_tests(runs.errors, runs.ns, DELTA):
        print(f"  n={test.n}->{test.n_next}: {test.decreases}/{test.trials} decrease, P(no decrease) = "
              f"{test.p_no_decrease:.1e}, can reach delta: {test.reaches_level}")
    print(f"  top-k agreement at n={runs.ns[-1]}:", top_k_agreement(runs.coef[-1], runs.limit))

# %% [markdown]
# ## The figure
#
# Dots and bands: the package's mean and 5-95% over seeds; dashed: $\beta^*_n$; thin lines: the exact limit;
# crosses at the right edge: the closed form's limit (on the left panel on the line; on the right panel the
# approximation's gap).

# %%
files = save_figure(lime_convergence_figure(data), settings.out, "lime_convergence")
Image(filename=str(files.png))
