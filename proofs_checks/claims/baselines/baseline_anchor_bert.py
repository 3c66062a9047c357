"""Line 382: "Anchors' official implementation has the option of sampling by making BERT predict the missing words."

Checked on the installed anchor-exp. What runs offline: the option's switch (``AnchorText(...,
use_unk_distribution=False)`` builds the package's masked-language-model generator, here replaced by a stub for the
duration of the call) and the package's own sampler driven by that stub (``get_sample_fn`` and its
``SentencePerturber``): which texts it asks the generator to complete and where the words of its samples come from.
What is read, not run: which model the generator loads (parsed from the installed source: DistilBERT,
``distilbert-base-cased``), because running it needs the model's weights, a download. A source reading proves what
the code names, not how the weights behave. Line 384 ("BERT-Anchor is 10 times slower than mask-Anchor") is not
checked here for the same reason: timing it needs those weights.
"""

from __future__ import annotations

import ast
import inspect

import numpy as np

from ...paper.baselines import absent_step, package_versions
from ...verdicts.results import Claim, ClaimResult, Quote, StepResult

CLAIM = Claim("baseline-anchor-bert", new=True)
SOURCE = (
    Quote(382, "To address this issue, Anchors' official implementation has the option of sampling by making BERT "
               "predict the missing words."),
    Quote(381, r"The \texttt{mask-sampling} scheme is often criticized for creating out-of-distribution samples"),
)
STATEMENT = ("Line 382: Anchors' official implementation (anchor-exp) has the option of sampling by making BERT "
             "predict the missing words.")
CONDITIONS = (
    "anchor-exp as installed (version in the values), AnchorText(spacy.blank('en'), classes, use_unk_distribution="
    "False); the package's TextGenerator (which loads DistilBertForMaskedLM 'distilbert-base-cased') replaced during "
    "the run by a stub that answers every masked position with a fixed list of words and scores, so nothing is "
    "downloaded. Document 'the food was good', numpy's seed 0, 200 rows. Line 384's timing (BERT-Anchor 10 times "
    "slower than mask-Anchor) is not checked: it needs the DistilBERT weights, which this offline run does not have.")
DOCUMENT = "the food was good"
#: The stub generator's answer for every masked position: words and their scores (logits).
STUB_WORDS, STUB_SCORES = ("nice", "tasty", "awful", "fine"), (2.0, 1.0, 0.0, -1.0)
ROWS, SEED = 200, 0
#: The stub's mask token (what a BERT tokenizer's mask_token is).
MASK = "[MASK]"


class StubTokenizer:
    """What the package reads of the tokenizer: its mask token."""

    mask_token = MASK


class StubGenerator:
    """Stands for anchor-exp's TextGenerator: ``unmask(text)`` answers each masked position of ``text`` with
    STUB_WORDS and STUB_SCORES, and logs the texts it was asked to complete in ``asked``."""

    def __init__(self, url=None):
        self.bert_tokenizer, self.asked = StubTokenizer(), []

    def unmask(self, text_with_mask: str):
        self.asked.append(text_with_mask)
        return [(list(STUB_WORDS), np.array(STUB_SCORES)) for _ in range(text_with_mask.split().count(MASK))]


def option_run() -> dict:
    """AnchorText(use_unk_distribution=False) built with the stub in place of TextGenerator, then its own sampler
    (get_sample_fn, nothing fixed) asked for ROWS rows; numpy's global seed fixed around the call."""
    import spacy
    from anchor import anchor_text

    real, state = anchor_text.TextGenerator, np.random.get_state()
    try:
        anchor_text.TextGenerator = StubGenerator
        np.random.seed(SEED)
        explainer = anchor_text.AnchorText(spacy.blank("en"), ["negative", "positive"], use_unk_distribution=False)
        words, _, _, sample_fn = explainer.get_sample_fn(DOCUMENT, lambda texts: np.zeros(len(texts), dtype=int))
        texts, kept, _ = sample_fn([], ROWS, compute_labels=False)
    finally:
        anchor_text.TextGenerator = real
        np.random.set_state(state)
    default = anchor_text.AnchorText(spacy.blank("en"), ["negative", "positive"])
    return {"generator": explainer.tg, "default_generator": default.tg, "words": [str(w) for w in words],
            "rows": [str(t[0]).split() for t in texts], "kept": kept}


def option_exists() -> StepResult:
    """s1: AnchorText's signature has the switch (use_unk_distribution), default True: the masked-LM sampler is an
    option, not the default."""
    from anchor.anchor_text import AnchorText

    params = inspect.signature(AnchorText.__init__).parameters
    default = params["use_unk_distribution"].default if "use_unk_distribution" in params else None
    return CLAIM.checked(
        "s1-option-in-the-signature", "statement", "exhaustive",
        f"AnchorText.__init__{inspect.signature(AnchorText.__init__)}: the switch use_unk_distribution (default "
        f"{default}) is there; True masks with mask_string, False samples from the generator. No 'use_bert' keyword in "
        "this release: the option is use_unk_distribution=False.",
        holds=default is True, values={"parameters": list(params), "use_unk_distribution_default": default,
                                       "versions": package_versions()})


def option_builds_the_generator(run: dict) -> StepResult:
    """p1: use_unk_distribution=False makes AnchorText build the package's generator (the stub stood in for it)."""
    built, default_none = isinstance(run["generator"], StubGenerator), run["default_generator"] is None
    return CLAIM.checked(
        "p1-option-builds-the-generator", "proof", "exhaustive",
        f"AnchorText(..., use_unk_distribution=False) built the package's TextGenerator (the stub in its place: "
        f"{built}); AnchorText(...) at its default builds none ({default_none}): it masks with 'UNK'.",
        holds=built and default_none, values={"generator_built": built, "default_builds_none": default_none})


def generator_predicts_the_missing_words(run: dict) -> StepResult:
    """s2: the package's sampler asks the generator to complete texts with the mask at the removed positions, and
    every word it puts in place of an original one is one the generator predicted."""
    asked = run["generator"].asked
    masked = all(MASK in text for text in asked)
    replaced = [w for row in run["rows"] for w, orig in zip(row, run["words"]) if w != orig]
    from_generator = set(replaced) <= set(STUB_WORDS)
    counts = {w: replaced.count(w) for w in STUB_WORDS}
    softmax = np.exp(np.array(STUB_SCORES) - max(STUB_SCORES))
    return CLAIM.checked(
        "s2-sampler-asks-the-generator", "statement", "exhaustive",
        f"anchor-exp's own sampler (option on, {ROWS} rows of '{DOCUMENT}') asked the generator to complete "
        f"{len(asked)} texts, each with the mask token in place of the missing words ({masked}; e.g. "
        f"{asked[:2]}); all {len(replaced)} words it put in place of original ones are the generator's predictions "
        f"({from_generator}): counts {counts}, against the generator's softmax "
        f"{dict(zip(STUB_WORDS, np.round(softmax / softmax.sum(), 3).tolist()))}.",
        holds=bool(asked) and masked and from_generator and bool(replaced),
        values={"asked": len(asked), "examples": asked[:3], "replaced": len(replaced), "counts": counts,
                "masked": masked, "from_generator": from_generator})


def transformers_names() -> dict:
    """What the installed TextGenerator loads, parsed from its source: the transformers classes it imports and the
    checkpoints it passes to ``from_pretrained``."""
    from anchor import anchor_text

    tree = ast.parse(inspect.getsource(anchor_text.TextGenerator))
    imported = sorted(a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "transformers"
                      for a in n.names)
    checkpoints = sorted({n.args[0].value for n in ast.walk(tree) if isinstance(n, ast.Call)
                          and getattr(n.func, "attr", None) == "from_pretrained" and n.args
                          and isinstance(n.args[0], ast.Constant)})
    return {"imported": imported, "checkpoints": checkpoints}


def the_generator_is_bert() -> StepResult:
    """p2: the generator is a BERT masked language model (DistilBERT), read from the installed source (not run: its
    weights are a download)."""
    names = transformers_names()
    bert = any("Bert" in c and "MaskedLM" in c for c in names["imported"]) and any(
        "bert" in c for c in names["checkpoints"])
    return CLAIM.checked(
        "p2-generator-is-bert", "proof", "exhaustive",
        f"Parsed from the installed anchor_text.TextGenerator: it imports {names['imported']} from transformers and "
        f"loads {names['checkpoints']}: a masked language model of the BERT family (DistilBERT, a distilled BERT). "
        "A reading of the source, weaker than a run: it proves which model the option loads, not its samples; the "
        "weights are a download, not run here.", holds=bert, values=names)


def check() -> ClaimResult:
    """The switch in the signature, the option's generator, its sampler on a stub, the model read from the source."""
    absent = absent_step(CLAIM, "s1-option-in-the-signature", "statement", "exhaustive", ("anchor-exp", "spacy"))
    if absent:
        return CLAIM.result(kind="baseline", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                            steps=(absent,), source=SOURCE)
    run = option_run()
    steps = (option_exists(), generator_predicts_the_missing_words(run), option_builds_the_generator(run),
             the_generator_is_bert())
    return CLAIM.result(kind="baseline", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE)
