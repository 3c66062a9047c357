"""Cross-references to a name where it is importable rather than where it is documented.

The docstrings write ``:class:`fred.Fred``` and ``:func:`analytic.coverage``` (the import paths a reader uses),
relative paths (``:mod:`.strategies``` inside ``proofs_checks.kit``) and, inside a module, the short name of
something it imports (``:class:`Explanation``` in ``fred.explainer``). The API reference documents each object
once, where it is defined (``fred.explainer.Fred``). When Sphinx finds no object of the written name,
:func:`resolve_alias` imports the name from this project's packages, finds where it is defined, and links there; a
name that is documented nowhere still fails the ``-W`` build.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from typing import TypeVar

from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx

#: The project's top-level packages and modules: only their names are imported to resolve a reference.
ROOTS = ("fred_constants", "fred", "analytic", "proofs_checks", "fred_pytest")


def in_project(modname: str | None) -> bool:
    """Whether ``modname`` is one of this project's modules."""
    return bool(modname) and modname.split(".")[0] in ROOTS


def import_target(target: str):
    """The object ``target`` names (a dotted path into one of :data:`ROOTS`) and its owner, or (None, None)."""
    parts = target.split(".")
    if not in_project(target):
        return None, None
    for split in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        owner = None
        for attr in parts[split:]:
            if not hasattr(obj, attr):
                return None, None
            owner, obj = obj, getattr(obj, attr)
        return obj, owner
    return None, None


def canonical_names(target: str) -> list[str]:
    """Where the object ``target`` names may be documented: a module's own name; the defining module's path of a
    function, class or method; for other attributes of a class, the class's path; for data, every project module
    holding the same object under the same name (identity, not equality)."""
    obj, owner = import_target(target)
    if obj is None:
        return []
    name = target.rsplit(".", 1)[-1]
    if inspect.ismodule(obj):
        return [obj.__name__]
    if (inspect.isclass(obj) or inspect.isfunction(obj)) and in_project(obj.__module__):
        # a decorated function (hypothesis' @composite) may carry a factory's qualname: its name is where it is
        return list(dict.fromkeys([f"{obj.__module__}.{obj.__qualname__}", f"{obj.__module__}.{obj.__name__}"]))
    if inspect.isclass(owner):
        return [f"{owner.__module__}.{owner.__qualname__}.{name}"]
    return [f"{m}.{name}" for m, module in sorted(sys.modules.items())
            if in_project(m) and getattr(module, name, None) is obj]


def _written_forms(node: pending_xref) -> list[str]:
    """The full names a reference may mean: relative to its class, to its module and each package above it (a
    leading dot, as Python's relative imports), then as written."""
    target = node["reftarget"].lstrip("~")
    dots = len(target) - len(target.lstrip("."))
    target = target.lstrip(".")
    module, cls = node.get("py:module"), node.get("py:class")
    forms = [f"{module}.{cls}.{target}"] if module and cls else []
    if module:
        parts = module.split(".")
        start = len(parts) - max(dots - 1, 0)  # ".x" is beside the module, "..x" one package up
        forms += [".".join(parts[:k] + [target]) for k in range(start, 0, -1)]
    return forms + [target]


def resolve_alias(app: Sphinx, env, node: pending_xref, contnode):
    """``missing-reference`` handler: link a Python reference to the documented definition of what it names."""
    if node.get("refdomain") != "py":
        return None
    domain = env.get_domain("py")
    for written in _written_forms(node):
        obj, _ = import_target(written)
        if isinstance(obj, TypeVar):
            return contnode  # a type variable in a signature (``Iterable[T]``) has no entry to link to
        for name in canonical_names(written):
            if name in domain.objects:
                # the full name, found as written (a relative reference's fuzzy search is over)
                exact = node.deepcopy()
                exact["refspecific"] = False
                found = domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], name, exact, contnode)
                if found is not None:
                    return found
    return None
