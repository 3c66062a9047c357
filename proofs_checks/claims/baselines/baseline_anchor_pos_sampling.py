"""Line 386: "Note that \\citet{ribeiro2018anchors} proposes replacing the tokens with random words with the same
part-of-speech tag with probability proportional to their similarity in the embedding space."

The sentence's subject is the cited paper ("Ribeiro et al. proposes"), so its one reading is what that paper
proposes, argued from the paper (no computation can check what a paper proposes). It makes no claim about the
package: line 382, before it, says the official implementation samples with BERT. So the installed anchor-exp is read
only for context, in an argued step that marks no sentence wrong: parsed from its text module (a source
reading: what the code can do, not a run), the installed release does not implement this proposal (it reads no
part-of-speech tag or embedding similarity; its alternative to masking is the DistilBERT generator, claim
baseline-anchor-bert; its ``use_proba`` argument is accepted and never read), although its docstring still says that
``use_unk_distribution=False`` replaces words "by similar words using word embeddings".
"""

from __future__ import annotations

import ast
import inspect

from ...paper.baselines import missing, package_versions
from ...verdicts.results import Claim, ClaimResult, Quote, StepResult

CLAIM = Claim("baseline-anchor-pos-sampling", new=True)
SENTENCE = Quote(386, r"Note that \citet{ribeiro2018anchors} proposes replacing the tokens with random words with the "
                      r"same part-of-speech tag with probability proportional to their similarity in the embedding "
                      r"space.")
SOURCE = (SENTENCE, Quote(382, "Anchors' official implementation has the option of sampling by making BERT predict the "
                               "missing words."))
STATEMENT = ("Line 386: Ribeiro et al. (2018) propose replacing the tokens with random words with the same "
             "part-of-speech tag with probability proportional to their similarity in the embedding space.")
CONDITIONS = (
    "The cited paper (Ribeiro, Singh and Guestrin, AAAI 2018), read, not computed. For context only (deciding "
    "nothing about the paper): the installed anchor-exp's module anchor.anchor_text, parsed with ast: the spaCy token attributes it "
    "reads (part-of-speech tags are .pos_ and .tag_; embedding similarity is .similarity or .vector), the masked "
    "language models it imports, where explain_instance's and get_sample_fn's use_proba argument is read, and what "
    "AnchorText's docstring says of use_unk_distribution=False.")
#: spaCy token attributes a part-of-speech or embedding sampler would read.
POS_OR_EMBEDDING = ("pos_", "tag_", "similarity", "vector", "most_similar")
#: The anchor_text functions that take use_proba.
TAKE_USE_PROBA = ("explain_instance", "get_sample_fn")
#: The installed AnchorText docstring's words on use_unk_distribution=False (whitespace normalised).
EMBEDDING_WORDS = "replaced by similar words using word embeddings"


def source_reading(source: str) -> dict:
    """What a module can do, parsed from its ``source`` (the installed anchor.anchor_text's): which
    POS_OR_EMBEDDING attributes it reads anywhere, which masked language models it imports, and, for each of
    TAKE_USE_PROBA, how often its body reads ``use_proba`` other than passing it on under the same name.

    >>> source_reading("def get_sample_fn(t, use_proba=False):\\n    return t.tag_ if use_proba else t")
    {'pos_or_embedding_attributes': ['tag_'], 'masked_language_models': [], 'use_proba_reads': {'get_sample_fn': 1}}
    """
    tree = ast.parse(source)
    attributes = sorted({n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} & set(POS_OR_EMBEDDING))
    models = sorted({a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
                     if a.name.endswith("MaskedLM")})
    reads = {}
    for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in TAKE_USE_PROBA):
        passed_on = {id(k.value) for n in ast.walk(function) if isinstance(n, ast.Call) for k in n.keywords
                     if k.arg == "use_proba"}
        reads[function.name] = sum(1 for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == "use_proba"
                                   and id(n) not in passed_on)
    return {"pos_or_embedding_attributes": attributes, "masked_language_models": models, "use_proba_reads": reads}


def says_embeddings(docstring: str | None) -> bool:
    """Whether a docstring says the words are replaced by similar words using word embeddings (EMBEDDING_WORDS).

    >>> says_embeddings("If False, words will be replaced by similar words using word\\n    embeddings")
    True
    """
    return EMBEDDING_WORDS in " ".join((docstring or "").split())


def cited_paper_argued() -> StepResult:
    """s1: what Ribeiro et al. propose (argued from their paper), and the official repository's earlier sampler,
    similar to it, read, not run."""
    return CLAIM.argued(
        "s1-ribeiro-proposal", "statement",
        "Ribeiro et al. (2018), text experiments: the perturbation distribution replaces the words outside the anchor "
        "by random words of the same part-of-speech tag, with probability proportional to their similarity in an "
        "embedding space. Read from the cited paper, not computed (a paper's proposal is not a quantity). Before "
        "BERT, the official repository's text sampler was similar to this proposal, not the same sampler "
        "(marcotcr/anchor, anchor/utils.py perturb_sentence, e.g. at commit 76985a3 of 2020-04-06, the last before "
        "BERT was added; read, not run, not installed here): each word outside the anchor whose coarse tag is a "
        "noun, verb, adjective, adverb, adposition or determiner is replaced by one of its most similar vocabulary "
        "words (spaCy vectors, the 500 nearest) that have the same fine-grained tag_, the first top_n of them "
        "(perturb_sentence's default 50; AnchorText passed 100); with use_proba=True they are drawn with weights "
        "similarity^(1/0.4) (temperature 0.4), and only with use_proba=False (AnchorText's default) with weights "
        "proportional to similarity (the word itself excluded), then on a Binomial(n, 1/2) subset of the samples.")


def the_words_are_a_paraphrase() -> StepResult:
    """p1: the paper's sentence restates the cited proposal (argued)."""
    return CLAIM.argued(
        "p1-restates-the-proposal", "proof",
        "Line 386 restates the cited proposal in the cited paper's own terms (same tag, random words, probability "
        "proportional to embedding similarity); nothing in it is the FRED paper's own result, and it says nothing of "
        "the installed package (line 382 does: claim baseline-anchor-bert).")


def installed_release_context() -> StepResult:
    """p2 (context, no reading of line 386): the installed release does not implement the proposal, read from its source;
    its docstring still speaks of word embeddings."""
    absent = missing("anchor-exp")
    if absent:
        return CLAIM.argued("p2-installed-release-context", "proof", "Context only (line 386 makes no claim about "
                            f"the package). {absent}")
    from anchor import anchor_text

    seen = source_reading(inspect.getsource(anchor_text))
    docstring = says_embeddings(inspect.getdoc(anchor_text.AnchorText.__init__))
    return CLAIM.argued(
        "p2-installed-release-context", "proof",
        "Context only, not a reading of line 386 (its subject is the cited paper): the installed "
        f"release ({package_versions().get('anchor-exp')}) does not implement this proposal. Parsed from its "
        f"anchor.anchor_text: part-of-speech or embedding attributes it reads: "
        f"{seen['pos_or_embedding_attributes'] or 'none'}; masked language models it imports: "
        f"{seen['masked_language_models'] or 'none'}; use_proba read (other than passed on) in "
        f"{seen['use_proba_reads']}. Its alternative to masking (use_unk_distribution=False) draws the missing words "
        f"from DistilBERT's predictions (claim baseline-anchor-bert), and use_proba does nothing. Caveat: AnchorText's "
        f"docstring still says that with use_unk_distribution=False words will be '{EMBEDDING_WORDS}' ({docstring}), "
        "which the code no longer does. A source reading (what the code can do, not a run), reported as an argued "
        "step because it tests no words of the paper: it leaves the verdict where s1 and p1 put it.")


def check() -> ClaimResult:
    """The proposal argued from the cited paper; the installed package's source read for context."""
    steps = (cited_paper_argued(), the_words_are_a_paraphrase(), installed_release_context())
    return CLAIM.result(kind="baseline", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE)
