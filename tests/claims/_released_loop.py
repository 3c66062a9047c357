"""The released evaluation loop's rows on the cases of proofs_checks/claims/metrics/released_evaluation.py, by hand.

The document 'good nice food' (3 tokens), confidence 1 - 1/4 per token masked, so f(xi) = 1. Every explainer's
stand-in scores rank the tokens 0, 1, 2 (all positive). With m tokens masked the released quantity's curve is
c = 1, 3/4, 1/2, 1/4 cut after m and padded with its last value to D' = min(20, 3) = 3, area / 3:

* m = 3 (the importance-based rows, e+ = [0, 1, 2]): (7/8 + 5/8 + 3/8) / 3 = 5/8;
* m = 1 (anchor [0]): (7/8 + 3/4 + 3/4) / 3 = 19/24;  m = 2 (anchor [0, 1]): (7/8 + 5/8 + 1/2) / 3 = 2/3.

Sufficiency of e: 1 - (1 - (3 - |e|)/4) = (3 - |e|)/4; Comprehensiveness: |e|/4; proportion |e|/3. Each row's e:
FRED-mask [0]; FRED-pos its own; LIME and SHAP their first k = |FRED-pos| tokens; Anchor its anchor cut to k.

In the fourth case the explainers score the last token negatively: FRED, FRED-pos and LIME then mask the two positive
tokens (m = 2, 2/3), while the released SHAP class ranks every token, so its row masks all three (m = 3, 5/8).
"""

from __future__ import annotations

from fractions import Fraction as F

ROWS = ("FRED", "FRED_pos", "LIME", "SHAP", "Anchor")
#: The released quantity by the number m of tokens masked.
AUCMORF = {1: F(19, 24), 2: F(2, 3), 3: F(5, 8)}
AUCMORF_ALL, AUCMORF_ANCHOR = AUCMORF[3], AUCMORF


def _row(size: int, aucmorf: F) -> dict:
    return {"proportion": F(size, 3), "sufficiency": F(3 - size, 4), "comprehensiveness": F(size, 4),
            "aucmorf": aucmorf}


def hand_case(k: int, anchor_size: int, positive: int = 3) -> dict:
    """The five rows of a case whose FRED-pos explanation has ``k`` tokens, whose anchor has ``anchor_size`` and
    whose explainers score ``positive`` tokens positively (SHAP's row masks all three whatever their sign)."""
    return {"FRED": _row(1, AUCMORF[positive]), "FRED_pos": _row(k, AUCMORF[positive]),
            "LIME": _row(k, AUCMORF[positive]), "SHAP": _row(k, AUCMORF[3]),
            "Anchor": _row(min(k, anchor_size), AUCMORF[anchor_size])}


#: The cases, in the order of released_evaluation.CASES: (k, anchor size) = (1, 1), (2, 2), (1, 2), and (1, 1) with
#: the last token scored negatively.
HAND = [hand_case(1, 1), hand_case(2, 2), hand_case(1, 2), hand_case(1, 1, positive=2)]


def reply(plant=None, files=("/authors/experiments/evaluation.py",)) -> dict:
    """A probe answer holding the hand rows as floats; ``plant`` = (case, row, metric, value) replaces one value."""
    rows = [{name: {m: float(v) for m, v in case[name].items()} for name in ROWS} for case in HAND]
    if plant is not None:
        case, name, metric, value = plant
        rows[case][name][metric] = float(value)
    return {"files": list(files), "rows": rows}


def use_reply(monkeypatch, tmp_path, answer: dict) -> None:
    """Make the shared module's probe return ``answer`` for a checkout at ``tmp_path`` (a path of its own, so the
    module's cache, cleared here, never serves another test's answer)."""
    from proofs_checks.claims.metrics import released_evaluation

    released_evaluation._released_evaluation.cache_clear()
    monkeypatch.setenv("FRED_AUTHORS_CHECKOUT", str(tmp_path))
    monkeypatch.setattr(released_evaluation, "probe", lambda command, cases, checkout: answer)
