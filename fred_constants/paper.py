"""The numbers the whole project shares, named once: the paper's defaults, the released code's settings, the tie
tolerance and the referee's largest document.

``fred`` (the reference explainer), ``analytic`` (the closed forms and the exact referee) and ``proofs_checks``
all import this module; it lives in a package of its own, below them, because ``fred`` and ``analytic`` never
import each other. It imports nothing of the project.

The paper's defaults are those of section 2.4 ("we set by default alpha = 0.95 and the token perturbation
probability p = 0.5", line 372) and section 4 (eps = 0.15, l_max = 10), each also given exactly as a
``Fraction`` for the rational referee:

>>> (P, EPS, ALPHA) == (float(P_EXACT), float(EPS_EXACT), float(ALPHA_EXACT))
True
"""

from __future__ import annotations

from fractions import Fraction

# ------------------------------------------------------------------------------------------- the paper's defaults
#: Probability of perturbing each token (line 372).
P = 0.5
#: The drop must reach eps times the prediction (section 4).
EPS = 0.15
#: l_max, the largest candidate size (section 4).
MAX_LEN = 10
#: The token a perturbed position shows under mask sampling (the UNK of the paper's Table 1, lines 322-326).
MASK_TOKEN = "UNK"
#: Lemma 2's alpha: every candidate of size <= l_max is perturbed by some sample with probability >= alpha (l. 372).
ALPHA = 0.95
#: The same defaults in exact arithmetic.
P_EXACT = Fraction(1, 2)
#: ... eps = 3/20 ...
EPS_EXACT = Fraction(3, 20)
#: ... and alpha = 19/20.
ALPHA_EXACT = Fraction(19, 20)

# ------------------------------------------------------------------------------------------ choices of the method
#: d(x) = baseline value - f(x): the baseline value is E[f] ("mean", the paper's Eq. 1) or f(xi) ("original", the
#: released code's).
BASELINES = ("mean", "original")
#: Candidate searches: Algorithm 1 (every subset of each size), fred's beam, the released code's beam.
STRATEGIES = ("exhaustive", "beam", "released-beam")
#: What ``Fred(search=...)`` accepts: "auto" resolves to exhaustive or beam by the candidate budget.
SEARCHES = ("auto", *STRATEGIES)
#: Two drops within ``TIE_RTOL * max(1, max |f|)`` are tied (ties go to the smallest sorted position tuple), and a
#: drop that close to the threshold meets it: summation order moves a float drop by a few ulps of max |f|.
TIE_RTOL = 1e-12

# ------------------------------------------------------------------------------------------ the released code's
#: Where the released code's settings were read (described, never copied: the code has no licence).
RELEASED_REPOSITORY = "github gianluigilopardo/fred"
#: ... the file of that repository holding its search ...
RELEASED_FILE = "fred/explainer.py"
#: ... at this commit.
RELEASED_COMMIT = "ead469e"
#: Its beam keeps 4 candidates per size (also fred's default ``beam_width``) ...
RELEASED_WIDTH = 4
#: ... and extends each only by the 10 positions outside it of largest singleton drop.
RELEASED_EXTENSIONS = 10
#: Its threshold is eps * f(xi), and it draws 5000 samples per explanation.
RELEASED_BASELINE = "original"
#: ... and its number of samples per explanation.
RELEASED_N_SAMPLES = 5000

# ------------------------------------------------------------------------------------------------ the suite's
#: Largest document the exact referee enumerates (2**22 patterns, a few dozen MB per array).
MAX_TOKENS = 22
#: False-alarm probability of every Monte Carlo check of the suite (the developers' guide: at most 1e-6).
DELTA = 1e-6
#: Significance level of the paired tests on the paper's tables.
LEVEL = 0.05
#: The margin of "close" in the paper's tables, in pooled standard deviations of the two printed columns: Cohen's
#: conventional "small" effect (J. Cohen, Statistical Power Analysis for the Behavioral Sciences, 2nd ed., 1988,
#: chapter 2, the t test for means: d = 0.2), declared before the tables were compared (proofs_checks.paper.yardstick).
SMALL_EFFECT = 0.2
