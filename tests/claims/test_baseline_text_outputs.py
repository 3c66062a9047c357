"""baseline-text-outputs (lines 194-195, 1166): what LIME, SHAP and Anchors return on a text, counted on a document
with a repeated word.

The packages' outputs are compared with literal expectations (the positions and distinct words of the document,
written here), and the per-token checker is fed planted outputs that are not one score per token."""

from __future__ import annotations

import pytest

from proofs_checks.claims.baselines import baseline_text_outputs as claim

EVAL_EXTRA = "the baseline packages are the eval extra (pip install 'fred-theory[eval]'), not installed here"


def _seen(lime, shap, anchor):
    return {"lime-bow-false": lime, "lime-bow-true": lime, "shap": shap,
            "anchor": {"positions": anchor, "names": [], "precision": 1.0}}


FOUR = [[i, w, 0.1] for i, w in enumerate(["good", "food", "good", "service"])]
SHAP4 = [[w, 0.1] for w in ["good", "food", "good", "service"]]


@pytest.mark.parametrize("lime, shap, anchor", [
    (FOUR[:3], SHAP4, [2]),          # lime one score short: a score per word type, not per token
    (FOUR, SHAP4[:3], [2]),          # shap one value short
    (FOUR, SHAP4, [2, 2]),           # the anchor repeats a position: not a set
    (FOUR, SHAP4, [4]),              # the anchor names a position the document has not
    (FOUR, SHAP4, []),               # no anchor at all
])
def test_per_token_refuses_outputs_that_are_not_per_token(lime, shap, anchor):
    """Catches a checker that passes a word-type score as per token, or a non-set anchor (planted outputs)."""
    assert claim.per_token(_seen(lime, shap, anchor), "lime-bow-false", "as-run").status == "fails"
    assert claim.per_token(_seen(FOUR, SHAP4, [2]), "lime-bow-false", "as-run").status == "holds"


def test_lime_features_are_positions_or_word_types():
    """Catches the claim's counts going stale against lime's own explanation: at bow=False lime's map is keyed by
    the 4 positions, at bow=True by the 3 distinct words (literal expectations for 'good food good service')."""
    pytest.importorskip("lime", reason=EVAL_EXTRA)
    assert sorted(f for f, _, _ in claim.lime_scores(claim.DOCUMENT, False)) == [0, 1, 2, 3]
    assert sorted(w for _, w, _ in claim.lime_scores(claim.DOCUMENT, True)) == ["food", "good", "service"]


def test_verdict_released_call_holds_defaults_fail():
    """Catches a wrong headline: as the paper ran them (lime bow=False) one score per token (argued only on what
    'most significant' means); at lime's defaults the 2-token 'good good' gets 1 weight (the reading fails)."""
    for module in ("lime", "shap", "anchor"):
        pytest.importorskip(module, reason=EVAL_EXTRA)
    result = claim.check()
    assert result.status == "argued" and result.reading_status("defaults") == "fails"
    smallest = next(s for s in result.steps if s.id.endswith("s3-smallest-repeat-defaults"))
    assert smallest.status == "fails" and len(smallest.values["lime_weights"]) == 1
    assert result.corrected_status == "argued"
