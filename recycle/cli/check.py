"""`recycle check`: check game files (or folders of them); exit 0 iff every one loads."""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import attrs

from ..errors import MAX_SHOWN_ERRORS, Diagnostic, LoadError, UsageError, cut_text, format_errors
from ..lang import library, load_game
from ..lsp.analysis import Document, chain  # the editor's reading of `(extends …)` (no pygls)
from .options import add_dialect_option

MAX_INTERVAL = 86_400  # a day: time.sleep refuses inf, and a longer wait watches nothing

EXIT_OK, EXIT_FAIL = 0, 1


def register(sub) -> None:
    """Add `check` to the CLI's subcommands."""
    c = sub.add_parser("check", help="check game files; exit 0 iff every file is valid")
    c.add_argument("paths", nargs="+", metavar="PATH", help="game files or directories of them")
    c.add_argument("--json", action="store_true", help="print a JSON list, one object per file")
    add_dialect_option(c)
    c.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    c.add_argument("--strict", action="store_true", help="treat warnings as errors (exit 1 when there are any)")
    c.add_argument("--max-errors", type=int, default=MAX_SHOWN_ERRORS, metavar="N",
                   help=f"print at most N errors and N warnings per file, then how many more (default "
                        f"{MAX_SHOWN_ERRORS}; 0: all)")
    c.add_argument("--watch", action="store_true",
                   help="check again whenever a file (or a base it extends) is saved; print only what changed; "
                        "Ctrl-C stops")
    c.add_argument("--interval", type=float, default=0.5, metavar="SECONDS",
                   help="with --watch: how often to look at the files' times (default 0.5)")
    c.set_defaults(func=cmd_check)


def game_files(paths: list[str]) -> list[Path]:
    """Expand directories to the game files (.gdl, .rcy) they hold, sorted; files as given; the name of
    a shipped game (as every other command takes it) stands for its file."""
    out: list[Path] = []
    if "" in paths:  # Path("") is the current folder: an unset shell variable ("$GAME") would name it
        raise UsageError("check: a PATH is an empty name: give a game file or a folder (. for this one)")
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(q for q in p.iterdir() if q.suffix in (".gdl", ".rcy"))
            if not found:
                raise UsageError(f"{p}: no .gdl or .rcy files in this directory")
            out.extend(found)
        elif not p.exists() and str(p) in library.shipped():
            out.append(library.shipped()[str(p)])
        else:
            out.append(p)
    return out


Result = tuple[Path, list[Diagnostic], list[Diagnostic]]


def check_file(path: Path, dialect: str = "auto") -> Result:
    try:
        loaded = load_game(path, dialect=dialect)
        return path, [], list(loaded.warnings)
    except LoadError as e:
        return path, e.diagnostics, e.warnings


def report(result: Result, quiet: bool, n: int | None = MAX_SHOWN_ERRORS) -> str:
    """What `check` prints for one file: at most n errors and n warnings (None: all), then how many more."""
    p, errs, warns = result
    name = cut_text(str(p), len(str(p)))  # a file's name may hold terminal escapes: shown inert
    lines = []
    if errs:
        lines.append(f"{name}: {len(errs)} error{'s' if len(errs) != 1 else ''}")
        lines.extend(format_errors(errs, n))
    else:
        note = f" ({len(warns)} warning{'s' if len(warns) != 1 else ''})" if warns else ""
        lines.append(f"{name}: ok{note}")
    if not quiet:
        lines.extend(text.replace(" more error", " more warning") for text in format_errors(warns, n))
    return "\n".join(lines)


def cmd_check(args: argparse.Namespace) -> int:
    if args.watch:
        return watch(args)
    results = [check_file(path, args.dialect) for path in game_files(args.paths)]
    if args.strict:  # every warning becomes an error of the same class
        results = [(p, [*errs, *(attrs.evolve(w, severity="error") for w in warns)], []) for p, errs, warns in results]
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
        for r in results:
            print(report(r, args.quiet, n))
    return EXIT_OK if all(not errs for _, errs, _ in results) else EXIT_FAIL


def _watched(path: Path) -> list[Path]:
    """A game file and the files it builds on (a variant's bases): a change to any of them re-checks it."""
    try:
        return [Path(d.path) for d in chain(Document(path.read_text("utf-8"), str(path))) if d.path]
    except (OSError, UnicodeDecodeError):
        return [path]


def _stamp(paths: list[Path]) -> tuple:
    out: list[tuple[int, int] | None] = []
    for p in paths:
        try:
            st = p.stat()
            out.append((st.st_mtime_ns, st.st_size))
        except OSError:
            out.append(None)
    return tuple(out)


def watch(args: argparse.Namespace) -> int:
    """Check, then poll the files' times; print a file's report again only when it changed. Ctrl-C: 130."""
    if args.json:
        raise UsageError("--watch prints reports as files change; it cannot be combined with --json")
    if not 0 < args.interval < MAX_INTERVAL:  # (false for nan too, which sleep refuses)
        raise UsageError(f"--interval must be a positive number of seconds, less than {MAX_INTERVAL:,}")
    shown: dict[Path, str] = {}
    stamps: dict[Path, tuple] = {}
    try:
        while True:
            for path in game_files(args.paths):
                watched = _watched(path)
                stamp = _stamp(watched)
                if stamps.get(path) == stamp:
                    continue
                stamps[path] = stamp
                limit = args.max_errors if args.max_errors > 0 else None
                text = report(check_file(path, args.dialect), args.quiet, limit)
                if shown.get(path) != text:
                    shown[path] = text
                    print(text, flush=True)
            time.sleep(args.interval)
    except KeyboardInterrupt:
        return 130
