"""Line 386: "Note that \\citet{ribeiro2018anchors} proposes replacing the tokens with random words with the same
part-of-speech tag with probability proportional to their similarity in the embedding space."

The sentence attributes the proposal to Ribeiro et al. (2018): that is the headline reading, argued from their paper
(no computation can check what a paper proposes). Beside it, since line 382 speaks of "Anchors' official
implementation", a reader may take the sampler to be the package's: that reading is checked on the installed
anchor-exp by parsing its text module (a source reading: it proves what the code can do, not a run). The installed
release has no part-of-speech or embedding sampler: its only alternative to masking is the DistilBERT generator
(claim baseline-anchor-bert), and its ``use_proba`` argument is accepted and never read.
"""

from __future__ import annotations

import ast
import inspect

from ...paper.baselines import absent_step, package_versions
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult

CLAIM = Claim("baseline-anchor-pos-sampling", new=True)
SENTENCE = Quote(386, r"Note that \citet{ribeiro2018anchors} proposes replacing the tokens with random words with the "
                      r"same part-of-speech tag with probability proportional to their similarity in the embedding "
                      r"space.")
SOURCE = (SENTENCE, Quote(382, "Anchors' official implementation has the option of sampling by making BERT predict the "
                               "missing words."))
READINGS = (
    Reading("cited-paper", "headline", "Ribeiro et al. (2018) propose, for text, replacing the absent tokens by random "
            "words of the same part-of-speech tag, drawn with probability proportional to their embedding similarity.",
            why=(Quote(386, r"Note that \citet{ribeiro2018anchors} proposes"),)),
    Reading("installed", "alternative", "The official implementation the paper ran (anchor-exp, as installed) offers "
            "that sampler.", why=(Quote(382, "Anchors' official implementation has the option"),)),
)
STATEMENT = ("Line 386: Ribeiro et al. (2018) propose replacing the tokens with random words with the same "
             "part-of-speech tag with probability proportional to their similarity in the embedding space.")
CONDITIONS = (
    "The cited paper (Ribeiro, Singh and Guestrin, AAAI 2018), read, not computed. The installed anchor-exp (version "
    "in the values): the source of its module anchor.anchor_text, parsed with ast: the spaCy token attributes it reads "
    "(part-of-speech tags are .pos_ and .tag_; embedding similarity is .similarity or .vector) and where "
    "explain_instance's and get_sample_fn's use_proba argument is read.")
#: spaCy token attributes a part-of-speech or embedding sampler would read.
POS_OR_EMBEDDING = ("pos_", "tag_", "similarity", "vector", "most_similar")
#: The anchor_text functions that take use_proba.
TAKE_USE_PROBA = ("explain_instance", "get_sample_fn")


def source_reading(source: str) -> dict:
    """What a module can do, parsed from its ``source`` (the installed anchor.anchor_text's): which
    POS_OR_EMBEDDING attributes it reads anywhere, and, for each of TAKE_USE_PROBA, how often its body reads
    ``use_proba`` other than passing it on under the same name.

    >>> source_reading("def get_sample_fn(t, use_proba=False):\\n    return t.tag_ if use_proba else t")
    {'pos_or_embedding_attributes': ['tag_'], 'use_proba_reads': {'get_sample_fn': 1}}
    """
    tree = ast.parse(source)
    attributes = sorted({n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} & set(POS_OR_EMBEDDING))
    reads = {}
    for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in TAKE_USE_PROBA):
        passed_on = {id(k.value) for n in ast.walk(function) if isinstance(n, ast.Call) for k in n.keywords
                     if k.arg == "use_proba"}
        reads[function.name] = sum(1 for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == "use_proba"
                                   and id(n) not in passed_on)
    return {"pos_or_embedding_attributes": attributes, "use_proba_reads": reads}


def installed_has_no_such_sampler() -> StepResult:
    """s1 (installed): the installed text module reads no part-of-speech tag or embedding similarity, and use_proba
    is only passed on, never read: it has no same-tag, similarity-weighted sampler."""
    absent = absent_step(CLAIM, "s1-installed-sampler", "statement", "exhaustive", ("anchor-exp",),
                         reading="installed")
    if absent:
        return absent
    from anchor import anchor_text

    seen = source_reading(inspect.getsource(anchor_text))
    none = not seen["pos_or_embedding_attributes"] and not any(seen["use_proba_reads"].values())
    return CLAIM.checked(
        "s1-installed-sampler", "statement", "exhaustive",
        f"Parsed from the installed anchor.anchor_text: part-of-speech or embedding attributes it reads: "
        f"{seen['pos_or_embedding_attributes'] or 'none'}; use_proba read (other than passed on) in "
        f"{seen['use_proba_reads']}. So the installed release has no same-tag sampler weighted by similarity: its "
        "alternative to masking draws the missing words from DistilBERT's predictions (baseline-anchor-bert), and "
        "use_proba does nothing. A source reading: it proves what the code can do, not a run of it.",
        holds=not none, values={**seen, "versions": package_versions()}, reading="installed")


def cited_paper_argued() -> StepResult:
    """s2 (cited-paper): what Ribeiro et al. propose (argued from their paper)."""
    return CLAIM.argued(
        "s2-ribeiro-proposal", "statement",
        "Ribeiro et al. (2018), text experiments: the perturbation distribution replaces the words outside the anchor "
        "by random words of the same part-of-speech tag, with probability proportional to their similarity in an "
        "embedding space. Read from the cited paper, not computed (a paper's proposal is not a quantity). Earlier "
        "versions of the official repository implemented such a sampler (marcotcr/anchor, anchor/utils.py at commit "
        "0454950: Neighbors, a table of spaCy vector similarities, and perturb_sentence, restricted to the token's "
        "tag); that code is not installed here and was read, not run. The installed release has replaced it (s1).",
        reading="cited-paper")


def the_words_are_a_paraphrase() -> StepResult:
    """p1 (cited-paper): the paper's sentence restates the cited proposal (argued)."""
    return CLAIM.argued(
        "p1-restates-the-proposal", "proof",
        "Line 386 restates the cited proposal in the cited paper's own terms (same tag, random words, probability "
        "proportional to embedding similarity); nothing in it is the FRED paper's own result.", reading="cited-paper")


def check() -> ClaimResult:
    """The proposal argued from the cited paper; the installed package's source read for such a sampler."""
    steps = (cited_paper_argued(), the_words_are_a_paraphrase(), installed_has_no_such_sampler())
    return CLAIM.result(kind="baseline", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)
