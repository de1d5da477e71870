"""The `recycle` command line: check, run, replay, flow, stats, games."""
from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path

from .errors import InternalError, LoadError, RecycleError, UsageError

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 70


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad flag as one line and exit code 2 (no usage dump)."""

    def error(self, message):  # noqa: D401 - argparse's hook
        raise UsageError(f"{self.prog}: {message} (see `{self.prog} --help`)")


def game_files(paths: list[str]) -> list[Path]:
    """Expand directories to the game files (.gdl, .rcy) they hold, sorted; files as given."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(q for q in p.iterdir() if q.suffix in (".gdl", ".rcy"))
            if not found:
                raise UsageError(f"{p}: no .gdl or .rcy files in this directory")
            out.extend(found)
        else:
            out.append(p)
    return out


def cmd_check(args) -> int:
    from .build import load_game

    results = []
    for path in game_files(args.paths):
        try:
            loaded = load_game(path)
            results.append((path, [], list(loaded.warnings)))
        except LoadError as e:
            results.append((path, e.diagnostics, e.warnings))
    if args.json:
        print(json.dumps([
            {"file": str(p), "ok": not errs, "errors": [d.to_json() for d in errs], "warnings": [d.to_json() for d in warns]}
            for p, errs, warns in results
        ], indent=2))
    else:
        for p, errs, warns in results:
            if errs:
                print(f"{p}: {len(errs)} error{'s' if len(errs) != 1 else ''}")
                for d in errs:
                    print(d.format())
            else:
                note = f" ({len(warns)} warning{'s' if len(warns) != 1 else ''})" if warns else ""
                print(f"{p}: ok{note}")
            if not args.quiet:
                for d in warns:
                    print(d.format())
    return EXIT_OK if all(not errs for _, errs, _ in results) else EXIT_FAIL


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="recycle", description="Parse, check, run and analyse RECYCLE card games.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    c = sub.add_parser("check", help="check game files; exit 0 iff every file is valid")
    c.add_argument("paths", nargs="+", metavar="PATH", help="game files or directories of them")
    c.add_argument("--json", action="store_true", help="print a JSON list, one object per file")
    c.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    c.set_defaults(func=cmd_check)

    from . import analysis_cli, commands

    commands.register(sub)
    analysis_cli.register(sub)
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


if __name__ == "__main__":
    sys.exit(main())
