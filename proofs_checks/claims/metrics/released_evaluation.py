"""The authors' released evaluation loop on small exact cases, every row of the tables' five explainers included.

The released ``experiments.evaluation.Evaluation.evaluate`` (the loop that wrote the tables; run as an outside
program by :func:`proofs_checks.subject.authors_probe.probe`, command ``evaluation``) scores one row per document
and explainer: the proportion |e|/|xi| and the metrics. Its model here answers from a table and its explainers'
outputs are stand-ins (the released classes read them with their own code); see that module. This module builds the
cases and computes, independently and in Fractions, what each row should hold by the paper's definitions:

* e, the row's explanation: FRED-mask and FRED-pos their own; LIME and SHAP their first k ranked tokens, k the size
  of FRED-pos's explanation (line 1168); Anchor its anchor cut to the same k (what the released loop does; the
  paper does not say), beside the whole anchor;
* e+, the tokens AUC-MoRF masks: the positively scored tokens by decreasing score (lines 567-568), the anchor in its
  order for Anchor (line 1170); for SHAP every token by decreasing score, negative ones included (what the released
  SHAP class ranks; line 567 says only the positive ones are perturbed), beside the positive ones alone;
* proportion |e|/|xi|, Sufficiency f(xi) - f(e alone), Comprehensiveness f(xi) - f(xi \\ e) (line 557, masking with
  UNK, line 571), and the released AUC-MoRF quantity (:func:`.aucmorf_formulas.released_value`) on e+.

Shared by the claims metric-sufficiency (st4), metric-aucmorf (c1) and metric-aucmorf-proportion (s1, s4).
"""

from __future__ import annotations

import functools
from fractions import Fraction

from fred.evaluation.metrics import MORF_MAX_PERTURBATIONS
from fred_constants import MASK_TOKEN

from ...subject.authors_probe import EVALUATION_EXPLAINERS, checkout_path, probe
from .aucmorf_formulas import FLOAT_TOLERANCE, released_value

#: The document of every case, and the scores each explainer's stand-in gives its tokens (distinct, decreasing):
#: all positive, or the last one negative.
TOKENS = ("good", "nice", "food")
POSITIVE_SCORES = (Fraction(3, 10), Fraction(1, 5), Fraction(1, 10))
SIGNED_SCORES = (Fraction(3, 10), Fraction(1, 5), Fraction(-1, 10))
#: The model: confidence 1 - LOSS_PER_TOKEN per masked token (symmetric: only how many are masked matters).
LOSS_PER_TOKEN = Fraction(1, 4)
#: (FRED-pos's explanation, the anchor, the explainers' scores) of each case; FRED-mask's explanation is [0]
#: throughout.
CASES = (([0], [0], POSITIVE_SCORES), ([0, 1], [0, 1], POSITIVE_SCORES), ([0], [0, 1], POSITIVE_SCORES),
         ([0], [0], SIGNED_SCORES))
FRED_MASK_EXPLANATION = [0]
METRICS = ("proportion", "sufficiency", "comprehensiveness", "aucmorf")


def masked_score(masked) -> Fraction:
    """The model's confidence in the positive class when the positions ``masked`` are UNK."""
    return 1 - LOSS_PER_TOKEN * len(set(masked))


def _text(masked) -> str:
    return " ".join(MASK_TOKEN if i in masked else t for i, t in enumerate(TOKENS))


def _payload(fred_pos: list[int], anchor: list[int], explainer_scores) -> dict:
    """The case as the probe takes it: the table of every masked version, and the explainers' stand-in outputs."""
    n = len(TOKENS)
    drops = [[i, float(s)] for i, s in enumerate(explainer_scores)]
    scores = {_text({i for i in range(n) if (z >> i) & 1}): float(masked_score({i for i in range(n) if (z >> i) & 1}))
              for z in range(2 ** n)}
    return {"tokens": list(TOKENS), "scores": scores, "FRED": {"best_ids": FRED_MASK_EXPLANATION, "drops": drops},
            "FRED_pos": {"best_ids": fred_pos, "drops": drops}, "LIME": drops,
            "SHAP": [float(s) for s in explainer_scores], "Anchor": anchor}


def _released_aucmorf(e_plus: list[int]) -> Fraction:
    """The released quantity when the ranking ``e_plus`` is masked, exactly."""
    plus = e_plus[:min(MORF_MAX_PERTURBATIONS, len(TOKENS))]
    return released_value([masked_score(plus[:m]) for m in range(len(plus) + 1)], len(TOKENS))


def expected_rows(fred_pos: list[int], anchor: list[int], explainer_scores=POSITIVE_SCORES) -> dict:
    """Each row's e, e+ and metrics by the paper's definitions, exactly (see the module docstring)."""
    n, k = len(TOKENS), len(fred_pos)
    by_score = sorted(range(n), key=lambda i: -explainer_scores[i])
    ranked = [i for i in by_score if explainer_scores[i] > 0]
    explanation = {"FRED": FRED_MASK_EXPLANATION, "FRED_pos": fred_pos, "LIME": ranked[:k], "SHAP": ranked[:k],
                   "Anchor": anchor[:k]}
    e_plus = {name: {"Anchor": anchor, "SHAP": by_score}.get(name, ranked) for name in EVALUATION_EXPLAINERS}
    rows = {}
    for name in EVALUATION_EXPLAINERS:
        e = explanation[name]
        rows[name] = {"e": e, "e_plus": e_plus[name], "proportion": Fraction(len(e), n),
                      "sufficiency": masked_score(set()) - masked_score(set(range(n)) - set(e)),
                      "comprehensiveness": masked_score(set()) - masked_score(e),
                      "aucmorf": _released_aucmorf(e_plus[name])}
    rows["SHAP"]["positive_only"] = {"e_plus": ranked, "aucmorf": _released_aucmorf(ranked)}
    whole = set(range(n)) - set(anchor)
    rows["Anchor"]["whole_anchor"] = {"proportion": Fraction(len(anchor), n),
                                      "sufficiency": masked_score(set()) - masked_score(whole)}
    return rows


def released_evaluation() -> dict | None:
    """The released loop on :data:`CASES` against :func:`expected_rows`; None without the checkout. Each row records
    the released values, the exact ones, and whether each metric agrees within FLOAT_TOLERANCE. Run once per
    checkout and process (three claims read it; the loop is deterministic on these cases)."""
    checkout = checkout_path()
    return None if checkout is None else _released_evaluation(checkout)


@functools.lru_cache(maxsize=4)
def _released_evaluation(checkout: str) -> dict:
    reply = probe("evaluation", [_payload(*case) for case in CASES], checkout)
    cases = []
    for (fred_pos, anchor, explainer_scores), got in zip(CASES, reply["rows"]):
        exact = expected_rows(fred_pos, anchor, explainer_scores)
        rows = {name: {"e": exact[name]["e"], "e_plus": exact[name]["e_plus"],
                       **{m: got[name][m] for m in METRICS}, **{f"{m}_exact": str(exact[name][m]) for m in METRICS},
                       **{f"{m}_agrees": abs(got[name][m] - float(exact[name][m])) <= FLOAT_TOLERANCE
                          for m in METRICS}}
                for name in EVALUATION_EXPLAINERS}
        rows["Anchor"]["whole_anchor"] = {m: str(v) for m, v in exact["Anchor"]["whole_anchor"].items()}
        rows["SHAP"]["positive_only"] = {m: str(v) for m, v in exact["SHAP"]["positive_only"].items()}
        cases.append({"fred_pos_explanation": fred_pos, "anchor": anchor, "k": len(fred_pos),
                      "explainer_scores": [str(v) for v in explainer_scores], "rows": rows})
    return {"files": reply["files"], "document": " ".join(TOKENS),
            "model": f"confidence 1 - {LOSS_PER_TOKEN} per token masked with {MASK_TOKEN}",
            "cases": cases, "tolerance": FLOAT_TOLERANCE}


def agree(values: dict, metrics, explainers=EVALUATION_EXPLAINERS) -> bool:
    """Whether every row of ``explainers`` agrees with its exact value on every metric of ``metrics``."""
    return all(c["rows"][name][f"{m}_agrees"] for c in values["cases"] for name in explainers for m in metrics)
