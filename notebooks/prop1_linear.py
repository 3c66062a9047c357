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
# # Proposition 1: linear models (the paper's Figure 3)
#
# **Claim (Prop. 1).** For $f(z) = \lambda^\top\phi(z) + \lambda_0$ on un-normalised TF-IDF, with
# $\lambda_1 v_1 > \dots > \lambda_d v_d$, the optimal candidate (i) contains no word with a negative
# coefficient and (ii) is built by adding words of highest $\lambda_j v_j$ first until the threshold
# $\varepsilon\,\mathbb E[f]$ is met.
#
# **Check.** A fitted `TfidfVectorizer(norm=None)` + `Ridge` of the family explains a review over its vocabulary
# with repeated words. We enumerate the exact drop of *every* candidate over all $2^b$ mask patterns
# (`analytic.all_drops`); the best of each size must equal $(1-p)$ times the sum of the $l$ largest per-position
# weights $a_i$ (`analytic.linear_best_drops`; the paper's proof writes $p$ instead of $1-p$, equal only at
# $p = 1/2$). Then FRED runs with Monte Carlo samples and its drops are computed from the rows it drew (Eq. 3).

# %%
import numpy as np
from IPython.display import Image

from analytic import linear_minimal_size
from proofs_checks.figures import notebook_settings, prop1_linear_data, prop1_linear_figure, save_figure

settings = notebook_settings()
data = prop1_linear_data(seed=settings.seed, quick=settings.quick)

# %% [markdown]
# ## The check in numbers

# %%
b = len(data.tokens)
print("a_i per word:", {t: round(float(a), 3) for t, a in zip(data.tokens, data.a)})
print("best exact drop per size:", np.round(data.best_exact, 3).tolist())
print("FRED Monte Carlo best per size:", np.round(data.empirical_best, 3).tolist())
size = linear_minimal_size(data.a, np.ones(b, int), data.case.model.intercept_, data.p, data.eps, data.max_len)
print(f"closed-form minimal size {size}; exact Algorithm 1 chose {[data.tokens[i] for i in data.chosen]}; "
      f"FRED chose {[data.tokens[i] for i in data.fred_ids]} (n={data.n_samples})")
assert size == len(data.chosen)
assert all(data.a[i] > 0 for i in data.chosen), "Prop. 1 (i): no negative word in the optimal candidate"

# %% [markdown]
# ## The figure
#
# Grey: the exact drop of every candidate, by size. Black: the best of each size, which adds one word at a time
# in decreasing $a_i$ (labels). Red line: $\varepsilon\,\mathbb E[f]$; the red star is the first size above it.
# Blue crosses: FRED's Monte Carlo drops of the best candidate of each size; the blue diamond is FRED's answer.

# %%
files = save_figure(prop1_linear_figure(data), settings.out, "prop1_linear")
Image(filename=str(files.png))
