"""baseline-anchor-bert (line 382): anchor-exp's option of sampling with a BERT masked language model.

The source reading is compared with literal names (read from the installed package by hand), the sampler checker
is fed a planted run with a word the generator never predicted, and the stub must not outlive the claim's run."""

from __future__ import annotations

import pytest

from proofs_checks.claims.baselines import baseline_anchor_bert as claim

EVAL_EXTRA = "the baseline packages are the eval extra (pip install 'fred-theory[eval]'), not installed here"


def test_source_reading_names_distilbert():
    """Catches a source parser that finds no model or the wrong one: the installed TextGenerator imports
    DistilBertForMaskedLM and DistilBertTokenizer and loads 'distilbert-base-cased' (literal, read by hand)."""
    pytest.importorskip("anchor", reason=EVAL_EXTRA)
    assert claim.transformers_names() == {"imported": ["DistilBertForMaskedLM", "DistilBertTokenizer"],
                                          "checkpoints": ["distilbert-base-cased"]}


def test_sampler_check_refuses_a_word_the_generator_never_predicted():
    """Catches a checker that would accept a sampler drawing replacements from elsewhere (a planted row holding
    'pizza', which the stub never predicts)."""
    generator = claim.StubGenerator()
    generator.asked.append("[MASK] food was good")
    run = {"generator": generator, "words": ["the", "food", "was", "good"],
           "rows": [["nice", "food", "was", "good"], ["pizza", "food", "was", "good"]]}
    assert claim.generator_predicts_the_missing_words(run).status == "fails"
    run["rows"] = run["rows"][:1]
    assert claim.generator_predicts_the_missing_words(run).status == "holds"


def test_the_stub_does_not_outlive_the_run_and_the_verdict_holds():
    """Catches a leaked patch (other claims would build the stub in place of anchor-exp's generator) and a wrong
    verdict: the option is in the signature (default off), its sampler asks the generator, which is DistilBERT."""
    pytest.importorskip("anchor", reason=EVAL_EXTRA)
    pytest.importorskip("spacy", reason=EVAL_EXTRA)
    from anchor import anchor_text

    result = claim.check()
    assert anchor_text.TextGenerator is not claim.StubGenerator
    assert result.status == "holds"
    s2 = next(s for s in result.steps if s.id.endswith("s2-sampler-asks-the-generator"))
    assert s2.values["asked"] > 0 and s2.values["replaced"] > 0
