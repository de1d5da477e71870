"""The cyclic garbage collector held off while a game is loaded or compiled.

Loading a megabyte of small forms makes millions of objects that all live on (tokens, forms, AST
nodes, closures), none of them garbage; the collector, triggered every few hundred allocations,
walks them again and again for nothing: about half the time of `recycle check` on such a file.
Reference counting still frees everything that is not in a cycle, and the collector runs as usual
once the work is done, starting with one collection of the young generations: the objects made
meanwhile go to the oldest in one pass, rather than in the first collections of the game played next
(a megabyte's game then played at a third of its speed for its first games).
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the body with the cyclic collector off, then turn it back on if it was on (collecting the young
    generations once)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
            gc.collect(1)
