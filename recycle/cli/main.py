"""The `recycle` command line: the parser, the commands in order, and the exit statuses.

Every command module adds its subcommand with `register(sub)`; this module turns what a
command raises into one message and a status: 0 done, 1 a game that does not load or a
failure the user can fix, 2 a bad request, 70 a bug in recycle (with its trace), 130 interrupted.
"""
from __future__ import annotations

import argparse
import sys
import traceback
from typing import NoReturn

from ..errors import InternalError, RecycleError, UsageError
from ..version import __version__
from . import check, flow, games, lsp, new, play, replay, run, stats

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 70

# In the order `recycle --help` lists them.
COMMANDS = (check, run, replay, games, play, flow, stats, new, lsp)


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
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        return args.func(args)
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except RecycleError as e:
        print(e.format(), file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except (InternalError, Exception) as e:  # a bug in recycle, never the user's fault
        print("internal error: this is a bug in recycle, please report it with the trace below", file=sys.stderr)
        traceback.print_exception(e, file=sys.stderr)
        return EXIT_BUG
