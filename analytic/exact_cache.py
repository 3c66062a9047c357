"""The one cache of exact results, used on both sides: by ``analytic`` itself (the exact distributions of FRED's
empirical choice, :func:`analytic.selection.selection_distribution`) and by the claims of ``proofs_checks`` for
their explainer-independent side. What a claim computes without asking the subject for an explainer (exact referee
answers, exact distributions, closed forms, enumerations, tables of fitted models) is the same for every explainer,
so a claim run against a second explainer (``python -m proofs_checks --explainer``, the planted battery of the
tests) recomputes only the explain-and-compare part.

:func:`exact_cache` memoises a pure function by its arguments **and their types**, element by element inside
tuples, so that ``1``, ``1.0``, ``Fraction(1)`` and ``np.float64(1)`` (equal, with equal hashes) never share an
entry: a cached answer computed in exact rationals is never served to a float call, or the reverse.
What it caches must not be changed by a caller, so that no caller changes what the next one reads: a function
returns immutable data (tuples, frozen dataclasses, numpy arrays made read-only by :func:`frozen`), or is cached
with ``copy=True`` and each call gets its own deep copy (dicts and lists of a claim's step values).
"""

from __future__ import annotations

import copy as copying
import functools
from collections.abc import Callable
from typing import TypeVar

import numpy as np

#: The type of a cached function.
F = TypeVar("F", bound=Callable)


def typed_key(value) -> tuple:
    """``value`` with the type of every element beside it (tuples and frozensets walked), hashable as it is."""
    if isinstance(value, tuple):
        return (type(value), tuple(typed_key(v) for v in value))
    if isinstance(value, frozenset):
        return (frozenset, frozenset(typed_key(v) for v in value))
    return (type(value), value)


class _Call:
    """A call's arguments, equal and hashed by their :func:`typed_key` alone (so that the cache hashes and compares
    the arguments once, not once typed and once as they are)."""

    __slots__ = ("args", "hash", "key", "named")

    def __init__(self, args: tuple, named: tuple):
        self.args, self.named = args, named
        self.key = typed_key((args, named))
        self.hash = hash(self.key)

    def __eq__(self, other) -> bool:
        return isinstance(other, _Call) and self.key == other.key

    def __hash__(self) -> int:
        return self.hash


def exact_cache(function: F | None = None, *, copy: bool = False, maxsize: int | None = None):
    """``function`` memoised by :func:`typed_key` of its positional and keyword arguments, the last ``maxsize``
    argument lists (None: without bound, for functions of a few fixed arguments); with ``copy=True`` every call
    returns a deep copy of the cached value. Use as ``@exact_cache``, ``@exact_cache(copy=True)`` or
    ``@exact_cache(maxsize=1024)`` (a function that property-based tests call with ever new arguments).

    ``function`` must be pure; ``cache_clear`` and ``cache_info`` are those of the underlying
    :func:`functools.lru_cache`.

    >>> @exact_cache(maxsize=2)
    ... def square(x):
    ...     return x * x
    >>> [square(v) for v in (2, 2.0, 3, 2)], square.cache_info().currsize, square.cache_info().maxsize
    ([4, 4.0, 9, 4], 2, 2)
    """
    if function is None:
        return functools.partial(exact_cache, copy=copy, maxsize=maxsize)

    @functools.lru_cache(maxsize=maxsize)
    def cached(call: _Call):
        return function(*call.args, **dict(call.named))

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        value = cached(_Call(args, tuple(sorted(kwargs.items()))))
        return copying.deepcopy(value) if copy else value

    wrapper.cache_clear, wrapper.cache_info = cached.cache_clear, cached.cache_info
    return wrapper


def frozen(array) -> np.ndarray:
    """A read-only copy of ``array`` (writing to it raises ValueError), to be returned from a cached function."""
    out = np.array(array, copy=True)
    out.flags.writeable = False
    return out
