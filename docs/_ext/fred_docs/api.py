"""The API reference: which modules it documents, each module's public names, and its pages.

One page per module, written at each build into ``docs/api/`` (not committed): ``automodule`` with the module's
public names as an explicit member list, so every public name gets an entry. A public name is one of the module's
``__all__`` defined in that module, or, without ``__all__``, a name without a leading underscore that the module
defines (a function or class whose ``__module__`` is the module, or data assigned at its top level). The test
``tests/test_docs.py`` fails on any public name without a docstring (``#:`` comment for data), which autodoc would
otherwise render as an empty entry.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from sphinx.pycode import ModuleAnalyzer

from .refs import in_project

#: Packages documented module by module: the explainer, the paper's constants, the closed forms, the conformance
#: kit and the figures.
WHOLE_PACKAGES = ("fred_constants", "fred", "analytic", "proofs_checks.kit", "proofs_checks.figures")
#: The checking side's public surface: the names of ``proofs_checks.__all__``, documented in the modules that
#: define them, ...
PUBLIC_PACKAGE = "proofs_checks"
#: ... the modules the README and the kit page name (the report's schema, the strategies, the protocol, the
#: comparison, the pytest plugin), and the modules their docstrings refer to, so that every reference links.
PUBLIC_MODULES = ("proofs_checks.report", "proofs_checks.claim_index", "proofs_checks.statistics.intervals",
                  "proofs_checks.verdicts.results", "proofs_checks.comparison", "proofs_checks.subject.protocol",
                  "proofs_checks.strategies", "proofs_checks.pytest_plugin", "proofs_checks.subject.explainer",
                  "proofs_checks.statistics.isolation", "analytic.exact_cache", "proofs_checks.models.family",
                  "proofs_checks.verdicts.quotes", "proofs_checks.paper.baselines", "proofs_checks.cases.lime_runs",
                  "proofs_checks.statistics.seeds", "proofs_checks.models.tabled_scores", "fred_pytest",
                  "proofs_checks.paper.yardstick", "proofs_checks.paper.tables")


def _private(name: str) -> bool:
    return any(part.startswith("_") for part in name.split("."))


def api_modules() -> list[str]:
    """Every module the API reference documents, packages first, in a stable order."""
    names = []
    for package in WHOLE_PACKAGES:
        names.append(package)
        path = importlib.import_module(package).__path__
        names += sorted(info.name for info in pkgutil.walk_packages(path, package + ".")
                        if not _private(info.name))
    module = importlib.import_module(PUBLIC_PACKAGE)
    defining = sorted({getattr(module, n).__module__ for n in module.__all__} - {PUBLIC_PACKAGE})
    names = [PUBLIC_PACKAGE, *names, *defining, *PUBLIC_MODULES]
    return [n for n in dict.fromkeys(names) if not _private(n)]


def _assigned(module) -> list[str]:
    """Names assigned at the module's top level (``x = ...``, ``x: T = ...``), in source order."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError):
        return []
    names = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        for target in targets:  # "a = ..." and "a, b = ..."
            names += [t.id for t in getattr(target, "elts", [target]) if isinstance(t, ast.Name)]
    return names


def public_names(modname: str) -> list[str]:
    """The public names ``modname`` defines (see the module docstring), in source order where known."""
    module = importlib.import_module(modname)
    assigned = _assigned(module)
    defined = [n for n, v in vars(module).items()
               if (inspect.isclass(v) or inspect.isfunction(v)) and v.__module__ == modname]
    candidates = list(getattr(module, "__all__", None) or dict.fromkeys(defined + assigned))
    # a module or a type variable (a signature's ``T``) is not an entry of its own
    return [n for n in candidates if not n.startswith("_") and hasattr(module, n)
            and not isinstance(getattr(module, n), (ModuleType, TypeVar)) and (n in defined or n in assigned)]


def _own_doc(obj) -> str | None:
    """A class's own docstring (not a base class's, nor the signature dataclasses write when there is none)."""
    doc = vars(obj).get("__doc__")
    if doc and dataclasses.is_dataclass(obj) and doc.startswith(f"{obj.__name__}("):
        return None
    return doc


def _members(cls) -> list[tuple[str, object]]:
    """The public methods and properties a class defines itself (a dataclass field whose default is a function is
    a field, documented with the class)."""
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    return [(n, v) for n, v in vars(cls).items() if not n.startswith("_") and n not in fields
            and isinstance(v, (property, classmethod, staticmethod, type(_private)))]


def _project_doc(cls, member: str) -> bool:
    """Whether the class's ``member`` has a docstring written in this project, its own or a project base's (a
    docstring inherited from scikit-learn or pytest speaks of their API, not this one)."""
    for base in cls.__mro__:
        value = vars(base).get(member)
        if value is not None:
            function = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
            if (getattr(function, "__doc__", None) or "").strip():
                return in_project(base.__module__)
    return False


def skip_foreign_member(app, what, name, obj, skip, options):
    """``autodoc-skip-member``: a class member defined outside the project (scikit-learn's ``set_*_request``
    methods, pytest's node API) is theirs to document."""
    if what == "class" and callable(obj) and getattr(obj, "__module__", None) and not in_project(obj.__module__):
        return True
    return None


def undocumented(modname: str) -> list[str]:
    """The public names of ``modname`` (and the public methods and properties of its classes) without a docstring,
    or for data without a ``#:`` comment or docstring: what the API reference would show as an empty entry."""
    module = importlib.import_module(modname)
    attr_docs = ModuleAnalyzer.for_module(modname).find_attr_docs()
    missing = []
    for name in public_names(modname):
        obj = getattr(module, name)
        if inspect.isclass(obj) and obj.__module__ == modname:
            if not (_own_doc(obj) or "").strip():
                missing.append(name)
            missing += [f"{name}.{m}" for m, v in _members(obj) if not _project_doc(obj, m)]
        elif inspect.isfunction(obj) and obj.__module__ == modname:
            if not (obj.__doc__ or "").strip():
                missing.append(name)
        elif ("", name) not in attr_docs:
            missing.append(name)
    return [f"{modname}.{n}" for n in missing]


def _page(modname: str) -> str:
    """One module's page: its docstring, then each public name; a package also lists what it re-exports."""
    module = importlib.import_module(modname)
    names = public_names(modname)
    lines = [modname, "=" * len(modname), "", f".. automodule:: {modname}"]
    lines += [f"   :members: {', '.join(names)}" if names else "   :no-members:", ""]
    exported = [n for n in getattr(module, "__all__", ()) if n not in names]
    if exported:
        lines += ["Also importable from here, documented where defined:", ""]
        lines += [f"- :py:obj:`{modname}.{n}`" for n in exported] + [""]
    return "\n".join(lines)


def write_api_pages(out: Path) -> list[str]:
    """Write ``out/<module>.rst`` for every module and ``out/index.rst``; returns the module names."""
    modules = api_modules()
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.rst"):
        stale.unlink()
    for modname in modules:
        (out / f"{modname}.rst").write_text(_page(modname), encoding="utf-8")
    index = ["API reference", "=============", "",
             "Every public name of ``fred``, ``fred_constants`` and ``analytic`` (module by module), and of the",
             "checking side's public surface in ``proofs_checks``, from the numpy-style docstrings.", "",
             ".. toctree::", "   :maxdepth: 1", "", *[f"   {m}" for m in modules], ""]
    (out / "index.rst").write_text("\n".join(index), encoding="utf-8")
    return modules
