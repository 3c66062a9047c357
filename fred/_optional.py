"""The one optional-import helper: import a module of an extra, or say which extra installs it."""

from __future__ import annotations

import importlib
from types import ModuleType


def import_optional(module: str, extra: str, purpose: str) -> ModuleType:
    """``importlib.import_module(module)``, or ImportError naming ``purpose`` and the pip command for ``extra``.

    >>> import_optional("math", "none", "arithmetic").sqrt(4.0)
    2.0
    """
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(f"{purpose} needs {module!r} from the {extra!r} extra: "
                          f"pip install 'fred-theory[{extra}]' ({error})") from error
