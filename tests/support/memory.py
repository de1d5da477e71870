"""Memory a piece of work holds and peaks at, as tracemalloc counts it."""
from __future__ import annotations

import gc
import tracemalloc


def traced(play) -> tuple[int, int]:
    """(memory still held, peak) of play() as tracemalloc counts them, in bytes."""
    gc.collect()
    tracemalloc.start()
    try:
        play()
        return tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
