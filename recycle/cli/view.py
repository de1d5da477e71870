"""`recycle view`: write the replay viewer of a transcript (or a folder of them) and open it in a browser."""
from __future__ import annotations

import argparse
import sys
import webbrowser
from pathlib import Path

from ..errors import RecycleError, UsageError
from ..visualize.viewer import write_viewer
from .options import refuse_unread_fifo


def register(sub) -> None:
    """Add `view` to the CLI's subcommands."""
    vp = sub.add_parser("view", help="write a self-contained HTML replay viewer of a transcript and open it",
                        description="Replay a transcript (or every transcript of a folder, or of its transcripts/ "
                                    "folder) through the engine and write one self-contained HTML page that steps "
                                    "through its decisions: every location's cards, the omniscient view and each "
                                    "seat's view (hidden cards face down), the options offered and the one taken, "
                                    "scores and storage. No server, no network (docs/viewer.md).")
    vp.add_argument("source", type=Path, metavar="TRANSCRIPT|FOLDER")
    vp.add_argument("--game", type=Path,
                    help="the game file (default: the file the header names inside the transcript's folder, "
                         "else the shipped game of the header's name; its sha256 is checked)")
    vp.add_argument("-o", "--out", type=Path, metavar="FILE",
                    help="the page to write (default: beside the transcript, NAME.html; for a folder, "
                         "FOLDER/viewer.html)")
    vp.add_argument("--force", action="store_true", help="overwrite the page if it exists")
    vp.add_argument("--no-open", action="store_true", help="write the page only; do not open a browser")
    vp.add_argument("--seat", action="append", metavar="pN",
                    help="only this seat's view (repeatable); the page then holds no omniscient view, so it "
                         "contains no card face that those seats cannot see")
    vp.set_defaults(func=cmd_view)


def _seats(names: list[str] | None) -> list[int] | None:
    if not names:
        return None
    seats = []
    for name in names:
        text = name.strip().lower()
        if not (text.startswith("p") and text[1:].isdigit() and int(text[1:]) >= 1):
            raise UsageError(f"--seat {name!r}: write a seat as p1, p2, …")
        seats.append(int(text[1:]) - 1)
    return seats


def cmd_view(args: argparse.Namespace) -> int:
    seats = _seats(args.seat)
    kw = {"seats": seats, "omniscient": seats is None}
    if args.out is not None:
        refuse_unread_fifo(args.out, "-o")
    try:
        path, notes = write_viewer(args.source, args.out, game_path=args.game, force=args.force, **kw)
    except OSError as e:
        if e.filename is not None or isinstance(e, BrokenPipeError):  # main names the path, or exits quietly
            raise
        # the page's text refused without a name (a full disk, /dev/full): the user's disk, not a bug
        raise RecycleError(f"error: cannot write the page{f' {args.out}' if args.out else ''}: "
                           f"{e.strerror or e}") from None
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    print(f"wrote {path}")
    if not args.no_open:
        webbrowser.open(path.resolve().as_uri())
    return 0
