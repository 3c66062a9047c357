"""The claim pages: one per family of claims, written at each build from the report's own results.

The source is ``proofs_checks/REPORT.json``, which ``python -m proofs_checks --markdown proofs_checks/REPORT.md``
writes beside REPORT.md from the same run (not a copy of REPORT.md's text; a test checks that it renders REPORT.md
byte for byte). :meth:`proofs_checks.report.Report.from_dict` rebuilds every claim and recomputes its verdicts from
its steps, and each claim's section is :func:`proofs_checks.report.claim_markdown`, the function that writes its
section of REPORT.md: a page says what the report says. Beside each section: links to the code (from the claim
map, ``docs/claims.md``) and the claim's figure, drawn by its notebook in this build.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from sphinx.errors import ExtensionError

#: The families, one page each, in the report's order: (page, title, the claim ids it holds or their prefixes).
FAMILIES = (
    ("lemma1", "Lemma 1: the empirical drop and the selection", ("lemma1",)),
    ("lemma2", "Lemma 2: the number of samples", ("lemma2",)),
    ("prop1", "Proposition 1: linear models", ("prop1-", "importance-linear", "tfidf-oov")),
    ("prop2", "Proposition 2: shortcut words", ("prop2-",)),
    ("algorithm1", "Algorithm 1 and the counterfactuals", ("algorithm1-", "counterfactuals-")),
    ("experiments", "The experiments", ("experiment-",)),
    ("metrics", "The metrics", ("metric-",)),
    ("minilm", "A transformer: MiniLM", ("minilm-",)),
    ("baselines", "LIME, SHAP and Anchors", ("baseline-",)),
)


def family_of(claim_id: str) -> str:
    """The page of a claim; a claim of no family stops the build (add its prefix to :data:`FAMILIES`)."""
    for page, _, prefixes in FAMILIES:
        if any(claim_id == p or claim_id.startswith(p if p.endswith("-") else p + "-") for p in prefixes):
            return page
    raise ExtensionError(f"claim {claim_id!r} belongs to no family of docs/_ext/fred_docs/claim_pages.py "
                         "FAMILIES: add its id or prefix to one (see docs/adding_a_claim.md)")


def claim_map(claims_md: Path) -> dict[str, dict[str, list[str]]]:
    """The claim map's row of each claim: the files named in its closed-form, check, figure and notebook cells."""
    rows = {}
    for line in claims_md.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 8 and re.fullmatch(r"`[a-z0-9-]+`", cells[0]):
            files = [re.findall(r"`([\w/]+\.py)`", cell) for cell in cells[3:7]]
            rows[cells[0].strip("`")] = dict(zip(("closed", "check", "figure", "notebook"), files))
    return rows


def _module(path: str, package: str) -> str:
    """``lemma1.py`` in a cell of ``package``'s column, or a path from the root, as a module name."""
    return path[:-3].replace("/", ".") if "/" in path else f"{package}.{path[:-3]}"


def _code_lines(claim_id: str, row: dict[str, list[str]], images: Path) -> list[str]:
    """Where the claim's code, tests and figure are, and the figure itself when this build drew it."""
    stem = claim_id.replace("-", "_")
    closed = ", ".join(f"{{py:mod}}`{_module(f, 'analytic')}`" for f in row.get("closed", []))
    from proofs_checks.claim_index import MODULES

    check = MODULES[claim_id].__name__.replace(".", "/")
    lines = [f"**Code.** The check: `{check}.py`; its tests: `tests/claims/test_{stem}.py`"
             + (f"; the closed forms: {closed}" if closed else "") + ".", ""]
    for figure in row.get("figure", [])[:1]:
        name = figure[:-3]
        lines += [f"**Figure.** {{py:mod}}`proofs_checks.figures.{name}`, drawn by the notebook "
                  f"{{doc}}`../notebooks/{name}` (quick parameters).", ""]
        if (images / f"{name}.png").is_file():
            lines += [f"```{{image}} ../notebooks/img/{name}.png", f":alt: the figure {name}", "```", ""]
    return lines


def _escape_math(lines: list[str]) -> list[str]:
    """The paper's LaTeX is quoted as source: ``$`` outside code blocks is escaped (the site typesets ``$...$``)."""
    fenced, out = False, []
    for line in lines:
        fenced = fenced != line.startswith("```")
        out.append(line if fenced or line.startswith("```") else line.replace("$", r"\$"))
    return out


def _family_page(title: str, claims, rows: dict, images: Path) -> str:
    """A family's page: a line per claim with its verdict, then each claim's section of the report."""
    from proofs_checks.report import claim_markdown

    lines = [f"# {title}", "",
             "Rendered from `proofs_checks/REPORT.json` (see {doc}`index`); each section below is the claim's "
             "section of `proofs_checks/REPORT.md`.", "",
             *[f"- {{ref}}`{c.id} <claim-{c.id}>`: **{c.verdict}** ({c.kind})" for c in claims], ""]
    for c in claims:
        heading, blank, *section = claim_markdown(c)
        lines += [f"(claim-{c.id})=", heading, blank, *_code_lines(c.id, rows.get(c.id, {}), images),
                  *_escape_math(section), ""]
    return "\n".join(lines)


def _index_page(report, pages: dict[str, list]) -> str:
    """The claims' front page: where the pages come from, the rule, the counts, and every verdict."""
    from proofs_checks.verdicts.results import RULE

    titles = {page: title for page, title, _ in FAMILIES}
    table = ["| claim | kind | verdict | page |", "|---|---|---|---|"]
    table += [f"| {{ref}}`{c.id} <claim-{c.id}>` | {c.kind}{' (ours)' if c.ours else ''} | **{c.verdict}** | "
              f"{{doc}}`{page}` |" for page, claims in pages.items() for c in claims]
    return "\n".join([
        "# The claims", "",
        "One page per family of claims of the paper. Each page is rendered when the site is built from",
        "`proofs_checks/REPORT.json`, the results `python -m proofs_checks --markdown proofs_checks/REPORT.md`",
        "writes beside `REPORT.md` from the same run; every verdict is recomputed from its steps by the rule below,",
        "and each claim's section is written by the function that writes it in `REPORT.md`",
        "({py:func}`proofs_checks.report.claim_markdown`). A test (`tests/claims/test_report_json.py`) checks that",
        "the JSON renders `REPORT.md` byte for byte, so these pages cannot disagree with it.", "",
        f"**Rule.** {RULE}", "", f"**Steps.** {report.header()}", "", *table, "",
        "```{toctree}", ":maxdepth: 1", "", *[f"{titles[p]} <{p}>" for p in pages],
        "The claim map: code, figures and tests of each claim <../claims>",
        "The audit: every objection of the reviews and its resolution <../audit>", "```", ""])


def write_claim_pages(root: Path, out: Path) -> dict[str, int]:
    """Write ``out/index.md`` and one page per family from ``root/proofs_checks/REPORT.json``; returns the number
    of claims on each page."""
    from proofs_checks.report import Report

    report = Report.from_dict(json.loads((root / "proofs_checks" / "REPORT.json").read_text(encoding="utf-8")))
    rows = claim_map(root / "docs" / "claims.md")
    pages: dict[str, list] = {page: [] for page, _, _ in FAMILIES}
    for claim in report.claims:
        pages[family_of(claim.id)].append(claim)
    pages = {page: claims for page, claims in pages.items() if claims}
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.md"):
        stale.unlink()
    titles = {page: title for page, title, _ in FAMILIES}
    images = root / "docs" / "notebooks" / "img"
    for page, claims in pages.items():
        (out / f"{page}.md").write_text(_family_page(titles[page], claims, rows, images), encoding="utf-8")
    (out / "index.md").write_text(_index_page(report, pages), encoding="utf-8")
    return {page: len(claims) for page, claims in pages.items()}
