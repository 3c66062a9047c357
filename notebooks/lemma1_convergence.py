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
# # Lemma 1: the empirical drop converges to the exact drop
#
# **Claim (Lemma 1).** For a candidate $c$, the empirical drop of Eq. (3),
# $\hat\Delta_c = \frac1n\sum_i f(x_i) - \frac1{n_c}\sum_{c \notin x_i} f(x_i)$, converges in probability to
# $\mathbb E[f] - \mathbb E[f\,\mathbb 1\{c \notin x\}] / \mathbb P(c \notin x)$ as $n \to \infty$.
#
# **Check.** A fitted model of the finite family (`proofs_checks.models.family`, TF-IDF + logistic regression) is
# tabulated on all $2^b$ mask patterns, so the exact limit is a finite sum (`analytic.lemma1_limit`). FRED's
# mask sampler draws $n$ rows and FRED's own drop code (`fred.drops.extension_drops`) returns $\hat\Delta_c$;
# we repeat this for many seeds. The delta method predicts $\sqrt n(\hat\Delta_c - \Delta_c) \to N(0, \sigma_c^2)$
# with $\sigma_c^2$ = `analytic.drop_asymptotic_variance`, growing like $1/p^{|c|}$: the median error should
# follow $0.674\,\sigma_c/\sqrt n$, a line of slope $-1/2$ on log-log axes.
#
# Set `FRED_NOTEBOOK_QUICK=1` for small parameters (what the test suite runs).

# %%
import numpy as np
from IPython.display import Image

from proofs_checks.figures import lemma1_convergence_data, lemma1_convergence_figure, notebook_settings, save_figure

settings = notebook_settings()
data = lemma1_convergence_data(seed=settings.seed, quick=settings.quick)
print(f"black box: {data.case.kind}, document {' '.join(data.case.tokens)!r}; "
      f"n = {data.ns.tolist()}; {data.repetitions} repetitions")

# %% [markdown]
# ## The check in numbers
#
# For each $p$ and candidate size: the exact limit, $\sigma_c$, the least-squares slope of $\log$(median error)
# against $\log n$ (expected $-1/2$) and the ratio of the median error to the delta-method prediction at the
# largest $n$ (expected near 1; with few repetitions it is noisy).

# %%
for i, p in enumerate(data.ps):
    for k, size in enumerate(data.sizes):
        err = data.errors[i, k]
        ok = np.isnan(err).mean(axis=1) <= 0.05
        median = np.nanmedian(err[ok], axis=1)
        slope = np.polyfit(np.log(data.ns[ok]), np.log(median), 1)[0] if ok.sum() >= 2 else float("nan")
        ratio = median[-1] / (0.6745 * data.sigmas[i, k] / np.sqrt(data.ns[-1])) if ok.any() else float("nan")
        print(f"p={p} |c|={size} c={data.candidates[i][k]}: limit={data.limits[i, k]:.4f} "
              f"sigma_c={data.sigmas[i, k]:.3f} slope={slope:+.2f} median/delta-method={ratio:.2f}")

# %% [markdown]
# ## The figure
#
# Median and 5-95% band of $|\hat\Delta_c - \Delta_c|$ over the repetitions; dashed: $0.674\,\sigma_c/\sqrt n$.
# At $p = 0.1$ the size-3 candidate is perturbed in only $n p^3 = n/1000$ rows on average, so its curve starts
# late (points where $n_c = 0$ in more than 5% of the repetitions are omitted) and sits higher.

# %%
files = save_figure(lemma1_convergence_figure(data), settings.out, "lemma1_convergence")
Image(filename=str(files.png))
