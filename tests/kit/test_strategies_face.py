"""``proofs_checks.strategies`` is the public face of the kit's strategies (``proofs_checks.kit.strategies``): it
only re-exports them, and every one of them."""

from __future__ import annotations

import ast
import inspect
import types

import proofs_checks.strategies as face
from proofs_checks.kit import strategies as implementation


def _defined_at_top(module: types.ModuleType) -> set[str]:
    """Public names a module defines at its top level (functions, classes, assignments), not those it imports."""
    names = set()
    for node in ast.parse(inspect.getsource(module)).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return {name for name in names if not name.startswith("_")}


def test_all_lists_exactly_what_the_face_exports_and_every_name_imports():
    """Catches a name in __all__ the face does not export (a star import would fail), an exported name missing
    from __all__, and a face defining something of its own instead of re-exporting."""
    exported = {name for name, value in vars(face).items()
                if not name.startswith("_") and not isinstance(value, types.ModuleType)}
    assert sorted(face.__all__) == sorted(exported) and len(set(face.__all__)) == len(face.__all__)
    namespace: dict = {}
    exec("from proofs_checks.strategies import *", namespace)  # noqa: S102 - the import a user writes
    assert set(namespace) - {"__builtins__"} == set(face.__all__)
    assert not _defined_at_top(face) - {"__all__"}


def test_the_face_reexports_every_strategy_of_the_kit():
    """Catches a strategy (or constant) added to the kit but not to the public face, and a face name bound to
    another object than the kit's: a researcher must draw what the kit draws."""
    assert set(face.__all__) == _defined_at_top(implementation)
    assert all(getattr(face, name) is getattr(implementation, name) for name in face.__all__)
