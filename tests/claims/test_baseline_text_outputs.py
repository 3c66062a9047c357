"""baseline-text-outputs (lines 194-195, 1166): what LIME, SHAP and Anchors return on a text, counted on a document
with a repeated word.

The packages' outputs are compared with literal expectations (the positions and distinct words of the document,
written here), and the every-token checker is fed planted outputs that leave a token without a score or are not a
set of tokens."""

from __future__ import annotations

import pytest

from proofs_checks.claims.baselines import baseline_text_outputs as claim

EVAL_EXTRA = "the baseline packages are the eval extra (pip install 'fred-theory[eval]'), not installed here"

#: lime's per-type weights on 'good food good service', written by hand: 'good' covers tokens 0 and 2.
TYPES = [[0, "good", 0.4, [0, 2]], [1, "food", 0.1, [1]], [2, "service", 0.1, [3]]]
SHAP4 = [[w, 0.1] for w in ["good", "food", "good", "service"]]


def _seen(lime, shap, anchor):
    return {"lime": lime, "shap": shap, "anchor": {"positions": anchor, "names": [], "precision": 1.0}}


@pytest.mark.parametrize("lime, shap, anchor", [
    (TYPES[1:], SHAP4, [2]),                              # lime leaves the two 'good' tokens without a score
    ([[0, "good", 0.4, [0]]] + TYPES[1:], SHAP4, [2]),    # lime scores one occurrence of 'good' only
    (TYPES, SHAP4[:3], [2]),                              # shap one value short
    (TYPES, SHAP4, [2, 2]),                               # the anchor repeats a position: not a set
    (TYPES, SHAP4, [4]),                                  # the anchor names a position the document has not
    (TYPES, SHAP4, []),                                   # no anchor at all
])
def test_every_token_scored_refuses_a_token_left_out(lime, shap, anchor):
    """Catches a checker that counts weights instead of the tokens they cover (a token left without a score would
    pass), or that passes a non-set anchor (planted outputs); per-type weights covering every token pass."""
    assert claim.every_token_scored(_seen(lime, shap, anchor)).status == "fails"
    step = claim.every_token_scored(_seen(TYPES, SHAP4, [2]))
    assert step.status == "holds" and step.values["lime_shared_scores"] == {"good": [0, 2]}


def test_lime_weights_are_per_word_type_covering_every_token():
    """Catches the claim's token map going stale against lime: at its default lime returns one weight per distinct
    word, 'good' covering tokens 0 and 2, 'food' 1, 'service' 3 (literal expectations)."""
    pytest.importorskip("lime", reason=EVAL_EXTRA)
    got = {w: tokens for _, w, _, tokens in claim.lime_scores(claim.DOCUMENT)}
    assert got == {"good": [0, 2], "food": [1], "service": [3]}


def test_verdict_principle_holds_defaults_hold_with_shared_scores():
    """Catches a wrong headline, or the bug the claim once had (a reading failing on lime's shared per-type scores,
    which still give every token a score): both readings hold (argued only on what the methods define and on 'most
    significant'), and the precision (one weight per word type) is checked in the precise statement."""
    for module in ("lime", "shap", "anchor"):
        pytest.importorskip(module, reason=EVAL_EXTRA)
    result = claim.check()
    assert result.headline.id == "principle" and result.status == "argued"
    assert result.reading_status("defaults") == "argued" and result.corrected_status == "argued"
    assert all(s.status != "fails" for s in result.steps)
    step = next(s for s in result.steps if s.id.endswith("s1-every-token-scored"))
    assert step.values["lime"] and step.values["shap"] and step.values["tokens"] == 4
    assert "bow=False" not in step.note  # the released call's bow=False is experiment-protocol-defaults'


def test_headline_says_tokens_not_every_token_and_defaults_limited_to_ten_words():
    """Catches the headline reading line 195 as 'every token' (it says 'assign importance scores to tokens'), and
    the 'defaults' reading claiming every token at any length where lime's default num_features = 10 weights only 10
    words: on the 12 distinct words of LONG_DOCUMENT (counted here by hand: 12 words, none repeated) lime gives 10
    weights, 2 words none, and the 'defaults' reading says it is limited to at most 10 distinct words."""
    for module in ("lime", "shap", "anchor"):
        pytest.importorskip(module, reason=EVAL_EXTRA)
    words = claim.LONG_DOCUMENT.split()
    assert len(words) == len(set(words)) == 12
    result = claim.check()
    readings = {r.id: r.meaning for r in result.readings}
    assert "every" not in readings["principle"] and "every token an" not in result.corrected
    assert "at most num_features = 10 distinct words" in readings["defaults"]
    step = next(s for s in result.steps if s.id.endswith("c2-lime-default-ten-words"))
    assert step.status == "holds" and step.role == "correction"
    assert step.values["weights"] == 10 and len(step.values["unweighted"]) == 2
    assert set(step.values["unweighted"]) <= set(words)
