"""The claim report: run the checks, then render it as text, JSON or Markdown.

Every verdict in it follows from the step results by :data:`proofs_checks.verdicts.results.RULE`, printed at the top.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass

from fred.evaluation.execution import open_client
from fred.markdown_tables import markdown_table
from fred.provenance import describe, environment

from .claim_index import CLAIMS, NEW_CLAIMS
from .paper.yardstick import RULE as YARDSTICK
from .statistics.isolation import without_local_constants
from .verdicts.results import EMPIRICAL_KINDS, EVIDENCE, RULE, WORDING, ClaimResult


def _counterexample_label(claim: ClaimResult) -> str:
    """An experiment is contradicted by a table row or a run, which has no "smaller"; a statement by a minimal case."""
    return "Contradicting evidence" if claim.kind in EMPIRICAL_KINDS else "Minimal counterexample"


def _kind_label(claim: ClaimResult) -> str:
    """The kind, saying when the statement is ours and not the paper's."""
    return f"{claim.kind} (ours: the paper does not state it)" if claim.ours else claim.kind


def _reading_lines(claim: ClaimResult) -> list[str]:
    """One line per reading: its verdict and meaning; a non-headline reading that fails is said to fail beside
    the headline, never in its place."""
    lines = []
    for r in claim.readings:
        verdict = WORDING[claim.kind][claim.reading_status(r.id)]
        if r.role == "headline":
            lines.append(f"headline reading '{r.id}' ({verdict}): {r.meaning}")
        else:
            article = "an" if r.role[0] in "aeiou" else "a"
            lines.append(f"{article} {r.role} reading '{r.id}' {verdict}: {r.meaning}")
    return lines


def _corrected_label(claim: ClaimResult) -> str:
    """A claim that fails is corrected; beside a headline that holds, the same field states precisely what is true
    (of the stronger readings too), which is no correction."""
    return "corrected" if claim.status in ("fails", "unproved") else "precise statement"


def _for(step) -> str:
    """', reading X' for a step that tests one reading only; ', part Y' for a step that checks one part of the
    sentence."""
    return (f", reading {step.reading}" if step.reading else "") + (f", part '{step.part}'" if step.part else "")


def _part_lines(claim: ClaimResult) -> list[str]:
    """One line per part of the sentence the headline's statement steps check: its verdict by the rule and its
    steps (empty when no step names a part)."""
    headline = None if claim.headline is None else claim.headline.id
    return [f"part '{p}': {WORDING[claim.kind][claim.part_status(p)]} (statement steps "
            + ", ".join(s.id.split(".", 1)[1] for s in claim.steps
                        if s.part == p and s.role == "statement" and s.reading in (None, headline)) + ")"
            for p in claim.parts]


def _quote_text(quotes) -> str:
    return " ".join(f"(line {q.line}) \"{' '.join(q.text.split())}\"" for q in quotes)


def claim_markdown(c: ClaimResult) -> list[str]:
    """One claim's section of the Markdown report, as lines: its heading (``## <id>``), kind and verdict, the
    paper's words, readings, conditions, correction, counterexample and steps. The documentation site's claim pages
    are these sections (``docs/_ext/fred_docs/claim_pages.py``), so they say what REPORT.md says."""
    lines = [f"## {c.id}", "", f"**Kind: {_kind_label(c)}. Verdict: {c.verdict}.**", "",
             f"**Statement.** {c.statement}", "", "**The paper's words.**", "",
             "\n>\n".join(f"> (line {q.line}) {' '.join(q.text.split())}" for q in c.source), ""]
    if c.readings:
        lines += ["**Readings.**", "", *[f"- {line}" for line in _reading_lines(c)], ""]
        for r in c.readings:
            if r.why:
                lines += [f"  Words for '{r.id}': {_quote_text(r.why)}", ""]
    if c.parts:
        lines += ["**Parts of the statement** (headline reading; each part's verdict by the rule).", "",
                  *[f"- {line}" for line in _part_lines(c)], ""]
    lines += [f"**Conditions.** {c.conditions}", ""]
    if c.corrected:
        lines += [f"**{_corrected_label(c).capitalize()} ({c.corrected_status}).** {c.corrected}", ""]
    if c.counterexample:
        lines += [f"**{_counterexample_label(c)}.**", "", "```json", json.dumps(c.counterexample, indent=2), "```", ""]
    checked = [s for s in c.steps if s.evidence != "argument"]
    argued = [s for s in c.steps if s.evidence == "argument"]
    if checked:
        lines.append(markdown_table(["step", "role", "evidence", "status", "note"],
                                    [[s.id, s.role + _for(s), s.evidence, s.status, s.note] for s in checked]))
    if argued:
        lines += ["", "Argued (a written argument; no computation checks it):", "",
                  markdown_table(["step", "role", "note"], [[s.id, s.role + _for(s), s.note] for s in argued])]
    for s in checked:
        if "sensitivity" in s.values:
            lines += ["", *sensitivity_markdown(s.id, s.values["sensitivity"])]
        if "side_by_side" in s.values:  # a comparison the issue asks to see whole (e.g. closed form, limit, package)
            table = s.values["side_by_side"]
            lines += ["", f"{table['title']} ({s.id}):", "", markdown_table(table["columns"], table["rows"])]
    return lines


def sensitivity_markdown(step: str, table: dict) -> list[str]:
    """A step's sensitivity table (:func:`proofs_checks.paper.yardstick.sensitivity`): its status and counts at each
    margin, the declared one in bold."""
    rows = table["rows"]
    columns = [k for k in rows[0] if k not in ("margin", "declared")]
    between = table.get("turns_between", [])
    where = (f"{', '.join(map(str, table['turns_at']))} exactly (to {table.get('resolution', 0.01)}, by bisection; "
             "between the grid's " + ", ".join(f"{a} and {b}" for a, b in between) + ")" if between else
             ", ".join(map(str, table["turns_at"])))
    return [f"Sensitivity of {step} to the {table['parameter']} (declared {table['declared']}; turns at "
            f"{where or 'no margin of the range'}):", "",
            markdown_table(["margin", *columns], [[f"**{r['margin']}**" if r["declared"] else str(r["margin"]),
                                                   *(str(r[k]) for k in columns)] for r in rows])]


#: Packages the report's verdicts depend on beyond the core ones.
PACKAGES = ("hypothesis", "mpmath")


@dataclass(frozen=True)
class Report:
    """All claim results plus the environment and the time each check took."""

    claims: tuple[ClaimResult, ...]
    environment: dict
    seconds: dict

    def summary(self) -> dict:
        """Counts of claims by verdict and of steps by evidence: machine-checked against argued."""
        steps = [s for c in self.claims for s in c.steps]
        by_evidence = Counter(s.evidence for s in steps)
        return {
            "claims": len(self.claims),
            "claims_new": [c.id for c in self.claims if c.id in NEW_CLAIMS],
            "claims_with_several_readings": sum(1 for c in self.claims if c.readings),
            "claims_ours": sum(1 for c in self.claims if c.ours),
            "verdicts": dict(Counter(c.status for c in self.claims)),
            "steps": len(steps),
            "steps_machine_checked": sum(1 for s in steps if s.evidence != "argument"),
            "steps_argued": by_evidence["argument"],
            "steps_by_evidence": {e: by_evidence[e] for e in EVIDENCE},
            "steps_failing": sum(1 for s in steps if s.status == "fails"),
            "steps_inconclusive": sum(1 for s in steps if s.status == "inconclusive"),
        }

    def header(self) -> str:
        """The counts the report prints under its rule: claims, readings, steps by evidence."""
        s = self.summary()
        new = f": {', '.join(s['claims_new'])}" if s["claims_new"] else ""
        return (f"{s['claims']} claims ({len(s['claims_new'])} new in this revision{new}; "
                f"{s['claims_with_several_readings']} with several readings; {s['claims_ours']} ours, not the "
                f"paper's); {s['steps']} steps: {s['steps_machine_checked']} machine-checked ("
                + ", ".join(f"{e} {s['steps_by_evidence'][e]}" for e in EVIDENCE if e != "argument")
                + f"), {s['steps_argued']} argued; {s['steps_inconclusive']} inconclusive.")

    def to_dict(self, timings: bool = True) -> dict:
        """The JSON schema: {"rule", "summary", "claims": [...], "environment": {...}}; the environment holds
        ``seconds_per_claim`` unless ``timings`` is False (a committed copy that changes only when a result does)."""
        env = dict(self.environment, seconds_per_claim=self.seconds) if timings else dict(self.environment)
        return {"rule": RULE, "summary": self.summary(), "claims": [c.to_dict() for c in self.claims],
                "environment": env}

    @classmethod
    def from_dict(cls, data: dict) -> Report:
        """The report :meth:`to_dict` wrote (``proofs_checks/REPORT.json``, ``--json``), every claim rebuilt by
        :meth:`ClaimResult.from_dict`; a rule or summary that differs from what the claims give raises ValueError."""
        env = dict(data["environment"])
        seconds = env.pop("seconds_per_claim", {})
        report = cls(tuple(ClaimResult.from_dict(c) for c in data["claims"]), env, seconds)
        if data["rule"] != RULE or data["summary"] != report.summary():
            raise ValueError("the report's rule or summary differs from what its claims give (regenerate it with "
                             "python -m proofs_checks --markdown proofs_checks/REPORT.md)")
        return report

    def to_json(self) -> str:
        """:meth:`to_dict` as indented JSON (``--json``)."""
        return json.dumps(self.to_dict(), indent=2)

    def to_text(self) -> str:
        """The text report (``python -m proofs_checks``): the rule, the header, a verdict per claim, then each
        claim's words, readings and steps."""
        lines = ["FRED paper: claim-by-claim verification", "", f"Rule: {RULE}", "", f"Yardstick: {YARDSTICK}", "",
                 self.header(), ""]
        width = max(len(c.id) for c in self.claims)
        for c in self.claims:
            corrected = f"; {_corrected_label(c)}: {c.corrected_status}" if c.corrected else ""
            lines.append(f"{c.id:<{width}}  {c.kind:<11}  {c.verdict}{corrected}")
        for c in self.claims:
            lines += ["", f"== {c.id} ({_kind_label(c)}): {c.verdict}", f"statement: {c.statement}",
                      f"the paper's words: {_quote_text(c.source)}", *_reading_lines(c), *_part_lines(c),
                      f"conditions: {c.conditions}", f"evidence: {', '.join(c.evidence)}"]
            if c.corrected:
                lines.append(f"{_corrected_label(c)} ({c.corrected_status}): {c.corrected}")
            if c.counterexample:
                lines.append(f"{_counterexample_label(c).lower()}: {json.dumps(c.counterexample)}")
            lines += [f"  [{s.status}] {s.id} ({s.role}, {s.evidence}{_for(s)}): {s.note}" for s in c.steps]
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """The Markdown report (``proofs_checks/REPORT.md``): the rule, the summary table, then
        :func:`claim_markdown` of each claim and the environment."""
        lines = ["# FRED paper: claim-by-claim verification", "",
                 "Generated by `python -m proofs_checks --markdown proofs_checks/REPORT.md`; do not edit by hand.",
                 "", f"**Rule.** {RULE}", "", f"**Steps.** {self.header()}", "",
                 markdown_table(["claim", "kind", "verdict", "other readings", "corrected or precise statement",
                                "evidence"],
                                [[f"[{c.id}](#{c.id})", c.kind + (" (ours)" if c.ours else ""), f"**{c.verdict}**",
                                  "; ".join(f"{r.role} '{r.id}': {WORDING[c.kind][c.reading_status(r.id)]}"
                                            for r in c.readings if r.role != "headline") or "–",
                                  c.corrected_status or "–", ", ".join(c.evidence)] for c in self.claims])]
        first_experiment = next((c.id for c in self.claims if c.kind == "experiment"), None)
        for c in self.claims:
            if c.id == first_experiment:
                lines += ["", f"**The yardstick of the table claims.** {YARDSTICK}"]
            lines += ["", *claim_markdown(c)]
        lines += ["", "## Environment", "", describe(self.environment), ""]
        return "\n".join(lines)


def _timed_check(claim_id: str) -> tuple[ClaimResult, float]:
    start = time.perf_counter()
    with without_local_constants():  # the claim's hypothesis searches do not depend on the loaded modules
        result = CLAIMS[claim_id]()
    return result, round(time.perf_counter() - start, 2)


def run_claims(ids=None, *, workers: int = 0, scheduler: str | None = None) -> Report:
    """Run the checks of the given claim ids (default: all, in the paper's order).

    ``workers=0`` and no ``scheduler`` run them in this process. Otherwise each claim is a task on a dask cluster
    (``scheduler``, or a LocalCluster of ``workers`` processes; the ``eval`` extra): the claims are independent and
    each seeds its own randomness, so the verdicts are those of the serial run, whatever the cluster.
    """
    ids = list(CLAIMS) if ids is None else list(ids)
    unknown = [i for i in ids if i not in CLAIMS]
    if unknown:
        raise ValueError(f"unknown claim id(s) {unknown}; known: {list(CLAIMS)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise ValueError(f"workers must be an integer >= 0, got {workers!r}")
    env = environment(PACKAGES)
    if workers == 0 and scheduler is None:
        timed = [_timed_check(claim_id) for claim_id in ids]
    else:
        with ExitStack() as stack:
            client, env["cluster"] = open_client(stack, workers or None, scheduler, "distributing the claim report")
            futures = [client.submit(_timed_check, claim_id, key=f"claim-{claim_id}", pure=False) for claim_id in ids]
            timed = client.gather(futures)
    return Report(tuple(r for r, _ in timed), env, {claim_id: t for claim_id, (_, t) in zip(ids, timed)})
