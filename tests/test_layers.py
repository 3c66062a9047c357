"""The layers of docs/architecture.md hold in the code (issue 27): the import-linter contracts of pyproject.toml, no
import cycle, no project import hidden inside a function, and package faces that only re-export."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("fred_constants", "fred", "analytic", "proofs_checks")

#: Project imports inside a function, each with the reason it cannot be at the top. Nothing else may hide one.
FUNCTION_IMPORTS = {
    # the figures need matplotlib (the plots extra): the report runs without it
    ("proofs_checks.__main__", "proofs_checks.figures"),
    # a script run in the released code's interpreter, whose own package is named fred: it imports that fred
    ("proofs_checks.subject._authors_driver", "fred.explainer"),
    # the file is also the script run in the released code's interpreter, which must import nothing of ours
    ("proofs_checks.subject.authors_probe", "proofs_checks.subject.authors"),
}


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def test_import_linter_contracts_hold():
    """Catches an import that runs back up a layer, a claim importing another, a figure importing a claim, and
    fred.evaluation importing the checking side: `lint-imports` on pyproject.toml's contracts, whose report is
    the failure message."""
    run = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
                          "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True))"],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_no_import_cycle():
    """Catches a cycle between modules (imports inside functions included, as grimp reads them): strongly
    connected components of the module graph, computed here, must all be single modules."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(module):  # Tarjan's algorithm, iterative enough for this graph's depth
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in graph.find_modules_directly_imported_by(module):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    assert cycles == [], f"import cycles: {cycles}"


def _function_imports(module: str, path: Path) -> set[tuple[str, str]]:
    """(module, imported project module) for every project import inside a function of ``path``."""
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parent + ([base] if base else []))
                names = [base]
            else:
                continue
            found |= {(module, name) for name in names if name.split(".")[0] in PACKAGES}
    return found


def test_no_project_import_hidden_in_a_function():
    """Catches an import of the project moved into a function to dodge a cycle or a layer: every such import is
    in FUNCTION_IMPORTS with its reason (optional third-party packages may be imported lazily)."""
    hidden = set().union(*(_function_imports(m, p) for m, p in _modules().items()))
    assert hidden == FUNCTION_IMPORTS, f"unexpected: {sorted(hidden - FUNCTION_IMPORTS)}, " \
                                       f"stale exemptions: {sorted(FUNCTION_IMPORTS - hidden)}"


@pytest.mark.parametrize("package", [m for m, p in _modules().items() if p.name == "__init__.py"])
def test_package_face_only_reexports(package):
    """Catches code in a package's __init__ (it only re-exports, as hypothesis' strategies/__init__.py), a name in
    __all__ that is not exported, and an exported name missing from __all__."""
    path = _modules()[package]
    tree = ast.parse(path.read_text())
    imported, all_names = set(), None
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            imported |= {alias.asname or alias.name for alias in node.names}
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, ast.AnnAssign) else []
        assert [getattr(t, "id", None) for t in targets] == ["__all__"], \
            f"{path.relative_to(ROOT)}:{node.lineno} is not a re-export: {ast.unparse(node)[:80]}"
        all_names = ast.literal_eval(node.value)
    assert all_names is not None, f"{path.relative_to(ROOT)} has no __all__"
    assert sorted(all_names) == sorted(imported), (sorted(set(all_names) - imported), sorted(imported - set(all_names)))
    face = importlib.import_module(package)
    assert all(hasattr(face, name) for name in all_names)


def test_no_function_over_60_lines():
    """Catches a function of fred, analytic or proofs_checks grown past 60 lines, decorators included (a claim's
    check() written as an essay again, issue 39); a long table of data is a constant, not a function."""
    long = []
    for module, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                if node.end_lineno - first + 1 > 60:
                    long.append(f"{module}.{node.name} ({node.end_lineno - first + 1} lines)")
    assert not long, long
