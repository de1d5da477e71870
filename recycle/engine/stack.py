"""Room on CPython's frame stack for deep recursion: `with_room(f, x)` calls `f(x)` in a fresh stack chunk.

CPython (3.11 to 3.13 at least) keeps Python frames in per-thread chunks of 16 KB.  A call
whose frame does not fit in the current chunk allocates a new chunk (an mmap) and the return
that pops that frame frees it again (a munmap).  A hot loop whose calls happen to straddle a
chunk boundary therefore pays two system calls and a page fault on every call: the same 10
random Rummykruss games took from 81 to 294 ms each depending only on how deep the caller's
stack was, and a bare loop calling a one-line function runs up to 170 times slower at the
wrong depth.  Option building for atomic blocks goes deep (hundreds of frames when it
enumerates, tens when it samples), so where its hot loops land is a lottery unless it starts
at a known place.

`with_room` calls through a function whose frame reserves about 131 KB of evaluation stack
that it never uses (so those pages are never touched): it never fits in a chunk already in use,
so CPython opens a 256 KB chunk for it, and the roughly 125 KB after it (about 800 frames)
holds the whole recursion below.  One chunk allocated per call instead of one per straddling
call, whatever the caller's depth.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

# co_stacksize only sizes the frame; the interpreter writes the slots it actually uses.
# 16,400 slots of 8 bytes plus CPython's minimum overhead round up to a 256 KB chunk.
_ROOM_SLOTS = 16_400
_here = threading.local()  # .inside: this thread already runs below a frame of `_jump`


def with_room(f: Callable[[T], R], x: T) -> R:
    """f(x), its recursion in a stack chunk of its own (see the module docstring).

    Below another call of `with_room` (a whole game played inside one, say) f runs at once,
    in the room already opened: a chunk costs a few tens of microseconds to map and fill.
    """
    if getattr(_here, "inside", False):
        return f(x)
    _here.inside = True
    try:
        return _jump(f, x)
    finally:
        _here.inside = False


def _jump(f: Callable[[T], R], x: T) -> R:
    return f(x)


_jump.__code__ = _jump.__code__.replace(co_stacksize=_ROOM_SLOTS)
