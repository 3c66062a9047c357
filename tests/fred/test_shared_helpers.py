"""The project's one copy of each shared helper: environment recorder, Markdown tables, progress bar,
optional imports."""

from __future__ import annotations

import sys
from importlib import metadata

import pytest

from fred import _optional, markdown_tables, progress, provenance


def test_environment_names_each_package_once_with_its_installed_version():
    """Catches a recorder that drops a requested package, repeats a core one, or invents a version."""
    env = provenance.environment(("numpy", "no-such-package-xyz"))
    assert list(env["packages"])[: len(provenance.CORE_PACKAGES)] == list(provenance.CORE_PACKAGES)
    assert list(env["packages"]).count("numpy") == 1
    assert env["packages"]["numpy"] == metadata.version("numpy")
    assert env["packages"]["no-such-package-xyz"] is None
    assert env["python"] == ".".join(map(str, sys.version_info[:3]))
    line = provenance.describe(env)
    assert "no-such-package-xyz not installed" in line and f"numpy {metadata.version('numpy')}" in line


def test_markdown_table_escapes_pipes_and_newlines_in_every_cell():
    """Catches a cell that breaks the table: a '|' or a newline inside a value (notes, messages) must not add
    columns or rows."""
    table = markdown_tables.markdown_table(["a|b", "c"], [["x\ny", 1], ["z", "p|q"]])
    assert table.splitlines() == ["| a\\|b | c |", "|---|---|", "| x y | 1 |", "| z | p\\|q |"]


def test_progress_only_on_a_terminal(monkeypatch):
    """Catches progress bars leaking into CI logs: shown only when stderr is a TTY and CI is unset."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: True, raising=False)
    assert progress.interactive()
    monkeypatch.setenv("CI", "1")
    assert not progress.interactive()
    monkeypatch.delenv("CI")
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False, raising=False)
    assert not progress.interactive()
    items = [1, 2]
    assert progress.progress(items, "x") is items


def test_optional_import_names_the_extra_and_the_pip_command():
    """Catches an optional import whose error hides which extra to install (users then pip-install the wrong
    thing) or swallows the original error."""
    with pytest.raises(ImportError) as info:
        _optional.import_optional("no_such_module_xyz", "pos", "POS sampling")
    message = str(info.value)
    assert message.startswith("POS sampling needs 'no_such_module_xyz' from the 'pos' extra: "
                              "pip install 'fred-theory[pos]'")
    assert isinstance(info.value.__cause__, ImportError)
