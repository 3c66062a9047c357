"""baseline-anchor-pos-sampling (line 386): the cited proposal (argued) and the installed package's sampler (read
from its source).

The source reader is fed planted sources that do implement a same-tag, similarity-weighted sampler, and must find
it; the verdict is compared with literal expectations."""

from __future__ import annotations

import pytest

from proofs_checks.claims.baselines import baseline_anchor_pos_sampling as claim
from proofs_checks.claims.baselines.baseline_anchor_pos_sampling import source_reading

EVAL_EXTRA = "the baseline packages are the eval extra (pip install 'fred-theory[eval]'), not installed here"

PLANTED = '''
def get_sample_fn(text, classifier_fn, onepass=False, use_proba=False):
    neighbours = [w for w in vocab if w.tag_ == token.tag_]
    weights = [token.similarity(w) for w in neighbours]
    return weights if use_proba else neighbours

def explain_instance(text, classifier_fn, use_proba=False):
    return get_sample_fn(text, classifier_fn, use_proba=use_proba)
'''


def test_source_reader_finds_a_planted_pos_sampler():
    """Catches a reader blind to what it looks for: a planted module that filters by .tag_, weights by .similarity
    and branches on use_proba must show all three (and passing use_proba on is not a read)."""
    seen = source_reading(PLANTED)
    assert seen["pos_or_embedding_attributes"] == ["similarity", "tag_"]
    assert seen["use_proba_reads"] == {"get_sample_fn": 1, "explain_instance": 0}


def test_source_reader_passes_a_module_without_one():
    """Catches a reader that sees a sampler everywhere: a module that only masks reads none of the attributes."""
    seen = source_reading("def get_sample_fn(text, use_proba=False):\n    return text.replace('a', 'UNK')\n")
    assert seen == {"pos_or_embedding_attributes": [], "use_proba_reads": {"get_sample_fn": 0}}


def test_verdict():
    """Catches a wrong verdict: the proposal is the cited paper's (argued); the installed release has no such
    sampler (the alternative reading fails), its use_proba unread in both functions."""
    pytest.importorskip("anchor", reason=EVAL_EXTRA)
    result = claim.check()
    assert result.status == "argued" and result.reading_status("installed") == "fails"
    s1 = next(s for s in result.steps if s.id.endswith("s1-installed-sampler"))
    assert s1.values["use_proba_reads"] == {"get_sample_fn": 0, "explain_instance": 0}
