"""The claim map: for each claim, where the paper says it and where its pieces are, derived at each build.

Nothing of it is listed by hand; each column is found where it is stated once:

* the kind and the verdict: the claim's result in ``proofs_checks/REPORT.json``;
* the paper's lines: those of the quotes of its module's ``SOURCE``;
* the headline: its headline reading's meaning, or, when its words admit one reading, its statement's first
  sentence;
* the closed forms: the names its module, and the modules of its own family folder that module imports (and so on),
  import from a module of ``analytic`` that states a paper object, i.e. one ``analytic/__init__.py`` re-exports from
  (``analytic.exact_cache``, a cache, is none), read from their source by :mod:`ast`;
* the check: its module's path, and the paths of those family modules;
* the figures: those of :data:`proofs_checks.figures.gallery.FIGURES` whose module's ``CLAIM_IDS`` names the claim;
  a figure's notebook is ``notebooks/<figure>.py``;
* the tests: ``tests/claims/test_<stem>.py``, then ``tests/analytic/test_<m>.py`` for each closed-form module ``m``
  and ``tests/figures/test_<figure>.py`` for each figure, those that exist.

:func:`claim_rows` gives the rows (the claim pages read them too), :func:`map_page` the page,
``docs/claims/map.md``. This module imports no Sphinx, so that the tests read the same rows.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

#: Markdown's inline syntax in a table cell of free text: escaped, so that ``|c|`` or ``2**l`` reads as written.
_MARKDOWN = re.compile(r"([\\`*_\[\]<>$|~])")


@dataclass(frozen=True)
class ClaimRow:
    """A claim's row of the map; paths are from the checkout's root."""

    id: str
    kind: str
    ours: bool
    verdict: str
    lines: tuple[int, ...]
    headline: str
    #: the closed forms: (module of ``analytic``, the names imported from it), by module name
    closed: tuple[tuple[str, tuple[str, ...]], ...]
    check: str
    #: the modules of its family folder the check imports (directly or through one another)
    helpers: tuple[str, ...]
    figures: tuple[str, ...]
    notebooks: tuple[str, ...]
    tests: tuple[str, ...]

    def paths(self) -> tuple[str, ...]:
        """Every file the row names."""
        return (self.check, *self.helpers, *(f"analytic/{m}.py" for m, _ in self.closed),
                *(f"proofs_checks/figures/{f}.py" for f in self.figures), *self.notebooks, *self.tests)


def first_sentence(text: str) -> str:
    """The text up to its first full stop followed by a capital (``Prop. 1`` and ``Eq. (2)`` do not end one)."""
    text = " ".join(text.split())
    found = re.match(r"(.+?[.!?])(?=\s+[A-Z]|$)", text)
    return found.group(1) if found else text


def _module_path(name: str) -> str:
    return name.replace(".", "/") + ".py"


def _imports(module: str):
    """``(module imported from, names)`` for each import of ``module``'s source, function-level ones included;
    relative imports resolved, ``import a.b`` as ``("a.b", ())``. The source is the module's file as imported."""
    origin = Path(importlib.util.find_spec(module).origin)
    package = module.split(".") if origin.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(origin.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            yield ".".join(base + ([node.module] if node.module else [])), tuple(a.name for a in node.names)


def paper_objects() -> dict[str, str]:
    """The names ``analytic/__init__.py`` re-exports, each with its module; the modules it re-exports from are
    the closed forms of the paper's objects."""
    objects = {}
    for module, names in _imports("analytic"):
        if module.startswith("analytic."):
            objects.update((name, module.split(".")[1]) for name in names)
    return objects


def code_of(module: str, objects: dict[str, str]) -> tuple[dict[str, set[str]], list[str]]:
    """The closed forms (``analytic`` module -> names) that a claim's module and the modules of its family folder
    it imports, transitively, import; and those family modules, in the order they are found."""
    family = module.rsplit(".", 1)[0]
    modules = set(objects.values())
    closed: dict[str, set[str]] = {}
    helpers: list[str] = []
    pending = [module]
    while pending:
        for imported, names in _imports(pending.pop(0)):
            if imported == "analytic":  # names of the package, or its modules
                for name in names:
                    if name in modules:
                        closed.setdefault(name, set())
                    elif name in objects:
                        closed.setdefault(objects[name], set()).add(name)
            elif imported.startswith("analytic.") and imported.split(".")[1] in modules:
                closed.setdefault(imported.split(".")[1], set()).update(names)
            members = [f"{family}.{n}" for n in names] if imported == family else [imported]
            for member in members:
                if (member.startswith(family + ".") and member != module and member not in helpers
                        and importlib.util.find_spec(member) is not None):
                    helpers.append(member)
                    pending.append(member)
    return closed, helpers


def figures_by_claim() -> dict[str, list[str]]:
    """claim id -> the figures (of the gallery, in its order) whose module's ``CLAIM_IDS`` names it."""
    from proofs_checks.figures.gallery import FIGURES

    drawn: dict[str, list[str]] = {}
    for name in FIGURES:
        for claim_id in importlib.import_module(f"proofs_checks.figures.{name}").CLAIM_IDS:
            drawn.setdefault(claim_id, []).append(name)
    return drawn


def claim_rows(root: Path, report) -> list[ClaimRow]:
    """The map's rows: one per claim of ``report`` (a :class:`proofs_checks.report.Report`), in its order; the
    notebooks and tests listed are those of ``root`` (the checkout), the code read is the code imported."""
    from proofs_checks.claim_index import MODULES

    objects, drawn = paper_objects(), figures_by_claim()
    rows = []
    for claim in report.claims:
        module = MODULES[claim.id]
        stem = module.__name__.rsplit(".", 1)[1]
        closed, helpers = code_of(module.__name__, objects)
        figures = tuple(drawn.get(claim.id, ()))
        tests = [f"tests/claims/test_{stem}.py", *(f"tests/analytic/test_{m}.py" for m in sorted(closed)),
                 *(f"tests/figures/test_{f}.py" for f in figures)]
        rows.append(ClaimRow(
            id=claim.id, kind=claim.kind, ours=claim.ours, verdict=claim.verdict,
            lines=tuple(sorted({q.line for q in module.SOURCE})),
            headline=claim.headline.meaning if claim.headline else first_sentence(claim.statement),
            closed=tuple((m, tuple(sorted(closed[m]))) for m in sorted(closed)),
            check=_module_path(module.__name__), helpers=tuple(_module_path(h) for h in helpers),
            figures=figures,
            notebooks=tuple(f"notebooks/{f}.py" for f in figures if (root / "notebooks" / f"{f}.py").is_file()),
            tests=tuple(t for i, t in enumerate(tests) if i == 0 or (root / t).is_file())))
    return rows


def _cells(row: ClaimRow) -> list[str]:
    """The row's cells in MyST: references where the site has a page, code paths otherwise, '–' for none."""
    closed = "; ".join(f"{{py:mod}}`analytic.{m}`" + (": " + ", ".join(f"`{n}`" for n in names) if names else "")
                       for m, names in row.closed)
    check = f"`{row.check}`" + (f" ({', '.join(f'`{h}`' for h in row.helpers)})" if row.helpers else "")
    return [f"{{ref}}`{row.id} <claim-{row.id}>`", row.kind + (" (ours)" if row.ours else ""),
            f"**{row.verdict}**", ", ".join(map(str, row.lines)), _MARKDOWN.sub(r"\\\1", row.headline),
            closed or "–", check,
            ", ".join(f"{{py:mod}}`proofs_checks.figures.{f}`" for f in row.figures) or "–",
            ", ".join(f"{{doc}}`{n} <../notebooks/{Path(n).stem}>`" for n in row.notebooks) or "–",
            ", ".join(f"`{t}`" for t in row.tests)]


def map_page(rows: list[ClaimRow]) -> str:
    """``docs/claims/map.md``: the table, and where each column comes from."""
    header = ["claim", "kind", "verdict", "paper lines", "headline", "closed forms (`analytic/`)", "check",
              "figure", "notebook", "tests"]
    return "\n".join([
        "# The claim map", "",
        "One row per claim, in the report's order, written at each build from the code and",
        "`proofs_checks/REPORT.json` (`docs/_ext/fred_docs/claim_map.py` says where each column comes from);",
        "what the kinds mean and the pieces the checks share: {doc}`../claims`. The paper lines are those of",
        "`../shared/paper/fred-paper.tex` the claim quotes.", "",
        "| " + " | ".join(header) + " |", "|" + "---|" * len(header),
        *["| " + " | ".join(_cells(row)) + " |" for row in rows], ""])
