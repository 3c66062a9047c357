"""Every small change a mutation tool makes to a Python module: an AST mutator of our own (issue 38).

A *mutant* is the module with one node changed. The operators are mutmut's and the usual ones of mutation testing:

* ``binary``: an arithmetic or bitwise operator replaced (``+`` and ``-``, ``*`` and ``/``, ``//`` -> ``/``,
  ``%`` -> ``//``, ``**`` -> ``*``, ``@`` -> ``*``, ``<<`` and ``>>``, ``&`` and ``|``, ``^`` -> ``|``), also in an
  augmented assignment;
* ``compare``: a comparison moved across its boundary or negated (``<`` and ``<=``, ``>`` and ``>=``, ``==`` and
  ``!=``, ``in`` and ``not in``, ``is`` and ``is not``);
* ``boolean``: ``and`` and ``or``; ``unary``: ``not``, ``-`` or ``~`` removed;
* ``constant``: ``True`` and ``False``; an integer n -> n + 1 and n - 1 (off-by-ones); a float x -> x + 1; a string s
  -> ``"XX" + s + "XX"``;
* ``call``: ``max`` and ``min``, ``any`` and ``all``, ``argmax`` and ``argmin``, ``ones`` and ``zeros`` swapped;
  two adjacent positional arguments swapped;
* ``slice``: a bound of a slice removed;
* ``statement``: a statement of a function body replaced by ``pass`` (removed).

Not mutated: docstrings, annotations (strings under ``from __future__ import annotations``), imports, f-strings and
the strings of a ``raise`` statement (error messages: the kit checks the exception's type, never its text).

Each mutant has an index (its place in source order) and a *key*, ``function: operator: before -> after`` with an
occurrence number when the same change appears twice in a function: the key survives edits elsewhere in the module,
so written arguments (equivalent mutants) stay attached to their mutant.

>>> source = "def f(x):\\n    return x + 1 if x > 0 else None\\n"
>>> [m.key for m in mutants(source)][:3]
['f: statement: return x + 1 if x > 0 else None -> pass', 'f: compare: x > 0 -> x >= 0', 'f: constant: 0 -> 1']
>>> print(mutants(source)[4].diff)
-    return x + 1 if x > 0 else None
+    return x - 1 if x > 0 else None
"""

from __future__ import annotations

import ast
import copy
import difflib
from dataclasses import dataclass
from typing import Callable, Iterator

#: Operator classes replaced by ``binary`` (also in augmented assignments).
BINARY = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
          ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult, ast.MatMult: ast.Mult, ast.LShift: ast.RShift,
          ast.RShift: ast.LShift, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.BitXor: ast.BitOr}
#: Comparison classes replaced by ``compare``.
COMPARE = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
           ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
#: Names (of functions or attributes) swapped by ``call``.
SWAPPED_NAMES = {"max": "min", "min": "max", "any": "all", "all": "any", "argmax": "argmin", "argmin": "argmax",
                 "ones": "zeros", "zeros": "ones"}
#: Fields never entered: annotations and decorators.
SKIPPED_FIELDS = ("annotation", "returns", "decorator_list", "type_comment")


@dataclass(frozen=True)
class Mutant:
    """One mutant: its index in source order, operator, line, enclosing function, the changed node before and after
    (unparsed), its stable ``key``, its source and the diff of its changed lines against the original."""

    index: int
    operator: str
    line: int
    function: str
    before: str
    after: str
    key: str
    source: str
    diff: str

    def to_dict(self) -> dict:
        return {"index": self.index, "operator": self.operator, "line": self.line, "function": self.function,
                "before": self.before, "after": self.after, "key": self.key, "diff": self.diff}


# A site is (node, how to replace it: a function of the copied tree's node returning the new node, or None to
# replace the node's statement by ``pass``).
Change = tuple[str, Callable[[ast.AST], ast.AST]]


def _docstring(parent: ast.AST, field: str, index: int | None) -> bool:
    if field != "body" or index != 0 or not isinstance(parent, (ast.Module, ast.FunctionDef, ast.ClassDef)):
        return False
    first = parent.body[0]
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)


def _walk(node: ast.AST, function: str, in_raise: bool, in_def: bool) -> Iterator[tuple]:
    """(node, parent, enclosing function or class, inside a raise, inside a function) in source order, skipping what
    is never mutated."""
    for field, value in ast.iter_fields(node):
        if field in SKIPPED_FIELDS:
            continue
        children = value if isinstance(value, list) else [value]
        for index, child in enumerate(children):
            if not isinstance(child, ast.AST) or _docstring(node, field, index if isinstance(value, list) else None):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom, ast.JoinedStr)):
                continue
            name = child.name if isinstance(child, (ast.FunctionDef, ast.ClassDef)) else function
            name = f"{function}.{name}" if function and name != function else name
            yield child, node, name, in_raise, in_def
            yield from _walk(child, name, in_raise or isinstance(child, ast.Raise),
                             in_def or isinstance(child, ast.FunctionDef))


def _constant_changes(node: ast.Constant, in_raise: bool) -> list[Change]:
    value = node.value
    if isinstance(value, bool):
        return [("constant", lambda n: ast.Constant(not n.value))]
    if isinstance(value, int):
        return [("constant", lambda n: ast.Constant(n.value + 1)), ("constant", lambda n: ast.Constant(n.value - 1))]
    if isinstance(value, float):
        return [("constant", lambda n: ast.Constant(n.value + 1.0))]
    if isinstance(value, str) and not in_raise:
        return [("constant", lambda n: ast.Constant("XX" + n.value + "XX"))]
    return []


def _call_changes(node: ast.Call) -> list[Change]:
    changes: list[Change] = []
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name in SWAPPED_NAMES:
        def rename(n):
            if isinstance(n.func, ast.Name):
                n.func.id = SWAPPED_NAMES[n.func.id]
            else:
                n.func.attr = SWAPPED_NAMES[n.func.attr]
            return n
        changes.append(("call", rename))
    for i in range(len(node.args) - 1):
        if ast.dump(node.args[i]) != ast.dump(node.args[i + 1]) and not any(
                isinstance(a, ast.Starred) for a in node.args[i:i + 2]):
            def swap(n, i=i):
                n.args[i], n.args[i + 1] = n.args[i + 1], n.args[i]
                return n
            changes.append(("call", swap))
    return changes


def _changes(node: ast.AST, in_raise: bool, in_def: bool) -> list[Change]:
    """The changes the operators make at ``node``."""
    changes: list[Change] = []
    if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in BINARY:
        changes.append(("binary", lambda n: _with(n, op=BINARY[type(n.op)]())))
    elif isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in COMPARE:
                changes.append(("compare", lambda n, i=i: _with(
                    n, ops=[COMPARE[type(o)]() if j == i else o for j, o in enumerate(n.ops)])))
    elif isinstance(node, ast.BoolOp):
        changes.append(("boolean", lambda n: _with(n, op=ast.Or() if isinstance(n.op, ast.And) else ast.And())))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub, ast.Invert)):
        changes.append(("unary", lambda n: n.operand))
    elif isinstance(node, ast.Constant):
        changes += _constant_changes(node, in_raise)
    elif isinstance(node, ast.Call):
        changes += _call_changes(node)
    elif isinstance(node, ast.Slice):
        for bound in ("lower", "upper"):
            if getattr(node, bound) is not None:
                changes.append(("slice", lambda n, bound=bound: _with(n, **{bound: None})))
    if isinstance(node, ast.stmt) and in_def and not isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Pass)):
        changes.append(("statement", lambda n: ast.Pass()))
    return changes


def _with(node: ast.AST, **fields) -> ast.AST:
    for name, value in fields.items():
        setattr(node, name, value)
    return node


def _sites(tree: ast.AST) -> Iterator[tuple[ast.AST, ast.AST, str, str, Callable]]:
    for node, parent, function, in_raise, in_def in _walk(tree, "", False, False):
        for operator, change in _changes(node, in_raise, in_def):
            yield node, parent, function, operator, change


def _replace(parent: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for field, value in ast.iter_fields(parent):
        if isinstance(value, list):
            for i, child in enumerate(value):
                if child is old:
                    value[i] = new
                    return
        elif value is old:
            setattr(parent, field, new)
            return
    raise LookupError("node not found under its parent")


def _shown(node: ast.AST) -> str:
    text = ast.unparse(node)
    first = text.splitlines()[0] if text else text
    return first + (" ..." if "\n" in text else "")


def mutants(source: str) -> list[Mutant]:
    """Every mutant of ``source``, in source order (the index is the place in this list). Each change is made on a
    copy of its node, put in the tree for unparsing, and taken out again: one walk of the tree for all mutants."""
    tree = ast.parse(source)
    plain = ast.unparse(tree).splitlines()
    made, seen = [], {}
    for index, (node, parent, function, operator, change) in enumerate(list(_sites(tree))):
        new = change(copy.deepcopy(node))
        _replace(parent, node, new)
        try:
            mutated = ast.unparse(tree)
        finally:
            _replace(parent, new, node)
        before, after = _shown(node), _shown(new)
        diff = "\n".join(line for line in difflib.unified_diff(plain, mutated.splitlines(), lineterm="", n=0)
                         if line[:1] in "+-" and line[:3] not in ("---", "+++"))
        key = f"{function or '<module>'}: {operator}: {before} -> {after}"
        seen[key] = seen.get(key, 0) + 1
        key += f" #{seen[key]}" if seen[key] > 1 else ""
        made.append(Mutant(index, operator, getattr(node, "lineno", 0), function, before, after, key, mutated, diff))
    return made
