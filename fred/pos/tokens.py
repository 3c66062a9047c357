"""Word parts of a whitespace token, shared by POS tagging, the dictionaries and rendering.

FRED perturbs whitespace positions (``text.split()``), but a position often
carries punctuation: ``"food,"``, ``"(great!)"``, ``"place."``. POS sampling
replaces only the *core* of a position and keeps its punctuation, so that
``"food,"`` becomes ``"service,"`` rather than ``"service"`` (which would glue two
clauses) or ``"service ,"`` (which would add a position).

Rules
-----
* ``split_token(token) = (prefix, core, suffix)`` where prefix and suffix are the
  longest runs of non-word characters (regex ``\\W``) at either end and core is
  what lies between. Inner punctuation stays in the core (``"don't"``,
  ``"well-done"``).
* A token made only of non-word characters (``"!"``, ``"..."``, ``":)"``) has no
  core; it is then its own word with empty affixes, so it is replaced whole by
  another such token of the same tag.
* Dictionary words are lowercased cores; a replacement takes the case pattern of
  the core it replaces (see :func:`match_case`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

_PARTS = re.compile(r"^(\W*)(.*?)(\W*)$", re.DOTALL)


class TokenParts(NamedTuple):
    """``prefix + core + suffix == token``; ``start`` is the offset of the core in the token."""

    prefix: str
    core: str
    suffix: str

    @property
    def start(self) -> int:
        """Index of the word in the token (the length of its prefix)."""
        return len(self.prefix)

    @property
    def word(self) -> str:
        """The dictionary key of the token: its lowercased core."""
        return self.core.lower()


def split_token(token: str) -> TokenParts:
    """Split a whitespace token into leading punctuation, core and trailing punctuation.

    >>> split_token("(great!)")
    TokenParts(prefix='(', core='great', suffix='!)')
    >>> split_token("don't")
    TokenParts(prefix='', core="don't", suffix='')
    >>> split_token("...")
    TokenParts(prefix='', core='...', suffix='')
    """
    prefix, core, suffix = _PARTS.match(token).groups()
    if not core:  # punctuation-only token: the whole token is the word
        return TokenParts("", token, "")
    return TokenParts(prefix, core, suffix)


def match_case(word: str, like: str) -> str:
    """``word`` in the case pattern of ``like``: all caps (two letters or more), capitalised, or as is.

    >>> match_case("awful", "GREAT"), match_case("awful", "Great"), match_case("awful", "great")
    ('AWFUL', 'Awful', 'awful')
    >>> match_case("she", "I")
    'She'
    """
    if len(like) > 1 and like.isupper():
        return word.upper()
    if like[:1].isupper():
        return word[:1].upper() + word[1:]
    return word
