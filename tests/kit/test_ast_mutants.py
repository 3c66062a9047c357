"""tools/ast_mutants.py, the mutation tool of issue 38: each operator makes the mutants it names, nothing it must
leave alone is mutated, and keys are unique and stable. Expected mutants are written out by hand."""

from __future__ import annotations

import ast

import pytest

from tests._helpers import load_tool

ast_mutants = load_tool("ast_mutants")

SOURCE = '''"""Module docstring."""
from __future__ import annotations

LIMIT = 3


def f(x: int, flag: bool = True) -> int:
    """Docstring."""
    if x < LIMIT and not flag:
        raise ValueError("x too small")
    return max(x, 2) - x[1:]
'''


def _mutated_lines() -> list[str]:
    return [m.after for m in ast_mutants.mutants(SOURCE)]


def test_every_operator_on_a_small_module():
    """Catches an operator silently not applied, or applied where it must not be: the mutants of SOURCE, listed by
    hand in source order (default True, the comparison, the boolean, the not, the constants, max <-> min, the swap,
    the subtraction, the slice bound, the statements removed)."""
    got = [(m.operator, m.before, m.after) for m in ast_mutants.mutants(SOURCE)]
    assert got == [
        ("constant", "3", "4"), ("constant", "3", "2"),
        ("constant", "True", "False"),
        ("statement", "if x < LIMIT and (not flag): ...", "pass"),
        ("boolean", "x < LIMIT and (not flag)", "x < LIMIT or not flag"),
        ("compare", "x < LIMIT", "x <= LIMIT"),
        ("unary", "not flag", "flag"),
        ("statement", "raise ValueError('x too small')", "pass"),
        ("statement", "return max(x, 2) - x[1:]", "pass"),
        ("binary", "max(x, 2) - x[1:]", "max(x, 2) + x[1:]"),
        ("call", "max(x, 2)", "min(x, 2)"), ("call", "max(x, 2)", "max(2, x)"),
        ("constant", "2", "3"), ("constant", "2", "1"),
        ("slice", "1:", ":"),
        ("constant", "1", "2"), ("constant", "1", "0"),
    ]


def test_docstrings_annotations_imports_and_messages_are_left_alone():
    """Catches noise mutants nobody could kill: the docstrings, the annotations (strings under
    ``from __future__ import annotations``), the import and the raise's message are never changed."""
    befores = " | ".join(m.before for m in ast_mutants.mutants(SOURCE) if m.operator == "constant")
    assert "Docstring" not in befores and "x too small" not in befores and "int" not in befores
    assert not any("__future__" in m.diff or "Docstring" in m.diff.replace("\"\"\"Docstring.\"\"\"", "")
                   for m in ast_mutants.mutants(SOURCE))


def test_each_mutant_changes_one_node_and_compiles():
    """Catches a mutant that changes two places, or none, or does not parse: the mutated module differs from the
    original in exactly one line (every expression of SOURCE is on one line), or, for a removed statement, in the
    statement's lines replaced by one ``pass``; and it compiles."""
    original = ast.unparse(ast.parse(SOURCE)).splitlines()
    for m in ast_mutants.mutants(SOURCE):
        compile(m.source, "<mutant>", "exec")
        mutated = m.source.splitlines()
        added = [line for line in m.diff.splitlines() if line.startswith("+")]
        if m.operator == "statement":
            assert [line.replace(" ", "") for line in added] == ["+pass"] and len(mutated) <= len(original), m.key
        else:
            assert len(mutated) == len(original), m.key
            assert sum(a != b for a, b in zip(original, mutated)) == 1, m.key


def test_keys_are_unique_and_count_repeats():
    """Catches two mutants sharing a key, which would attach a written argument to the wrong one: the same change
    twice in a function gets '#2'."""
    source = "def g(a):\n    return a + 1 + 1\n"
    keys = [m.key for m in ast_mutants.mutants(source)]
    assert len(set(keys)) == len(keys)
    assert "g: constant: 1 -> 2 #2" in keys


def test_keys_survive_an_edit_elsewhere():
    """Catches keys that depend on positions: adding a function before f leaves f's keys as they were (only the
    indices move), so tools/kit_mutation_equivalents.toml stays attached to its mutants."""
    before = {m.key for m in ast_mutants.mutants(SOURCE)}
    after = {m.key for m in ast_mutants.mutants(SOURCE.replace("LIMIT = 3\n", "LIMIT = 3\n\n\ndef h(y):\n"
                                                                             "    return y * 2\n"))}
    assert before <= after and {k for k in after - before if not k.startswith("h:")} == set()


@pytest.mark.parametrize("op, swapped", [("+", "-"), ("-", "+"), ("*", "/"), ("/", "*"), ("//", "/"), ("%", "//"),
                                         ("**", "*"), ("<<", ">>"), (">>", "<<"), ("&", "|"), ("|", "&"),
                                         ("^", "|")])
def test_binary_operators(op, swapped):
    """Catches a missing or wrong entry of the binary table (and its use in augmented assignments)."""
    afters = {m.after for m in ast_mutants.mutants(f"def k(a, b):\n    a {op}= b\n    return a {op} b\n")}
    assert f"a {swapped}= b" in afters and f"a {swapped} b" in afters


@pytest.mark.parametrize("op, moved", [("<", "<="), ("<=", "<"), (">", ">="), (">=", ">"), ("==", "!="),
                                       ("!=", "=="), ("in", "not in"), ("not in", "in"), ("is", "is not"),
                                       ("is not", "is")])
def test_comparisons(op, moved):
    """Catches a missing or wrong entry of the comparison table."""
    assert f"a {moved} b" in {m.after for m in ast_mutants.mutants(f"def k(a, b):\n    return a {op} b\n")}
