"""The claim pages: one per family of claims, written at each build from the report's own results.

The source is ``proofs_checks/REPORT.json``, which ``python -m proofs_checks --markdown proofs_checks/REPORT.md``
writes beside REPORT.md from the same run (not a copy of REPORT.md's text; a test checks that it renders REPORT.md
byte for byte). :meth:`proofs_checks.report.Report.from_dict` rebuilds every claim and recomputes its verdicts from
its steps, and each claim's section is :func:`proofs_checks.report.claim_markdown`, the function that writes its
section of REPORT.md: a page says what the report says. A family is a folder of ``proofs_checks/claims/``
(:data:`proofs_checks.claim_index.FAMILIES`, in the report's order): its page is named after the folder and titled
by the first sentence of the folder's package docstring, and a claim is on the page of its module's folder. Beside
each section: links to the code and the claim's figure, drawn by its notebook in this build, from the claim's row of
the claim map (:mod:`fred_docs.claim_map`), which is written beside the pages as ``map.md``.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from sphinx.errors import ExtensionError

from .claim_map import ClaimRow, claim_rows, first_sentence, map_page


def family_of(claim_id: str) -> str:
    """The page of a claim: the family folder of its module (``proofs_checks/claims/<family>/``)."""
    from proofs_checks.claim_index import MODULES

    if claim_id not in MODULES:
        raise ExtensionError(f"claim {claim_id!r} of proofs_checks/REPORT.json has no module in proofs_checks/claims/: "
                             "regenerate the report (python -m proofs_checks --markdown proofs_checks/REPORT.md)")
    return MODULES[claim_id].__name__.split(".")[-2]


def family_title(family: str) -> str:
    """A family page's title: the first sentence of its package's docstring (``claims/<family>/__init__.py``)."""
    package = importlib.import_module(f"proofs_checks.claims.{family}")
    return first_sentence(package.__doc__ or family).rstrip(".")


def _code_lines(row: ClaimRow, images: Path) -> list[str]:
    """Where the claim's code, tests and figure are, and the figure itself when this build drew it."""
    closed = ", ".join(f"{{py:mod}}`analytic.{m}`" for m, _ in row.closed)
    lines = [f"**Code.** The check: `{row.check}`; its tests: `{row.tests[0]}`"
             + (f"; the closed forms: {closed}" if closed else "") + ".", ""]
    for name in row.figures:
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


def _family_page(title: str, claims, rows: dict[str, ClaimRow], images: Path) -> str:
    """A family's page: a line per claim with its verdict, then each claim's section of the report."""
    from proofs_checks.report import claim_markdown

    lines = [f"# {title}", "",
             "Rendered from `proofs_checks/REPORT.json` (see {doc}`index`); each section below is the claim's "
             "section of `proofs_checks/REPORT.md`.", "",
             *[f"- {{ref}}`{c.id} <claim-{c.id}>`: **{c.verdict}** ({c.kind})" for c in claims], ""]
    for c in claims:
        heading, blank, *section = claim_markdown(c)
        lines += [f"(claim-{c.id})=", heading, blank, *_code_lines(rows[c.id], images),
                  *_escape_math(section), ""]
    return "\n".join(lines)


def _index_page(report, pages: dict[str, list], titles: dict[str, str]) -> str:
    """The claims' front page: where the pages come from, the rule, the counts, and every verdict."""
    from proofs_checks.verdicts.results import RULE

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
        "The claim map: the paper lines, code, figures and tests of each claim <map>",
        "Reading the claim map: the kinds of claims and the pieces the checks share <../claims>",
        "The audit: every objection of the reviews and its resolution <../audit>", "```", ""])


def write_claim_pages(root: Path, out: Path) -> dict[str, int]:
    """Write ``out/index.md``, one page per family and the claim map ``out/map.md`` from
    ``root/proofs_checks/REPORT.json`` and the code; returns the number of claims on each family's page."""
    from proofs_checks.claim_index import FAMILIES
    from proofs_checks.report import Report

    report = Report.from_dict(json.loads((root / "proofs_checks" / "REPORT.json").read_text(encoding="utf-8")))
    pages: dict[str, list] = {family: [] for family in FAMILIES}
    for claim in report.claims:  # first: a claim of no module stops the build here, with the reason
        pages[family_of(claim.id)].append(claim)
    rows = claim_rows(root, report)
    pages = {page: claims for page, claims in pages.items() if claims}
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.md"):
        stale.unlink()
    titles = {page: family_title(page) for page in pages}
    images = root / "docs" / "notebooks" / "img"
    by_id = {row.id: row for row in rows}
    for page, claims in pages.items():
        (out / f"{page}.md").write_text(_family_page(titles[page], claims, by_id, images), encoding="utf-8")
    (out / "map.md").write_text(map_page(rows), encoding="utf-8")
    (out / "index.md").write_text(_index_page(report, pages, titles), encoding="utf-8")
    return {page: len(claims) for page, claims in pages.items()}
