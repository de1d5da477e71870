"""The memory ceiling of a command that plays games: RLIMIT_AS of this process, inherited by its workers.

`recycle run` and `recycle stats` set it before any game is loaded (`--max-memory MB`, default
options.DEFAULT_MAX_MEMORY_MB; 0 for none).  Worker processes are forked from the command, so
each of them starts under the same ceiling, counted for each process on its own.  A game that
needs more stops with a MemoryError: in a worker's game it is that game's `resource` error, in
the command itself one line naming the ceiling and the flag that raises it.
"""
from __future__ import annotations

import sys

try:
    import resource
except ImportError:  # pragma: no cover - not on POSIX: no ceiling
    resource = None  # type: ignore[assignment]

__all__ = ["ceiling_message", "current_ceiling_mb", "restore_memory_ceiling", "set_memory_ceiling"]

_SET: list[int] = []  # the ceiling set by this process, in MB


def set_memory_ceiling(mb: int) -> tuple[int, int] | None:
    """Lower this process's address-space limit to mb megabytes (0: leave it); never raises it past the hard limit.

    Returns the limits it replaced (for restore_memory_ceiling), or None if it changed nothing.
    """
    want = mb * 1024 * 1024
    if not mb or resource is None or want > sys.maxsize:  # more than any address space: no ceiling
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    _SET.append(mb)
    if soft == resource.RLIM_INFINITY or want < soft:
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))
        return soft, hard
    return None


def restore_memory_ceiling(old: tuple[int, int] | None) -> None:
    """Put back the limits set_memory_ceiling replaced: a command run inside a longer-lived Python
    (tests, a notebook) leaves that process as it found it."""
    if old is not None and resource is not None:
        resource.setrlimit(resource.RLIMIT_AS, old)


def current_ceiling_mb() -> int | None:
    """The ceiling this process set last, in MB (None: none set), for workers that do not inherit it (Ray's)."""
    if not _SET or resource is None:
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    return _SET[-1] if soft != resource.RLIM_INFINITY else None


def ceiling_message() -> str:
    """The one line a command prints when it ran out of memory."""
    if _SET:
        return (f"out of memory: the memory ceiling of {_SET[-1]:,} MB per process was reached "
                "(raise it with --max-memory MB, or 0 for none; docs/limits.md)")
    return "out of memory"
