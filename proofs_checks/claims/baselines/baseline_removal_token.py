"""Line 379: what LIME, SHAP and Anchors put in place of a removed word by default, against the packages as installed.

Each package's own masking primitive is run on every removal pattern of a document (exhaustive): lime's
``IndexedString.inverse_removing`` (what ``LimeTextExplainer.explain_instance`` calls), shap's ``maskers.Text``
(what ``shap.Explainer`` calls on text), and anchor-exp's sampler (``AnchorText.get_sample_fn``, what
``explain_instance`` draws from) until it has drawn every pattern.
What each output holds in place of the removed words is read by :func:`in_place`: a predefined token per removed
word, one per run of removed words, or nothing (the words deleted).
"""

from __future__ import annotations

import inspect
import re
from itertools import combinations

import numpy as np

from ...paper.baselines import ALL_DEFAULTS, CORPUS, DOCUMENT, absent_step, package_versions
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses

CLAIM = Claim("baseline-removal-token", new=True)
SOURCE = (
    Quote(379, r"Alternatively, we follow the default implementation of the official repositories from Anchor, LIME, "
               r"and SHAP, and propose the \textbf{mask-sampling}: simply mask the tokens to be removed with a "
               r"predefined token."),
    ALL_DEFAULTS,
)
READINGS = (
    Reading("defaults", "headline", "Each package, called with its default parameters, puts a predefined token where "
            "it removes words (one per removed word, or one per run of consecutive removed words), not nothing.",
            why=SOURCE),
    Reading("offers", "weaker", "Each package offers mask-sampling (a predefined token in place of a removed word) "
            "among its options, whether or not it is the default.", why=SOURCE[:1]),
)
STATEMENT = ("Line 379: mask-sampling (a removed token replaced by a predefined token) is what the official "
             "implementations of Anchor, LIME and SHAP do by default.")
CONDITIONS = (
    "The packages as installed (lime, shap, anchor-exp: the evaluation's eval extra; their versions in the values), "
    "their text explainers constructed with no argument but the required ones (anchor-exp needs a spaCy pipeline and "
    "the class names: spacy.blank('en')), on the document of paper.baselines.DOCUMENT (7 distinct words) and, for "
    "the counterexample, the one-word document 'good'. A removed word is one the package perturbs: a feature lime "
    "removes, a token shap masks, a position where anchor-exp's row differs from the document.")
CORRECTED = (
    "At their defaults, anchor-exp replaces each removed word by 'UNK' and shap's maskers.Text() (no tokenizer) each "
    "run of consecutive removed tokens by one '...' (with a tokenizer that has a mask token, that token for each "
    "removed token); lime's LimeTextExplainer() (bow=True) deletes the removed words, putting nothing in their place, "
    "and replaces each removed word by 'UNKWORDZ' only with bow=False. So mask-sampling is the default of Anchor and "
    "SHAP and an option of LIME. On the paper's TF-IDF models deleting and masking with an out-of-vocabulary token "
    "give the same input; the difference matters for models that read positions or the mask token.")
#: Rows asked of anchor-exp's sampler: each of the 2^7 patterns of DOCUMENT is drawn with probability 1/128 per row.
ANCHOR_ROWS = 3000
#: The packages the steps run (anchor-exp needs a spaCy pipeline).
PACKAGES = ("lime", "shap", "anchor-exp", "spacy")
#: The tokens each package's defaults could put in place of a removed word.
TOKENS = {"anchor": "UNK", "shap": "...", "lime": "UNKWORDZ"}


def in_place(words, removed, output: str, token: str) -> str | None:
    """What ``output`` holds in place of the ``removed`` positions of ``words``: ``"each"`` (``token`` for each
    removed word), ``"run"`` (one ``token`` per run of consecutive removed words, where a run has two or more: else
    it is ``"each"``), ``"deleted"`` (nothing), or None (none of these).

    >>> in_place(["good", "food"], {0}, "UNK food", "UNK"), in_place(["a", "b", "c"], {0, 1}, "...c", "...")
    ('each', 'run')
    >>> in_place(["good", "food"], {0}, "  food", "UNK"), in_place(["good", "food"], {0}, "bad food", "UNK")
    ('deleted', None)
    """
    seen = re.findall(re.escape(token) + r"|\w+", output)
    each = [token if i in removed else w for i, w in enumerate(words)]
    run = [t for i, t in enumerate(each) if not (i in removed and i - 1 in removed)]
    for name, expected in (("each", each), ("run", run), ("deleted", [w for w in each if w != token])):
        if seen == expected:
            return name
    return None


def removal_patterns(b: int) -> list[tuple[int, ...]]:
    """Every non-empty set of positions of a b-word document, by size then position.

    >>> removal_patterns(2)
    [(0,), (1,), (0, 1)]
    """
    return [removed for k in range(1, b + 1) for removed in combinations(range(b), k)]


def _tally(outcomes: list) -> dict[str, int]:
    """How many times each :func:`in_place` outcome occurs, in order of first occurrence."""
    return {str(o): outcomes.count(o) for o in dict.fromkeys(outcomes)}


def lime_texts(words, bow: bool) -> list[str]:
    """lime's ``inverse_removing`` (explain_instance's perturbation) on each of :func:`removal_patterns` of
    ``words`` (distinct words: a feature is a position), with the default ``split_expression`` and
    ``mask_string``."""
    from lime.lime_text import IndexedString  # the eval extra: absent from a plain install

    indexed = IndexedString(" ".join(words), bow=bow)
    return [indexed.inverse_removing(list(removed)) for removed in removal_patterns(len(words))]


def lime_outcomes(words, texts: list[str]) -> dict[str, int]:
    """How many removal patterns lime's ``texts`` (:func:`lime_texts`) turn into each :func:`in_place` outcome."""
    return _tally([in_place(words, set(r), out, TOKENS["lime"])
                   for r, out in zip(removal_patterns(len(words)), texts)])


def shap_outcomes(words) -> dict[str, int]:
    """How many masks shap's default ``maskers.Text()`` turns into each :func:`in_place` outcome."""
    import shap  # the eval extra

    masker, text = shap.maskers.Text(), " ".join(words)
    outcomes = []
    for removed in removal_patterns(len(words)):
        keep = np.array([i not in removed for i in range(len(words))])
        outcomes.append(in_place(words, set(removed), str(masker(keep, text)[0][0]), TOKENS["shap"]))
    return _tally(outcomes)


def anchor_outcomes(words) -> dict[str, int]:
    """anchor-exp's own sampler (``AnchorText.get_sample_fn``, what ``explain_instance`` draws its rows from, default
    constructor) asked for rows with no word fixed, until every removal pattern has been drawn (numpy's global seed
    fixed around the call: anchor-exp draws from it); each pattern's text read by :func:`in_place`. The count of
    patterns drawn is returned as ``patterns_drawn`` (all 2^b when the draw is exhaustive)."""
    import spacy
    from anchor.anchor_text import AnchorText  # the eval extra

    state = np.random.get_state()
    try:
        np.random.seed(0)
        sample_fn = AnchorText(spacy.blank("en"), ["negative", "positive"]).get_sample_fn(
            " ".join(words), lambda texts: np.ones(len(texts), dtype=int))[3]
        texts, kept, _ = sample_fn([], ANCHOR_ROWS, compute_labels=False)
    finally:
        np.random.set_state(state)
    by_pattern = {tuple(bool(v) for v in row): str(text[0]) for row, text in zip(kept, texts)}
    outcomes = [in_place(words, {i for i, k in enumerate(row) if not k}, text, TOKENS["anchor"])
                for row, text in by_pattern.items() if not all(row)]
    return {**_tally(outcomes), "patterns_drawn": len(by_pattern)}


def tfidf_sees_no_difference(texts: dict[bool, list[str]]) -> StepResult:
    """c-tfidf: on a TF-IDF model (the paper's Definition 1, the evaluation's vectorizer), lime's deletion and its
    bow=False masking give the same input on every removal pattern (UNKWORDZ is out of vocabulary)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer().fit([text for text, _ in CORPUS])
    deleted, masked = vectorizer.transform(texts[True]), vectorizer.transform(texts[False])
    differ = int((abs(deleted - masked).sum(axis=1) > 0).sum())
    return CLAIM.checked(
        "c-tfidf-same-input", "correction", "exhaustive",
        f"What the difference matters for: on TfidfVectorizer() fitted on the baseline corpus, lime's deleted texts "
        f"and its bow=False texts (UNKWORDZ, out of vocabulary) give the same vector on all {deleted.shape[0]} "
        f"removal patterns (differing: {differ}); so on the paper's TF-IDF models deleting and masking are the same "
        "input, and the difference matters for models that read positions or the mask token (the transformers).",
        holds=differ == 0, values={"patterns": deleted.shape[0], "differing": differ})


def defaults_read() -> StepResult:
    """p1: the default parameters that decide the removal, read from the installed packages' signatures."""
    absent = absent_step(CLAIM, "p1-defaults", "proof", "exhaustive", PACKAGES)
    if absent:
        return absent
    import shap
    from anchor.anchor_text import AnchorText
    from lime.lime_text import LimeTextExplainer

    def default(cls, name):
        return inspect.signature(cls.__init__).parameters[name].default

    seen = {"lime": {"bow": default(LimeTextExplainer, "bow"), "mask_string": default(LimeTextExplainer, "mask_string")},
            "shap": {"mask_token": default(shap.maskers.Text, "mask_token"),
                     "mask_token_used": shap.maskers.Text().mask_token,
                     "collapse_mask_token": default(shap.maskers.Text, "collapse_mask_token")},
            "anchor-exp": {"use_unk_distribution": default(AnchorText, "use_unk_distribution"),
                           "mask_string": default(AnchorText, "mask_string")},
            "versions": package_versions()}
    holds = (seen["lime"]["bow"] is True and seen["shap"]["mask_token_used"] == "..."
             and seen["anchor-exp"]["use_unk_distribution"] is True and seen["anchor-exp"]["mask_string"] == "UNK")
    return CLAIM.checked(
        "p1-defaults", "proof", "exhaustive",
        f"The defaults that decide what replaces a removed word, read from the installed signatures: lime "
        f"LimeTextExplainer(bow={seen['lime']['bow']}, mask_string={seen['lime']['mask_string']!r}); shap "
        f"maskers.Text(mask_token={seen['shap']['mask_token']!r} -> {seen['shap']['mask_token_used']!r}, "
        f"collapse_mask_token={seen['shap']['collapse_mask_token']!r}); anchor-exp AnchorText(use_unk_distribution="
        f"{seen['anchor-exp']['use_unk_distribution']}, mask_string={seen['anchor-exp']['mask_string']!r}).",
        holds=holds, values=seen)


def lime_explainer_uses_the_primitive(words, texts: list[str]) -> StepResult:
    """p2: every text one default LimeTextExplainer().explain_instance sends the model is an output of
    inverse_removing on some set of features (so the exhaustive steps describe the explainer's rows)."""
    from lime.lime_text import LimeTextExplainer

    rows: list[str] = []

    def model(texts):
        rows.extend(texts)
        return np.column_stack([np.zeros(len(texts)), np.ones(len(texts))])

    LimeTextExplainer(random_state=0).explain_instance(" ".join(words), model, num_samples=200)
    outputs = set(texts) | {" ".join(words)}
    stray = [r for r in rows if r not in outputs]
    return CLAIM.checked(
        "p2-lime-rows", "proof", "exhaustive",
        f"All {len(rows)} texts one default LimeTextExplainer().explain_instance (num_samples=200, random_state=0) "
        f"sent the model are the document or outputs of inverse_removing on a set of its features (not so: "
        f"{len(stray)}).", holds=not stray, values={"rows": len(rows), "stray": stray[:3]})


def shap_explainer_uses_the_masker() -> StepResult:
    """p3: shap's explainers send the model what the masker returns (argued from the package's design)."""
    return CLAIM.argued(
        "p3-shap-rows", "proof",
        "shap's explainers on text draw every input they send the model from the masker they are given (the masker's "
        "__call__(mask, text), shap's Masker interface), so the outputs of maskers.Text() on every mask are the rows "
        "shap.Explainer(f, maskers.Text()) can send. Not run here: one shap.Explainer call costs about a minute on "
        "this machine, the other steps together a few seconds.")


def headline(seen: dict) -> StepResult:
    """s1: every package's default puts a predefined token in place of each removed word (or run of them)."""
    masks = {p: set(o) - {"patterns_drawn"} <= {"each", "run"} for p, o in seen.items()}
    masks["anchor"] = masks["anchor"] and seen["anchor"]["patterns_drawn"] == 2 ** len(DOCUMENT.split())
    return CLAIM.checked(
        "s1-every-default-masks", "statement", "exhaustive",
        f"At their defaults, on every removal pattern of the {len(DOCUMENT.split())}-word document: anchor-exp "
        f"{seen['anchor']} (its sampler's rows, {seen['anchor']['patterns_drawn']} of the "
        f"{2 ** len(DOCUMENT.split())} patterns drawn), shap {seen['shap']}, lime {seen['lime']} ('each': the "
        f"package's token in place of each removed word; 'run': one per run of removed words; 'deleted': nothing in "
        f"place). A predefined token in place of the removed words: anchor-exp {masks['anchor']}, shap "
        f"{masks['shap']}, lime {masks['lime']}.", holds=all(masks.values()), values={**seen, "masks": masks},
        reading="defaults")


def per_package(name: str, seen: dict, expected: tuple[str, ...], words: str) -> StepResult:
    """c-steps: one package's behaviour, as the corrected statement says it (the outcomes seen are ``expected``)."""
    every = 2 ** len(DOCUMENT.split())
    drawn = seen.get("patterns_drawn", every)  # anchor-exp's sampler: every pattern must have been drawn
    return CLAIM.checked(
        f"c-{name}", "correction", "exhaustive", f"{words}: {seen}; expected exactly the outcomes {list(expected)}"
        f"{'' if 'patterns_drawn' not in seen else f', all {every} patterns drawn'}.",
        holds=set(seen) == set(expected) and drawn == every, values={"outcomes": seen})


def shap_with_a_tokenizer() -> StepResult:
    """p4: shap's Text masker given a tokenizer with a mask token masks each token with it (argued)."""
    return CLAIM.argued(
        "p4-shap-with-a-tokenizer", "proof",
        "maskers.Text() with no tokenizer (its default, what s1 runs) uses '...' and collapses runs; given a tokenizer "
        "that has a mask token (a transformers tokenizer, as shap builds for a transformers pipeline), Text.__init__ "
        "takes that token (e.g. '[MASK]') and collapse_mask_token='auto' becomes False: one mask token per removed "
        "token. Read from the package's source, not run here (the bundled MiniLM tokenizer is in the neural extra).")


def offers(seen: dict, bow_false: dict) -> StepResult:
    """s2: the weaker reading: every package offers masking (lime with bow=False, the others by default)."""
    masks = {"anchor": set(seen["anchor"]) - {"patterns_drawn"} <= {"each", "run"},
             "shap": set(seen["shap"]) <= {"each", "run"},
             "lime (bow=False)": set(bow_false) == {"each"}}
    return CLAIM.checked(
        "s2-every-package-offers-masking", "statement", "exhaustive",
        f"LimeTextExplainer(bow=False) on every removal pattern: {bow_false} (UNKWORDZ in place of each removed "
        f"word); anchor-exp's and shap's defaults as in s1. A predefined token in place of the removed words: {masks}.",
        holds=all(masks.values()), values={"outcomes_lime_bow_false": bow_false, "masks": masks}, reading="offers")


def counterexample() -> dict:
    """The smallest case: lime's default on the one-word document 'good', its only word removed. Its hypotheses are
    computed: the primitive ran with LimeTextExplainer's default bow, split_expression and mask_string."""
    from lime.lime_text import IndexedString, LimeTextExplainer

    explainer = inspect.signature(LimeTextExplainer.__init__).parameters
    primitive = inspect.signature(IndexedString.__init__).parameters
    defaults = (explainer["bow"].default is True and all(
        explainer[name].default == primitive[name].default for name in ("split_expression", "mask_string")))
    output = lime_texts(["good"], True)[0]
    return {**hypotheses(default_parameters=defaults, a_word_removed=output != "good"),
            "package": "lime", "call": "LimeTextExplainer().explain_instance('good', f): inverse_removing([0])",
            "document": "good", "output": output, "in_place": in_place(["good"], {0}, output, TOKENS["lime"]),
            "minimal": "one word, one removal: no smaller document has a word to remove"}


def check() -> ClaimResult:
    """Each package's masking primitive on every removal pattern, at its defaults and (lime) with bow=False."""
    absent = absent_step(CLAIM, "s1-every-default-masks", "statement", "exhaustive", PACKAGES, reading="defaults")
    if absent:
        return CLAIM.result(kind="baseline", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                            steps=(absent, defaults_read()), source=SOURCE, readings=READINGS)
    words = DOCUMENT.split()
    texts = {bow: lime_texts(words, bow) for bow in (True, False)}
    seen = {"anchor": anchor_outcomes(words), "shap": shap_outcomes(words), "lime": lime_outcomes(words, texts[True])}
    bow_false = lime_outcomes(words, texts[False])
    steps = (defaults_read(), lime_explainer_uses_the_primitive(words, texts[True]), shap_explainer_uses_the_masker(),
             shap_with_a_tokenizer(), headline(seen), offers(seen, bow_false),
             per_package("anchor-unk", seen["anchor"], ("each", "patterns_drawn"), "anchor-exp's default sampler"),
             per_package("shap-ellipsis", seen["shap"], ("each", "run"), "shap's maskers.Text() on every mask"),
             per_package("lime-deletes", seen["lime"], ("deleted",), "LimeTextExplainer() (bow=True) on every pattern"),
             per_package("lime-bow-false", bow_false, ("each",), "LimeTextExplainer(bow=False) on every pattern"),
             tfidf_sees_no_difference(texts))
    return CLAIM.result(kind="baseline", statement=STATEMENT, conditions=CONDITIONS, counterexample=counterexample(),
                        steps=steps, corrected=CORRECTED, source=SOURCE, readings=READINGS)
