"""Proposition 1's words (lines 492-494) and the readings of them that its claims share.

Prop. 1 says "the solution to Eq. (2) is such that (i) words associated with a negative coefficient do not appear in
the optimal candidate, and (ii) the algorithm starts including the words with higher lambda_j idf_j until a
threshold is met" (line 494). The headline reading, :data:`FRED_CHOICE`, reads (i) and (ii) of the candidate FRED
selects (the paraphrase of lines 497-498, Figure 2's caption, line 520, and the end of the proof, line 1020);
:data:`EVERY_SOLUTION_II` reads (ii) of every minimiser of Eq. (2). The claims prop1-linear (the linear model of
Eq. (6)) and prop1-logistic (this project's extension to a logistic regression) quote and read the proposition
through these constants, each adding its own reading of (i) for every solution.
"""

from __future__ import annotations

from ...verdicts.results import Quote, Reading

#: Proposition 1's words (line 494 is split so that each reading can quote the clause it reads).
PROPOSITION = (
    Quote(492, r"Let $\lambda,\lambda_0$ be the coefficients associated to the linear classifier defined by "
               r"Eq.~\eqref{eq:def-linear-classifier}."),
    Quote(493, r"Assume $\lambda_1 \idf_1 > \lambda_2 \idf_2 > \cdots > \lambda_d \idf_d$."),
    Quote(494, r"Then, the solution to Eq.~\eqref{eq:optimal-candiate} is such that (i) words associated with a "
               r"negative coefficient do not appear in the optimal candidate, and (ii) the algorithm starts including "
               r"the words with higher $\lambda_j\idf_j$ until a threshold is met."),
)
#: The words that make (i) and (ii) speak of what FRED (Algorithm 1) selects.
FRED_CHOICE_WORDS = (
    Quote(497, r"In simpler terms, Proposition~\ref{prop:linear-models} reveals that {in the case of a linear "
               r"classifier, FRED retains only words that positively impact the prediction}."),
    Quote(498, r"Furthermore, it {prioritizes words with the highest $\lambda_j\idf_j$ values}, gradually including "
               r"them in the explanation until the desired confidence level is achieved."),
    Quote(520, r"On linear models, Algorithm \ref{algo:fred} includes words having the highest $\lambda_j\idf_j$s "
               r"first. Finally, the minimal candidate satisfying the threshold condition is selected"),
    Quote(1020, r"and, for any fixed length $\length$, this quantity is maximized by the subset $\candidate$ having "
                r"$\size{\candidate} = \length$ and containing the firsts $\length$ words ranked by "
                r"$\lambda_j\idf_j$."),
)
#: "The solution" / "the optimal candidate": Eq. (2) and its definition, read for every minimiser.
SOLUTION_WORDS = (
    Quote(494, r"Then, the solution to Eq.~\eqref{eq:optimal-candiate} is such that (i) words associated with a "
               r"negative coefficient do not appear in the optimal candidate"),
    Quote(255, r"The optimal candidate, denoted as $\candidate^\star$, is determined by minimizing the size of the "
               r"candidate subset while ensuring that it causes the average prediction $\expec{\model(x)}$ to drop by "
               r"a significant amount, \emph{i.e.}, it is such that $\candrop_{\candidate^\star} \geq \epsilon \cdot "
               r"\expec{\model(x)}$"),
)
#: The headline reading of both claims: (i) and (ii) of the candidate FRED selects.
FRED_CHOICE = Reading(
    "fred-choice", "headline",
    "(i) and (ii) speak of the candidate FRED selects (Algorithm 1 on exact drops: the largest drop at the minimal "
    "size whose drop reaches eps E[f]): it has no word of negative lambda_j idf_j, and it is the set of the words of "
    "largest lambda_j idf_j, taken in that order until the threshold is met.",
    why=(PROPOSITION[2],) + FRED_CHOICE_WORDS)
#: (ii) of every solution of Eq. (2): a stronger reading of both claims.
EVERY_SOLUTION_II = Reading(
    "every-solution-ii", "stronger",
    "(ii) also for every solution of Eq. (2), although it names 'the algorithm': every minimiser is the set of the "
    "words of largest lambda_j idf_j.", why=(PROPOSITION[2], SOLUTION_WORDS[1]))
