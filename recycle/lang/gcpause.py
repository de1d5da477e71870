"""The cyclic garbage collector held off while a game is loaded or compiled.

Loading a megabyte of small forms makes millions of objects that all live on (tokens, forms, AST
nodes, closures), none of them garbage; the collector, triggered every few hundred allocations,
walks them again and again for nothing: about half the time of `recycle check` on such a file.
Reference counting still frees everything that is not in a cycle, and the collector runs as usual
once the work is done.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the body with the cyclic collector off, then turn it back on if it was on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
