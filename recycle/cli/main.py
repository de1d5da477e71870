"""The `recycle` command line: the parser, the commands in order, and the exit statuses.

Every command module adds its subcommand with `register(sub)`; this module turns what a
command raises into one message and a status: 0 done, 1 a game that does not load or a
failure the user can fix, 2 a bad request, 70 a bug in recycle (with its trace), 130 interrupted,
141 (128 + SIGPIPE, as a shell reports a command killed by a closed pipe) when the reader of the
output went away (`recycle run … | head`): quietly, with no message and no trace.
"""
from __future__ import annotations

import argparse
import errno
import os
import sys
import traceback
from typing import NoReturn

from ..engine import watchdog
from ..errors import InternalError, RecycleError, UsageError
from ..players import registry
from ..version import __version__
from . import check, flow, games, lsp, merge, new, play, replay, run, stats, tournament, view
from .memory import ceiling_message, restore_memory_ceiling, set_memory_ceiling

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 70
EXIT_PIPE = 128 + 13  # SIGPIPE
# What the system says of a path the user mistyped (a bad request, status 2) rather than of the
# disk under it (status 1).
_BAD_NAME = frozenset({errno.ENAMETOOLONG, errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ELOOP, errno.EINVAL})

# In the order `recycle --help` lists them.
COMMANDS = (check, run, merge, replay, view, games, play, flow, stats, tournament, new, lsp)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad flag as one line and exit code 2 (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see `{self.prog} --help`)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="recycle", description="Parse, check, run and analyse RECYCLE card games.")
    p.add_argument("--version", action="version", version=f"recycle {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for command in COMMANDS:
        command.register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `recycle` console script."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # started with it closed (`>&-`): written as if to /dev/null
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (the process's stream)
    to_null = _stdout_is_devnull()
    ceiling = None
    step_time = None  # the step-time limit replaced, put back after the command (tests run many in one process)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if getattr(args, "max_memory", None):
            ceiling = set_memory_ceiling(args.max_memory)
        if getattr(args, "max_step_time", None) is not None:  # this process's and its forked workers' limit
            step_time = watchdog.set_max_step_time(args.max_step_time)
        code = args.func(args)
        if not sys.stdout.closed:  # (the language server closes it when it exits)
            sys.stdout.flush()  # a closed pipe shows here, not at exit
        return code
    except UsageError as e:
        print(_inert(f"error: {e}"), file=sys.stderr)
        return EXIT_USAGE
    except RecycleError as e:
        print(e.format(), file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except watchdog.StepTimeExceeded:
        # the watchdog's exception arrives inside a step, where Program.run makes it the game's error (the play
        # loops and batches handle one landing just after a step); only a landing elsewhere arrives here
        print(f"error: {watchdog.message(watchdog.max_step_time())}", file=sys.stderr)
        return EXIT_FAIL
    except BrokenPipeError:
        _drop_stdout()
        return EXIT_PIPE
    except SystemExit as e:
        # rich's Console answers a broken pipe itself: stdout sent to devnull, then SystemExit(1)
        if e.code == 1 and not to_null and _stdout_is_devnull():
            return EXIT_PIPE
        raise
    except MemoryError:
        print(f"error: {ceiling_message()}", file=sys.stderr)
        return EXIT_FAIL
    except OSError as e:
        # The system refused a path the user named (a name too long, a loop of links, a full or
        # read-only disk): the user's to fix, so one line naming the file, not a trace. An OSError
        # without a file name is no such refusal and falls through to the bug report below.
        if e.filename is None or isinstance(e, BrokenPipeError):
            return _bug(e)
        print(f"error: {_shown(e.filename)}: {e.strerror or e}", file=sys.stderr)
        return EXIT_USAGE if e.errno in _BAD_NAME else EXIT_FAIL
    except (InternalError, Exception) as e:  # a bug in recycle, never the user's fault
        return _bug(e)
    finally:
        restore_memory_ceiling(ceiling)
        if step_time is not None:
            watchdog.set_max_step_time(step_time)


def _bug(e: BaseException) -> int:
    failure = registry.user_failure(e)
    if failure is not None:  # the user's own player class failed: their code, named, not a bug of recycle
        print(failure, file=sys.stderr)
        return EXIT_FAIL
    print("internal error: this is a bug in recycle, please report it with the trace below", file=sys.stderr)
    traceback.print_exception(e, file=sys.stderr)
    return EXIT_BUG


def _shown(name: object) -> str:
    """A file name as one line of bounded length: a hostile name may be kilobytes long or hold newlines."""
    text = os.fsdecode(name) if isinstance(name, (str, bytes)) else str(name)
    text = text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text
    return text if len(text) <= 200 else f"{text[:100]}…{text[-60:]}"


def _inert(text: str) -> str:
    """A message as the terminal shows it, control characters (a name's terminal escapes) made inert; its lines kept."""
    return text if text.isprintable() else "".join(c if c.isprintable() or c == "\n" else "\ufffd" for c in text)


def _drop_stdout() -> None:
    """After a broken pipe: send what is left of stdout to devnull, so that exiting prints no second error.

    (The way the Python documentation recommends, in the notes on SIGPIPE of the `signal` module.)
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (a test's capture): nothing to flush at exit
        pass


def _stdout_is_devnull() -> bool:
    try:
        return os.path.samestat(os.fstat(sys.stdout.fileno()), os.stat(os.devnull))
    except (OSError, ValueError, AttributeError):  # no real stdout (a test's capture)
        return False
