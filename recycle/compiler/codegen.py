"""Generated Python compiled once per distinct text.

Every `set`, `inc`, `dec` and `move` is compiled to a small function written for its form
(actions._generated), and a game repeats the same few texts many times over: a megabyte of
`(inc ((current player) sto SCORE) 1)` is 20,000 texts with a handful of distinct ones, and
Python's `compile` was most of the compiler's time on it.  The code object of a text is kept and
run again in each form's own namespace, which makes a fresh function bound to that form's objects,
exactly as compiling the text anew would.
"""
from __future__ import annotations

import functools
from types import CodeType

# Distinct texts kept: far more than a game holds (the largest shipped game writes a few hundred),
# and a bound on what a long-lived process (a tournament of many games) keeps.
CACHED_TEXTS = 4096


@functools.lru_cache(maxsize=CACHED_TEXTS)
def _code(source: str, filename: str) -> CodeType:
    return compile(source, filename, "exec")


def define(source: str, filename: str, ns: dict) -> None:
    """Run the definitions of `source` in the namespace ns, compiling the text only the first time it is seen."""
    exec(_code(source, filename), ns)


def compiles() -> int:
    """How many texts have been compiled so far (the cache's misses): what tests count."""
    return _code.cache_info().misses
