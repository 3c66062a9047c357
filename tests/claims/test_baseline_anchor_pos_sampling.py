"""baseline-anchor-pos-sampling (line 386): the cited proposal (argued) and, for context only, the installed
package's sampler (read from its source).

The source reader is fed planted sources that do implement a same-tag, similarity-weighted sampler, and must find
it; the docstring check is fed planted docstrings; the verdict is compared with literal expectations."""

from __future__ import annotations

import pytest

from proofs_checks.claims.baselines import baseline_anchor_pos_sampling as claim
from proofs_checks.claims.baselines.baseline_anchor_pos_sampling import (
    says_embeddings,
    source_reading,
)

EVAL_EXTRA = "the baseline packages are the eval extra (pip install 'fred-theory[eval]'), not installed here"

PLANTED = '''
from transformers import DistilBertForMaskedLM

def get_sample_fn(text, classifier_fn, onepass=False, use_proba=False):
    neighbours = [w for w in vocab if w.tag_ == token.tag_]
    weights = [token.similarity(w) for w in neighbours]
    return weights if use_proba else neighbours

def explain_instance(text, classifier_fn, use_proba=False):
    return get_sample_fn(text, classifier_fn, use_proba=use_proba)
'''


def test_source_reader_finds_a_planted_pos_sampler():
    """Catches a reader blind to what it looks for: a planted module that filters by .tag_, weights by .similarity,
    branches on use_proba and imports a masked language model must show all four (passing use_proba on is not a
    read)."""
    seen = source_reading(PLANTED)
    assert seen["pos_or_embedding_attributes"] == ["similarity", "tag_"]
    assert seen["masked_language_models"] == ["DistilBertForMaskedLM"]
    assert seen["use_proba_reads"] == {"get_sample_fn": 1, "explain_instance": 0}


def test_source_reader_passes_a_module_without_one():
    """Catches a reader that sees a sampler everywhere: a module that only masks reads none of the attributes."""
    seen = source_reading("def get_sample_fn(text, use_proba=False):\n    return text.replace('a', 'UNK')\n")
    assert seen == {"pos_or_embedding_attributes": [], "masked_language_models": [],
                    "use_proba_reads": {"get_sample_fn": 0}}


@pytest.mark.parametrize("docstring, expected", [
    ("If False, words will be replaced by similar words using word\n        embeddings", True),  # wrapped as installed
    ("If False, words will be replaced by DistilBERT's predictions", False),
    (None, False),
])
def test_docstring_check(docstring, expected):
    """Catches a caveat that is never computed (a check fooled by the docstring's line break, or true of any
    docstring): the installed wording, wrapped, is found; another wording and no docstring are not."""
    assert says_embeddings(docstring) is expected


def test_verdict_no_reading_of_the_package():
    """Catches the bug the claim once had (marking the paper wrong where it makes no claim: a failing 'installed'
    reading of line 386): one reading, the cited paper's, holds (argued); no step fails; the installed release is
    context (an argued step) saying it does not implement the proposal, with the docstring caveat, and the old
    sampler is called similar, not the same."""
    pytest.importorskip("anchor", reason=EVAL_EXTRA)
    result = claim.check()
    assert result.status == "argued" and result.readings == () and all(s.status == "argued" for s in result.steps)
    context = next(s for s in result.steps if s.id.endswith("p2-installed-release-context"))
    assert "does not implement this proposal" in context.note and "(True)" in context.note
    assert "'get_sample_fn': 0, 'explain_instance': 0" in context.note and "DistilBertForMaskedLM" in context.note
    proposal = next(s for s in result.steps if s.id.endswith("s1-ribeiro-proposal"))
    assert "similar to this proposal, not the same sampler" in proposal.note
