"""Docstrings as the site shows them: the project writes ``|c|`` for a set's size, never an RST substitution.

reStructuredText reads ``|c|`` as a substitution reference (an error under ``-W``). :func:`escape_bars` escapes
such bars outside inline literals and doctest blocks before autodoc parses a docstring; the source keeps the plain
notation a reader of the code sees.
"""

from __future__ import annotations

import re
from typing import TypeVar

from .refs import in_project

#: ``|x|`` with no space just inside either bar (a table row's ``| a | b |`` has spaces and is left alone).
_BARS = re.compile(r"(?<![\\|])\|(?=[^\s|])([^|\n]*?[^\s\\|])\|(?!\|)")
#: Inline literals, which RST shows verbatim: a backslash there would be shown too.
_LITERAL = re.compile(r"(``.*?``)")


def _escape_line(line: str) -> str:
    parts = _LITERAL.split(line)
    # "t_|c|" (a subscript) would otherwise start a hyperlink reference "t_"
    return "".join(p if p.startswith("``") else _BARS.sub(r"\\|\1\\|", p.replace("_|", "\\_|")) for p in parts)


def escape_bars(lines: list[str]) -> list[str]:
    """The docstring's lines with every ``|x|`` outside literals and doctest blocks escaped, in place."""
    in_doctest = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        in_doctest = stripped.startswith(">>>") or (in_doctest and bool(stripped))
        if not in_doctest:
            lines[i] = _escape_line(line)
    return lines


def process_docstring(app, what, name, obj, options, lines: list[str]) -> None:
    """``autodoc-process-docstring`` handler."""
    escape_bars(lines)


def _only_this_project(handler):
    def handle(app, what, name, obj, *rest):
        module = getattr(obj, "__module__", None)
        if not isinstance(obj, TypeVar) and (what == "module" or not isinstance(module, str) or in_project(module)):
            return handler(app, what, name, obj, *rest)
        return None
    return handle


def guard_numpydoc(app) -> None:
    """numpydoc reads a type variable (``T = TypeVar("T")``, documented by its ``#:`` comment) as a class and
    raises, and autodoc hands it the docstrings of every imported name it looks at (hypothesis' ``given``, whose
    sections it does not know): its handlers are wrapped to parse this project's docstrings only, a type
    variable's comment shown as written."""
    from numpydoc.numpydoc import mangle_docstrings, mangle_signature

    for event, handler in (("autodoc-process-docstring", mangle_docstrings),
                           ("autodoc-process-signature", mangle_signature)):
        for listener in list(app.events.listeners[event]):
            if listener.handler is handler:
                app.disconnect(listener.id)
                app.connect(event, _only_this_project(handler), priority=listener.priority)
