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
# # Lemma 2: how many samples cover a candidate
#
# **Claim (Lemma 2).** With $n = \lceil \log(1-\alpha) / \log(1 - 2^{-\ell_{max}}) \rceil$ samples, any candidate of
# size at most $\ell_{max}$ is absent from at least one sample with probability at least $\alpha$. In general form
# a size-$l$ candidate is covered with probability $1 - (1 - p^l)^n$ (`analytic.coverage`); FRED's default
# $n$ is `fred.sample_size(alpha, max_len, p)` ($n = 3067$ for $\alpha = 0.95$, $\ell_{max} = 10$, $p = 1/2$).
#
# **Check.** FRED's mask sampler draws rows of an $l$-token document until one perturbs every token; the
# fraction of simulated designs covered within $n$ rows is compared with the closed form. The lemma speaks of
# one candidate at a time; the right panel shows the probability that *every* candidate of size
# $\le \ell_{max}$ is covered at once (exact by inclusion-exclusion, `analytic.joint_coverage`, and by
# Monte Carlo), which at FRED's $n$ is below $\alpha$.

# %%
import numpy as np
from IPython.display import Image

from analytic import coverage, joint_coverage
from fred import sample_size
from proofs_checks.figures import lemma2_coverage_data, lemma2_coverage_figure, notebook_settings, save_figure

settings = notebook_settings()
data = lemma2_coverage_data(seed=settings.seed, quick=settings.quick)

# %% [markdown]
# ## The check in numbers
#
# Largest gap between the simulated and the closed-form coverage for each size, and the joint coverage at
# FRED's $n$ for the 5-token document.

# %%
for k, size in enumerate(data.sizes):
    grid = np.unique(np.round(np.logspace(0, np.log10(data.horizon[k]), 12)).astype(int))
    gap = np.max(np.abs(data.simulated_coverage(k, grid) - coverage(grid, data.p, size)))
    print(f"l={size}: max |simulated - 1-(1-p^l)^n| = {gap:.3f} over {data.n_sims} designs")
for max_len in data.joint_max_lens:
    n = sample_size(0.95, data.p, max_len)
    joint = joint_coverage(data.joint_b, n, data.p, max_len)
    print(f"l_max={max_len}: FRED's n={n}, one candidate {float(coverage(n, data.p, max_len)):.3f}, "
          f"all C({data.joint_b},{max_len}) at once {joint:.3f}")
    assert joint < 0.95 <= float(coverage(n, data.p, max_len))

# %% [markdown]
# ## The figure

# %%
files = save_figure(lemma2_coverage_figure(data), settings.out, "lemma2_coverage")
Image(filename=str(files.png))
