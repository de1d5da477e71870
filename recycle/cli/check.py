"""`recycle check`: check game files (or folders of them); exit 0 iff every one loads."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import MAX_SHOWN_ERRORS, Diagnostic, LoadError, UsageError, format_errors
from ..lang import load_game

EXIT_OK, EXIT_FAIL = 0, 1


def register(sub) -> None:
    """Add `check` to the CLI's subcommands."""
    c = sub.add_parser("check", help="check game files; exit 0 iff every file is valid")
    c.add_argument("paths", nargs="+", metavar="PATH", help="game files or directories of them")
    c.add_argument("--json", action="store_true", help="print a JSON list, one object per file")
    c.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    c.add_argument("--max-errors", type=int, default=MAX_SHOWN_ERRORS, metavar="N",
                   help=f"print at most N errors and N warnings per file, then how many more (default "
                        f"{MAX_SHOWN_ERRORS}; 0: all)")
    c.set_defaults(func=cmd_check)


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


def cmd_check(args: argparse.Namespace) -> int:
    results: list[tuple[Path, list[Diagnostic], list[Diagnostic]]] = []
    for path in game_files(args.paths):
        try:
            loaded = load_game(path)
            results.append((path, [], list(loaded.warnings)))
        except LoadError as e:
            results.append((path, e.diagnostics, e.warnings))
    n = args.max_errors if args.max_errors > 0 else None
    if args.json:
        print(json.dumps([
            {"file": str(p), "ok": not errs, "errors": [d.to_json() for d in errs[:n]],
             "warnings": [d.to_json() for d in warns[:n]],
             **({"more_errors": len(errs) - n} if n is not None and len(errs) > n else {}),
             **({"more_warnings": len(warns) - n} if n is not None and len(warns) > n else {})}
            for p, errs, warns in results
        ], indent=2))
    else:
        for p, errs, warns in results:
            if errs:
                print(f"{p}: {len(errs)} error{'s' if len(errs) != 1 else ''}")
                for text in format_errors(errs, n):
                    print(text)
            else:
                note = f" ({len(warns)} warning{'s' if len(warns) != 1 else ''})" if warns else ""
                print(f"{p}: ok{note}")
            if not args.quiet:
                for text in format_errors(warns, n):
                    print(text.replace(" more error", " more warning"))
    return EXIT_OK if all(not errs for _, errs, _ in results) else EXIT_FAIL
