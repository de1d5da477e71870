"""Work counted, not timed: the Python calls a piece of code makes, and a game whose forms nest deep
(tests/lang/test_large_files.py and tests/compiler/test_large_files.py)."""
from __future__ import annotations

import sys

from .games import make_game


def python_calls(fn, code=None) -> int:
    """How many Python frames fn() enters (each resumption of a generator is one), only those running
    `code` if given."""
    n = 0

    def count(frame, event, arg):
        nonlocal n
        if event == "call" and (code is None or frame.f_code is code):
            n += 1

    sys.setprofile(count)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return n


def nested_game(depth: int, items: int) -> str:
    """A game of `items` items, each setting a value nested `depth` forms deep."""
    expr = "(+ 1 " * depth + "0" + ")" * depth
    return make_game(declares="(declare 0 'X)",
                     items="\n ".join(f"(do ((set (game sto X) {expr})))" for _ in range(items)))
