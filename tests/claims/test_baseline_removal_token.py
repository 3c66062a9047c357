"""baseline-removal-token (line 379): what LIME, SHAP and Anchors put in place of a removed word by default.

The packages' outputs are compared with literal expectations written here from the packages' documented behaviour,
not with the claim's reader :func:`in_place`; the reader itself is checked on planted wrong outputs."""

from __future__ import annotations

import numpy as np
import pytest

from proofs_checks.claims.baselines import baseline_removal_token as claim
from proofs_checks.claims.baselines.baseline_removal_token import in_place

#: Why a test that runs a baseline package skips: the package is the evaluation's, not a core dependency.
EVAL_EXTRA = "the baseline packages are the eval extra (pip install 'fred-theory[eval]'), not installed here"


@pytest.mark.parametrize("output, expected", [
    ("UNK food UNK", "each"),        # a token for each removed word
    ("...food ...", "each"),         # runs of one word: one token each
    ("  food  ", "deleted"),         # nothing in place
    ("bad food UNK", None),          # a real word in place of a removed one: no predefined token
    ("UNK UNK food UNK", None),      # one token too many
    ("food UNK", None),              # the first removed word lost without a token
])
def test_in_place_refuses_outputs_that_are_not_a_token_in_place(output, expected):
    """Catches a reader that calls masking what is not: a real word put in place, a token too many or too few
    (each would let a package that does not mask pass the headline)."""
    token = "..." if output.startswith("...") else "UNK"
    assert in_place(["good", "food", "here"], {0, 2}, output, token) == expected


def test_in_place_tells_a_run_from_each_word():
    """Catches a reader that counts shap's collapsed '...' (one per run of removed words) as a token per word."""
    words = ["a", "b", "c", "d"]
    assert in_place(words, {0, 1}, "...c d", "...") == "run"
    assert in_place(words, {0, 1}, "... ... c d", "...") == "each"


def test_lime_default_deletes_removed_words():
    """Catches a wrong headline on LIME: LimeTextExplainer() (bow=True) leaves no token where a word was removed;
    every row it sends the model holds only the document's words, in order, fewer of them."""
    lime_text = pytest.importorskip("lime.lime_text", reason=EVAL_EXTRA)
    rows = []

    def model(texts):
        rows.extend(texts)
        return np.column_stack([np.zeros(len(texts)), np.ones(len(texts))])

    lime_text.LimeTextExplainer(random_state=1).explain_instance("good food here", model, num_samples=50)
    document = ["good", "food", "here"]
    for row in rows:
        kept = row.split()
        assert kept == [w for w in document if w in kept], row  # a subsequence of the document's words
    assert any(len(r.split()) < 3 for r in rows)


def test_lime_with_bow_false_and_anchor_default_put_their_tokens():
    """Catches the corrected statement's tokens going stale: lime's bow=False puts UNKWORDZ, anchor-exp's default
    puts UNK, shap's maskers.Text() puts '...' (literal expectations, from the packages' documentation)."""
    lime_text = pytest.importorskip("lime.lime_text", reason=EVAL_EXTRA)
    shap = pytest.importorskip("shap", reason=EVAL_EXTRA)
    assert lime_text.IndexedString("good food here", bow=False).inverse_removing([1]) == "good UNKWORDZ here"
    assert str(shap.maskers.Text()(np.array([True, False, True]), "good food here")[0][0]) == "good ...here"
    anchor_text = pytest.importorskip("anchor.anchor_text", reason=EVAL_EXTRA)
    assert anchor_text.AnchorText.__init__.__defaults__ == (True, "UNK")


def test_verdict_fails_on_lime_and_the_corrected_statement_holds():
    """Catches the headline turning on a package other than the one that deletes, or a counterexample outside the
    hypotheses: lime alone fails s1, the weaker reading holds, the corrected statement's steps all hold."""
    pytest.importorskip("lime", reason=EVAL_EXTRA)
    pytest.importorskip("shap", reason=EVAL_EXTRA)
    pytest.importorskip("anchor", reason=EVAL_EXTRA)
    result = claim.check()
    s1 = next(s for s in result.steps if s.id.endswith("s1-every-default-masks"))
    assert s1.status == "fails" and s1.values["masks"] == {"anchor": True, "shap": True, "lime": False}
    assert result.status == "fails" and result.reading_status("offers") == "argued"
    assert result.corrected_status == "argued"  # p3 (shap's rows) is argued
    assert result.counterexample["output"] == "" and result.counterexample["satisfies_hypotheses"]
